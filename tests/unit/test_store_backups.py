"""Back-ups of the class's database (store/backups.py): consistent copies beside it, the newest 10 timed ones
kept (each kind counted apart), a restore that keeps the database it replaces, and a folder that cannot be
written said in a line."""

from __future__ import annotations

import sqlite3
import stat

import pytest

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, StoreError, TeacherOnly
from sticks_tui.store import backups
from sticks_tui.store.backups import BackupError, BackupKeeper, list_backups, make_backup


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "data") as store:
        store.save_brain("default", Hats(20), games_trained=5)
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
        yield store


def test_a_backup_is_a_whole_private_database_beside_the_class_one(store):
    made = make_backup(store.path, "start")
    assert made.path.parent == store.path.parent / "backups"
    assert made.name.startswith("sticks-tui-") and made.name.endswith("-start.db")
    assert (made.games, made.brains, made.why_words) == (1, 1, "server start")
    assert stat.S_IMODE(made.path.stat().st_mode) == 0o600
    conn = sqlite3.connect(f"file:{made.path}?mode=ro", uri=True)
    assert conn.execute("SELECT player1, player2 FROM games").fetchall() == [("Ann", "Bob")]
    conn.close()
    assert sorted(p.name for p in made.path.parent.iterdir()) == [made.name]  # no -wal, no .part left
    assert [b.name for b in list_backups(store.path)] == [made.name]


def test_only_the_newest_ten_are_kept(store):
    made = [make_backup(store.path, "timer").name for _ in range(12)]
    assert [b.name for b in list_backups(store.path)] == made[::-1][:10]


def test_text_files_named_like_backups_never_push_real_ones_out(store):
    """A pupil's export can write a text file anywhere the server can: ten of them named as back-ups from the
    future must not make the next prune delete every real back-up."""
    real = make_backup(store.path, "start")
    for i in range(10):
        (real.path.parent / f"sticks-tui-2999010{i}-000000-000000-timer.db").write_text("When,Game\n")
    make_backup(store.path, "timer")
    assert real.name in [b.name for b in list_backups(store.path)] and len(list_backups(store.path)) == 2


def test_a_restore_puts_the_backup_back_for_every_connection_and_keeps_what_it_replaced(store):
    chosen = make_backup(store.path, "start")
    store.record_game(start=5, opponent="friend", players=("Cy", "Di"), moves=[3, 1, 1], loser=1)
    store.reset_brain("default")
    with Store.open(store.path.parent) as other_tab:
        assert other_tab.game_count() == 2
        restored, kept = store.restore_backup(chosen.name)
        assert restored.name == chosen.name and kept.why == "before-restore"
        assert other_tab.game_count() == 1  # the other tab's connection sees the restored database at once
        assert other_tab.brain_info("default").games_trained == 5
        other_tab.record_game(start=5, opponent="friend", players=("Ed", "Flo"), moves=[3, 1, 1], loser=1)
    assert sorted(p.name for p in store.leaderboard()) == ["Ann", "Bob", "Ed", "Flo"]
    assert (kept.games, kept.brains) == (2, 1)  # what was replaced is a back-up too
    assert [b.why for b in list_backups(store.path)] == ["before-restore", "before-reset-brain", "start"]
    assert list_backups(store.path)[0].name == kept.name and list_backups(store.path)[2].name == chosen.name


def test_a_bad_restore_is_refused_and_changes_nothing(store, tmp_path):
    good = make_backup(store.path, "start")
    with pytest.raises(BackupError, match="There is no back-up called '../sticks-tui.db'"):
        store.restore_backup("../sticks-tui.db")
    damaged = good.path.with_name(good.name.replace("-start", "-2-start"))
    damaged.write_bytes(good.path.read_bytes()[:4096] + b"\x00" * 100)
    with pytest.raises(BackupError) as refused:
        store.restore_backup(damaged.name)
    assert "Nothing was changed." in str(refused.value)
    old = good.path.with_name(good.name.replace("-start", "-3-start"))
    old.write_bytes(good.path.read_bytes())
    conn = sqlite3.connect(old)
    conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (99, 'later')")
    conn.commit()
    conn.close()
    with pytest.raises(BackupError, match="made by another version of sticks-tui"):
        store.restore_backup(old.name)
    assert store.game_count() == 1 and len(list_backups(store.path)) == 3  # no before-restore back-up either
    store.pupil = True
    with pytest.raises(TeacherOnly, match="Only the teacher can restore a back-up"):
        store.restore_backup(good.name)
    assert isinstance(BackupError("x"), StoreError)


def test_a_folder_that_cannot_be_written_is_said_in_a_line(store):
    (store.path.parent / "backups").write_text("a file where the folder should be")
    problem = backups.folder_problem(store.path)
    assert problem is not None and problem.startswith(f"Back-ups cannot be written in {store.path.parent / 'backups'}")
    with pytest.raises(BackupError) as refused:
        make_backup(store.path, "start")
    assert str(refused.value) == problem
    keeper = BackupKeeper(store.path)
    assert keeper.tick(now=0.0) is None and keeper.problem == problem
    store.record_game(start=5, opponent="friend", players=("Cy", "Di"), moves=[3, 1, 1], loser=1)  # plays on
    keeper.close()


def test_the_keeper_backs_up_at_start_then_every_interval_only_after_a_write(store):
    keeper = BackupKeeper(store.path, every=600)
    try:
        first = keeper.tick(now=0.0)
        assert first is not None and first.why == "start"
        assert keeper.tick(now=10.0) is None  # not due yet
        assert keeper.tick(now=700.0) is None  # due, but nobody wrote: no copy of the same database
        store.record_game(start=5, opponent="friend", players=("Cy", "Di"), moves=[3, 1, 1], loser=1)
        second = keeper.tick(now=800.0)
        assert second is not None and second.why == "timer" and second.games == 2
        store.record_game(start=5, opponent="friend", players=("Ed", "Flo"), moves=[3, 1, 1], loser=1)
        assert keeper.tick(now=1300.0) is None  # a write, but 10 minutes have not passed since the last
        third = keeper.tick(now=1400.0)
        assert third is not None and third.games == 3
        assert [b.games for b in list_backups(store.path)] == [3, 2, 1]
    finally:
        keeper.close()


def test_the_backups_command_lists_and_restores(store, capsys):
    import json

    from sticks_tui.cli import main

    data_dir = str(store.path.parent)
    assert main(["--data-dir", data_dir, "backups"]) == 0
    assert capsys.readouterr().out.startswith(f"No back-ups in {store.path.parent / 'backups'}")
    made = make_backup(store.path, "start")
    store.reset_records()
    assert main(["--data-dir", data_dir, "backups", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(b["why"], b["games"], b["brains"]) for b in listed] == [("before-reset-records", 1, 1), ("start", 1, 1)]
    assert listed[1]["name"] == made.name
    assert main(["--data-dir", data_dir, "backups", "--restore", "no-such.db"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("sticks-tui backups: There is no back-up called 'no-such.db'") and "Traceback" not in err
    assert main(["--data-dir", data_dir, "backups", "--restore", made.name]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Restored {made.name} (1 games, 1 brains). The database as it was is kept as ")
    assert store.game_count() == 1  # this open store sees the restore at once


def test_a_backup_made_before_the_newest_schema_is_restored_brought_up_to_date(store):
    """A class's back-ups outlive an upgrade of sticks-tui: one made at schema version 4 (before the draw
    reward and the kept labs) is restored, migrated on the way in; the back-up file itself is not changed."""
    from sticks_tui.store.connection import add_functions
    from sticks_tui.store.migrations import SCHEMA_VERSION, migrate

    old = make_backup(store.path, "start")  # games 1, brains 1 ...
    old_path = old.path.with_name(old.name.replace("-start", "-9-start"))
    fresh = sqlite3.connect(old_path, isolation_level=None)  # ... but a database of version 4: built as v4 built it
    add_functions(fresh)
    migrate(fresh, target=4)
    fresh.execute("INSERT INTO players (name, wins, losses, is_ai, first_played, last_played, key) VALUES "
                  "('Cleo', 1, 0, 0, '2026-01-05T10:00:00+00:00', '2026-01-05T10:00:00+00:00', 'cleo')")
    fresh.close()
    before = old_path.read_bytes()
    store.record_game(start=5, opponent="friend", players=("Dan", "Eve"), moves=[3, 1, 1], loser=0)
    restored, kept = store.restore_backup(old_path.name)
    assert restored.name == old_path.name and kept.why == "before-restore"
    assert [p.name for p in store.leaderboard()] == ["Cleo"]
    assert store._conn.execute("SELECT MAX(version) FROM schema_version").fetchone() == (SCHEMA_VERSION,)
    store.save_brain("after", Hats(6))  # the restored database takes today's writes
    assert store.load_brain("after") == Hats(6)
    assert old_path.read_bytes() == before
