"""What a teacher sees after a run at 20 sticks on the app's brain of 100 hats (issue 16 item 1).

On a fresh data directory: F2, Games 20000, Heap 20, Train. The run learns every hat of heaps
2-20, and every figure says so, over the heaps it trained: the notification, the training
screen's curve, and the analysis screen, whose heap starts at the setup screen's."""

from __future__ import annotations

from textual.widgets import Input

from sticks_tui.ui.screens.analysis import AnalysisScreen
from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
from ui_helpers import MessageLog, start_game, text_of, wait_until


def legend(screen) -> str:
    curve = screen.query_one("#curve" if isinstance(screen, TrainingScreen) else "#analysis-curve")
    return " ".join(" ".join(curve.legend_lines(curve.size.width)).split())  # lines joined, as read


async def train_at_20(pilot, app) -> None:
    await pilot.press("f2")
    await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
    dialog = app.screen
    assert dialog.query_one("#heap", Input).value == "20"  # the setup screen's heap, not every hat of the brain
    dialog.query_one("#games", Input).value = "20000"
    await pilot.pause()
    await pilot.click("#go")
    await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
    await wait_until(pilot, lambda: app.session.training.last_result is not None, timeout=60,
                     what="the run to end")
    await pilot.pause()


async def test_a_run_at_20_sticks_that_learned_every_hat_shows_100_percent_over_heaps_2_to_20(make_app):
    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        await train_at_20(pilot, app)
        result = app.session.training.last_result
        assert (result.games_played, result.heap, app.session.brain.size) == (20_000, 20, 100)
        await wait_until(pilot, lambda: any("Agreement" in t for t in log.notifications()), what="the result")
        assert [t.split(". ", 1)[1] for t in log.notifications() if "Agreement" in t] == [
            "Agreement with perfect play over heaps 2-20: 100%."]
        shown = legend(app.screen)
        assert [heatmap.data.hats for heatmap in app.screen.heatmaps] == [20, 20]  # the hats the run trained
        assert shown.startswith("over heaps 2-20: ● agreement with perfect play 100%")
        assert "▽ beats a perfect player moving second 0%" in shown  # 20 is a winning heap for the mover

        await pilot.press("escape")
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.query_one("#upto", Input).value == "20"  # the setup screen's heap
        summary = text_of(screen, "#analysis-summary")
        assert "You lose if you face 1, 5, 9, ... sticks: n = 1 mod 4." in summary
        assert "Over heaps 2-20: right in 100% of the winning hats: it plays perfectly." in summary
        assert "(a perfect player that, when it cannot win, makes the move worst for the AI)" in summary
        assert text_of(screen, "#analysis-curve-title") == "Learning curve of the last training run, over heaps 2-20"
        assert legend(screen).startswith("● agreement with perfect play 100%")  # the title says over what
        # another heap: the figures of that game, whose hats 21-40 were never trained
        screen.query_one("#upto", Input).value = "40"
        await pilot.pause()
        summary = text_of(screen, "#analysis-summary")
        assert "Over heaps 2-40: right in 50% of the winning hats" in summary
        assert "Exact chance to win a game of 40:" in summary


async def test_the_analysis_and_train_dialog_heaps_start_at_the_game_in_play(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, heap=30)
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.query_one("#upto", Input).value == "30"
        assert "Over heaps 2-30: right in 0% of the winning hats" in text_of(screen, "#analysis-summary")
        await pilot.press("escape", "f2")  # the train dialog's heap too: the game's, so its figures are about it
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
        assert app.screen.query_one("#heap", Input).value == "30"
