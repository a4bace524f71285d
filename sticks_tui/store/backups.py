"""Back-ups of the class's database, beside it: made with SQLite's online backup (a consistent copy while
every tab plays on), the last KEEP kept, listed, and one restored (the database as it is then kept as a
back-up first).

`sticks-tui serve` makes one when it starts and every BACKUP_EVERY seconds while games are played
(`BackupKeeper`: SQLite's `PRAGMA data_version` on a connection of its own says whether anyone wrote since
the last one). A back-up folder that cannot be written never stops a class: `folder_problem` says why, in
a line, and the class plays on. No UI import here.

Each back-up is a whole SQLite database, `backups/sticks-tui-YYYYmmdd-HHMMSS-micro-WHY.db` (0600 in a 0700
folder, in rollback-journal mode so reading one leaves no -wal file behind); `sqlite3` opens it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sticks_tui.store.connection import FILE_MODE, make_data_dir, reason
from sticks_tui.store.errors import StoreError
from sticks_tui.store.migrations import schema_version as version_of

FOLDER = "backups"
KEEP = 10
BACKUP_EVERY = 600.0  # seconds: every 10 minutes while games are played
#: Why a back-up was made (the last part of its file name), in words.
WHY = {"start": "server start", "timer": "every 10 minutes", "before-restore": "before a restore",
       "by-hand": "made by hand"}
NAME = re.compile(r"^sticks-tui-(\d{8}-\d{6}-\d{6})(?:-(\d+))?-([a-z-]+)\.db$")


class BackupError(StoreError):
    """A back-up could not be made, read or restored; the message says why, for the teacher."""


@dataclass(frozen=True)
class Backup:
    path: Path
    made_at: datetime  # UTC
    why: str  # a key of WHY
    size: int  # bytes
    games: int | None  # None: the file could not be read as a database of ours
    brains: int | None

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def why_words(self) -> str:
        return WHY.get(self.why, self.why)


def backup_folder(database: str | os.PathLike) -> Path:
    """Where the back-ups of `database` are kept: a folder beside it."""
    return Path(database).parent / FOLDER


def folder_problem(database: str | os.PathLike) -> str | None:
    """Why back-ups of `database` cannot be written now (one line), or None when they can."""
    folder = backup_folder(database)
    try:
        make_data_dir(folder)
        probe = folder / f".probe-{os.getpid()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"Back-ups cannot be written in {folder} ({reason(exc)})."
    return None


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)


def _free_name(folder: Path, why: str, when: datetime) -> Path:
    stamp = when.strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"sticks-tui-{stamp}-{why}.db"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"sticks-tui-{stamp}-{n}-{why}.db"
    return path


def make_backup(database: str | os.PathLike, why: str = "by-hand", *, keep: int | None = KEEP,
                source: sqlite3.Connection | None = None) -> Backup:
    """A consistent copy of `database` in its back-up folder (SQLite's online backup: writers elsewhere go
    on), then only the newest `keep` kept (None: none removed). `source`: a connection to copy from
    (else one is opened read-only). BackupError says why it could not be made; nothing half-made is left."""
    if why not in WHY:
        raise ValueError(f"A back-up is made for one of {', '.join(WHY)}, not {why!r}.")
    database = Path(database)
    folder = backup_folder(database)
    when = datetime.now(timezone.utc)
    try:
        make_data_dir(folder)
        final = _free_name(folder, why, when)
    except OSError as exc:
        raise BackupError(f"Back-ups cannot be written in {folder} ({reason(exc)}).") from None
    part = final.with_name(final.name + ".part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)  # private before SQLite writes
        os.close(fd)
        own = source is None
        src = _read_only(database) if own else source
        try:
            dst = sqlite3.connect(str(part), isolation_level=None)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = DELETE")  # a plain file: reading it leaves nothing beside it
            finally:
                dst.close()
        finally:
            if own:
                src.close()
        os.replace(part, final)
    except (OSError, sqlite3.Error) as exc:
        try:
            part.unlink()
        except OSError:
            pass
        raise BackupError(f"Cannot make a back-up of {database} in {folder} ({reason(exc)}).") from None
    if keep is not None:
        prune(database, keep)
    return _describe(final)


def _describe(path: Path) -> Backup:
    match = NAME.match(path.name)
    made = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S-%f").replace(tzinfo=timezone.utc) if match else \
        datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
    games = brains = None
    try:
        conn = _read_only(path)
        try:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            brains = conn.execute("SELECT count(*) FROM brains").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        pass
    return Backup(path=path, made_at=made, why=match.group(3) if match else "?", size=path.stat().st_size,
                  games=games, brains=brains)


SQLITE_HEADER = b"SQLite format 3\x00"


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def list_backups(database: str | os.PathLike) -> list[Backup]:
    """The back-ups of `database`, newest first ([] when there are none, or no folder). Only SQLite files
    count: a text file given a back-up's name (an export, say) is neither listed nor counted among the
    KEEP, so it can never push a real back-up out."""
    folder = backup_folder(database)
    try:
        paths = [p for p in folder.iterdir() if NAME.match(p.name) and p.is_file() and _is_sqlite(p)]
    except OSError:
        return []
    found = []
    for path in paths:
        try:
            found.append(_describe(path))
        except OSError:
            continue
    return sorted(found, key=lambda b: (b.made_at, int(NAME.match(b.name).group(2) or 1)), reverse=True)


def prune(database: str | os.PathLike, keep: int = KEEP) -> list[Path]:
    """Remove all but the newest `keep` back-ups; the paths removed."""
    removed = []
    for old in list_backups(database)[keep:]:
        try:
            old.path.unlink()
            removed.append(old.path)
        except OSError:
            continue
    return removed


def find_backup(database: str | os.PathLike, name: str) -> Backup:
    """The back-up called `name` (a file name from `list_backups`, never a path), or BackupError."""
    for backup in list_backups(database):
        if backup.name == name:
            return backup
    raise BackupError(f"There is no back-up called {name!r} in {backup_folder(database)}. "
                      "`sticks-tui backups` lists them. Nothing was changed.")


def check_backup(backup: Backup, schema_version: int) -> int:
    """BackupError unless the back-up is a whole, sound sticks-tui database of this schema version or an
    older one (an older one is brought up to date as it is restored: `copy_into`); returns its version."""
    try:
        conn = _read_only(backup.path)
        try:
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            version = version_of(conn)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise BackupError(f"The back-up {backup.name} cannot be read ({reason(exc)}). Nothing was changed.") \
            from None
    if check != "ok":
        raise BackupError(f"The back-up {backup.name} is damaged ({check}). Nothing was changed.")
    if version > schema_version:
        raise BackupError(f"The back-up {backup.name} was made by another version of sticks-tui (schema version "
                          f"{version}; this one uses {schema_version}). Nothing was changed.")
    if version < 1:
        raise BackupError(f"The back-up {backup.name} is not a sticks-tui database. Nothing was changed.")
    return version


@dataclass(frozen=True)
class Restored:
    """A back-up restored over the database: the `restores` table's row, written in the same step as the
    restore itself, so a tab that sees the restored games sees this too (`Store.last_restore`)."""

    uid: str  # fresh for every restore: two restores of the same back-up are two restores
    restored_at: datetime  # UTC
    backup: str  # the back-up's file name
    backup_made_at: datetime  # UTC
    last_game: int  # the newest game id the restored database held: games after it were played since


def copy_into(backup: Backup, destination: sqlite3.Connection) -> str:
    """Write the back-up over the database behind `destination` (SQLite's online backup, one step: every
    other connection sees the whole of it at its next read), with a row in its `restores` table saying
    so (`Restored`); returns that row's uid. The back-up is staged in memory first, brought up to the
    newest schema there as the database itself was (the file is not changed), and marked there, so the
    restore and its mark arrive together: no tab ever reads the restored games without the mark."""
    import secrets

    from sticks_tui.store.connection import connect_memory, now
    from sticks_tui.store.migrations import migrate

    src = _read_only(backup.path)
    try:
        staged = connect_memory()
        try:
            src.backup(staged)
            migrate(staged)
            uid = secrets.token_hex(16)
            last_game = staged.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
            staged.execute("INSERT INTO restores (uid, restored_at, backup, backup_made_at, last_game) "
                           "VALUES (?, ?, ?, ?, ?)",
                           (uid, now(), backup.name, backup.made_at.isoformat(timespec="microseconds"), last_game))
            staged.backup(destination)
        finally:
            staged.close()
    finally:
        src.close()
    return uid


def last_restore(conn: sqlite3.Connection) -> Restored | None:
    """The newest back-up restored over the database behind `conn` (None: never restored)."""
    row = conn.execute("SELECT uid, restored_at, backup, backup_made_at, last_game FROM restores "
                       "ORDER BY id DESC LIMIT 1").fetchone()
    if row is None:
        return None
    uid, restored_at, name, made_at, last_game = row
    return Restored(uid, _utc(restored_at), name, _utc(made_at), int(last_game))


def _utc(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    return when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)


class BackupKeeper:
    """`sticks-tui serve`'s back-ups: one at start, then one every `every` seconds if anything was written
    since the last (its own connection's `PRAGMA data_version` changes when another connection commits)."""

    def __init__(self, database: str | os.PathLike, *, every: float = BACKUP_EVERY, keep: int = KEEP) -> None:
        self.database = Path(database)
        self.every = every
        self.keep = keep
        self._conn = _read_only(self.database)
        self._seen: int | None = None
        self.last_at: float | None = None
        self.last: Backup | None = None
        self.problem: str | None = None  # why the last attempt failed; None after one that worked

    def _version(self) -> int:
        return self._conn.execute("PRAGMA data_version").fetchone()[0]

    def changed(self) -> bool:
        """Whether anyone wrote to the database since the last back-up."""
        return self._seen is None or self._version() != self._seen

    def due(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return self.last_at is None or (now - self.last_at >= self.every and self.changed())

    def backup(self, why: str, now: float | None = None) -> Backup | None:
        """Make one now; None (and `problem` set) if it could not be made."""
        try:
            version = self._version()
            made = make_backup(self.database, why, keep=self.keep)
        except sqlite3.Error as exc:
            self.problem = f"Cannot read {self.database} for a back-up ({reason(exc)})."
            return None
        except BackupError as exc:
            self.problem = str(exc)
            return None
        self._seen = version  # what was written after `version` was read goes in the next one
        self.last_at = time.monotonic() if now is None else now
        self.last, self.problem = made, None
        return made

    def tick(self, now: float | None = None) -> Backup | None:
        """The periodic check: a back-up if one is due (the first is the start's), else None."""
        try:
            if not self.due(now):
                return None
        except sqlite3.Error as exc:
            self.problem = f"Cannot read {self.database} for a back-up ({reason(exc)})."
            return None
        return self.backup("start" if self.last_at is None else "timer", now)

    def close(self) -> None:
        self._conn.close()
