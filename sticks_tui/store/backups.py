"""Back-ups of the class's database, beside it: consistent copies (SQLite's online backup, made while every
tab plays on), kept by kind, listed, and one restored. No UI import here. docs/data.md tells the whole story.

When one is made (the last part of its file name, `WHY`):
- `start`, `timer`: `sticks-tui serve` makes one when it starts and one every `--backup-minutes` while games
  are played (`BackupKeeper`: SQLite's `PRAGMA data_version` on a connection of its own says whether anyone
  wrote since the last one). A failure is kept (`BackupKeeper.failing_since`, `reason`), printed by the
  server and written to a small status file the teacher's tab and the projector read (`read_status`).
- `before-…`: the store makes one before every action that wipes or replaces what the class shares (reset
  the records, reset / delete / replace a brain, restore), inside the action's own write transaction: the
  copy is the database as committed just before, and nobody can commit between the copy and the action.
  `before-reset-brain-default`: the brain's name, as a safe file name (`file_part`).
- `by-hand`: "Back up now" in the teacher's tab, `sticks-tui backups --now`.

Kept (`prune`, `KEEP`): the newest 5 made at a start, 10 timed, 10 made before a change and 5 made by hand,
each kind counted apart, so a burst of resets never pushes out the copy made before the lesson.

A restore (`Store.restore_backup`) takes only a sticks-tui database: the same check (`examine`: sound, the
tables and columns of its schema version) decides what the listing calls unrestorable and what a restore
refuses. The chosen back-up is copied aside, checked again and brought up to this schema version (`staged`),
then written into the live database inside one write transaction that also makes the before-restore copy
(`copy_tables`): every game another process committed is in one or the other.

Each back-up is a whole SQLite database, `backups/sticks-tui-YYYYmmdd-HHMMSS-micro[-N]-WHY[-NAME].db`
(0600 in a 0700 folder, in rollback-journal mode so reading one leaves no -wal file behind); `sqlite3` opens it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from sticks_tui.store.connection import FILE_MODE, make_data_dir, reason
from sticks_tui.store.errors import StoreError
from sticks_tui.store.migrations import SCHEMA_VERSION
from sticks_tui.store.migrations import schema_version as version_of

FOLDER = "backups"
#: How many back-ups of each group are kept (the newest; `group_of`). Each group is counted apart.
KEEP: dict[str, int] = {"start": 5, "timer": 10, "before": 10, "by-hand": 5, "other": 10}
BACKUP_EVERY = 600.0  # seconds: `sticks-tui serve --backup-minutes`'s default
#: Why a back-up was made (the last part of its file name), in words; "{}" is the name it is about.
WHY = {
    "start": "server start",
    "timer": "timed",
    "by-hand": "made by hand",
    "before-restore": "before a restore",
    "before-reset-records": "before the records were reset",
    "before-reset-player": "before player '{}' was reset",
    "before-reset-brain": "before brain '{}' was reset",
    "before-delete-brain": "before brain '{}' was deleted",
    "before-replace-brain": "before brain '{}' was replaced",
}
#: The kinds whose file name ends with the name they are about.
ABOUT = frozenset(kind for kind, words in WHY.items() if "{}" in words)
NAME = re.compile(r"^sticks-tui-(\d{8}-\d{6}-\d{6})(?:-(\d+))?-([a-z][a-z0-9-]*)\.db$")
#: The environment variable that tells a tab of `sticks-tui serve` where the server's back-up status is.
STATUS_ENV = "STICKS_TUI_BACKUP_STATUS"
STATUS_SIZE = 4096  # bytes: the status file is written in place at this size (no new disk block needed)


class BackupError(StoreError):
    """A back-up could not be made, read or restored; the message says why, for the teacher; `why` says it
    in a few words ("the disk is full")."""

    def __init__(self, message: str, why: str | None = None) -> None:
        super().__init__(message)
        self.why = why or message


@dataclass(frozen=True)
class Backup:
    path: Path
    made_at: datetime  # UTC
    why: str  # a key of WHY (or what an unknown file name says)
    size: int  # bytes
    games: int | None  # None: the file cannot be restored (`problem` says why)
    brains: int | None
    about: str | None = None  # the name the back-up is about, as in its file name ("default")
    problem: str | None = None  # why it cannot be restored ("it is not a sticks-tui database"); None: it can

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def why_words(self) -> str:
        words = WHY.get(self.why, self.why)
        return words.format(self.about or "?") if "{}" in words else words

    @property
    def contents_words(self) -> str:
        """'3 games, 1 brains', or why it cannot be restored."""
        if self.problem is not None:
            return f"cannot be restored: {self.problem}"
        return f"{self.games} games, {self.brains} brains"


def file_part(name: str) -> str:
    """A brain's (or player's) name as the end of a back-up's file name: lower-case ASCII letters, digits
    and '-', at most 32 ("Ann's brain!" -> "ann-s-brain"); a name with none of those gets a short hash."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:32].strip("-")
    if slug:
        return slug
    return "x" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def kind_of(tail: str) -> tuple[str, str | None]:
    """(kind, the name it is about) from the last part of a back-up's file name."""
    for kind in sorted(WHY, key=len, reverse=True):
        if tail == kind:
            return kind, None
        if kind in ABOUT and tail.startswith(kind + "-"):
            return kind, tail[len(kind) + 1:]
    return tail, None


def group_of(kind: str) -> str:
    """The group a kind is kept in (`KEEP`): start, timer, before (every before-…), by-hand, other."""
    if kind.startswith("before-"):
        return "before"
    return kind if kind in ("start", "timer", "by-hand") else "other"


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


def _read_only(path: Path, *, any_thread: bool = False) -> sqlite3.Connection:
    # a file: URI of the absolute path, quoted ('?' or '#' in a folder's name are not URI syntax)
    uri = Path(os.path.abspath(path)).as_uri() + "?mode=ro"
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=not any_thread)


def _free_name(folder: Path, why: str, when: datetime) -> Path:
    stamp = when.strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"sticks-tui-{stamp}-{why}.db"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"sticks-tui-{stamp}-{n}-{why}.db"
    return path


def make_backup(database: str | os.PathLike, why: str = "by-hand", *, about: str | None = None,
                keep: Mapping[str, int] | int | None = KEEP) -> Backup:
    """A consistent copy of `database` as committed, in its back-up folder (SQLite's online backup from a
    connection of its own: writers elsewhere go on, and a caller holding the write lock gets the database
    as it was before its own transaction), then pruned (`prune`; keep None: nothing removed). `about`: the
    name a before-… back-up is about. BackupError says why it could not be made; nothing half-made is left."""
    if why not in WHY:
        raise ValueError(f"A back-up is made for one of {', '.join(WHY)}, not {why!r}.")
    if (about is not None) != (why in ABOUT):
        raise ValueError(f"A back-up {why!r} is {'about a name' if why in ABOUT else 'about no name'}.")
    database = Path(database)
    folder = backup_folder(database)
    when = datetime.now(timezone.utc)
    tail = why if about is None else f"{why}-{file_part(about)}"
    try:
        make_data_dir(folder)
        final = _free_name(folder, tail, when)
    except OSError as exc:
        raise BackupError(f"Back-ups cannot be written in {folder} ({reason(exc)}).", reason(exc)) from None
    part = final.with_name(final.name + ".part")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)  # private before SQLite writes
        os.close(fd)
        src = _read_only(database)
        try:
            dst = sqlite3.connect(str(part), isolation_level=None)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = DELETE")  # a plain file: reading it leaves nothing beside it
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(part, final)
    except (OSError, sqlite3.Error) as exc:
        try:
            part.unlink()
        except OSError:
            pass
        raise BackupError(f"Cannot make a back-up of {database} in {folder} ({reason(exc)}).", reason(exc)) \
            from None
    if keep is not None:
        prune(database, keep)
    return _describe(final)


# -- what a file holds: one check for the listing and the restore -------------------------------------
@lru_cache(maxsize=None)
def expected_schema(version: int) -> dict[str, frozenset[str]]:
    """The tables of a sticks-tui database of schema `version`, each with its columns: a fresh database
    built by the migrations up to that version, read back (so the list can never drift from them)."""
    from sticks_tui.store.connection import connect_memory
    from sticks_tui.store.migrations import migrate

    conn = connect_memory()
    try:
        migrate(conn, target=version)
        return _tables(conn)
    finally:
        conn.close()


def _tables(conn: sqlite3.Connection, schema: str = "main") -> dict[str, frozenset[str]]:
    names = [row[0] for row in conn.execute(
        f"SELECT name FROM {schema}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%' ESCAPE '^'")]
    return {name: frozenset(row[1] for row in conn.execute(f'PRAGMA {schema}.table_info("{name}")'))
            for name in names}


def schema_problem(conn: sqlite3.Connection) -> tuple[int, str | None]:
    """(its schema version, None) when `conn` holds the tables and columns of a sticks-tui database of a
    schema version this sticks-tui knows, else (the version it says, why not in words)."""
    version = version_of(conn)
    if not isinstance(version, int) or version < 1:
        return 0, "it is not a sticks-tui database"
    if version > SCHEMA_VERSION:
        return version, (f"it was made by another version of sticks-tui (schema version {version}; this one "
                         f"uses {SCHEMA_VERSION})")
    expected, found = expected_schema(version), _tables(conn)
    missing = sorted(set(expected) - set(found))
    if missing:
        return version, (f"it is not a sticks-tui database (it says schema version {version}, but has no table "
                         f"'{missing[0]}')")
    for table in sorted(expected):
        lacking = sorted(expected[table] - found[table])
        if lacking:
            return version, (f"it is not a sticks-tui database (it says schema version {version}, but its table "
                             f"'{table}' has no column '{lacking[0]}')")
    foreign = sorted(set(found) - set(expected))
    if foreign:
        return version, f"it is not a sticks-tui database (it holds a table sticks-tui does not make: '{foreign[0]}')"
    return version, None


def _examine_conn(conn: sqlite3.Connection) -> tuple[int, str | None]:
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        return 0, f"it is damaged ({check})"
    return schema_problem(conn)


#: (path, inode, size, mtime) -> what `examine` found: a back-up never changes once made.
_examined: dict[tuple, tuple[str | None, int | None, int | None]] = {}


def examine(path: Path) -> tuple[str | None, int | None, int | None]:
    """(why the file cannot be restored or None, games, brains): the one check of the listing and the
    restore (sound, a sticks-tui database of a schema version this one knows, with its tables and columns)."""
    st = path.stat()
    key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns)
    if key in _examined:
        return _examined[key]
    try:
        conn = _read_only(path)
        try:
            _, problem = _examine_conn(conn)
            found: tuple = (problem, None, None)
            if problem is None:
                found = (None, conn.execute("SELECT count(*) FROM games").fetchone()[0],
                         conn.execute("SELECT count(*) FROM brains").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error as exc:
        found = (f"it cannot be read ({reason(exc)})", None, None)
    if len(_examined) > 500:
        _examined.clear()
    _examined[key] = found
    return found


def _describe(path: Path) -> Backup:
    match = NAME.match(path.name)
    made = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S-%f").replace(tzinfo=timezone.utc) if match else \
        datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
    why, about = kind_of(match.group(3)) if match else ("?", None)
    problem, games, brains = examine(path)
    return Backup(path=path, made_at=made, why=why, size=path.stat().st_size, games=games, brains=brains,
                  about=about, problem=problem)


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
    kept, so it can never push a real back-up out."""
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


def prune(database: str | os.PathLike, keep: Mapping[str, int] | int = KEEP, *,
          spare: tuple[Path, ...] = ()) -> list[Path]:
    """Remove all but the newest of each group (`group_of`: `keep[group]` of them; an int: that many of each);
    never a path in `spare`. The paths removed."""
    counted: dict[str, int] = {}
    removed = []
    for old in list_backups(database):
        group = group_of(old.why)
        counted[group] = counted.get(group, 0) + 1
        limit = keep if isinstance(keep, int) else keep.get(group, keep.get("other", 10))
        if counted[group] <= limit or old.path in spare:
            continue
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


def check_backup(backup: Backup) -> None:
    """BackupError unless the back-up can be restored (`examine`, as the listing says)."""
    if backup.problem is not None:
        raise BackupError(f"The back-up {backup.name} cannot be restored: {backup.problem}. Nothing was changed.")


# -- restoring --------------------------------------------------------------------------------------
@contextmanager
def staged(backup: Backup) -> Iterator[Path]:
    """A private copy of the back-up beside it, checked again (`examine`'s check, on exactly what will be
    restored) and brought up to this schema version as the database itself was (the back-up is not
    changed); removed afterwards. BackupError says why not."""
    from sticks_tui.store.connection import Corrupt, TooNew, add_functions
    from sticks_tui.store.migrations import migrate

    copy = backup.path.with_name(f".restore-{os.getpid()}-{secrets.token_hex(4)}.db")

    def remove() -> None:
        for leftover in (copy, copy.with_name(copy.name + "-journal")):
            try:
                leftover.unlink()
            except OSError:
                pass

    try:
        fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
        os.close(fd)
        src = _read_only(backup.path)
        try:
            dst = sqlite3.connect(str(copy), isolation_level=None)
            add_functions(dst)
            try:
                src.backup(dst)
                version, problem = _examine_conn(dst)
                if problem is not None:
                    raise BackupError(f"The back-up {backup.name} cannot be restored: {problem}. Nothing was "
                                      "changed.")
                if version < SCHEMA_VERSION:
                    migrate(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except BackupError:
        remove()
        raise
    except (OSError, sqlite3.Error, Corrupt, TooNew) as exc:
        remove()
        raise BackupError(f"The back-up {backup.name} cannot be read ({reason(exc)}). Nothing was changed.") \
            from None
    try:
        yield copy
    finally:
        remove()


def copy_tables(conn: sqlite3.Connection, schema: str) -> None:
    """Inside the caller's write transaction: every table of the live database (`main`) made to hold exactly
    the rows of the same table in the attached `schema`, column by column. AUTOINCREMENT counters only go up:
    a game id is never used twice, before a restore and after."""
    for table, columns in _tables(conn).items():
        names = ", ".join(f'"{c}"' for c in sorted(columns))
        conn.execute(f'DELETE FROM main."{table}"')
        conn.execute(f'INSERT INTO main."{table}" ({names}) SELECT {names} FROM {schema}."{table}"')


@dataclass(frozen=True)
class Restored:
    """A back-up restored over the database: the `restores` table's row, written in the same transaction as
    the restore itself, so a tab that sees the restored games sees this too (`Store.last_restore`)."""

    uid: str  # fresh for every restore: two restores of the same back-up are two restores
    restored_at: datetime  # UTC
    backup: str  # the back-up's file name
    backup_made_at: datetime  # UTC
    last_game: int  # the newest game id the restored database held: games after it were played since


def mark_restore(conn: sqlite3.Connection, backup: Backup, schema: str) -> str:
    """Inside the restore's write transaction, after `copy_tables`: a row in `restores` saying so (`Restored`),
    the newest game id taken from the restored copy (attached as `schema`); returns its uid."""
    from sticks_tui.store.connection import now

    uid = secrets.token_hex(16)
    last_game = conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {schema}.games").fetchone()[0]
    conn.execute("INSERT INTO main.restores (uid, restored_at, backup, backup_made_at, last_game) "
                 "VALUES (?, ?, ?, ?, ?)",
                 (uid, now(), backup.name, backup.made_at.isoformat(timespec="microseconds"), last_game))
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


# -- serve's timed back-ups ---------------------------------------------------------------------------
def interval_words(seconds: float) -> str:
    """'every 10 minutes', 'every minute', 'every 2 seconds'."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return "every minute" if minutes == 1 else f"every {minutes} minutes"
    return f"every {seconds:g} seconds"


def failing_words(since: datetime, why: str) -> str:
    """The one line a teacher and the projector read: 'Back-ups failing since 10:42: the disk is full.'"""
    return f"Back-ups failing since {since.astimezone().strftime('%H:%M')}: {why.rstrip('.')}."


@dataclass(frozen=True)
class BackupStatus:
    """What `sticks-tui serve`'s back-up keeper last said (its status file, `read_status`)."""

    every: float  # seconds between timed back-ups
    failing_since: datetime | None  # None: the last attempt worked
    why: str | None  # why it fails, in a few words
    last: str | None  # the newest back-up the keeper made

    @property
    def failing_line(self) -> str | None:
        if self.failing_since is None:
            return None
        return failing_words(self.failing_since, self.why or "unknown")


def read_status(path: str | os.PathLike | None = None) -> BackupStatus | None:
    """The serving server's back-up status (`path`, else the file $STICKS_TUI_BACKUP_STATUS names); None
    outside `sticks-tui serve`, or when it cannot be read now."""
    path = path if path is not None else os.environ.get(STATUS_ENV)
    if not path:
        return None
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read(STATUS_SIZE + 1).decode("utf-8"))
        since = data.get("failing_since")
        return BackupStatus(every=float(data["every"]),
                            failing_since=datetime.fromisoformat(since) if since else None,
                            why=data.get("why"), last=data.get("last"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_status(path: str | os.PathLike, status: BackupStatus) -> bool:
    """Write the status file in place, always STATUS_SIZE bytes (spaces after the JSON): once made, it is
    rewritten without a new disk block, so it still says "failing" on a full disk. False if it could not."""
    data = json.dumps({"every": status.every,
                       "failing_since": status.failing_since.isoformat() if status.failing_since else None,
                       "why": (status.why or "")[:1000] or None, "last": status.last}).encode("utf-8")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        try:
            os.pwrite(fd, data[:STATUS_SIZE].ljust(STATUS_SIZE, b" "), 0)
        finally:
            os.close(fd)
    except OSError:
        return False
    return True


class BackupKeeper:
    """`sticks-tui serve`'s back-ups: one at start, then one every `every` seconds if anything was written
    since the last (its own connection's `PRAGMA data_version` changes when another connection commits).

    `tick` may run in any thread (the server runs it in a thread of its own), one call at a time: the
    connection is opened for any thread and used under a lock. A failure is kept (`failing_since`, `why`,
    `problem`) until one works, and written to `status_path` (if set) for the teacher's tab and the projector.
    """

    def __init__(self, database: str | os.PathLike, *, every: float = BACKUP_EVERY,
                 keep: Mapping[str, int] | int = KEEP, status_path: str | os.PathLike | None = None) -> None:
        self.database = Path(database)
        self.every = every
        self.keep = keep
        self.status_path = status_path
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._seen: int | None = None
        self.last_at: float | None = None
        self.last: Backup | None = None
        self.problem: str | None = None  # why the last attempt failed (a sentence); None after one that worked
        self.why: str | None = None  # the same in a few words
        self.failing_since: datetime | None = None  # when the attempts began to fail (UTC)

    def _version(self) -> int:
        if self._conn is None:
            self._conn = _read_only(self.database, any_thread=True)
        return self._conn.execute("PRAGMA data_version").fetchone()[0]

    def changed(self) -> bool:
        """Whether anyone wrote to the database since the last back-up."""
        return self._seen is None or self._version() != self._seen

    def due(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        return self.last_at is None or (now - self.last_at >= self.every and self.changed())

    @property
    def status(self) -> BackupStatus:
        return BackupStatus(every=self.every, failing_since=self.failing_since, why=self.why,
                            last=self.last.name if self.last is not None else None)

    @property
    def failing_line(self) -> str | None:
        return self.status.failing_line

    def write_status(self) -> bool:
        return self.status_path is not None and write_status(self.status_path, self.status)

    def _failed(self, problem: str, why: str) -> None:
        self.problem, self.why = problem, why
        if self.failing_since is None:
            self.failing_since = datetime.now(timezone.utc)
        self.write_status()

    def backup(self, why: str, now: float | None = None) -> Backup | None:
        """Make one now; None (and `problem` set) if it could not be made."""
        with self._lock:
            try:
                version = self._version()
                made = make_backup(self.database, why, keep=self.keep)
            except sqlite3.Error as exc:
                self._failed(f"Cannot read {self.database} for a back-up ({reason(exc)}).", reason(exc))
                return None
            except BackupError as exc:
                self._failed(str(exc), exc.why)
                return None
            self._seen = version  # what was written after `version` was read goes in the next one
            self.last_at = time.monotonic() if now is None else now
            self.last, self.problem, self.why, self.failing_since = made, None, None, None
            self.write_status()
            return made

    def tick(self, now: float | None = None) -> Backup | None:
        """The periodic check: a back-up if one is due (the first is the start's), else None."""
        try:
            with self._lock:
                if not self.due(now):
                    return None
        except sqlite3.Error as exc:
            with self._lock:
                self._failed(f"Cannot read {self.database} for a back-up ({reason(exc)}).", reason(exc))
            return None
        return self.backup("start" if self.last_at is None else "timer", now)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
