"""The dialogs and screens not shown elsewhere, at 80x24 (issue 10: every screen and dialog fits):
the trained AI's "Training AI, please wait...", the records' reset question, and the analysis
screen's copy-brain dialog with an error."""

from __future__ import annotations

import threading

from textual.widgets import Input, Select

from sticks_tui.ui.screens import pretrain as pretrain_module
from test_snapshots import SIZE, data_dir, frozen, make_app, no_blink, settle  # noqa: F401 - fixtures


async def test_walk_through_the_records_reset_question_the_copy_dialogs_error_and_the_wait_for_the_trained_ai(
        snap_walk, data_dir, monkeypatch):
    """The snapshots test_records_reset_asked, test_copy_brain_dialog_with_an_error and test_trained_ai_please_wait
    (the run held before its first game, so the bar is at 0 every time) in one app session: each is the screen it
    was."""
    from sticks_tui.ui.screens.confirm import NameDialog
    from sticks_tui.ui.screens.setup import SetupScreen

    release = threading.Event()

    def held_run(config, brain=None):
        def run(progress, cancel):
            while not release.wait(0.02) and not cancel():
                pass
            return None

        return run

    monkeypatch.setattr(pretrain_module, "sticks_run", held_run)
    app = make_app(data_dir, trained_games=100_000)
    try:
        async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
            await pilot.press("f3")
            await pilot.pause()
            await pilot.press("x")
            await pilot.pause()
            await snap_walk(pilot, "test_records_reset_asked")
            while not isinstance(app.screen, SetupScreen):
                await pilot.press("escape")
                await pilot.pause()

            await pilot.press("f4")
            await pilot.pause()
            await pilot.press("c")
            await settle(pilot, lambda: isinstance(pilot.app.screen, NameDialog), "the name dialog")
            box = pilot.app.screen.query_one("#name", Input)
            box.value = "default"  # taken: the dialog says so and stays
            await pilot.pause()
            await pilot.press("enter")
            await no_blink(pilot)
            await snap_walk(pilot, "test_copy_brain_dialog_with_an_error")
            while not isinstance(app.screen, SetupScreen):
                await pilot.press("escape")
                await pilot.pause()

            setup = app.screen
            await no_blink(pilot)
            setup.query_one("#opponent", Select).value = "trained"
            await pilot.pause()
            await pilot.click("#start")
            await settle(pilot, lambda: isinstance(app.screen, pretrain_module.PretrainScreen), "the wait screen")
            await snap_walk(pilot, "test_trained_ai_please_wait")
    finally:
        release.set()
