"""The SQLite database behind `Store`: opening it, and one transaction per write.

The store is split by concern:
- `connection`: where the file lives, privacy (0700 directory, 0600 files), WAL, locks, and
  moving a damaged file aside;
- `migrations`: the schema and its versions;
- `records`: games (replayed through the engine before they are kept) and players;
- `brains`: named brains, what games and training runs teach them, training curves;
- `labs`: finished learning labs, kept to list, show again and export;
- `names`: the one rule for telling names apart.

Safety, in the order it matters:
- Every write is one `BEGIN IMMEDIATE ... COMMIT` transaction, so a game's record, both players'
  totals and what the game taught a brain land together or not at all, and two processes never
  interleave half-writes.
- WAL journal with `synchronous=FULL`; `busy_timeout` (10 s) so a second process waits.
- `Store.open` moves a damaged file aside (kept, never deleted) and starts a fresh one. If the
  database cannot be used at all (a newer version, locked, read-only, a full disk, no directory)
  it raises StoreError saying why, unless the caller (only the interactive app) passes
  allow_memory=True: then it goes on in memory, `store.in_memory` is true and
  `store.memory_reason` says why, for a banner.
- A write that fails (disk full, read-only file) raises StoreError and changes nothing.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sticks_tui.store import brainfile
from sticks_tui.store.brains import BrainInfo, BrainsMixin, fit_hats
from sticks_tui.store.connection import (
    BUSY_TIMEOUT_MS,
    DB_FILENAME,
    ENV_DATA_DIR,
    Corrupt,
    TooNew,
    connect_file_patiently,
    connect_memory,
    make_data_dir,
    move_aside,
    now,
    reason,
    resolve_data_dir,
    rollback,
)
from sticks_tui.store.errors import InvalidName, StoreError, TeacherOnly, validate_name
from sticks_tui.store.labs import LabsMixin
from sticks_tui.store.migrations import SCHEMA_VERSION, migrate
from sticks_tui.store.names import name_key
from sticks_tui.store.records import (
    HUMAN_OPPONENTS,
    GameRecord,
    PlayerRecord,
    RecordedGame,
    RecordsMixin,
    SeatLearning,
    replay,
)

MEMORY_ONLY = "Records and brains are kept only until you quit."


class Store(RecordsMixin, BrainsMixin, LabsMixin):
    """Records and brains in one SQLite database. Safe to share between threads and processes."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, notices: list[str] | None = None,
                 memory_reason: str | None = None) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self.path = path
        self.notices: list[str] = notices if notices is not None else []
        #: Why this store lives in memory only (None for a database file): for the app's banner.
        self.memory_reason = memory_reason
        #: A pupil's store (a tab opened from the pupils' address of `sticks-tui serve`): every write that
        #: wipes, replaces or restores (reset, delete, rename, import, restore) raises TeacherOnly.
        self.pupil = False
        #: The ids of the games recorded through this store (this tab's own), as opposed to other copies'.
        self.own_games: set[int] = set()
        #: The uids of the restores made through this store (`backups.Restored`): this tab's own, as own_games.
        self.own_restores: set[str] = set()
        #: The back-up this store made before its last wipe, replace or restore (`backup_before`), or None.
        self.last_backup = None

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, data_dir: str | os.PathLike | None = None, *, allow_memory: bool = False) -> Store:
        """Open (or create) the database in the data directory.

        A damaged database is moved aside (kept) and a fresh one started, with a notice. If the
        database cannot be used, StoreError says why; with allow_memory=True (the interactive app
        only) the store goes on in memory instead, with `in_memory` true and `memory_reason` set.
        """
        notices: list[str] = []

        def unusable(why: str) -> Store:
            if not allow_memory:
                raise StoreError(why + " Nothing was changed.")
            notices.append(f"{why} {MEMORY_ONLY}")
            return cls.memory(notices, why)

        try:
            directory = resolve_data_dir(data_dir)
        except Exception as exc:  # platformdirs cannot find a home directory, and the like
            return unusable(f"Cannot find a data directory ({exc}).")
        try:
            make_data_dir(directory)
        except OSError as exc:
            return unusable(f"Cannot use the data directory {directory} ({reason(exc)}).")
        path = directory / DB_FILENAME
        for attempt in range(2):
            try:
                return cls(connect_file_patiently(path, migrate), path, notices)
            except Corrupt as exc:
                if attempt:
                    break
                try:
                    moved = move_aside(path)
                except OSError as move_exc:
                    return unusable(f"The database {path} is damaged ({exc}) and could not be moved aside "
                                    f"({reason(move_exc)}).")
                notices.append(f"The database {path} was damaged ({exc}). It was moved to {moved} (kept, "
                               "not deleted) and a fresh database was started.")
            except TooNew as exc:
                return unusable(f"The database {path} was written by a newer sticks-tui (schema version {exc}; "
                                f"this one knows up to {SCHEMA_VERSION}). It was left untouched.")
            except (sqlite3.Error, OSError) as exc:
                return unusable(f"Cannot use the database {path} ({reason(exc)}).")
        return unusable(f"A fresh database at {path} could not be started either.")

    @classmethod
    def memory(cls, notices: list[str] | None = None, memory_reason: str | None = None) -> Store:
        """A database that lives only as long as this process (tests; the app's fallback)."""
        conn = connect_memory()
        migrate(conn)
        return cls(conn, None, notices, memory_reason or "This database lives in memory only.")

    @property
    def persistent(self) -> bool:
        """Whether what is saved outlives this process."""
        return self.path is not None

    @property
    def in_memory(self) -> bool:
        return self.path is None

    @property
    def location(self) -> str:
        """Where the records are, for a message: the path (a pupil's store: never the server's path)."""
        if self.path is None:
            return "a database in memory only"
        return "the class's database" if self.pupil else str(self.path)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def teacher_only(self, what: str) -> None:
        """Refuse `what` (words: "reset the records") in a pupil's store; the one check every wipe passes."""
        if self.pupil:
            raise TeacherOnly(f"Only the teacher can {what}. Nothing was changed.")

    # -- changes by others -----------------------------------------------------------------------
    def data_version(self) -> int:
        """SQLite's `PRAGMA data_version` on this store's connection: it changes when another connection
        (another tab, the command line, a restore) commits, never for this store's own writes. One cheap
        call (no file read when nothing changed): the app asks it twice a second to show the class's games
        live."""
        with self._read("check the database for changes") as conn:
            return conn.execute("PRAGMA data_version").fetchone()[0]

    def last_restore(self):
        """The newest back-up restored over this database (`backups.Restored`), or None: the live check
        reads it when the database changed, to tell a restore from games just played."""
        from sticks_tui.store import backups

        with self._read("read the restores") as conn:
            return backups.last_restore(conn)

    # -- back-ups (store/backups.py) ----------------------------------------------------------
    def restore_backup(self, name: str):
        """Put the back-up called `name` (a file name `backups.list_backups` gives) in place of the whole
        database, for every tab at once; the database as it was is kept as a back-up first. Returns
        (the back-up restored, the back-up of what was replaced). BackupError (a StoreError) says why
        not, and changes nothing. The teacher's only.

        One write lock is held from the before-restore copy to the end of the restore: a game another
        process commits is in the before-restore copy (committed before) or in the database afterwards
        (it waited, `busy_timeout`, and committed after). A row in `restores` marks it, in the same
        transaction (`backups.mark_restore`), so every tab tells it from games just played. The back-up
        is copied aside, checked and brought up to date first (`backups.staged`), so a foreign or damaged
        file is refused before anything changes."""
        from sticks_tui.store import backups

        self.teacher_only("restore a back-up")
        if self.path is None:
            raise StoreError("This database lives in memory only: it has no back-ups. Nothing was changed.")
        chosen = backups.find_backup(self.path, name)
        backups.check_backup(chosen)
        with self._lock:
            conn = self._connection()
            with backups.staged(chosen) as copy:
                try:
                    conn.execute("ATTACH DATABASE ? AS restored", (str(copy),))
                except sqlite3.Error as exc:
                    raise backups.BackupError(f"Cannot read the back-up {chosen.name} ({reason(exc)}). Nothing "
                                              "was changed.") from None
                try:
                    kept = self._restore_from(conn, chosen)
                finally:
                    try:
                        conn.execute("DETACH DATABASE restored")
                    except sqlite3.Error:
                        pass
        self.last_backup = kept
        backups.prune(self.path, spare=(chosen.path,))
        return chosen, kept

    def _restore_from(self, conn: sqlite3.Connection, chosen):
        """The before-restore copy and the restore, in one write transaction (see `restore_backup`)."""
        from sticks_tui.store import backups

        try:
            conn.execute("BEGIN IMMEDIATE")  # every other writer now waits for our COMMIT
        except sqlite3.Error as exc:
            raise backups.BackupError(f"Cannot restore {chosen.name}: {reason(exc)}. Nothing was changed.") \
                from None
        kept = None
        try:
            # the database as committed: nobody can commit until we do
            kept = backups.make_backup(self.path, "before-restore", keep=None)
            backups.copy_tables(conn, "restored")
            # marked in the same transaction: no tab reads the restored games without the mark (ui/live.py)
            uid = backups.mark_restore(conn, chosen, "restored")
            conn.execute("COMMIT")
            self.own_restores.add(uid)
        except backups.BackupError as exc:
            rollback(conn)
            raise backups.BackupError(f"Not restored: the database as it is could not be kept first ({exc.why}). "
                                      "Nothing was changed.", exc.why) from None
        except sqlite3.Error as exc:
            rollback(conn)
            raise backups.BackupError(f"Cannot restore {chosen.name} ({reason(exc)}). The database is as it was; "
                                      f"it is also kept as {kept.name}.") from None
        except BaseException:
            rollback(conn)
            raise
        return kept

    def backup_before(self, why: str, about: str | None = None, action: str = "do that") -> None:
        """Inside a write transaction of this store (the write lock held): a back-up of the database as
        committed, named for what is about to wipe or replace it (`why`, a before-… kind of `backups.WHY`;
        `about`: the brain's or player's name). Nobody can commit between the copy and the change. If it
        cannot be made, StoreError: the change is refused (`action`: "reset the records"). In memory: none."""
        if self.path is None:
            return
        from sticks_tui.store import backups

        try:
            self.last_backup = backups.make_backup(self.path, why, about=about)
        except backups.BackupError as exc:
            raise StoreError(f"Cannot {action}: a back-up could not be made first ({exc.why}). Nothing was "
                             "changed.") from None

    # -- transactions ------------------------------------------------------------------------
    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("The database is closed.")
        return self._conn

    @contextmanager
    def _write(self, action: str, consequence: str = "Nothing was changed.") -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is kept, or (on any error) none of it."""
        with self._lock:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"Cannot {action}: {reason(exc)} ({self.location}). {consequence}") from None
            try:
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                rollback(conn)
                raise StoreError(f"Cannot {action}: {reason(exc)} ({self.location}). {consequence}") from None
            except BaseException:
                rollback(conn)
                raise

    @contextmanager
    def _read(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._connection()
            try:
                yield conn
            except sqlite3.Error as exc:
                raise StoreError(f"Cannot {action}: {reason(exc)} ({self.location}).") from None

    # -- brain files -------------------------------------------------------------------------
    def brain_file_text(self, name: str) -> tuple[str, str]:
        """(the brain's name as stored, the text of its brain file), for any game.

        The text is read back before it is returned, so a file that `import_brain` would refuse, or
        read as another brain, is never written: that raises StoreError with the reason instead.
        """
        hats = self.load_brain(name)
        info = self.brain_info(name)
        if hats is None or info is None:
            raise StoreError(f"There is no brain called {name!r}.")
        text = brainfile.encode(info.name, hats, info.games_trained, now())
        try:
            again = brainfile.decode(text.encode("utf-8"), "the brain file")
        except brainfile.BadBrainFile as exc:
            raise StoreError(f"The brain {info.name!r} cannot be written to a brain file that imports again: "
                             f"{exc.why} Nothing was written.") from None
        if again != brainfile.BrainFile(info.name, hats, info.games_trained):  # pragma: no cover - a bug guard
            raise StoreError(f"The brain {info.name!r} would not read back the same from its brain file; "
                             "nothing was written.")
        return info.name, text

    def export_brain(self, name: str, path: str | os.PathLike, *, force: bool = False) -> str:
        """Write brain `name` (any game) to a JSON brain file at `path`; return the brain's stored name.

        Through the export guard (`safefile`): never over this store's own database, any SQLite file, a
        device, a folder or someone's file (an earlier brain file is replaced; `force` replaces any
        regular file or a symlink itself); the target is checked before the brain is read, and is
        either left as it was or replaced whole. StoreError says why not.
        """
        from sticks_tui.store.safefile import check_target, recognise_json_format, write_file

        recognise = recognise_json_format(brainfile.BRAIN_FORMAT)
        protected = [self.path] if self.path is not None else []
        # refuse a bad target before reading anything, so the message is about the file
        check_target(path, what="brain file", recognise=recognise, force=force, protected=protected)
        stored, text = self.brain_file_text(name)
        write_file(path, text, what="brain file", recognise=recognise, force=force, protected=protected)
        return stored

    def import_brain(self, path: str | os.PathLike, name: str | None = None, *, replace: bool = False,
                     game: str | None = None) -> str:
        """Read a brain file, check all of it, and save it as `name` (else the file's own name).

        A brain that already exists is only overwritten with replace=True, and only by a brain of
        its own game. `game` ('sticks' or 'nim'), if given, is the game the file must hold.
        Returns the name used. A refused file raises StoreError saying what is wrong, and changes nothing.
        """
        self.teacher_only("import a brain")
        source = Path(path)
        loaded = brainfile.read_brain_file(source)  # regular files only: a FIFO or a device never hangs
        if game is not None and loaded.game != game:
            raise StoreError(f"Cannot import {brainfile.clip_path(source)} as {brainfile.game_words(game)}: "
                             f"it holds {brainfile.game_words(loaded.game)}. Nothing was changed.")
        chosen = name if name is not None else loaded.name
        if chosen is None:
            raise InvalidName(f"The brain file {source} does not say its name; give one.")
        chosen = validate_name(chosen)
        self._save_new_brain(chosen, loaded.hats, loaded.games_trained, replace=replace,
                             action=f"import {source} as the brain {chosen!r}")
        return chosen


__all__ = ["BrainInfo", "GameRecord", "InvalidName", "PlayerRecord", "RecordedGame", "SeatLearning", "Store",
           "StoreError", "TeacherOnly", "fit_hats", "name_key", "replay", "resolve_data_dir", "validate_name", "ENV_DATA_DIR",
           "DB_FILENAME", "SCHEMA_VERSION", "BUSY_TIMEOUT_MS", "HUMAN_OPPONENTS"]
