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
    """The losing positions the AI believes in, read from its hats alone (no solver involved).

    The beliefs are derived self-consistently from the bottom up (see `discover_rule`), so every
    heap in `believed_losing` is truly lost and a stated rule is never a wrong one. The solver is
    used only afterwards, to say whether the AI's rule is the whole exact solution.
    """

    believed_losing: tuple[int, ...]  # heaps its settled hats steer the opponent to
    modulus: int | None
    residue: int | None
    matches_solution: bool  # the rule is the exact one AND the hats back it at every heap
    solution_modulus: int
    too_few_hats: bool = False  # fewer than three losing heaps below the top hat: no pattern can show
    unsettled: tuple[int, ...] = ()  # heaps whose hats do not fit the AI's own beliefs below them
    settled_up_to: int = 0  # every heap 1..settled_up_to is settled by the AI's own hats

    @property
    def _exact(self) -> bool:
        return self.modulus == self.solution_modulus and self.residue == 1 % self.solution_modulus

    @property
    def _unsettled_list(self) -> str:
        """'its hat at 10' or 'its hats at 8, 9, 10, ...': the hats that do not fit its beliefs."""
        if len(self.unsettled) == 1:
            return f"its hat at {self.unsettled[0]} does not fit that yet"
        shown = ", ".join(map(str, self.unsettled[:3])) + (", ..." if len(self.unsettled) > 3 else "")
        return f"its hats at {shown} do not fit that yet"

    @property
    def sentence(self) -> str:
        if self.too_few_hats and self.modulus is None:
            return "Too few hats to read a rule from: a pattern needs at least three losing heaps."
        if not self.believed_losing:
            return ("The AI has not found a rule yet: none of its hats prefers a move that its own "
                    "hats below show to be good.")
        if self.modulus is None:
            shown = " or ".join(map(str, self.believed_losing))
            why = (self._unsettled_list if self.unsettled
                   else "too few heaps for a rule yet")
            return (f"So far the AI's hats only show that you lose if you face {shown} "
                    f"stick{'s' if self.believed_losing != (1,) else ''}; {why}.")
        first = [n for n in range(1, 4 * self.modulus) if n % self.modulus == self.residue][:3]
        listing = ", ".join(map(str, first))
        rule = f"n = {self.residue} mod {self.modulus}"
        if not self._exact:  # cannot come out of discover_rule; said plainly should it ever
            return (f"The AI's hats suggest you lose if you face {listing}, ... sticks ({rule}), "
                    f"but that is not the exact rule.")
        if self.unsettled:
            return (f"Up to {self.settled_up_to} sticks the AI's hats show: you lose if you face {listing}, "
                    f"... sticks ({rule}); {self._unsettled_list}.")
        return f"You lose if you face {listing}, ... sticks: {rule}."

    @property
    def verdict(self) -> str:
        k1 = self.solution_modulus
        if self.too_few_hats and self.modulus is None:
            return (f"The exact solution: the losing heaps are those with n mod {k1} = 1; train with "
                    f"{2 * k1 + 2} sticks or more to see the AI find it.")
        if self.matches_solution:
            return (f"This is the exact solution, and the AI's own hats back it at every heap: "
                    f"the losing heaps are those with n mod {k1} = 1.")
        if self.modulus is not None and self._exact:
            return (f"That is the exact solution's rule (n mod {k1} = 1), but the AI is not there yet: "
                    f"it does not play it at every heap.")
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


def _settle(policy: np.ndarray, size: int, max_take: int) -> tuple[list[bool | None], list[int]]:
    """The AI's own beliefs, settled from the bottom up using nothing but its hats.

    Facing 0 sticks means the opponent took the last one: a won heap. Then for n = 1, 2, ...:
    n is believed WON when its hat's most likely move (strictly; a tie is no preference) leads to
    a heap already believed lost; n is believed LOST when every move leads to a heap believed won
    (its hat then has no say: any move loses, so whatever it prefers is no belief); otherwise n is
    unsettled (None): the hat prefers nothing, or prefers a move its own beliefs below call bad.
    Returns the status per heap (index 0..size) and, per heap, the heap its settled hat steers to
    (0 where none). By induction every settled status is the true one.
    """
    status: list[bool | None] = [True] + [None] * size
    steer = [0] * (size + 1)
    for n in range(1, size + 1):
        legal = min(max_take, n)
        row = policy[n, :legal]
        if has_single_top(row):  # with one legal ball (heap 1, or max take 1) the move is forced
            target = n - (1 + int(np.argmax(row)))
            if target >= 1 and status[target] is False:
                status[n], steer[n] = True, target
                continue
        if all(status[n - m] is True for m in range(1, legal + 1)):
            status[n] = False
    return status, steer


def discover_rule(counts: np.ndarray, max_take: int, solution: SticksSolution) -> DiscoveredRule:
    """Read the losing heaps off the hats, only where the choice matters to the AI itself.

    A heap is believed losing when a hat the AI has settled (`_settle`) steers the opponent to it;
    hats at heaps the AI believes lost do not vote (any move loses there). A rule n = r mod m is
    stated only when it predicts exactly those heaps, at least three of them.
    """
    size = counts.shape[0] - 1
    policy = policy_matrix(counts, max_take)
    status, steer = _settle(policy, size, max_take)
    believed = tuple(sorted({t for t in steer if t}))
    modulus = residue = None
    if len(believed) >= 3:
        top = believed[-1]
        step = believed[1] - believed[0]
        m, r = step, believed[0] % step
        if step >= 2 and [n for n in range(1, top + 1) if n % m == r] == list(believed):
            modulus, residue = m, r
    unsettled = tuple(n for n in range(2, size + 1) if status[n] is None)
    settled_up_to = next((n - 1 for n in range(1, size + 1) if status[n] is None), size)
    k1 = max_take + 1
    matches = modulus == k1 and residue == 1 % k1 and not unsettled
    too_few = sum(1 for n in range(1, size) if not solution.is_winning(n)) < 3
    return DiscoveredRule(believed, modulus, residue, matches, k1, too_few, unsettled, settled_up_to)


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
