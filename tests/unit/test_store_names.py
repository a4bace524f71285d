"""One name rule: names are told apart by their key (NFKC, then casefold) in every query; the name
is shown as typed. Before, Python compared with casefold() and SQLite with ASCII-only NOCASE."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from sticks_tui.learn.analysis import CurvePoint
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, StoreError, name_key
from sticks_tui.store.brainfile import encode

PAIRS = [("Straße", "STRASSE"), ("Émile", "émile"), ("Øre", "øre"), ("ΣΊΣΥΦΟΣ", "σίσυφος"), ("ｆｕｌｌ", "FULL")]


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path)
    yield s
    s.close()


@pytest.mark.parametrize("typed, other", PAIRS)
def test_the_key_joins_the_pair(typed, other):
    assert name_key(typed) == name_key(other)


@pytest.mark.parametrize("typed, other", PAIRS)
def test_brains_match_by_the_key_everywhere(store, tmp_path, typed, other):
    brain_file = tmp_path / "b.json"
    brain_file.write_text(encode("x", Hats(5), 3, "2025-01-01T00:00:00+00:00"))
    assert store.import_brain(brain_file, typed) == typed
    with pytest.raises(StoreError, match="already exists"):
        store.import_brain(brain_file, other)
    assert store.brain_info(other).name == typed  # found by the other spelling, shown as typed
    assert store.load_brain(other) == Hats(5)
    store.export_brain(other, tmp_path / "out.json")
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["name"] == typed
    with pytest.raises(StoreError, match="already exists"):
        store.copy_brain(typed, other)
    store.rename_brain(other, other)  # a change of spelling only
    assert [b.name for b in store.list_brains()] == [other]
    store.save_training_curve(typed, [(1, 0.5, 0.5, 0.5)])
    assert store.last_training_curve(other) == [CurvePoint(1, 0.5, 0.5, 0.5)]
    store.reset_brain(typed)
    store.delete_brain(typed)
    assert store.list_brains() == []


@pytest.mark.parametrize("typed, other", PAIRS)
def test_players_match_by_the_key(store, typed, other):
    store.record_game(game="sticks", start=4, opponent="friend", players=(typed, "Bob"), moves=[3, 1], loser=1)
    store.record_game(game="sticks", start=4, opponent="friend", players=(other, "Bob"), moves=[3, 1], loser=0)
    [me] = [p for p in store.leaderboard() if p.name != "Bob"]
    assert (me.name, me.wins, me.losses) == (typed, 1, 1)
    assert store.player(other).name == typed
    assert len(store.recent_games(other)) == 2
    with pytest.raises(StoreError, match="different names"):
        store.record_game(game="sticks", start=4, opponent="friend", players=(typed, other), moves=[3, 1], loser=0)


def test_a_brains_own_record_follows_the_key(store):
    store.save_brain("Straße", Hats(4))
    store.record_game(game="sticks", start=4, opponent="learning", players=("Ann", "AI"), moves=[3, 1], loser=1,
                      brain="STRASSE")
    assert store.brain_record("strasse") == (0, 1)


def test_the_database_itself_refuses_a_second_name_with_the_same_key(store):
    store.save_brain("Straße", Hats(4))
    with pytest.raises(sqlite3.IntegrityError):
        store._conn.execute("INSERT INTO brains (name, key, size, max_take, start_balls, win_reward, loss_penalty, "
                            "floor, counts, created, updated) VALUES ('STRASSE', 'strasse', 1, 1, 1, 1, 1, 'each', "
                            "'[[],[1]]', '', '')")


def test_two_imports_of_one_new_name_at_once_one_fails(tmp_path):
    brain_file = tmp_path / "b.json"
    brain_file.write_text(encode("x", Hats(5), 3, "2025-01-01T00:00:00+00:00"))
    Store.open(tmp_path).close()
    stores = [Store.open(tmp_path) for _ in range(2)]
    barrier = threading.Barrier(2)
    results = []

    def importer(s, name):
        barrier.wait()
        try:
            results.append(s.import_brain(brain_file, name))
        except StoreError as exc:
            results.append(exc)

    for _ in range(5):
        results.clear()
        for s in stores:
            s.delete_brain("Straße") if s is stores[0] and s.brain_info("Straße") else None
        threads = [threading.Thread(target=importer, args=(s, n)) for s, n in zip(stores, ("Straße", "STRASSE"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(isinstance(r, str) for r in results) == 1, results
        assert len(stores[0].list_brains()) == 1
    for s in stores:
        s.close()


def test_import_checks_and_writes_in_one_transaction(store, tmp_path):
    # Another copy imports the same name just before our write starts: we must not replace it.
    brain_file = tmp_path / "b.json"
    brain_file.write_text(encode("x", Hats(5), 3, "2025-01-01T00:00:00+00:00"))
    other = Store.open(tmp_path)
    fired = []

    def race(sql):
        if sql.startswith("BEGIN IMMEDIATE") and not fired:
            fired.append(sql)
            other.save_brain("STRASSE", Hats(7))

    store._conn.set_trace_callback(race)
    with pytest.raises(StoreError, match="already exists"):
        store.import_brain(brain_file, "Straße")
    store._conn.set_trace_callback(None)
    assert fired and store.load_brain("strasse") == Hats(7)
    assert [b.name for b in store.list_brains()] == ["STRASSE"]
    other.close()
