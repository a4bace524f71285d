"""Drives one game between two players and publishes what happens.

Usage: `game = Game(players, heap)` (sticks) or `NimGame(players, piles)`; while not over, if
`game.waiting_for_human` call `game.play(move)` with the person's move, otherwise `game.step()`
lets the AI move.
"""

from __future__ import annotations

from sticks_tui.engine.events import EventBus, GameOver, MoveMade, NimMoveMade
from sticks_tui.engine.nim import NimState, new_nim_game
from sticks_tui.engine.rules import DEFAULT_MAX_TAKE, GameState, IllegalMove, new_game


class TwoPlayerGame:
    """What every game driver shares: the seats, whose turn it is, AI steps, the end, abandoning.

    A subclass sets `state` and implements `play(*move)`, which publishes its move event and
    calls `_finish()` when the state is over.
    """

    name = "game"

    def __init__(self, players, state, bus: EventBus | None = None) -> None:
        if len(players) != 2:
            raise ValueError(f"A {self.name} has two players.")
        self.players = list(players)
        for seat, player in enumerate(self.players):
            player.seat = seat
        self.bus = bus or EventBus()
        self.state = state
        self._reported = False

    @property
    def current(self):
        return self.players[self.state.to_move]

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def waiting_for_human(self) -> bool:
        return not self.is_over and self.current.is_human

    def play(self, *move):  # pragma: no cover - abstract
        raise NotImplementedError

    def step(self):
        """Let the AI to move choose and play."""
        if self.waiting_for_human:
            raise RuntimeError("It is a person's turn: call play() with their move.")
        choice = self.current.choose(self.state)
        return self.play(*choice) if isinstance(choice, tuple) else self.play(choice)

    def play_to_end(self):
        while not self.is_over:
            self.step()
        return self.state

    def _finish(self) -> None:
        if self._reported:
            return
        self._reported = True
        winner = self.state.winner
        loser = 1 - winner
        for seat, player in enumerate(self.players):
            player.game_over(seat == winner)
        self.bus.publish(GameOver(loser, winner, self.players[loser].name, self.players[winner].name,
                                  len(self.state.history)))

    def abandon(self) -> None:
        """Stop a game half way: learners forget the balls they set aside, nothing is learned."""
        for player in self.players:
            forget = getattr(player, "forget_game", None)
            if forget:
                forget()


class Game(TwoPlayerGame):
    """One game of sticks."""

    name = "game of sticks"

    def __init__(self, players, heap: int, first: int = 0, max_take: int = DEFAULT_MAX_TAKE,
                 bus: EventBus | None = None) -> None:
        super().__init__(players, new_game(heap, first, max_take), bus)

    def play(self, take: int) -> GameState:
        """Apply a move for the player to move (a person's, or an AI's chosen move)."""
        if self.is_over:
            raise IllegalMove("The game is over: there are no sticks left to take.")
        player = self.current
        before = self.state.heap
        self.state = self.state.take(take)
        self.bus.publish(MoveMade(player.seat, player.name, take, before, self.state.heap))
        if self.state.is_over:
            self._finish()
        return self.state


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
