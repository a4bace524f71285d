"""The records screen (leaderboard, games, reset with confirmation) and the analysis screen."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from textual.widgets import DataTable, Input

from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store
from sticks_tui.ui.screens.analysis import AnalysisScreen
from sticks_tui.ui.screens.confirm import ConfirmDialog, NameDialog
from sticks_tui.ui.screens.records import RecordsScreen
from ui_helpers import play_human_turns, start_game, text_of

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def rows(table: DataTable) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.fixture
def trained_brain(data_dir):
    """The default brain after 50,000 training games at 20 sticks (seed 1): it has found the rule."""
    result = train(TrainingConfig(sticks=20, games=50_000, seed=1), brain=Hats(100))
    with Store.open(data_dir) as store:
        store.save_brain("default", result.brain, games_trained=50_000)
        store.save_training_curve("default", result.curve)
    return result.brain


async def test_records_after_games_and_reset_with_confirmation(make_app, data_dir):
    with Store.open(data_dir) as store:
        store.record_game(start=10, opponent="friend", players=("Ann", "Bob"), moves=[3, 3, 3, 1], loser=1,
                          played_at=T0)
        store.record_game(start=12, opponent="friend", players=("Bob", "Ann"), moves=[3, 3, 3, 3], loser=1,
                          played_at=T0)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # one more game, played here: Player 1 beats the dumb AI
        game = await start_game(pilot, heap=10, opponent="dumb")
        await play_human_turns(pilot, game)
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, RecordsScreen)
        board = rows(screen.query_one("#leaderboard", DataTable))
        assert [r[:4] for r in board] == [
            ["Player 1", "1", "0", "+1"],
            ["Ann", "1", "1", "+0"],
            ["Bob", "1", "1", "+0"],
            ["Dumb AI (AI)", "0", "1", "-1"],
        ]
        assert text_of(screen, "#records-summary").startswith("3 games kept in ")
        assert text_of(screen, "#games-title") == "Recent games of Player 1"
        assert rows(screen.query_one("#games", DataTable))[0][1:] == ["sticks 10", "Player 1 vs Dumb AI",
                                                                      "Dumb AI"]
        # moving down the leaderboard shows that player's games
        screen.query_one("#leaderboard", DataTable).focus()
        await pilot.press("down")
        assert text_of(screen, "#games-title") == "Recent games of Ann"
        assert [r[2] for r in rows(screen.query_one("#games", DataTable))] == ["Bob vs Ann", "Ann vs Bob"]

        # reset: cancel keeps everything
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        assert app.screen is screen and screen.query_one("#leaderboard", DataTable).row_count == 4
        with Store.open(data_dir) as store:
            assert store.game_count() == 3
        # reset: confirmed, everything goes (the brains stay)
        await pilot.press("x")
        await pilot.click("#yes")
        assert app.screen is screen
        assert screen.query_one("#leaderboard", DataTable).row_count == 0
        assert screen.query_one("#games", DataTable).row_count == 0
        assert text_of(screen, "#records-summary").startswith("0 games kept in ")
        await pilot.press("escape")  # back where F3 was pressed
        assert app.screen is game
    with Store.open(data_dir) as store:
        assert store.game_count() == 0 and store.leaderboard() == []
        assert store.brain_info("default") is not None


async def test_analysis_shows_the_rule_and_the_hats(make_app, data_dir, trained_brain):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.session.brain == trained_brain
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        summary = text_of(screen, "#analysis-summary")
        assert "You lose if you face 1, 5, 9, ... sticks: n = 1 mod 4." in summary
        assert "This is the exact solution" in summary
        assert "it plays perfectly" in summary
        table = rows(screen.query_one("#hats-table", DataTable))
        assert len(table) == 20 and [r[0] for r in table] == [str(n) for n in range(1, 21)]
        assert table[9][3:] == ["1", "take 1", "yes"]  # hat 10: take 1 to leave 9
        assert table[8][4] == "lost: any"  # hat 9 is lost whatever it does
        assert screen.query_one("#analysis-curve").points  # the saved learning curve
        # a bad "hats up to" shows an error and keeps the table
        upto = screen.query_one("#upto", Input)
        upto.value = "500"
        await pilot.pause()
        assert text_of(screen, "#upto-error") == "Please enter a number between 2 and 100."
        assert screen.query_one("#hats-table", DataTable).row_count == 20
        upto.value = "12"
        await pilot.pause()
        assert text_of(screen, "#upto-error") == ""
        assert screen.query_one("#hats-table", DataTable).row_count == 12

        # copy the brain (c): the name dialog refuses an existing name, then copies
        screen.query_one("#hats-table", DataTable).focus()
        await pilot.press("c")
        dialog = app.screen
        assert isinstance(dialog, NameDialog)
        name = dialog.query_one("#name", Input)
        assert name.value == "default copy"
        name.value = "ＤEFAULT"  # a full-width D: the same name by the store's rule (NFKC, then casefold)
        await pilot.press("enter")
        assert app.screen is dialog
        assert text_of(dialog, "#name-error") == "A brain called 'default' exists already."
        name.value = "clever"
        await pilot.press("enter")
        assert app.screen is screen
        with Store.open(data_dir) as store:
            assert store.load_brain("clever") == trained_brain
            assert store.brain_info("clever").games_trained == 50_000
        assert [str(v) for _, v in screen.query_one("#brain")._options] == ["clever", "default"]


async def test_reset_brain_asks_first(make_app, data_dir, trained_brain):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        screen = app.screen
        screen.query_one("#hats-table", DataTable).focus()
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.click("#no")
        assert app.session.brain == trained_brain
        await pilot.press("x")
        await pilot.press("y")
        assert app.screen is screen
        assert app.session.brain == Hats(100)
        assert "You lose if you face" not in text_of(screen, "#analysis-summary")
    with Store.open(data_dir) as store:
        assert store.load_brain("default") == Hats(100)
        assert store.brain_info("default").games_trained == 0


async def test_the_analysis_screen_offers_no_nim_brain_to_the_sticks_ai(make_app, data_dir):
    """Picking the Nim brain for the sticks AI would end with a sticks brain saved over it."""
    from textual.widgets import Select

    from sticks_tui.store import Store
    from sticks_tui.vocabulary import nim_brain_name

    with Store.open(data_dir) as store:
        store.load_or_create_brain(nim_brain_name(), game="nim")
        store.load_or_create_brain("clever", 100)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_analysis()
        await pilot.pause()
        options = [value for _, value in app.screen.query_one("#brain", Select)._options]
        assert "clever" in options and nim_brain_name() not in options
