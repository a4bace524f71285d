"""One training worker for every training run in the app, and the only calls into the core's trainers.

A run is a callable `run(progress, cancel) -> result`:
- `progress(snapshot)` may be called from the training thread as often as the trainer likes;
- `cancel()` says whether to stop (checked by the trainer between batches); it is the job's
  `TrainingControl` (`learn.control`), so a trainer that knows it also honours its pace, pause and steps;
- the result is whatever the trainer returns.

`start_training_worker(node, purpose, run)` runs it in a thread that yields its core to every other
thread (Linux SCHED_IDLE), and posts to `node`:
- `TrainingProgressMsg(purpose, snapshot)` for each progress report (a queued one is replaced);
- `TrainingFinished(purpose, result, error)` once, at the end: finished, cancelled or failed.
`TrainingJob.cancel()` is the one way to stop a run; `TrainingJob.control` steers it (pace, pause, step). The worker belongs to `node`: when a screen
goes away its run is cancelled too.

The core's training API is called in `sticks_run` and `nim_run` only (and nowhere else in ui/).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker

from sticks_tui.learn.control import TrainingControl, yield_core
from sticks_tui.ui.messages import TrainingFinished, TrainingProgressMsg

Progress = Callable[[Any], None]
Cancel = Callable[[], bool]
Run = Callable[[Progress, Cancel], Any]


_heap_settled = False
_gc_held = False


def hold_gc() -> None:
    """Before the first run loads its kernel: no garbage collection until `settle_heap`.

    Importing numba and llvmlite makes ~80,000 long-lived objects; collections during the import
    walked them all (a full one took ~90 ms with the GIL held, a key press waiting behind it)."""
    global _gc_held
    import gc

    if not _heap_settled and not _gc_held and gc.isenabled():
        _gc_held = True
        gc.disable()


def settle_heap() -> None:
    """Once per process, when the first run has loaded its kernel: freeze what is alive.

    numba and llvmlite leave ~80,000 long-lived objects behind when they load, after the app froze
    its start-up heap (`ui.app._freeze_heap`); every full garbage collection then walked them, holding
    the GIL 40-90 ms on the UI thread about once a second during a run (measured with gc.callbacks in
    bench_keypress.py), and a key press that fell in one waited for it. Frozen, they are no longer
    walked. Only the young generations are collected first (a full collection is the stall we avoid).
    """
    global _heap_settled
    if _heap_settled:
        return
    _heap_settled = True
    import gc

    gc.collect(1)
    gc.freeze()
    release_gc()


def release_gc() -> None:
    """Let the garbage collector run again (after `hold_gc`)."""
    global _gc_held
    if _gc_held:
        _gc_held = False
        import gc

        gc.enable()


def _policy_restorer() -> Callable[[], None]:
    """A function that puts the calling thread's scheduling policy back as it is now (Linux)."""
    getter = getattr(os, "sched_getscheduler", None)
    if getter is None:
        return lambda: None
    try:
        policy, param = getter(0), os.sched_getparam(0)
    except OSError:
        return lambda: None

    def restore() -> None:
        try:
            os.sched_setscheduler(0, policy, param)
        except OSError:
            pass

    return restore


@dataclass(eq=False)
class TrainingJob:
    """One training run: what it is for, where its messages go, and how to stop it."""

    purpose: str
    target: DOMNode
    stop: threading.Event = field(default_factory=threading.Event)
    worker: Worker | None = None
    control: TrainingControl = field(default_factory=TrainingControl)

    def cancel(self) -> None:
        """Stop the run between two batches (or games); it still ends with `TrainingFinished` (its result so far)."""
        self.stop.set()
        self.control.cancel()  # a paused or slow run wakes at once

    @property
    def running(self) -> bool:
        return self.worker is not None and not self.worker.is_finished

    async def wait(self) -> Any:
        """Wait for the run to end; its result (None if it failed or never ran)."""
        if self.worker is None:
            return None
        try:
            return await self.worker.wait()
        except Exception:  # noqa: BLE001 - a failed run has no result; TrainingFinished says why
            return None


def start_training_worker(node: DOMNode, purpose: str, run: Run, *, idle: bool = True,
                          pace: float | None = None) -> TrainingJob:
    """Run `run(progress, cancel)` in a background thread owned by `node`; see the module docstring.

    `idle=False` keeps the thread at normal priority (on a machine kept busy by other processes an
    idle thread gets almost no time: the test suite on a shared machine, say). `pace`: the games a
    second the run starts at (None: full speed); `job.control` changes it as it runs."""
    job = TrainingJob(purpose, node)
    job.control = TrainingControl(pace, cancelled_when=lambda: job.stop.is_set() or (
        job.worker is not None and job.worker.is_cancelled))

    def work() -> Any:
        restore = _policy_restorer()  # worker threads are pooled: leave the thread as it was found
        if idle:
            yield_core()
        hold_gc()
        try:
            return _work()
        finally:
            release_gc()  # a run that failed before its first report
            restore()

    def _work() -> Any:
        def progress(snapshot: Any) -> None:
            settle_heap()  # the first report comes once the trainer has loaded its kernel
            node.post_message(TrainingProgressMsg(purpose, snapshot))

        try:
            result = run(progress, job.control)
        except Exception as exc:
            node.post_message(TrainingFinished(purpose, None, error=exc))
            raise
        node.post_message(TrainingFinished(purpose, result))
        return result

    job.worker = node.run_worker(work, name=f"training: {purpose}", group=f"training-{purpose}",
                                 thread=True, exclusive=True, exit_on_error=False)
    return job


# -- the core's training API: every call from the UI is here ---------------------------------------
def sticks_run(config: Any, brain: Any = None) -> Run:
    """Train sticks hats (`brain`, or fresh ones) with `learn.trainer.train`; the result is its
    `TrainingResult` (with `.brain`, `.games_played`, `.cancelled`, `.curve`, ...)."""

    def run(progress: Progress, cancel: Cancel) -> Any:
        from sticks_tui.learn.trainer import train

        return train(config, brain=brain, progress=progress, cancel=cancel)

    return run


def nim_run(box: tuple[int, int, int], games: int, seed: int | None, brain: Any) -> Run:
    """Train Nim hats (`brain`, trained in place) with the one trainer; the result is its
    `TrainingResult`, as a sticks run's is."""

    def run(progress: Progress, cancel: Cancel) -> Any:
        from sticks_tui.engine.nim import NimRules
        from sticks_tui.learn.trainer import TrainingConfig, train

        return train(TrainingConfig(game=NimRules(box), games=games, seed=seed), brain=brain,
                     progress=progress, cancel=cancel)  # the run learns by the brain's own rule

    return run
