"""Three-pile Nim (seed 004): piles of nickels, dimes and quarters; a move takes one or more coins
from one pile; whoever takes the last coin WINS (the opposite of sticks).

Only the rules live here: `nim_moves` (the one place Nim's moves are written) and `NimRules`, Nim
in the game protocol (`engine.protocol`); a game in play is the generic `engine.state.GameState`.
A move is a tuple `(pile, coins)` with pile 0 = nickels, 1 = dimes, 2 = quarters.
"""

from __future__ import annotations

from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import WIN, whole_number
from sticks_tui.engine.state import GameState

PILE_NAMES: tuple[str, str, str] = ("nickels", "dimes", "quarters")
PILE_SINGULAR: tuple[str, str, str] = ("nickel", "dime", "quarter")
#: The largest pile a game may start with: the solver's table covers 0..100 (seed 004).
MAX_PILE = 100

Piles = tuple[int, int, int]


def nim_moves(piles) -> tuple[tuple[int, int], ...]:
    """Every (pile, coins) the player to move may play from `piles`, by pile then by coins."""
    return tuple((pile, coins) for pile in range(len(piles)) for coins in range(1, piles[pile] + 1))


def nim_after(piles, move: tuple[int, int]) -> Piles:
    """The piles once `move` is played (no checks beyond the arithmetic)."""
    pile, coins = move
    p = list(piles)
    p[pile] -= coins
    return p[0], p[1], p[2]


def coins_word(pile: int, coins: int) -> str:
    return f"{coins} {PILE_SINGULAR[pile] if coins == 1 else PILE_NAMES[pile]}"


def piles_text(piles) -> str:
    return ", ".join(coins_word(i, n) for i, n in enumerate(piles))


def new_nim_game(piles, first: int = 0) -> GameState:
    """A fresh game; each pile 0..100 coins, at least one coin in all; `first` (0 or 1) moves first."""
    state = GameState(NimRules((MAX_PILE, MAX_PILE, MAX_PILE)), piles, first)
    if state.is_over:
        raise IllegalMove("A game needs at least one coin.")
    return state


class NimRules:
    """Three-pile Nim in the game protocol (`engine.protocol.GameRules`) on piles up to `box`
    (default 7, 7, 7): positions are pile tuples, moves (pile, coins); the last coin wins."""

    name = "three-pile Nim"
    last_mover_wins = True  # derived from `outcome`: whoever takes the last coin wins

    def __init__(self, box=(7, 7, 7)) -> None:
        try:
            box = tuple(int(b) for b in box)
        except (TypeError, ValueError):
            raise IllegalMove(f"Nim's box is three pile sizes, not {box!r}.") from None
        if len(box) != 3 or any(b < 0 or b > MAX_PILE for b in box) or sum(box) == 0:
            raise IllegalMove(f"Nim's box is three pile sizes of 0 to {MAX_PILE}, not all 0: {box!r}.")
        self.box: Piles = box  # type: ignore[assignment]
        self._positions: tuple[Piles, ...] | None = None

    def positions(self) -> tuple[Piles, ...]:
        if self._positions is None:
            n1, n2, n3 = self.box
            self._positions = tuple((n, d, q) for n in range(n1 + 1) for d in range(n2 + 1)
                                    for q in range(n3 + 1) if n + d + q > 0)
        return self._positions

    def start_positions(self) -> tuple[Piles]:
        return (self.box,)

    def legal_moves(self, position) -> tuple[tuple[int, int], ...]:
        return nim_moves(position)

    def apply(self, position, move) -> Piles:
        return nim_after(position, move)

    def is_terminal(self, position) -> bool:
        return sum(position) == 0

    def outcome(self, position) -> int:
        return WIN  # whoever takes the last coin wins

    def hat_rows(self) -> tuple[Piles, ...]:
        return self.positions()

    def position_text(self, position) -> str:
        return piles_text(position)

    def picture(self, position):
        """The three piles (`engine.pictures`)."""
        from sticks_tui.engine.pictures import Piles

        return Piles(tuple(int(p) for p in position))

    def move_text(self, position, move) -> str:
        return f"take {coins_word(*move)}"

    def encode_position(self, position) -> list[int]:
        return [int(p) for p in position]

    def decode_position(self, value) -> Piles:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise IllegalMove(f"Nim needs three piles (nickels, dimes, quarters), not {value!r}.")
        piles = tuple(value)
        if len(piles) != 3:
            raise IllegalMove(f"Nim here has three piles (nickels, dimes, quarters), not {len(piles)}.")
        for name, count, top in zip(PILE_NAMES, piles, self.box, strict=True):
            if not whole_number(count):
                raise IllegalMove(f"The {name} pile must be a whole number of coins, not {count!r}.")
            if count < 0:
                raise IllegalMove(f"The {name} pile cannot hold {count} coins.")
            if count > top:
                raise IllegalMove(f"The {name} pile may hold at most {top} coins, not {count}.")
        return int(piles[0]), int(piles[1]), int(piles[2])

    def encode_move(self, move) -> list[int]:
        return [int(move[0]), int(move[1])]

    def decode_move(self, position, value) -> tuple[int, int]:
        """The (pile, coins) `value` takes from `position`, if the rules allow it."""
        try:
            pile, coins = value
        except (TypeError, ValueError):
            raise IllegalMove(f"A Nim move is a pile and a number of coins, not {value!r}.") from None
        if not whole_number(pile) or not 0 <= pile <= 2:
            raise IllegalMove(f"Choose pile 0 (nickels), 1 (dimes) or 2 (quarters), not {pile!r}.")
        if not whole_number(coins):
            raise IllegalMove(f"A move takes a whole number of coins, not {coins!r}.")
        if sum(position) == 0:
            raise IllegalMove("The game is over: there are no coins left to take.")
        have = position[pile]
        if have == 0:
            raise IllegalMove(f"The {PILE_NAMES[pile]} pile is empty: take coins from another pile.")
        if coins < 1:
            raise IllegalMove(f"Take at least one coin (between 1 and {have} {PILE_NAMES[pile]}).")
        if coins > have:
            raise IllegalMove(f"Cannot take {coins_word(pile, coins)}: only {coins_word(pile, have)} left.")
        return int(pile), int(coins)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NimRules) and self.box == other.box

    def __hash__(self) -> int:
        return hash(("nim", self.box))

    def __repr__(self) -> str:
        return f"NimRules(box={self.box})"
