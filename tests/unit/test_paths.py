"""One paths module below the UI (issue 17 item 4): the data directory, the config directory and keeping a
bad file aside are written once, in `store/paths.py`, and the database and the settings use it."""

from __future__ import annotations

import os
from datetime import datetime

from sticks_tui.store import connection, paths, settings
from sticks_tui.store import resolve_data_dir as store_data_dir


class FixedNow(datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime(2026, 11, 26, 1, 2, 3)


def test_the_database_and_the_settings_use_the_one_paths_module():
    assert store_data_dir is paths.resolve_data_dir and connection.resolve_data_dir is paths.resolve_data_dir
    assert settings.config_dir is paths.config_dir and settings.keep_aside is paths.keep_aside


def test_a_damaged_database_is_kept_aside_with_its_companions_never_over_a_link(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "datetime", FixedNow)
    db = tmp_path / "sticks-tui.db"
    for name, text in (("sticks-tui.db", "db"), ("sticks-tui.db-wal", "wal"), ("sticks-tui.db-shm", "shm")):
        (tmp_path / name).write_text(text)
    taken = tmp_path / "sticks-tui.db.damaged-20261126-010203"
    os.symlink(tmp_path / "nowhere", taken)  # a dangling link holds the first name: it is not written over
    moved = connection.move_aside(db)
    assert moved == tmp_path / "sticks-tui.db.damaged-20261126-010203-2"
    assert moved.read_text() == "db" and (tmp_path / (moved.name + "-wal")).read_text() == "wal"
    assert (tmp_path / (moved.name + "-shm")).read_text() == "shm"
    assert os.path.islink(taken) and not db.exists() and not (tmp_path / "sticks-tui.db-wal").exists()


def test_a_bad_settings_file_is_kept_aside_by_the_same_function(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "datetime", FixedNow)
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\x00 not toml")
    loaded, notices = settings.load_settings(path)
    assert loaded == settings.Settings()
    kept = tmp_path / "settings.toml.damaged-20261126-010203"
    assert kept.read_bytes() == b"\x00 not toml" and not path.exists(), notices
