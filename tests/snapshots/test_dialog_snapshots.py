"""The dialogs and screens not shown elsewhere, at 80x24 (issue 10: every screen and dialog fits):
the trained AI's "Training AI, please wait...", the records' reset question, and the analysis
screen's copy-brain dialog with an error."""

from __future__ import annotations

import threading

from textual.widgets import Input, Select

from sticks_tui.ui.screens import pretrain as pretrain_module
from test_snapshots import SIZE, data_dir, frozen, make_app, no_blink, settle  # noqa: F401 - fixtures


def test_trained_ai_please_wait(snap_compare, data_dir, monkeypatch):
    """The run is held before its first game, so the bar is at 0 every time."""
    release = threading.Event()

    def held_run(config, brain=None):
        def run(progress, cancel):
            while not release.wait(0.02) and not cancel():
                pass
            return None

        return run

    monkeypatch.setattr(pretrain_module, "sticks_run", held_run)

    async def run_before(pilot):
        app = pilot.app
        setup = app.screen
        await no_blink(pilot)
        setup.query_one("#opponent", Select).value = "trained"
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot, lambda: isinstance(app.screen, pretrain_module.PretrainScreen), "the wait screen")

    try:
        assert snap_compare(make_app(data_dir, trained_games=100_000), terminal_size=SIZE, run_before=run_before)
    finally:
        release.set()


def test_records_reset_asked(snap_compare, data_dir):
    async def run_before(pilot):
        await pilot.press("f3")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()

    assert snap_compare(make_app(data_dir), terminal_size=SIZE, run_before=run_before)


def test_copy_brain_dialog_with_an_error(snap_compare, data_dir):
    async def run_before(pilot):
        from sticks_tui.ui.screens.confirm import NameDialog

        await pilot.press("f4")
        await pilot.pause()
        await pilot.press("c")
        await settle(pilot, lambda: isinstance(pilot.app.screen, NameDialog), "the name dialog")
        box = pilot.app.screen.query_one("#name", Input)
        box.value = "default"  # taken: the dialog says so and stays
        await pilot.pause()
        await pilot.press("enter")
        await no_blink(pilot)

    assert snap_compare(make_app(data_dir), terminal_size=SIZE, run_before=run_before)
