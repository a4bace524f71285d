"""The records screen (leaderboard, games, reset with confirmation) and the analysis screen."""

from __future__ import annotations

import json
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


async def test_analysis_shows_the_rule_and_the_hats_copies_offers_no_nim_brain_and_resets_after_asking(
        make_app, data_dir, trained_brain):
    """One app session on the trained default brain (and a Nim brain in the store), holding the promises:
    1. the analysis shows the rule and the hats (a bad "hats up to" shows an error and keeps the table);
    2. copying the brain (c): the name dialog refuses an existing name, then copies;
    3. the analysis screen offers no Nim brain to the sticks AI (picking it would end with a sticks brain saved
       over it);
    4. reset brain asks first: No keeps it, Yes resets it (in the store too)."""
    from textual.widgets import Select

    from sticks_tui.vocabulary import nim_brain_name

    with Store.open(data_dir) as store:
        store.load_or_create_brain(nim_brain_name(), game="nim")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. the rule and the hats
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
        assert table[9][1:4] == ["take 1", "yes", "take 1"]  # hat 10: it takes 1 to leave 9, the perfect move
        assert table[8][2:4] == ["-", "lost: any"]  # hat 9 is lost whatever it does
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

        # 2. copy the brain (c): the name dialog refuses an existing name, then copies
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

        # 3. no Nim brain offered to the sticks AI (F4's screen above, and the analysis opened anew)
        await pilot.press("escape")
        app.action_analysis()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        options = [value for _, value in screen.query_one("#brain", Select)._options]
        assert "clever" in options and nim_brain_name() not in options

        # 4. reset brain asks first
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


async def test_the_analysis_of_noughts_at_80x24_shows_menaces_boxes_and_scrolls(make_app, data_dir):
    """Issue 32 item 2 and issue 33 item 3: F4 during a noughts game analyses the MENACE in play (O here) with
    the boards as it folds them, beads, the perfect squares, right or not and the figures of its seat; at
    80x24 at least 8 rows of the table show and PageDown pages through them; any of the game's brains can be
    picked (X's), and one the AI cannot play on that side is refused with the reason."""
    from textual.widgets import Select

    from sticks_tui.ui.screens.export_dialog import ExportDialog
    from sticks_tui.vocabulary import NOUGHTS_BRAINS
    from ui_helpers import set_up

    with Store.open(data_dir) as store:
        store.load_or_create_brain(NOUGHTS_BRAINS["O"], game="noughts", seat=1)
        store.copy_brain(NOUGHTS_BRAINS["O"], "O's copy")  # O's boxes: not a brain MENACE as X can play
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await set_up(pilot, "noughts", opponent="menace", first="p1")  # the pupil is X: MENACE plays O
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen) and (screen.game, screen.side) == ("noughts", 1)
        assert screen.query_one("#brain", Select).value == NOUGHTS_BRAINS["O"]
        table = screen.query_one("#hats-table", DataTable)
        assert table.row_count == 289  # MENACE's boxes for O, folded by the board's symmetries
        summary = text_of(screen, "#analysis-summary")
        assert "Over every board MENACE can face: right in " in summary and " of the 136 winning boxes" in summary
        assert "as O (moving second)" in summary and "moving first" not in summary

        screen.query_one("#brain", Select).value = "O's copy"  # refused, saying why; the analysis stays
        await pilot.pause()
        assert screen.kept.name == NOUGHTS_BRAINS["O"] and app.session.chosen.get("noughts") is None
        said = [n.message for n in app._notifications if "O's copy" in n.message]
        assert said == [f"The brain \"O's copy\" keeps O's containers only, not keeps X's containers only; it was left "
                        "as it is. The learning AI plays with the brains it had."], said
        assert table.row_count == 289

        screen.query_one("#brain", Select).value = NOUGHTS_BRAINS["X"]
        await pilot.pause()
        assert screen.side == 0 and table.row_count == 304
        assert [str(c.label) for c in table.columns.values()] == ["Board", "AI plays", "Right?", "Perfect", "Beads",
                                                                  "Chance"]
        first = rows(table)[0]
        assert first[:4] == [".../.../...", "tie", "NO", "draw: square 1 or square 2 or square 5"]
        assert first[4] == "1:12 2:12 5:12"  # the app's 12 beads a square in the first box (a corner, an edge, the middle)
        summary = text_of(screen, "#analysis-summary")
        assert "Over every board MENACE can face: right in 0% of the 231 winning boxes" in summary
        assert "Exact chance to win a game of noughts and crosses: vs a perfect player wins 0.0%, draws" in summary
        assert "as X (moving first)" in summary and "moving second" not in summary
        table.focus()
        await pilot.pause()
        assert table.size.height >= 9  # its heading and at least 8 rows
        shown = table.scrollable_content_region.height - 1
        await pilot.press("pagedown")
        assert table.cursor_row >= shown - 1 and table.scroll_y > 0

        await pilot.press("e")  # the export is of the brain analysed, not the sticks AI's hats
        assert isinstance(app.screen, ExportDialog)
        assert [c.label for c in app.screen.choices.values()] == [
            f"the boxes table of brain '{NOUGHTS_BRAINS['X']}'",
            f"the learning curve of brain '{NOUGHTS_BRAINS['X']}' (last training run)"]
        assert json.loads(app.screen.choices["hats"].make("json").text)["game"] == "noughts"


async def test_the_records_show_every_games_brains_a_noughts_game_as_a_board_and_training_games_only(
        make_app, data_dir):
    """Issue 32 item 2 (the records for every game) and issue 33 items 6 and 7: MENACE's brain is in the brains
    list with its game and its draw, its games against people are in the results curve, a noughts game is a
    small board (not `noughts .........`), and "Trained" counts no game against a person."""
    from sticks_tui.vocabulary import NOUGHTS_BRAINS

    menace = NOUGHTS_BRAINS["X"]
    with Store.open(data_dir) as store:
        store.save_brain("default", Hats(100), games_trained=300)
        store.load_or_create_brain(menace, game="noughts", seat=0)
        # MENACE (X) draws with Cy, then beats Di: games against people, which teach it but train it not
        store.record_game(game="noughts", start=".........", opponent="menace", players=("MENACE", "Cy"),
                          moves=[5, 1, 9, 3, 2, 8, 7, 4, 6], loser=None, first=0, ai_seats=[0], brain=menace,
                          learning={0: (menace, [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2),
                                                 ("OXO.X..OX", 7)])})
        store.record_game(game="noughts", start=".........", opponent="menace", players=("MENACE", "Di"),
                          moves=[5, 1, 9, 2, 3, 7, 6], loser=1, first=0, ai_seats=[0], brain=menace)
        assert store.brain_info(menace).games_trained == 0
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, RecordsScreen)
        brains = {r[0]: r[1:6] for r in rows(screen.query_one("#brains", DataTable))}
        assert brains["default"] == ["sticks", "0", "0", "0", "300"]
        assert brains[menace] == ["noughts", "1", "1", "0", "0"]  # won 1, drew 1, lost 0; trained 0
        curve = screen.query_one("#results-curve")  # the brain in play's (sticks 'default': no game vs people) ...
        assert text_of(screen, "#results-title") == "'default' vs people: games won" and not curve.series[0].points
        table = screen.query_one("#brains", DataTable)
        table.move_cursor(row=table.get_row_index(menace))  # ... then MENACE's, its draw counted (issue 33 item 5)
        await pilot.pause()
        assert text_of(screen, "#results-title") == f"'{menace}' vs people: games won"
        won, _, not_lost = curve.series
        assert [y for _, y in won.points] == [0.0, 0.5] and [y for _, y in not_lost.points] == [1.0, 1.0]
        leaderboard = screen.query_one("#leaderboard", DataTable)
        leaderboard.move_cursor(row=leaderboard.get_row_index("Cy"))
        await pilot.pause()
        games = screen.query_one("#games", DataTable)
        (game,) = rows(games)
        assert game[1].splitlines() == ["noughts O X O", "        O X X", "        X O X"]  # the board as it ended
        assert games.rows[games.coordinate_to_cell_key((0, 0)).row_key].height == 3


def test_a_game_on_a_square_board_is_listed_as_its_board_as_it_ended_and_any_other_by_its_start():
    from sticks_tui.store.records import GameRecord
    from sticks_tui.ui.screens.records import game_cell

    def record(game, start, moves):
        return GameRecord(1, T0, game, start, "friend", ("Ann", "Bob"), tuple(moves), 1, None)

    assert game_cell(record("sticks", "10", [3, 3, 3, 1])) == ("sticks 10", 1)
    assert game_cell(record("nim", "3,4,5", ["1:3", "2:4", "3:5"])) == ("nim 3,4,5", 1)
    assert game_cell(record("hexapawn", "BBB...WWW:W", ["a1-a2"])) == (
        "hexapawn B B B\n         W . .\n         . W W", 3)
    # a record this app cannot replay is listed as kept, not refused
    assert game_cell(record("noughts", ".........", [5, 5])) == ("noughts .........", 1)
