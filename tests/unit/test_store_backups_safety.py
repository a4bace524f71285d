"""Issue 30: the class's safety net is real. Timed back-ups made from another thread than the one that made the
keeper, and a failure said in one line; a back-up before every wipe, named for it, that no burst of them can
push the start's copy out of; a restore that loses no committed game while other processes write; a restore
that takes only a sticks-tui database, by the same check the listing makes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from sticks_tui.cli import main
from sticks_tui.learn.hats import Hats
from sticks_tui.store import SCHEMA_VERSION, Store, StoreError
from sticks_tui.store import backups
from sticks_tui.store.backups import BackupError, BackupKeeper, list_backups, make_backup


def game(store: Store, *players: str) -> int:
    return store.record_game(start=5, opponent="friend", players=players, moves=[3, 1, 1], loser=0)


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "data") as store:
        store.save_brain("default", Hats(20), games_trained=5)
        game(store, "Ann", "Bob")
        yield store


def kinds(store: Store) -> list[tuple[str, str | None]]:
    return [(b.why, b.about) for b in list_backups(store.path)]


# -- 1. timed back-ups that happen, and a failure said ------------------------------------------------
def test_the_keeper_made_in_one_thread_backs_up_from_another(store):
    """`sticks-tui serve` makes the keeper (and the start's back-up) in its own thread and ticks in another:
    every timed back-up failed with SQLite's "objects created in a thread" error."""
    keeper = BackupKeeper(store.path, every=60)
    try:
        assert keeper.tick(now=0.0).why == "start"
        game(store, "Cy", "Di")
        made = []
        worker = threading.Thread(target=lambda: made.append(keeper.tick(now=100.0)))
        worker.start()
        worker.join()
        assert keeper.problem is None, keeper.problem
        assert made[0] is not None and (made[0].why, made[0].games) == ("timer", 2)
    finally:
        keeper.close()


def test_a_failing_keeper_says_since_when_and_why_in_one_line_and_in_its_status_file(store, tmp_path):
    status = tmp_path / "status.json"
    keeper = BackupKeeper(store.path, every=60, status_path=status)
    try:
        assert keeper.tick(now=0.0) is not None and backups.read_status(status).failing_line is None
        folder = store.path.parent / "backups"
        folder.rename(folder.with_name("moved"))
        folder.write_text("a file where the folder should be")
        game(store, "Cy", "Di")
        assert keeper.tick(now=100.0) is None
        line = keeper.failing_line
        since = keeper.failing_since.astimezone().strftime("%H:%M")
        assert line == f"Back-ups failing since {since}: {folder} is not a directory."
        shared = backups.read_status(status)  # what the teacher's tab and the projector read
        assert shared.failing_line == line and shared.every == 60
        first = keeper.failing_since
        assert keeper.tick(now=200.0) is None and keeper.failing_since == first  # still "since" the first
        folder.unlink()
        assert keeper.tick(now=300.0) is not None
        assert keeper.failing_line is None and backups.read_status(status).failing_line is None
    finally:
        keeper.close()


def test_the_status_file_is_written_in_place_at_one_size(tmp_path):
    path = tmp_path / "status.json"
    from datetime import datetime, timezone

    failing = backups.BackupStatus(every=600, failing_since=datetime.now(timezone.utc), why="the disk is full",
                                   last=None)
    assert backups.write_status(path, failing) and path.stat().st_size == backups.STATUS_SIZE
    inode = path.stat().st_ino
    assert backups.write_status(path, backups.BackupStatus(every=600, failing_since=None, why=None, last="x.db"))
    assert path.stat().st_ino == inode and path.stat().st_size == backups.STATUS_SIZE
    assert backups.read_status(path) == backups.BackupStatus(every=600, failing_since=None, why=None, last="x.db")
    assert backups.read_status(tmp_path / "none.json") is None


# -- 2. a back-up before every wipe ---------------------------------------------------------------------
def test_every_wipe_makes_a_backup_of_what_it_wipes_first_named_for_it(store, tmp_path):
    store.save_brain("Ann's brain!", Hats(6))
    store.save_brain("小明", Hats(6))
    store.reset_brain("default")
    store.delete_brain("Ann's brain!")
    store.save_brain("小明", Hats(8), replace=True)  # a brain started anew (training with a reset)
    store.reset_player("Ann")
    store.reset_records()
    assert kinds(store) == [("before-reset-records", None), ("before-reset-player", "ann"),
                            ("before-replace-brain", backups.file_part("小明")),
                            ("before-delete-brain", "ann-s-brain"), ("before-reset-brain", "default")]
    newest_first = list_backups(store.path)
    assert [b.why_words for b in newest_first[:2]] == ["before the records were reset", "before player 'ann' was reset"]
    assert newest_first[-1].why_words == "before brain 'default' was reset"
    assert all(b.games == 1 for b in newest_first)  # each holds the game the last one wiped
    assert [b.brains for b in newest_first] == [2, 2, 2, 3, 3]
    assert store.last_backup.name == newest_first[0].name
    assert backups.file_part("小明").startswith("x") and backups.file_part("../../etc/x") == "etc-x"
    assert all(backups.NAME.match(b.name) for b in newest_first)


def test_a_brain_started_anew_that_was_not_stored_needs_no_backup(store):
    store.save_brain("new one", Hats(6), replace=True)
    assert kinds(store) == []


def test_a_wipe_whose_backup_cannot_be_made_is_refused_and_changes_nothing(store):
    (store.path.parent / "backups").write_text("a file where the folder should be")
    with pytest.raises(StoreError) as refused:
        store.reset_records()
    assert str(refused.value).startswith("Cannot reset the records: a back-up could not be made first (")
    assert str(refused.value).endswith("Nothing was changed.")
    with pytest.raises(StoreError, match="a back-up could not be made first"):
        store.reset_brain("default")
    assert store.game_count() == 1 and store.brain_info("default").games_trained == 5


def test_the_command_line_backs_up_before_reset_delete_and_import_replace_and_by_hand(store, tmp_path, capsys):
    data = str(store.path.parent)
    store.export_brain("default", tmp_path / "default.json")
    assert main(["--data-dir", data, "backups", "--now"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Backed up as sticks-tui-") and out.rstrip().endswith("-by-hand.db (1 games, 1 brains).")
    assert main(["--data-dir", data, "brain", "import", str(tmp_path / "default.json"), "default", "--replace"]) == 0
    assert main(["--data-dir", data, "brain", "reset", "default"]) == 0
    assert main(["--data-dir", data, "brain", "delete", "default"]) == 0
    assert kinds(store) == [("before-delete-brain", "default"), ("before-reset-brain", "default"),
                            ("before-replace-brain", "default"), ("by-hand", None)]
    capsys.readouterr()
    assert main(["--data-dir", data, "backups", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed[0]["why_words"] == "before brain 'default' was deleted" and listed[0]["brains"] == 1
    assert main(["--data-dir", data, "backups"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].endswith("before brain 'default' was deleted: 1 games, 1 brains") and lines[4].endswith(
        "made by hand: 1 games, 1 brains")


def test_a_burst_of_before_backups_never_pushes_out_the_copy_from_before_the_lesson(store):
    start = make_backup(store.path, "start")
    timed = [make_backup(store.path, "timer") for _ in range(3)]
    for i in range(15):
        store.save_brain(f"b{i}", Hats(4))
        store.delete_brain(f"b{i}")
    kept = list_backups(store.path)
    assert [b.name for b in kept if b.why in ("start", "timer")] == [t.name for t in timed[::-1]] + [start.name]
    assert sum(b.why == "before-delete-brain" for b in kept) == backups.KEEP["before"]
    for _ in range(backups.KEEP["timer"] + 2):
        make_backup(store.path, "timer")
    assert start.name in [b.name for b in list_backups(store.path)]  # timed ones never push the start's out


# -- 3. a restore loses no committed game -----------------------------------------------------------------
WRITER = """
    import sys, time
    from pathlib import Path
    from sticks_tui.store import Store
    data, me, stop = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    store = Store.open(data)
    with open(Path(data) / f"committed-{me}", "w") as log:
        i = 0
        while not stop.exists():
            i += 1
            store.record_game(start=5, opponent="friend", players=(f"{me}-{i}", "Zed"), moves=[3, 1, 1], loser=0)
            print(f"{me}-{i}", file=log, flush=True)  # only once record_game has returned
            time.sleep(0.002)  # a class of writers, not a tight loop that starves the restore's lock
    store.close()
"""


@pytest.mark.slow
def test_a_restore_while_two_processes_record_games_loses_no_committed_game(store, tmp_path):
    base = make_backup(store.path, "by-hand")
    stop = tmp_path / "stop"
    data = store.path.parent
    writers = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(WRITER), str(data), me, str(stop)],
                                stderr=subprocess.PIPE, text=True) for me in ("w1", "w2")]
    committed = [data / "committed-w1", data / "committed-w2"]
    try:
        deadline = time.monotonic() + 30
        while not all(p.exists() and p.stat().st_size for p in committed):  # both are writing
            assert time.monotonic() < deadline and all(w.poll() is None for w in writers)
            time.sleep(0.02)
        for _ in range(6):  # each restore puts back the base: every game since is wiped from the database
            time.sleep(0.1)
            store.restore_backup(base.name)
    finally:
        stop.touch()
        errors = [w.communicate(timeout=60)[1] for w in writers]
    assert [w.returncode for w in writers] == [0, 0], errors  # writers waited, none failed
    names = {line for path in committed for line in path.read_text().split()}
    kept_before = [b.path for b in list_backups(store.path) if b.why == "before-restore"]
    assert len(kept_before) == 6
    found: set[str] = set()
    for path in [store.path, *kept_before]:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        found |= {row[0] for row in conn.execute("SELECT player1 FROM games")}
        conn.close()
    assert len(names) > 20 and names - found == set()


def test_a_game_id_is_never_given_twice_across_a_restore(store):
    """A game wiped by a restore lives on in the before-restore back-up under its id: no later game takes it."""
    base = make_backup(store.path, "by-hand")
    wiped = game(store, "Cy", "Di")
    store.restore_backup(base.name)
    assert game(store, "Ed", "Flo") > wiped


# -- 4. a restore takes only a sticks-tui database -------------------------------------------------------
def foreign(store: Store, name: str, build) -> Path:
    path = store.path.parent / "backups" / f"sticks-tui-20990101-000000-000000-{name}.db"
    path.parent.mkdir(exist_ok=True)
    conn = sqlite3.connect(path)
    build(conn)
    conn.commit()
    conn.close()
    return path


def our_version_without(store: Store, table: str, column: str | None = None):
    def build(conn: sqlite3.Connection) -> None:
        source = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
        source.backup(conn)
        source.close()
        if column is None:
            conn.execute(f"DROP TABLE {table}")
        else:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    return build


@pytest.mark.parametrize("build, words", [
    (lambda conn: conn.executescript("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT);"
                                     "INSERT INTO schema_version VALUES (8, 'x'); CREATE TABLE notes (t TEXT);"),
     "it is not a sticks-tui database (it says schema version 8, but has no table 'brains')"),
    (lambda conn: conn.execute("CREATE TABLE notes (t TEXT)"), "it is not a sticks-tui database"),
    ("labs", f"it is not a sticks-tui database (it says schema version {SCHEMA_VERSION}, but has no table 'labs')"),
    (("games", "resigned"), f"it is not a sticks-tui database (it says schema version {SCHEMA_VERSION}, but its "
                            "table 'games' has no column 'resigned')"),
])
def test_a_foreign_sqlite_file_is_refused_in_one_line_as_the_listing_says_and_nothing_changes(store, build, words):
    if isinstance(build, str):
        build = our_version_without(store, build)
    elif isinstance(build, tuple):
        build = our_version_without(store, *build)
    path = foreign(store, "timer", build)
    game(store, "Cy", "Di")
    with pytest.raises(BackupError) as refused:
        store.restore_backup(path.name)
    assert str(refused.value) == f"The back-up {path.name} cannot be restored: {words}. Nothing was changed."
    assert store.game_count() == 2 and [b.name for b in list_backups(store.path)] == [path.name]
    listed = list_backups(store.path)  # the listing says the same
    assert [(b.name, b.problem, b.games) for b in listed] == [(path.name, words, None)]


def test_the_restore_checks_again_what_it_copies(store, monkeypatch):
    """A file changed after it was listed (the listing's check is cached) is checked again as it is copied."""
    made = make_backup(store.path, "timer")
    listed = backups.find_backup(store.path, made.name)
    conn = sqlite3.connect(made.path)
    conn.execute("DROP TABLE labs")
    conn.commit()
    conn.close()
    monkeypatch.setattr(backups, "find_backup", lambda database, name: listed)
    with pytest.raises(BackupError, match=r"has no table 'labs'\). Nothing was changed."):
        store.restore_backup(made.name)
    assert store.game_count() == 1 and [b.why for b in list_backups(store.path)] == ["timer"]
    assert not [p for p in made.path.parent.iterdir() if p.name.startswith(".restore-")]  # its copy is gone
