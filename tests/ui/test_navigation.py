"""q / ctrl+q quit from every screen without a traceback; escape goes back; the heatmap at 160x48."""

from __future__ import annotations

import pytest

from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.records import RecordsScreen
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.screens.training import TrainingScreen
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from ui_helpers import start_game, wait_until


async def open_screen(pilot, where: str):
    app = pilot.app
    if where == "game":
        await start_game(pilot, heap=15, opponent="learning")
        await pilot.press("2")  # a game half played
        assert isinstance(app.screen, GameScreen)
    elif where == "training":
        app.start_training(TrainingConfig(sticks=100, games=10_000_000, seed=1, rule=app.session.brain.rule))
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen) and app.training is not None,
                         what="the training screen")
    elif where == "records":
        app.action_records()
        await pilot.pause()
        assert isinstance(app.screen, RecordsScreen)


@pytest.mark.parametrize(("where", "key"), [("setup", "ctrl+q"), ("game", "q"), ("game", "ctrl+q"),
                                            ("training", "q"), ("records", "ctrl+q")])
async def test_quit_from_anywhere(make_app, where, key):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_screen(pilot, where)
        await pilot.press(key)
        await wait_until(pilot, lambda: app._exit, timeout=5, what="the app to exit")
    assert app.return_code == 0
    assert not app.training_running or app._training_cancel.is_set()  # a running training is told to stop


async def test_q_in_the_heap_box_types_rather_than_quits(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("q")
        assert not app._exit and app.screen.query_one("#heap").value == "q"  # focus selected all of "20"


async def test_escape_goes_back(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        game = await start_game(pilot, heap=12, opponent="dumb")
        await pilot.press("f3")
        assert isinstance(app.screen, RecordsScreen)
        await pilot.press("escape")
        assert app.screen is game
        await pilot.click("#take-1")
        assert game.game.state.heap < 12  # still playable after coming back
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)


async def test_heatmap_shows_all_100_hats_at_160x48(make_app):
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await start_game(pilot, heap=100, opponent="learning")
        heatmap = screen.query_one(HatHeatmap)
        assert heatmap.data.hats == 100
        cols, rows, column_major = heatmap.grid()
        assert column_major, f"100 hats in {cols} columns of {rows} rows scroll at 160x48"
        assert rows + 1 <= heatmap.scrollable_content_region.height
        assert heatmap.max_scroll_y == 0
        assert heatmap.hat_at(rows - 1, cols - 1) == 100 or heatmap.hat_at(99 % rows, 99 // rows) == 100
        await pilot.press("1")
        assert screen.game.state.heap < 99
        assert heatmap.cell_text(100, 1) == "   1░"


async def test_heatmap_scrolls_to_the_drawn_hat_at_80x24(make_app):
    app = make_app(ai_delay=30)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=100, opponent="learning", first="p2")
        heatmap = screen.query_one(HatHeatmap)
        cols, rows, column_major = heatmap.grid()
        assert not column_major and heatmap.max_scroll_y > 0  # 100 hats do not fit at 80x24: it scrolls
        heatmap.scroll_to(y=0, animate=False)  # hat 100 is on the last row, out of sight
        await pilot.pause()
        assert heatmap.scroll_offset.y == 0
        screen._schedule_ai(0)
        await pilot.pause()
        hat, ball = screen.game.state.history[0].heap_before, screen.game.state.history[0].take
        assert hat == 100 and heatmap.data.drawn == (100, ball)
        assert heatmap.cell_text(100, ball).endswith("►")
        row, _ = heatmap.position(100)
        top = int(heatmap.scroll_offset.y)
        assert top < row + 1 < top + heatmap.scrollable_content_region.height  # hat 100 is on screen


async def test_train_from_the_command_palette(make_app):
    from textual.command import CommandPalette

    from sticks_tui.ui.screens.training import TrainDialog

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"train the")
        await pilot.pause(0.3)  # the palette searches in the background
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the training dialog")
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen) and not app.training_running
