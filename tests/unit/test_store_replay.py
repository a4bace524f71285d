"""What a replay needs is kept with each game (schema v3: the hats as they were), and a database of the
previous schema (v2) is migrated without loss: the games of each brain's current generation get their
hats worked out, older ones keep none (and say so), nothing else changes."""

from __future__ import annotations

import json
import sqlite3

from sticks_tui.learn.hats import Hats
from sticks_tui.store import DB_FILENAME, SCHEMA_VERSION, Store
from sticks_tui.store.connection import add_functions
from sticks_tui.store.migrations import migrate
from sticks_tui.store.names import name_key

T = "2025-01-01T00:00:00.000000+00:00"


def test_a_game_keeps_the_hats_as_they_were_before_it():
    store = Store.memory()
    brain = Hats(100)
    brain.counts[7] = [5, 1, 2]
    store.save_brain("default", brain)
    first = store.record_game(start=10, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 2, 1, 3, 1],
                              loser=0, brain="default", learning={1: ("default", [(7, 2), (4, 3)])})
    store.record_game(start=10, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 2, 2, 2, 1],
                      loser=0, brain="default", learning={1: ("default", [(7, 2), (3, 2)])})
    seat = store.game(first).learning[0]
    before = seat.hats_before()
    assert sorted(before) == list(range(1, 11))  # every hat of the game's heap
    assert before[7] == (5, 1, 2) and before[4] == (1, 1, 1) and before[1] == (1,) and before[2] == (1, 1)
    assert seat.drawn == ((7, 2), (4, 3)) and seat.changes == ((7, 2, 1, 2), (4, 3, 1, 2))
    second = store.recent_games(limit=1)[0].learning[0]
    assert second.hats_before()[7] == (5, 2, 2)  # after the first game's lesson, before its own
    assert store.load_brain("default").hat(7) == (5, 3, 2)


def v2_database(path):
    """A database of schema v2 (built by the v2 migrations), holding what v2 kept: games with the balls drawn
    and the changes, but not the hats."""
    conn = sqlite3.connect(path, isolation_level=None)
    add_functions(conn)
    migrate(conn, target=2)
    base = Hats(10)
    base.counts[7] = [5, 1, 2]
    now = base.copy()
    now.reinforce([(7, 2), (4, 3)], True)
    now.reinforce([(7, 2), (3, 2)], True)
    conn.execute(
        "INSERT INTO brains (name, key, size, max_take, start_balls, win_reward, loss_penalty, floor, counts, "
        "games_trained, created, updated, game, shape, uid, base_counts) "
        "VALUES ('default', 'default', 10, 3, 1, 1, 1, 'each', ?, 2, ?, ?, 'sticks', NULL, 'gen2', ?)",
        (json.dumps(now.as_lists()), T, T, json.dumps(base.as_lists())))
    games = [  # (moves, loser, opponent, brain, learning: (uid, drawn, won, changes) or None)
        ([3, 1], 1, "learning", "default", ("gen1", [[1, 1]], 0, [[1, 1, 3, 2]])),  # an older generation
        ([3, 2, 1, 3, 1], 0, "learning", "default", ("gen2", [[7, 2], [4, 3]], 1, [[7, 2, 1, 2], [4, 3, 1, 2]])),
        ([3, 2, 2, 2, 1], 0, "learning", "default", ("gen2", [[7, 2], [3, 2]], 1, [[7, 2, 2, 3], [3, 2, 1, 2]])),
        ([3, 1], 1, "learning", "default", None),  # kept by the app before it recorded the learning
        ([3, 1], 1, "friend", None, None),
    ]
    for gid, (moves, loser, opponent, brain, learning) in enumerate(games, start=1):
        conn.execute("INSERT INTO games (id, played_at, game, start, opponent, player1, player2, ai1, ai2, moves, "
                     "loser, brain, player1_key, player2_key, brain_key) VALUES (?, ?, 'sticks', ?, ?, 'Ann', ?, 0, ?, "
                     "?, ?, ?, 'ann', ?, ?)",
                     (gid, T, str(sum(moves)), opponent, "Bob" if brain is None else "Learning AI",
                      int(brain is not None), json.dumps(moves), loser, brain,
                      name_key("Bob" if brain is None else "Learning AI"), brain))
        if learning is not None:
            uid, drawn, won, changes = learning
            conn.execute("INSERT INTO game_learning (game_id, seat, brain, brain_key, brain_uid, won, drawn, changes) "
                         "VALUES (?, 1, 'default', 'default', ?, ?, ?, ?)",
                         (gid, uid, won, json.dumps(drawn), json.dumps(changes)))
    conn.close()
    return now


def test_a_v2_database_is_migrated_without_loss(tmp_path):
    path = tmp_path / DB_FILENAME
    brain = v2_database(path)
    before = sqlite3.connect(path)
    old_games = before.execute("SELECT * FROM games ORDER BY id").fetchall()
    old_learning = before.execute("SELECT game_id, seat, brain, brain_uid, won, drawn, changes FROM game_learning "
                                  "ORDER BY game_id").fetchall()
    before.close()
    with Store.open(tmp_path) as store:
        assert store.notices == []
        conn = store._conn
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,) == (11,)
        games = conn.execute("SELECT * FROM games ORDER BY id").fetchall()
        assert [g[: len(old_games[0])] for g in games] == old_games  # v7 adds draw and first: 0 and NULL
        assert {g[len(old_games[0]):] for g in games} == {(0, None, 0)}  # not a draw, no first seat kept, not resigned
        assert conn.execute("SELECT game_id, seat, brain, brain_uid, won, drawn, changes FROM game_learning "
                            "ORDER BY game_id").fetchall() == old_learning
        assert store.load_brain("default") == brain == store.rebuild_brain("default")
        # the current generation's games: the hats as they were, worked out from the base
        first, second = store.game(2).learning[0], store.game(3).learning[0]
        assert first.hats_before()[7] == (5, 1, 2) and first.hats_before()[4] == (1, 1, 1)
        assert second.hats_before()[7] == (5, 2, 2) and second.hats_before()[3] == (1, 1, 1)
        assert sorted(first.hats_before()) == list(range(1, 11))  # every hat of the heap
        # an older generation's game keeps what it had: balls drawn and changes, no hats
        old = store.game(1).learning[0]
        assert old.hats is None and old.hats_before() == {} and old.drawn == ((1, 1),)
        assert old.changes == ((1, 1, 3, 2),)
        assert store.game(4).learning == () and store.game(5).learning == ()
        # and the migrated database keeps the hats of a new game
        gid = store.record_game(start=4, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 1],
                                loser=1, brain="default", learning={1: ("default", [(1, 1)])})
        assert store.game(gid).learning[0].hats_before() == {1: (1,), 2: (1, 1), 3: (1, 2, 1), 4: (1, 1, 2)}


def test_a_brain_that_does_not_read_leaves_its_games_without_hats(tmp_path):
    path = tmp_path / DB_FILENAME
    v2_database(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE brains SET base_counts = '[[], [1]]'")  # damaged: 10 hats promised, 1 there
    conn.commit()
    conn.close()
    with Store.open(tmp_path) as store:
        assert store.game_count() == 5
        assert [store.game(g).learning[0].hats for g in (1, 2, 3)] == [None, None, None]
