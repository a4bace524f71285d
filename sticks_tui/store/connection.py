"""Opening the database file: where it lives, privacy, WAL, locks, and recovery from damage.

- WAL journal with `synchronous=FULL`: a process killed mid-save (even SIGKILL) leaves the last
  committed data intact; readers never block the writer.
- `busy_timeout` (10 s): a second process waits for the lock instead of failing.
- A damaged file is moved aside (kept, never deleted) by the caller (`Store.open`), using
  `move_aside`.
- Privacy: the data directory this program creates is 0700; the database and its -wal/-shm files
  are 0600, whatever the umask (the records hold pupils' names on shared machines).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from datetime import datetime, timezone
from pathlib import Path

from sticks_tui.store.names import name_key
from sticks_tui.store.paths import APP_NAME, ENV_DATA_DIR, keep_aside, resolve_data_dir  # noqa: F401 - re-exported

DB_FILENAME = "sticks-tui.db"
BUSY_TIMEOUT_MS = 10_000
DIR_MODE = 0o700
FILE_MODE = 0o600

# SQLite primary result codes (the low byte of an extended code)
BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


class Corrupt(Exception):
    """The file is not a usable sticks-tui database (damaged, or someone else's)."""


class TooNew(Exception):
    """The database was written by a newer sticks-tui; its schema version is the argument."""


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


#: The store's clock (UTC, ISO 8601); tests pin it by replacing `sticks_tui.store.connection.clock`.
clock = utc_now


def now() -> str:
    return clock()


def parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def code(exc: BaseException) -> int | None:
    value = getattr(exc, "sqlite_errorcode", None)
    return None if value is None else value & 0xFF


def reason(exc: BaseException) -> str:
    """What went wrong, in words a person can act on."""
    c = code(exc)
    if c == FULL or "disk is full" in str(exc):
        return "the disk is full"
    if c == READONLY or "readonly" in str(exc) or "read-only" in str(exc):
        return "the database is read-only"
    if c in (BUSY, LOCKED):
        return f"the database stayed locked by another sticks-tui for over {BUSY_TIMEOUT_MS // 1000} seconds"
    if c == IOERR:
        return f"the disk reported an error ({exc})"
    if c in (CORRUPT, NOTADB):
        return "the database file is damaged"
    if c == CANTOPEN:
        return "the database file cannot be opened"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def rollback(conn: sqlite3.Connection) -> None:
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def make_data_dir(directory: Path) -> None:
    """Create the data directory (0700 whatever the umask); an existing one is used as it is."""
    if directory.is_dir():
        return
    try:
        directory.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file stands where a directory should be
        raise NotADirectoryError(f"{directory.parent} is not a directory") from None
    try:
        directory.mkdir(mode=DIR_MODE)
    except FileExistsError:
        if not directory.is_dir():
            raise NotADirectoryError(f"{directory} is not a directory") from None
        return
    os.chmod(directory, DIR_MODE)  # mkdir's mode is filtered by the umask; say it exactly


def make_private(path: Path) -> None:
    """The database (and its -wal/-shm files, when there) readable and writable by its owner only."""
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            st = p.lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) != FILE_MODE and st.st_uid == os.getuid():
            try:
                os.chmod(p, FILE_MODE)
            except OSError:
                pass


def _create_private(path: Path) -> None:
    """Create an empty database file as 0600 before SQLite opens it (SQLite gives -wal/-shm its mode)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


def add_functions(conn: sqlite3.Connection) -> None:
    conn.create_function("name_key", 1, lambda s: None if s is None else name_key(s), deterministic=True)


def connect_memory() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    add_functions(conn)
    return conn


def connect_file(path: Path, migrate) -> sqlite3.Connection:
    """Open `path`, check it, switch it to WAL and run `migrate(conn)`; raise Corrupt or TooNew."""
    _create_private(path)
    make_private(path)
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    add_functions(conn)
    try:
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            if code(exc) in (CORRUPT, NOTADB):
                raise Corrupt(str(exc)) from None
            raise
        if check != "ok":
            raise Corrupt(check)
        try:
            migrate(conn)
        except sqlite3.DatabaseError as exc:
            if code(exc) in (CORRUPT, NOTADB):
                raise Corrupt(str(exc)) from None
            raise
        make_private(path)
    except BaseException:
        conn.close()
        raise
    return conn


def connect_file_patiently(path: Path, migrate) -> sqlite3.Connection:
    """`connect_file`, tried again while another process holds a lock SQLite will not wait for.

    Switching a new file to WAL and creating the schema take locks for which SQLite answers
    "busy" at once instead of calling its busy handler, so two copies starting together on a
    fresh database would otherwise see one of them give up.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.01
    while True:
        try:
            return connect_file(path, migrate)
        except sqlite3.OperationalError as exc:
            if code(exc) not in (BUSY, LOCKED) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def move_aside(path: Path) -> Path:
    """Rename a damaged database (and its -wal/-shm files) next to itself; never delete it (`paths.keep_aside`)."""
    return keep_aside(path, "damaged", companions=("-wal", "-shm"))
