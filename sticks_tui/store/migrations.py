"""The schema and its versions. Each migration takes the schema from version - 1 to version, in the
same transaction as its version row; add new ones, never edit old ones.

Version 1: players, games, brains, training curves; names matched by SQLite's NOCASE (ASCII only).
Version 2:
- one name rule: a `key` column (NFKC then casefold, `names.name_key`) with a UNIQUE index on
  players, brains and training curves, and key columns on games for the players and the brain;
  names that v1 kept apart but the key joins get " (2)", " (3)", ... added (nothing is lost);
- brains: `game` ('sticks' or 'nim'), `shape` (Nim: the box "7,7,7"), and a generation: `uid`
  with `base_counts`, the counts the brain held when this generation started (made, copied,
  reset, imported, saved whole or trained); from then on the brain is its base plus the learning
  of its games, applied in order;
- `game_learning`: for each learning seat of a game, the brain, the balls drawn and every change
  applied (hat, ball, before, after): what a replay needs, and what `rebuild_brain` sums.
Version 3:
- `game_learning.hats`: the learning seat's hats as they were before the game (sticks: every hat
  from 1 to the game's heap; Nim: the hats it drew from), as JSON [[hat, [count, ...]], ...], so a
  replay shows the hats as they were. For the games of each brain's current generation they are
  worked out (base plus the learning of the games before, in order); older games keep NULL (their
  replay says so). Every old game, its moves, balls drawn and changes stay as they were.
Version 4:
- `training_curves.heap`: the heap the run trained (sticks), so its curve says what it is about
  (heaps 2..heap). Curves kept before have NULL: they were scored over all the brain's hats.
Version 5:
- `brains.draw_reward`: what a draw gives each ball drawn (`HatRule.draw_reward`), so a brain's whole
  rule is stored with it (games with draws). Brains kept before have 0, the reward they learned by.
Version 6 (`LABS`, a list of its own):
- `labs`: each finished learning lab (`store/labs.py`): when, the game, its size and protocol, the
  learners as typed, seeds, first seed, cap, seconds, and the whole result as JSON (the table's figures
  and every learner's curve). Nothing older changes.
Version 7 (`DRAWS`, a list of its own; issue 18, noughts and crosses: games that end in a draw):
- `games.draw` (1: nobody won; its `loser` column, which must be 0 or 1, then holds 0 and means
  nothing) and `games.first` (the seat that moved first, kept for a draw, where the loser cannot
  tell it; NULL for games kept before, whose first seat follows from the loser);
- `players.draws`: each player's drawn games, beside wins and losses. Old games and players: 0;
- `game_learning.outcome` (+1 won, 0 drew, -1 lost: a MENACE brain's lesson from a drawn game);
  NULL for lessons kept before, whose `won` says it.
Version 8 (`RESIGNED`, a list of its own; issue 18, MENACE resigns when its box is empty):
- `games.resigned` (1: the loser resigned at its turn, so the moves do not finish the game; 0 for
  every game kept before).
Version 9 (`RESTORES`, a list of its own; issue 30, the class is told of a restore):
- `restores`: one row for each back-up restored over this database, written in the same step as the
  restore (`backups.copy_into`): a fresh `uid`, when, the back-up's file name and when it was made, and
  the newest game id it held. Every tab reads the newest row when the database changes, so it says "the
  teacher restored the back-up of 10:40" instead of presenting the restored games as just played.
Version 10 (`ONE_SHAPE`, a list of its own; issue 31, one counts learner for hats and matchboxes):
- `brains.rule`: the brain's whole rule as JSON (start tokens, one number or one per move number; the
  win, draw and loss incentives; the floor; what an empty container does), filled from the rule columns
  (which stay, for listings); `brains.seat`: 0 or 1 for a brain of one player's containers (MENACE's X
  and O), NULL for the others;
- MENACE's boxes, kept before as 9 beads by square of each box's board with the rule and the player in
  `shape`, are kept as every brain is: one list a box, its beads in the order of its moves, the rule in
  `rule`, the player in `seat`, the game's layout in `shape`; their lessons' boxes as they were before
  a game likewise (in the order of the board's moves);
- a forced move (one legal move) teaches nothing now: a brain whose present generation learned from one
  (a Nim brain taking the last coin) starts a new generation at its counts as they are. Nothing is lost:
  every count, game and lesson stays.
Version 11 (`EVERY_FIGURE`, a list of its own; issue 32, every curve kept for every game): nothing in the
tables changes, but a training curve's points may now hold up to 8 figures (a game with draws or seats:
not losing against the perfect player, the chance a drawn token is a perfect move, won/drawn/lost) where
a version 10 reader expects 4. The version says so, so an older sticks-tui refuses this database as newer,
in its own words, rather than failing on a curve it cannot read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from sticks_tui.store.connection import Corrupt, TooNew, now, rollback
from sticks_tui.store.names import name_key

SCHEMA_VERSION = 11

V1 = [
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
]


def _distinct_keys(conn: sqlite3.Connection, table: str, column: str = "name") -> dict[str, str]:
    """Give every row of `table` a key; rows whose key is taken are renamed "name (2)", ... .

    Returns {old name: new name} for the renamed rows, so other tables can follow them.
    """
    renamed: dict[str, str] = {}
    rows = conn.execute(f"SELECT rowid, {column} FROM {table} ORDER BY rowid").fetchall()
    taken = {name_key(n) for _, n in rows}
    seen: set[str] = set()
    for rowid, name in rows:
        key = name_key(name)
        new = name
        if key in seen:
            n = 2
            while True:
                suffix = f" ({n})"
                new = name[: 40 - len(suffix)] + suffix
                if name_key(new) not in taken:
                    break
                n += 1
            key = name_key(new)
            taken.add(key)
            renamed[name] = new
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?", (new, rowid))
        seen.add(key)
        conn.execute(f"UPDATE {table} SET key = ? WHERE rowid = ?", (key, rowid))
    return renamed


def _v2_keys(conn: sqlite3.Connection) -> None:
    conn.execute("ALTER TABLE players ADD COLUMN key TEXT")
    players = _distinct_keys(conn, "players")
    conn.execute("CREATE UNIQUE INDEX players_key ON players(key)")
    conn.execute("ALTER TABLE brains ADD COLUMN key TEXT")
    brains = _distinct_keys(conn, "brains")
    conn.execute("CREATE UNIQUE INDEX brains_key ON brains(key)")
    conn.execute("ALTER TABLE games ADD COLUMN player1_key TEXT")
    conn.execute("ALTER TABLE games ADD COLUMN player2_key TEXT")
    conn.execute("ALTER TABLE games ADD COLUMN brain_key TEXT")
    # A renamed player or brain takes the games written with exactly its old spelling.
    for old, new in players.items():
        conn.execute("UPDATE games SET player1 = ? WHERE player1 = ? COLLATE BINARY", (new, old))
        conn.execute("UPDATE games SET player2 = ? WHERE player2 = ? COLLATE BINARY", (new, old))
    for old, new in brains.items():
        conn.execute("UPDATE games SET brain = ? WHERE brain = ? COLLATE BINARY", (new, old))
        conn.execute("UPDATE training_curves SET brain = ? WHERE brain = ? COLLATE BINARY", (new, old))
    conn.execute("UPDATE games SET player1_key = name_key(player1), player2_key = name_key(player2), "
                 "brain_key = name_key(brain)")
    conn.execute("CREATE INDEX games_player1_key ON games(player1_key)")
    conn.execute("CREATE INDEX games_player2_key ON games(player2_key)")
    conn.execute("CREATE INDEX games_brain_key ON games(brain_key)")
    conn.execute("ALTER TABLE training_curves ADD COLUMN key TEXT")
    _distinct_keys(conn, "training_curves", "brain")
    conn.execute("CREATE UNIQUE INDEX training_curves_key ON training_curves(key)")


V2: list[str | Callable[[sqlite3.Connection], None]] = [
    _v2_keys,
    "ALTER TABLE brains ADD COLUMN game TEXT NOT NULL DEFAULT 'sticks'",
    "ALTER TABLE brains ADD COLUMN shape TEXT",
    "ALTER TABLE brains ADD COLUMN uid TEXT",
    "ALTER TABLE brains ADD COLUMN base_counts TEXT",
    "UPDATE brains SET uid = lower(hex(randomblob(16))), base_counts = counts",
    """CREATE TABLE game_learning (
           game_id INTEGER NOT NULL,
           seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
           brain TEXT NOT NULL,
           brain_key TEXT NOT NULL,
           brain_uid TEXT,
           won INTEGER NOT NULL CHECK (won IN (0, 1)),
           drawn TEXT NOT NULL,
           changes TEXT NOT NULL,
           PRIMARY KEY (game_id, seat))""",
    "CREATE INDEX game_learning_uid ON game_learning(brain_uid, game_id)",
]


def _v3_hats_of_this_generation(conn: sqlite3.Connection) -> None:
    """Fill `hats` for the games of each brain's current generation: its base plus the learning of its
    games before each one, in order, is what the brain held when that game began (the store keeps the
    brain the sum of its games). Games of older generations keep NULL; a brain that cannot be read is
    left alone. Nothing is removed."""
    import json

    from sticks_tui.learn.hats import HatRule
    from sticks_tui.store.brains import _decode, _hats_before, _tuples, fit_to

    brains = conn.execute("SELECT size, max_take, start_balls, win_reward, loss_penalty, floor, base_counts, game, "
                          "shape, uid FROM brains WHERE uid IS NOT NULL AND base_counts IS NOT NULL").fetchall()
    for size, max_take, sb, wr, lp, fl, base, game, shape, uid in brains:
        lessons = conn.execute(
            "SELECT l.rowid, l.drawn, l.won, g.start FROM game_learning l JOIN games g ON g.id = l.game_id "
            "WHERE l.brain_uid = ? ORDER BY l.game_id, l.seat", (uid,)).fetchall()
        if not lessons:
            continue
        try:
            brain = _decode(size, max_take, HatRule(sb, wr, lp, fl), base, game, shape)
            filled = []
            for rowid, drawn_json, won, start in lessons:
                drawn = [(_tuples(h), _tuples(b)) for h, b in json.loads(drawn_json)]
                brain = fit_to(brain, [h for h, _ in drawn])  # as `_learn` does
                filled.append((json.dumps(_hats_before(brain, drawn, start), separators=(",", ":")), rowid))
                brain.reinforce(drawn, bool(won))
        except (ValueError, TypeError, KeyError, IndexError):
            continue  # a brain or a lesson that does not read: its games replay without hats, as before
        conn.executemany("UPDATE game_learning SET hats = ? WHERE rowid = ?", filled)


V3: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE game_learning ADD COLUMN hats TEXT",
    _v3_hats_of_this_generation,
]

V4: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE training_curves ADD COLUMN heap INTEGER",
]

V5_DRAW_REWARD: list[str | Callable[[sqlite3.Connection], None]] = [
    "ALTER TABLE brains ADD COLUMN draw_reward INTEGER NOT NULL DEFAULT 0",
]

#: The learning lab's table (issue 20); a list of its own, numbered where it is placed in MIGRATIONS.
LABS: list[str | Callable[[sqlite3.Connection], None]] = [
    """CREATE TABLE labs (
           id INTEGER PRIMARY KEY AUTOINCREMENT,
           finished_at TEXT NOT NULL,
           game TEXT NOT NULL,
           size INTEGER NOT NULL,
           protocol TEXT NOT NULL,
           learners TEXT NOT NULL,
           seeds INTEGER NOT NULL,
           first_seed INTEGER NOT NULL,
           cap INTEGER NOT NULL,
           seconds REAL NOT NULL,
           result TEXT NOT NULL)""",
]


def _draws(conn: sqlite3.Connection) -> None:
    """Games that end in a draw: `games.draw` and `games.first`, `players.draws`, `game_learning.outcome`
    (see the module's docstring); a column already there is left as it is."""
    for table, column, definition in (
            ("games", "draw", "INTEGER NOT NULL DEFAULT 0 CHECK (draw IN (0, 1))"),
            ("games", "first", "INTEGER CHECK (first IN (0, 1))"),
            ("players", "draws", "INTEGER NOT NULL DEFAULT 0"),
            ("game_learning", "outcome", "INTEGER CHECK (outcome IN (-1, 0, 1))")):
        if column not in {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")


#: Games that end in a draw (issue 18); a list of its own, numbered where it is placed in MIGRATIONS.
DRAWS: list[str | Callable[[sqlite3.Connection], None]] = [_draws]



def _resigned(conn: sqlite3.Connection) -> None:
    """`games.resigned` (see the module's docstring); a column already there is left as it is."""
    if "resigned" not in {row[1] for row in conn.execute("PRAGMA table_info(games)")}:
        conn.execute("ALTER TABLE games ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1))")


#: Games ended by a resignation (issue 18); a list of its own, numbered where it is placed in MIGRATIONS.
RESIGNED: list[str | Callable[[sqlite3.Connection], None]] = [_resigned]

#: Back-ups restored over the database (issue 30); a list of its own, numbered where it is placed in MIGRATIONS.
RESTORES: list[str | Callable[[sqlite3.Connection], None]] = [
    """CREATE TABLE IF NOT EXISTS restores (
           id INTEGER PRIMARY KEY,
           uid TEXT NOT NULL,
           restored_at TEXT NOT NULL,
           backup TEXT NOT NULL,
           backup_made_at TEXT NOT NULL,
           last_game INTEGER NOT NULL)""",
]



def _one_shape(conn: sqlite3.Connection) -> None:
    """One brain shape for every counts learner (issue 31): see the module's docstring, version 10."""
    import json

    from sticks_tui.engine import registry
    from sticks_tui.learn.hats import Hats, forced
    from sticks_tui.store.brains import _rule_columns, rule_from, rule_json

    columns = {row[1] for row in conn.execute("PRAGMA table_info(brains)")}
    if "rule" not in columns:
        conn.execute("ALTER TABLE brains ADD COLUMN rule TEXT")
    if "seat" not in columns:
        conn.execute("ALTER TABLE brains ADD COLUMN seat INTEGER CHECK (seat IN (0, 1))")
    rows = conn.execute("SELECT rowid, game, shape, counts, base_counts, start_balls, win_reward, loss_penalty, floor, "
                        "draw_reward, uid FROM brains").fetchall()
    for rowid, game, shape, counts, base, sb, wr, lp, fl, dr, uid in rows:
        try:
            old = json.loads(shape) if shape and shape.startswith("{") else None
        except ValueError:
            old = None
        if isinstance(old, dict) and "marks" in old:  # MENACE's boxes as kept before: 9 beads by square 1-9
            try:
                seat = ("X", "O").index(old["marks"])
                win, draw, loss = old["incentives"]
                rule = rule_from(json.dumps({"start": list(old["beads"]), "win": min(max(win, 0), 1000),
                                             "draw": draw, "loss": min(max(-loss, 0), 1000), "floor": "none",
                                             "empty": old["empty"]}))
                kind = registry.entry(game)
                brain = Hats(kind.stored_rules(0, 0, "{}"), rule=rule, seat=seat)
                moves = brain._layout.moves

                def compact(text, moves=moves):
                    boxes = json.loads(text)
                    if len(boxes) != len(moves):
                        raise ValueError("not MENACE's boxes")
                    return json.dumps([[box[m - 1] for m in ms] for box, ms in zip(boxes, moves, strict=True)],
                                      separators=(",", ":"))

                size, max_take, layout = kind.store_columns(brain.rules, brain.counts.shape)
                conn.execute(f"UPDATE brains SET rule = ?, seat = ?, shape = ?, size = ?, max_take = ?, counts = ?, "
                             f"base_counts = ?, start_balls = ?, win_reward = ?, loss_penalty = ?, floor = ?, "
                             f"draw_reward = ? WHERE rowid = ?",
                             (rule_json(rule), seat, layout, size, max_take, compact(counts),
                              compact(base) if base else None, *_rule_columns(rule), rowid))
            except (ValueError, TypeError, KeyError, IndexError):
                continue  # a damaged layout stays as it was: the brain says it is damaged, as before
            continue
        try:
            rule = rule_from(None, sb, wr, lp, fl, dr)
        except (ValueError, TypeError):
            continue  # a rule that does not read stays in its columns: the brain says it is damaged
        conn.execute("UPDATE brains SET rule = ? WHERE rowid = ?", (rule_json(rule), rowid))
    _compact_lessons(conn, registry, Hats)
    _forced_moves_teach_nothing(conn, registry, forced)


def _compact_lessons(conn: sqlite3.Connection, registry, Hats) -> None:
    """A MENACE lesson's boxes as they were before the game, kept as 9 beads by square 1-9: in the order of
    the board's moves instead (`Hats.hat`), as every brain's are."""
    import json

    found = conn.execute("SELECT l.rowid, l.hats, g.game FROM game_learning l JOIN games g ON g.id = l.game_id "
                         "WHERE l.hats IS NOT NULL").fetchall()
    brains: dict = {}
    for rowid, text, game in found:
        try:
            kind = registry.entry(game)
            rules = kind.make_rules()
        except (ValueError, TypeError):
            continue
        if getattr(rules, "symmetries", None) is None:
            continue
        try:
            hats = json.loads(text)
            out = []
            for board, beads in hats:
                seat = rules.mover(board)
                brain = brains.setdefault((game, seat), Hats(rules, seat=seat))
                if len(beads) == 9 and len(brain.moves_of(board)) != 9:
                    beads = [beads[m - 1] for m in brain.moves_of(board)]
                out.append([board, beads])
        except (ValueError, TypeError, KeyError, IndexError):
            continue
        conn.execute("UPDATE game_learning SET hats = ? WHERE rowid = ?", (json.dumps(out, separators=(",", ":")), rowid))


def _forced_moves_teach_nothing(conn: sqlite3.Connection, registry, forced) -> None:
    """A forced move teaches nothing now, on every game: a brain whose present generation learned from one
    (a Nim brain taking the last coin) starts a new generation at its counts as they are, so its base plus
    its games' lessons is still the brain (`rebuild_brain`). Its games and lessons stay as they were."""
    import json

    from sticks_tui.store.brains import _tuples

    for rowid, game, uid, size, max_take, shape in conn.execute(
            "SELECT rowid, game, uid, size, max_take, shape FROM brains WHERE uid IS NOT NULL").fetchall():
        try:
            rules = registry.entry(game).stored_rules(size, max_take, shape)
        except (ValueError, TypeError, KeyError):
            continue
        learned = False
        for (drawn,) in conn.execute("SELECT drawn FROM game_learning WHERE brain_uid = ?", (uid,)):
            try:
                if any(forced(rules, _tuples(h)) for h, _ in json.loads(drawn)):
                    learned = True
                    break
            except (ValueError, TypeError, KeyError, IndexError):
                continue
        if learned:
            conn.execute("UPDATE brains SET base_counts = counts, uid = lower(hex(randomblob(16))) WHERE rowid = ?",
                         (rowid,))


#: One brain shape for every counts learner (issue 31); a list of its own, numbered where it is placed.
ONE_SHAPE: list[str | Callable[[sqlite3.Connection], None]] = [_one_shape]

#: Curve points of up to 8 figures (issue 32); no table changes: the version tells older readers.
EVERY_FIGURE: list[str | Callable[[sqlite3.Connection], None]] = []

MIGRATIONS: dict[int, list] = {1: V1, 2: V2, 3: V3, 4: V4, 5: V5_DRAW_REWARD, 6: LABS, 7: DRAWS, 8: RESIGNED,
                               9: RESTORES, 10: ONE_SHAPE, 11: EVERY_FIGURE}


def schema_version(conn: sqlite3.Connection) -> int:
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
    if not exists:
        return 0
    return conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]


def _steps(conn: sqlite3.Connection, current: int, target: int) -> None:
    """Each version's steps after `current` up to `target`, each with its version row (in the caller's transaction)."""
    for version in range(current + 1, target + 1):
        for step in MIGRATIONS[version]:
            if callable(step):
                step(conn)
            else:
                conn.execute(step)
        conn.execute("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)", (version, now()))


_new_schemas: dict[tuple, tuple[str, ...]] = {}


def new_schema() -> tuple[str, ...]:
    """The statements that make a new database's schema: what every step of `MIGRATIONS` leaves, read back from a
    database in memory taken through them all, in the order SQLite keeps it (the tables and indexes as the last
    step left them; schema_version itself aside). Made once per process (for the steps as they are: a changed list
    of steps is run again). A new store runs these ~17 statements instead of the ~70 steps, which rebuild tables
    that are empty: ~2.5 CPU ms against ~7 on this project's machine, for every new data folder (each test's)."""
    key = tuple((version, tuple(map(id, steps))) for version, steps in sorted(MIGRATIONS.items()))
    made = _new_schemas.get(key)
    if made is None:
        from sticks_tui.store.connection import connect_memory

        conn = connect_memory()
        try:
            conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)")
            _steps(conn, 0, SCHEMA_VERSION)
            made = tuple(sql for (sql,) in conn.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                "AND name != 'schema_version' ORDER BY rowid"))
        finally:
            conn.close()
        _new_schemas[key] = made
    return made


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> None:
    """Bring the schema up to `target`, each step in the same transaction as its version row."""
    current = schema_version(conn)
    if current > SCHEMA_VERSION:
        raise TooNew(current)
    if current >= target:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0] \
                and schema_version(conn) == 0:
            raise Corrupt("it holds tables that are not sticks-tui's")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TEXT)")
        current = schema_version(conn)  # another process may have migrated while we waited
        if current > SCHEMA_VERSION:
            raise TooNew(current)
        if current == 0 and target == SCHEMA_VERSION:  # a new database: the steps' outcome, made at once
            for statement in new_schema():
                conn.execute(statement)
            conn.executemany("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)",
                             [(version, now()) for version in range(1, target + 1)])
        else:
            _steps(conn, current, target)
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
