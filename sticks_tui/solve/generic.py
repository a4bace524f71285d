"""A solver that knows no particular game: memoised recursion over the game protocol.

A position is winning when some move wins outright (it ends the game with `outcome` +1) or leads
to a non-terminal position that is lost for the opponent. Works for any `engine.protocol.GameRules`
whose positions are finite and acyclic; the conformance tests hold every game's own solver to it.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from sticks_tui.engine.protocol import DRAW, LOSS, WIN, GameRules


class GenericSolution:
    """The winning moves from every non-terminal position of `rules`, computed by the recursion."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self._wins: dict[Hashable, tuple] = {}
        for position in rules.positions():
            self._solve(position)

    def _solve(self, position) -> tuple:
        """The winning moves from `position` (iterative, so deep games never hit the recursion limit)."""
        rules = self.rules
        stack = [position]
        while stack:
            here = stack[-1]
            if here in self._wins:
                stack.pop()
                continue
            pending = [after for m in rules.legal_moves(here)
                       if not rules.is_terminal(after := rules.apply(here, m)) and after not in self._wins]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            self._wins[here] = tuple(m for m in rules.legal_moves(here) if self._move_wins(here, m))
        return self._wins[position]

    def _move_wins(self, position, move) -> bool:
        after = self.rules.apply(position, move)
        if self.rules.is_terminal(after):
            return self.rules.outcome(after) == WIN
        return not self._wins[after]

    def winning_moves(self, position) -> tuple:
        """Every move that wins against any defence (empty when the player to move has lost)."""
        return self._wins[position] if position in self._wins else self._solve(position)

    def is_winning(self, position) -> bool:
        return bool(self.winning_moves(position))

    def perfect_move(self, position):
        """The first winning move; in a lost position, the first legal move."""
        moves = self.winning_moves(position)
        return moves[0] if moves else tuple(self.rules.legal_moves(position))[0]



def position_answer(rules: GameRules, solver, position) -> tuple[dict, str]:
    """What `sticks-tui solve` says of `position` for a game whose solver has no words of its own: (a
    JSON object: "position", "over", "winning", "moves"; the same in words for a person)."""
    if rules.is_terminal(position):
        result = rules.outcome(position)
        how = {WIN: "the player who moved last won", DRAW: "a draw", LOSS: "the player who moved last lost"}[result]
        return ({"position": rules.encode_position(position), "over": True, "winning": result == LOSS, "moves": []},
                f"{rules.position_text(position)}\nThe game is over: {how}.")
    moves = tuple(solver.winning_moves(position))
    doc = {"position": rules.encode_position(position), "over": False, "winning": bool(moves),
           "moves": [rules.encode_move(m) for m in moves]}
    if moves:
        words = (f"Yes: the player to move can force a win.\n"
                 f"Winning move{'s' if len(moves) > 1 else ''}: "
                 + "; ".join(rules.move_text(position, m) for m in moves) + ".")
    else:
        words = ("No: the player to move cannot force a win: every move leaves the opponent a winning "
                 "position, so against perfect play this is lost.")
    return doc, f"{rules.position_text(position)}\n{words}"


# -- does a container agree with perfect play? The one rule, for every game ----------------------------------

def has_single_top(row):
    """True when one ball is strictly the most likely (a tie at the top is no preference).

    The rule's readable form (`kernel.curve_point` is it compiled, for the learning curve). `row` is one hat
    (a list or an array: a bool result) or a 2-D array of hats, one per row (an array of bools); mark illegal
    balls below every count first.
    """
    row = np.asarray(row)
    if row.ndim == 1:
        return int(np.count_nonzero(row == row.max())) == 1
    return np.count_nonzero(row == row.max(axis=-1, keepdims=True), axis=-1) == 1


def agrees_with(rows: np.ndarray, winning: np.ndarray):
    """Does a hat agree with perfect play: is its single most likely ball a winning move?

    `rows`: counts (or probabilities) of one hat or of hats by row, illegal balls marked below every
    count; `winning`: the same shape, True for winning moves. A tie at the top never agrees.
    """
    rows = np.asarray(rows)
    winning = np.asarray(winning)
    best = np.argmax(rows, axis=-1)
    top_wins = np.take_along_axis(winning, np.expand_dims(best, -1), axis=-1).squeeze(-1)
    result = has_single_top(rows) & top_wins
    return bool(result) if rows.ndim == 1 else result
