"""Three-pile Nim (seed 004): piles of nickels, dimes and quarters; a move takes one or more coins
from one pile; whoever takes the last coin WINS (the opposite of sticks).

Only the rules live here: an immutable `NimState` for a game in play, `nim_moves` (the one place
Nim's moves are written) and `NimRules`, Nim in the game protocol (`engine.protocol`). The players
and the `NimGame` driver are in `engine.players` and `engine.game`. A move is a tuple
`(pile, coins)` with pile 0 = nickels, 1 = dimes, 2 = quarters.
"""

from __future__ import annotations

from dataclasses import dataclass

from sticks_tui.engine.rules import IllegalMove

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


@dataclass(frozen=True, slots=True)
class NimTurn:
    """One move in a game's history: `player` (0 or 1) took `coins` from `pile` of `piles_before`."""

    player: int
    pile: int
    coins: int
    piles_before: Piles

    @property
    def move(self) -> tuple[int, int]:
        return self.pile, self.coins

    @property
    def piles_after(self) -> Piles:
        return nim_after(self.piles_before, self.move)


@dataclass(frozen=True, slots=True)
class NimState:
    """Where a game of Nim stands: the three piles, whose turn it is, and every move so far."""

    piles: Piles
    to_move: int = 0
    history: tuple[NimTurn, ...] = ()

    def __post_init__(self) -> None:
        piles = self.piles
        if not isinstance(piles, tuple):
            try:
                piles = tuple(piles)
            except TypeError:
                raise IllegalMove(f"Nim needs three piles (nickels, dimes, quarters), not {piles!r}.") from None
            object.__setattr__(self, "piles", piles)
        if len(piles) != 3:
            raise IllegalMove(f"Nim here has three piles (nickels, dimes, quarters), not {len(piles)}.")
        for name, count in zip(PILE_NAMES, piles, strict=True):
            if isinstance(count, bool) or not isinstance(count, int):
                raise IllegalMove(f"The {name} pile must be a whole number of coins, not {count!r}.")
            if count < 0:
                raise IllegalMove(f"The {name} pile cannot hold {count} coins.")
        if self.to_move not in (0, 1):
            raise IllegalMove(f"Player {self.to_move + 1} is not in this game: it is player 1 or player 2.")

    @property
    def coins_left(self) -> int:
        return sum(self.piles)

    @property
    def is_over(self) -> bool:
        return self.coins_left == 0

    @property
    def start_piles(self) -> Piles:
        return self.history[0].piles_before if self.history else self.piles

    @property
    def legal_moves(self) -> tuple[tuple[int, int], ...]:
        """Every (pile, coins) the player to move may play, by pile then by coins."""
        return nim_moves(self.piles)

    def is_legal(self, pile: int, coins: int) -> bool:
        try:
            self._check(pile, coins)
        except IllegalMove:
            return False
        return True

    def _check(self, pile, coins) -> None:
        if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile <= 2:
            raise IllegalMove(f"Choose pile 0 (nickels), 1 (dimes) or 2 (quarters), not {pile!r}.")
        if isinstance(coins, bool) or not isinstance(coins, int):
            raise IllegalMove(f"A move takes a whole number of coins, not {coins!r}.")
        if self.is_over:
            raise IllegalMove("The game is over: there are no coins left to take.")
        have = self.piles[pile]
        if have == 0:
            raise IllegalMove(f"The {PILE_NAMES[pile]} pile is empty: take coins from another pile.")
        if coins < 1:
            raise IllegalMove(f"Take at least one coin (between 1 and {have} {PILE_NAMES[pile]}).")
        if coins > have:
            raise IllegalMove(f"Cannot take {coins_word(pile, coins)}: only {coins_word(pile, have)} left.")

    def take(self, pile: int, coins: int) -> NimState:
        """The state after the player to move takes `coins` from `pile`."""
        self._check(pile, coins)
        turn = NimTurn(self.to_move, pile, coins, self.piles)
        return NimState(turn.piles_after, 1 - self.to_move, self.history + (turn,))

    @property
    def position(self) -> Piles:
        """The position in the game protocol (`NimRules`): the piles."""
        return self.piles

    @property
    def rules(self) -> NimRules:
        """This game as a protocol instance: every position up to the largest piles allowed."""
        return NimRules((MAX_PILE, MAX_PILE, MAX_PILE))

    @property
    def winner(self) -> int | None:
        """The player who took the last coin (the winner), once the game is over."""
        if not self.is_over or not self.history:
            return None
        return self.history[-1].player

    @property
    def loser(self) -> int | None:
        winner = self.winner
        return None if winner is None else 1 - winner


def new_nim_game(piles, first: int = 0) -> NimState:
    """A fresh game; each pile 0..100 coins, at least one coin in all; `first` (0 or 1) moves first."""
    state = NimState(tuple(piles) if not isinstance(piles, tuple) else piles, first)
    for name, count in zip(PILE_NAMES, state.piles, strict=True):
        if count > MAX_PILE:
            raise IllegalMove(f"The {name} pile may hold at most {MAX_PILE} coins, not {count}.")
    if state.is_over:
        raise IllegalMove("A game needs at least one coin.")
    return state


class NimRules:
    """Three-pile Nim in the game protocol (`engine.protocol.GameRules`) on piles up to `box`
    (default 7, 7, 7): positions are pile tuples, moves (pile, coins); the last coin wins."""

    name = "three-pile Nim"
    last_mover_wins = True  # whoever takes the last coin wins

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

    def hat_rows(self) -> tuple[Piles, ...]:
        return self.positions()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NimRules) and self.box == other.box

    def __hash__(self) -> int:
        return hash(("nim", self.box))

    def __repr__(self) -> str:
        return f"NimRules(box={self.box})"
