"""The one game protocol: what the learner, the solvers, the players and the kernels know of a game.

A game here is a small two-player game with perfect information and no draws. Its *rules object*
(`engine.rules.SticksRules`, `engine.nim.NimRules`) describes a bounded instance of it:

- positions are hashable values (a heap size, a tuple of piles); the player to move is implicit;
- `legal_moves(position)` lists the moves in a fixed order (the order of a hat's balls);
- `apply(position, move)` is the position after the move; `is_terminal(position)` says the game is
  over; `last_mover_wins` says who won then (True: whoever made the last move wins);
- `start_positions()` are where a game starts; `positions()` is every non-terminal position of the
  instance, the hats a learner needs and the positions a solver answers;
- `hat_rows()` lays the positions out as rows of a counts array (None: a row nobody uses).

A perfect move comes from a solver (`solve.solver_for(rules)`), one layer up: the rules never import
a solver.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class GameRules(Protocol):
    """A bounded instance of a game, as the layers above need it."""

    name: str
    #: At a terminal position: True if the player who made the last move won.
    last_mover_wins: bool

    def positions(self) -> Sequence[Hashable]:
        """Every non-terminal position of this instance, smaller positions first."""

    def start_positions(self) -> Sequence[Hashable]:
        """Where a game starts (one or more positions)."""

    def legal_moves(self, position) -> Sequence[Hashable]:
        """The moves from `position`, in a fixed order."""

    def apply(self, position, move):
        """The position after `move` (no checks beyond the arithmetic)."""

    def is_terminal(self, position) -> bool:
        """The game is over: no move is left."""

    def hat_rows(self) -> Sequence[Hashable | None]:
        """The positions by row of a counts array; None marks an unused row."""


def mover_wins(rules: GameRules, position, move) -> bool | None:
    """Does `move` from `position` end the game with its mover winning (True), losing (False),
    or not end it (None)?"""
    after = rules.apply(position, move)
    if not rules.is_terminal(after):
        return None
    return bool(rules.last_mover_wins)
