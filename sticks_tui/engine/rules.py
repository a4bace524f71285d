"""The Game of Sticks: a heap of sticks, players take 1..max_take in turn, whoever takes the last loses.

A game state is a small immutable value; a move returns a new state. Illegal moves raise
`IllegalMove` with a message a person can read.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_TAKE = 3
#: The heap sizes the app offers a person (seed 000: "between 10 and 100").
MIN_HEAP = 10
MAX_HEAP = 100


class IllegalMove(ValueError):
    """A move the rules do not allow; its message says why in plain words."""


def legal_moves(heap: int, max_take: int = DEFAULT_MAX_TAKE) -> range:
    """The numbers of sticks a player may take from `heap`: 1..min(max_take, heap)."""
    return range(1, min(max_take, heap) + 1)


def sticks_word(n: int) -> str:
    return "stick" if n == 1 else "sticks"


@dataclass(frozen=True, slots=True)
class Move:
    """One move: `player` (0 or 1) took `take` sticks from a heap of `heap_before`."""

    player: int
    take: int
    heap_before: int

    @property
    def heap_after(self) -> int:
        return self.heap_before - self.take


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands: sticks left, whose turn it is, and every move so far."""

    heap: int
    to_move: int = 0
    history: tuple[Move, ...] = ()
    max_take: int = DEFAULT_MAX_TAKE
    start_heap: int = 0

    def __post_init__(self) -> None:
        if self.max_take < 1:
            raise IllegalMove(f"The most sticks a player may take must be at least 1, not {self.max_take}.")
        if self.heap < 0:
            raise IllegalMove(f"A heap cannot hold {self.heap} sticks.")
        if self.to_move not in (0, 1):
            raise IllegalMove(f"Player {self.to_move + 1} is not in this game: it is player 1 or player 2.")
        if self.start_heap == 0:
            object.__setattr__(self, "start_heap", self.heap + sum(m.take for m in self.history))

    @property
    def is_over(self) -> bool:
        return self.heap == 0

    @property
    def legal_moves(self) -> range:
        return legal_moves(self.heap, self.max_take)

    def is_legal(self, take: int) -> bool:
        return not self.is_over and 1 <= take <= min(self.max_take, self.heap)

    def take(self, take: int) -> GameState:
        """The state after the player to move takes `take` sticks."""
        if isinstance(take, bool) or not isinstance(take, int):
            raise IllegalMove(f"A move is a whole number of sticks, not {take!r}.")
        if self.is_over:
            raise IllegalMove("The game is over: there are no sticks left to take.")
        top = min(self.max_take, self.heap)
        if not 1 <= take <= top:
            if take > self.heap >= 1 and take <= self.max_take:
                raise IllegalMove(
                    f"Cannot take {take} {sticks_word(take)}: only {self.heap} {sticks_word(self.heap)} left."
                )
            raise IllegalMove(f"Please enter a number between 1 and {top}.")
        move = Move(self.to_move, take, self.heap)
        return GameState(self.heap - take, 1 - self.to_move, self.history + (move,), self.max_take, self.start_heap)

    @property
    def position(self) -> int:
        """The position in the game protocol (`SticksRules`): the heap."""
        return self.heap

    @property
    def rules(self) -> SticksRules:
        """This game as a protocol instance, up to its starting heap."""
        return SticksRules(max(self.start_heap, self.heap, 1), self.max_take)

    @property
    def loser(self) -> int | None:
        """The player who took the last stick, once the game is over."""
        if not self.is_over or not self.history:
            return None
        return self.history[-1].player

    @property
    def winner(self) -> int | None:
        loser = self.loser
        return None if loser is None else 1 - loser


class SticksRules:
    """The Game of Sticks in the game protocol (`engine.protocol.GameRules`): heaps 1..size, take
    1..max_take, whoever takes the last stick loses. Positions are heap sizes; moves are numbers taken."""

    name = "the Game of Sticks"
    last_mover_wins = False  # whoever takes the last stick loses

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

    def hat_rows(self) -> tuple[int | None, ...]:
        """Row n is the hat for a heap of n sticks; row 0 (no sticks, no move) is unused."""
        return (None, *range(1, self.size + 1))

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
    return GameState(heap=heap, to_move=first, max_take=max_take, start_heap=heap)


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
