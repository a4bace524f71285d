"""Three-pile Nim (seed 004): piles of nickels, dimes and quarters; a move takes one or more coins
from one pile; whoever takes the last coin WINS (the opposite of sticks).

The same shape as the sticks engine: an immutable `NimState`, players with the protocol
`choose(state) -> (pile, coins)`, `game_over(won)`, `is_human`, `name`, `seat`, and a `NimGame`
driver that publishes `NimMoveMade` and `GameOver` to an `EventBus`. A move is a tuple
`(pile, coins)` with pile 0 = nickels, 1 = dimes, 2 = quarters.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sticks_tui.engine.events import BallDrawn, EventBus, NimMoveMade
from sticks_tui.engine.game import TwoPlayerGame
from sticks_tui.engine.players import BasePlayer, HatPlayer
from sticks_tui.engine.rules import IllegalMove

PILE_NAMES: tuple[str, str, str] = ("nickels", "dimes", "quarters")
PILE_SINGULAR: tuple[str, str, str] = ("nickel", "dime", "quarter")
#: The largest pile a game may start with: the solver's table covers 0..100 (seed 004).
MAX_PILE = 100

Piles = tuple[int, int, int]


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
        p = list(self.piles_before)
        p[self.pile] -= self.coins
        return p[0], p[1], p[2]


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
        return tuple((pile, coins) for pile in range(3) for coins in range(1, self.piles[pile] + 1))

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


# -- players ------------------------------------------------------------------------------------

class NimPlayer(BasePlayer):
    """A Nim player: `choose(state)` returns a move (pile, coins)."""

    def choose(self, state: NimState) -> tuple[int, int]:  # pragma: no cover - abstract
        raise NotImplementedError


class NimHumanPlayer(NimPlayer):
    """A person: the driver waits for their move instead of asking `choose`."""

    is_human = True
    kind = "human"
    description = "a person at this keyboard"

    def choose(self, state: NimState) -> tuple[int, int]:
        raise RuntimeError("A human's move comes from the keyboard or the mouse, not from choose().")


class NimRandomPlayer(NimPlayer):
    """A random legal move, every move equally likely."""

    kind = "random"
    description = "takes a random legal move"

    def __init__(self, name: str, rng=None) -> None:
        super().__init__(name)
        self.rng = rng or random.Random()

    def choose(self, state: NimState) -> tuple[int, int]:
        moves = state.legal_moves
        return moves[self.rng.randrange(len(moves))]


class NimPerfectPlayer(NimPlayer):
    """Plays from the table U(n, d, q); in a lost position it takes one coin from the largest pile."""

    kind = "perfect"
    description = "plays the exact solution (the table)"

    def choose(self, state: NimState) -> tuple[int, int]:
        from sticks_tui.solve.nim import perfect_move

        return perfect_move(state.piles)


class NimHatPlayer(HatPlayer):
    """The learning AI for Nim: one hat per position, one ball per legal move (`learn.general.StateHats`).

    Balls drawn during a game are set beside the hats; `game_over` applies the hat rule. Events:
    `BallDrawn(hat=piles, ball=(pile, coins), counts=the hat's counts in `legal_moves` order)` and
    `HatsReinforced` whose `HatChange.hat` is the piles and `.ball` the move.
    """

    kind = "learning"
    description = "learns from every game (the hats)"

    def choose(self, state: NimState) -> tuple[int, int]:
        if not self.hats.has_hat(state.piles):
            raise ValueError(f"This brain has no hat for the piles {state.piles}: "
                             f"it was trained on piles up to {self.hats.game.box}.")
        counts = self.hats.hat(state.piles)
        move = self.hats.draw(state.piles, self.rng)
        self.beside.append((state.piles, move))
        if self.bus is not None:
            self.bus.publish(BallDrawn(self.seat, self.name, state.piles, move, counts))
        return move


# -- the driver ---------------------------------------------------------------------------------

class NimGame(TwoPlayerGame):
    """Drives one game of Nim. While not over: if `waiting_for_human`, call `play(pile, coins)` with
    the person's move; otherwise `step()` lets the AI move."""

    name = "game of Nim"

    def __init__(self, players, piles, first: int = 0, bus: EventBus | None = None) -> None:
        super().__init__(players, new_nim_game(piles, first), bus)

    def play(self, pile: int, coins: int) -> NimState:
        """Apply a move for the player to move (a person's, or an AI's chosen move)."""
        if self.is_over:
            raise IllegalMove("The game is over: there are no coins left to take.")
        player = self.current
        before = self.state.piles
        self.state = self.state.take(pile, coins)
        self.bus.publish(NimMoveMade(player.seat, player.name, pile, coins, before, self.state.piles))
        if self.state.is_over:
            self._finish()
        return self.state
