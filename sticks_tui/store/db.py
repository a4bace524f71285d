"""The SQLite database behind `Store`.

Safety, in the order it matters:
- Every write is one `BEGIN IMMEDIATE ... COMMIT` transaction, so a game's record and both
  players' totals land together or not at all, and two processes never interleave half-writes.
- WAL journal with `synchronous=FULL`: a process killed mid-save (even SIGKILL) leaves the last
  committed data intact; readers never block the writer.
- `busy_timeout` (10 s): a second process waits for the lock instead of failing.
- `Store.open` never raises for the environment: a damaged file is moved aside (kept, never
  deleted) and a fresh one made; an unusable directory falls back to an in-memory database.
  What happened is told in `store.notices` in words a person can act on.
- A write that fails (disk full, read-only file) raises StoreError and changes nothing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.store import brainfile
from sticks_tui.store.errors import InvalidName, StoreError, validate_name

ENV_DATA_DIR = "STICKS_TUI_DATA_DIR"
APP_NAME = "sticks-tui"
DB_FILENAME = "sticks-tui.db"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_MS = 10_000
GAMES = ("sticks", "nim")
#: Opponent kinds in which both seats are people; any other kind puts an AI in seat 2 by default.
HUMAN_OPPONENTS = ("friend", "human")

# Each migration takes the schema from version - 1 to version; add new ones, never edit old ones.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        """CREATE TABLE players (
               name TEXT PRIMARY KEY COLLATE NOCASE,
               wins INTEGER NOT NULL DEFAULT 0,
               losses INTEGER NOT NULL DEFAULT 0,
               is_ai INTEGER NOT NULL DEFAULT 0,
               first_played TEXT NOT NULL,
               last_played TEXT NOT NULL)""",
        """CREATE TABLE games (
               id INTEGER PRIMARY KEY AUTOINCREMENT,
               played_at TEXT NOT NULL,
               game TEXT NOT NULL,
               start TEXT NOT NULL,
               opponent TEXT NOT NULL,
               player1 TEXT NOT NULL COLLATE NOCASE,
               player2 TEXT NOT NULL COLLATE NOCASE,
               ai1 INTEGER NOT NULL DEFAULT 0,
               ai2 INTEGER NOT NULL DEFAULT 0,
               moves TEXT NOT NULL,
               loser INTEGER NOT NULL CHECK (loser IN (0, 1)),
               brain TEXT COLLATE NOCASE)""",
        "CREATE INDEX games_player1 ON games(player1)",
        "CREATE INDEX games_player2 ON games(player2)",
        "CREATE INDEX games_brain ON games(brain)",
        """CREATE TABLE brains (
               name TEXT PRIMARY KEY COLLATE NOCASE,
               size INTEGER NOT NULL,
               max_take INTEGER NOT NULL,
               start_balls INTEGER NOT NULL,
               win_reward INTEGER NOT NULL,
               loss_penalty INTEGER NOT NULL,
               floor TEXT NOT NULL,
               counts TEXT NOT NULL,
               games_trained INTEGER NOT NULL DEFAULT 0,
               created TEXT NOT NULL,
               updated TEXT NOT NULL)""",
        """CREATE TABLE training_curves (
               brain TEXT PRIMARY KEY COLLATE NOCASE,
               saved_at TEXT NOT NULL,
               points TEXT NOT NULL)""",
    ],
}

# SQLite primary result codes (the low byte of an extended code)
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


def resolve_data_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The data directory: the argument (`--data-dir`), else $STICKS_TUI_DATA_DIR, else the user data dir."""
    if data_dir is not None and str(data_dir) != "":
        return Path(data_dir).expanduser()
    env = os.environ.get(ENV_DATA_DIR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


def _parse_time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    name: str
    wins: int
    losses: int
    rating: int  # wins - losses: the seeds' +1 for a win, -1 for a loss
    last_played: datetime | None
    is_ai: bool = False

    @property
    def games(self) -> int:
        return self.wins + self.losses


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    played_at: datetime
    game: str  # "sticks" or "nim"
    start: str  # "20" (sticks) or "3,4,5" (nim piles)
    opponent: str  # "friend", "learning", "trained", "random", "perfect", ...
    players: tuple[str, str]  # seat 1 (index 0) and seat 2 (index 1)
    moves: tuple  # sticks: ints taken in turn; nim: "pile:coins" strings, piles numbered from 1
    loser: int  # 0 or 1, an index into players
    brain: str | None
    ai_seats: tuple[int, ...] = ()

    @property
    def winner(self) -> int:
        return 1 - self.loser

    @property
    def loser_name(self) -> str:
        return self.players[self.loser]

    @property
    def winner_name(self) -> str:
        return self.players[self.winner]


@dataclass(frozen=True, slots=True)
class BrainInfo:
    name: str
    size: int
    max_take: int
    rule: HatRule
    games_trained: int
    updated: datetime
    created: datetime  # when this brain was made, copied or last reset: its own record counts from here


class _Corrupt(Exception):
    pass


class _TooNew(Exception):
    pass


def _code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


def _reason(exc: BaseException) -> str:
    code = _code(exc)
    if code == _FULL or "disk is full" in str(exc):
        return "the disk is full"
    if code == _READONLY:
        return "the database is read-only"
    if code in (_BUSY, _LOCKED):
        return f"the database stayed locked by another sticks-tui for over {BUSY_TIMEOUT_MS // 1000} seconds"
    if code == _IOERR:
        return f"the disk reported an error ({exc})"
    if code in (_CORRUPT, _NOTADB):
        return "the database file is damaged"
    if code == _CANTOPEN:
        return "the database file cannot be opened"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def _validate_hats(hats: object) -> Hats:
    if not isinstance(hats, Hats):
        raise TypeError(f"A brain is a Hats object, not {type(hats).__name__}.")
    if not 1 <= hats.size <= brainfile.MAX_HATS:
        raise StoreError(f"A brain holds 1 to {brainfile.MAX_HATS} hats, not {hats.size}.")
    if hats.counts.shape != (hats.size + 1, hats.max_take) or (hats.counts < 0).any():
        raise StoreError("This brain's counts are damaged (negative, or the wrong shape); it was not saved.")
    return hats


def fit_hats(hats: Hats, size: int) -> Hats:
    """`hats` with at least `size` hats: new hats (fresh balls) are added, learned ones kept."""
    if hats.size >= size:
        return hats
    counts = Hats.fresh_counts(size, hats.max_take, hats.rule.start_balls)
    counts[: hats.size + 1] = hats.counts
    return Hats(size, hats.max_take, hats.rule, counts)


def _normalise_game(game: str, start, moves, loser: int) -> tuple[str, list]:
    """Check a finished game's description; return (start, moves) in their stored form."""
    if game not in GAMES:
        raise ValueError(f"The game is one of {', '.join(GAMES)}, not {game!r}.")
    if loser not in (0, 1) or isinstance(loser, bool):
        raise ValueError(f"The loser is seat 0 or seat 1, not {loser!r}.")
    if game == "sticks":
        try:
            heap = int(start)
        except (TypeError, ValueError):
            raise ValueError(f"A game of sticks starts from a number of sticks, not {start!r}.") from None
        taken = []
        for m in moves:
            if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 1:
                raise ValueError(f"A move in sticks takes a whole number of sticks (1 or more), not {m!r}.")
            taken.append(int(m))
        if heap < 1 or sum(taken) != heap:
            raise ValueError(f"The moves {taken} do not take exactly the {heap} sticks the game started with.")
        return str(heap), taken
    # nim: start "3,4,5" (or a sequence of ints); moves "pile:coins" (or (pile, coins)), piles from 1
    try:
        piles = [int(p) for p in (start.split(",") if isinstance(start, str) else start)]
    except (TypeError, ValueError):
        raise ValueError(f"A game of Nim starts from piles like '3,4,5', not {start!r}.") from None
    if not piles or any(p < 0 for p in piles) or sum(piles) < 1:
        raise ValueError(f"A game of Nim starts from piles with coins in them, not {start!r}.")
    left = list(piles)
    stored = []
    for m in moves:
        try:
            pile, coins = (m.split(":") if isinstance(m, str) else m)
            pile, coins = int(pile), int(coins)
        except (TypeError, ValueError):
            raise ValueError(f"A Nim move is 'pile:coins' (e.g. '2:3'), not {m!r}.") from None
        if not 1 <= pile <= len(left) or not 1 <= coins <= left[pile - 1]:
            raise ValueError(f"The Nim move {m!r} takes coins that are not there.")
        left[pile - 1] -= coins
        stored.append(f"{pile}:{coins}")
    if any(left):
        raise ValueError(f"The moves {stored} do not empty the piles {start!r}.")
    return ",".join(map(str, piles)), stored


class Store:
    """Records and brains in one SQLite database. Safe to share between threads and processes."""

    def __init__(self, conn: sqlite3.Connection, path: Path | None, notices: list[str] | None = None) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self.path = path
        self.notices: list[str] = notices if notices is not None else []

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, data_dir: str | os.PathLike | None = None) -> Store:
        """Open (or create) the database; never raises for the environment (see module docstring)."""
        notices: list[str] = []
        try:
            directory = resolve_data_dir(data_dir)
        except Exception as exc:  # platformdirs cannot find a home directory, and the like
            notices.append(f"Cannot find a data directory ({exc}). "
                           "Records and brains are kept only until you quit.")
            return cls.memory(notices)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            if not directory.is_dir():
                raise NotADirectoryError(f"{directory} is not a directory")
        except OSError as exc:
            notices.append(f"Cannot use the data directory {directory} ({_reason(exc)}). "
                           "Records and brains are kept only until you quit.")
            return cls.memory(notices)
        path = directory / DB_FILENAME
        for attempt in range(2):
            try:
                return cls(_connect_file_patiently(path), path, notices)
            except _Corrupt as exc:
                if attempt:
                    break
                try:
                    moved = _move_aside(path)
                except OSError as move_exc:
                    notices.append(f"The database {path} is damaged ({exc}) and could not be moved aside "
                                   f"({_reason(move_exc)}). Records and brains are kept only until you quit.")
                    return cls.memory(notices)
                notices.append(f"The database {path} was damaged ({exc}). It was moved to {moved} (kept, "
                               "not deleted) and a fresh database was started.")
            except _TooNew as exc:
                notices.append(f"The database {path} was written by a newer sticks-tui (schema version {exc}; "
                               f"this one knows up to {SCHEMA_VERSION}). It was left untouched; records and "
                               "brains are kept only until you quit.")
                return cls.memory(notices)
            except (sqlite3.Error, OSError) as exc:
                notices.append(f"Cannot use the database {path} ({_reason(exc)}). "
                               "Records and brains are kept only until you quit.")
                return cls.memory(notices)
        notices.append(f"A fresh database at {path} could not be started either. "
                       "Records and brains are kept only until you quit.")
        return cls.memory(notices)

    @classmethod
    def memory(cls, notices: list[str] | None = None) -> Store:
        """A database that lives only as long as this process (tests; the fallback of `open`)."""
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _migrate(conn)
        return cls(conn, None, notices)

    @property
    def persistent(self) -> bool:
        """Whether what is saved outlives this process."""
        return self.path is not None

    @property
    def location(self) -> str:
        return str(self.path) if self.path is not None else "a database in memory only"

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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
                raise StoreError(f"Cannot {action}: {_reason(exc)} ({self.location}). {consequence}") from None
            try:
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                _rollback(conn)
                raise StoreError(f"Cannot {action}: {_reason(exc)} ({self.location}). {consequence}") from None
            except BaseException:
                _rollback(conn)
                raise

    @contextmanager
    def _read(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._connection()
            try:
                yield conn
            except sqlite3.Error as exc:
                raise StoreError(f"Cannot {action}: {_reason(exc)} ({self.location}).") from None

    # -- games and players -------------------------------------------------------------------
    def record_game(self, *, game: str = "sticks", start: str | int | Sequence[int], opponent: str,
                    players: Sequence[str], moves: Sequence, loser: int, brain: str | None = None,
                    ai_seats: Sequence[int] | None = None, played_at: datetime | None = None) -> int:
        """Keep a finished game and add it to both players' wins and losses, in one transaction.

        `players` are seat 1 and seat 2 (indices 0 and 1); `loser` is the index of the one who lost.
        Sticks: `start` is the heap ("20" or 20), `moves` the sticks taken in turn.
        Nim: `start` is the piles ("3,4,5" or (3, 4, 5)), `moves` "pile:coins" strings (piles from 1).
        `ai_seats`: the seats an AI played (default: none for a "friend" game, else seat 2). `brain` is
        the AI's brain, whose own record `brain_record` counts. Returns the game's id.
        """
        if len(players) != 2:
            raise ValueError(f"A game has two players, not {len(players)}.")
        names = (validate_name(players[0], "player"), validate_name(players[1], "player"))
        if names[0].casefold() == names[1].casefold():
            raise InvalidName(f"The two players need different names (both are {names[0]!r}).")
        start_text, stored_moves = _normalise_game(game, start, moves, loser)
        if not isinstance(opponent, str) or not opponent:
            raise ValueError(f"The opponent kind is a word like 'friend' or 'learning', not {opponent!r}.")
        seats = tuple(sorted(set(ai_seats))) if ai_seats is not None else \
            (() if opponent in HUMAN_OPPONENTS else (1,))
        if any(s not in (0, 1) for s in seats):
            raise ValueError(f"AI seats are 0 and/or 1, not {ai_seats!r}.")
        brain_name = validate_name(brain) if brain is not None else None
        when = (played_at.astimezone(timezone.utc).isoformat(timespec="microseconds")
                if played_at is not None else _now())
        with self._write("save this game", "The game goes on, but this result is not kept.") as conn:
            cur = conn.execute(
                "INSERT INTO games (played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, "
                "brain) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (when, game, start_text, opponent, names[0], names[1], int(0 in seats), int(1 in seats),
                 json.dumps(stored_moves), loser, brain_name))
            for seat, name in enumerate(names):
                won = int(seat != loser)
                conn.execute(
                    "INSERT INTO players (name, wins, losses, is_ai, first_played, last_played) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET "
                    "wins = wins + excluded.wins, losses = losses + excluded.losses, "
                    "is_ai = MAX(is_ai, excluded.is_ai), last_played = MAX(last_played, excluded.last_played)",
                    (name, won, 1 - won, int(seat in seats), when, when))
            return int(cur.lastrowid)

    def leaderboard(self, include_ai: bool = True) -> list[PlayerRecord]:
        """Every player, best rating (wins - losses) first; ties by more wins, then by name."""
        where = "" if include_ai else "WHERE is_ai = 0"
        with self._read("read the records") as conn:
            rows = conn.execute(
                f"SELECT name, wins, losses, last_played, is_ai FROM players {where} "
                "ORDER BY wins - losses DESC, wins DESC, name COLLATE NOCASE").fetchall()
        return [PlayerRecord(n, w, lo, w - lo, _parse_time(t), bool(ai)) for n, w, lo, t, ai in rows]

    def player(self, name: str) -> PlayerRecord | None:
        with self._read("read the records") as conn:
            row = conn.execute("SELECT name, wins, losses, last_played, is_ai FROM players WHERE name = ?",
                               (name,)).fetchone()
        if row is None:
            return None
        n, w, lo, t, ai = row
        return PlayerRecord(n, w, lo, w - lo, _parse_time(t), bool(ai))

    def recent_games(self, player: str | None = None, limit: int = 20) -> list[GameRecord]:
        """The latest finished games, newest first; only `player`'s if given."""
        sql = ("SELECT id, played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, brain "
               "FROM games")
        params: tuple = ()
        if player is not None:
            sql += " WHERE player1 = ? OR player2 = ?"
            params = (player, player)
        sql += " ORDER BY id DESC LIMIT ?"
        with self._read("read the games") as conn:
            rows = conn.execute(sql, params + (max(0, int(limit)),)).fetchall()
        games = []
        for gid, when, game, start, opp, p1, p2, ai1, ai2, moves, loser, brain in rows:
            seats = tuple(s for s, flag in ((0, ai1), (1, ai2)) if flag)
            games.append(GameRecord(gid, _parse_time(when), game, start, opp, (p1, p2),
                                    tuple(json.loads(moves)), loser, brain, seats))
        return games

    def game_count(self) -> int:
        with self._read("read the games") as conn:
            return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def brain_record(self, name: str) -> tuple[int, int]:
        """The AI's own (wins, losses) with this brain, since the brain was made or last reset."""
        with self._read("read the records") as conn:
            row = conn.execute("SELECT created FROM brains WHERE name = ?", (name,)).fetchone()
            since = row[0] if row else ""
            wins, losses = conn.execute(
                "SELECT COALESCE(SUM((ai1 AND loser = 1) + (ai2 AND loser = 0)), 0), "
                "       COALESCE(SUM((ai1 AND loser = 0) + (ai2 AND loser = 1)), 0) "
                "FROM games WHERE brain = ? AND played_at >= ?", (name, since)).fetchone()
        return int(wins), int(losses)

    def reset_records(self) -> None:
        """Forget every player's record and every game (brains are kept)."""
        with self._write("reset the records") as conn:
            conn.execute("DELETE FROM games")
            conn.execute("DELETE FROM players")

    def reset_player(self, name: str) -> None:
        """Take a player off the leaderboard (their wins and losses); the game history is kept."""
        with self._write(f"reset {name!r}") as conn:
            if conn.execute("DELETE FROM players WHERE name = ?", (name,)).rowcount == 0:
                raise StoreError(f"There is no player called {name!r}.")

    # -- brains ------------------------------------------------------------------------------
    def list_brains(self) -> list[BrainInfo]:
        with self._read("list the brains") as conn:
            rows = conn.execute(
                "SELECT name, size, max_take, start_balls, win_reward, loss_penalty, floor, games_trained, "
                "updated, created FROM brains ORDER BY name COLLATE NOCASE").fetchall()
        return [BrainInfo(n, size, mt, HatRule(sb, wr, lp, fl), g, _parse_time(u), _parse_time(c))
                for n, size, mt, sb, wr, lp, fl, g, u, c in rows]

    def brain_info(self, name: str) -> BrainInfo | None:
        for info in self.list_brains():
            if info.name.casefold() == name.casefold():
                return info
        return None

    def load_brain(self, name: str) -> Hats | None:
        """The brain called `name`, or None if there is none."""
        with self._read(f"load the brain {name!r}") as conn:
            row = conn.execute(
                "SELECT size, max_take, start_balls, win_reward, loss_penalty, floor, counts "
                "FROM brains WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        size, max_take, sb, wr, lp, fl, counts = row
        try:
            hats = Hats.from_lists(json.loads(counts), max_take=max_take, rule=HatRule(sb, wr, lp, fl))
            if hats.size != size:
                raise ValueError(f"it has {hats.size} hats, not {size}")
        except (ValueError, TypeError) as exc:
            raise StoreError(f"The brain {name!r} in {self.location} is damaged ({exc}); "
                             "reset or delete it.") from None
        return hats

    def load_or_create_brain(self, name: str, size: int, max_take: int = 3, rule: HatRule | None = None) -> Hats:
        """The brain called `name` with at least `size` hats; a fresh one (saved) if there is none.

        A stored brain smaller than `size` comes back grown with fresh hats (saved at its next save).
        """
        name = validate_name(name)
        hats = self.load_brain(name)
        if hats is None:
            hats = Hats(size, max_take, rule)
            self.save_brain(name, hats)
            return hats
        if hats.max_take != max_take:
            raise StoreError(f"The brain {name!r} plays with at most {hats.max_take} sticks a move, "
                             f"not {max_take}.")
        return fit_hats(hats, size)

    def save_brain(self, name: str, hats: Hats, games_trained: int = 0, *, replace: bool = False) -> None:
        """Save `hats` as brain `name`; `games_trained` is added to its total.

        replace=True starts the brain anew: its total becomes `games_trained` and its own record
        starts from now (as after a reset).
        """
        name = validate_name(name)
        hats = _validate_hats(hats)
        if isinstance(games_trained, bool) or not isinstance(games_trained, int) or games_trained < 0:
            raise ValueError(f"Games trained is a whole number of 0 or more, not {games_trained!r}.")
        now = _now()
        rule = hats.rule
        counts = json.dumps(hats.as_lists(), separators=(",", ":"))
        with self._write(f"save the brain {name!r}",
                         "The AI plays on, but what it learned since the last save is not kept.") as conn:
            if replace:
                conn.execute("DELETE FROM brains WHERE name = ?", (name,))
            conn.execute(
                "INSERT INTO brains (name, size, max_take, start_balls, win_reward, loss_penalty, floor, counts, "
                "games_trained, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET size = excluded.size, max_take = excluded.max_take, "
                "start_balls = excluded.start_balls, win_reward = excluded.win_reward, "
                "loss_penalty = excluded.loss_penalty, floor = excluded.floor, counts = excluded.counts, "
                "games_trained = games_trained + excluded.games_trained, updated = excluded.updated",
                (name, hats.size, hats.max_take, rule.start_balls, rule.win_reward, rule.loss_penalty, rule.floor,
                 counts, games_trained, now, now))

    def _require_brain(self, conn: sqlite3.Connection, name: str) -> str:
        row = conn.execute("SELECT name FROM brains WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise StoreError(f"There is no brain called {name!r}.")
        return row[0]

    def copy_brain(self, src: str, dst: str) -> None:
        """A new brain `dst` with `src`'s hats and games trained; its own record starts empty."""
        dst = validate_name(dst)
        now = _now()
        with self._write(f"copy the brain {src!r}") as conn:
            self._require_brain(conn, src)
            if conn.execute("SELECT 1 FROM brains WHERE name = ?", (dst,)).fetchone():
                raise StoreError(f"A brain called {dst!r} already exists; pick another name or delete it first.")
            conn.execute(
                "INSERT INTO brains (name, size, max_take, start_balls, win_reward, loss_penalty, floor, counts, "
                "games_trained, created, updated) SELECT ?, size, max_take, start_balls, win_reward, "
                "loss_penalty, floor, counts, games_trained, ?, ? FROM brains WHERE name = ?",
                (dst, now, now, src))

    def reset_brain(self, name: str) -> None:
        """Make the brain forget everything: fresh hats (same size and rule), 0 games, record from now."""
        now = _now()
        with self._write(f"reset the brain {name!r}") as conn:
            self._require_brain(conn, name)
            size, max_take, sb, wr, lp, fl = conn.execute(
                "SELECT size, max_take, start_balls, win_reward, loss_penalty, floor FROM brains WHERE name = ?",
                (name,)).fetchone()
            fresh = Hats(size, max_take, HatRule(sb, wr, lp, fl))
            conn.execute("UPDATE brains SET counts = ?, games_trained = 0, created = ?, updated = ? WHERE name = ?",
                         (json.dumps(fresh.as_lists(), separators=(",", ":")), now, now, name))
            conn.execute("DELETE FROM training_curves WHERE brain = ?", (name,))

    def delete_brain(self, name: str) -> None:
        """Delete a brain and its training curve (games played with it stay in the history)."""
        with self._write(f"delete the brain {name!r}") as conn:
            self._require_brain(conn, name)
            conn.execute("DELETE FROM brains WHERE name = ?", (name,))
            conn.execute("DELETE FROM training_curves WHERE brain = ?", (name,))

    def rename_brain(self, old: str, new: str) -> None:
        """Rename a brain; its games and training curve follow it."""
        new = validate_name(new)
        with self._write(f"rename the brain {old!r}") as conn:
            current = self._require_brain(conn, old)
            if current.casefold() != new.casefold() and \
                    conn.execute("SELECT 1 FROM brains WHERE name = ?", (new,)).fetchone():
                raise StoreError(f"A brain called {new!r} already exists; pick another name.")
            conn.execute("UPDATE brains SET name = ? WHERE name = ?", (new, old))
            conn.execute("UPDATE games SET brain = ? WHERE brain = ?", (new, old))
            conn.execute("UPDATE training_curves SET brain = ? WHERE brain = ?", (new, old))

    def save_training_curve(self, brain: str, curve: Sequence[tuple[int, float, float]]) -> None:
        """Keep the learning curve of `brain`'s last training run (replacing the previous one)."""
        brain = validate_name(brain)
        points = [[int(g), _finite(a), _finite(w)] for g, a, w in curve]
        with self._write(f"save the training curve of {brain!r}") as conn:
            conn.execute("INSERT OR REPLACE INTO training_curves (brain, saved_at, points) VALUES (?, ?, ?)",
                         (brain, _now(), json.dumps(points, separators=(",", ":"))))

    def last_training_curve(self, brain: str) -> list[tuple[int, float, float]]:
        """(games done, agreement, win probability vs perfect) points; [] if never trained."""
        with self._read(f"read the training curve of {brain!r}") as conn:
            row = conn.execute("SELECT points FROM training_curves WHERE brain = ?", (brain,)).fetchone()
        if row is None:
            return []
        nan = float("nan")
        return [(int(g), nan if a is None else float(a), nan if w is None else float(w))
                for g, a, w in json.loads(row[0])]

    # -- brain files -------------------------------------------------------------------------
    def export_brain(self, name: str, path: str | os.PathLike) -> None:
        """Write brain `name` to a JSON brain file (replacing `path` whole, never half-written)."""
        hats = self.load_brain(name)
        info = self.brain_info(name)
        if hats is None or info is None:
            raise StoreError(f"There is no brain called {name!r}.")
        text = brainfile.encode(info.name, hats, info.games_trained, _now())
        target = Path(path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(text)
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(tmp, target)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        except OSError as exc:
            raise StoreError(f"Cannot write the brain file {target}: {_reason(exc)}.") from None

    def import_brain(self, path: str | os.PathLike, name: str | None = None, *, replace: bool = False) -> str:
        """Read a brain file, check all of it, and save it as `name` (else the file's own name).

        A brain that already exists is only overwritten with replace=True. Returns the name used.
        A refused file raises StoreError saying what is wrong, and changes nothing.
        """
        source = Path(path)
        try:
            with open(source, "rb") as fh:
                data = fh.read(brainfile.MAX_BRAIN_FILE_BYTES + 1)
        except OSError as exc:
            raise StoreError(f"Cannot read the brain file {source}: {_reason(exc)}.") from None
        loaded = brainfile.decode(data, str(source))
        chosen = name if name is not None else loaded.name
        if chosen is None:
            raise InvalidName(f"The brain file {source} does not say its name; give one.")
        chosen = validate_name(chosen)
        existing = self.brain_info(chosen)
        if existing is not None and not replace:
            raise StoreError(f"A brain called {existing.name!r} already exists; import under another name, "
                             "or replace it. Nothing was changed.")
        self.save_brain(chosen, loaded.hats, loaded.games_trained, replace=True)
        return chosen


def _finite(x: float) -> float | None:
    x = float(x)
    return None if x != x or x in (float("inf"), float("-inf")) else x


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _connect_file(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                           check_same_thread=False)
    try:
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = FULL")
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            if _code(exc) in (_CORRUPT, _NOTADB):
                raise _Corrupt(str(exc)) from None
            raise
        if check != "ok":
            raise _Corrupt(check)
        try:
            _migrate(conn)
        except sqlite3.DatabaseError as exc:
            if _code(exc) in (_CORRUPT, _NOTADB):
                raise _Corrupt(str(exc)) from None
            raise
    except BaseException:
        conn.close()
        raise
    return conn


def _connect_file_patiently(path: Path) -> sqlite3.Connection:
    """`_connect_file`, tried again while another process holds a lock SQLite will not wait for.

    Switching a new file to WAL and creating the schema take locks for which SQLite answers
    "busy" at once instead of calling its busy handler, so two copies starting together on a
    fresh database would otherwise see one of them give up.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.01
    while True:
        try:
            return _connect_file(path)
        except sqlite3.OperationalError as exc:
            if _code(exc) not in (_BUSY, _LOCKED) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.25)


def _schema_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
    if not exists:
        return 0
    return conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema up to SCHEMA_VERSION, each step in the same transaction as its version row."""
    current = _schema_version(conn)
    if current > SCHEMA_VERSION:
        raise _TooNew(current)
    if current == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0] \
                and _schema_version(conn) == 0:
            raise _Corrupt("it holds tables that are not sticks-tui's")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)")
        current = _schema_version(conn)  # another process may have migrated while we waited
        if current > SCHEMA_VERSION:
            raise _TooNew(current)
        for version in range(current + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, _now()))
        conn.execute("COMMIT")
    except BaseException:
        _rollback(conn)
        raise


def _move_aside(path: Path) -> Path:
    """Rename a damaged database (and its -wal/-shm files) next to itself; never delete it."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target


__all__ = ["BrainInfo", "GameRecord", "InvalidName", "PlayerRecord", "Store", "StoreError", "fit_hats",
           "resolve_data_dir", "validate_name", "ENV_DATA_DIR", "DB_FILENAME", "SCHEMA_VERSION"]
