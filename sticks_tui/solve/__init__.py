"""Exact solvers: the Game of Sticks U(n) and three-pile Nim U(n, d, q)."""

from sticks_tui.solve.sticks import SticksSolution, solve_sticks

__all__ = ["SticksSolution", "solve_sticks"]
