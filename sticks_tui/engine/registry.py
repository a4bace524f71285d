"""The games this sticks-tui knows, found by name (as OpenSpiel's `pyspiel.load_game`).

Each game registers itself from its own module, beside its rules (`register(GameEntry(...))`); this
module holds only the list of those modules (`GAME_MODULES`, loaded on the first look-up), the
`GameEntry` type and the look-ups. An entry says what the layers above need to find a game by its
name (the store's and the settings' "sticks", "nim") or by its rules object, and nothing they could
ask the rules themselves:

- `name`, `title` (words for a person) and `brain_words` ("a sticks brain");
- `rules_class` and `make_rules(start, max_take=None, moves=())`: the rules a game from `start`
  is played (and replayed) under;
- `layout(rules)` / `from_layout(layout)`: the rules as a small JSON object, for brains;
- the text forms the records keep (`write_start`/`read_start`, `write_move`/`read_move`) and what
  a replay says when the moves do not finish the game (`unfinished`). A new game needs none of
  these: the defaults keep the JSON of `encode_position`/`encode_move`.

The UI adds its board per game from its own side (`ui.boards`), so the core never imports the UI.
A new game is a rules module that registers its entry, and its name in `GAME_MODULES`;
`tests/unit/test_layers.py` holds every other module to asking the registry or the rules, never
comparing a game's name.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sticks_tui.engine.protocol import GameRules

#: The modules that register the games, in the order the games are listed (setup screens, `--game`'s
#: choices, messages naming the games). A new game adds its module here and nothing else in the core.
GAME_MODULES: tuple[str, ...] = (
    "sticks_tui.engine.rules",
    "sticks_tui.engine.nim",
    "sticks_tui.engine.noughts",
    "sticks_tui.engine.hexapawn",
)

#: The opponent kinds that are a game's learning AI (`GameEntry.learning_kind`): "learning", and "menace", the name
#: noughts keeps for MENACE in its records and settings.
LEARNING_KINDS: tuple[str, ...] = ("learning", "menace")


@dataclass(frozen=True)
class GameOption:
    """One of a game's size options on the command line (`sticks-tui train --game sticks --sticks 20`):
    `key` names its value (in `GameEntry.rules_from` and in a command's JSON), `parse` reads the text
    typed (a ValueError saying why, naming `flag`, if it is not one). `of_rules`: it changes the rules a
    position is played under (sticks' --max-take), not only how big a game is (--sticks, --piles), so a
    command about one position (`solve`) takes it too."""

    key: str
    flag: str
    parse: Callable[[str], Any]
    default: Any
    help: str
    metavar: str | None = None
    of_rules: bool = False
    #: Checks a value given by a program (`TrainingConfig(sticks=...)`), not typed: the value, or a ValueError
    #: saying its limits in words (None: any value its rules take).
    check: Callable[[Any], Any] | None = None


def whole_number_option(key: str, flag: str, low: int, high: int, default: int, help: str,
                        of_rules: bool = False, words: str | None = None) -> GameOption:
    """A size option that is one whole number from `low` to `high` (commas and underscores allowed when typed);
    `words` names it in a program's error ('the heap'; default its flag)."""

    def parse(text: str) -> int:
        try:
            value = int(str(text).replace("_", "").replace(",", ""))
        except ValueError:
            raise ValueError(f"{flag} must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise ValueError(f"{flag} must be between {low:,} and {high:,}, not {value:,}")
        return value

    def check(value) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            what = (words[:1].upper() + words[1:]) if words else flag
            raise ValueError(f"{what} must be a whole number between {low} and {high}, not {value!r}.")
        return value

    return GameOption(key, flag, parse, default, help, "N", of_rules, check)


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
    #: The columns of counts a brain of it keeps, one a move (`learn.hats`), where they are more than the most
    #: moves a position has (sticks: one a take up to its max take, even where no heap is that big); None: that.
    move_columns: Callable[[GameRules], int] | None = None
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
    #: The game the chances against a perfect player are over, in words ('a game of 20 sticks'; default:
    #: 'a game of ' and its title): the start of the rules' first start position.
    game: Callable[[GameRules], str] | None = None
    #: What one of its positions is called in a table's heading ('heap', 'board'; default: 'position').
    position_word: str = "position"
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
    #: How the screens and the command line word and draw its brains: "hats" (a hat of balls per position)
    #: or "matchboxes" (MENACE's boxes of beads). Words only: every game's brain is the one counts learner's
    #: (`learn.hats.Hats`), stored in one shape; the learner and the store never read this.
    brains: str = "hats"
    #: The learning AI's kept brains, by name, as the app and the line mode (`sticks-tui play`) play them: one
    #: name, one brain for both sides; two, the first mover's and the second's (MENACE's X and O boxes, HER White
    #: and HER). Empty: one brain named as the game. And what the store is asked to make one of a side
    #: (`ai_brain_options(side)`: `Store.load_or_create_brain`'s size, box or seat).
    ai_brains: tuple[str, ...] = ()
    ai_brain_options: Callable[[int], dict] = field(default=lambda side: {}, compare=False)
    #: What its learner's containers and tokens are called on screen, when not `brains`' own (hats and balls,
    #: MENACE's boxes and beads): Hexapawn's HER ("box", "bead") learns by the hats' rule, from matchboxes.
    brain_tokens: tuple[str, str] = ()
    #: The counts learner's settings for a fresh brain of this game, as `learn.hats.HatRule`'s fields (empty:
    #: the seeds' rule). Noughts and crosses: Michie's, so a fresh brain is MENACE.
    learner_settings: dict = field(default_factory=dict)
    #: How the train dialog names `learner_settings` among its choices of rule (empty: the seeds' hats and the
    #: MENACE-like ones are offered), and the other named settings it offers (key -> (words, settings)):
    #: noughts keeps Michie's own 4,3,2,1 beads as a choice beside its default.
    learner_words: str = ""
    learner_presets: dict = field(default_factory=dict)
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
    #: A brain file of before in a form of this game's own (noughts: MENACE's version-2 "boxes" of 9 beads by
    #: square), read by its own module: old_brain_file(doc, shown, brain_of, most) is None when `doc` is not one;
    #: else (brain, rows): the learner's brain `brain_of(seat, settings)` made (settings as `learner_settings`;
    #: a ValueError saying why it cannot), and each container's counts in the order of its moves, every field
    #: checked (counts 0 to `most`), a ValueError saying why not. The store fills the brain.
    old_brain_file: Callable[[dict, Callable, Callable, int], tuple | None] | None = None
    #: Training (`learn.trainer`): where 'explore' games start (None: every position), and the one number
    #: kept with a run's learning curve to say what its figures are over (None: nothing; sticks: the heap).
    explore_from: Callable[[GameRules], tuple] | None = None
    curve_size: Callable[[GameRules], int] | None = None
    #: Its size options on the command line (`sticks-tui train/solve/play --game G ...`), and the rules of a
    #: game played with them: rules_of(values, start), `values` holding every option's key (given or its
    #: default), `start` a position asked about (None: the game's own start). None: `make_rules(start)`.
    options: tuple[GameOption, ...] = ()
    rules_of: Callable[[dict, Any], GameRules] | None = None
    #: What `sticks-tui train --game G` plays by default: how many games, and from where ("explore":
    #: every position, "classic": the start).
    training_games: int = 100_000
    training_protocol: str = "explore"
    #: Whom the train dialog's run plays by default (`learn.trainer.OPPONENTS`: 'self' a second learner,
    #: 'random', 'best-at-random' the perfect player).
    training_opponent: str = "self"
    #: The seat the learning AI's brain keeps when `sticks-tui train --game G` is not told (0 the first player,
    #: 1 the second: a brain of that player's containers, `--seat` chooses the other); None: one brain keeps
    #: both seats' containers (no `--seat`).
    learner_seat: int | None = None
    #: Why its learner trains in that seat, against whom, in a sentence (`train --seat`'s help; '' none).
    learner_seat_why: str = ""
    #: The name of the counts learner with settings of its own that plays it, where one is named after its game
    #: ("MENACE": Michie's matchboxes; '': none), so that learner's module (`learn.menace`) finds its game by
    #: asking the registry (`learner_game`) and names none.
    learner_name: str = ""
    #: What a run's learning curve kept with its `curve_size` n is over, in words (sticks: 'heaps 2-20'; None:
    #: nothing is kept, so nothing is said): the curve export's "scope".
    curve_scope: Callable[[int], str] | None = None
    #: The most containers a stored brain of it may hold, where its brains grow (`grown`: sticks' 1,000 hats, one
    #: a heap); None: as many as its rules lay out.
    max_hats: int | None = None
    #: The keys a version-1 settings file kept for it, each with its place in its table of version 2
    #: (sticks: {'heap': 'start', 'train_heap': 'train_start'}): `store.settings` moves them there.
    v1_settings: dict = field(default_factory=dict)
    #: The learning lab (`learn.lab`): the rules of its game of size N (None: the game is not in the lab),
    #: the size it starts at and the sizes it takes (default, lowest, highest), and what N means in words.
    lab_rules: Callable[[int], GameRules] | None = None
    lab_size: tuple[int, int, int] = (1, 1, 1)
    lab_size_words: str = ""
    #: The parts the layers above add to this game from their own side, so the core never imports them: the
    #: UI's board (`set_board`), a line mode of its own for `sticks-tui play` (`attach(name, line_mode=...)`).
    board: dict = field(default_factory=dict, compare=False)

    @property
    def learning_kind(self) -> str | None:
        """The opponent kind (a key of `opponents`) that is its learning AI ("learning"; MENACE's "menace" on
        noughts), or None if it has none."""
        return next((kind for kind in self.opponents if kind in LEARNING_KINDS), None)

    def ai_brain_names(self) -> tuple[str, ...]:
        """Its learning AI's kept brains, the first mover's first (`ai_brains`; none given: one named as the game)."""
        return self.ai_brains or (self.name,)

    def ai_brain(self, side: int = 0) -> str:
        """The kept brain its learning AI plays `side` (0 moving first, 1 second) with, when none is chosen."""
        names = self.ai_brain_names()
        return names[1] if side == 1 and len(names) > 1 else names[0]

    def brains_by_side(self) -> bool:
        """Each side has a brain of its own (its containers only): the second mover's is not the first's."""
        return len(self.ai_brains) > 1

    def token_words(self) -> tuple[str, str]:
        """What its learner's containers and tokens are called: `brain_tokens`, else by `brains` (MENACE's
        matchboxes are boxes of beads, hats hold balls)."""
        if self.brain_tokens:
            return self.brain_tokens
        return ("box", "bead") if self.brains == "matchboxes" else ("hat", "ball")

    def option_values(self, given: dict | None = None) -> dict:
        """Every size option's value: those `given` (by key; None: not given), the others' defaults."""
        given = given or {}
        unknown = sorted(set(given) - {option.key for option in self.options})
        if unknown:
            raise ValueError(f"{self.title} has no option {unknown[0]!r}.")
        return {option.key: option.default if given.get(option.key) is None else given[option.key]
                for option in self.options}

    def rules_from(self, given: dict | None = None, start=None) -> GameRules:
        """The rules of a game played with the size options `given` (the rest at their defaults), from
        `start` when given (a position the rules must hold); ValueError (the rules' IllegalMove) saying why."""
        values = self.option_values(given)
        if self.rules_of is not None:
            return self.rules_of(values, start)
        return self.make_rules(start)

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

    def game_words(self, rules: GameRules) -> str:
        return self.game(rules) if self.game is not None else f"a game of {self.title}"

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
        return f"the {self.token_words()[0]} for {rules.position_text(position)}"

    def empty_row_words(self, row: int) -> str:
        if self.file_empty_row_words is not None:
            return self.file_empty_row_words(row)
        return f"\"hats\" entry {row} must be empty ([]): no position has a hat there."

    def curve_scope_words(self, size: int | None) -> str | None:
        """What a learning curve kept with `size` (its `curve_size`) is over, or None when not said."""
        return self.curve_scope(size) if size is not None and self.curve_scope is not None else None

    def unfinished_message(self, start, moves: list) -> str:
        if self.unfinished is not None:
            return self.unfinished(start, moves)
        return f"The moves {moves} do not finish the game of {self.title} from {start!r}."


_REGISTERED: dict[str, GameEntry] = {}
_loading = False
_ordered: dict[str, GameEntry] | None = None  # the entries in listing order, made again after a change


def register(entry: GameEntry) -> GameEntry:
    """Add a game (or replace the entry of that name); returns it. A game's module calls it on import."""
    global _ordered
    _REGISTERED[entry.name] = entry
    _ordered = None
    return entry


def unregister(name: str) -> None:
    global _ordered
    _REGISTERED.pop(name, None)
    _ordered = None


def _entries() -> dict[str, GameEntry]:
    """Every game, its modules loaded first: those of `GAME_MODULES` in its order, then any other
    registered (a game a test makes up), in the order they came."""
    global _loading, _ordered
    if not _loading:
        _loading = True  # for good: a module that imports the registry while loading finds it loading
        try:
            for module in GAME_MODULES:
                importlib.import_module(module)
        except BaseException:
            _loading = False
            raise
    if _ordered is None:
        rank = {module: i for i, module in enumerate(GAME_MODULES)}
        order = sorted(_REGISTERED.values(), key=lambda e: rank.get(e.rules_class.__module__, len(rank)))
        _ordered = {e.name: e for e in order}  # sorted() is stable: others keep their order
    return _ordered


def names() -> tuple[str, ...]:
    return tuple(_entries())


def entries() -> tuple[GameEntry, ...]:
    """Every game's entry, in listing order."""
    return tuple(_entries().values())


def entry(name: str) -> GameEntry:
    """The game called `name`; ValueError listing the games if there is none."""
    games = _entries()
    try:
        return games[name]
    except (KeyError, TypeError):
        raise ValueError(f"The game is one of {', '.join(games)}, not {name!r}.") from None


def entry_of(rules: GameRules) -> GameEntry:
    """The game whose rules `rules` are; ValueError if no game registered has them."""
    game = find(rules)
    if game is None:
        raise ValueError(f"No game here has the rules {rules!r}.")
    return game


def find(rules: GameRules) -> GameEntry | None:
    """The game whose rules `rules` are, or None (a game made up by a test, not registered)."""
    for game in _entries().values():
        if type(rules) is game.rules_class:
            return game
    return None


def move_columns(rules: GameRules) -> int:
    """The columns of counts a brain over `rules` keeps at the least, where its game's entry says (`move_columns`:
    sticks' max take); else 0 (as many as the most moves a position has)."""
    game = find(rules)
    return int(game.move_columns(rules)) if game is not None and game.move_columns is not None else 0


def explore_starts(rules: GameRules) -> tuple:
    """Where 'explore' training games start: every position, unless the game says otherwise."""
    game = find(rules)
    if game is not None and game.explore_from is not None:
        return tuple(game.explore_from(rules))
    return tuple(rules.positions())


def first_name() -> str:
    """The first game's name (`GAME_MODULES`' first: the Game of Sticks): what a layer above means by a game not
    named (an old record, an old brain file, a lab without --game), so none of them names one."""
    return names()[0]


def default_rules(*args, **kwargs) -> GameRules:
    """The rules of the first game (`GAME_MODULES`' first: the Game of Sticks) made from `args` as its entry's
    `make_rules` takes them (a heap and the most a move): what the shortcut `Hats(size, max_take)` of the layers
    above means, so it names no game (`TrainingConfig`'s shortcut is `default_rules_of`, checked)."""
    return entry(first_name()).make_rules(*args, **kwargs)


def default_rules_of(**values) -> GameRules:
    """The rules of the first game from its size options given by key (sticks: `sticks=20, max_take=3`), each
    checked by its option (`GameOption.check`: a ValueError saying the game's own limits): what the shortcut
    `TrainingConfig(sticks=..., max_take=...)` means, so the trainer knows no game's limits."""
    game = entry(first_name())
    options = {option.key: option for option in game.options}
    for key, value in values.items():
        if key not in options:
            raise ValueError(f"{game.title} has no option {key!r}.")
        if options[key].check is not None:
            options[key].check(value)
    return game.rules_from(values)


def curve_size(rules: GameRules) -> int | None:
    """The number kept with a run's learning curve over `rules` (sticks: the heap), or None."""
    game = find(rules)
    return game.curve_size(rules) if game is not None and game.curve_size is not None else None


def learner_game(learner: str) -> GameEntry:
    """The game the counts learner called `learner` ('MENACE') plays: the one whose entry names it
    (`GameEntry.learner_name`); ValueError if no game does."""
    for game in _entries().values():
        if game.learner_name == learner:
            return game
    raise ValueError(f"No game here is played by the learner {learner!r}.")


def name_of(rules: GameRules) -> str:
    return entry_of(rules).name


def unnamed_file_game(doc: dict) -> tuple[GameEntry, dict] | None:
    """The game (and the layout) of a version-1 brain file that does not say its game: an old export a
    game recognises as its own first, else the game that reads every such file; None if none does."""
    games = _entries().values()
    for game in games:
        layout = game.old_file_layout(doc) if game.old_file_layout is not None else None
        if layout is not None:
            return game, layout
    for game in games:
        if game.reads_unnamed_files:
            return game, doc
    return None


def attach(name: str, **parts) -> None:
    """Parts a layer above adds to game `name` (a line mode of its own, ...): kept with the entry."""
    entry(name).board.update(parts)


def set_board(name: str, **parts) -> None:
    """The UI's parts for game `name` (its screen, its board widget): kept with the entry."""
    attach(name, **parts)
