"""Noughts and crosses in the store (issue 18 item 5): a registry entry like sticks and Nim, and MENACE's
matchboxes kept as a brain between runs (made once, its own rule kept, a copy's change merged onto
the boxes as stored, never written over, another game's or the other player's brain refused). Since
issue 31 in the one shape of every counts learner's brain; kept in the shape of before, they still load."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sticks_tui.engine import registry
from sticks_tui.learn import menace
from sticks_tui.store import SCHEMA_VERSION, Store, StoreError
from sticks_tui.store.records import replay


def test_noughts_is_a_registry_entry_whose_games_replay_through_the_engine():
    entry = registry.entry("noughts")
    assert registry.entry_of(menace.MenaceBrain().rules) is entry
    played = replay("noughts", ".........", [5, 2, 1, 3, 9], 1)  # X (seat 0) wins on the diagonal 1-5-9
    assert played.first == 0 and played.start == "........." and played.moves == [5, 2, 1, 3, 9]
    with pytest.raises(ValueError, match="Square 5 .centre. is taken by X"):
        replay("noughts", ".........", [5, 5], 1)


def train(brain, games: int, seed: int) -> None:
    from sticks_tui.learn.trainer import TrainingConfig
    from sticks_tui.learn.trainer import train as run

    run(TrainingConfig(game=brain.rules, games=games, seed=seed, opponent="random", seats="first",
                       protocol="classic", curve=False, engine="reference"), brain)


def test_menace_boxes_are_kept_between_runs_with_their_own_rule(tmp_path):
    rule = menace.MenaceRule((8, 3, 2, 1), (3, 1, -1), "refill")
    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain("noughts MENACE", game="noughts", rule=rule, seat=0)
        assert brain == menace.MenaceBrain(rule) and brain.counts[0].max() == 8
        base = brain.counts.copy()
        train(brain, 200, seed=3)
        store.save_brain("noughts MENACE", brain, games_trained=200, base=base)
        kept = brain.counts.copy()
    with Store.open(tmp_path) as store:  # the next run: the boxes as they were, by their own rule
        again = store.load_or_create_brain("noughts MENACE", game="noughts", seat=0)  # no rule asked: the stored one
        assert again.rule == rule and np.array_equal(again.counts, kept)
        assert store.brain_info("noughts MENACE").games_trained == 200
        assert store.brain_info("noughts MENACE").game == "noughts"
        from sticks_tui.commands.brain import rule_words

        info = store.brain_info("noughts MENACE")  # its whole rule, not the hat-rule columns' part of it
        assert info.rule == rule and info.seat == 0 and rule_words(info) == "+3/+1/-1 refill"


def test_a_copys_change_is_merged_onto_the_boxes_as_stored(tmp_path):
    with Store.open(tmp_path) as store:
        a = store.load_or_create_brain("m", game="noughts", seat=0)
        b = a.copy()
        base_a, base_b = a.counts.copy(), b.counts.copy()
        train(a, 50, seed=1)
        train(b, 50, seed=2)
        store.save_brain("m", a, base=base_a)
        stored = store.save_brain("m", b, base=base_b)  # b never writes its counts over a's lessons
        expected = np.where(a.legal_mask, np.clip(a.counts + (b.counts - base_b), 0, menace.MAX_BEADS), 0)
        assert (expected[a.legal_mask] == 0).any() or True  # a box a copy emptied stays empty: no floor
        assert np.array_equal(stored.counts, expected)
        assert np.array_equal(store.load_brain("m").counts, expected)


def test_other_games_and_the_other_players_brains_are_refused_and_left_as_they_are(tmp_path):
    with Store.open(tmp_path) as store:
        store.load_or_create_brain("sticks one", 20)
        with pytest.raises(StoreError, match="is a brain for sticks, not for noughts"):
            store.load_or_create_brain("sticks one", game="noughts")
        o = store.load_or_create_brain("menace o", game="noughts", seat=1)
        assert len(o.positions) == 289
        with pytest.raises(StoreError, match="keeps O's containers only, not keeps X's containers only"):
            store.load_or_create_brain("menace o", game="noughts", seat=0)
        assert store.load_brain("menace o").seat == 1


def test_damaged_boxes_are_never_saved_and_a_reset_gives_the_start_beads(tmp_path):
    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain("m", game="noughts", seat=0)
        base = brain.counts.copy()
        train(brain, 30, seed=5)
        store.save_brain("m", brain, base=base)
        bad = brain.copy()
        bad.counts[0, 1] = -5  # never fewer than no beads
        with pytest.raises(StoreError, match="damaged"):
            store.save_brain("m", bad, base=brain.counts.copy())
        assert np.array_equal(store.load_brain("m").counts, brain.counts)
        store.reset_brain("m")
        assert np.array_equal(store.load_brain("m").counts, brain.fresh().counts)  # its own start beads


DRAW_MOVES = [5, 1, 9, 3, 2, 8, 7, 4, 6]  # X centre, ... a full board with no line


def test_a_draw_is_kept_as_a_draw_on_the_leaderboard_and_in_each_record(tmp_path):
    from sticks_tui.store.exports import game_export, games_export

    with Store.open(tmp_path) as store:
        gid = store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                                moves=DRAW_MOVES, loser=None, first=1, ai_seats=[1], brain="noughts MENACE")
        store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                          moves=[5, 2, 1, 3, 9], loser=0, first=1, ai_seats=[1], brain="noughts MENACE")
        ann, ai = store.player("Ann"), store.player("MENACE")
        assert (ann.wins, ann.draws, ann.losses, ann.rating, ann.games) == (0, 1, 1, -1, 2)
        assert (ai.wins, ai.draws, ai.losses, ai.rating) == (1, 1, 0, 1)
        assert store.head_to_head("Ann", "MENACE", game="noughts") == (0, 1, 1)  # and the draw, counted apart
        assert store.brain_record("noughts MENACE") == (1, 0)
        game = store.game(gid)
        assert game.drawn and game.loser is None and game.winner_name is None and game.first == 1
        assert game.result_words == "a draw" and game.moves == tuple(DRAW_MOVES)
        doc = json.loads(games_export([game], "json"))["games"][0]
        assert (doc["first"], doc["winner"], doc["loser"]) == ("MENACE", None, None)
        moves = json.loads(game_export(game, "json"))["moves"]
        assert moves[0] == {"move": 1, "player": "MENACE", "pile": None, "took": 5, "left": "....X...."}
        assert moves[-1]["left"] == "OXOOXXXOX" and moves[-1]["player"] == "MENACE"


@pytest.mark.parametrize("loser, first, message", [
    (0, 1, "The game is a draw: nobody lost, not seat 0."),
    (None, None, "A drawn game needs the seat that moved first"),
])
def test_a_draw_given_a_loser_or_no_first_seat_is_refused_and_nothing_kept(tmp_path, loser, first, message):
    with Store.open(tmp_path) as store:
        with pytest.raises(ValueError, match=message):
            store.record_game(game="noughts", start=".........", opponent="friend", players=("Ann", "Bob"),
                              moves=DRAW_MOVES, loser=loser, first=first)
        with pytest.raises(ValueError, match="The game was won, not drawn"):
            store.record_game(game="noughts", start=".........", opponent="friend", players=("Ann", "Bob"),
                              moves=[5, 2, 1, 3, 9], loser=None, first=0)
        with pytest.raises(ValueError, match="Seat 1 cannot have moved first"):
            store.record_game(game="noughts", start=".........", opponent="friend", players=("Ann", "Bob"),
                              moves=[5, 2, 1, 3, 9], loser=1, first=1)
        assert store.game_count() == 0 and store.player("Ann") is None


def test_a_menace_brain_file_exports_and_imports_as_it_was_and_another_games_file_is_refused(tmp_path, capsys):
    from sticks_tui.cli import main

    with Store.open(tmp_path / "a") as store:
        brain = store.load_or_create_brain("noughts MENACE", game="noughts", seat=0,
                                           rule=menace.MenaceRule((8, 3, 2, 1), (3, 1, -1), "refill"))
        base = brain.counts.copy()
        train(brain, 100, seed=9)
        store.save_brain("noughts MENACE", brain, games_trained=100, base=base)
        store.export_brain("noughts MENACE", tmp_path / "menace.json")
        store.load_or_create_brain("sticks one", 20)
        store.export_brain("sticks one", tmp_path / "sticks.json")
    text = (tmp_path / "menace.json").read_text()
    assert '"game": "noughts"' in text and '"learner": "hats"' in text and '"version": 3' in text
    assert '{"position": ".........", "counts": [' in text
    with Store.open(tmp_path / "b") as store:
        assert store.import_brain(tmp_path / "menace.json", game="noughts") == "noughts MENACE"
        kept = store.load_brain("noughts MENACE")
        assert kept == brain and kept.rule.empty == "refill"
        assert store.brain_info("noughts MENACE").games_trained == 100
        with pytest.raises(StoreError, match="as a MENACE brain: it holds a sticks brain. Nothing was changed"):
            store.import_brain(tmp_path / "sticks.json", "other", game="noughts")
        store.load_or_create_brain("sticks two", 20)
        with pytest.raises(StoreError, match="is a sticks brain, and this is a MENACE brain"):
            store.import_brain(tmp_path / "menace.json", "sticks two", replace=True)
        assert store.brain_info("other") is None and store.brain_info("sticks two").game == "sticks"
    doc = json.loads(text)
    doc["hats"][0]["counts"].append(5)  # the empty board's box counts 3 squares (corner, edge, centre)
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    old = old_file(brain)
    old["boxes"][0]["counts"][3] = 5  # a file of before: square 4 of the empty board repeats square 2
    (tmp_path / "old-bad.json").write_text(json.dumps(old))
    for bad, said in (("bad.json", "must hold 3 counts"),
                      ("old-bad.json", "box 1 (.........), square 4: it repeats another square by a symmetry")):
        # the command through cli.main, in-process (what the real one runs)
        code = main(["--data-dir", str(tmp_path / "c"), "brain", "import", str(tmp_path / bad), "--game", "noughts"])
        err = capsys.readouterr().err
        assert code not in (0, 70) and "Traceback" not in err
        assert said in err


def test_a_game_teaches_menace_in_its_own_transaction_draws_too_and_the_boxes_are_the_sum_of_their_games(tmp_path):
    with Store.open(tmp_path) as store:
        brain = menace.MenaceBrain.of(store.load_or_create_brain("noughts MENACE", game="noughts", seat=0))
        start = brain.counts.copy()
        # MENACE (X, seat 1) draws beads on every board with two or more squares empty; the last is forced
        drawn = [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2), ("OXO.X..OX", 7)]
        gid = store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                                moves=DRAW_MOVES, loser=None, first=1, ai_seats=[1], brain="noughts MENACE",
                                learning={1: ("noughts MENACE", drawn)})
        kept = store.load_brain("noughts MENACE")
        # the store's MENACE starts with the app's beads, 12, 3, 2, 1 (issue 33)
        assert [(c.hat, c.ball, c.before, c.after) for c in gid.changes[1]] == [
            (".........", 5, 12, 13), ("O...X....", 9, 3, 4), ("O.O.X...X", 2, 2, 3), ("OXO.X..OX", 7, 1, 2)]
        assert int((kept.counts - start).sum()) == 4 and gid.brains[1] == kept  # +1 a bead for a draw
        (seat,) = store.game(gid).learning
        assert seat.outcome == 0 and not seat.won
        assert seat.hats_before()["O...X...."] == brain.hat("O...X....")  # in the order of the board's moves
        with pytest.raises(ValueError, match="are not the moves it played"):  # a bead for a move it did not make
            store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                              moves=DRAW_MOVES, loser=None, first=1, ai_seats=[1],
                              learning={1: ("noughts MENACE", [*drawn[:3], ("OXO.X..OX", 4)])})
        assert store.load_brain("noughts MENACE") == kept and store.game_count() == 1
        # a bead said to be drawn for a forced move (one square left) teaches nothing: MENACE has no box there
        again = store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                                  moves=DRAW_MOVES, loser=None, first=1, ai_seats=[1], brain="noughts MENACE",
                                  learning={1: ("noughts MENACE", [*drawn, ("OXOOX.XOX", 6)])})
        assert len(again.changes[1]) == 4 and store.game(again).learning[0].drawn == tuple(drawn)
        assert store.rebuild_brain("noughts MENACE") == store.load_brain("noughts MENACE")


def test_a_hats_table_of_menaces_boxes_is_refused_with_where_its_boxes_are_written(tmp_path):
    from sticks_tui.store.exports import build_export

    with Store.open(tmp_path) as store:
        store.load_or_create_brain("noughts MENACE", game="noughts", seat=0)
        with pytest.raises(StoreError, match="is MENACE's matchboxes, not hats: `sticks-tui brain export"):
            build_export(store, "hats", "csv", brain="noughts MENACE")


def test_a_v6_database_gains_draws_and_keeps_its_games_and_players(tmp_path):
    import sqlite3

    from sticks_tui.store import DB_FILENAME
    from sticks_tui.store import connection as store_connection
    from sticks_tui.store.migrations import migrate

    when = "2025-01-01T00:00:00.000000+00:00"
    conn = sqlite3.connect(tmp_path / DB_FILENAME, isolation_level=None)
    store_connection.add_functions(conn)
    migrate(conn, target=6)
    conn.execute("INSERT INTO players (name, key, wins, losses, is_ai, first_played, last_played) "
                 "VALUES ('Ann', 'ann', 0, 1, 0, ?, ?), ('Bob', 'bob', 1, 0, 0, ?, ?)", (when,) * 4)
    conn.execute("INSERT INTO games (played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, brain, "
                 "player1_key, player2_key) VALUES (?, 'sticks', '4', 'friend', 'Ann', 'Bob', 0, 0, '[3, 1]', 0, NULL, "
                 "'ann', 'bob')", (when,))
    conn.close()
    with Store.open(tmp_path) as store:
        assert store.notices == [] and store._conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        ann = store.player("Ann")
        assert (ann.wins, ann.draws, ann.losses) == (0, 0, 1)
        (game,) = store.recent_games()
        assert game.loser == 0 and not game.drawn and game.starter is None and game.first == 1  # Ann took the last
        store.record_game(game="noughts", start=".........", opponent="friend", players=("Ann", "Bob"),
                          moves=DRAW_MOVES, loser=None, first=0)
        assert store.player("Ann").draws == 1


def test_a_game_menace_resigns_is_kept_as_its_loss_with_its_lesson(tmp_path):
    """MENACE (X, seat 1) resigns at its third move (its box for that board is empty): the moves stop
    before the board is finished; the game is kept as Ann's win, MENACE's beads drawn before lose one
    each, and the records, the leaderboard and the exports say it was a resignation."""
    from sticks_tui.store.exports import game_export, games_export

    with Store.open(tmp_path) as store:
        brain = menace.MenaceBrain.of(store.load_or_create_brain("noughts MENACE", game="noughts", seat=0))
        drawn = [(".........", 5), ("O...X....", 9)]
        gid = store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                                moves=[5, 1, 9, 3], loser=1, first=1, ai_seats=[1], brain="noughts MENACE",
                                learning={1: ("noughts MENACE", drawn)}, resigned=True)
        game = store.game(gid)
        assert game.resigned and game.winner_name == "Ann" and game.first == 1 and game.moves == (5, 1, 9, 3)
        assert (store.player("Ann").wins, store.player("MENACE").losses) == (1, 1)
        assert store.brain_record("noughts MENACE") == (0, 1)
        assert [(c.hat, c.ball, c.before, c.after) for c in gid.changes[1]] == [(".........", 5, 12, 11),
                                                                                ("O...X....", 9, 3, 2)]
        assert store.load_brain("noughts MENACE").hat(".........") != brain.hat(".........")
        doc = json.loads(games_export([game], "json"))["games"][0]
        assert (doc["winner"], doc["loser"], doc["resigned"]) == ("Ann", "MENACE", True)
        assert games_export([game], "csv").splitlines()[1].endswith(",yes")
        assert json.loads(game_export(game, "json"))["moves"][-1]["left"] == "O.O.X...X"
        assert store.rebuild_brain("noughts MENACE") == store.load_brain("noughts MENACE")
        # a resignation is at the resigner's turn, and only before the game is over
        for moves, loser, message in [([5, 1, 9], 1, "cannot have resigned at its turn"),
                                      (DRAW_MOVES, 1, "A game that is over cannot end by a resignation")]:
            with pytest.raises(ValueError, match=message):
                store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                                  moves=moves, loser=loser, first=1, ai_seats=[1], resigned=True)
        assert store.game_count() == 1


def old_file(brain) -> dict:
    """`brain` (MENACE's) as the brain file of before issue 31 wrote it: version 2, its player's marks, its
    rule as beads, incentives and empty, its boxes as boards with 9 beads by square."""
    view = menace.MenaceBrain.of(brain)
    rule = brain.rule
    return {"format": "sticks-tui-brain", "version": 2, "game": "noughts", "name": "noughts MENACE",
            "marks": view.marks, "rule": {"beads": list(rule.beads), "incentives": list(rule.incentives),
                                          "empty": rule.empty},
            "games_trained": 7, "exported_at": "2025-01-01T00:00:00+00:00",
            "boxes": [{"board": b, "counts": list(view.box_squares(i))} for i, b in enumerate(view.boxes.boards)]}


def old_database(path, x, o, nim) -> None:
    """A database as sticks-tui kept it before issue 31 (schema 9): MENACE's X and O brains with their marks and
    rule in `shape` and 9 beads by square of each box, a game that taught X with its boxes before the game by
    square, and a Nim brain that learned from a forced move (its last coin), as the store did then."""
    import sqlite3

    from sticks_tui.store import connection as store_connection
    from sticks_tui.store.migrations import migrate

    when = "2025-01-01T00:00:00.000000+00:00"
    conn = sqlite3.connect(path, isolation_level=None)
    store_connection.add_functions(conn)
    migrate(conn, target=9)
    for name, brain in (("noughts MENACE", x), ("noughts MENACE O", o)):
        view = menace.MenaceBrain.of(brain)
        rule = brain.rule
        shape = json.dumps({"marks": view.marks, "beads": list(rule.beads), "incentives": list(rule.incentives),
                            "empty": rule.empty}, separators=(",", ":"))
        boxes = json.dumps([list(view.box_squares(i)) for i in range(len(view.positions))])
        conn.execute("INSERT INTO brains (name, key, size, max_take, start_balls, win_reward, loss_penalty, floor, "
                     "draw_reward, counts, games_trained, created, updated, game, shape, uid, base_counts) VALUES "
                     "(?, ?, ?, 9, 4, 3, 1, 'nonempty', 1, ?, 5, ?, ?, 'noughts', ?, ?, ?)",
                     (name, name.casefold(), len(view.positions), boxes, when, when, shape, f"uid-{name[-1]}", boxes))
    nim_rows = json.dumps(nim.as_lists())
    conn.execute("INSERT INTO brains (name, key, size, max_take, start_balls, win_reward, loss_penalty, floor, "
                 "draw_reward, counts, games_trained, created, updated, game, shape, uid, base_counts) VALUES "
                 "('nim', 'nim', 26, 6, 1, 1, 1, 'each', 0, ?, 1, ?, ?, 'nim', '2,2,2', 'uid-nim', ?)",
                 (nim_rows, when, when, json.dumps(Nim0.as_lists())))
    conn.execute("INSERT INTO games (id, played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, "
                 "brain, player1_key, player2_key, brain_key, draw, first) VALUES (1, ?, 'noughts', '.........', "
                 "'menace', 'Ann', 'MENACE', 0, 1, '[5, 1, 9, 3, 2, 8, 7, 4, 6]', 0, 'noughts MENACE', 'ann', "
                 "'menace', 'noughts menace', 1, 1)", (when,))
    before = [[board, list(menace.MenaceBrain.of(x).square_beads(board))] for board, _ in X_DRAWN]
    conn.execute("INSERT INTO game_learning (game_id, seat, brain, brain_key, brain_uid, won, drawn, changes, hats, "
                 "outcome) VALUES (1, 1, 'noughts MENACE', 'noughts menace', 'uid-X', 0, ?, '[]', ?, 0)",
                 (json.dumps([list(d) for d in X_DRAWN]), json.dumps(before)))
    conn.execute("INSERT INTO games (id, played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, "
                 "brain, player1_key, player2_key, brain_key) VALUES (2, ?, 'nim', '1,0,0', 'learning', 'Ann', "
                 "'Nim AI', 0, 1, '[\"1:1\"]', 1, 'nim', 'ann', 'nim ai', 'nim')", (when,))
    conn.execute("INSERT INTO game_learning (game_id, seat, brain, brain_key, brain_uid, won, drawn, changes) "
                 "VALUES (2, 0, 'nim', 'nim', 'uid-nim', 1, '[[[1, 0, 0], [0, 1]]]', '[[[1, 0, 0], [0, 1], 1, 2]]')")
    conn.close()


X_DRAWN = [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2), ("OXO.X..OX", 7)]
Nim0 = None


def test_menaces_boxes_kept_before_load_as_the_same_brains_and_a_forced_lesson_starts_a_generation(tmp_path):
    """Issue 31: a database of before (MENACE's boxes by square, their rule and player in the layout; a Nim
    brain taught at its last coin) opens as the same brains in the one shape, nothing lost: the same beads,
    rule and player, each brain still the sum of its generation's games, each lesson's boxes as they were."""
    global Nim0
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.hats import Hats
    from sticks_tui.store import DB_FILENAME

    rule = menace.MenaceRule((8, 3, 2, 1), (3, 1, -2), "refill")
    x, o = menace.MenaceBrain(rule), menace.MenaceBrain(rule, "O")
    train(x, 300, seed=1)
    o.counts[5, 0] = 0  # an O box with one square run out
    Nim0 = Hats(NimRules((2, 2, 2)))
    nim = Nim0.copy()
    nim.counts[nim.row((1, 0, 0)), 0] = 2  # its last coin, learned from as before
    old_database(tmp_path / DB_FILENAME, x, o, nim)
    with Store.open(tmp_path) as store:
        assert store.notices == [] and store._conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == \
            (SCHEMA_VERSION,)
        kept_x, kept_o = store.load_brain("noughts MENACE"), store.load_brain("noughts MENACE O")
        assert kept_x == x and kept_o == o  # beads, rule and player
        assert store.brain_info("noughts MENACE").rule == rule and store.brain_info("noughts MENACE O").seat == 1
        (lesson,) = store.game(1).learning
        assert lesson.hats_before() == {board: x.hat(board) for board, _ in X_DRAWN}
        assert store.load_brain("nim") == nim and store.rebuild_brain("nim") == nim  # a new generation
        assert store.load_or_create_brain("noughts MENACE", game="noughts", seat=0) == x
        assert store.load_or_create_brain("noughts MENACE O", game="noughts", seat=1) == o


def test_a_menace_brain_file_of_before_imports_as_the_same_brain(tmp_path):
    rule = menace.MenaceRule((4, 3, 2, 1), (3, 1, -1), "resign")
    brain = menace.MenaceBrain(rule, "O")
    train(menace.MenaceBrain(rule), 10, seed=2)
    brain.counts[3, :] = 0  # an empty box
    brain.counts[0, 0] = 9
    (tmp_path / "old.json").write_text(json.dumps(old_file(brain)))
    with Store.open(tmp_path) as store:
        assert store.import_brain(tmp_path / "old.json", game="noughts") == "noughts MENACE"
        assert store.load_brain("noughts MENACE") == brain and store.brain_info("noughts MENACE").games_trained == 7
def test_a_box_kept_empty_is_refilled_by_the_refill_rule_before_its_lesson(tmp_path):
    """Issue 30 item 5: MENACE learns by `empty = refill`, and its first box is kept empty. The game refills
    the box to draw square 5 and wins (+3): the store keeps the refilled box plus the lesson, [4, 4, 0, 0, 7,
    ...], as the learner has it (not [0, 0, 0, 0, 3, ...]), rebuilds it so from the games, and the replay shows
    the box as the game drew from it."""
    rule = menace.MenaceRule(incentives=(3, 1, -1), empty="refill")
    with Store.open(tmp_path) as store:
        emptied = store.load_or_create_brain("noughts MENACE", game="noughts", rule=rule, seat=0)
        emptied.counts[0] = 0
        store.save_brain("noughts MENACE", emptied, replace=True)
        drawn = [(".........", 5), ("O...X....", 4), ("OO.XX....", 6)]
        gid = store.record_game(game="noughts", start=".........", opponent="menace", players=("MENACE", "Ann"),
                                moves=[5, 1, 4, 2, 6], loser=1, first=0, ai_seats=[0], brain="noughts MENACE",
                                learning={0: ("noughts MENACE", drawn)})
        kept = store.load_brain("noughts MENACE")
        assert menace.MenaceBrain.of(kept).box_squares(0) == (4, 4, 0, 0, 7, 0, 0, 0, 0)
        assert store.rebuild_brain("noughts MENACE") == kept
        first = gid.changes[0][0]
        assert (first.hat, first.ball, first.before, first.after) == (".........", 5, 4, 7)
        (lesson,) = store.game(gid).learning
        assert lesson.hats_before()["........."] == (4, 4, 4)  # the box it drew from (squares 1, 2, 5)


def test_an_import_over_menaces_boxes_for_the_other_player_is_refused_and_changes_nothing(tmp_path, capsys,
                                                                                        monkeypatch):
    """Issue 30 item 6: `brain import O.json "noughts MENACE" --replace --game noughts` would put O's boxes
    where X's are, and the noughts screen could no longer load X's brain. Refused with the reason, both ways;
    a brain for the same player is still replaced."""
    from sticks_tui.cli import main

    monkeypatch.delenv("STICKS_TUI_DATA_DIR", raising=False)
    data = tmp_path / "data"
    with Store.open(data) as store:
        x = store.load_or_create_brain("noughts MENACE", game="noughts", seat=0)
        o = store.load_or_create_brain("noughts MENACE O", game="noughts", seat=1)
        train(x, 30, seed=1)
        store.save_brain("noughts MENACE", x, games_trained=30, replace=True)
        store.export_brain("noughts MENACE", tmp_path / "X.json")
        store.export_brain("noughts MENACE O", tmp_path / "O.json")
        before = store._conn.execute("SELECT name, counts, shape, uid FROM brains ORDER BY key").fetchall()
    capsys.readouterr()
    for file, over, stored, held in [("O.json", "noughts MENACE", "X", "O"), ("X.json", "noughts MENACE O", "O", "X")]:
        code = main(["--data-dir", str(data), "brain", "import", str(tmp_path / file), over, "--replace",
                     "--game", "noughts"])
        out, err = capsys.readouterr()
        assert code == 1 and out == ""
        assert err.strip() == (f"sticks-tui brain: The brain {over!r} keeps {stored}'s containers only, and this "
                               f"one keeps {held}'s containers only: a brain is only replaced by one for the same "
                               "player. Import it under another name. Nothing was changed.")
    with Store.open(data) as store:
        assert store._conn.execute("SELECT name, counts, shape, uid FROM brains ORDER BY key").fetchall() == before
        assert store.load_or_create_brain("noughts MENACE", game="noughts", seat=0) == x
        assert store.load_or_create_brain("noughts MENACE O", game="noughts", seat=1) == o
    assert main(["--data-dir", str(data), "brain", "import", str(tmp_path / "X.json"), "X copy", "--game",
                 "noughts"]) == 0  # under another name: kept
    assert main(["--data-dir", str(data), "brain", "import", str(tmp_path / "O.json"), "noughts MENACE O",
                 "--replace", "--game", "noughts"]) == 0  # O's over O's: replaced


@pytest.mark.parametrize("game", ["noughts", "hexapawn"])
def test_every_figure_of_a_training_curve_is_kept_for_a_game_with_draws_or_seats(tmp_path, game):
    """Issue 32 item 2, every curve kept in the store for every game: before, the store kept each point's games,
    agreement and chances to win against the perfect player, and dropped the figures of MENACE's and HER's
    curves (not losing against the perfect player, a drawn token's chance to be a winning move, the run's won /
    drawn / lost): after a restart their curve was a line of zeros."""
    import math

    from sticks_tui.learn.trainer import TrainingConfig
    from sticks_tui.learn.trainer import train as run

    entry = registry.entry(game)
    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain("taught", game=game, seat=0)
        start = brain.counts.copy()
        result = run(TrainingConfig(game=brain.rules, games=5, seed=4, opponent="random", seats="first",
                                    protocol="classic", engine="reference"), brain.copy())
        assert result.curve and all(p.results is not None and not math.isnan(p.draw_wins) for p in result.curve)
        assert game != "noughts" or not any(math.isnan(p.keep_first) for p in result.curve)  # MENACE's figure
        store.keep_training("taught", start, result)  # the one way the app and `train --brain` keep a run
    with Store.open(tmp_path) as store:  # the next start
        kept = store.last_training_curve("taught")
    assert entry.name == game and len(kept) == len(result.curve)
    for point, again in zip(result.curve, kept, strict=True):
        assert again.results == tuple(point.results) and again.games == point.games
        for figure in ("agreement", "win_first", "win_second", "keep_first", "keep_second", "draw_wins"):
            a, b = getattr(point, figure), getattr(again, figure)
            assert (math.isnan(a) and math.isnan(b)) or a == b, figure


def _bad_old(change) -> dict:
    doc = old_file(menace.MenaceBrain())
    change(doc)
    return doc


#: A MENACE file of before with one field wrong, and what its import says: the words of before, exactly, now that
#: noughts' own module reads its old boxes (`GameEntry.old_brain_file`, issue 31 item 5).
OLD_FILE_REFUSALS = [
    (lambda d: d.update(size=20), 'it says "game": "noughts" but also has \'size\', which only a sticks or Nim brain '
                                  'has; a MENACE brain file holds "marks" and "boxes".'),
    (lambda d: d.update(marks="Z"), '"marks" must be "X" or "O" (whose boxes these are), not \'Z\'.'),
    (lambda d: d["rule"].pop("empty"), '"rule" must be an object with beads (4 numbers), incentives (3 numbers) and '
                                       'empty ("resign" or "refill"), and nothing else.'),
    (lambda d: d["rule"].update(beads=4), "the rule's beads and incentives must be lists of whole numbers."),
    (lambda d: d["rule"].update(beads=[4, 3, 2]), "its rule is not valid: start beads are 4 whole numbers and "
                                                  "incentives 3 (win, draw, loss)."),
    (lambda d: d["rule"].update(empty="explode"), "its rule is not valid: "),
    (lambda d: d["boxes"].pop(), "\"boxes\" must hold MENACE's 304 boxes for X, not 303."),
    (lambda d: d["boxes"][2].update(extra=1), "box 3 must be an object with \"board\" and \"counts\", not "),
    (lambda d: d["boxes"][0].update(board="X........"), "box 1 must be the box for the board '.........', not "
                                                        "'X........'."),
    (lambda d: d["boxes"][0]["counts"].pop(), "box 1 (.........) must hold 9 counts, one per square, not "),
    (lambda d: d["boxes"][0]["counts"].__setitem__(0, -1), "box 1 (.........), square 1: a count is a whole number "
                                                           "from 0 to "),
    (lambda d: d["boxes"][0]["counts"].__setitem__(3, 5), "box 1 (.........), square 4: it repeats another square by "
                                                          "a symmetry of the board, so it holds no beads."),
]


@pytest.mark.parametrize(("change", "said"), OLD_FILE_REFUSALS)
def test_a_damaged_menace_file_of_before_is_refused_in_the_words_of_before(change, said):
    from sticks_tui.store.brainfile import decode

    with pytest.raises(StoreError) as refused:
        decode(json.dumps(_bad_old(change)).encode(), "old.json")
    assert str(refused.value).startswith(f"Cannot import old.json: {said}")
    assert str(refused.value).endswith(" Nothing was changed.")


def test_a_menace_file_of_before_reads_as_it_was_kept():
    from sticks_tui.store.brainfile import decode

    brain = menace.MenaceBrain(menace.MenaceRule((8, 3, 2, 1), (3, 1, -1), "refill"))
    brain.counts[0, :3] = [7, 0, 9]
    doc = old_file(brain)
    assert decode(json.dumps(doc).encode()).hats == brain
    doc["game"] = "sticks"  # the old form is noughts' own: another game's file with "marks" is not read as one
    with pytest.raises(StoreError, match="Cannot import the file: "):
        decode(json.dumps(doc).encode())
