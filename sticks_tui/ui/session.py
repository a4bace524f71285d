"""The app's session (brains, store, randomness, settings), what a game needs from setup, and how
the players for it are made. No rules decided here, and no game named: what differs by game comes
from its registry entry (`engine.registry`) and its board (`ui.boards`).

Kept brains are held by key, not by field: `Session.kept[(game, brain name)]` is a `KeptBrain` (the
brain, whether the store keeps it, its counts as last read or written). `Session.brain` and its
companions are the one the train dialog, the analysis and the help speak of (the first game's chosen
brain), until they follow the game in play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.learn.hats import Hats
from sticks_tui.play.players import (
    AlwaysOnePlayer,
    HatPlayer,
    HumanPlayer,
    PerfectPlayer,
    RandomPlayer,
)

# the vocabulary below the UI, under the names the screens know
FIRST_CHOICES = vocabulary.FIRST_CHOICES
SPEEDS = vocabulary.SPEEDS
DEFAULT_SPEED = vocabulary.DEFAULT_SPEED
TRAINED_AI_GAMES = vocabulary.TRAINED_AI_GAMES
BRAIN_SIZE = vocabulary.APP_BRAIN_SIZE  # one hat for every heap the app offers
DEFAULT_BRAIN = vocabulary.DEFAULT_BRAIN
HAT_BRAINS = vocabulary.HAT_BRAINS
HAT_CHOICES = vocabulary.HAT_CHOICES
#: The opponent kinds that are a learner (its brain kept in the store); "trained" learns first, then plays.
LEARNER_KINDS = ("learning", "menace", "trained")


def first_game() -> str:
    """The game the app opens on when nothing was chosen yet: the first the registry lists."""
    return registry.names()[0]


def opponents(game: str) -> dict[str, str]:
    return vocabulary.opponents(game)


def ai_names(game: str) -> dict[str, str]:
    return vocabulary.ai_names(game)


@dataclass(frozen=True)
class MatchSetup:
    """A game as set up: which game, from where (`start`, the game's own position value; None: its
    first start position), against whom, the names, who moves first, watching AI vs AI, the AI's speed."""

    game: str = field(default_factory=first_game)
    start: Any = None
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

    @property
    def rules(self):
        """The rules a game of it is played under."""
        return registry.entry(self.game).make_rules(self.start)

    @property
    def start_position(self):
        """Where its games start: `start`, or the rules' first start position."""
        rules = self.rules
        return rules.start_positions()[0] if self.start is None else rules.decode_position(self.start)


def people_names(app) -> tuple[str, str]:
    """The people's names typed on the setup screen, for every way into a game (its Start, the command palette,
    a game screen's own choice of opponent): Player 1's as typed (while watching, the one typed before), and
    Player 2's as typed for a friend (with an AI in that seat, the friend's name typed last). Without a setup
    screen, the names kept in the settings."""
    setup = next((s for s in app.screen_stack if hasattr(s, "people_names") and s.is_mounted), None)
    return setup.people_names() if setup is not None else (app.settings.name1, app.settings.name2)


def setup_start(app, game: str):
    """Where the app's games of `game` start: the setup's start as the settings keep it (else its board's default),
    as a position of the game; None for the rules' own first start (a game with one start)."""
    from sticks_tui.ui.boards import board_of

    start = app.settings.of(game).start
    if start is None:
        start = board_of(game).default_start
    if start is None:
        return None
    try:
        return registry.entry(game).make_rules(start).decode_position(start)
    except (ValueError, TypeError):
        return None


def make_player(kind: str, name: str, *, brain=None, rng: random.Random, bus=None):
    """The player of kind `kind` ('friend', 'dumb', 'random', 'perfect', or a learner with `brain`)."""
    if kind in vocabulary.HUMAN_OPPONENTS:
        return HumanPlayer(name)
    if kind == "dumb":
        return AlwaysOnePlayer(name)
    if kind == "random":
        return RandomPlayer(name, rng)
    if kind == "perfect":
        return PerfectPlayer(name)
    if kind in LEARNER_KINDS:
        if brain is None:
            raise ValueError(f"The {kind} AI needs a brain.")
        player = HatPlayer(name, brain, rng, bus)
        player.kind = kind
        return player
    raise ValueError(f"There is no opponent called {kind!r}.")


make_opponent = make_player


@dataclass
class KeptBrain:
    """A learner's brain as this tab holds it: the stored brain `name` of `game` (`kept`), or a fresh one
    that is never saved (`problem` says why, when the store refused the stored one)."""

    game: str
    name: str
    brain: Any
    kept: bool = True
    #: The brain's counts as this tab last read them from the store or wrote them there: a save merges
    #: only the change since then onto the brain as stored (other tabs' lessons are kept).
    base: Any = None
    problem: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.game, self.name

    def adopt(self, counts) -> None:
        """Play on with the brain as stored, in place (the players hold this brain); it is the new base."""
        if counts.shape == self.brain.counts.shape:
            self.brain.counts[:] = counts
            self.base = counts.copy()


@dataclass
class TrainingState:
    """The background training run (F2): whether it runs, what it started from, what it gave."""

    running: bool = False
    config: Any = None  # the run's TrainingConfig (learn.trainer)
    start_counts: Any = None  # the brain's counts when the run started (numpy array)
    last_result: Any = None  # the last finished run's TrainingResult
    points: list[tuple[int, float, float]] = field(default_factory=list)  # the running curve
    rules: Any = None  # the game the run trains (sticks: its heap): the curve's figures are about it
    kept: Any = None  # the KeptBrain the run trains (a game's learner's brain, by game and name)


def _main_brain() -> KeptBrain:
    return KeptBrain(first_game(), DEFAULT_BRAIN, Hats(BRAIN_SIZE), kept=True)


@dataclass
class Session:
    """Everything the screens share, made by the app at start-up and reached as `app.session`."""

    data_dir: str | None = None
    seed: int | None = None
    ai_delay_override: float | None = None  # seconds per AI move for every game (tests, demos)
    trained_games: int | None = None  # games the trained AI plays first (None: TRAINED_AI_GAMES)
    rng: random.Random = field(default_factory=random.Random)
    store: Any = None  # sticks_tui.store.Store, opened on mount
    #: Every kept brain this tab holds, by (game, brain name); loaded on first use (`ui.keeper`).
    kept: dict[tuple[str, str], KeptBrain] = field(default_factory=dict)
    #: The brain each game's learning AI plays with, when not its board's first (game -> brain name).
    chosen: dict[str, str] = field(default_factory=dict)
    main: KeptBrain = field(default_factory=_main_brain)
    last_setup: MatchSetup | None = None
    training: TrainingState = field(default_factory=TrainingState)
    #: Every game finished on a game screen this session: (player 1's name, player 2's name, the winner's
    #: name, '' for a draw).
    results: list[tuple[str, str, str]] = field(default_factory=list)
    #: Each learner's results this session by (game, its brain's name, its opponent's name): "won", "drawn" or
    #: "lost" game by game. A learner with a brain for each side (MENACE's X and O boxes) counts each apart.
    learner_results: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)
    idle_training: bool = True  # training threads yield their core to every other thread (SCHED_IDLE)

    @classmethod
    def create(cls, data_dir: str | None = None, *, seed: int | None = None, ai_delay: float | None = None,
               trained_games: int | None = None, idle_training: bool = True) -> Session:
        return cls(data_dir=data_dir, seed=seed, ai_delay_override=ai_delay, trained_games=trained_games,
                   rng=random.Random(seed), idle_training=idle_training)

    def __post_init__(self) -> None:
        self.kept.setdefault(self.main.key, self.main)

    # -- the main brain (the first game's chosen one) ---------------------------------------------------
    def set_main(self, kept: KeptBrain) -> None:
        """The first game's learning AI plays with `kept` from now on."""
        if self.kept.get(self.main.key) is self.main:
            del self.kept[self.main.key]
        self.main = kept
        self.kept[kept.key] = kept
        self.chosen[kept.game] = kept.name

    @property
    def brain(self):
        return self.main.brain

    @brain.setter
    def brain(self, brain) -> None:
        self.main.brain = brain

    @property
    def brain_name(self) -> str:
        return self.main.name

    @brain_name.setter
    def brain_name(self, name: str) -> None:
        if self.kept.get(self.main.key) is self.main:
            del self.kept[self.main.key]
        self.main.name = name
        self.kept[self.main.key] = self.main

    @property
    def brain_kept(self) -> bool:
        """False when the stored brain `brain_name` could not be used: the AI then plays with fresh hats
        that are never saved, so the stored brain is left exactly as it is (issue 13)."""
        return self.main.kept

    @brain_kept.setter
    def brain_kept(self, kept: bool) -> None:
        self.main.kept = kept

    @property
    def brain_base(self):
        return self.main.base

    @brain_base.setter
    def brain_base(self, counts) -> None:
        self.main.base = counts

    # -- every kept brain ------------------------------------------------------------------------------
    def kept_of(self, brain) -> KeptBrain | None:
        """The kept brain whose brain is `brain` (the very object), or None."""
        return next((k for k in self.kept.values() if k.brain is brain), None)

    def other_kept_brains(self):
        """The brains besides the main one that this tab holds and keeps in the store, for the live check
        (ui/live.py): (name, brain with `counts`, counts as last read or written, adopt(counts),
        cell(row, column) -> (position, move) in words' terms)."""
        from sticks_tui.ui.brains import cell_of

        return [(k.name, k.brain, k.base, k.adopt, lambda row, column, brain=k.brain: cell_of(brain, row, column))
                for k in self.kept.values() if k is not self.main and k.kept]

    def child_seed(self) -> int | None:
        """A seed for a training run: drawn from the session's rng when the session is seeded."""
        return None if self.seed is None else self.rng.randrange(2**32)

    def ai_delay(self, speed_seconds: float) -> float:
        return self.ai_delay_override if self.ai_delay_override is not None else speed_seconds
