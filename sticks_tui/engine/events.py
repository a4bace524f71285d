"""Events the core publishes, as frozen dataclasses, and a tiny publish/subscribe bus.

The UI subscribes and turns each event into a Textual message; the core never knows it is there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class MoveMade:
    """`player` (a seat, 0 or 1) named `name` played `move` (the game's move: sticks taken, a
    (pile, coins) tuple, ...) from position `before`, leaving `after`."""

    player: int
    name: str
    move: Any
    before: Any
    after: Any


@dataclass(frozen=True, slots=True)
class BallDrawn:
    """A hat learner drew ball `ball` from hat `hat` (the heap it faced); `counts` is that hat before."""

    player: int
    name: str
    hat: int
    ball: int
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HatChange:
    """After a game: hat `hat` now holds `after` balls numbered `ball` (it held `before`)."""

    hat: int
    ball: int
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class HatsReinforced:
    """A learner applied its rule after a game it `won` (or lost); `changes` lists every ball it set aside."""

    player: int
    name: str
    won: bool
    changes: tuple[HatChange, ...]
    #: How the game went for the learner: +1 a win, 0 a draw, -1 a loss (None: as `won` says).
    outcome: int | None = None

    @property
    def result(self) -> int:
        """+1 a win, 0 a draw, -1 a loss."""
        return self.outcome if self.outcome is not None else (1 if self.won else -1)


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended; in a draw `loser` and `winner` are None and their names empty."""

    loser: int | None
    winner: int | None
    loser_name: str
    winner_name: str
    moves: int
    #: The loser resigned (a learner whose container for the position was empty) instead of losing by the rules.
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class TrainingProgress:
    """A snapshot of a training run, sent at most ~20 times a second."""

    games_done: int
    games_total: int
    seconds: float
    wins_first: int  # games won by the player who moved first
    hats: Any = field(repr=False, compare=False)  # a copy of the brain's counts (numpy array)
    agreement: float = float("nan")
    win_probability_vs_perfect: float = float("nan")
    finished: bool = False
    cancelled: bool = False
    #: The learning curve so far: `learn.analysis.CurvePoint`s taken inside the training loop.
    curve: tuple = field(default=(), repr=False, compare=False)
    #: The game just played, when the run plays one game at a time (`learn.control.GameStory`).
    story: Any = field(default=None, repr=False, compare=False)
    #: A copy of the sparring partner's counts (numpy array), when the trainer sends it.
    opponent_hats: Any = field(default=None, repr=False, compare=False)
    #: The trained brain's wins, draws and losses so far.
    results: tuple = field(default=(0, 0, 0), compare=False)

    @property
    def games_per_second(self) -> float:
        return self.games_done / self.seconds if self.seconds > 0 else 0.0

    @property
    def fraction(self) -> float:
        return self.games_done / self.games_total if self.games_total else 1.0


Event = MoveMade | BallDrawn | HatsReinforced | GameOver | TrainingProgress
Subscriber = Callable[[Any], None]


class EventBus:
    """Synchronous publish/subscribe. Subscribers run in the publisher's thread, in order."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._lock = threading.Lock()

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)

        return unsubscribe

    def publish(self, event: Any) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for fn in subscribers:
            fn(event)
