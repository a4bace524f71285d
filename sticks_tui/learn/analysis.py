"""What a brain has learned, held against the exact solution.

Everything here is computed exactly over all positions, never sampled. `CurveScorer` scores a brain
of any game at each checkpoint of a training run (a `CurvePoint`); `agreement` reports on any brain.

Every figure is about one game: for sticks, a heap N (`heap`): agreement over the hats of heaps
2..N, the chances in a game of N sticks, the rule read from hats 1..N (`heaps_words` says it). A
brain may hold more hats than the game in play (the app's has 100); those above N are not part of
its figures. For other games the figures are over every position of the brain's game (`scope_words`).

The perfect player of the chances is the one worst for the AI: at a heap it can win from it takes a
winning move, and at a heap it cannot (every move loses against perfect play) it takes the move that
leaves the AI the smallest chance (`win_probabilities_vs_perfect`). So "beats a perfect player X%"
holds against every perfect player, not one particular way of losing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.engine.rules import SticksRules, heaps_words, legal_moves
from sticks_tui.learn.hats import Hats, _layout
from sticks_tui.solve import solver_for
from sticks_tui.solve.sticks import SticksSolution, solve_sticks


#: Which perfect player the chances are against, in words for the screens and the README.
PERFECT_PLAYER_WORDS = "a perfect player that, when it cannot win, makes the move worst for the AI"


def scope_words(rules) -> str:
    """What the figures of a run over `rules` are about, in words (the game's registry entry says):
    sticks 'heaps 2-20', Nim 'piles up to 7, 7, 7'."""
    return registry.entry_of(rules).scope_words(rules)


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


def policy_matrix(counts: np.ndarray, max_take: int) -> np.ndarray:
    """Move probabilities per hat from a counts array, only over legal balls (an empty hat: uniform)."""
    counts = np.asarray(counts)
    size = counts.shape[0] - 1
    legal = _layout(SticksRules(max(size, 1), max_take)).legal_mask[: size + 1]  # the brain's own layout
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


# -- the learning curve ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The brain after `games` training games: share of winning positions whose single top move wins, its
    exact chance to beat the perfect player (the one worst for it) moving first / second, and, in a game
    that can end in a draw, not to lose against it (NaN where not computed: a seat the brain does not
    play); `results`: the trained brain's wins, draws and losses in the run so far; `draw_wins`: over the same
    winning positions, the chance that a token drawn at random is a winning move (their mean), where
    `agreement` counts only the likeliest one."""

    games: int
    agreement: float
    win_first: float = float("nan")
    win_second: float = float("nan")
    keep_first: float = float("nan")
    keep_second: float = float("nan")
    results: tuple | None = None
    draw_wins: float = float("nan")

    @property
    def win_vs_perfect(self) -> float:
        """Averaged over the two seats."""
        return (self.win_first + self.win_second) / 2

    def as_json(self) -> dict:
        def finite(x: float) -> float | None:
            return None if math.isnan(x) else x

        out = {"games": self.games, "agreement": finite(self.agreement),
               "win_vs_perfect_first": finite(self.win_first), "win_vs_perfect_second": finite(self.win_second)}
        if not (math.isnan(self.keep_first) and math.isnan(self.keep_second)):
            out["not_losing_vs_perfect_first"] = finite(self.keep_first)
            out["not_losing_vs_perfect_second"] = finite(self.keep_second)
        return out


def exact_chances(brain: Hats, opponent: str = "perfect", first: bool = True, rules=None,
                  counts: np.ndarray | None = None) -> tuple[float, float, float]:
    """The exact chances (win, draw, loss) of `brain` (its counts, or `counts`) in one game of `rules`
    (default: its own game) from the start, moving first or second, against `opponent`: 'perfect' (the
    perfect player worst for it: among the moves that keep the position's value, the one that leaves it
    the smallest chance not to lose, then to win), 'best-at-random' (a perfect player choosing at random
    among its best moves) or 'random'. An empty container resigns (a loss) or draws from its start tokens,
    as its rule says. Compiled when the kernel is loaded in this process, else in plain Python."""
    from sticks_tui.learn import compiled
    from sticks_tui.learn.tables import BEST_AT_RANDOM, PERFECT, PROPORTIONAL, RANDOM, game_tables, lay_out
    from sticks_tui.learn.tables import exact_chances as readable

    codes = {"perfect": PERFECT, "best-at-random": BEST_AT_RANDOM, "random": RANDOM}
    if opponent not in codes:
        raise ValueError(f"The chances are against {', '.join(codes)}, not {opponent!r}.")
    rules = brain.rules if rules is None else rules
    tables = game_tables(rules)
    start = rules.start_positions()[0]
    match = lay_out(tables, brain, None, (start,), (0,) if first else (1,))
    counts = brain.counts if counts is None else counts
    pref = np.zeros((match.rows_a, match.width), dtype=np.float64)
    pref[:, : counts.shape[1]] = counts[: match.rows_a]
    pref = pref.ravel()
    args = (PROPORTIONAL, match, tables.order, tables.index[start], first, codes[opponent], brain.rule.empty_code)
    if compiled.loaded():
        from sticks_tui.learn import kernel

        found = kernel.chances(pref, *args)
    else:
        found = readable(pref, *args)
    return float(found[0]), float(found[1]), float(found[2])


def _has_draws(rules) -> bool:
    """The game can end in a draw (from its tables: some move ends it with neither side winning)."""
    from sticks_tui.learn.tables import game_tables

    tables = game_tables(rules)
    legal = np.arange(tables.width)[None, :] < tables.n_moves[:, None]
    return bool(((tables.next_pos < 0) & legal & (tables.outcome == 0)).any())


@lru_cache(maxsize=16)
def _chance_layout(rules, seat, rule) -> tuple[tuple, bool]:
    """What the exact chances of a curve's checkpoints need, laid out once a process for each game, seat and rule
    (about 2 ms at 100 sticks): ((the match against the perfect player worst for the brain, both seats from one
    table; the order of positions; the start's index; what an empty container does; the side positions the
    chances read), whether the game can end in a draw). Read, never written, by `kernel.curve_point`."""
    from sticks_tui.learn.tables import PERFECT, figure_sides, game_tables, lay_out

    tables = game_tables(rules)
    template = Hats(rules, rule=rule, seat=seat)
    start = rules.start_positions()[0]
    match = lay_out(tables, template, None, (start,), (0, 1) if seat is None else (seat,))
    p = int(tables.index[start])
    return (match, tables.order, p, template.rule.empty_code, figure_sides(match, p, PERFECT)), _has_draws(rules)


class CurveScorer:
    """Scores brains of one game instance against its exact solution, fast enough for every checkpoint.

    The game is the one a run trains (`for_rules`): for sticks a heap N, scored over the hats of heaps
    1..N of a brain that may hold more (the rows above N are not read). A brain of one seat's containers
    (MENACE's X) is scored in that seat only.

    One way for every game: what a checkpoint needs that does not change in a run (the winning moves, the
    match against the perfect player, the positions its chances read) is laid out once (at the first
    `score`); a checkpoint is then one compiled call (`kernel.curve_point`) when the kernel is loaded in this
    process, else the readable form (`disagreeing_rows`, `draw_wins` and `tables.exact_chances_both`), the
    same figures to the last bit."""

    def __init__(self, rules, layout_rows, layout_moves, n_moves: np.ndarray, width: int, seat=None,
                 rule=None) -> None:
        self.rules = rules
        self.rows = len(layout_rows)
        self.seat = seat
        self.rule = rule
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
        self._chances = None  # laid out at the first `score` (`agreement` and `draw_wins` do without)

    def _laid_out(self) -> None:
        """What the exact chances of every checkpoint need (`_chance_layout`), and the working arrays."""
        self._chances, self._draws = _chance_layout(self.rules, self.seat, self.rule)
        match = self._chances[0]
        self._pref = np.zeros(match.rows_a * match.width, dtype=np.float64)
        self._per_row = np.zeros(int(np.count_nonzero(self.winning_rows)), dtype=np.float64)

    @classmethod
    def for_brain(cls, brain) -> CurveScorer:
        """Scores over the brain's whole game (for sticks: every heap it has a hat for)."""
        return cls.for_rules(brain.rules, brain.seat, brain.rule)

    @classmethod
    def for_rules(cls, rules, seat=None, rule=None) -> CurveScorer:
        """Scores over the game `rules` (for sticks: heaps up to `rules.size`, whatever the brain's size)."""
        layout = _layout(rules, seat)
        return cls(rules, layout.rows, layout.moves, layout.n_moves, layout.width, seat, rule)

    @property
    def scope(self) -> str:
        return scope_words(self.rules)

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
        return float(np.mean(self._draw_rows(counts)))

    def _draw_rows(self, counts: np.ndarray) -> np.ndarray:
        """For each winning row, in order, the chance a token drawn from it is a winning move (empty: 0)."""
        rows = np.where(self.legal, np.asarray(counts)[: self.rows], 0)[self.winning_rows].astype(np.float64)
        totals = rows.sum(axis=1)
        good = np.where(self.win_mask[self.winning_rows], rows, 0.0).sum(axis=1)
        return np.where(totals > 0, good / np.where(totals > 0, totals, 1.0), 0.0)

    def agreement(self, counts: np.ndarray) -> float:
        total = int(np.count_nonzero(self.winning_rows))
        return 1.0 - len(self.disagreeing_rows(counts)) / total if total else 1.0

    def score(self, games: int, counts: np.ndarray) -> CurvePoint:
        """The brain's figures after `games` games: compiled when the kernel is loaded, else readable."""
        from sticks_tui.learn import compiled

        if self._chances is None:
            self._laid_out()
        if compiled.loaded():
            return self._score_compiled(games, counts)
        return self._score_readable(games, counts)

    def _score_compiled(self, games: int, counts: np.ndarray) -> CurvePoint:
        from sticks_tui.learn import kernel

        counts = np.asarray(counts)
        if counts.dtype != np.int64 or not counts.flags.c_contiguous or not counts.flags.writeable:
            counts = np.array(counts, dtype=np.int64)  # the one layout the kernel is compiled for
        wrong, total, *chances = kernel.curve_point(counts, self.win_mask, self.winning_rows, self._pref,
                                                    self._per_row, *self._chances)
        agreement = 1.0 - wrong / total if total else 1.0
        # np.mean's own sum and division (the readable form's, to the last bit), without its checks
        draw_wins = float(np.add.reduce(self._per_row) / total) if total else 1.0
        return self._point(games, agreement, chances, draw_wins)

    def _score_readable(self, games: int, counts: np.ndarray) -> CurvePoint:
        """The same figures in the readable form: numpy over the rows, the exact chances in plain Python."""
        from sticks_tui.learn.tables import PERFECT, PROPORTIONAL, exact_chances_both

        if self._chances is None:
            self._laid_out()
        match, order, start, empty_code, sides = self._chances
        pref = np.zeros((match.rows_a, match.width), dtype=np.float64)
        pref[:, : counts.shape[1]] = counts[: match.rows_a]
        chances = exact_chances_both(pref.ravel(), PROPORTIONAL, match, order, start, PERFECT, empty_code, sides)
        return self._point(games, self.agreement(counts), chances, self.draw_wins(counts))

    def _point(self, games: int, agreement: float, chances, draw_wins: float) -> CurvePoint:
        """A checkpoint from the chances (win, draw, loss) moving first, then second: NaN for a seat the
        brain does not play, and the chance not to lose only in a game that can end in a draw."""
        nan = float("nan")
        win, keep = [nan, nan], [nan, nan]
        for seat in ((0, 1) if self.seat is None else (self.seat,)):
            w, d = float(chances[3 * seat]), float(chances[3 * seat + 1])
            win[seat] = w
            if self._draws:
                keep[seat] = w + d
        return CurvePoint(games, agreement, win[0], win[1], keep[0], keep[1], draw_wins=draw_wins)


@dataclass(frozen=True)
class GeneralAnalysis:
    agreement: float  # share of winning positions whose single most likely move wins
    winning_states: int
    disagreeing: tuple  # winning positions whose most likely move does not win
    draw_wins: float = float("nan")  # over them, the chance a token drawn at random is a winning move (mean)


def agreement(brain: Hats, counts: np.ndarray | None = None) -> GeneralAnalysis:
    """For any game: over the positions where the player to move can force a win, the share whose
    single most likely ball is a winning move. `counts` overrides `brain.counts`."""
    scorer = CurveScorer.for_brain(brain)
    counts = brain.counts if counts is None else counts
    wrong = scorer.disagreeing_rows(counts)
    total = int(np.count_nonzero(scorer.winning_rows))
    rows = brain._layout.rows
    return GeneralAnalysis(1.0 - len(wrong) / total if total else 1.0, total, tuple(rows[i] for i in wrong),
                           scorer.draw_wins(counts))


def quick_scores(counts: np.ndarray, max_take: int = 3, heap: int | None = None) -> tuple[float, float]:
    """(agreement over heaps 2..heap, win probability vs perfect in a game of `heap` sticks averaged over
    the seats) of a sticks brain's counts; `heap` None: its largest heap."""
    counts = _scoped(counts, heap)
    point = CurveScorer.for_rules(SticksRules(counts.shape[0] - 1, max_take)).score(0, counts)
    return point.agreement, point.win_vs_perfect


# -- one analysis for every game ----------------------------------------------------------------------

@dataclass(frozen=True)
class PositionVerdict:
    """One container of a brain held against the exact solution: the position as the brain encodes it
    (folded: the canonical one of positions alike up to a symmetry), its moves in the container's order,
    their counts and chances, the learner's likeliest move, and the perfect moves among them (those that keep
    the position's value: the winning moves where the player to move can force a win, the drawing moves where
    the best it can force is a draw) and whether its single likeliest move is one of those (None where the
    position is lost: any move loses against perfect play)."""

    position: object
    seat: int | None  # who moves here (0 first, 1 second); None: the game does not say (sticks, Nim)
    moves: tuple
    counts: tuple[int, ...]
    probabilities: tuple[float, ...]  # all 0 in an empty container that resigns
    likeliest: object  # its most likely move (the first on a tie); None: an empty container, it resigns
    tie: bool  # several moves share the top count: no preference
    value: int  # what the player to move forces: +1 a win, 0 a draw, -1 a loss
    perfect: tuple  # the moves among `moves` that keep `value`; empty in a lost position
    agrees: bool | None

    @property
    def winning(self) -> bool:
        return self.value > 0


@dataclass(frozen=True)
class SeatFigures:
    """The figures of one seat the learner plays (0 moving first, 1 moving second): its agreement over the
    winning positions where that seat moves (None where the game does not say whose turn a position is: the
    whole brain's agreement holds for both seats), and its exact chances (win, draw, loss) in a game from the
    start against the perfect player worst for it and against a random player."""

    seat: int
    agreement: float | None
    winning_positions: int
    disagreeing: tuple
    vs_perfect: tuple[float, float, float]
    vs_random: tuple[float, float, float]


@dataclass(frozen=True)
class GameAnalysis:
    """What `analyse_brain` finds, for any game: per position, overall and per seat, each saying what it is
    over (`scope`: 'heaps 2-20', 'every board MENACE can face'; `game`: 'a game of 20 sticks')."""

    rules: object
    seat: int | None  # the brain's seat (None: it plays both)
    positions: tuple[PositionVerdict, ...]
    agreement: float  # over every winning position of `positions` (the learning curve's agreement)
    winning_positions: int
    disagreeing: tuple  # winning positions whose single likeliest move does not win
    seats: tuple[SeatFigures, ...]
    scope: str
    game: str
    draws: bool  # the game can end in a draw (the chances then say the draws too)
    drawn_positions: int = 0  # positions where the best the mover can force is a draw
    drawn_kept: float | None = None  # over those: the share whose single likeliest move keeps the draw
    rule: DiscoveredRule | None = None  # sticks: the rule read off the hats (the entry's `chances_vs_perfect`)

    @property
    def plays_perfectly(self) -> bool:
        return not self.disagreeing

    def seat_figures(self, seat: int) -> SeatFigures | None:
        return next((s for s in self.seats if s.seat == seat), None)


def game_words(rules) -> str:
    """The game the chances are about, in words (its registry entry says): 'a game of 20 sticks'."""
    return registry.entry_of(rules).game_words(rules)


def analyse_brain(brain: Hats, rules=None) -> GameAnalysis:
    """The analysis of any game's brain (the one counts learner, `learn.hats.Hats`) against its game's exact
    solution (`solve.solver_for`, through `learn.tables`), over the game `rules` (default: the brain's own; for
    sticks a heap N whose hats are the brain's first rows). Written once against the game API: the positions
    are the brain's containers as it lays them out (folded by the game's symmetries), the perfect moves are
    those that keep each position's value, and the chances are `exact_chances`' (the perfect player worst for
    the learner), in each seat the brain plays."""
    from sticks_tui.learn.tables import game_tables

    rules = brain.rules if rules is None else rules
    why = brain.cannot_train(rules)
    if why is not None:
        raise ValueError(why)
    layout = _layout(rules, brain.seat)
    tables = game_tables(rules)
    values, keeps = tables.value, tables.perfect
    mover = getattr(rules, "mover", None)
    verdicts = []
    for i, position in enumerate(layout.rows):
        if position is None:
            continue
        moves = layout.moves[i]
        counts = tuple(int(c) for c in brain.counts[i, : len(moves)])
        shown = counts
        if sum(counts) == 0 and brain.rule.empty == "refill":  # an empty box is refilled before it draws
            shown = tuple(int(c) for c in brain.start[i, : len(moves)])
        weight = sum(shown)
        probabilities = tuple(c / weight for c in shown) if weight else (0.0,) * len(moves)
        top = max(shown)
        likeliest = moves[shown.index(top)] if weight else None
        p = tables.index[position]
        value = int(values[p])
        kept = {m for j, m in enumerate(tables.moves[p]) if keeps[p, j]}
        perfect = tuple(m for m in moves if m in kept) if value >= 0 else ()
        tie = shown.count(top) > 1
        agrees = (weight > 0 and not tie and likeliest in kept) if value >= 0 else None
        verdicts.append(PositionVerdict(position, mover(position) if mover is not None else None, moves, counts,
                                        probabilities, likeliest, tie, value, perfect, agrees))

    def agreement_of(rows):
        winning = [v for v in rows if v.winning]
        wrong = tuple(v.position for v in winning if not v.agrees)
        return (1.0 - len(wrong) / len(winning) if winning else 1.0), len(winning), wrong

    overall, winning_count, wrong = agreement_of(verdicts)
    drawn = [v for v in verdicts if v.value == 0]
    drawn_kept = sum(1 for v in drawn if v.agrees) / len(drawn) if drawn else None
    seats = []
    for seat in ((0, 1) if brain.seat is None else (brain.seat,)):
        if mover is not None:
            share, count, seat_wrong = agreement_of([v for v in verdicts if v.seat == seat])
        else:
            share, count, seat_wrong = None, winning_count, wrong
        first = seat == 0
        seats.append(SeatFigures(seat, share, count, seat_wrong,
                                 exact_chances(brain, "perfect", first, rules=rules),
                                 exact_chances(brain, "random", first, rules=rules)))
    rule = None
    game = registry.find(rules)
    if game is not None and game.chances_vs_perfect:  # sticks: the rule its hats show, besides
        rule = discover_rule(np.asarray(brain.counts)[: rules.size + 1], rules.max_take, solver_for(rules))
    return GameAnalysis(rules, brain.seat, tuple(verdicts), overall, winning_count, wrong, tuple(seats),
                        scope_words(rules), game_words(rules), _has_draws(rules), len(drawn), drawn_kept, rule)
