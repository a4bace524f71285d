"""The one game protocol: what the learner, the solvers, the players, the kernels and the store
know of a game. A game is described whole by its *rules object* (as OpenSpiel's state does):

- positions are hashable values (a heap size, a tuple of piles); the player to move is implicit;
- `legal_moves(position)` lists the moves in a fixed order (the order of a hat's balls);
- `apply(position, move)` is the position after the move; `is_terminal(position)` says the game is
  over; `outcome(position)` says, at a terminal position, how it went for the player who made the
  last move: +1 a win, 0 a draw, -1 a loss (`last_mover_wins` stays as a convenience where it exists);
- `start_positions()` are where a game starts; `positions()` is every non-terminal position of the
  instance, the hats a learner needs and the positions a solver answers;
- `hat_rows()` lays out the positions a learner keeps a container for as rows of a counts array (None: a
  row nobody uses); a position left out has one legal move (a forced move needs no container);
- `position_text(position)` and `move_text(position, move)` are words for a person;
- `encode_position`/`decode_position` and `encode_move`/`decode_move` turn positions and moves into
  JSON values and back, for the store and the brain files; a decode raises `ValueError` (the rules'
  `IllegalMove`) with a message a person can read on anything that is not a position of this
  instance, or not a legal move from that position: the one check of a move.

Three hooks are optional; the counts learner (`learn.hats`) reads them where a game offers them:

- `symmetries()`: the game's symmetries, the identity first, each an object with `position(p)` (the
  image of a position) and `move(m)` (where a move goes in the image). The learner keeps one
  container per class of positions alike up to a symmetry (the image whose `encode_position` is
  smallest as JSON text, the first such symmetry on a tie) and one count per move up to the
  symmetries that leave that position as it is (the first in legal-move order). Noughts and crosses
  offers the 8 of the square; a game without the hook folds nothing;
- `mover(position)`: whose turn it is, 0 (the player who moves first in a game) or 1, where the position
  tells; a learner may then keep containers for one seat only (MENACE's boxes for X);
- `move_number(position)`: which move of the player to move the next one is, counting from 1; start
  tokens may depend on it (MENACE: 4, 3, 2, 1 beads at its 1st to 4th move). Without it, every
  container starts alike.

The games are named in one place, `engine.registry`. A perfect move comes from a solver
(`solve.solver_for(rules)`), one layer up: the rules never import a solver.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from numbers import Integral
from typing import Any, Protocol, runtime_checkable

#: `outcome` values, for the player who made the last move.
WIN, DRAW, LOSS = 1, 0, -1


@runtime_checkable
class GameRules(Protocol):
    """A bounded instance of a game, as the layers above need it."""

    name: str

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

    def outcome(self, position) -> int:
        """At a terminal position, for the player who made the last move: +1 win, 0 draw, -1 loss."""

    def hat_rows(self) -> Sequence[Hashable | None]:
        """The positions by row of a counts array; None marks an unused row."""

    def position_text(self, position) -> str:
        """The position in words for a person."""

    def move_text(self, position, move) -> str:
        """The move from `position` in words for a person."""

    def encode_position(self, position) -> Any:
        """The position as a JSON value."""

    def decode_position(self, value) -> Hashable:
        """The position a JSON value stands for; ValueError saying why if it is not one of this instance."""

    def encode_move(self, move) -> Any:
        """The move as a JSON value."""

    def decode_move(self, position, value) -> Hashable:
        """The legal move from `position` a JSON value (or a move) stands for; ValueError saying why if
        it is not one."""


def move_outcome(rules: GameRules, position, move) -> int | None:
    """How `move` from `position` ends the game for its mover (+1 win, 0 draw, -1 loss), or None:
    the game goes on."""
    after = rules.apply(position, move)
    if not rules.is_terminal(after):
        return None
    return rules.outcome(after)


def mover_wins(rules: GameRules, position, move) -> bool | None:
    """Thin wrapper of `move_outcome` for callers not moved yet: True a win, False a loss, None the
    game goes on."""
    result = move_outcome(rules, position, move)
    return None if result is None else result > 0


def whole_number(value) -> bool:
    """A whole number (an int or a NumPy integer, not a bool)."""
    return isinstance(value, Integral) and not isinstance(value, bool)
