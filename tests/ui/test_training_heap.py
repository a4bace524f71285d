"""The garbage collector around the first training run (key presses during a run, issue 9 item 8).

The first run loads numba (~80,000 long-lived objects). Until its first progress report the
collector is held (its full collections over the import held the GIL ~90 ms); at that report the
heap is frozen, so later full collections no longer walk numba, and the collector runs again. It
must run again whatever happens to the run.
"""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest

from sticks_tui.ui import training
from sticks_tui.ui.training import start_training_worker
from ui_helpers import wait_until


@pytest.fixture
def first_run(monkeypatch):
    """As if no run had loaded its kernel yet in this process; the collector as it was afterwards. What the
    suite froze (tests/conftest.py, each app's start) stays frozen: unfrozen, the next full collection (the
    next app's start) walked the whole process's heap, about 2 CPU s charged to whichever test came next."""
    monkeypatch.setattr(training, "_heap_settled", False)
    monkeypatch.setattr(training, "_gc_held", False)
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


async def test_collector_runs_again_after_a_failed_run_and_is_held_until_the_first_report_then_heap_frozen(
        make_app, first_run):
    """One app, two first runs: one that fails before reporting leaves the collector running again and the heap not
    settled (the next run holds the collector again); the next is held until its first report, then the heap is
    frozen and the collector runs again."""
    def failing(progress, cancel):
        assert not gc.isenabled()
        raise RuntimeError("the kernel could not load")

    seen = {}

    def run(progress, cancel):
        seen["before report"] = gc.isenabled()
        frozen = gc.get_freeze_count()
        # a snapshot (what a queued report is asked when a newer one may replace it); the app ignores
        # progress of a purpose it does not know
        progress(SimpleNamespace(finished=False, story=None))
        seen["after report"] = gc.isenabled()
        seen["frozen more"] = gc.get_freeze_count() > frozen
        progress(SimpleNamespace(finished=False, story=None))
        return 42

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # a run that fails before reporting
        job = start_training_worker(app, "heap-test", failing, idle=False)
        assert await job.wait() is None
        await wait_until(pilot, lambda: not job.running, what="the run to end")
        assert gc.isenabled()
        assert not training._heap_settled  # the next run holds the collector again and settles the heap
        # the next run: held until its first report, then the heap frozen (what is alive since the app's start)
        job = start_training_worker(app, "heap-test", run, idle=False)
        assert await job.wait() == 42
        await wait_until(pilot, lambda: not job.running, what="the run to end")
    assert seen == {"before report": False, "after report": True, "frozen more": True}
    assert gc.isenabled()
    assert training._heap_settled


def test_later_runs_leave_the_collector_alone(first_run):
    training.settle_heap()
    gc.disable()  # someone else's choice
    training.hold_gc()
    training.release_gc()
    assert not gc.isenabled()
    gc.enable()
    training.hold_gc()
    assert gc.isenabled()
