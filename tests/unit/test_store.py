"""The store: records, games, brains, and what happens when the environment misbehaves."""

from __future__ import annotations

import json
import sqlite3

import pytest

from sticks_tui.learn.analysis import CurvePoint
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.store import (
    DB_FILENAME,
    ENV_DATA_DIR,
    SCHEMA_VERSION,
    InvalidName,
    Store,
    StoreError,
    resolve_data_dir,
)


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path)
    yield s
    s.close()


def game(store, loser=1, players=("Ann", "Learning AI"), opponent="learning", brain="default", moves=(3, 3, 3, 1)):
    return store.record_game(game="sticks", start=str(sum(moves)), opponent=opponent, players=players,
                             moves=list(moves), loser=loser, brain=brain)


# -- where the database lives ---------------------------------------------------------------
def test_data_dir_argument_beats_environment_beats_platform_default(tmp_path, monkeypatch):
    import platformdirs

    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "platform"))
    monkeypatch.delenv(ENV_DATA_DIR, raising=False)
    assert resolve_data_dir(None) == tmp_path / "platform"
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path / "env"))
    assert resolve_data_dir(None) == tmp_path / "env"
    assert resolve_data_dir(tmp_path / "arg") == tmp_path / "arg"
    with Store.open() as s:
        assert s.path == tmp_path / "env" / DB_FILENAME
        assert s.persistent and s.notices == []


def test_schema_has_a_version_table_and_opening_twice_does_not_migrate_again(tmp_path):
    Store.open(tmp_path).close()
    Store.open(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DB_FILENAME)
    assert conn.execute("SELECT version FROM schema_version").fetchall() == [(v,) for v in range(1, SCHEMA_VERSION + 1)]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_database_from_a_newer_version_is_left_alone(tmp_path):
    Store.open(tmp_path).close()
    path = tmp_path / DB_FILENAME
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with Store.open(tmp_path, allow_memory=True) as s:
        assert not s.persistent
        assert "newer sticks-tui" in s.notices[0] and str(path) in s.notices[0]
    assert path.read_bytes() == before


# -- records ----------------------------------------------------------------------------------
def test_record_game_updates_both_players_and_the_leaderboard(store):
    game(store, loser=1)
    game(store, loser=1)
    game(store, loser=0)
    store.record_game(game="sticks", start="10", opponent="friend", players=("ann", "Bob"),
                      moves=[3, 3, 3, 1], loser=1)
    board = store.leaderboard()
    assert [(p.name, p.wins, p.losses, p.rating) for p in board] == [
        ("Ann", 3, 1, 2), ("Learning AI", 1, 2, -1), ("Bob", 0, 1, -1)]  # a tie goes to more wins
    assert board[0].last_played is not None and board[1].is_ai and not board[0].is_ai
    assert [p.name for p in store.leaderboard(include_ai=False)] == ["Ann", "Bob"]
    assert store.player("ANN").wins == 3  # names are matched without regard to case


def test_recent_games_newest_first_filtered_and_limited(store):
    first = game(store, loser=1)
    store.record_game(game="sticks", start=10, opponent="friend", players=("Cy", "Di"), moves=[3, 3, 3, 1], loser=1)
    last = game(store, loser=0, moves=(1, 1))
    games = store.recent_games()
    assert [g.id for g in games][0] == last and games[-1].id == first
    assert [g.id for g in store.recent_games(limit=1)] == [last]
    ann = store.recent_games("ann")
    assert [g.id for g in ann] == [last, first]
    g = ann[0]
    assert g.players == ("Ann", "Learning AI") and g.moves == (1, 1) and g.loser_name == "Ann"
    assert g.winner_name == "Learning AI" and g.ai_seats == (1,) and g.brain == "default" and g.start == "2"
    assert store.recent_games("Cy")[0].ai_seats == ()


def test_nim_games_are_recorded_with_pile_moves(store):
    gid = store.record_game(game="nim", start=(3, 4, 5), opponent="friend", players=("A", "B"),
                            moves=["1:3", (2, 4), "3:5"], loser=1)
    g = store.recent_games()[0]
    assert (g.id, g.game, g.start, g.moves) == (gid, "nim", "3,4,5", ("1:3", "2:4", "3:5"))
    with pytest.raises(ValueError, match="not there"):
        store.record_game(game="nim", start="3,4,5", opponent="friend", players=("A", "B"),
                          moves=["1:4", "2:4", "3:4"], loser=1)


@pytest.mark.parametrize("kwargs, message", [
    (dict(moves=[3, 3]), "do not take exactly"),
    (dict(moves=[0, 10]), "whole number of sticks"),
    (dict(loser=2), "seat 0 or seat 1"),
    (dict(game="chess"), "sticks, nim"),
    (dict(players=("Ann", "ann")), "different names"),
    (dict(players=("Ann", "x" * 41)), "at most 40"),
    (dict(brain="bad\nname"), "printable"),
])
def test_a_bad_game_is_refused_and_nothing_is_recorded(store, kwargs, message):
    args = dict(game="sticks", start="10", opponent="learning", players=("Ann", "AI"), moves=[3, 3, 3, 1],
                loser=1, brain="default")
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        store.record_game(**args)
    assert store.game_count() == 0 and store.leaderboard() == []


def test_brain_record_counts_the_ai_seat_and_restarts_when_the_brain_is_reset(store):
    store.save_brain("default", Hats(10))
    game(store, loser=1)  # AI lost
    game(store, loser=0)  # AI won
    game(store, loser=0)
    store.record_game(game="sticks", start="4", opponent="learning", players=("AI first", "Ann"),
                      moves=[3, 1], loser=1, brain="default", ai_seats=(0,))  # AI in seat 1 won
    assert store.brain_record("default") == (3, 1)
    assert store.brain_record("other") == (0, 0)
    store.reset_brain("default")
    assert store.brain_record("default") == (0, 0)
    game(store, loser=1)
    assert store.brain_record("default") == (0, 1)


def test_reset_records_and_reset_player(store):
    game(store)
    store.record_game(game="sticks", start="4", opponent="friend", players=("Bob", "Cy"), moves=[3, 1], loser=1)
    store.reset_player("bob")
    assert [p.name for p in store.leaderboard()] == ["Ann", "Cy", "Learning AI"]
    with pytest.raises(StoreError, match="no player called"):
        store.reset_player("bob")
    store.save_brain("default", Hats(5))
    store.reset_records()
    assert store.leaderboard() == [] and store.recent_games() == [] and store.brain_record("default") == (0, 0)
    assert store.load_brain("default") == Hats(5)  # brains survive a records reset


# -- brains -----------------------------------------------------------------------------------
def trained(size=12, value=7, rule=None):
    hats = Hats(size, 3, rule)
    hats.counts[1:, :] = value
    hats.counts[1, 1:] = 0
    hats.counts[2, 2] = 0
    return hats


def test_brains_save_load_list_and_games_trained_adds_up(store):
    assert store.load_brain("default") is None and store.list_brains() == []
    rule = HatRule(start_balls=2, win_reward=3, loss_penalty=1, floor="nonempty")
    hats = trained(rule=rule)
    store.save_brain("default", hats, games_trained=100)
    store.save_brain("default", hats, games_trained=50)
    loaded = store.load_brain("DEFAULT")
    assert loaded == hats and loaded.rule == rule and loaded is not hats
    [info] = store.list_brains()
    assert (info.name, info.size, info.max_take, info.rule, info.games_trained) == ("default", 12, 3, rule, 150)
    store.save_brain("default", Hats(3), games_trained=5, replace=True)
    assert store.brain_info("default").games_trained == 5 and store.load_brain("default") == Hats(3)


def test_copy_rename_reset_delete(store):
    store.save_brain("default", trained(), 10)
    store.save_training_curve("default", [(0, 0.25, 0.0, 0.0), (10, 0.5, 0.125, 0.125)])
    store.copy_brain("default", "trained 1M games")
    assert store.load_brain("trained 1M games") == trained()
    with pytest.raises(StoreError, match="already exists"):
        store.copy_brain("default", "Trained 1M games")
    with pytest.raises(StoreError, match="no brain called 'nope'"):
        store.copy_brain("nope", "x")
    game(store, loser=0)
    store.rename_brain("default", "main")
    assert store.load_brain("default") is None and store.load_brain("main") == trained()
    assert store.brain_record("main") == (1, 0) and store.last_training_curve("main")[1] == CurvePoint(10, 0.5, 0.125, 0.125)
    with pytest.raises(StoreError, match="already exists"):
        store.rename_brain("main", "trained 1M games")
    store.reset_brain("main")
    fresh = store.load_brain("main")
    assert fresh == Hats(12) and store.brain_info("main").games_trained == 0
    assert store.last_training_curve("main") == []
    store.delete_brain("main")
    assert [b.name for b in store.list_brains()] == ["trained 1M games"]
    with pytest.raises(StoreError, match="no brain"):
        store.delete_brain("main")


@pytest.mark.parametrize("name, message", [
    ("", "at least one character"), ("   ", "at least one character"), ("x" * 41, "at most 40"),
    ("tab\there", "printable"), ("bell\x07", "printable"), (42, "is text"),
])
def test_brain_names_are_checked_with_a_clear_message(store, name, message):
    with pytest.raises(InvalidName, match=message):
        store.save_brain(name, Hats(3))
    assert store.list_brains() == []


def test_forty_printable_characters_make_a_good_name(store):
    name = "Ünïcode brain: 1M games! " + "x" * 15
    assert len(name) == 40
    store.save_brain(name, Hats(3))
    assert store.list_brains()[0].name == name


def test_training_curve_round_trips_and_the_last_run_replaces_the_previous(store):
    assert store.last_training_curve("default") == []
    store.save_training_curve("default", [(0, 0.1, 0.2)])
    curve = [(0, 0.0, 0.0, 0.0), (256, 0.5, 0.25, 0.5), (100_000, 1.0, 0.875, 0.75)]
    store.save_training_curve("default", curve)
    assert store.last_training_curve("default") == [CurvePoint(*p) for p in curve]


def test_load_or_create_brain_creates_saves_and_grows(store):
    hats = store.load_or_create_brain("default", 10)
    assert hats == Hats(10) and store.load_brain("default") == Hats(10)
    hats.counts[7, 1] = 9
    store.save_brain("default", hats, 1)
    bigger = store.load_or_create_brain("default", 20)
    assert bigger.size == 20 and bigger.counts[7, 1] == 9 and bigger.hat(20) == (1, 1, 1)
    store.save_brain("nim-ish", Hats(5, max_take=5))
    with pytest.raises(StoreError, match="at most 5 sticks"):
        store.load_or_create_brain("nim-ish", 5, max_take=3)


def test_a_stored_count_that_is_not_a_whole_number_in_range_is_refused_as_damage(store):
    """Each hat's counts as stored: whole numbers 0..MAX_COUNT only, no count past a hat's moves (store/brains.py
    `_decode` checks all the counts at once with C loops, then row by row to say which hat is wrong, not cell by
    cell in Python: the same refusals as before, each held here)."""
    from sticks_tui.learn.hats import MAX_COUNT

    store.save_brain("default", Hats(10), 5)

    def load_with(rows: dict[int, str]):
        hats = ["[]", "[1]", "[1,1]"] + ["[1,1,1]"] * 8  # heaps 0-10: no move from 0, one from 1, two from 2
        for heap, text in rows.items():
            hats[heap] = text
        with store._write("test") as conn:
            conn.execute("UPDATE brains SET counts = ? WHERE name = 'default'", ("[" + ",".join(hats) + "]",))
        return store.load_brain("default")

    for bad in ("true", "false", "1.5", "1.0", "-1", str(MAX_COUNT + 1), '"3"', "null", "[1]", "{}"):
        with pytest.raises(StoreError, match="damaged"):
            load_with({5: f"[1,{bad},1]"})
    for rows in ({1: "[1,0,2]"}, {2: "[1,1,1]"}, {5: "[1,1,1,1]"}, {5: "[1,1]"}, {0: "[1]"}, {7: "3"}):
        with pytest.raises(StoreError, match="damaged"):
            load_with(rows)
    loaded = load_with({0: "[0,0,0]", 1: "[4,0,0]", 5: f"[0,{MAX_COUNT},7]"})  # the edges, and zeros past a hat's moves
    assert loaded.counts[1].tolist() == [4, 0, 0] and loaded.counts[5].tolist() == [0, MAX_COUNT, 7]


# -- what the environment can do to us -------------------------------------------------------
def test_a_corrupt_database_is_moved_aside_kept_and_replaced(tmp_path):
    path = tmp_path / DB_FILENAME
    junk = bytes(range(256)) * 64
    path.write_bytes(junk)
    with Store.open(tmp_path) as s:
        assert s.persistent
        [notice] = s.notices
        moved = [p for p in tmp_path.iterdir() if p.name.startswith(DB_FILENAME + ".damaged-")]
        assert len(moved) == 1 and moved[0].read_bytes() == junk  # kept, byte for byte
        assert str(moved[0]) in notice and str(path) in notice
        game(s)
    with Store.open(tmp_path) as s:
        assert s.notices == [] and s.game_count() == 1


def test_a_database_damaged_inside_is_moved_aside(tmp_path):
    with Store.open(tmp_path) as s:
        for _ in range(50):
            s.save_brain(f"b{_}", Hats(200))
    path = tmp_path / DB_FILENAME
    data = bytearray(path.read_bytes())
    assert len(data) > 3 * 4096
    data[4096:3 * 4096] = b"\xff\x13" * 4096  # smash the pages after the header
    path.write_bytes(bytes(data))
    with Store.open(tmp_path) as s:
        assert s.persistent and "damaged" in s.notices[0]
        assert s.list_brains() == []
    assert any(p.name.startswith(DB_FILENAME + ".damaged-") for p in tmp_path.iterdir())


@pytest.mark.parametrize("make_unusable", ["data dir is a file", "data dir under a file", "db is a directory"])
def test_an_unusable_data_dir_falls_back_to_memory_with_a_notice(tmp_path, make_unusable):
    # Tests run as root, so chmod would not stop writes: make the path itself unusable instead.
    if make_unusable == "data dir is a file":
        target = tmp_path / "data"
        target.write_text("not a directory")
    elif make_unusable == "data dir under a file":
        (tmp_path / "file").write_text("x")
        target = tmp_path / "file" / "data"
    else:
        target = tmp_path / "data"
        (target / DB_FILENAME).mkdir(parents=True)
    with Store.open(target, allow_memory=True) as s:
        assert not s.persistent
        [notice] = s.notices
        assert str(target) in notice and "only until you quit" in notice
        game(s)  # the game still plays, and is remembered while the program runs
        s.save_brain("default", Hats(4))
        assert s.game_count() == 1 and s.load_brain("default") == Hats(4)


def test_a_full_disk_gives_store_error_and_keeps_the_old_data(store):
    store.save_brain("default", trained(), 10)
    game(store)
    conn = store._conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the database may not grow: the "disk" is full
    with pytest.raises(StoreError) as info:
        store.save_brain("big", Hats(1000), 5)
    assert "disk is full" in str(info.value) and str(store.path) in str(info.value)
    with pytest.raises(StoreError, match="disk is full.*this result is not kept"):
        for _ in range(200):
            game(store)
    conn.execute("PRAGMA max_page_count = 1073741823")
    assert store.load_brain("big") is None
    assert store.load_brain("default") == trained() and store.brain_info("default").games_trained == 10
    ann = store.player("Ann")
    assert ann.wins == store.game_count() and ann.wins + ann.losses == store.game_count()


def test_a_read_only_database_gives_store_error_and_changes_nothing(store):
    store.save_brain("default", trained(), 10)
    store._conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="read-only"):
        store.save_brain("default", Hats(12), 1)
    with pytest.raises(StoreError, match="read-only"):
        game(store)
    store._conn.execute("PRAGMA query_only = OFF")
    assert store.load_brain("default") == trained() and store.game_count() == 0


def test_a_failure_half_way_through_a_write_keeps_nothing_of_it(store, monkeypatch):
    game(store)
    original = store._conn

    class Failing:
        """Fails the second player update, after the game row went in."""

        def __init__(self):
            self.players = 0

        def execute(self, sql, *args):
            if sql.startswith("INSERT INTO players"):
                self.players += 1
                if self.players == 2:
                    raise sqlite3.OperationalError("database or disk is full")
            return original.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(original, name)

    monkeypatch.setattr(store, "_conn", Failing())
    with pytest.raises(StoreError, match="disk is full"):
        game(store)
    monkeypatch.setattr(store, "_conn", original)
    assert store.game_count() == 1
    assert (store.player("Ann").wins, store.player("Learning AI").losses) == (1, 1)


def test_closed_store_says_so(tmp_path):
    s = Store.open(tmp_path)
    s.close()
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.leaderboard()


def test_counts_stored_as_plain_json_in_the_database(store):
    store.save_brain("default", trained(5), 1)
    counts = store._conn.execute("SELECT counts FROM brains").fetchone()[0]
    assert json.loads(counts) == trained(5).as_lists()


def test_head_to_head_counts_the_games_between_two_players_in_either_seat(tmp_path):
    from sticks_tui.store import Store

    with Store.open(tmp_path / "data") as store:
        store.record_game(start=10, opponent="friend", players=("Ann", "Bob"), moves=[3, 3, 3, 1], loser=1)
        store.record_game(start=10, opponent="friend", players=("bob", "ANN"), moves=[3, 3, 2, 1, 1], loser=0)
        store.record_game(start=10, opponent="friend", players=("Ann", "Cy"), moves=[3, 3, 3, 1], loser=0)
        assert store.head_to_head("Ann", "Bob") == (2, 0, 0)
        assert store.head_to_head("Bob", "Ann") == (0, 2, 0)
        assert store.head_to_head("Ann", "Cy") == (0, 1, 0) and store.head_to_head("Bob", "Cy") == (0, 0, 0)
