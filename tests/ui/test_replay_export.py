"""Replaying a recorded game (records -> replay), the learning AI's results curve on the records screen,
and the one export dialog (records, replay, analysis, training): files read back, the clipboard, refusals."""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import datetime, timezone

import pytest
from textual.widgets import Button, DataTable, Input, Select, Static

from sticks_tui.engine.events import TrainingProgress
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from sticks_tui.ui.screens import export_dialog as export_module
from sticks_tui.ui.screens.analysis import AnalysisScreen
from sticks_tui.ui.screens.export_dialog import ExportDialog
from sticks_tui.ui.screens.records import LABEL_NOT_LOST, LABEL_SO_FAR, LABEL_WINDOW, RecordsScreen, results_series
from sticks_tui.ui.screens.replay import NOTE_NO_AI, NOTE_NO_HATS, NOTE_OLD, NOTE_TRAINED, ReplayScreen
from sticks_tui.ui.screens.training import TrainingScreen
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from sticks_tui.ui.boards.sticks import SticksView
from ui_helpers import play_human_turns, start_game, text_of, watch_layouts

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
AI_WINS = dict(start=10, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 2, 1, 3, 1], loser=0,
               brain="default", learning={1: ("default", [(7, 2), (4, 3)])})


@pytest.fixture
def documents(tmp_path, monkeypatch):
    """The folder the dialog proposes (the user's Documents, here a temporary one)."""
    folder = tmp_path / "Documents"
    folder.mkdir()
    monkeypatch.setattr(export_module, "default_export_dir", lambda: folder)
    return folder


def learning_store(data_dir) -> int:
    """The brain with hat 7 at 5/1/2 (and hat 5 at 9/1/1, which no game draws from, and a learning curve), a
    game that the AI won drawing ball 2 from hat 7 and ball 3 from hat 4, then a second game that changes hat 7
    again (so 'as they were' differs from the brain now)."""
    with Store.open(data_dir) as store:
        brain = Hats(100)
        brain.counts[7] = [5, 1, 2]
        brain.counts[5] = [9, 1, 1]
        store.save_brain("default", brain)
        store.save_training_curve("default", [(0, 0.25, 0.1, 0.2), (100, 0.5, 0.3, 0.4)])
        gid = store.record_game(**AI_WINS, played_at=T0)
        store.record_game(start=10, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 2, 2, 2, 1],
                          loser=0, brain="default", learning={1: ("default", [(7, 2), (3, 2)])}, played_at=T0)
        assert store.load_brain("default").hat(7) == (5, 3, 2)
    return int(gid)


async def open_records_at(pilot, game_id: int, *, press_f3: bool = True) -> RecordsScreen:
    if press_f3:
        await pilot.press("f3")
    screen = pilot.app.screen
    assert isinstance(screen, RecordsScreen)
    board = screen.query_one("#leaderboard", DataTable)
    board.move_cursor(row=board.get_row_index("Ann"))
    await pilot.pause()
    games = screen.query_one("#games", DataTable)
    games.focus()
    games.move_cursor(row=games.get_row_index(str(game_id)))
    await pilot.pause()
    return screen


def heatmap_of(screen) -> HatHeatmap:
    return screen.query_one(HatHeatmap)



async def test_old_games_replay_without_hats_and_say_so_and_a_replayed_loss_marks_the_balls_kept(make_app, data_dir):
    """Old games (and a friends' game, a trained AI's) replay without hats and say why. Then a game the learning AI
    lost, replayed to its end: the balls thrown away and the one kept (its last of its number), said in words."""
    from sticks_tui.learn.lesson_words import MARK_KEPT

    with Store.open(data_dir) as store:
        brain = Hats(100)
        brain.counts[7] = [1, 3, 1]
        store.save_brain("default", brain)
        # the AI drew ball 2 from hat 7 (3 of them: one goes) and ball 3 from hat 3 (its last: it stays), and lost
        lost = store.record_game(start=10, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 2, 2, 3],
                                 loser=1, brain="default", learning={1: ("default", [(7, 2), (3, 3)])})
        old = store.record_game(**{**AI_WINS, "learning": None})  # kept as the app kept games before
        friend = store.record_game(start=4, opponent="friend", players=("Ann", "Bob"), moves=[3, 1], loser=1)
        no_hats = store.record_game(**AI_WINS)
        store._conn.execute("UPDATE game_learning SET hats = NULL WHERE game_id = ?", (int(no_hats),))
        trained = store.record_game(**{**AI_WINS, "learning": None, "opponent": "trained", "brain": None})
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for i, (gid, note) in enumerate(((old, NOTE_OLD), (friend, NOTE_NO_AI), (no_hats, NOTE_NO_HATS),
                                         (trained, NOTE_TRAINED))):
            records = await open_records_at(pilot, gid, press_f3=i == 0)  # back on the same records screen
            await pilot.click("#replay-game")  # the button
            screen = app.screen
            assert isinstance(screen, ReplayScreen) and screen.record.id == gid
            assert text_of(screen, "#replay-note") == note and screen.query_one("#replay-note").display
            assert not heatmap_of(screen).display
            await pilot.press("end")
            sticks = screen.query_one(SticksView)
            assert sticks.heap == 0 and screen.step == len(screen.record.moves) + (gid == no_hats)
            await pilot.press("home")
            assert sticks.heap == int(screen.record.start)
            await pilot.press("escape")
            assert app.screen is records
        await open_records_at(pilot, lost, press_f3=False)
        await pilot.click("#replay-game")
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.record.id == lost
        await pilot.press("end")
        heatmap = heatmap_of(screen)
        assert heatmap.data.flash == ((7, 2, -1), (3, 3, 0))
        assert heatmap.cell_text(7, 2).startswith("↓") and heatmap.cell_text(3, 3).startswith(MARK_KEPT)
        assert list(screen.query_one("#replay-log").lines)[-1] == (
            "Learning AI lost: each ball it drew is thrown away (hat 7 ball 2: 3→2), except hat 3 ball 3: it was the "
            "last of its number, and a hat always keeps at least one ball of each number, so it stays (=).")
        assert text_of(screen, "#replay-step") == (
            "After the game: what Learning AI learned (↑ added, ↓ thrown away, = kept as it was).")



def test_results_series_cumulative_and_in_a_window():
    results = [(i, 1 if w else -1) for i, w in enumerate([True, False, True, True] + [False] * 10, start=1)]
    so_far, window = results_series(results)
    assert so_far.label == LABEL_SO_FAR and window.label == LABEL_WINDOW
    assert [round(y, 3) for _, y in so_far.points[:4]] == [1.0, 0.5, 0.667, 0.75]
    assert so_far.points[-1] == (14.0, 3 / 14)
    assert window.points[9] == (10.0, 0.3) and window.points[-1] == (14.0, 0.0)
    won, _, not_lost = results_series([(1, 1), (2, 0), (3, -1), (4, 0)])  # a draw is no win, and not lost
    assert [y for _, y in won.points] == [1.0, 0.5, 1 / 3, 0.25] and not_lost.label == LABEL_NOT_LOST
    assert [y for _, y in not_lost.points] == [1.0, 1.0, 2 / 3, 0.75]


async def test_records_show_the_learning_ais_results_against_people(make_app, data_dir):
    with Store.open(data_dir) as store:
        store.save_brain("default", Hats(100))
        for loser in (0, 1, 0):  # the AI (seat 2) wins, loses, wins
            store.record_game(start=4, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 1],
                              loser=loser if loser == 1 else 0, brain="default") if loser else \
                store.record_game(start=5, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 1, 1],
                                  loser=0, brain="default")
        store.record_game(start=4, opponent="friend", players=("Ann", "Bob"), moves=[3, 1], loser=1)  # not the AI
        store.save_brain("trained", Hats(100))
        store.record_game(start=4, opponent="trained", players=("Ann", "Trained AI"), moves=[3, 1], loser=1,
                          brain="trained")  # the trained AI, not the learning one
        store.record_game(start=4, opponent="learning", players=("AI 1", "AI 2"), moves=[3, 1], loser=1,
                          brain="default", ai_seats=[0, 1])  # not against people
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        curve = app.screen.query_one("#results-curve", LearningCurve)
        so_far, window = curve.series
        assert [round(y, 3) for _, y in so_far.points] == [1.0, 0.5, 0.667]
        text = "\n".join(curve.screen_text())
        assert f"● {LABEL_SO_FAR} 67%" in text and f"▲ {LABEL_WINDOW} 67%" in text
        assert "games vs people" in text
        assert text_of(app.screen, "#results-title") == "'default' vs people: games won"  # the brain in play's


# -- exports ----------------------------------------------------------------------------------------------
async def export(pilot, *, what: str, fmt: str, path=None) -> ExportDialog:
    dialog = pilot.app.screen
    assert isinstance(dialog, ExportDialog)
    dialog.query_one("#export-what", Select).value = what
    dialog.query_one("#export-format", Select).value = fmt
    await pilot.pause()
    if path is not None:
        dialog.query_one("#export-path", Input).value = str(path)
        await pilot.pause()  # the layout follows the message cleared by the new path
    await pilot.click("#export-go")
    await pilot.pause()
    return dialog


def read_back(path, fmt: str):
    text = path.read_text(encoding="utf-8")
    return text, (json.loads(text) if fmt == "json" else list(csv.reader(io.StringIO(text))))


async def test_records_replay_and_every_export_of_a_learning_brain_in_one_walk(make_app, data_dir, documents,
                                                                                 monkeypatch):
    """One app session on a learning brain's games (learning_store), holding the promises:
    1. export refusals change nothing and say why (an export-worthy file, a missing folder, the database, a
       folder, no name): no file written, the clipboard kept; a new path clears the message; Cancel writes nothing;
    2. Enter on a player then on a game replays it;
    3. the replay steps through the game with the hats as they were (marks, the lesson, buttons, Escape back),
       and a step lays out no words that keep their place (the step line, 3 lines high; the hats' title, the
       same until the lesson): each was a layout of the whole screen at every step;
    4. export from the records (a game, the game list) and from the replay (its moves): files read back and
       the clipboard;
    5. export from the analysis screen: hats (CSV, JSON) and the learning curve."""
    gid = learning_store(data_dir)
    notes = documents / "notes.csv"
    notes.write_text("my own notes\n")
    laid_out = watch_layouts(monkeypatch)  # the widgets that asked for a layout of the screen
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. refusals
        records = await open_records_at(pilot, gid)
        app.copy_to_clipboard("before")
        database = app.session.store.path
        db_bytes = database.read_bytes()
        await pilot.press("e")
        cases = [
            (notes, "already exists and is not an earlier game list export; choose another file name."),
            (documents / "missing" / "games.csv", f"the folder {documents / 'missing'} does not exist."),
            (database, "is sticks-tui's own database"),
            (documents, "is a folder, not a regular file"),
            ("", "Give a file name to write the game list export to."),
        ]
        for path, message in cases:
            dialog = await export(pilot, what="games", fmt="csv", path=path)
            assert app.screen is dialog  # the dialog stays open to change the path
            error = dialog.query_one("#export-error", Static)
            shown = str(error.render())
            assert error.display and message in shown and "--force" not in shown
        assert notes.read_text() == "my own notes\n"
        assert database.read_bytes() == db_bytes
        assert not (documents / "missing").exists()
        assert sorted(os.listdir(documents)) == ["notes.csv"]
        assert app.clipboard == "before"
        # a new path clears the message; Cancel writes nothing
        dialog.query_one("#export-path", Input).value = str(documents / "x.csv")
        await pilot.pause()
        assert not dialog.query_one("#export-error", Static).display
        await pilot.click("#export-cancel")
        assert not isinstance(app.screen, ExportDialog)
        assert sorted(os.listdir(documents)) == ["notes.csv"]

        # 2. Enter on a player, then on a game
        assert app.screen is records
        board = records.query_one("#leaderboard", DataTable)
        board.focus()
        board.move_cursor(row=board.get_row_index("Ann"))
        await pilot.pause()
        await pilot.press("enter")
        assert app.focused is records.query_one("#games", DataTable)
        await pilot.press("down", "enter")  # Ann's games, newest first: the second is the first game
        assert isinstance(app.screen, ReplayScreen) and app.screen.record.id == gid

        # 3. the replay, step by step
        screen = app.screen
        sticks = screen.query_one(SticksView)
        log = screen.query_one("#replay-log")
        assert (sticks.heap, screen.step) == (10, 0)
        assert list(log.lines) == ["Game 1: 10 sticks on the board. Ann moves first."]
        heatmap = heatmap_of(screen)
        assert heatmap.display and heatmap.data.hats == 10 and heatmap.data.drawn is None
        assert tuple(heatmap.data.counts[7]) == (5, 1, 2)  # as it was, not as it is now (5, 3, 2)

        laid_out.clear()
        await pilot.press("right")
        assert (sticks.heap, sticks.leaving) == (7, 3)
        assert list(log.lines)[-1] == "Ann takes 3 sticks, there are 7 sticks remaining."
        assert heatmap.data.drawn is None
        await pilot.press("right")
        assert sticks.heap == 5
        assert list(log.lines)[-1] == ("Learning AI draws ball 2 from hat 7. Learning AI takes 2 sticks, "
                                       "there are 5 sticks remaining.")
        assert heatmap.data.drawn == (7, 2) and heatmap.cell_text(7, 2).startswith("►")
        assert text_of(screen, "#replay-step") == "Move 2 of 5: Learning AI takes 2 (ball 2 from hat 7)."
        await pilot.press("right", "right")
        assert heatmap.data.drawn == (4, 3) and heatmap.data.beside == frozenset({(7, 2)})
        assert heatmap.cell_text(7, 2).startswith("•")
        assert screen.step == 4 and text_of(screen, "#replay-hats-title") == "Learning AI's hats as they were"
        assert screen.query_one("#replay-step") not in laid_out  # (since the first step)
        assert screen.query_one("#replay-hats-title") not in laid_out

        await pilot.press("end")  # the lesson: what the game changed
        assert screen.step == len(screen.replay.steps) - 1 == 6
        assert list(log.lines)[-2].endswith("Ann: You lose.  Learning AI: You win!")
        assert list(log.lines)[-1] == ("Learning AI won: each ball it drew goes back with one more of its number "
                                       "(hat 7 ball 2: 1→2, hat 4 ball 3: 1→2).")
        assert tuple(heatmap.data.counts[7]) == (5, 2, 2) and tuple(heatmap.data.counts[4]) == (1, 1, 2)
        assert heatmap.cell_text(7, 2).startswith("↑") and heatmap.cell_text(4, 3).startswith("↑")
        assert text_of(screen, "#replay-hats-title") == "Learning AI's hats after the game"
        assert screen.query_one("#replay-next", Button).disabled

        await pilot.press("left")
        assert screen.step == 5 and sticks.heap == 0 and not heatmap.data.flash
        assert tuple(heatmap.data.counts[7]) == (5, 1, 2)
        await pilot.click("#replay-start")
        assert screen.step == 0 and sticks.heap == 10 and len(log.lines) == 1
        assert screen.query_one("#replay-previous", Button).disabled
        await pilot.click("#replay-next")
        assert screen.step == 1
        await pilot.click("#replay-end")
        assert screen.step == 6
        await pilot.press("escape")
        assert app.screen is records

        # 4. export from the records and the replay
        await open_records_at(pilot, gid, press_f3=False)
        await pilot.press("e")
        dialog = app.screen
        assert isinstance(dialog, ExportDialog)
        assert dialog.query_one("#export-path", Input).value == str(documents / f"game-{gid}.csv")
        await export(pilot, what="game", fmt="csv")
        assert app.screen is records
        text, rows = read_back(documents / f"game-{gid}.csv", "csv")
        assert rows[0] == ["move", "player", "pile", "took", "left"]
        assert rows[1:3] == [["1", "Ann", "", "3", "7"], ["2", "Learning AI", "", "2", "5"]]
        assert app.clipboard == text

        await pilot.press("e")
        dialog = await export(pilot, what="games", fmt="json")
        text, doc = read_back(documents / "games.json", "json")  # the name followed the choice
        assert doc["kind"] == "games" and [g["id"] for g in doc["games"]] == [gid, gid + 1]
        assert app.clipboard == text

        await pilot.press("v")  # from the replay: this game's moves
        await pilot.press("e")
        await export(pilot, what="game", fmt="json")
        text, doc = read_back(documents / f"game-{gid}.json", "json")
        assert doc["kind"] == "game" and [m["took"] for m in doc["moves"]] == [3, 2, 1, 3, 1]
        assert app.clipboard == text
        assert isinstance(app.screen, ReplayScreen)

        # 5. export from the analysis screen
        await pilot.press("f4")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        screen.query_one("#hats-table", DataTable).focus()
        await pilot.press("e")
        await export(pilot, what="hats", fmt="csv")
        text, rows = read_back(documents / "hats-default.csv", "csv")
        assert rows[0][:4] == ["hat", "balls_1", "balls_2", "balls_3"]
        assert rows[5][:4] == ["5", "9", "1", "1"] and len(rows) == 101
        assert app.clipboard == text
        await pilot.press("e")
        await export(pilot, what="curve", fmt="json")
        text, doc = read_back(documents / "curve-default.json", "json")
        assert [(p["games"], p["agreement"]) for p in doc["points"]] == [(0, 0.25), (100, 0.5)]
        assert app.clipboard == text
        await pilot.press("e")
        await export(pilot, what="hats", fmt="json")
        _, doc = read_back(documents / "hats-default.json", "json")
        assert doc["hats"][4]["balls"] == [9, 1, 1]


async def test_games_keep_what_a_replay_needs_and_a_new_brain_exports_what_it_has(make_app, data_dir, documents):
    """One app session from an empty store, holding the promises:
    1. the game screen keeps what a replay needs (the balls drawn, the hats as they were), and the brain in
       play, the one stored and the sum of its games are the same brain;
    2. a brain deleted during a game (by another copy of the app) still keeps the game (without a lesson) and
       the brain, saved whole;
    3. a learning curve that is not there is said plainly in the export dialog, and nothing is written;
    4. export from the training screen: its curve (CSV) and the hats it shows (JSON)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. a game keeps what a replay needs
        game = await start_game(pilot, heap=10, opponent="learning")
        await play_human_turns(pilot, game)
        drawn = [(m.before, m.move) for m in game.game.state.history if m.player == 1 and m.before > 1]  # 1: forced
        store = app.session.store
        kept = store.recent_games(limit=1)[0]
        assert kept.learning and kept.learning[0].drawn == tuple(drawn)
        assert len(kept.learning[0].hats) == 10
        # the brain in play, the one stored and the sum of its games are the same brain
        assert store.load_brain("default") == app.session.brain == store.rebuild_brain("default")
        await pilot.press("escape")

        # 2. the brain deleted during the next game
        game = await start_game(pilot, heap=10, opponent="learning")
        store.delete_brain("default")  # by another copy of the app, say, while this game goes on
        await play_human_turns(pilot, game)
        kept = store.recent_games(limit=5)
        assert len(kept) == 2 and kept[0].learning == ()  # the game is kept, without a lesson it could not give
        assert store.load_brain("default") == app.session.brain  # and the brain, saved whole as before
        await pilot.press("escape")

        # 3. no learning curve yet
        await pilot.press("f4")
        app.screen.query_one("#hats-table", DataTable).focus()
        await pilot.press("e")
        dialog = await export(pilot, what="curve", fmt="csv")
        assert app.screen is dialog
        assert "has no learning curve yet: train it first" in str(dialog.query_one("#export-error").render())
        assert os.listdir(documents) == []
        await pilot.click("#export-cancel")
        await pilot.press("escape")

        # 4. export from the training screen
        hats = Hats(100)
        hats.counts[6] = [1, 4, 1]
        app.session.training.points = [(1, 0.1, 0.0, 0.0), (1000, 0.9, 0.5, 0.6)]
        app.action_show_training()
        await pilot.pause()
        app.training = TrainingProgress(1000, 1000, 1.0, 0, hats.counts.copy(), 0.9, 0.55, finished=True)
        await pilot.pause()
        assert isinstance(app.screen, TrainingScreen)
        await pilot.press("e")
        await export(pilot, what="curve", fmt="csv")
        text, rows = read_back(documents / "curve-default.csv", "csv")
        assert rows[0] == ["games", "agreement", "win", "win_first", "win_second", "scope"]
        assert rows[2] == ["1000", "0.9", "0.55", "0.5", "0.6", ""]  # (no run here: its heaps are not known)
        assert app.clipboard == text
        await pilot.press("e")
        await export(pilot, what="hats", fmt="json")
        text, doc = read_back(documents / "hats-default.json", "json")
        assert doc["hats"][5]["balls"] == [1, 4, 1]  # the hats the screen shows
        assert app.clipboard == text
