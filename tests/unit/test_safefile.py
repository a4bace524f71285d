"""Safe file writing (issue 13, "exports never destroy"): refusals, atomic replace, and `brain export` for real."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings as hsettings, strategies as st

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, StoreError, brainfile
from sticks_tui.store import safefile
from sticks_tui.store.safefile import check_target, recognise_json_format, write_file
from cli_here import run_here as cli_here

OURS = recognise_json_format("sticks-tui-test", kind="a")


def ours_text(n: int = 1) -> str:
    return json.dumps({"format": "sticks-tui-test", "kind": "a", "n": n})


def write(path, text=None, **kw):
    return write_file(path, ours_text() if text is None else text, what="test file", recognise=OURS, **kw)


def test_new_file_is_written_whole(tmp_path):
    target = tmp_path / "new.json"
    assert write(target) == target
    assert json.loads(target.read_text())["n"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["new.json"]  # no temporary file left behind


def test_an_earlier_file_of_ours_is_replaced(tmp_path):
    target = tmp_path / "out.json"
    write(target, ours_text(1))
    write(target, ours_text(2))
    assert json.loads(target.read_text())["n"] == 2


def test_a_notes_file_is_refused_unless_forced(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my lesson plan\n")
    with pytest.raises(StoreError, match="not an earlier test file.*--force"):
        write(notes)
    assert notes.read_text() == "my lesson plan\n"
    write(notes, force=True)
    assert json.loads(notes.read_text())["n"] == 1


def test_our_format_of_another_kind_is_not_ours(tmp_path):
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "sticks-tui-test", "kind": "b"}))
    with pytest.raises(StoreError, match="not an earlier"):
        write(other)
    assert json.loads(other.read_text())["kind"] == "b"


def test_a_fifo_is_refused_even_with_force_and_nothing_hangs(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for force in (False, True):
        with pytest.raises(StoreError, match="is a named pipe \\(FIFO\\), not a regular file"):
            write(fifo, force=force)
    assert Path(fifo).is_fifo()


def test_a_device_is_refused_even_with_force():
    for force in (False, True):
        with pytest.raises(StoreError, match="/dev/null is a device"):
            write("/dev/null", force=force)
    assert Path("/dev/null").is_char_device()


def test_a_directory_is_refused(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "keep").write_text("x")
    with pytest.raises(StoreError, match="is a folder"):
        write(folder, force=True)
    assert (folder / "keep").read_text() == "x"


def test_a_symlink_is_refused_unless_forced_and_never_written_through(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / "link.json"
    link.symlink_to(victim)
    with pytest.raises(StoreError, match="symbolic link"):
        write(link)
    # even a link to one of our own files is refused without --force: the link is someone's choice
    mine = tmp_path / "mine.json"
    write(mine)
    link2 = tmp_path / "link2.json"
    link2.symlink_to(mine)
    with pytest.raises(StoreError, match="symbolic link"):
        write(link2, ours_text(5))
    assert json.loads(mine.read_text())["n"] == 1
    # with force the link itself is replaced; what it pointed to is untouched
    write(link, force=True)
    assert not link.is_symlink() and json.loads(link.read_text())["n"] == 1
    assert victim.read_text() == "precious"


def test_a_dangling_symlink_is_refused(tmp_path):
    link = tmp_path / "dangling.json"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(StoreError, match="symbolic link"):
        write(link)
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()


def make_sqlite(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()
    return path.read_bytes()


def test_any_sqlite_file_is_refused_even_with_force(tmp_path):
    db = tmp_path / "grades.sqlite"
    before = make_sqlite(db)
    for force in (False, True):
        with pytest.raises(StoreError, match="is a SQLite database"):
            write(db, force=force)
    assert db.read_bytes() == before
    link = tmp_path / "via-link.json"
    link.symlink_to(db)
    with pytest.raises(StoreError, match="points to a SQLite database"):
        write(link, force=True)
    assert db.read_bytes() == before and link.is_symlink()


def test_the_live_database_is_refused_by_every_spelling(tmp_path):
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.save_brain("default", Hats(10))
        live = store.path
    before = live.read_bytes()
    link = tmp_path / "innocent.json"
    link.symlink_to(live)
    spellings = [live, link, data / ".." / "data" / live.name, live.with_name(live.name + "-wal")]
    for spelling in spellings:
        for force in (False, True):
            with pytest.raises(StoreError, match="own database"):
                write(spelling, force=force, protected=[live])
    assert live.read_bytes() == before
    # a database not created yet is still its path
    future = tmp_path / "later" / "sticks-tui.db"
    future.parent.mkdir()
    with pytest.raises(StoreError, match="own database"):
        write(future, protected=[future])
    assert not future.exists()


def test_missing_folder_and_empty_name(tmp_path):
    with pytest.raises(StoreError, match="does not exist"):
        write(tmp_path / "no" / "such.json")
    with pytest.raises(StoreError, match="Give a file name"):
        write("")


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_a_failing_disk_leaves_the_old_file_whole_and_no_temp(tmp_path, monkeypatch, where):
    target = tmp_path / "out.json"
    write(target, ours_text(1))
    before = target.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if where == "write":
        # the first chunk goes through, then the disk is full: a half-written temp file
        real_write = os.write
        calls = []

        def half(fd, data):
            calls.append(1)
            if len(calls) == 1:
                return real_write(fd, bytes(data[: len(data) // 2]))
            return full()

        monkeypatch.setattr(safefile.os, "write", half)
    else:
        monkeypatch.setattr(safefile.os, where, full)
    with pytest.raises(StoreError, match="disk is full. Nothing was changed"):
        write(target, ours_text(2) + " " * 100_000)
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_new_file_permissions_follow_the_mode_and_umask(tmp_path):
    old = os.umask(0o022)
    try:
        write(tmp_path / "a.json")
        write_file(tmp_path / "b.json", ours_text(), what="test file", mode=0o600)
    finally:
        os.umask(old)
    assert (tmp_path / "a.json").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "b.json").stat().st_mode & 0o777 == 0o600


def test_check_target_changes_nothing(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("x")
    with pytest.raises(StoreError):
        check_target(notes, what="export", recognise=OURS)
    assert check_target(tmp_path / "fresh.csv", what="export") == tmp_path / "fresh.csv"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# -- `sticks-tui brain export`: the command through `cli.main`, and in a real process where a regression could hang
def run_cli(data: Path, *argv: str) -> subprocess.CompletedProcess:
    """The real command in a subprocess (with a timeout: a fifo opened for writing would block)."""
    env = {k: v for k, v in os.environ.items() if k != "STICKS_TUI_DATA_DIR"}
    return subprocess.run([sys.executable, "-m", "sticks_tui", "--data-dir", str(data), *argv],
                          capture_output=True, text=True, env=env, timeout=120)


def run_main(data: Path, *argv: str) -> subprocess.CompletedProcess:
    """The command in this process, through `cli.main` (what the real one runs), its output captured."""
    return cli_here(data, argv)


@pytest.fixture
def data(tmp_path):
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.save_brain("default", Hats(12), 7)
        store.record_game(game="sticks", start="10", opponent="friend", players=("Ann", "Bob"),
                          moves=[3, 3, 3, 1], loser=1)
    return data


def test_brain_export_over_the_live_database_is_refused_and_the_database_survives(data, tmp_path):
    live = data / "sticks-tui.db"
    link = tmp_path / "brain.json"
    link.symlink_to(live)
    for target in (live, link):
        for extra in ((), ("--force",)):
            done = run_main(data, "brain", "export", "default", str(target), *extra)
            assert done.returncode == 1, done
            assert "own database" in done.stderr and "Traceback" not in done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
    with Store.open(data) as store:
        assert store.notices == []
        assert store.brain_info("default").games_trained == 7
        assert store.game_count() == 1
    assert not any(p.name.startswith("sticks-tui.db.damaged") for p in data.iterdir())


def test_brain_export_refuses_fifo_device_notes_and_replaces_an_earlier_export(data, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    notes = tmp_path / "notes.txt"
    notes.write_text("notes")
    for target, why in ((fifo, "pipe"), ("/dev/null", "device"), (notes, "not an earlier brain file"),
                        (tmp_path, "folder")):
        done = (run_cli if target == fifo else run_main)(data, "brain", "export", "default", str(target))
        assert done.returncode == 1 and why in done.stderr and "Traceback" not in done.stderr, done
    assert notes.read_text() == "notes" and fifo.is_fifo()

    out = tmp_path / "default.json"
    assert run_main(data, "brain", "export", "default", str(out)).returncode == 0
    first = brainfile.decode(out.read_bytes())
    assert first.name == "default" and first.games_trained == 7 and first.hats.size == 12
    with Store.open(data) as store:
        store.save_brain("default", Hats(12), 5)
    done = run_main(data, "brain", "export", "default", str(out))
    assert done.returncode == 0 and "Exported brain 'default'" in done.stdout
    assert brainfile.decode(out.read_bytes()).games_trained == 12

    done = run_main(data, "brain", "export", "default", str(notes), "--force")
    assert done.returncode == 0 and brainfile.decode(notes.read_bytes()).name == "default"


def test_brain_export_of_a_missing_brain_writes_nothing(data, tmp_path):
    done = run_main(data, "brain", "export", "nobody", str(tmp_path / "x.json"))
    assert done.returncode == 1 and "no brain called 'nobody'" in done.stderr
    assert not (tmp_path / "x.json").exists()


@given(st.binary(max_size=200))
@example(ours_text(1).encode())
@example(b"SQLite format 3\x00" + bytes(100))
@hsettings(max_examples=100, deadline=None)
def test_an_existing_file_is_replaced_only_when_ours(tmp_path_factory, content):
    target = tmp_path_factory.mktemp("prop") / "target.json"
    target.write_bytes(content)
    try:
        write(target, ours_text(9))
    except StoreError as exc:
        assert "\n" not in str(exc)
        assert target.read_bytes() == content  # refused: untouched
        assert not OURS(content)
    else:
        assert OURS(content) and json.loads(target.read_text())["n"] == 9
    assert [p.name for p in target.parent.iterdir()] == ["target.json"]
