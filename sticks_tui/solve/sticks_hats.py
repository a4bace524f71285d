"""What a sticks brain's hats say, held against the exact solution: the Game of Sticks' own analysis.

Every figure is about a game of N sticks (`heap`): per hat 1..N (`HatVerdict`), agreement over the hats of
heaps 2..N, the exact chances against the perfect player worst for the AI and against a random player moving
first and second, and the rule read off the hats (`discover_rule`: "you lose if you face 1, 5, 9, ...
sticks"), said in `DiscoveredRule.sentence` and held against the solution's n mod (k+1) = 1. Its input is a
counts array (`Hats.counts` of a sticks brain: row n is the hat for n sticks, column m-1 the balls for
taking m), so it needs nothing of the learner: the analysis screen and `sticks-tui train` reach it through
`solve.read_rule` and the game's entry (`chances_vs_perfect`), and the learner's own analysis of any game
(`learn.analysis.analyse_brain`) asks `solve.read_rule` for the rule.

The perfect player of the chances is the one worst for the AI: at a heap it can win from it takes a
winning move, and at a heap it cannot (every move loses against perfect play) it takes the move that
leaves the AI the smallest chance (`win_probabilities_vs_perfect`). So "beats a perfect player X%"
holds against every perfect player, not one particular way of losing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sticks_tui.engine.rules import heaps_words, legal_moves
from sticks_tui.solve.generic import agrees_with, has_single_top
from sticks_tui.solve.sticks import SticksSolution, solve_sticks


@dataclass(frozen=True)
class HatVerdict:
    hat: int
    counts: tuple[int, ...]
    probabilities: tuple[float, ...]
    best_move: int  # the AI's most likely move
    winning: bool  # the exact solution: can the player facing this heap force a win?
    optimal_moves: tuple[int, ...]  # winning moves; empty in a lost position
    agrees: bool | None  # winning hats: is the most likely move optimal? None for lost hats


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
    #: Over the winning hats: the chance a ball drawn at random is a winning move (the hats' mean).
    draw_wins: float = float("nan")

    @property
    def scope(self) -> str:
        """What these figures are about: 'heaps 2-20' (a game of `size` sticks)."""
        return heaps_words(self.size)

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


def policy_matrix(counts: np.ndarray, max_take: int) -> np.ndarray:
    """Move probabilities per hat from a counts array, only over legal balls (an empty hat: uniform)."""
    counts = np.asarray(counts)
    size = counts.shape[0] - 1
    legal = np.arange(1, max_take + 1)[None, :] <= np.arange(size + 1)[:, None]  # ball m in the hat for n >= m
    padded = np.zeros((size + 1, max_take), dtype=np.float64)
    padded[:, : min(max_take, counts.shape[1])] = counts[:, :max_take]
    legal_counts = np.where(legal, padded, 0.0)
    totals = legal_counts.sum(axis=1, keepdims=True)
    uniform = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        policy = np.where(totals > 0, legal_counts / np.where(totals > 0, totals, 1), uniform)
    policy[0] = 0.0
    return policy


def opponent_policy(kind: str, size: int, max_take: int, solution: SticksSolution | None = None) -> np.ndarray:
    """The move probabilities of a fixed opponent: 'random', or 'perfect' (`solution.perfect_move`: one
    particular perfect player, taking 1 where it cannot win; the figures use the worst perfect player
    for the AI instead, `win_probabilities_vs_perfect`)."""
    policy = np.zeros((size + 1, max_take), dtype=np.float64)
    for n in range(1, size + 1):
        legal = len(legal_moves(n, max_take))
        if kind == "random":
            policy[n, :legal] = 1.0 / legal
        elif kind == "perfect":
            policy[n, solution.perfect_move(n) - 1] = 1.0
        else:
            raise ValueError(f"unknown opponent {kind!r}")
    return policy


def win_probability(ai: np.ndarray, opponent: np.ndarray, start: int, ai_first: bool) -> float:
    """Exact chance the AI wins from `start` sticks. Whoever takes the last stick loses."""
    first, second = win_probabilities(ai, opponent, start)
    return first if ai_first else second


def win_probabilities(ai, opponent, start: int) -> tuple[float, float]:
    """Exact chances the AI wins from `start` sticks moving first and moving second (one pass).
    `ai` and `opponent` are policies by heap (arrays, or lists of rows)."""
    size = start
    if not isinstance(ai, list):
        ai = np.asarray(ai)[: size + 1].tolist()  # plain floats: the loop below reads them one by one
    if not isinstance(opponent, list):
        opponent = np.asarray(opponent)[: size + 1].tolist()
    max_take = len(ai[0])
    ai_to_move = [0.0] * (size + 1)  # P(AI wins | AI to move at n)
    opp_to_move = [0.0] * (size + 1)  # P(AI wins | opponent to move at n)
    for n in range(1, size + 1):
        a = 0.0
        o = 0.0
        for m in legal_moves(n, max_take):
            # Taking the last stick (m == n) loses for whoever takes it.
            a += ai[n][m - 1] * (0.0 if m == n else opp_to_move[n - m])
            o += opponent[n][m - 1] * (1.0 if m == n else ai_to_move[n - m])
        ai_to_move[n] = a
        opp_to_move[n] = o
    return float(ai_to_move[start]), float(opp_to_move[start])


def perfect_choices(solution: SticksSolution, size: int) -> list[tuple[int, ...]]:
    """The moves a perfect player may make at each heap 0..size: its winning moves, or, at a heap it
    cannot win from, every legal move (each loses against perfect play; none is more perfect)."""
    return [()] + [solution.winning_moves(n) or tuple(legal_moves(n, solution.max_take))
                   for n in range(1, size + 1)]


def _vs_perfect(ai: list, choices: list, size: int) -> tuple[list[float], list[float], list[int]]:
    """Heap by heap from the bottom: the AI's chance to win with the AI to move and with the perfect
    player to move, where the perfect player picks, among `choices[n]`, the move that leaves the AI
    the smallest chance (the first such move on a tie), and that move (`replies`)."""
    max_take = len(ai[0])
    ai_to_move = [0.0] * (size + 1)
    opp_to_move = [0.0] * (size + 1)
    replies = [0] * (size + 1)
    for n in range(1, size + 1):
        row = ai[n]
        a = 0.0
        for m in legal_moves(n, max_take):
            if m != n:  # taking the last stick loses for whoever takes it
                a += row[m - 1] * opp_to_move[n - m]
        worst = 2.0
        for m in choices[n]:
            value = 1.0 if m == n else ai_to_move[n - m]
            if value < worst:
                worst, replies[n] = value, m
        ai_to_move[n] = a
        opp_to_move[n] = worst
    return ai_to_move, opp_to_move, replies


def win_probabilities_vs_perfect(ai, solution: SticksSolution, start: int) -> tuple[float, float]:
    """Exact chances the AI wins from `start` sticks moving first and moving second against the
    perfect player worst for it (the minimum over every perfect player; see the module docstring).
    `ai` is the AI's policy by heap (an array, or a list of rows)."""
    rows = np.asarray(ai)[: start + 1].tolist() if not isinstance(ai, list) else ai
    first, second, _ = _vs_perfect(rows, perfect_choices(solution, start), start)
    return float(first[start]), float(second[start])


def worst_perfect_replies(ai, solution: SticksSolution, start: int) -> tuple[int, ...]:
    """The perfect player worst for the AI, as its move at each heap 0..start (0 at heap 0)."""
    rows = np.asarray(ai)[: start + 1].tolist() if not isinstance(ai, list) else ai
    return tuple(_vs_perfect(rows, perfect_choices(solution, start), start)[2])


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
        legal = len(legal_moves(n, max_take))
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


def _scoped(counts, heap: int | None) -> np.ndarray:
    """The hats of heaps 0..heap of a sticks brain's counts (all of them when heap is None)."""
    counts = np.asarray(counts)
    if heap is None:
        return counts
    if isinstance(heap, bool) or not isinstance(heap, (int, np.integer)) or not 1 <= heap <= counts.shape[0] - 1:
        raise ValueError(f"The heap must be between 1 and {counts.shape[0] - 1} (the brain's hats), not {heap!r}.")
    return counts[: int(heap) + 1]


def analyse(counts: np.ndarray, max_take: int = 3, heap: int | None = None) -> BrainAnalysis:
    """The core's analysis of a brain (`Hats.counts`) for a game of `heap` sticks (default: its
    largest heap): per hat 1..heap, overall over heaps 2..heap, and the rule discovered from them."""
    counts = _scoped(counts, heap)
    size = counts.shape[0] - 1
    solution = solve_sticks(size, max_take)
    policy = policy_matrix(counts, max_take)
    verdicts = []
    disagreeing = []
    winning_hats = 0
    for n in range(1, size + 1):
        legal = len(legal_moves(n, max_take))
        hat_counts = tuple(int(c) for c in counts[n, :legal])
        probs = tuple(float(p) for p in policy[n, :legal])
        best = 1 + int(np.argmax(policy[n, :legal]))
        optimal = solution.winning_moves(n)
        winning = solution.is_winning(n)
        # a tie at the top is no preference: it does not count as knowing the move
        agrees = agrees_with(policy[n, :legal], np.isin(np.arange(1, legal + 1), optimal)) if winning else None
        if winning:
            winning_hats += 1
            if not agrees:
                disagreeing.append(n)
        verdicts.append(HatVerdict(n, hat_counts, probs, best, winning, optimal, agrees))
    agreement = 1.0 - len(disagreeing) / winning_hats if winning_hats else 1.0
    won = [sum(v.probabilities[m - 1] for m in v.optimal_moves) for v in verdicts if v.winning]
    vs_perfect = win_probabilities_vs_perfect(policy, solution, size)
    rand = opponent_policy("random", size, max_take)
    return BrainAnalysis(
        size=size,
        max_take=max_take,
        hats=tuple(verdicts),
        agreement=agreement,
        disagreeing=tuple(disagreeing),
        win_vs_perfect_first=vs_perfect[0],
        win_vs_perfect_second=vs_perfect[1],
        win_vs_random_first=win_probability(policy, rand, size, True),
        win_vs_random_second=win_probability(policy, rand, size, False),
        rule=discover_rule(counts, max_take, solution),
        draw_wins=sum(won) / len(won) if won else 1.0,
    )
