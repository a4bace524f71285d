"""The learning curve's two sticks figures of a brain's counts, as a run's checkpoint scores them: a test's
shorthand for `CurveScorer` over a game of `heap` sticks (the analysis screen's figures are checked against it)."""

from __future__ import annotations

import numpy as np

from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn.analysis import CurveScorer
from sticks_tui.solve.sticks_hats import _scoped


def quick_scores(counts: np.ndarray, max_take: int = 3, heap: int | None = None) -> tuple[float, float]:
    """(agreement over heaps 2..heap, win probability vs perfect in a game of `heap` sticks averaged over
    the seats) of a sticks brain's counts; `heap` None: its largest heap."""
    counts = _scoped(counts, heap)
    point = CurveScorer.for_rules(SticksRules(counts.shape[0] - 1, max_take)).score(0, counts)
    return point.agreement, point.win_vs_perfect
