"""Exact solvers: the Game of Sticks U(n), three-pile Nim U(n, d, q), noughts and crosses (minimax),
and any game of the protocol.

`solver_for(rules)` gives the solver for a game (`engine.protocol.GameRules`): its own when it has
one (sticks' recursion, Nim's table), else the generic one. Every solver answers
`winning_moves(position)`, `is_winning(position)` and `perfect_move(position)`.
"""

from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.solve.generic import GenericSolution
from sticks_tui.solve.nim import NimSolution
from sticks_tui.solve.noughts import NoughtsSolution, solve_noughts
from sticks_tui.solve.sticks import SticksSolution, solve_sticks


def solver_for(rules):
    """The exact solver for `rules`: the game's own, or the generic recursion."""
    if isinstance(rules, SticksRules):
        return solve_sticks(rules.size, rules.max_take)
    if isinstance(rules, NimRules):
        return NimSolution()
    if isinstance(rules, NoughtsRules):
        return solve_noughts()
    return GenericSolution(rules)


__all__ = ["GenericSolution", "NimSolution", "NoughtsSolution", "SticksSolution", "solve_noughts", "solve_sticks",
           "solver_for"]
