"""Quitting (asks when a game or a run is in progress), Esc goes back and never quits; the heatmap at 160x48;
the command palette's app and screen commands."""

from __future__ import annotations

import pytest

from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.store import Store
from sticks_tui.ui.screens.confirm import ConfirmDialog
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
        assert isinstance(app.screen, GameScreen) and app.screen.game_in_progress
    elif where == "training":
        app.start_training(TrainingConfig(sticks=100, games=10_000_000, seed=1))
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen) and app.training is not None
                         and app.training.games_done > 0, what="the training screen")


@pytest.mark.parametrize(("where", "key", "answer"), [("game", "q", "y"), ("game", "ctrl+q", "click"),
                                                      ("training", "q", "enter")])
async def test_quit_from_anywhere(make_app, data_dir, where, key, answer, held_training):
    """Nothing in progress: Ctrl+Q (or q) quits at once (from the setup screen and the records: the key map tests
    below, each ending the app by Ctrl+Q). A game or a run in progress: it asks first."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_screen(pilot, where)
        shown = app.screen
        await pilot.press(key)
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog) and app.return_code is None
        await pilot.press("escape")  # no: everything goes on
        assert app.screen is shown and app.return_code is None
        await pilot.press(key)
        assert isinstance(app.screen, ConfirmDialog)
        if answer == "click":
            await pilot.click("#yes")
        else:
            app.simulate_key(answer)  # not pilot.press: quitting waits for a held training run
            held_training.set()
        await wait_until(pilot, lambda: app.return_code is not None, timeout=10, what="the app to exit")
    assert app.return_code == 0
    if where == "training":  # the run was stopped, and what it learned was kept
        result = app.session.training.last_result
        assert result is not None and result.cancelled and 0 < result.games_played < 10_000_000
    with Store.open(data_dir) as store:
        assert store.game_count() == 0  # the unfinished game is not recorded


async def test_escape_never_quits_goes_back_and_leaving_a_game_asks(make_app):
    """One app, screen to screen: q in the heap box types (it does not quit); Esc never quits (the first screen: it
    does nothing); Esc leaves a game at once when no move was made, and asks when one was (n, the mouse's No and
    Enter on "Leave" answer); Esc goes back from the records to the game, still playable; F1 opens the help for
    this screen; the Nim table view's footer labels invite no q. F1's help on the setup screen, the game screen and the
    lab covers every registered game and the lab (issue 33 item 7): the games' sections come from the registry (a
    board's own, or one made from the entry), the lab's from the help."""
    import re

    from textual.widgets import Select, Static

    from sticks_tui.engine import registry
    from sticks_tui.ui.screens.help import HelpScreen
    from sticks_tui.ui.screens.lab import LabScreen

    def help_text(screen) -> str:
        return "\n".join(str(s.render()) for s in screen.query(Static)).lower()

    def covers_every_game(text: str) -> list[str]:
        """The games whose name the help never says (empty: it covers them all)."""
        return [e.name for e in registry.entries() if e.title.lower() not in text]

    async def open_help():
        await pilot.press("f1")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), what="the help")
        await pilot.pause()
        return pilot.app.screen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert {"sticks", "nim", "noughts", "hexapawn"} <= set(registry.names())
        text = help_text(await open_help())  # the setup screen's help covers every game and the lab
        assert covers_every_game(text) == [] and "the learning lab (f7)" in text
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)
        # q in the heap box types rather than quits
        await pilot.press("q")
        assert app.return_code is None and app.screen.query_one("#heap").value == "q"  # focus selected "20"
        # Esc never quits, and leaving a game asks
        setup = app.screen
        await pilot.press("escape", "escape")
        assert app.screen is setup and app.return_code is None  # the first screen: Esc does nothing
        game = await start_game(pilot, heap=12, opponent="dumb")
        assert isinstance(game, GameScreen)
        await pilot.press("escape")  # no move made yet: nothing to lose, back at once
        assert app.screen is setup
        game = await start_game(pilot, heap=12, opponent="dumb")
        await pilot.press("1")
        assert game.game_in_progress
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # keep playing
        assert app.screen is game and game.game_in_progress
        await pilot.press("escape")
        await pilot.click("#no")  # the mouse says no too
        assert app.screen is game
        await pilot.press("escape", "enter")  # the focus is on "Leave": Enter leaves
        assert app.screen is setup and app.return_code is None
        await pilot.press("escape")
        assert app.screen is setup and app.return_code is None
        # Esc goes back: from the records to the game, still playable; F1 the help for this screen
        game = await start_game(pilot, heap=12, opponent="dumb")
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        text = help_text(app.screen)  # the game screen's help covers every game and the lab
        assert covers_every_game(text) == [] and "the learning lab (f7)" in text
        assert app.screen.keys_title == "the game screen" and app.screen.keys
        assert any("Keys on the game screen" in str(w.render()) for w in app.screen.query(".help-title"))
        assert any("Records" in what for _, what in app.screen.keys)  # F3 works here, though not in the footer
        await pilot.press("escape")
        assert app.screen is game
        await pilot.press("f3")
        assert isinstance(app.screen, RecordsScreen)
        await pilot.press("escape")
        assert app.screen is game
        await pilot.click("#take-1")
        assert game.game.state.position < 12  # still playable after coming back
        await pilot.press("escape")  # a game in progress: asked first
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        assert isinstance(app.screen, SetupScreen)
        # the Nim table view's keys are labelled without a 'q' that would read as the quit key
        setup.query_one("#game", Select).value = "nim"
        await pilot.pause()
        setup.query_one("#opponent", Select).value = "friend"
        await pilot.pause()
        await pilot.click("#start")
        await pilot.press("u")
        screen = app.screen
        assert screen.query_one("#board").has_class("-table")
        labels = {b.description for _, b, enabled, _ in screen.active_bindings.values()}
        assert "More quarters" in labels
        # a label such as "q+1" reads as "press q": and q quits
        assert not any(re.search(r"\bq\s*[-+]", label) for label in labels), labels
        # the lab's own help, and the games it races learners on
        await pilot.press("escape")  # no move made: back at once
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup screen")
        await pilot.press("f7")
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen), what="the lab")
        text = help_text(await open_help())
        assert "the table's columns" in text and covers_every_game(text) == []


async def test_heatmap_shows_all_100_hats_at_160x48_and_scrolls_to_the_drawn_hat_at_80x24(make_app):
    """One app: at 160x48 all 100 hats show at once, column-major; then at 80x24 they scroll, and the hat the AI
    draws from is scrolled into sight."""
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await start_game(pilot, heap=100, opponent="learning")
        heatmap = screen.query_one(HatHeatmap)
        assert heatmap.data.hats == 100
        cols, rows, column_major = heatmap.grid()
        assert column_major, f"100 hats in {cols} columns of {rows} rows scroll at 160x48"
        assert rows + 1 <= heatmap.scrollable_content_region.height
        assert heatmap.max_scroll_y == 0
        # column-major, 3 columns of 34: hats 1-34 down the first, 35-68, then 69-100 and two empty cells
        assert (cols, rows) == (3, 34)
        assert heatmap.hat_at(0, 0) == 1 and heatmap.hat_at(33, 0) == 34 and heatmap.hat_at(0, 1) == 35
        assert heatmap.hat_at(31, 2) == 100 and heatmap.hat_at(32, 2) is None and heatmap.hat_at(33, 2) is None
        await pilot.press("1")
        assert screen.game.state.position < 99
        assert heatmap.cell_text(100, 1) == "▃33%    1"
        # 80x24, a new game with the AI moving first, its move held until the test makes it
        await pilot.resize_terminal(80, 24)
        await pilot.press("escape")
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup screen")
        app.session.ai_delay_override = 30
        screen = await start_game(pilot, heap=100, opponent="learning", first="p2")
        heatmap = screen.query_one(HatHeatmap)
        cols, rows, column_major = heatmap.grid()
        assert not column_major and heatmap.max_scroll_y > 0  # 100 hats do not fit at 80x24: it scrolls
        heatmap.scroll_to(y=0, animate=False)  # hat 100 is on the last row, out of sight
        await pilot.pause()
        assert heatmap.scroll_offset.y == 0
        screen._ai_move(at_once=True)
        await pilot.pause()
        hat, ball = screen.game.state.history[0].before, screen.game.state.history[0].move
        assert hat == 100 and heatmap.data.drawn == (100, ball)
        assert heatmap.cell_text(100, ball).startswith("►")
        row, _ = heatmap.position(100)
        top = int(heatmap.scroll_offset.y)
        assert top < row + 1 < top + heatmap.scrollable_content_region.height  # hat 100 is on screen


def palette_first(app) -> str:
    """The text of the command palette's first result ("" while it has none)."""
    from textual.command import CommandList

    results = app.screen.query_one(CommandList)
    return str(results.get_option_at_index(0).prompt) if results.option_count else ""


def palette_all(app) -> list[str]:
    from textual.command import CommandList

    results = app.screen.query_one(CommandList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


@pytest.mark.slow
async def test_each_screen_offers_its_own_commands(make_app):
    """The game screen's command (the perfect moves) on the game screen only; the app's (Train the AI) opens
    the train dialog from the palette."""
    from textual.command import CommandPalette

    from sticks_tui.ui.screens.training import TrainDialog

    app = make_app(ai_delay=30)
    async with app.run_test(size=(80, 24)) as pilot:
        # the game screen's provider: the perfect-move overlay, run on the screen
        game = await start_game(pilot, heap=12, opponent="learning")
        heatmap = game.query_one(HatHeatmap)
        assert not heatmap.show_perfect
        await pilot.press("ctrl+p")
        await pilot.press(*"perfect moves")
        await wait_until(pilot, lambda: palette_first(app).startswith("Show the perfect moves"),
                         what="the game screen's command")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is game and heatmap.show_perfect, what="the overlay")
        # the setup screen has no such command
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"train")
        await wait_until(pilot, lambda: palette_first(app).startswith("Train the AI"), what="the app's command")
        assert not any(text.startswith(("Train the Nim AI", "Show the perfect moves")) for text in palette_all(app))
        await pilot.press("escape")
        assert not isinstance(app.screen, CommandPalette)
        # train from the command palette: its command opens the train dialog
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"train the")
        await wait_until(pilot, lambda: palette_first(app).startswith("Train the AI"),
                         what="the palette to find the command")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the training dialog")
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen) and not app.training_running


# -- settings: the theme and the key map (issue 10) ---------------------------------------------------
# (the theme chosen is saved at once and used next time: tests/ui/test_restart.py)
def test_every_binding_has_an_id():
    """A key map can move any key only if every binding has an id (App.set_keymap)."""
    from sticks_tui.ui.app import SticksApp
    from sticks_tui.ui.boards import boards
    from sticks_tui.ui.screens import (analysis, confirm, export_dialog, game, help, pretrain, records, replay, setup,
                                       training)

    classes = [SticksApp, setup.SetupScreen, game.GameScreen, confirm.ConfirmDialog, confirm.NameDialog,
               help.HelpScreen, analysis.AnalysisScreen, records.RecordsScreen, training.TrainDialog,
               training.TrainingScreen, pretrain.PretrainScreen, replay.ReplayScreen, export_dialog.ExportDialog,
               *(board.widget for board in boards().values())]
    assert set(SticksApp.binding_ids()) >= {b.id for c in classes for b in c.BINDINGS}
    missing = [f"{cls.__name__}: {b.key}" for cls in classes for b in cls.BINDINGS if b.id is None]
    assert missing == []


# -- below 80x24: a notice instead of a cut layout ------------------------------------------------------
async def test_a_terminal_below_80x24_gets_a_notice_that_goes_when_it_grows(make_app):
    from sticks_tui.ui.app import TooSmallScreen

    app = make_app()
    async with app.run_test(size=(60, 18)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TooSmallScreen), what="the notice")
        text = str(app.screen.query_one("#too-small").render())
        assert "Make the terminal at least 80x24 (now 60x18)." in text
        await pilot.press("f3", "q")  # nothing opens behind the notice, and q does not quit
        assert isinstance(app.screen, TooSmallScreen) and app.return_code is None
        await pilot.resize_terminal(79, 30)
        await wait_until(pilot, lambda: "(now 79x30)" in str(app.screen.query_one("#too-small").render()),
                         what="the new size in the notice")
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup screen back")
        await pilot.resize_terminal(70, 24)
        await wait_until(pilot, lambda: isinstance(app.screen, TooSmallScreen), what="the notice again")
        await pilot.press("ctrl+q")  # nothing in progress: quits at once, notice or not
        await wait_until(pilot, lambda: app.return_code is not None, what="the app to exit")


# -- every footer whole at 80 columns ----------------------------------------------------------------------
def footer_overflow(screen) -> list[str]:
    """The footer labels that do not fit whole in the screen's width."""
    from textual.widgets._footer import FooterKey

    width = screen.app.size.width
    return [f"{key.key_display} {key.description}" for key in screen.query(FooterKey)
            if key.region.right > width or key.region.width == 0]


@pytest.mark.slow
async def test_every_footer_label_is_whole_at_80_columns(make_app, held_training):
    from textual.widgets import Select

    from sticks_tui.ui.screens.analysis import AnalysisScreen

    app = make_app()
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:
        async def check():
            from textual.widgets._footer import FooterKey

            await pilot.pause()
            # a footer whose bindings just changed is composed again: its keys have no size until laid out
            await wait_until(pilot, lambda: all(k.region.width > 0 for k in app.screen.query(FooterKey)),
                             what="the footer laid out")
            seen.append(type(app.screen).__name__)
            assert footer_overflow(app.screen) == [], type(app.screen).__name__

        await check()
        game = await start_game(pilot, heap=10, opponent="dumb")
        await check()
        for _ in range(10):
            if game.game.is_over:
                break
            await pilot.press("1")
        assert game.game.is_over
        await check()
        await pilot.press("f3")
        await check()
        await pilot.press("escape", "f4")
        assert isinstance(app.screen, AnalysisScreen)
        await check()
        await pilot.press("escape", "escape")
        app.start_training(TrainingConfig(sticks=20, games=10_000_000, seed=1))
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        # held after 1,000 games: the run's keys are in the footer for good
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done >= 1000,
                         what="the run held")
        await check()
        await pilot.press("escape")
        setup = app.screen
        setup.query_one("#game", Select).value = "nim"
        await pilot.pause()
        await pilot.click("#start")
        assert isinstance(app.screen, GameScreen)
        await check()
        await pilot.press("u")
        assert app.screen.query_one("#board").has_class("-table")
        await check()
        await pilot.press("escape")
        setup.query_one("#game", Select).value = "noughts"
        await pilot.pause()
        await pilot.click("#start")
        assert isinstance(app.screen, GameScreen)
        await check()
    assert len(seen) == 9


# -- key maps are checked as they load: each mistake told in one line naming the entry, that entry ignored --
async def settings_notices(pilot) -> list[str]:
    await pilot.pause()
    return [n.message for n in pilot.app._notifications if n.title == "Settings"]


async def test_a_key_map_moves_bindings_and_each_entry_it_cannot_take_is_told_in_one_line_and_ignored(
        make_app, config_dir, data_dir):
    """One key map with every kind of mistake beside entries that work, in one app: each mistake is told in one line
    naming its entry, that entry ignored, and the rest of the key map works.
    - an entry naming no binding ("no.such.key"); F3 is no longer Records, F6 is; "take 1" is on z;
    - two takes on one key ("game.take3" = "2": 2 does game.take2): told, and each take keeps a key (2 takes 2, 3
      still takes 3);
    - a key map that would lose Ctrl+Q ("quit" = "notakey,ctrl+zz"): told, and Ctrl+Q still quits (nothing in
      progress, on the setup screen: at once), the unfinished game left before not recorded."""
    from sticks_tui.store.settings import Settings, save_settings

    save_settings(Settings(keys={"no.such.key": "f9", "records": "f6", "game.take1": "z", "game.take3": "2",
                                 "quit": "notakey,ctrl+zz"}), config_dir / "settings.toml")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        told = await settings_notices(pilot)
        notices = [n.message for n in app._notifications]
        assert len(notices) == 3 and told == notices and not any("\n" in n for n in notices), notices
        assert len([n for n in notices if '"no.such.key" = "f9"' in n]) == 1, notices
        assert len([n for n in notices if n.startswith('Key map: "game.take3" = "2" is ignored: 2 already does '
                                                       "game.take2")]) == 1, notices
        (quit_told,) = [n for n in notices if 'Key map: "quit" = "notakey,ctrl+zz" is ignored' in n]
        assert "quit keeps ctrl+q" in quit_told
        setup = app.screen
        await pilot.press("tab")  # out of the heap box (it would take printable keys)
        await pilot.press("f3")
        assert app.screen is setup  # F3 is no longer Records
        await pilot.press("f6")
        assert isinstance(app.screen, RecordsScreen)
        await pilot.press("escape")
        game = await start_game(pilot, heap=12, opponent="friend")
        await pilot.press("1")
        assert game.game.state.position == 12
        await pilot.press("z")  # "take 1" is on z now
        assert game.game.state.position == 11
        await pilot.press("2")
        assert game.game.state.position == 9  # 2 takes 2
        await pilot.press("3")
        assert game.game.state.position == 6  # and 3 still takes 3
        await pilot.press("escape")  # a game in progress: asked first
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        assert app.screen is setup and app.return_code is None
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: app.return_code is not None, timeout=5, what="the app to exit")
    assert app.return_code == 0
    with Store.open(data_dir) as store:
        assert store.game_count() == 0  # the unfinished game is not recorded


async def test_a_key_map_that_moves_quit_away_from_ctrl_q_is_told_and_ctrl_q_still_quits_at_once_from_the_records(
        make_app, config_dir, data_dir):
    """ "quit" and "quit.q" moved to F24: told in one line, and Ctrl+Q still quits, at once with nothing in progress
    (from the records screen: quit_from_anywhere's other screens)."""
    from sticks_tui.store.settings import Settings, save_settings

    save_settings(Settings(keys={"quit": "f24", "quit.q": "f24"}), config_dir / "settings.toml")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        notices = await settings_notices(pilot)
        assert len(notices) == 1 and 'Key map: "quit" = "f24" is ignored' in notices[0] and "\n" not in notices[0], \
            notices
        assert "quit keeps ctrl+q" in notices[0]
        await pilot.press("tab")  # out of the heap box
        await pilot.press("f3")
        assert isinstance(app.screen, RecordsScreen)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: app.return_code is not None, timeout=5, what="the app to exit")
    assert app.return_code == 0
    with Store.open(data_dir) as store:
        assert store.game_count() == 0
