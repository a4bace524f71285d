"""A database of schema version 1 (the previous release) is migrated to the current version
without losing a record, a game, a brain or a curve; names v1 kept apart but the new name rule
joins are kept, with " (2)" added."""

from __future__ import annotations

import json
import sqlite3

import pytest

from sticks_tui.learn.analysis import CurvePoint
from sticks_tui.learn.hats import Hats
from sticks_tui.store import DB_FILENAME, SCHEMA_VERSION, Store
from sticks_tui.store.migrations import V1

T = "2025-01-01T00:00:00.000000+00:00"


def v1_database(path):
    """A database built with the v1 DDL exactly, holding what v1 could hold."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)")
    for statement in V1:
        conn.execute(statement)
    conn.execute("INSERT INTO schema_version VALUES (1, ?)", (T,))
    for name, w, lo in [("Ann", 2, 1), ("Straße", 1, 0), ("STRASSE", 0, 1), ("Learning AI", 1, 2)]:
        conn.execute("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?)", (name, w, lo, int(name == "Learning AI"), T, T))
    games = [("Ann", "Learning AI", 1, "default"), ("Ann", "Learning AI", 1, "default"),
             ("Ann", "Learning AI", 0, "default"), ("Straße", "STRASSE", 1, None)]
    for p1, p2, loser, brain in games:
        conn.execute("INSERT INTO games (played_at, game, start, opponent, player1, player2, ai1, ai2, moves, "
                     "loser, brain) VALUES (?, 'sticks', '4', ?, ?, ?, 0, ?, '[3, 1]', ?, ?)",
                     (T, "learning" if brain else "friend", p1, p2, int(brain is not None), loser, brain))
    trained = Hats(10)
    trained.counts[10] = [7, 1, 3]
    for name, hats in [("default", trained), ("Émile", Hats(4)), ("émile", Hats(5))]:
        conn.execute("INSERT INTO brains VALUES (?, ?, 3, 1, 1, 1, 'each', ?, 9, ?, ?)",
                     (name, hats.size, json.dumps(hats.as_lists()), T, T))
    conn.execute("INSERT INTO training_curves VALUES ('default', ?, '[[1,0.5,0.25]]')", (T,))
    conn.execute("INSERT INTO training_curves VALUES ('émile', ?, '[[2,0.5,0.5]]')", (T,))
    conn.commit()
    conn.close()
    return trained


def test_a_v1_database_is_migrated_without_loss(tmp_path):
    trained = v1_database(tmp_path / DB_FILENAME)
    with Store.open(tmp_path) as store:
        assert store.notices == []
        versions = store._conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall()
        assert versions == [(v,) for v in range(1, SCHEMA_VERSION + 1)]
        board = {p.name: (p.wins, p.losses) for p in store.leaderboard()}
        assert board == {"Ann": (2, 1), "Straße": (1, 0), "STRASSE (2)": (0, 1), "Learning AI": (1, 2)}
        assert store.game_count() == 4
        friendly = store.recent_games("STRASSE (2)")
        assert len(friendly) == 1 and friendly[0].players == ("Straße", "STRASSE (2)")
        assert len(store.recent_games("strasse")) == 1  # the key finds the one who kept the name
        assert store.load_brain("default") == trained and store.brain_info("default").games_trained == 9
        assert store.brain_record("default") == (1, 2)
        assert {b.name for b in store.list_brains()} == {"default", "Émile", "émile (2)"}
        assert store.load_brain("ÉMILE") == Hats(4) and store.load_brain("émile (2)") == Hats(5)
        assert [(p.games, p.agreement) for p in store.last_training_curve("default")] == [(1, 0.5)]  # seats unknown in v1
        assert [(p.games, p.agreement) for p in store.last_training_curve("émile (2)")] == [(2, 0.5)]
        # and the migrated database works as a new one does
        got = store.record_game(game="sticks", start=4, opponent="learning", players=("Ann", "Learning AI"),
                                moves=[3, 1], loser=1, brain="default", learning={1: ("default", [(1, 1)])})
        assert got.brains[1] == store.load_brain("default") == store.rebuild_brain("default")


def test_a_failed_migration_leaves_the_v1_database_as_it_was(tmp_path, monkeypatch):
    v1_database(tmp_path / DB_FILENAME)
    from sticks_tui.store import migrations

    def broken(conn):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setitem(migrations.MIGRATIONS, 2, [*migrations.V2[:3], broken])
    before = sqlite3.connect(tmp_path / DB_FILENAME).execute("SELECT * FROM brains").fetchall()
    with pytest.raises(Exception, match="disk is full"):
        Store.open(tmp_path)
    conn = sqlite3.connect(tmp_path / DB_FILENAME)
    assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (1,)
    assert conn.execute("SELECT * FROM brains").fetchall() == before


def test_a_v4_database_gains_the_draw_reward_and_its_brains_keep_their_rule(tmp_path):
    """Version 5 adds brains.draw_reward: a v4 database's brains read back as they were (draw reward 0,
    the reward they learned by), and a brain with a draw reward is kept whole from then on."""
    from sticks_tui.learn.hats import HatRule
    from sticks_tui.store.migrations import migrate
    from sticks_tui.store.names import name_key

    trained = v1_database(tmp_path / DB_FILENAME)
    conn = sqlite3.connect(tmp_path / DB_FILENAME, isolation_level=None)
    conn.create_function("name_key", 1, lambda s: None if s is None else name_key(s), deterministic=True)
    migrate(conn, target=4)
    columns = [row[1] for row in conn.execute("PRAGMA table_info(brains)")]
    conn.close()
    assert "draw_reward" not in columns and "shape" in columns  # a v4 database
    with Store.open(tmp_path) as store:
        assert store._conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
        assert store.load_brain("default") == trained and store.load_brain("default").rule == HatRule()
        drawer = Hats(6, rule=HatRule(draw_reward=2))
        store.save_brain("drawer", drawer)
        assert store.load_brain("drawer") == drawer and store.brain_info("drawer").rule.draw_reward == 2


def test_a_new_database_has_the_schema_every_step_builds(tmp_path):
    """A new data folder's database is given its schema at once (`migrations.new_schema`: ~17 statements, not the
    ~70 steps that rebuild empty tables): table by table, index by index, column by column it is what every step of
    the migrations builds on an empty database, and it has every version's row. Then it works as one built so."""
    from sticks_tui.store.connection import add_functions
    from sticks_tui.store.migrations import migrate

    def schema(conn) -> list[tuple]:
        return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall(), key=repr)

    stepped = sqlite3.connect(tmp_path / "stepped.db", isolation_level=None)
    add_functions(stepped)
    migrate(stepped, target=SCHEMA_VERSION - 1)  # step by step to the last version but one, then its own steps
    migrate(stepped)
    Store.open(tmp_path / "new").close()
    new = sqlite3.connect(tmp_path / "new" / DB_FILENAME)
    assert schema(new) == schema(stepped) and len(schema(new)) > 15
    versions = "SELECT version FROM schema_version ORDER BY version"
    assert new.execute(versions).fetchall() == stepped.execute(versions).fetchall() == \
        [(v,) for v in range(1, SCHEMA_VERSION + 1)]
    with Store.open(tmp_path / "new") as store:
        store.save_brain("default", Hats(4), 3)
        got = store.record_game(game="sticks", start=4, opponent="learning", players=("Ann", "Learning AI"),
                                moves=[3, 1], loser=1, brain="default", learning={1: ("default", [(1, 1)])})
        assert got.brains[1] == store.load_brain("default") == store.rebuild_brain("default")
