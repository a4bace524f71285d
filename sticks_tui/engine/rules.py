"""The Game of Sticks: a heap of sticks, players take 1..max_take in turn, whoever takes the last loses.

`SticksRules` describes it in the game protocol (`engine.protocol`); a game in play is the generic
`engine.state.GameState`. Illegal moves raise `IllegalMove` with a message a person can read.
"""

from __future__ import annotations

from collections.abc import Sequence

from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import LOSS, whole_number
from sticks_tui.engine.registry import GameEntry, register, whole_number_option
from sticks_tui.engine.state import GameState

DEFAULT_MAX_TAKE = 3
#: What a brain file may hold (`store.brainfile`): the most hats of a sticks brain, the most sticks a move.
MAX_HATS = 1000
MAX_TAKE_LIMIT = 10
#: The heap sizes the app offers a person (seed 000: "between 10 and 100").
MIN_HEAP = 10
MAX_HEAP = 100


def legal_moves(heap: int, max_take: int = DEFAULT_MAX_TAKE) -> range:
    """The numbers of sticks a player may take from `heap`: 1..min(max_take, heap)."""
    return range(1, min(max_take, heap) + 1)


def heaps_words(heap: int) -> str:
    """What the figures of a sticks game of `heap` sticks are about: 'heaps 2-20' (heap 1 is no choice:
    its one move loses)."""
    return f"heaps 2-{heap}" if heap > 2 else f"heap {heap}"


def sticks_word(n: int) -> str:
    return "stick" if n == 1 else "sticks"


class SticksRules:
    """The Game of Sticks in the game protocol (`engine.protocol.GameRules`): heaps 1..size, take
    1..max_take, whoever takes the last stick loses. Positions are heap sizes; moves are numbers taken."""

    name = "the Game of Sticks"
    last_mover_wins = False  # derived from `outcome`: whoever takes the last stick loses

    def __init__(self, size: int = 20, max_take: int = DEFAULT_MAX_TAKE) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise IllegalMove(f"Sticks needs a heap of at least 1, not {size!r}.")
        if isinstance(max_take, bool) or not isinstance(max_take, int) or max_take < 1:
            raise IllegalMove(f"The most sticks a player may take must be at least 1, not {max_take!r}.")
        self.size = size
        self.max_take = max_take

    def positions(self) -> range:
        return range(1, self.size + 1)

    def start_positions(self) -> tuple[int]:
        return (self.size,)

    def legal_moves(self, position: int) -> range:
        return legal_moves(position, self.max_take)

    def apply(self, position: int, move: int) -> int:
        return position - move

    def is_terminal(self, position: int) -> bool:
        return position == 0

    def outcome(self, position: int) -> int:
        return LOSS  # whoever takes the last stick loses

    def hat_rows(self) -> tuple[int | None, ...]:
        """Row n is the hat for a heap of n sticks; row 0 (no sticks, no move) is unused."""
        return (None, *range(1, self.size + 1))

    def position_text(self, position: int) -> str:
        return f"{position} {sticks_word(position)}"

    def picture(self, position: int):
        """The heap as sticks (`engine.pictures`)."""
        from sticks_tui.engine.pictures import Sticks

        return Sticks(int(position))

    def move_text(self, position: int, move: int) -> str:
        return f"take {move} {sticks_word(move)}"

    def encode_position(self, position: int) -> int:
        return int(position)

    def decode_position(self, value) -> int:
        if not whole_number(value) or not 0 <= value <= self.size:
            raise IllegalMove(f"A heap here is a whole number of sticks from 0 to {self.size}, not {value!r}.")
        return int(value)

    def encode_move(self, move: int) -> int:
        return int(move)

    def decode_move(self, position: int, value) -> int:
        """The number of sticks `value` takes from `position`, if the rules allow it."""
        if not whole_number(value):
            raise IllegalMove(f"A move is a whole number of sticks, not {value!r}.")
        if position == 0:
            raise IllegalMove("The game is over: there are no sticks left to take.")
        moves = self.legal_moves(position)
        if value not in moves:
            if value > position >= 1 and value <= self.max_take:
                raise IllegalMove(f"Cannot take {value} {sticks_word(value)}: only {position} "
                                  f"{sticks_word(position)} left.")
            raise IllegalMove(f"Please enter a number between 1 and {moves[-1]}.")
        return int(value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SticksRules) and (self.size, self.max_take) == (other.size, other.max_take)

    def __hash__(self) -> int:
        return hash(("sticks", self.size, self.max_take))

    def __repr__(self) -> str:
        return f"SticksRules(size={self.size}, max_take={self.max_take})"


def new_game(heap: int, first: int = 0, max_take: int = DEFAULT_MAX_TAKE) -> GameState:
    """A fresh game with `heap` sticks; `first` (0 or 1) moves first."""
    if isinstance(heap, bool) or not isinstance(heap, int):
        raise IllegalMove(f"The heap is a whole number of sticks, not {heap!r}.")
    if heap < 1:
        raise IllegalMove(f"A game needs at least one stick, not {heap}.")
    return GameState(SticksRules(heap, max_take), heap, first)


def parse_heap(text: str, low: int = MIN_HEAP, high: int = MAX_HEAP) -> int:
    """Read a starting heap typed by a person; raise ValueError with seed 000's message if it is not one."""
    message = f"Please enter a number between {low} and {high}."
    try:
        value = int(text.strip())
    except (ValueError, AttributeError):
        raise ValueError(message) from None
    if not low <= value <= high:
        raise ValueError(message)
    return value


# -- the game's registry entry (`engine.registry`): how the layers above find it by name --------------

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
    if not whole_number(size) or not 1 <= size <= MAX_HATS:
        raise ValueError(f"\"size\" must be a whole number of hats from 1 to {MAX_HATS}, not {shown(size)}.")
    max_take = doc.get("max_take")
    if not whole_number(max_take) or not 1 <= max_take <= MAX_TAKE_LIMIT:
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
    game=lambda rules: f"a game of {rules.size} {sticks_word(rules.size)}", position_word="heap",
    replay_every_hat=True, file_version=1,  # readers of version 1 ignore "game": an older sticks-tui reads it
    columns_of=lambda rules, shape: (rules.size, rules.max_take, None),
    move_columns=lambda rules: rules.max_take,  # a brain keeps a column per take, even where no heap is that big
    stored_rules_of=lambda size, max_take, shape: SticksRules(size, max_take), ragged_counts=True,
    grown=lambda rules, positions: SticksRules(max(rules.size, *positions), rules.max_take),
    write_start=str, read_start=_sticks_start, read_move=_sticks_move,
    unfinished=lambda start, moves: (f"The moves {moves} do not take exactly the {int(start)} sticks the "
                                     "game started with."),
    # a heap of 1 (one forced move) teaches nothing: 'explore' games start from 2..N (from N when N <= 2)
    explore_from=lambda rules: tuple(range(2, rules.size + 1)) if rules.size > 2 else (rules.size,),
    # the app's brain of the seeds' hats, one hat for every heap the app offers (the setup's MENACE-like hats are
    # a second brain, 'menace': vocabulary.HAT_BRAINS)
    ai_brains=("default",), ai_brain_options=lambda side: {"size": MAX_HEAP},
    curve_size=lambda rules: rules.size, curve_scope=heaps_words, max_hats=MAX_HATS,
    # a version-1 settings file kept sticks' start heap and the train dialog's heap in fields of their own
    v1_settings={"heap": "start", "train_heap": "train_start"},
    file_layout_conflict=_sticks_file_conflict, file_rules=_sticks_file_rules, reads_unnamed_files=True,
    file_rows_words=lambda rules, rows: (f"\"hats\" holds {rows} entries but \"size\" says {rules.size} hats "
                                         f"(expected {rules.size + 1}: an empty hat 0, then hats 1 to {rules.size})."),
    file_hat_label=lambda heap: f"hat {heap}",
    file_empty_row_words=lambda row: "hat 0 must be empty ([]): there is no hat for an empty heap.",
    options=(
        whole_number_option("sticks", "--sticks", 1, MAX_HATS, 20,
                            "starting heap, and so the number of hats (default 20). The app and the seeds play "
                            f"{MIN_HEAP}-{MAX_HEAP}; the command line deliberately takes 1-{MAX_HATS} for experiments",
                            words="the heap"),
        whole_number_option("max_take", "--max-take", 1, MAX_TAKE_LIMIT, DEFAULT_MAX_TAKE,
                            f"the most sticks a move may take (default {DEFAULT_MAX_TAKE})", of_rules=True,
                            words="the maximum take"),
    ),
    rules_of=lambda values, start: SticksRules(values["sticks"] if start is None else start, values["max_take"]),
    training_games=100_000,
    lab_rules=lambda size: SticksRules(size), lab_size=(100, 2, 1000), lab_size_words="the starting heap",
))
