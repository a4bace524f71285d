"""Drives one game between two players and publishes what happens, for every game of the protocol.

Usage: `game = GameDriver(players, state)` (`new_game(heap)` for sticks, `new_nim_game(piles)` for
Nim, `engine.state.new_state(rules)` for any game); while not over, if `game.waiting_for_human`
call `game.play(move)` with the person's move, otherwise `game.step()` lets the AI move. A player
whose `choose` answers `RESIGN` (a learner with an empty container, by its rule) resigns: the game is
over and lost for it (`resign()` does the same for the player to move).
"""

from __future__ import annotations

from sticks_tui.engine.events import EventBus, GameOver, MoveMade
from sticks_tui.engine.nim import new_nim_game
from sticks_tui.engine.rules import DEFAULT_MAX_TAKE, new_game
from sticks_tui.engine.state import GameState
from sticks_tui.play.players import RESIGN


class GameDriver:
    """The seats, whose turn it is, a move (a person's or an AI's), the end, abandoning."""

    def __init__(self, players, state: GameState, bus: EventBus | None = None) -> None:
        if len(players) != 2:
            raise ValueError(f"A game of {state.rules.name} has two players.")
        self.players = list(players)
        for seat, player in enumerate(self.players):
            player.seat = seat
        self.bus = bus or EventBus()
        self.state = state
        self.resigned: int | None = None  # the seat that resigned, if one did
        self._reported = False

    @property
    def current(self):
        return self.players[self.state.to_move]

    @property
    def is_over(self) -> bool:
        return self.resigned is not None or self.state.is_over

    @property
    def winner(self) -> int | None:
        """The seat that won, once the game is over (None for a draw, or while it goes on)."""
        if self.resigned is not None:
            return 1 - self.resigned
        return self.state.winner

    @property
    def loser(self) -> int | None:
        winner = self.winner
        return None if winner is None else 1 - winner

    def outcome_for(self, seat: int) -> int | None:
        """Once the game is over, how it went for `seat`: +1 a win, 0 a draw, -1 a loss (None: not over)."""
        if not self.is_over:
            return None
        winner = self.winner
        return 0 if winner is None else 1 if winner == seat else -1

    @property
    def waiting_for_human(self) -> bool:
        return not self.is_over and self.current.is_human

    def play(self, move) -> GameState:
        """Apply a move for the player to move (a person's, or an AI's chosen move)."""
        if self.resigned is not None:
            raise ValueError("The game is over: a player resigned.")
        player = self.current
        before = self.state.position
        self.state = self.state.play(move)  # the rules refuse an illegal move, or any move once over
        self.bus.publish(MoveMade(player.seat, player.name, self.state.history[-1].move, before,
                                  self.state.position))
        if self.state.is_over:
            self._finish()
        return self.state

    def step(self) -> GameState:
        """Let the AI to move choose and play."""
        if self.waiting_for_human:
            raise RuntimeError("It is a person's turn: call play() with their move.")
        move = self.current.choose(self.state)
        if move is RESIGN:
            return self.resign()
        return self.play(move)

    def resign(self) -> GameState:
        """The player to move resigns: the game is over, lost for them."""
        if self.is_over:
            raise ValueError("The game is over: nobody can resign it.")
        self.resigned = self.state.to_move
        self._finish()
        return self.state

    def play_to_end(self) -> GameState:
        while not self.is_over:
            self.step()
        return self.state

    def _finish(self) -> None:
        if self._reported:
            return
        self._reported = True
        winner, loser = self.winner, self.loser
        for seat, player in enumerate(self.players):
            player.game_over(seat == winner, outcome=self.outcome_for(seat))
        names = ("", "") if winner is None else (self.players[loser].name, self.players[winner].name)
        self.bus.publish(GameOver(loser, winner, *names, len(self.state.history), self.resigned is not None))

    def abandon(self) -> None:
        """Stop a game half way: learners forget the balls they set aside, nothing is learned."""
        for player in self.players:
            forget = getattr(player, "forget_game", None)
            if forget:
                forget()


def Game(players, heap: int, first: int = 0, max_take: int = DEFAULT_MAX_TAKE,  # noqa: N802
         bus: EventBus | None = None) -> GameDriver:
    """A game of sticks from `heap` (a thin shorthand of `GameDriver(players, new_game(...))`)."""
    return GameDriver(players, new_game(heap, first, max_take), bus)


def NimGame(players, piles, first: int = 0, bus: EventBus | None = None) -> GameDriver:  # noqa: N802
    """A game of Nim from `piles` (a thin shorthand of `GameDriver(players, new_nim_game(...))`)."""
    return GameDriver(players, new_nim_game(piles, first), bus)
