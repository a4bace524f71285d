"""The learning curve's scoring as it was before one scorer served every game (main at 67b771e): sticks' own
plain-Python path (`_score_sticks`, over the hats and `_vs_perfect`) beside the general one (`_score_any`:
`exact_chances` in each seat, numpy agreement and `draw_wins`). Kept, not imported, so that
test_curve_scorer.py holds the one scorer to the figures of before, to the last bit. Not a test module."""

from __future__ import annotations

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.engine.rules import legal_moves
from sticks_tui.learn.analysis import CurvePoint, _has_draws, _vs_perfect, agrees_with, exact_chances, perfect_choices
from sticks_tui.learn.hats import Hats, _layout
from sticks_tui.solve import solver_for


def has_single_top(row) -> bool:
    """The list branch of `analysis.has_single_top` of before (the fast path's)."""
    return row.count(max(row)) == 1


class CurveScorerBefore:
    """Scores brains of one game instance against its exact solution, fast enough for every checkpoint.

    The game is the one a run trains (`for_rules`): for sticks a heap N, scored over the hats of heaps
    1..N of a brain that may hold more (the rows above N are not read). A brain of one seat's containers
    (MENACE's X) is scored in that seat only."""

    def __init__(self, rules, layout_rows, layout_moves, n_moves: np.ndarray, width: int, seat=None,
                 rule=None) -> None:
        self.rules = rules
        self.rows = len(layout_rows)
        self.seat = seat
        self.rule = rule
        self._template = None
        solver = solver_for(rules)
        self.win_mask = np.zeros((len(layout_rows), width), dtype=np.bool_)
        for i, (p, moves) in enumerate(zip(layout_rows, layout_moves, strict=True)):
            if p is None:
                continue
            wins = set(solver.winning_moves(p))
            for j, m in enumerate(moves):
                self.win_mask[i, j] = m in wins
        self.winning_rows = self.win_mask.any(axis=1)
        self.legal = np.arange(width)[None, :] < n_moves[:, None]
        # the exact chances against the perfect player: sticks' own fast path, any other game's evaluator
        game = registry.find(rules)
        self.sticks = game is not None and game.chances_vs_perfect
        if self.sticks:
            self.winning_balls = [frozenset(solver.winning_moves(n)) if n else frozenset()
                                  for n in range(rules.size + 1)]
            self.perfect_choices = perfect_choices(solver, rules.size)

    @classmethod
    def for_brain(cls, brain) -> "CurveScorerBefore":
        """Scores over the brain's whole game (for sticks: every heap it has a hat for)."""
        return cls.for_rules(brain.rules, brain.seat, brain.rule)

    @classmethod
    def for_rules(cls, rules, seat=None, rule=None) -> "CurveScorerBefore":
        """Scores over the game `rules` (for sticks: heaps up to `rules.size`, whatever the brain's size)."""
        layout = _layout(rules, seat)
        return cls(rules, layout.rows, layout.moves, layout.n_moves, layout.width, seat, rule)

    def disagreeing_rows(self, counts: np.ndarray) -> np.ndarray:
        """The rows of winning positions whose single most likely ball is not a winning move."""
        rows = np.where(self.legal, np.asarray(counts)[: self.rows], -1)
        agrees = agrees_with(rows, self.win_mask)
        return np.flatnonzero(self.winning_rows & ~agrees)

    def draw_wins(self, counts: np.ndarray) -> float:
        """Over the winning positions, the chance that a token drawn at random from the position's container
        is a winning move, averaged over them (an empty container draws nothing: 0); 1 with none."""
        if not self.winning_rows.any():
            return 1.0
        rows = np.where(self.legal, np.asarray(counts)[: self.rows], 0)[self.winning_rows].astype(np.float64)
        totals = rows.sum(axis=1)
        good = np.where(self.win_mask[self.winning_rows], rows, 0.0).sum(axis=1)
        return float(np.mean(np.where(totals > 0, good / np.where(totals > 0, totals, 1.0), 0.0)))

    def agreement(self, counts: np.ndarray) -> float:
        total = int(np.count_nonzero(self.winning_rows))
        return 1.0 - len(self.disagreeing_rows(counts)) / total if total else 1.0

    def score(self, games: int, counts: np.ndarray) -> CurvePoint:
        if self.sticks:
            return self._score_sticks(games, counts)
        return self._score_any(games, counts)

    def _score_any(self, games: int, counts: np.ndarray) -> CurvePoint:
        """Any game: the one exact evaluator, in each seat the brain plays."""
        if self._template is None:
            self._template = Hats(self.rules, rule=self.rule, seat=self.seat)
        nan = float("nan")
        figures = {}
        for seat in ((0, 1) if self.seat is None else (self.seat,)):
            figures[seat] = exact_chances(self._template, "perfect", seat == 0, counts=counts[: self.rows])
        draws = _has_draws(self.rules)
        win = [figures[s][0] if s in figures else nan for s in (0, 1)]
        keep = [figures[s][0] + figures[s][1] if s in figures and draws else nan for s in (0, 1)]
        return CurvePoint(games, self.agreement(counts), win[0], win[1], keep[0], keep[1],
                          draw_wins=self.draw_wins(counts))

    def _score_sticks(self, games: int, counts: np.ndarray) -> CurvePoint:
        """Sticks in plain Python over one pass of the hats: a checkpoint costs tens of microseconds."""
        size, max_take = self.rules.size, self.rules.max_take
        rows = counts[: size + 1].tolist()
        policy = [[0.0] * max_take]
        winning = wrong = 0
        drawn_wins = 0.0
        for n in range(1, size + 1):
            row = rows[n][: len(legal_moves(n, max_take))]
            total = sum(row)
            probs = [c / total for c in row] if total > 0 else [1.0 / len(row)] * len(row)
            policy.append(probs + [0.0] * (max_take - len(row)))
            wins = self.winning_balls[n]
            if wins:
                winning += 1
                drawn_wins += sum(probs[m - 1] for m in wins)
                if not (has_single_top(row) and row.index(max(row)) + 1 in wins):
                    wrong += 1
        agreement = 1.0 - wrong / winning if winning else 1.0
        first, second, _ = _vs_perfect(policy, self.perfect_choices, size)
        return CurvePoint(games, agreement, first[size], second[size],
                          draw_wins=drawn_wins / winning if winning else 1.0)
