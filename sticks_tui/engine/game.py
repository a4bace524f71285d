"""Drives one game between two players and publishes what happens.

Usage: `game = Game(players, heap)`; while not over, if `game.waiting_for_human` call
`game.play(n)` with the person's move, otherwise `game.step()` lets the AI move.
"""

from __future__ import annotations

from sticks_tui.engine.events import EventBus, GameOver, MoveMade
from sticks_tui.engine.rules import DEFAULT_MAX_TAKE, GameState, IllegalMove, new_game


class Game:
    def __init__(self, players, heap: int, first: int = 0, max_take: int = DEFAULT_MAX_TAKE,
                 bus: EventBus | None = None) -> None:
        if len(players) != 2:
            raise ValueError("A game of sticks has two players.")
        self.players = list(players)
        for seat, player in enumerate(self.players):
            player.seat = seat
        self.bus = bus or EventBus()
        self.state: GameState = new_game(heap, first, max_take)
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

    def step(self) -> GameState:
        """Let the AI to move choose and play."""
        if self.waiting_for_human:
            raise RuntimeError("It is a person's turn: call play() with their move.")
        return self.play(self.current.choose(self.state))

    def play_to_end(self) -> GameState:
        while not self.is_over:
            self.step()
        return self.state

    def _finish(self) -> None:
        if self._reported:
            return
        self._reported = True
        loser = self.state.loser
        winner = 1 - loser
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
