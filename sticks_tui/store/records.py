"""Games and players: every finished game, checked by replaying it through the engine, and the
wins and losses of every player. A game that teaches a brain is kept in the same transaction as
what it taught (see `brains.BrainsMixin._learn`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import DRAW, LOSS
from sticks_tui.engine.state import GameState
from sticks_tui.learn.hats import forced
from sticks_tui.store.connection import now, parse_time
from sticks_tui.store.errors import InvalidName, StoreError, validate_name
from sticks_tui.store.names import ai_name_of, ai_names, name_key

#: Opponent kinds in which both seats are people; any other kind puts an AI in seat 2 by default.
HUMAN_OPPONENTS = vocabulary.HUMAN_OPPONENTS


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    name: str
    wins: int
    losses: int
    rating: int  # wins - losses: the seeds' +1 for a win, -1 for a loss (a draw: 0)
    last_played: datetime | None
    is_ai: bool = False
    draws: int = 0  # games nobody won (noughts and crosses)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class SeatLearning:
    """What one learning seat's brain took from a game: the balls it drew and each change applied.

    Sticks: a hat is the heap (int) and a ball the sticks taken (int). Nim: a hat is the piles
    (n, d, q) and a ball the move (pile, coins) with piles numbered from 0, as the engine has them.
    """

    seat: int
    brain: str
    won: bool
    drawn: tuple[tuple, ...]
    changes: tuple[tuple, ...]  # (hat, ball, before, after)
    #: The hats as they were before the game: ((hat, (count, ...)), ...); None for a game kept before
    #: sticks-tui stored them (schema version 3), whose replay shows the draws and changes only.
    #: MENACE: (board, (beads for squares 1-9 of that board, ...)) for each box it drew from.
    hats: tuple[tuple, ...] | None = None
    outcome: int | None = None  # +1 won, 0 drew, -1 lost (None: kept before draws were, `won` says it)

    def hats_before(self) -> dict:
        """{hat: (count, ...)} before the game ({} when they were not kept)."""
        return {h: tuple(c) for h, c in (self.hats or ())}


@dataclass(frozen=True, slots=True)
class SharedName:
    """One row of the records that a person and an AI share (`RecordsMixin.shared_names`)."""

    key: str
    people: tuple[tuple[str, int], ...]  # (name as typed, games played under it as a person)
    ais: tuple[str, ...]  # the AI's names under the same key

    def sentence(self) -> str:
        people = ", ".join(f"{n!r} ({c} {'game' if c == 1 else 'games'})" for n, c in self.people)
        return (f"The person {people} and the AI {', '.join(map(repr, self.ais))} are one name by the name rule "
                f"({self.key!r}): their wins and losses are counted together in one row.")


#: How long `NameClash.short` tries to stay: the setup screen's one line for a refusal at 80 columns.
SHORT_LINE = 56


class NameClash(InvalidName):
    """Two names that are one by the name rule, or a person's and an AI's: `short` says it in a line a screen
    can show, `seat` is the name to change."""

    def __init__(self, message: str, short: str, seat: int) -> None:
        super().__init__(message)
        self.short = short
        self.seat = seat


def check_names(players: Sequence[str], ai_seats: Sequence[int]) -> tuple[str, str]:
    """The two players' names by the naming rule, or InvalidName: each a valid name, the two different by the
    name rule (`name_key`), and no person under an AI's name."""
    if isinstance(players, str) or len(players) != 2:
        raise ValueError(f"A game has two players, not {len(players)}.")
    names = (validate_name(players[0], "player"), validate_name(players[1], "player"))
    for seat, name in enumerate(names):
        ai = ai_name_of(name)
        if seat not in ai_seats and ai is not None:
            short = f"'{name}' is the {ai}'s name: choose another."
            if len(short) > SHORT_LINE:
                short = f"'{name}' is an AI's name: choose another."
            raise NameClash(person_as_ai(name, ai), short, seat)
    if name_key(names[0]) == name_key(names[1]):
        raise NameClash(f"The two players need different names: {names[0]!r} and {names[1]!r} are the same name "
                        f"by the name rule (both {name_key(names[0])!r}).",
                        f"'{names[0]}' and '{names[1]}' are the same name: change one.", 0)
    return names


def _check_rows(conn, names: Sequence[str], ai_seats: Sequence[int]) -> None:
    """A person never shares a row of the records with an AI, nor an AI with a person."""
    for seat, name in enumerate(names):
        row = conn.execute("SELECT name, is_ai FROM players WHERE key = ?", (name_key(name),)).fetchone()
        if row is not None and seat not in ai_seats and row[1]:
            raise NameClash(person_as_ai(name, row[0]), f"'{name}' is an AI's name in the records: choose "
                            "another.", seat)
        if row is not None and seat in ai_seats and not row[1] and ai_name_of(name) is None:
            raise NameClash(f"{name!r} is a person's name in the records ({row[0]!r}, the same name by the name "
                            "rule): an AI cannot play under it.", f"'{name}' is a person's name in the records.", seat)


def person_as_ai(name: str, ai: str) -> str:
    """Why a person cannot play under `name`: it is the AI `ai`'s name by the name rule."""
    return (f"{name!r} is the name of an AI in the records ({ai!r}, the same name by the name rule): a person "
            "cannot play under it, or their games would count as the AI's. Please choose another name.")


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    played_at: datetime
    game: str  # "sticks" or "nim"
    start: str  # "20" (sticks) or "3,4,5" (nim piles)
    opponent: str  # "friend", "learning", "trained", "random", "perfect", ...
    players: tuple[str, str]  # seat 1 (index 0) and seat 2 (index 1)
    moves: tuple  # sticks: ints taken in turn; nim: "pile:coins" strings, piles numbered from 1
    loser: int | None  # 0 or 1, an index into players; None: a draw
    brain: str | None
    ai_seats: tuple[int, ...] = ()
    learning: tuple[SeatLearning, ...] = ()  # what a replay needs, per learning seat
    starter: int | None = None  # the seat that moved first, as kept (None: it follows from the loser)
    resigned: bool = False  # the loser resigned at its turn (MENACE's empty box): the moves do not finish the game

    @property
    def drawn(self) -> bool:
        return self.loser is None

    @property
    def winner(self) -> int | None:
        return None if self.loser is None else 1 - self.loser

    @property
    def loser_name(self) -> str | None:
        return None if self.loser is None else self.players[self.loser]

    @property
    def winner_name(self) -> str | None:
        return None if self.loser is None else self.players[1 - self.loser]

    @property
    def result_words(self) -> str:
        """'Ann lost', 'MENACE resigned', or 'a draw'."""
        if self.loser is None:
            return "a draw"
        return f"{self.players[self.loser]} {'resigned' if self.resigned else 'lost'}"

    @property
    def first(self) -> int:
        """The seat that moved first (as kept, or what the loser, the number of moves and the rules imply)."""
        return replay(self.game, self.start, self.moves, self.loser, first=self.starter, resigned=self.resigned).first


class RecordedGame(int):
    """The id of a recorded game (an int, as before), carrying what its learning did.

    `brains`: {seat: the brain as now stored, after this game's learning}; `changes`: {seat: the
    HatChanges applied}. Both are empty for a game that taught no brain.
    """

    brains: dict
    changes: dict

    def __new__(cls, game_id: int, brains: dict | None = None, changes: dict | None = None) -> RecordedGame:
        obj = super().__new__(cls, game_id)
        obj.brains = brains or {}
        obj.changes = changes or {}
        return obj


@dataclass(frozen=True, slots=True)
class Replayed:
    start: str  # stored form
    moves: list  # stored form
    turns: tuple[tuple[int, object, object], ...]  # (seat, hat, ball) of every move, in order
    rules: object = None  # the rules it was replayed under
    first: int = 0  # the seat that moved first (also when no move was made: resigned at the start)


def replay(game: str, start, moves: Sequence, loser: int | None, max_take: int | None = None, *,
           first: int | None = None, resigned: bool = False) -> Replayed:
    """Replay a finished game through the engine; return it in stored form, or raise ValueError.

    The seat that moved first follows from the loser, the number of moves and how the game ends for
    the last mover (the rules' `outcome`: at sticks the last mover loses, at Nim it wins), so every
    move's seat is known. A draw (`loser` None) has no loser to tell it: `first` says it. `resigned`:
    the loser resigned when it was its turn (MENACE with an empty box), so the moves stop before the
    game is over and the loser is the seat to move.
    """
    kind = registry.entry(game)
    if loser is not None and (loser not in (0, 1) or isinstance(loser, bool)):
        raise ValueError(f"The loser is seat 0 or seat 1 (None: a draw), not {loser!r}.")
    if first is not None and (first not in (0, 1) or isinstance(first, bool)):
        raise ValueError(f"The seat that moved first is 0 or 1, not {first!r}.")
    moves = list(moves)
    position = kind.parse_start(start)
    parsed = [kind.parse_move(m) for m in moves]
    try:
        rules = kind.make_rules(position, max_take, parsed)
        state = GameState(rules, position)
    except IllegalMove as exc:
        raise ValueError(f"A game of {kind.title} cannot start from {start!r} ({exc})") from None
    if state.is_over:
        raise ValueError(f"A game of {kind.title} cannot start where it is over ({start!r}).")
    for move, given in zip(parsed, moves, strict=True):
        try:
            state = state.play(move)
        except IllegalMove as exc:
            raise ValueError(kind.illegal_message(given, exc)) from None
    if resigned:
        if state.is_over:
            raise ValueError("A game that is over cannot end by a resignation.")
        if loser is None:
            raise ValueError("A resigned game has a loser: the seat that resigned (0 or 1).")
        implied = (loser - len(parsed)) % 2  # the loser was the one to move
        if first is not None and first != implied:
            raise ValueError(f"Seat {loser} cannot have resigned at its turn after {len(parsed)} moves "
                             f"with seat {first} moving first.")
        first = implied
    elif not state.is_over:
        raise ValueError(kind.unfinished_message(start, moves))
    elif (outcome := rules.outcome(state.position)) == DRAW:
        if loser is not None:
            raise ValueError(f"The game is a draw: nobody lost, not seat {loser}.")
        if first is None:
            raise ValueError("A drawn game needs the seat that moved first (0 or 1): no loser tells it.")
    else:
        if loser is None:
            raise ValueError("The game was won, not drawn: give its loser (seat 0 or 1).")
        last = loser if outcome == LOSS else 1 - loser
        implied = (last - (len(parsed) - 1)) % 2
        if first is not None and first != implied:
            raise ValueError(f"Seat {first} cannot have moved first: with seat {loser} losing, seat {implied} did.")
        first = implied
    turns = tuple(((first + i) % 2, t.before, t.move) for i, t in enumerate(state.history))
    return Replayed(kind.record_start(position), [kind.record_move(rules, t.move) for t in state.history],
                    turns, rules, first)


def _as_played(rules, hat, ball):
    """A drawn (hat, ball) as the rules' position and move (as given when it is not one)."""
    try:
        position = rules.decode_position(hat)
        return position, rules.decode_move(position, ball)
    except ValueError:
        return hat, ball


def _jsonable(x):
    return [_jsonable(v) for v in x] if isinstance(x, (tuple, list)) else int(x)


def _tuples(x):
    return tuple(_tuples(v) for v in x) if isinstance(x, list) else x


#: A game's columns as `_game_record` reads them (a draw's loser read as None).
GAME_COLUMNS = ("id, played_at, game, start, opponent, player1, player2, ai1, ai2, moves, "
                "CASE WHEN draw THEN NULL ELSE loser END, brain, first, resigned")


def _game_record(row, learned: dict) -> GameRecord:
    gid, when, game, start, opp, p1, p2, ai1, ai2, moves, loser, brain, first, resigned = row
    seats = tuple(s for s, flag in ((0, ai1), (1, ai2)) if flag)
    return GameRecord(gid, parse_time(when), game, start, opp, (p1, p2), tuple(json.loads(moves)), loser, brain,
                      seats, learned.get(gid, ()), first, bool(resigned))


class RecordsMixin:
    """The records half of `Store` (needs `_write`, `_read` and the brains half's `_learn`)."""

    def record_game(self, *, game: str | None = None, start: str | int | Sequence[int], opponent: str,
                    players: Sequence[str], moves: Sequence, loser: int | None, brain: str | None = None,
                    ai_seats: Sequence[int] | None = None, played_at: datetime | None = None,
                    learning: Mapping[int, tuple[str, Sequence]] | None = None,
                    max_take: int | None = None, first: int | None = None, resigned: bool = False) -> RecordedGame:
        """Keep a finished game and add it to both players' wins and losses, in one transaction.

        `players` are seat 1 and seat 2 (indices 0 and 1); `loser` is the index of the one who lost,
        None for a draw (noughts and crosses), which also needs `first`, the seat that moved first.
        `game` None: the first game's (`registry.first_name`). Sticks: `start` is the heap ("20" or 20), `moves` the sticks taken in turn.
        Nim: `start` is the piles ("3,4,5" or (3, 4, 5)), `moves` "pile:coins" strings (piles from 1).
        The game is replayed through the engine; one that breaks the rules raises ValueError.
        `ai_seats`: the seats an AI played (default: none for a "friend" game, else seat 2). `brain` is
        the AI's brain, whose own record `brain_record` counts.

        `learning`: {seat: (brain name, [(hat, ball), ...] drawn by that seat)}. In the same
        transaction each brain is read as stored, the hat rule applied to each drawn ball (won =
        that seat did not lose) and the brain written back; the balls and every change are kept
        with the game. The drawn balls must be exactly that seat's moves (sticks: (heap, take);
        Nim: ((n, d, q), (pile, coins)) with piles from 0).

        `resigned`: the loser resigned at its turn (MENACE with an empty box): the moves stop before
        the game is over, and it counts as a win and a loss like any other.

        Returns the game's id (an int) with `.brains` {seat: stored brain after it} and `.changes`.
        """
        if not isinstance(opponent, str) or not opponent:
            raise ValueError(f"The opponent kind is a word like 'friend' or 'learning', not {opponent!r}.")
        game = registry.first_name() if game is None else game
        seats = self._ai_seats(opponent, ai_seats)
        names = check_names(players, seats)
        played = replay(game, start, moves, loser, max_take, first=first, resigned=resigned)
        brain_name = validate_name(brain) if brain is not None else None
        lessons = self._check_learning(game, played, learning or {})
        when = (played_at.astimezone(timezone.utc).isoformat(timespec="microseconds")
                if played_at is not None else now())
        with self._write("save this game", "The game goes on, but this result is not kept.") as conn:
            _check_rows(conn, names, seats)
            cur = conn.execute(
                "INSERT INTO games (played_at, game, start, opponent, player1, player2, ai1, ai2, moves, loser, "
                "brain, player1_key, player2_key, brain_key, draw, first, resigned) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (when, game, played.start, opponent, names[0], names[1], int(0 in seats), int(1 in seats),
                 json.dumps(played.moves), loser or 0, brain_name, name_key(names[0]), name_key(names[1]),
                 name_key(brain_name) if brain_name is not None else None, int(loser is None), played.first,
                 int(bool(resigned))))
            game_id = int(cur.lastrowid)
            for seat, name in enumerate(names):
                won, lost = (0, 0) if loser is None else (int(seat != loser), int(seat == loser))
                conn.execute(
                    "INSERT INTO players (name, key, wins, losses, draws, is_ai, first_played, last_played) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                    "wins = wins + excluded.wins, losses = losses + excluded.losses, draws = draws + excluded.draws, "
                    "is_ai = MAX(is_ai, excluded.is_ai), last_played = MAX(last_played, excluded.last_played)",
                    (name, name_key(name), won, lost, int(loser is None), int(seat in seats), when, when))
            brains, changes = {}, {}
            trained: set[str] = set()  # a game of two AIs is one training game for each brain, self-play too
            for seat, (learner, drawn) in lessons.items():
                outcome = 0 if loser is None else 1 if seat != loser else -1
                training = len(seats) == 2 and name_key(learner) not in trained
                trained.add(name_key(learner))
                brains[seat], changes[seat] = self._learn(conn, game_id, seat, learner, game, drawn,
                                                          won=outcome > 0, when=when, start=played.start,
                                                          outcome=outcome, training=training)
        self.own_games.add(game_id)  # kept (committed): this copy's own, never "a classmate's game"
        return RecordedGame(game_id, brains, changes)

    @staticmethod
    def _ai_seats(opponent, ai_seats) -> tuple[int, ...]:
        seats = tuple(sorted(set(ai_seats))) if ai_seats is not None else \
            (() if opponent in HUMAN_OPPONENTS else (1,))
        if any(s not in (0, 1) or isinstance(s, bool) for s in seats):
            raise ValueError(f"AI seats are 0 and/or 1, not {ai_seats!r}.")
        return seats

    def check_players(self, players: Sequence[str], ai_seats: Sequence[int]) -> tuple[str, str]:
        """The names a game between `players` would be recorded under, or InvalidName saying why it would not
        be: the very checks `record_game` makes, for a screen to ask before the game is played. The AIs play
        `ai_seats` (0 and/or 1)."""
        seats = self._ai_seats(None, ai_seats)
        names = check_names(players, seats)
        with self._read("read the records") as conn:
            _check_rows(conn, names, seats)
        return names

    def _check_learning(self, game: str, played: Replayed, learning: Mapping) -> dict[int, tuple[str, list]]:
        lessons = {}
        for seat, entry in learning.items():
            if seat not in (0, 1) or isinstance(seat, bool):
                raise ValueError(f"A learning seat is 0 or 1, not {seat!r}.")
            try:
                learner, drawn = entry
            except (TypeError, ValueError):
                raise ValueError("Learning is given per seat as (brain name, balls drawn).") from None
            learner = validate_name(learner)
            # a forced move (one legal move) teaches nothing, on every game: left out of both, however given
            moves = [(hat, ball) for s, hat, ball in played.turns if s == seat and not forced(played.rules, hat)]
            norm = [(h, b) for h, b in (_as_played(played.rules, h, b) for h, b in drawn)
                    if not forced(played.rules, h)]
            if norm != moves:
                raise ValueError(f"The balls drawn by seat {seat} ({norm}) are not the moves it played ({moves}).")
            lessons[seat] = (learner, norm)
        return lessons  # one brain on both seats (self-play) learns from each seat in turn

    def shared_names(self) -> list[SharedName]:
        """Rows of the records where a person and an AI share one key (games kept before the store refused it,
        e.g. a person called "Ｐerfect AI"): their wins and losses are counted together. Reported, never merged
        or split silently."""
        reserved = {name_key(n): n for n in ai_names()}
        with self._read("read the records") as conn:
            rows = conn.execute(
                "SELECT key, name, ai, COUNT(*) FROM (SELECT player1_key AS key, player1 AS name, ai1 AS ai FROM games "
                "UNION ALL SELECT player2_key, player2, ai2 FROM games) GROUP BY key, name, ai ORDER BY key, name"
            ).fetchall()
        seen: dict[str, dict] = {}
        for key, name, ai, count in rows:
            entry = seen.setdefault(key, {"people": {}, "ais": {}})
            entry["ais" if ai else "people"][name] = entry["ais" if ai else "people"].get(name, 0) + count
        shared = []
        for key, entry in seen.items():
            if entry["people"] and (entry["ais"] or key in reserved):
                ais = tuple(entry["ais"]) or (reserved[key],)
                shared.append(SharedName(key, tuple(entry["people"].items()), ais))
        return shared

    def leaderboard(self, include_ai: bool = True) -> list[PlayerRecord]:
        """Every player, best rating (wins - losses) first; ties by more wins, then by name."""
        where = "" if include_ai else "WHERE is_ai = 0"
        with self._read("read the records") as conn:
            rows = conn.execute(
                f"SELECT name, wins, losses, last_played, is_ai, draws FROM players {where} "
                "ORDER BY wins - losses DESC, wins DESC, key").fetchall()
        return [PlayerRecord(n, w, lo, w - lo, parse_time(t), bool(ai), d) for n, w, lo, t, ai, d in rows]

    def player(self, name: str) -> PlayerRecord | None:
        with self._read("read the records") as conn:
            row = conn.execute("SELECT name, wins, losses, last_played, is_ai, draws FROM players WHERE key = ?",
                               (name_key(name),)).fetchone()
        if row is None:
            return None
        n, w, lo, t, ai, d = row
        return PlayerRecord(n, w, lo, w - lo, parse_time(t), bool(ai), d)

    def recent_games(self, player: str | None = None, limit: int = 20) -> list[GameRecord]:
        """The latest finished games, newest first; only `player`'s if given."""
        sql = f"SELECT {GAME_COLUMNS} FROM games"
        params: tuple = ()
        if player is not None:
            sql += " WHERE player1_key = ? OR player2_key = ?"
            params = (name_key(player), name_key(player))
        sql += " ORDER BY id DESC LIMIT ?"
        with self._read("read the games") as conn:
            rows = conn.execute(sql, params + (max(0, int(limit)),)).fetchall()
            learned = self._learning_of(conn, [r[0] for r in rows])
        return [_game_record(row, learned) for row in rows]

    def games_after(self, game_id: int, limit: int = 50) -> list[GameRecord]:
        """The games recorded after `game_id` (by any copy of the app), oldest first, at most `limit` (the
        newest of them): what a tab that last saw `game_id` has not seen."""
        with self._read("read the games") as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM games WHERE id > ? ORDER BY id DESC LIMIT ?",
                                              (int(game_id), max(0, int(limit)))).fetchall()]
        return [g for g in (self.game(i) for i in reversed(ids)) if g is not None]

    def last_game_id(self) -> int:
        """The id of the newest game recorded (0 when there is none)."""
        with self._read("read the games") as conn:
            return conn.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]

    def game(self, game_id: int) -> GameRecord | None:
        """One recorded game with what a replay needs, or None."""
        with self._read("read the games") as conn:
            row = conn.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (int(game_id),)).fetchone()
            learned = self._learning_of(conn, [game_id])
        return None if row is None else _game_record(row, learned)

    @staticmethod
    def _learning_of(conn, ids: list[int]) -> dict[int, tuple[SeatLearning, ...]]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = conn.execute(f"SELECT game_id, seat, brain, won, drawn, changes, hats, outcome FROM game_learning "
                            f"WHERE game_id IN ({marks}) ORDER BY game_id, seat", [int(i) for i in ids]).fetchall()
        out: dict[int, list] = {}
        for gid, seat, brain, won, drawn, changes, hats, outcome in rows:
            out.setdefault(gid, []).append(SeatLearning(seat, brain, bool(won), _tuples(json.loads(drawn)),
                                                        _tuples(json.loads(changes)),
                                                        None if hats is None else _tuples(json.loads(hats)),
                                                        (1 if won else -1) if outcome is None else outcome))
        return {k: tuple(v) for k, v in out.items()}

    def game_count(self) -> int:
        with self._read("read the games") as conn:
            return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def learning_outcomes(self, brain: str | None = None, opponent: str | tuple[str, ...] = "learning"
                          ) -> list[tuple[int, int]]:
        """The learning AI's real games against people, oldest first, draws included: (game id, +1 won, 0 drawn,
        -1 lost). A game counts when the opponent was the learning AI (`opponent`: "learning", not the trained AI;
        "menace" for noughts; several kinds: any of them) with a brain, and it played exactly one seat against a
        person; only `brain`'s games when given (every brain's when None: games of different games mix)."""
        kinds = (opponent,) if isinstance(opponent, str) else tuple(opponent)
        sql = ("SELECT id, ai1, CASE WHEN draw THEN NULL ELSE loser END FROM games WHERE brain_key IS NOT NULL "
               f"AND ai1 + ai2 = 1 AND opponent IN ({', '.join('?' * len(kinds))})")
        params: tuple = kinds
        if brain is not None:
            sql += " AND brain_key = ?"
            params += (name_key(brain),)
        with self._read("read the games") as conn:
            rows = conn.execute(sql + " ORDER BY id", params).fetchall()
        return [(int(gid), 0 if loser is None else 1 if (0 if ai1 else 1) != loser else -1)
                for gid, ai1, loser in rows]

    def head_to_head(self, a: str, b: str, game: str | None = None) -> tuple[int, int, int]:
        """(a's wins, b's wins, draws) over every recorded `game` between the players named `a` and `b`, either
        seat (the draws: a game with draws, as MENACE's with a pupil, is mostly draws). `game` None: the first
        game's."""
        game = registry.first_name() if game is None else game
        ka, kb = name_key(a), name_key(b)
        with self._read("read the records") as conn:
            wins_a, wins_b, draws = conn.execute(
                "SELECT COALESCE(SUM(draw = 0 AND ((player1_key = ? AND loser = 1) OR (player2_key = ? AND loser = 0))),"
                "                0),"
                "       COALESCE(SUM(draw = 0 AND ((player1_key = ? AND loser = 1) OR (player2_key = ? AND loser = 0))),"
                "                0),"
                "       COALESCE(SUM(draw <> 0), 0) "
                "FROM games WHERE game = ? AND ((player1_key = ? AND player2_key = ?) OR "
                "(player1_key = ? AND player2_key = ?))", (ka, ka, kb, kb, game, ka, kb, kb, ka)).fetchone()
        return int(wins_a), int(wins_b), int(draws)

    def brain_record(self, name: str) -> tuple[int, int]:
        """The AI's own (wins, losses) with this brain, since the brain was made or last reset."""
        wins, _, losses = self.brain_results(name)
        return wins, losses

    def brain_results(self, name: str) -> tuple[int, int, int]:
        """The AI's own (wins, draws, losses) with this brain, since the brain was made or last reset: every
        game it played, of whatever game the brain is (a draw: noughts and crosses)."""
        key = name_key(name)
        with self._read("read the records") as conn:
            row = conn.execute("SELECT created FROM brains WHERE key = ?", (key,)).fetchone()
            since = row[0] if row else ""
            wins, draws, losses = conn.execute(
                "SELECT COALESCE(SUM(CASE WHEN draw = 0 THEN (ai1 AND loser = 1) + (ai2 AND loser = 0) END), 0), "
                "       COALESCE(SUM(CASE WHEN draw = 1 THEN (ai1 OR ai2) END), 0), "
                "       COALESCE(SUM(CASE WHEN draw = 0 THEN (ai1 AND loser = 0) + (ai2 AND loser = 1) END), 0) "
                "FROM games WHERE brain_key = ? AND played_at >= ?", (key, since)).fetchone()
        return int(wins), int(draws), int(losses)

    def reset_records(self) -> None:
        """Forget every player's record and every game (brains are kept, as they are now)."""
        self.teacher_only("reset the records")
        with self._write("reset the records") as conn:
            self.backup_before("before-reset-records", action="reset the records")
            conn.execute("DELETE FROM games")
            conn.execute("DELETE FROM players")
            conn.execute("DELETE FROM game_learning")
            # the games that taught the brains are gone: each brain starts a new generation from here
            conn.execute("UPDATE brains SET uid = lower(hex(randomblob(16))), base_counts = counts")

    def reset_player(self, name: str) -> None:
        """Take a player off the leaderboard (their wins and losses); the game history is kept."""
        self.teacher_only(f"reset {name!r}")
        with self._write(f"reset {name!r}") as conn:
            row = conn.execute("SELECT name FROM players WHERE key = ?", (name_key(name),)).fetchone()
            if row is None:
                raise StoreError(f"There is no player called {name!r}.")
            self.backup_before("before-reset-player", row[0], action=f"reset {name!r}")
            conn.execute("DELETE FROM players WHERE key = ?", (name_key(name),))
