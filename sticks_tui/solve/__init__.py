"""Exact solvers: the Game of Sticks U(n), three-pile Nim U(n, d, q), noughts and crosses (minimax),
and any game of the protocol.

`solver_for(rules)` gives the solver for a game (`engine.protocol.GameRules`): its own when it has
one (sticks' recursion, Nim's table), else the generic one. Every solver answers
`winning_moves(position)`, `is_winning(position)` and `perfect_move(position)`.
"""

from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.solve.generic import GenericSolution, position_answer
from sticks_tui.solve.nim import NimSolution
from sticks_tui.solve.noughts import NoughtsSolution, solve_noughts
from sticks_tui.solve.sticks import SticksSolution, solve_sticks
from sticks_tui.solve.sticks_hats import BrainAnalysis, DiscoveredRule, analyse, discover_rule


#: The games with a solver of their own, by their rules' class; any other game gets the generic one.
_OWN_SOLVERS = {
    SticksRules: lambda rules: solve_sticks(rules.size, rules.max_take),
    NimRules: lambda rules: NimSolution(),
    NoughtsRules: lambda rules: solve_noughts(),
}


def solver_for(rules):
    """The exact solver for `rules`: the game's own, or the generic recursion."""
    return _OWN_SOLVERS.get(type(rules), GenericSolution)(rules)


#: What a brain's counts say of a game's solution, beyond what every game's analysis says, by the game's
#: rules' class: sticks reads a rule off the hats ("you lose if you face 1, 5, 9, ... sticks").
_RULE_READERS = {
    SticksRules: lambda rules, counts: discover_rule(counts[: rules.size + 1], rules.max_take,
                                                     solve_sticks(rules.size, rules.max_take)),
}


def read_rule(rules, counts) -> DiscoveredRule | None:
    """The rule a brain's counts (its containers in the layout of `rules`) show, for a game that reads one
    (sticks), else None."""
    reader = _RULE_READERS.get(type(rules))
    return reader(rules, counts) if reader is not None else None


#: A game's own analysis of a brain hat by hat, by the game's rules' class: sticks' numbered hats (per hat its
#: balls, chances and likeliest take held against the exact solution), what its hats table exports.
_HAT_ANALYSES = {
    SticksRules: lambda rules, counts: analyse(counts, rules.max_take),
}


def hat_analysis(rules, counts) -> BrainAnalysis | None:
    """A brain's counts (its containers in the layout of `rules`) analysed hat by hat in its game's own terms,
    for a game that has them (sticks: `sticks_hats.analyse`), else None."""
    analyser = _HAT_ANALYSES.get(type(rules))
    return analyser(rules, counts) if analyser is not None else None


def answer(rules, position) -> tuple[dict, str]:
    """What `sticks-tui solve` says of `position` (a position of `rules`): a JSON object and the same in
    words; in the solver's own form where it has one (Nim's table explains its answer, noughts gives
    the value of a draw), else the generic one (the winning moves, in the game's words)."""
    solver = solver_for(rules)
    own = getattr(solver, "answer", None)
    return own(position) if own is not None else position_answer(rules, solver, position)


__all__ = ["answer", "hat_analysis", "read_rule", "GenericSolution", "NimSolution", "NoughtsSolution", "SticksSolution",
           "solve_noughts", "solve_sticks", "solver_for"]
