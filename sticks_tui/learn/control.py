"""Steering a training run while it goes: its pace, pause, one game at a time, cancel.

The slowest pace is ball by ball (`BALL_BY_BALL`): the trainer plays a game only when whoever
watches lets it (`release()`), once it has told the last game one draw at a time, so the run never
runs ahead of the telling.

`TrainingControl` is shared by the thread that trains (`learn.trainer.train`) and whoever steers it
(the app's training screen). Every method is thread-safe. The pace is in games a second, or None
for full speed. At full speed the trainer plays its batches as fast as ever and only looks at the
control between batches; at a pace (or paused, or stepping) it plays one game at a time with the
readable learner and tells each game's story (`GameStory`). Both paths draw from the same random
stream and change the same hats, so a run whose pace changes leaves exactly the hats of a run that
never changed pace.

The control is also the run's cancel check: calling it says whether the run should stop.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from sticks_tui.engine.events import HatChange


def yield_core() -> bool:
    """Make the calling thread run only when no other thread wants its core (Linux SCHED_IDLE).

    Key presses then keep their core while a run goes on. Elsewhere (or if the OS refuses) nothing
    changes and False is returned. The numba kernel releases the GIL, so the UI thread runs meanwhile.
    """
    setter = getattr(os, "sched_setscheduler", None)
    idle = getattr(os, "SCHED_IDLE", None)
    if setter is None or idle is None:
        return False
    try:
        setter(0, idle, os.sched_param(0))  # 0: the calling thread
    except (OSError, AttributeError):
        return False
    return True


#: The slowest pace: one game at a time, each let through by the watcher (`TrainingControl.release`).
BALL_BY_BALL = "ball"
#: The paces the app offers: ball by ball, then games a second (None: full speed).
PACES: tuple[float | str | None, ...] = (BALL_BY_BALL, 1, 2, 5, 20, None)
MAX_PACE = 1000  # above this, a pace is no slower than full speed in any way a person can see
WAIT_SLICE = 0.05  # seconds: a waiting trainer looks at an outside cancel this often


def check_pace(pace: float | str | None) -> float | str | None:
    """`pace` if it is None, BALL_BY_BALL or a number of games a second in (0, MAX_PACE]; else ValueError."""
    if pace is None or pace == BALL_BY_BALL:
        return pace
    if isinstance(pace, bool) or not isinstance(pace, int | float) or not math.isfinite(pace) \
            or not 0 < pace <= MAX_PACE:
        raise ValueError(f"The pace is a number of games a second between 0 and {MAX_PACE}, "
                         f"ball by ball or full speed; not {pace!r}.")
    return pace


def pace_words(pace: float | str | None) -> str:
    """'full speed', 'ball by ball', '1 game a second', '5 games a second'."""
    if pace is None:
        return "full speed"
    if pace == BALL_BY_BALL:
        return "ball by ball"
    shown = f"{pace:g}"
    return f"{shown} game a second" if pace == 1 else f"{shown} games a second"


@dataclass(frozen=True)
class GameStory:
    """One training game, as it happened: who drew which ball from which hat, who lost, what changed.

    Player 0 is the brain being trained ("AI 1"), player 1 its sparring partner ("AI 2").
    `draws` lists (player, hat, ball) in the order they were drawn; `changes[p]` the hat changes
    of player p after the game (`HatChange`: before and after; equal when a ball was kept at its floor).
    """

    number: int  # 1 for the run's first game
    start: object  # the heap (position) the game started from
    first: int  # the player who moved first
    draws: tuple[tuple[int, object, object], ...]
    winner: int | None  # None: a draw
    changes: tuple[tuple[HatChange, ...], tuple[HatChange, ...]]
    resigned: int | None = None  # the player who resigned (an empty container), if one did

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner


class TrainingControl:
    """Pace, pause, step and cancel for one training run; thread-safe. See the module docstring.

    `cancelled_when`, if given, is another cancel check (a worker being cancelled, say): the run
    also stops when it says so.
    """

    def __init__(self, pace: float | None = None, *, cancelled_when: Callable[[], bool] | None = None) -> None:
        self._pace = check_pace(pace)
        self._paused = False
        self._steps = 0
        self._released = 0  # games let through at the ball-by-ball pace (never cleared by pause or resume)
        self._cancelled = False
        self._outside = cancelled_when
        self._waiting = False
        self._changed = threading.Condition()

    # -- read ----------------------------------------------------------------------------------
    @property
    def pace(self) -> float | str | None:
        return self._pace

    @property
    def by_ball(self) -> bool:
        """Whether the run goes ball by ball: a game only when the watcher lets one through."""
        return self._pace == BALL_BY_BALL

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def waiting(self) -> bool:
        """Whether the trainer is waiting for its next game (paused, or between games at a pace):
        no game is being played, and every game played so far has been reported."""
        return self._waiting

    @property
    def steps_pending(self) -> int:
        return self._steps

    @property
    def cancelled(self) -> bool:
        return self._cancelled or (self._outside is not None and bool(self._outside()))

    def __call__(self) -> bool:
        """The run's cancel check."""
        return self.cancelled

    @property
    def full_speed(self) -> bool:
        """Whether the trainer may play whole batches now (full speed, not paused, no step asked)."""
        return self._pace is None and not self._paused and self._steps == 0

    # -- steer ---------------------------------------------------------------------------------
    def set_pace(self, pace: float | str | None) -> None:
        pace = check_pace(pace)
        with self._changed:
            if pace != BALL_BY_BALL:
                self._released = 0  # games let through ball by ball are for that pace only
            self._pace = pace
            self._changed.notify_all()

    def pause(self) -> None:
        with self._changed:
            self._paused = True
            self._changed.notify_all()

    def resume(self) -> None:
        with self._changed:
            self._paused = False
            self._steps = 0
            self._changed.notify_all()

    def toggle_pause(self) -> bool:
        """Pause a running run or resume a paused one; return whether it is paused now."""
        with self._changed:
            self._paused = not self._paused
            self._steps = 0
            self._changed.notify_all()
            return self._paused

    def step(self) -> None:
        """Play one more game and then wait (a running run pauses after its next game).

        A game let through ball by ball and not played yet (paused, it waits) becomes this step's game:
        a step never asks for two."""
        with self._changed:
            self._paused = True
            if self._released > 0:
                self._released -= 1
            self._steps += 1
            self._changed.notify_all()

    def release(self) -> None:
        """Let one more game through at the ball-by-ball pace (the watcher has told the last one).

        Unlike `step` it does not pause, and pausing or resuming never takes it back, so a game
        let through is always played (paused, it waits for the resume)."""
        with self._changed:
            self._released += 1
            self._changed.notify_all()

    @property
    def released_pending(self) -> int:
        return self._released

    def cancel(self) -> None:
        with self._changed:
            self._cancelled = True
            self._changed.notify_all()

    # -- the trainer's side --------------------------------------------------------------------
    def next_game(self, last_game_at: float | None) -> bool:
        """Wait until the next slow game may be played; False if the run was cancelled meanwhile.

        Called by the trainer before each game it plays one at a time. A step asked for is taken
        (and used up) at once; paused, it waits; at a pace, it waits until 1/pace seconds after
        `last_game_at` (a `time.monotonic()`; None: at once). Back at full speed it returns True
        at once, and the trainer goes back to batches.
        """
        with self._changed:
            try:
                return self._wait_for_turn(last_game_at)
            finally:
                self._waiting = False

    def _wait_for_turn(self, last_game_at: float | None) -> bool:
        """next_game's wait, with the lock held."""
        while True:
            if self.cancelled:
                return False
            if self._steps > 0:
                self._steps -= 1
                return True
            if not self._paused and self._pace == BALL_BY_BALL:
                if self._released > 0:
                    self._released -= 1
                    return True
                wait = WAIT_SLICE  # until the watcher lets the next game through
            elif not self._paused:
                if self._pace is None or last_game_at is None:
                    return True
                wait = last_game_at + 1.0 / self._pace - time.monotonic()
                if wait <= 0:
                    return True
            else:
                wait = WAIT_SLICE
            self._waiting = True
            self._changed.wait(min(wait, WAIT_SLICE))


#: A run's rate is measured over its last RATE_WINDOW seconds of play, once it has RATE_MIN_SPAN of them.
RATE_WINDOW = 10.0
RATE_MIN_SPAN = 1.0


class RateWindow:
    """Games a second over the last seconds of play, for the figures a person reads.

    A whole-run average misleads at the edges: the first game of a paced run comes at once (game 1
    after a millisecond read as 1,675 games a second), and a pause counts as time. So: samples
    `(seconds, games done)` from the run's reports; none at 0 games (that first game is not a
    rate); `restart()` after a pause (time paused is not play); the rate is over the samples of
    the last RATE_WINDOW seconds, and None until they span RATE_MIN_SPAN.
    """

    def __init__(self) -> None:
        self._samples: deque[tuple[float, int]] = deque()

    def restart(self) -> None:
        self._samples.clear()

    def add(self, seconds: float, done: int) -> None:
        samples = self._samples
        if done <= 0:
            return
        if samples and (seconds < samples[-1][0] or done < samples[-1][1]):
            samples.clear()  # another run
        if samples and samples[-1][1] == done:
            return  # no game played since: a report while waiting is not play
        samples.append((seconds, done))
        while len(samples) > 2 and samples[1][0] <= seconds - RATE_WINDOW:
            samples.popleft()

    @property
    def rate(self) -> float | None:
        samples = self._samples
        if len(samples) < 2:
            return None
        (t0, g0), (t1, g1) = samples[0], samples[-1]
        span = t1 - t0
        return (g1 - g0) / span if span >= RATE_MIN_SPAN else None
