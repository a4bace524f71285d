"""Training: two hat learners play each other for N games, both learning, taking turns to move first.

Two engines play the same games: `kernel` (compiled, fast, releases the GIL) and `reference`
(the readable engine: `Game`, `HatPlayer`, `Hats`). For the same seed they leave the same hats.
Progress goes to a callback at most ~20 times a second; a cancel check between batches stops a
run with the hats consistent (every game either fully learned from or not played).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sticks_tui.engine.events import TrainingProgress
from sticks_tui.engine.game import Game
from sticks_tui.engine.players import HatPlayer
from sticks_tui.learn.analysis import quick_scores
from sticks_tui.learn.batches import play_in_batches
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.rng import XorShift64Star

PROTOCOLS = {
    "explore": "every game starts from a random heap between 2 and N, so every hat keeps being visited",
    "classic": "every game starts from the full heap, as in the seeds",
}
DEFAULT_PROTOCOL = "explore"
ENGINES = ("kernel", "reference")
MAX_GAMES = 10_000_000


@dataclass(frozen=True)
class TrainingConfig:
    sticks: int = 20
    games: int = 100_000
    seed: int | None = None
    protocol: str = DEFAULT_PROTOCOL
    rule: HatRule = field(default_factory=HatRule)
    max_take: int = 3
    engine: str = "kernel"

    def __post_init__(self) -> None:
        if isinstance(self.sticks, bool) or not isinstance(self.sticks, int) or not 1 <= self.sticks <= 1000:
            raise ValueError(f"The heap must be a whole number between 1 and 1000, not {self.sticks!r}.")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not 0 <= self.games <= MAX_GAMES:
            raise ValueError(f"The number of games must be between 0 and {MAX_GAMES:,}, not {self.games!r}.")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"The protocol is one of {', '.join(PROTOCOLS)}, not {self.protocol!r}.")
        if self.engine not in ENGINES:
            raise ValueError(f"The engine is 'kernel' or 'reference', not {self.engine!r}.")
        if not 1 <= self.max_take <= 10:
            raise ValueError(f"The maximum take must be between 1 and 10, not {self.max_take}.")


@dataclass
class TrainingResult:
    brain: Hats  # the AI handed to a player (it played both seats)
    opponent: Hats  # its sparring partner
    games_played: int
    games_requested: int
    seconds: float
    wins_first: int
    wins_brain: int
    cancelled: bool
    curve: list[tuple[int, float, float]]  # (games done, agreement, win probability vs perfect)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0


def _seed_for(seed: int | None) -> int:
    if seed is None:
        return int.from_bytes(np.random.default_rng().bytes(8), "little")
    return seed


def train(config: TrainingConfig, brain: Hats | None = None, opponent: Hats | None = None,
          progress: Callable[[TrainingProgress], None] | None = None,
          cancel: threading.Event | Callable[[], bool] | None = None) -> TrainingResult:
    """Train `brain` (fresh if None) against `opponent` (fresh if None) for `config.games` games."""
    brain = brain if brain is not None else Hats(config.sticks, config.max_take, config.rule)
    opponent = opponent if opponent is not None else Hats(config.sticks, config.max_take, config.rule)
    if brain is opponent or np.shares_memory(brain.counts, opponent.counts):
        raise ValueError("The two training AIs must have brains of their own.")
    for hats in (brain, opponent):
        if hats.size < config.sticks or hats.max_take != config.max_take:
            raise ValueError(f"A brain of {hats.size} hats cannot train on a heap of {config.sticks}.")
        # The kernel learns by config.rule, the reference by each brain's own rule: they must be one
        # rule, or the two engines would silently make different brains from the same games.
        if hats.rule != config.rule:
            raise ValueError(f"This brain learns by {hats.rule}, but the training asks for {config.rule}.")
    seed = _seed_for(config.seed)
    run = _KernelRun(config, brain, opponent, seed) if config.engine == "kernel" else \
        _ReferenceRun(config, brain, opponent, seed)
    curve: list[tuple[int, float, float]] = []

    def report(done: int, seconds: float, finished: bool, cancelled: bool) -> None:
        agreement, win = quick_scores(brain.counts, config.max_take)
        curve.append((done, agreement, win))
        if progress is not None:
            progress(TrainingProgress(done, config.games, seconds, run.wins_first, brain.counts.copy(),
                                      agreement, win, finished=finished, cancelled=cancelled))

    batches = play_in_batches(config.games, run.play, report, cancel)
    return TrainingResult(brain, opponent, batches.done, config.games, batches.seconds, run.wins_first,
                          run.wins_brain, batches.cancelled, curve)


class _KernelRun:
    def __init__(self, config: TrainingConfig, brain: Hats, opponent: Hats, seed: int) -> None:
        from sticks_tui.learn import kernel

        kernel.warm_up()  # compile or load the cache now, outside the timed run
        self.kernel = kernel
        self.config = config
        self.brain = brain
        self.opponent = opponent
        self.rng_state = np.array([XorShift64Star(seed).state], dtype=np.uint64)
        self.stats = np.zeros(2, dtype=np.int64)
        self.protocol = kernel.PROTOCOL_CLASSIC if config.protocol == "classic" else kernel.PROTOCOL_EXPLORE

    def play(self, n: int, game_index: int) -> int:
        rule = self.config.rule
        return int(self.kernel.play_games(
            self.brain.counts, self.opponent.counts, n, self.config.sticks, self.protocol,
            self.config.max_take, rule.win_reward, rule.loss_penalty, rule.floor_code,
            self.rng_state, game_index, self.stats))

    @property
    def wins_first(self) -> int:
        return int(self.stats[0])

    @property
    def wins_brain(self) -> int:
        return int(self.stats[1])


class _ReferenceRun:
    """The readable path: the engine's own Game and HatPlayer, one shared random stream."""

    def __init__(self, config: TrainingConfig, brain: Hats, opponent: Hats, seed: int) -> None:
        self.config = config
        self.rng = XorShift64Star(seed)
        self.a = HatPlayer("AI A", brain, self.rng)
        self.b = HatPlayer("AI B", opponent, self.rng)
        self.wins_first = 0
        self.wins_brain = 0

    def play(self, n: int, game_index: int) -> int:
        sticks = self.config.sticks
        for g in range(game_index, game_index + n):
            a_first = g % 2 == 0
            heap = sticks
            if self.config.protocol == "explore" and sticks > 2:
                heap = 2 + self.rng.randrange(sticks - 1)
            players = [self.a, self.b] if a_first else [self.b, self.a]
            game = Game(players, heap, first=0, max_take=self.config.max_take)
            game.play_to_end()
            a_won = game.state.winner == self.a.seat
            self.wins_first += game.state.winner == 0
            self.wins_brain += a_won
        return n


def train_fresh(sticks: int, games: int, seed: int | None = None, protocol: str = DEFAULT_PROTOCOL,
                **kwargs) -> TrainingResult:
    return train(TrainingConfig(sticks=sticks, games=games, seed=seed, protocol=protocol, **kwargs))
