"""A game in play, for every game of the protocol: the rules, the position, whose turn it is and
every move so far. A small immutable value; a move returns a new state. The rules check the move
(`decode_move`), so an illegal one raises their `IllegalMove` with a message a person can read.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from sticks_tui.engine.errors import IllegalMove
from sticks_tui.engine.protocol import DRAW, WIN, GameRules


@dataclass(frozen=True, slots=True)
class Turn:
    """One move in a game's history: `player` (0 or 1) played `move` from `before`, leaving `after`."""

    player: int
    move: Hashable
    before: Hashable
    after: Hashable


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands: its rules, the position, whose turn it is, and every move so far."""

    rules: GameRules
    position: Hashable
    to_move: int = 0
    history: tuple[Turn, ...] = ()

    def __post_init__(self) -> None:
        if self.to_move not in (0, 1) or isinstance(self.to_move, bool):
            raise IllegalMove(f"Player {self.to_move + 1} is not in this game: it is player 1 or player 2.")
        position = self.rules.decode_position(self.position)  # a position, or its JSON value
        object.__setattr__(self, "position", position)

    @property
    def is_over(self) -> bool:
        return self.rules.is_terminal(self.position)

    @property
    def legal_moves(self):
        return () if self.is_over else self.rules.legal_moves(self.position)

    def is_legal(self, move) -> bool:
        try:
            self.rules.decode_move(self.position, move)
        except ValueError:
            return False
        return True

    def play(self, move) -> GameState:
        """The state after the player to move plays `move` (IllegalMove saying why if it may not)."""
        move = self.rules.decode_move(self.position, move)
        after = self.rules.apply(self.position, move)
        turn = Turn(self.to_move, move, self.position, after)
        return GameState(self.rules, after, 1 - self.to_move, self.history + (turn,))

    @property
    def start(self) -> Hashable:
        """The position the game started from."""
        return self.history[0].before if self.history else self.position

    @property
    def outcome(self) -> int | None:
        """Once the game is over, how it went for the player who made the last move (+1, 0, -1)."""
        if not self.is_over or not self.history:
            return None
        return self.rules.outcome(self.position)

    @property
    def winner(self) -> int | None:
        """The seat that won, once the game is over (None for a draw)."""
        outcome = self.outcome
        if outcome is None or outcome == DRAW:
            return None
        last = self.history[-1].player
        return last if outcome == WIN else 1 - last

    @property
    def loser(self) -> int | None:
        winner = self.winner
        return None if winner is None else 1 - winner


def new_state(rules: GameRules, start=None, first: int = 0) -> GameState:
    """A fresh game of `rules` from `start` (default: its first start position); `first` moves first."""
    position = rules.start_positions()[0] if start is None else start
    state = GameState(rules, position, first)
    if state.is_over:
        raise IllegalMove(f"A game cannot start where it is over ({rules.position_text(state.position)}).")
    return state
