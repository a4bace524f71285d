"""What a teacher sees after a run at 20 sticks on the app's brain of 100 hats (issue 16 item 1).

On a fresh data directory: F2, Games 20000, Heap 20, Train. The run learns every hat of heaps
2-20, and every figure says so, over the heaps it trained: the notification, the training
screen's curve, and the analysis screen, whose heap starts at the setup screen's."""

from __future__ import annotations

from textual.widgets import Input

from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn.analysis import CurveScorer
from sticks_tui.learn.figure_words import percent
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
        await wait_until(pilot, lambda: any("likeliest" in t for t in log.notifications()), what="the result")
        # what it counts (the likeliest move; a ball drawn at random) and over what (issue 33 item 6)
        drawn = CurveScorer.for_rules(SticksRules(20)).score(0, app.session.brain.counts).draw_wins
        assert 0.99 < drawn < 1  # every hat keeps a losing ball: a draw is not always a winning move
        assert [t.split(". ", 1)[1] for t in log.notifications() if "likeliest" in t] == [
            "Over heaps 2-20, its likeliest move is a winning move in 100% of the 15 positions where a win can be "
            f"forced; a ball drawn at random is one {percent(drawn)} of the time."]
        shown = legend(app.screen)
        assert [heatmap.data.hats for heatmap in app.screen.heatmaps] == [20, 20]  # the hats the run trained
        over, game = shown.split(" in a game of 20 sticks vs a perfect player, moving: ")  # nothing of the game above
        assert over == ("where it can win, over heaps 2-20: ● its likeliest move wins 100% "
                        f"◆ a ball drawn wins {percent(drawn)}")
        # 20 is won by the mover: moving second, a perfect player wins every game
        assert game.startswith("▲ first 99% ▽ second 0% (a lost start: the rule, not the learner)")

        await pilot.press("escape")
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.query_one("#upto", Input).value == "20"  # the setup screen's heap
        summary = text_of(screen, "#analysis-summary")
        assert "You lose if you face 1, 5, 9, ... sticks: n = 1 mod 4." in summary
        assert "Over heaps 2-20: right in 100% of the 15 winning hats: it plays perfectly." in summary
        assert "(a perfect player that, when it cannot win, makes the move worst for the AI)" in summary
        assert text_of(screen, "#analysis-curve-title") == "Learning curve of the last training run, over heaps 2-20"
        await pilot.press("g")  # at 80x24 the curve takes the table's place (issue 33 item 3)
        assert legend(screen).startswith("where it can win, over heaps 2-20: ● its likeliest move wins 100% "
                                          "◆ a ball drawn wins 99.8% in a game of 20 sticks vs a perfect player, "
                                          "moving: ▲ first 99% ▽ second 0% (a lost start: the rule, not the learner)")
        # another heap: the figures of that game, whose hats 21-40 were never trained
        screen.query_one("#upto", Input).value = "40"
        await pilot.pause()
        summary = text_of(screen, "#analysis-summary")
        assert "Over heaps 2-40: right in 50% of the 30 winning hats" in summary
        assert "Exact chance to win a game of 40 sticks:" in summary


def toasts_over_buttons(screen) -> list:
    from textual.widgets import Button
    from textual.widgets._toast import Toast

    buttons = [b.region for b in screen.query(Button) if b.display]
    return [(t.region, b) for t in screen.query(Toast) for b in buttons if t.region.overlaps(b)]


async def test_the_analysis_and_train_dialog_heaps_start_at_the_game_in_play_and_a_toast_never_covers_its_buttons(
        make_app):
    """The analysis's and the train dialog's heaps start at the game in play. And toasts never lie over a dialog's
    buttons (issue 33 item 7): a dialog opening takes the earlier toasts away (they were about the screen below),
    and one raised while it is open shows at the top, away from its buttons."""
    from textual.widgets import Button
    from textual.widgets._toast import Toast

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await start_game(pilot, heap=30)
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert screen.query_one("#upto", Input).value == "30"
        assert "Over heaps 2-30: right in 0% of the 22 winning hats" in text_of(screen, "#analysis-summary")
        await pilot.press("escape")
        app.notify("Finished 100,000 games in 12 s. Over heaps 2-20, its likeliest move is a winning move in "
                   "100% of the 15 positions where a win can be forced.", title="Training")
        await wait_until(pilot, lambda: len(app.screen.query(Toast)) == 1, what="the toast")
        await pilot.press("f2")  # the train dialog's heap too: the game's, so its figures are about it
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
        assert app.screen.query_one("#heap", Input).value == "30"
        await pilot.pause()
        dialog = app.screen
        assert not dialog.query(Toast) and not app._notifications  # about the screen below: gone
        app.notify("A toast raised while the dialog is open, long enough to take two or three lines of it.",
                   title="Training")
        await wait_until(pilot, lambda: len(dialog.query(Toast)) == 1, what="the new toast")
        await pilot.pause()
        assert not toasts_over_buttons(dialog)
        assert dialog.query_one("#go", Button).region.y > dialog.query_one(Toast).region.bottom
