"""The loop every trainer shares: games in batches of ~5-20 ms, progress at most ~20 times a second,
a cancel check between batches (so a cancelled run has only whole games in its hats)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

PROGRESS_INTERVAL = 0.05  # seconds: at most 20 reports a second
#: Learning-curve checkpoints in every decade: six a decade, log-spaced within ~0.2 decade, so a
#: million-game run takes 37 points and their scoring stays a few per cent of its time.
MANTISSAS = (1, 1.5, 2, 3, 5, 7)


def cancel_check(cancel: threading.Event | Callable[[], bool] | None) -> Callable[[], bool]:
    if isinstance(cancel, threading.Event):
        return cancel.is_set
    return cancel or (lambda: False)


def checkpoints(total: int, start: int = 0) -> list[int]:
    """The game counts in (start, start + total] where a curve point is taken: 1, 1.5, 2, 3, 5 and 7
    times every power of ten (1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, ...; so 1, 2, 5, 10, 20,
    50, ... are all there), counted from the run's start, and the run's last game."""
    points = set()
    decade = 1
    while decade <= total:
        for mantissa in MANTISSAS:
            g = round(mantissa * decade)
            if g <= total:
                points.add(g)
        decade *= 10
    if total > 0:
        points.add(total)
    return [start + g for g in sorted(points)]


def next_batch(batch: int, spent: float) -> int:
    """The next batch's size, so a batch takes 5-20 ms: a cancel is felt at once, reports stay smooth."""
    if spent < 0.005:
        return min(batch * 2, 1 << 20)
    if spent > 0.02 and batch > 1:
        return batch // 2
    return batch


@dataclass
class BatchRun:
    done: int  # games played
    seconds: float
    cancelled: bool


def play_controlled(total: int, play: Callable[[int, int], int], play_story: Callable[[int], object],
                    report: Callable[..., None], control, checkpoint: Callable[[int], None] | None = None) -> BatchRun:
    """Play `total` games, steered by a `learn.control.TrainingControl` as it goes.

    While the control says full speed (always, for a run nobody steers), `play(n, done)` plays n
    games numbered from `done` and returns n, in batches of 5-20 ms; the control is read between
    batches only. Otherwise one game at a time: `play_story(done)` plays game number `done` and
    returns its story, and each such game is reported at once with it, so a watcher sees every game.

    `report(done, seconds, finished, cancelled, story=None)` is called at the start, at most every
    PROGRESS_INTERVAL seconds between batches (and after every game told), and once at the end.
    `checkpoint(done)`, if given, is called exactly when `done` reaches each of `checkpoints(total)`
    (batches are cut there), before any report at that count; checkpoints fall on the same game
    counts at any pace.
    """
    stops = checkpoints(total) if checkpoint is not None else []
    next_stop = 0
    start = time.perf_counter()
    done = 0
    batch = 64
    last_report = -1.0
    last_game_at: float | None = None
    cancelled = False
    told = None
    reported = 0  # the games done at the last report
    report(0, 0.0, False, False)
    while done < total:
        told = None
        if control.cancelled:
            cancelled = True
            break
        if control.full_speed:
            last_game_at = None
            limit = total - done
            if next_stop < len(stops):
                limit = min(limit, stops[next_stop] - done)
            t0 = time.perf_counter()
            done += play(min(batch, limit), done)
            batch = next_batch(batch, time.perf_counter() - t0)
        else:
            if reported != done:  # leaving full speed: every game so far is reported before it waits
                reported = done
                report(done, time.perf_counter() - start, False, False)
            if not control.next_game(last_game_at):
                cancelled = True
                break
            if control.full_speed:
                continue  # back to full speed while it waited: batches again
            last_game_at = time.monotonic()
            told = play_story(done)
            done += 1
        if next_stop < len(stops) and done == stops[next_stop]:
            checkpoint(done)
            next_stop += 1
        now = time.perf_counter()
        if done < total and (told is not None or now - last_report >= PROGRESS_INTERVAL):
            last_report, reported = now, done
            report(done, now - start, False, False, told)
    seconds = time.perf_counter() - start
    report(done, seconds, True, cancelled, None if cancelled else told)
    return BatchRun(done, seconds, cancelled)
