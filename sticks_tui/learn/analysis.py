"""What a brain has learned, held against the exact solution.

Everything here is computed exactly over all positions, never sampled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sticks_tui.solve.sticks import SticksSolution, solve_sticks

#: A hat "believes" in its top ball when that ball holds more than this share of the hat
#: (a fresh two-ball hat, one ball of each, is a coin toss, not a belief).
CONFIDENT = 0.5


@dataclass(frozen=True)
class HatVerdict:
    hat: int
    counts: tuple[int, ...]
    probabilities: tuple[float, ...]
    best_move: int  # the AI's most likely move
    winning: bool  # the exact solution: can the player facing this heap force a win?
    optimal_moves: tuple[int, ...]  # winning moves; empty in a lost position
    agrees: bool | None  # winning hats: is the most likely move optimal? None for lost hats

    @property
    def confidence(self) -> float:
        return self.probabilities[self.best_move - 1]


@dataclass(frozen=True)
class DiscoveredRule:
    """The losing positions the AI has found, read from its hats alone."""

    believed_losing: tuple[int, ...]  # heaps its confident hats steer the opponent to, plus 1
    modulus: int | None
    residue: int | None
    matches_solution: bool
    solution_modulus: int
    too_few_hats: bool = False  # fewer than three losing heaps below the top hat: no pattern can show

    @property
    def sentence(self) -> str:
        if self.too_few_hats and self.modulus is None:
            return "Too few hats to read a rule from: a pattern needs at least three losing heaps."
        if self.modulus is None:
            if not self.believed_losing:
                return "The AI has not found a rule yet: none of its hats is sure of a move."
            shown = ", ".join(map(str, self.believed_losing[:6]))
            return f"The AI steers you towards {shown}, ... but no pattern fits those heaps yet."
        first = [n for n in range(1, 4 * self.modulus) if n % self.modulus == self.residue][:3]
        listing = ", ".join(map(str, first))
        return f"You lose if you face {listing}, ... sticks: n = {self.residue} mod {self.modulus}."

    @property
    def verdict(self) -> str:
        k1 = self.solution_modulus
        if self.too_few_hats and self.modulus is None:
            return (f"The exact solution: the losing heaps are those with n mod {k1} = 1; train with "
                    f"{2 * k1 + 2} sticks or more to see the AI find it.")
        if self.matches_solution:
            return f"This is the exact solution: the losing heaps are those with n mod {k1} = 1."
        return f"The exact solution says the losing heaps are those with n mod {k1} = 1; the AI is not there yet."


@dataclass(frozen=True)
class BrainAnalysis:
    size: int
    max_take: int
    hats: tuple[HatVerdict, ...]  # index i is hat i + 1
    agreement: float  # share of winning hats whose most likely move is optimal
    disagreeing: tuple[int, ...]  # winning hats whose most likely move is not optimal
    win_vs_perfect_first: float
    win_vs_perfect_second: float
    win_vs_random_first: float
    win_vs_random_second: float
    rule: DiscoveredRule

    @property
    def win_probability_vs_perfect(self) -> float:
        """Averaged over the two seats (the AI moves first in half the games)."""
        return (self.win_vs_perfect_first + self.win_vs_perfect_second) / 2

    @property
    def win_probability_vs_random(self) -> float:
        return (self.win_vs_random_first + self.win_vs_random_second) / 2

    @property
    def plays_perfectly(self) -> bool:
        return not self.disagreeing


def has_single_top(row: np.ndarray) -> bool:
    """True when one ball is strictly the most likely (a tie at the top is no preference)."""
    return int(np.count_nonzero(row == row.max())) == 1


def policy_matrix(counts: np.ndarray, max_take: int) -> np.ndarray:
    """Move probabilities per hat from a counts array, only over legal balls."""
    size = counts.shape[0] - 1
    policy = np.zeros((size + 1, max_take), dtype=np.float64)
    for n in range(1, size + 1):
        legal = counts[n, : min(max_take, n)].astype(np.float64)
        total = legal.sum()
        policy[n, : len(legal)] = legal / total if total > 0 else 1.0 / len(legal)
    return policy


def opponent_policy(kind: str, size: int, max_take: int, solution: SticksSolution | None = None) -> np.ndarray:
    """The move probabilities of a fixed opponent: 'perfect' or 'random'."""
    policy = np.zeros((size + 1, max_take), dtype=np.float64)
    for n in range(1, size + 1):
        legal = min(max_take, n)
        if kind == "random":
            policy[n, :legal] = 1.0 / legal
        elif kind == "perfect":
            policy[n, solution.perfect_move(n) - 1] = 1.0
        else:
            raise ValueError(f"unknown opponent {kind!r}")
    return policy


def win_probability(ai: np.ndarray, opponent: np.ndarray, start: int, ai_first: bool) -> float:
    """Exact chance the AI wins from `start` sticks. Whoever takes the last stick loses."""
    size = start
    max_take = ai.shape[1]
    ai_to_move = [0.0] * (size + 1)  # P(AI wins | AI to move at n)
    opp_to_move = [0.0] * (size + 1)  # P(AI wins | opponent to move at n)
    for n in range(1, size + 1):
        a = 0.0
        o = 0.0
        for m in range(1, min(max_take, n) + 1):
            # Taking the last stick (m == n) loses for whoever takes it.
            a += ai[n, m - 1] * (0.0 if m == n else opp_to_move[n - m])
            o += opponent[n, m - 1] * (1.0 if m == n else ai_to_move[n - m])
        ai_to_move[n] = a
        opp_to_move[n] = o
    return ai_to_move[start] if ai_first else opp_to_move[start]


def discover_rule(counts: np.ndarray, max_take: int, solution: SticksSolution) -> DiscoveredRule:
    """Read the losing positions off the hats: where do the AI's confident hats send the opponent?"""
    size = counts.shape[0] - 1
    policy = policy_matrix(counts, max_take)
    found = set()
    for n in range(2, size + 1):
        legal = min(max_take, n)
        if legal < 2:
            continue
        best = int(np.argmax(policy[n, :legal]))
        if policy[n, best] > CONFIDENT:
            found.add(n - (best + 1))
    found.discard(0)
    # Whoever faces one stick must take it: the one loss the rules state outright. It only joins
    # the AI's beliefs once some hat has a belief of its own, so a fresh brain has found nothing.
    believed = tuple(sorted(found | {1})) if found else ()
    modulus = residue = None
    if len(believed) >= 3:
        top = believed[-1]
        for m in range(2, max_take + 6):
            residues = {t % m for t in believed}
            if len(residues) != 1:
                continue
            r = residues.pop()
            # the pattern must predict exactly the heaps believed losing, none more
            if sum(1 for n in range(1, top + 1) if n % m == r) == len(believed):
                modulus, residue = m, r
                break
    k1 = max_take + 1
    matches = modulus == k1 and residue == 1 % k1
    too_few = sum(1 for n in range(1, size) if not solution.is_winning(n)) < 3
    return DiscoveredRule(believed, modulus, residue, matches, k1, too_few)


def analyse(counts: np.ndarray, max_take: int = 3) -> BrainAnalysis:
    """The core's analysis of a brain (`Hats.counts`): per hat, overall, and the rule discovered."""
    counts = np.asarray(counts)
    size = counts.shape[0] - 1
    solution = solve_sticks(size, max_take)
    policy = policy_matrix(counts, max_take)
    verdicts = []
    disagreeing = []
    winning_hats = 0
    for n in range(1, size + 1):
        legal = min(max_take, n)
        hat_counts = tuple(int(c) for c in counts[n, :legal])
        probs = tuple(float(p) for p in policy[n, :legal])
        best = 1 + int(np.argmax(policy[n, :legal]))
        optimal = solution.winning_moves(n)
        winning = solution.is_winning(n)
        # a tie at the top is no preference: it does not count as knowing the move
        agrees = (has_single_top(policy[n, :legal]) and best in optimal) if winning else None
        if winning:
            winning_hats += 1
            if not agrees:
                disagreeing.append(n)
        verdicts.append(HatVerdict(n, hat_counts, probs, best, winning, optimal, agrees))
    agreement = 1.0 - len(disagreeing) / winning_hats if winning_hats else 1.0
    perfect = opponent_policy("perfect", size, max_take, solution)
    rand = opponent_policy("random", size, max_take)
    return BrainAnalysis(
        size=size,
        max_take=max_take,
        hats=tuple(verdicts),
        agreement=agreement,
        disagreeing=tuple(disagreeing),
        win_vs_perfect_first=win_probability(policy, perfect, size, True),
        win_vs_perfect_second=win_probability(policy, perfect, size, False),
        win_vs_random_first=win_probability(policy, rand, size, True),
        win_vs_random_second=win_probability(policy, rand, size, False),
        rule=discover_rule(counts, max_take, solution),
    )


def quick_scores(counts: np.ndarray, max_take: int = 3) -> tuple[float, float]:
    """(agreement, win probability vs perfect averaged over seats): cheap enough for a live curve."""
    size = counts.shape[0] - 1
    solution = solve_sticks(size, max_take)
    policy = policy_matrix(counts, max_take)
    wrong = total = 0
    for n in range(2, size + 1):
        if solution.is_winning(n):
            total += 1
            legal = min(max_take, n)
            row = policy[n, :legal]
            if not has_single_top(row) or 1 + int(np.argmax(row)) not in solution.winning_moves(n):
                wrong += 1
    perfect = opponent_policy("perfect", size, max_take, solution)
    win = (win_probability(policy, perfect, size, True) + win_probability(policy, perfect, size, False)) / 2
    return (1.0 - wrong / total if total else 1.0), win
