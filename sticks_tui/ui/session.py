"""The app's session (brains, store, randomness, settings), what a game needs from setup, and how
the players for it are made. No rules decided here."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sticks_tui import vocabulary
from sticks_tui.learn.hats import Hats

from sticks_tui.play.players import (
    AlwaysOnePlayer,
    HatPlayer,
    HumanPlayer,
    PerfectPlayer,
    RandomPlayer,
)

# the vocabulary below the UI, under the names the screens know
OPPONENTS: dict[str, str] = vocabulary.opponents("sticks")
AI_NAMES: dict[str, str] = vocabulary.ai_names("sticks")  # no person may play under one (store.names)
FIRST_CHOICES = vocabulary.FIRST_CHOICES
SPEEDS = vocabulary.SPEEDS
DEFAULT_SPEED = vocabulary.DEFAULT_SPEED
TRAINED_AI_GAMES = vocabulary.TRAINED_AI_GAMES
BRAIN_SIZE = vocabulary.APP_BRAIN_SIZE  # one hat for every heap the app offers
DEFAULT_BRAIN = vocabulary.DEFAULT_BRAIN
HAT_BRAINS = vocabulary.HAT_BRAINS
HAT_CHOICES = vocabulary.HAT_CHOICES
NIM_LEARNER_BOX = vocabulary.NIM_LEARNER_BOX


nim_brain_name = vocabulary.nim_brain_name


@dataclass(frozen=True)
class MatchSetup:
    game: str = "sticks"  # or "nim"
    piles: tuple[int, int, int] = (3, 4, 5)  # Nim's nickels, dimes, quarters
    heap: int = 20
    opponent: str = "learning"
    name1: str = "Player 1"
    name2: str = "Player 2"
    first: str = "p1"
    watch: bool = False
    speed: str = DEFAULT_SPEED

    @property
    def delay(self) -> float:
        return SPEEDS.get(self.speed, SPEEDS[DEFAULT_SPEED])

    def first_mover(self, round_number: int, rng: random.Random) -> int:
        if self.first == "p2":
            return 1
        if self.first == "alternate":
            return round_number % 2
        if self.first == "random":
            return rng.randrange(2)
        return 0


def people_names(app) -> tuple[str, str]:
    """The people's names typed on the setup screen, for every way into a game (its Start, the command palette,
    a game screen's own choice of opponent): Player 1's as typed (while watching, the one typed before), and
    Player 2's as typed for a friend (with an AI in that seat, the friend's name typed last). Without a setup
    screen, the names kept in the settings."""
    setup = next((s for s in app.screen_stack if hasattr(s, "people_names") and s.is_mounted), None)
    return setup.people_names() if setup is not None else (app.settings.name1, app.settings.name2)


def make_opponent(kind: str, name: str, *, brain=None, rng: random.Random, bus=None):
    if kind == "friend":
        return HumanPlayer(name)
    if kind == "dumb":
        return AlwaysOnePlayer(name)
    if kind == "random":
        return RandomPlayer(name, rng)
    if kind == "perfect":
        return PerfectPlayer(name)
    if kind in ("learning", "trained"):
        if brain is None:
            raise ValueError(f"The {AI_NAMES[kind].lower()} needs a brain.")
        player = HatPlayer(name, brain, rng, bus)
        player.kind = kind
        return player
    raise ValueError(f"There is no opponent called {kind!r}.")


@dataclass
class TrainingState:
    """The background training run (F2): whether it runs, what it started from, what it gave."""

    running: bool = False
    config: Any = None  # the run's TrainingConfig (learn.trainer)
    start_counts: Any = None  # the brain's counts when the run started (numpy array)
    last_result: Any = None  # the last finished run's TrainingResult
    points: list[tuple[int, float, float]] = field(default_factory=list)  # the running curve
    rules: Any = None  # the game the run trains (sticks: its heap): the curve's figures are about it


@dataclass
class Session:
    """Everything the screens share, made by the app at start-up and reached as `app.session`."""

    data_dir: str | None = None
    seed: int | None = None
    ai_delay_override: float | None = None  # seconds per AI move for every game (tests, demos)
    trained_games: int | None = None  # games the trained AI plays first (None: TRAINED_AI_GAMES)
    rng: random.Random = field(default_factory=random.Random)
    store: Any = None  # sticks_tui.store.Store, opened on mount
    brain_name: str = DEFAULT_BRAIN
    brain: Hats = field(default_factory=lambda: Hats(BRAIN_SIZE))
    #: False when the stored brain `brain_name` could not be used: the AI then plays with fresh hats
    #: that are never saved, so the stored brain is left exactly as it is (issue 13).
    brain_kept: bool = True
    #: The brain's counts as this app last read them from the store or wrote them there: a save
    #: merges only the change since then onto the brain as stored (other tabs' lessons are kept).
    brain_base: Any = None
    nim_brain: Any = None  # Hats over NimRules, loaded (or made) on first use (see nim_hats)
    nim_stored_as: str | None = None  # the stored brain the Nim AI learns into; None: not kept
    nim_problem: str | None = None  # why the Nim AI's hats are not kept this time (None: they are)
    nim_base: Any = None  # the Nim brain's counts as last read from or written to the store (as brain_base)
    #: Callables giving more kept brains for the live check (`other_kept_brains`): MENACE's keeper's.
    held_brains: list = field(default_factory=list)
    last_setup: MatchSetup | None = None
    training: TrainingState = field(default_factory=TrainingState)
    #: Every game finished on a game screen this session: (player 1's name, player 2's name, the winner's name).
    results: list[tuple[str, str, str]] = field(default_factory=list)
    idle_training: bool = True  # training threads yield their core to every other thread (SCHED_IDLE)

    @classmethod
    def create(cls, data_dir: str | None = None, *, seed: int | None = None, ai_delay: float | None = None,
               trained_games: int | None = None, idle_training: bool = True) -> Session:
        return cls(data_dir=data_dir, seed=seed, ai_delay_override=ai_delay, trained_games=trained_games,
                   rng=random.Random(seed), idle_training=idle_training)

    def other_kept_brains(self):
        """The brains besides the one in play that this tab holds and keeps in the store, for the live
        check (ui/live.py): (name, brain with `counts`, counts as last read or written, adopt(counts),
        cell(row, column) -> (position, move) in words' terms). The Nim learner's once a Nim screen has
        loaded it, and those the screens hand in (`held_brains`: MENACE's boxes)."""
        found = []
        if self.nim_brain is not None and self.nim_stored_as is not None:
            hats = self.nim_brain

            def adopt(counts) -> None:
                hats.counts[:] = counts
                self.nim_base = hats.counts.copy()

            def cell(row: int, column: int):
                position = hats.positions[row]
                return position, hats.moves_of(position)[column]

            found.append((self.nim_stored_as, hats, self.nim_base, adopt, cell))
        for provider in self.held_brains:
            found.extend(provider())
        return found

    def nim_hats(self):
        """The learning AI for Nim, loaded on first use by the kept-brain service (`ui.keeper.nim_hats`,
        as the sticks brain is: a stored brain that does not fit is left as it is, the AI plays with
        fresh hats that are not kept, and `nim_problem` says why). The screens ask `app.keeper`."""
        from sticks_tui.ui.keeper import nim_hats

        return nim_hats(self)

    def child_seed(self) -> int | None:
        """A seed for a training run: drawn from the session's rng when the session is seeded."""
        return None if self.seed is None else self.rng.randrange(2**32)

    def ai_delay(self, speed_seconds: float) -> float:
        return self.ai_delay_override if self.ai_delay_override is not None else speed_seconds
