"""The games this sticks-tui knows, by name: the one place that names them.

An entry says what the layers above need to find a game by its name (the store's and the settings'
"sticks", "nim") or by its rules object, and nothing they could ask the rules themselves:

- `name`, `title` (words for a person) and `brain_words` ("a sticks brain");
- `rules_class` and `make_rules(start, max_take=None, moves=())`: the rules a game from `start`
  is played (and replayed) under;
- `layout(rules)` / `from_layout(layout)`: the rules as a small JSON object, for brains;
- the text forms the records keep (`write_start`/`read_start`, `write_move`/`read_move`) and what
  a replay says when the moves do not finish the game (`unfinished`). A new game needs none of
  these: the defaults keep the JSON of `encode_position`/`encode_move`.

The UI adds its board per game from its own side (`ui.boards`), so the core never imports the UI.
A new game is a rules class and one `register(GameEntry(...))`; `tests/unit/test_layers.py` holds
every other module to asking the registry or the rules, never comparing a game's name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from sticks_tui.engine.nim import MAX_PILE, NimRules
from sticks_tui.engine.noughts import NoughtsRules, parse_board
from sticks_tui.engine.protocol import GameRules, whole_number
from sticks_tui.engine.rules import DEFAULT_MAX_TAKE, SticksRules, heaps_words


#: What a brain file may hold (`store.brainfile`): the most hats of a sticks brain, the most sticks a
#: move, the largest pile of a Nim brain's box (as `sticks-tui nim train --piles` allows).
MAX_HATS = 1000
MAX_TAKE_LIMIT = 10
MAX_NIM_PILE = 10


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class GameEntry:
    """One game: its name, its rules, and the forms the store keeps it in."""

    name: str
    title: str
    #: How the setup screen offers it.
    choice: str
    brain_words: str
    rules_class: type
    #: The rules a game from `start` is played under (`max_take` and `moves`: what a record knows).
    make_rules: Callable[..., GameRules]
    #: The rules as a JSON object and back (a brain's layout).
    layout: Callable[[GameRules], dict]
    from_layout: Callable[[dict], GameRules]
    #: The start position as the records keep it (text), and back (a ValueError saying why).
    write_start: Callable[[Any], str] | None = None
    read_start: Callable[[Any], Any] | None = None
    #: A move as the records keep it, and back (its form only; the rules check it in play).
    write_move: Callable[[Any], Any] | None = None
    read_move: Callable[[Any], Any] | None = None
    #: What a replay says when the moves do not finish the game: unfinished(start as given, moves).
    unfinished: Callable[[Any, list], str] | None = None
    #: A move as an export's (pile, took) columns (pile None in a one-pile game).
    pile_and_took: Callable[[Any], tuple] | None = None
    #: What a replay says of a move the rules refuse: illegal(move as given, the rules' IllegalMove).
    illegal: Callable[[Any, Exception], str] | None = None
    #: A brain's layout in the store's columns (size, max_take, shape) and back; ragged: each hat's
    #: counts kept as long as its moves (else the whole rectangle).
    columns_of: Callable[[GameRules, tuple], tuple] | None = None
    stored_rules_of: Callable[[int, int, str | None], GameRules] | None = None
    ragged_counts: bool = False
    #: The rules of a brain grown to have hats for `positions` too (None: its brains never grow).
    grown: Callable[[GameRules, list], GameRules] | None = None
    #: The rules of the brain `load_or_create_brain(size, max_take, box)` wants, and why a stored
    #: brain over `stored` rules cannot stand in for it (None: it can, once grown).
    brain_rules_of: Callable[[int, int, tuple], GameRules] | None = None
    unusable_because: Callable[[GameRules, GameRules], str | None] | None = None
    #: A replay shows every hat a game from its start can reach (sticks' heatmap), not only those drawn.
    replay_every_hat: bool = False
    #: What a brain listing's columns (hats, take) mean for this game's brains, when not the obvious.
    listing_note: str | None = None
    #: What the figures of a run over `rules` are about, in words (default: every position).
    scope: Callable[[GameRules], str] | None = None
    #: The analysis has the exact chances against a perfect player for this game (sticks' figures).
    chances_vs_perfect: bool = False
    #: The brain file version this game's brains are written as (None: the newest).
    file_version: int | None = None
    #: The opponents a game of it offers (kind -> words for a person), the one a setup falls back to,
    #: and the names its AIs play under in the records (kind -> name; no person may take one).
    opponents: dict = field(default_factory=lambda: {"friend": "a friend (same keyboard)"})
    default_opponent: str = "friend"
    ai_names: dict = field(default_factory=dict)
    #: A person can watch two of its AIs play each other.
    watchable: bool = False
    #: Which learner's brains the store keeps for it: "hats" (`learn.hats.Hats`, one hat per position)
    #: or "matchboxes" (MENACE's boxes, `learn.menace.MenaceBrain`, one box per board up to symmetry).
    brains: str = "hats"
    #: Whether a learner's move at a position is a lesson (a ball or bead drawn); None: every move is.
    #: MENACE draws no bead where one square is left (its move is forced).
    taught_at: Callable[[Any], bool] | None = None
    #: Brain files (`store.brainfile`): why a file's layout fields cannot be this game's (`named`: the file
    #: says "game"; None: they can), the rules they describe (a ValueError saying why if none; `shown`
    #: echoes a value from the file, cut short), what its
    #: "hats" list must hold (`file_rows_words(rules, rows given)`), each hat's name in a message, and what
    #: an entry of "hats" with no position must be. A new game needs none of these: the defaults read
    #: `layout`'s fields and name a hat by its position's text.
    file_layout_conflict: Callable[[dict, bool, Callable], str | None] | None = None
    file_rules: Callable[[dict, Callable], GameRules] | None = None
    file_rows_words: Callable[[GameRules, int], str] | None = None
    file_hat_label: Callable[[Any], str] | None = None
    file_empty_row_words: Callable[[int], str] | None = None
    #: Files written before brain files named their game (version 1, no "game"): this game reads every
    #: such file (`reads_unnamed_files`), or the layout an old export of its brains holds (None: not one).
    reads_unnamed_files: bool = False
    old_file_layout: Callable[[dict], dict | None] | None = None
    #: Training (`learn.trainer`): where 'explore' games start (None: every position), and the one number
    #: kept with a run's learning curve to say what its figures are over (None: nothing; sticks: the heap).
    explore_from: Callable[[GameRules], tuple] | None = None
    curve_size: Callable[[GameRules], int] | None = None
    #: Where the UI keeps its board for this game (filled from the UI side: `set_board`).
    board: dict = field(default_factory=dict, compare=False)

    def record_start(self, position) -> str:
        if self.write_start is not None:
            return self.write_start(position)
        rules = self.make_rules(position)
        return json.dumps(rules.encode_position(position), separators=(",", ":"))

    def parse_start(self, value):
        """The start position a record's `start` (text, or a position) stands for; ValueError if none."""
        if self.read_start is not None:
            return self.read_start(value)
        try:
            raw = json.loads(value) if isinstance(value, str) else value
        except ValueError:
            raise ValueError(f"A game of {self.title} cannot start from {value!r}.") from None
        return raw

    def record_move(self, rules: GameRules, move):
        return self.write_move(move) if self.write_move is not None else rules.encode_move(move)

    def parse_move(self, value):
        return self.read_move(value) if self.read_move is not None else value

    def store_columns(self, rules: GameRules, shape: tuple) -> tuple:
        """(size, max_take, shape) columns of a brain over `rules` whose counts have `shape`."""
        if self.columns_of is not None:
            return self.columns_of(rules, shape)
        return shape[0], shape[1], json.dumps(self.layout(rules), separators=(",", ":"))

    def stored_rules(self, size: int, max_take: int, shape: str | None) -> GameRules:
        if self.stored_rules_of is not None:
            return self.stored_rules_of(size, max_take, shape)
        return self.from_layout(json.loads(shape or "{}"))

    def brain_rules(self, size: int, max_take: int, box: tuple) -> GameRules:
        """The rules of the brain the store makes for this game (default: the game's own default rules)."""
        return self.brain_rules_of(size, max_take, box) if self.brain_rules_of is not None else self.make_rules()

    def unusable(self, stored: GameRules, wanted: GameRules) -> str | None:
        if self.unusable_because is not None:
            return self.unusable_because(stored, wanted)
        return None if stored == wanted else f"plays {stored.name} as {stored!r}, not {wanted!r}"

    def scope_words(self, rules: GameRules) -> str:
        return self.scope(rules) if self.scope is not None else "every position of the game"

    def taught(self, position) -> bool:
        return self.taught_at is None or self.taught_at(position)

    def export_move(self, rules: GameRules, move) -> tuple:
        return self.pile_and_took(move) if self.pile_and_took is not None else (None, rules.encode_move(move))

    def illegal_message(self, move, exc: Exception) -> str:
        if self.illegal is not None:
            return self.illegal(move, exc)
        return f"The move {move!r} is not allowed there: {exc}"

    def layout_conflict(self, doc: dict, named: bool, shown: Callable = repr) -> str | None:
        """Why a brain file's layout fields cannot describe a brain of this game (None: they can)."""
        return self.file_layout_conflict(doc, named, shown) if self.file_layout_conflict is not None else None

    def rules_of_file(self, doc: dict, shown: Callable = repr) -> GameRules:
        """The rules a brain file's layout fields describe; ValueError saying why if they describe none."""
        if self.file_rules is not None:
            return self.file_rules(doc, shown)
        try:
            return self.from_layout(doc)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"its layout does not describe a brain of {self.title} ({exc}).") from None

    def rows_words(self, rules: GameRules, rows: int, expected: int) -> str:
        if self.file_rows_words is not None:
            return self.file_rows_words(rules, rows)
        return f"\"hats\" holds {rows} hats but a brain of {rules!r} has {expected}, one a row."

    def hat_label(self, rules: GameRules, position) -> str:
        if self.file_hat_label is not None:
            return self.file_hat_label(position)
        return f"the hat for {rules.position_text(position)}"

    def empty_row_words(self, row: int) -> str:
        if self.file_empty_row_words is not None:
            return self.file_empty_row_words(row)
        return f"\"hats\" entry {row} must be empty ([]): no position has a hat there."

    def unfinished_message(self, start, moves: list) -> str:
        if self.unfinished is not None:
            return self.unfinished(start, moves)
        return f"The moves {moves} do not finish the game of {self.title} from {start!r}."


_ENTRIES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game (or replace the entry of that name); returns it."""
    _ENTRIES[entry.name] = entry
    return entry


def unregister(name: str) -> None:
    _ENTRIES.pop(name, None)


def names() -> tuple[str, ...]:
    return tuple(_ENTRIES)


def entry(name: str) -> GameEntry:
    """The game called `name`; ValueError listing the games if there is none."""
    try:
        return _ENTRIES[name]
    except (KeyError, TypeError):
        raise ValueError(f"The game is one of {', '.join(_ENTRIES)}, not {name!r}.") from None


def entry_of(rules: GameRules) -> GameEntry:
    """The game whose rules `rules` are; ValueError if no game registered has them."""
    for game in _ENTRIES.values():
        if type(rules) is game.rules_class:
            return game
    raise ValueError(f"No game here has the rules {rules!r}.")


def find(rules: GameRules) -> GameEntry | None:
    """The game whose rules `rules` are, or None (a game made up by a test, not registered)."""
    for game in _ENTRIES.values():
        if type(rules) is game.rules_class:
            return game
    return None


def explore_starts(rules: GameRules) -> tuple:
    """Where 'explore' training games start: every position, unless the game says otherwise."""
    game = find(rules)
    if game is not None and game.explore_from is not None:
        return tuple(game.explore_from(rules))
    return tuple(rules.positions())


def curve_size(rules: GameRules) -> int | None:
    """The number kept with a run's learning curve over `rules` (sticks: the heap), or None."""
    game = find(rules)
    return game.curve_size(rules) if game is not None and game.curve_size is not None else None


def name_of(rules: GameRules) -> str:
    return entry_of(rules).name


def unnamed_file_game(doc: dict) -> tuple[GameEntry, dict] | None:
    """The game (and the layout) of a version-1 brain file that does not say its game: an old export a
    game recognises as its own first, else the game that reads every such file; None if none does."""
    for game in _ENTRIES.values():
        layout = game.old_file_layout(doc) if game.old_file_layout is not None else None
        if layout is not None:
            return game, layout
    for game in _ENTRIES.values():
        if game.reads_unnamed_files:
            return game, doc
    return None


def set_board(name: str, **parts) -> None:
    """The UI's parts for game `name` (its screen, its board widget): kept with the entry."""
    entry(name).board.update(parts)


# -- the Game of Sticks ----------------------------------------------------------------------------

def _sticks_rules(start=None, max_take: int | None = None, moves: Sequence = ()) -> SticksRules:
    # a record kept without its max take: the largest take it holds, and at least the default
    top = max_take if max_take is not None else max(DEFAULT_MAX_TAKE, *moves) if moves else DEFAULT_MAX_TAKE
    return SticksRules(start if start is not None else 20, top)


def _sticks_start(value) -> int:
    try:
        heap = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"A game of sticks starts from a number of sticks, not {value!r}.") from None
    if heap < 1:
        raise ValueError(f"A game of sticks starts from 1 stick or more, not {heap}.")
    return heap


def _sticks_move(value) -> int:
    if not whole_number(value) or value < 1:
        raise ValueError(f"A move in sticks takes a whole number of sticks (1 or more), not {value!r}.")
    return int(value)


def _sticks_file_conflict(doc: dict, named: bool, shown) -> str | None:
    if "box" not in doc:
        return None
    if named:
        return ("it says \"game\": \"sticks\" but has a \"box\", which only a Nim brain has; a sticks brain "
                "file is laid out by \"size\" and \"max_take\".")
    return ("it has a \"box\" (the piles of a Nim brain) but no \"game\"; a file without \"game\" is a sticks "
            "brain, laid out by \"size\" and \"max_take\".")


def _sticks_file_rules(doc: dict, shown) -> SticksRules:
    size = doc.get("size")
    if not _is_int(size) or not 1 <= size <= MAX_HATS:
        raise ValueError(f"\"size\" must be a whole number of hats from 1 to {MAX_HATS}, not {shown(size)}.")
    max_take = doc.get("max_take")
    if not _is_int(max_take) or not 1 <= max_take <= MAX_TAKE_LIMIT:
        raise ValueError(f"\"max_take\" must be a whole number from 1 to {MAX_TAKE_LIMIT}, not {shown(max_take)}.")
    return SticksRules(size, max_take)


register(GameEntry(
    name="sticks", title="the Game of Sticks", choice="The Game of Sticks (last stick loses)", brain_words="a sticks brain", rules_class=SticksRules,
    make_rules=_sticks_rules,
    layout=lambda rules: {"size": rules.size, "max_take": rules.max_take},
    from_layout=lambda layout: SticksRules(layout["size"], layout["max_take"]),
    brain_rules_of=lambda size, max_take, box: SticksRules(max(size, 1), max_take),
    unusable_because=lambda stored, wanted: (None if stored.max_take == wanted.max_take else
                                             f"plays with at most {stored.max_take} sticks a move, "
                                             f"not {wanted.max_take}"),
    opponents={
        "friend": "a friend (same keyboard)",
        "dumb": "the dumb AI (always takes 1)",
        "random": "the random AI",
        "learning": "the learning AI (the hats)",
        "trained": "the trained AI (100,000 games first)",
        "perfect": "the perfect AI (the solver)",
    },
    default_opponent="learning", watchable=True,
    ai_names={"dumb": "Dumb AI", "random": "Random AI", "learning": "Learning AI", "trained": "Trained AI",
              "perfect": "Perfect AI"},
    scope=lambda rules: heaps_words(rules.size), chances_vs_perfect=True,
    replay_every_hat=True, file_version=1,  # readers of version 1 ignore "game": an older sticks-tui reads it
    columns_of=lambda rules, shape: (rules.size, rules.max_take, None),
    stored_rules_of=lambda size, max_take, shape: SticksRules(size, max_take), ragged_counts=True,
    grown=lambda rules, positions: SticksRules(max(rules.size, *positions), rules.max_take),
    write_start=str, read_start=_sticks_start, read_move=_sticks_move,
    unfinished=lambda start, moves: (f"The moves {moves} do not take exactly the {int(start)} sticks the "
                                     "game started with."),
    # a heap of 1 (one forced move) teaches nothing: 'explore' games start from 2..N (from N when N <= 2)
    explore_from=lambda rules: tuple(range(2, rules.size + 1)) if rules.size > 2 else (rules.size,),
    curve_size=lambda rules: rules.size,
    file_layout_conflict=_sticks_file_conflict, file_rules=_sticks_file_rules, reads_unnamed_files=True,
    file_rows_words=lambda rules, rows: (f"\"hats\" holds {rows} entries but \"size\" says {rules.size} hats "
                                         f"(expected {rules.size + 1}: an empty hat 0, then hats 1 to {rules.size})."),
    file_hat_label=lambda heap: f"hat {heap}",
    file_empty_row_words=lambda row: "hat 0 must be empty ([]): there is no hat for an empty heap.",
))


# -- three-pile Nim --------------------------------------------------------------------------------

def _nim_start(value) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in (value.split(",") if isinstance(value, str) else value))
    except (TypeError, ValueError):
        raise ValueError(f"A game of Nim starts from piles like '3,4,5', not {value!r}.") from None


def _nim_move(value) -> tuple[int, int]:
    """A record's 'pile:coins' (piles from 1), or (pile, coins) likewise, as a move (piles from 0)."""
    try:
        pile, coins = (value.split(":") if isinstance(value, str) else value)
        return int(pile) - 1, int(coins)
    except (TypeError, ValueError):
        raise ValueError(f"A Nim move is 'pile:coins' (e.g. '2:3'), not {value!r}.") from None


def _nim_file_conflict(doc: dict, named: bool, shown) -> str | None:
    if "box" not in doc:
        laid = " it is laid out as a sticks brain (\"size\" and \"max_take\")," if "size" in doc else ""
        return (f"it says \"game\": \"nim\", but{laid} it has no \"box\" (the largest piles of the Nim brain), "
                "so its hats cannot be read as a Nim brain.")
    extra = [key for key in ("size", "max_take") if key in doc]
    if extra:
        return (f"it says \"game\": \"nim\" but also has {shown(extra[0])}, which only a sticks brain has; a Nim "
                "brain file is laid out by \"box\" alone.")
    return None


def _nim_file_rules(doc: dict, shown) -> NimRules:
    box = doc.get("box")
    if (not isinstance(box, list | tuple) or len(box) != 3
            or not all(_is_int(b) and 0 <= b <= MAX_NIM_PILE for b in box) or sum(box) == 0):
        raise ValueError(f"\"box\" must be the three largest piles of the Nim brain, each a whole number from 0 "
                         f"to {MAX_NIM_PILE} and not all 0, not {shown(box)}.")
    return NimRules(tuple(box))


def _old_nim_export_layout(doc: dict) -> dict | None:
    """The layout of a Nim brain written by the export of before (version 1, no "game": `size` counted
    Nim's hats, `max_take` its widest hat, and hat 0 is the hat for (0, 0, 1), never empty) when exactly
    one box fits its hats; else None. A sticks file never matches: its hat 0 is empty."""
    rows, size = doc.get("hats"), doc.get("size")
    if (not isinstance(rows, list) or not _is_int(size) or len(rows) != size or not rows
            or not isinstance(rows[0], list) or not rows[0] or "box" in doc):
        return None
    lengths = [len(row) if isinstance(row, list) else -1 for row in rows]
    fits = []
    for n, d, q in product(range(MAX_NIM_PILE + 1), repeat=3):
        if (n + 1) * (d + 1) * (q + 1) - 1 == size and [sum(p) for p in NimRules((n, d, q)).positions()] == lengths:
            fits.append([n, d, q])
    return {"box": fits[0]} if len(fits) == 1 else None


register(GameEntry(
    name="nim", title="three-pile Nim", choice="Three-pile Nim (last coin wins)", brain_words="a Nim brain", rules_class=NimRules,
    make_rules=lambda start=None, max_take=None, moves=(): NimRules((MAX_PILE, MAX_PILE, MAX_PILE)),
    layout=lambda rules: {"box": list(rules.box)},
    from_layout=lambda layout: NimRules(tuple(layout["box"])),
    opponents={
        "friend": "a friend (same keyboard)",
        "random": "the random AI",
        "perfect": "the perfect AI (the table)",
        "learning": "the learning AI (piles up to 7)",
    },
    default_opponent="perfect", watchable=True,
    scope=lambda rules: "piles up to " + ", ".join(map(str, rules.box)),
    listing_note="A Nim brain has one hat per position of its piles and a ball for each move (Take).",
    ai_names={"random": "Nim Random AI", "perfect": "Nim Perfect AI", "learning": "Nim Learning AI"},
    brain_rules_of=lambda size, max_take, box: NimRules(box),
    unusable_because=lambda stored, wanted: (None if stored.box == wanted.box else
                                             f"knows piles up to {stored.box}, not {wanted.box}"),
    columns_of=lambda rules, shape: (shape[0], shape[1], ",".join(map(str, rules.box))),
    stored_rules_of=lambda size, max_take, shape: NimRules(tuple(int(b) for b in (shape or "").split(","))),
    write_start=lambda piles: ",".join(map(str, piles)), read_start=_nim_start,
    write_move=lambda move: f"{move[0] + 1}:{move[1]}", read_move=_nim_move,
    unfinished=lambda start, moves: f"The moves {moves} do not empty the piles {start!r}.",
    pile_and_took=lambda move: (move[0] + 1, move[1]),
    illegal=lambda move, exc: f"The Nim move {move!r} takes coins that are not there ({exc})",
    file_layout_conflict=_nim_file_conflict, file_rules=_nim_file_rules, old_file_layout=_old_nim_export_layout,
    file_rows_words=lambda rules, rows: (f"\"hats\" holds {rows} hats but the box {list(rules.box)} has "
                                         f"{len(rules.positions())} positions, one hat each."),
    file_hat_label=lambda piles: f"the hat for the piles {piles}",
))


# -- noughts and crosses (MENACE) --------------------------------------------------------------------

def _noughts_move(value) -> int:
    if not whole_number(value) or not 1 <= value <= 9:
        raise ValueError(f"A move in noughts and crosses is a square from 1 to 9, not {value!r}.")
    return int(value)


register(GameEntry(
    name="noughts", title="noughts and crosses", choice="Noughts and crosses (MENACE)",
    brain_words="a MENACE brain", rules_class=NoughtsRules,
    make_rules=lambda start=None, max_take=None, moves=(): NoughtsRules(),
    layout=lambda rules: {}, from_layout=lambda layout: NoughtsRules(),
    opponents={
        "menace": "MENACE (it learns)",
        "perfect": "the perfect AI (exact minimax)",
        "random": "the random AI",
        "friend": "a friend (same keyboard)",
    },
    default_opponent="menace", watchable=True,
    # MENACE's second brain (for O) plays under a name of its own when MENACE plays MENACE
    ai_names={"menace": "MENACE", "perfect": "Noughts Perfect AI", "random": "Noughts Random AI",
              "menace-o": "MENACE O"},
    write_start=str, read_start=parse_board, read_move=_noughts_move,
    unfinished=lambda start, moves: f"The moves {moves} do not finish the game of noughts and crosses from the board {start!r}.",
    illegal=lambda move, exc: f"The square {move!r} cannot be marked there: {exc}",
    brains="matchboxes", taught_at=lambda board: board.count(".") >= 2,
    listing_note="A MENACE brain has one box per board MENACE faces (up to symmetry) and a bead count per square.",
    scope=lambda rules: "every board MENACE can face",
))
