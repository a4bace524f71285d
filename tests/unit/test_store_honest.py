"""Writes are honest: a command never writes to a memory store; only the app may, and it knows why.
A brain the game cannot use is never replaced. The data is private whatever the umask."""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest

from sticks_tui.cli import main
from sticks_tui.learn.hats import Hats
from sticks_tui.store import DB_FILENAME, SCHEMA_VERSION, Store, StoreError
from sticks_tui.store import connection
from sticks_tui.store.brainfile import encode


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def newer(tmp_path):
    Store.open(tmp_path).close()
    conn = sqlite3.connect(tmp_path / DB_FILENAME)
    conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    return (tmp_path / DB_FILENAME).read_bytes()


def brain_file(tmp_path):
    path = tmp_path / "brain.json"
    path.write_text(encode("x", Hats(5), 3, "2025-01-01T00:00:00+00:00"))
    return path


# -- Store.open: only the app goes on in memory ---------------------------------------------
def test_open_refuses_a_newer_database_unless_memory_is_allowed(tmp_path):
    before = newer(tmp_path)
    with pytest.raises(StoreError, match="newer sticks-tui") as info:
        Store.open(tmp_path)
    assert str(tmp_path / DB_FILENAME) in str(info.value)
    with Store.open(tmp_path, allow_memory=True) as s:
        assert s.in_memory and not s.persistent and "newer sticks-tui" in s.memory_reason
    with Store.open(tmp_path / "fresh") as s:
        assert not s.in_memory and s.memory_reason is None
    assert (tmp_path / DB_FILENAME).read_bytes() == before


def test_brain_import_into_a_newer_database_fails_and_says_why(tmp_path, capsys):
    before = newer(tmp_path / "data")
    code, out, err = cli(capsys, "--data-dir", str(tmp_path / "data"), "brain", "import",
                         str(brain_file(tmp_path)), "kept")
    assert code == 1 and "Imported" not in out and "newer sticks-tui" in err
    assert (tmp_path / "data" / DB_FILENAME).read_bytes() == before


def test_records_of_an_unusable_database_say_what_and_where(tmp_path, capsys):
    newer(tmp_path / "data")
    code, out, err = cli(capsys, "--data-dir", str(tmp_path / "data"), "records")
    assert code == 1 and "No games recorded yet" not in out
    assert "newer sticks-tui" in err and str(tmp_path / "data" / DB_FILENAME) in err


def test_a_locked_database_fails_an_import_with_words_that_fit_an_import(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(connection, "BUSY_TIMEOUT_MS", 200)
    Store.open(tmp_path / "data").close()
    holder = sqlite3.connect(tmp_path / "data" / DB_FILENAME, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        code, out, err = cli(capsys, "--data-dir", str(tmp_path / "data"), "brain", "import",
                             str(brain_file(tmp_path)), "kept")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 1 and "Imported" not in out
    assert "locked" in err and "import" in err and "plays on" not in err and "Nothing was changed" in err
    with Store.open(tmp_path / "data") as s:
        assert s.list_brains() == []


# -- a brain the game cannot use is never overwritten ----------------------------------------
def stored_counts(store, name):
    return store._conn.execute("SELECT counts FROM brains WHERE key = ?", (name,)).fetchone()[0]


@pytest.mark.parametrize("case", ["max take 10", "1000 hats", "an empty hat"])
def test_a_brain_the_game_cannot_use_raises_and_is_left_as_it_is(tmp_path, case):
    with Store.open(tmp_path) as store:
        if case == "max take 10":
            store.save_brain("odd", Hats(20, max_take=10))
        elif case == "1000 hats":
            store.save_brain("odd", Hats(1000))
        else:
            hats = Hats(20)
            hats.counts[7] = 0
            store.save_brain("odd", hats)
        before = stored_counts(store, "odd")
        with pytest.raises(StoreError, match="left as it is"):
            store.load_or_create_brain("odd", 100, 3, max_size=100)
        assert stored_counts(store, "odd") == before
        assert stored_counts(store, "odd") == before


# -- privacy ---------------------------------------------------------------------------------
@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_the_data_dir_is_0700_and_the_database_files_0600_whatever_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        data = tmp_path / "made" / "data"
        with Store.open(data) as store:
            store.save_brain("default", Hats(10))
            store.record_game(game="sticks", start=4, opponent="friend", players=("Ann", "Bob"), moves=[3, 1],
                              loser=1)
            files = [data / DB_FILENAME, data / (DB_FILENAME + "-wal"), data / (DB_FILENAME + "-shm")]
            assert all(f.exists() for f in files)
            assert stat.S_IMODE(data.stat().st_mode) == 0o700
            for f in files:
                assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
    finally:
        os.umask(old)


def test_an_existing_database_left_readable_by_others_is_made_private(tmp_path):
    Store.open(tmp_path).close()
    os.chmod(tmp_path / DB_FILENAME, 0o644)
    with Store.open(tmp_path):
        assert stat.S_IMODE((tmp_path / DB_FILENAME).stat().st_mode) == 0o600


def test_json_listing_still_works_after_all_that(tmp_path, capsys):
    with Store.open(tmp_path) as s:
        s.save_brain("Straße", Hats(4))
    code, out, _ = cli(capsys, "--data-dir", str(tmp_path), "brain", "list", "--json")
    assert code == 0 and json.loads(out)[0]["name"] == "Straße"


def test_classic_with_a_brain_that_has_an_empty_hat_says_so_and_leaves_it(tmp_path):
    import io
    import random

    from sticks_tui.classic import ClassicGame

    with Store.open(tmp_path) as store:
        hats = Hats(10)
        hats.counts[4] = 0
        store.save_brain("broken", hats)
        before = stored_counts(store, "broken")
        out, err = io.StringIO(), io.StringIO()
        code = ClassicGame(store, stdin=io.StringIO("10\n" + "1\ny\n" * 20), stdout=out, stderr=err,
                           rng=random.Random(1), mode="computer", brain="broken").run()
        assert code == 0 and "holds no ball" in err.getvalue() and "randrange" not in err.getvalue()
        assert stored_counts(store, "broken") == before
        assert store.game_count() >= 1  # the games are still recorded; the fresh AI is not kept


def test_a_game_is_replayed_through_the_engine_with_its_max_take(tmp_path):
    with Store.open(tmp_path) as store:
        with pytest.raises(ValueError, match="not allowed"):
            store.record_game(game="sticks", start=5, opponent="friend", players=("A", "B"), moves=[4, 1],
                              loser=1, max_take=3)
        with pytest.raises(ValueError, match="three piles"):
            store.record_game(game="nim", start="1,1", opponent="friend", players=("A", "B"), moves=["1:1", "2:1"],
                              loser=0)
        assert store.game_count() == 0
        gid = store.record_game(game="sticks", start=5, opponent="friend", players=("A", "B"), moves=[1, 4],
                                loser=0, max_take=4)
        g = store.game(gid)
        assert g.moves == (1, 4) and g.first == 1 and g.loser_name == "A"


def test_a_read_only_database_still_loads_its_brains(tmp_path):
    with Store.open(tmp_path) as store:
        store.save_brain("default", Hats(10))
        store._conn.execute("PRAGMA query_only = ON")
        assert store.load_or_create_brain("default", 10) == Hats(10)
        with pytest.raises(StoreError, match="read-only"):
            store.load_or_create_brain("new one", 10)
