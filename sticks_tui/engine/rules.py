"""The Game of Sticks: a heap of sticks, players take 1..max_take in turn, whoever takes the last loses.

`SticksRules` describes it in the game protocol (`engine.protocol`); a game in play is the generic
`engine.state.GameState`. Illegal moves raise `IllegalMove` with a message a person can read.
"""

from __future__ import annotations

from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import LOSS, whole_number
from sticks_tui.engine.state import GameState

DEFAULT_MAX_TAKE = 3
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
