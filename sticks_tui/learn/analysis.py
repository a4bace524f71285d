"""What a brain has learned, held against the exact solution.

Everything here is computed exactly over all positions, never sampled. `CurveScorer` scores a brain
of any game at each checkpoint of a training run (a `CurvePoint`); `agreement` reports on any brain.

Every figure is about one game, as its registry entry says (`scope_words`): for sticks a heap N, over the
hats of heaps 2..N and the chances in a game of N sticks (a brain may hold more hats than the game in play:
the app's has 100; those above N are not part of its figures); for other games every position of the
brain's game. Nothing here knows a game: what a game's own analysis adds (sticks: the rule read off the
hats) comes from the solvers' layer (`solve.read_rule`; sticks' own figures: `solve.sticks_hats`).

The perfect player of the chances is the one worst for the AI: among the moves that keep the position's
value, the one that leaves it the smallest chance (`exact_chances`). So "beats a perfect player X%" holds
against every perfect player, not one particular way of losing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sticks_tui.engine import registry
from sticks_tui.learn.hats import Hats, _layout
from sticks_tui.solve import read_rule, solver_for
from sticks_tui.solve.generic import agrees_with


#: Which perfect player the chances are against, in words for the screens and the README.
PERFECT_PLAYER_WORDS = "a perfect player that, when it cannot win, makes the move worst for the AI"


def scope_words(rules) -> str:
    """What the figures of a run over `rules` are about, in words (the game's registry entry says):
    sticks 'heaps 2-20', Nim 'piles up to 7, 7, 7'."""
    return registry.entry_of(rules).scope_words(rules)


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
    table; only the side positions the chances read, packed in the solving order (`tables.curve_layout`, as the
    lab's curve reads them); the start tokens an empty container refills from; what an empty container does),
    whether the game can end in a draw). Read, never written, by `kernel.curve_point`."""
    from sticks_tui.learn.tables import PERFECT, curve_layout, figure_sides, game_tables, lay_out

    tables = game_tables(rules)
    template = Hats(rules, rule=rule, seat=seat)
    start = rules.start_positions()[0]
    match = lay_out(tables, template, None, (start,), (0, 1) if seat is None else (seat,))
    p = int(tables.index[start])
    layout = curve_layout(match, tables.order, p, figure_sides(match, p, PERFECT))
    return (match, layout, match.start_cells, template.rule.empty_code), _has_draws(rules)


class CurveScorer:
    """Scores brains of one game instance against its exact solution, fast enough for every checkpoint.

    The game is the one a run trains (`for_rules`): for sticks a heap N, scored over the hats of heaps
    1..N of a brain that may hold more (the rows above N are not read). A brain of one seat's containers
    (MENACE's X) is scored in that seat only.

    One way for every game: what a checkpoint needs that does not change in a run (the winning moves, the
    match against the perfect player, the positions its chances read) is laid out once (at the first
    `score`); a checkpoint is then one compiled call (`kernel.curve_point`) when the kernel is loaded in this
    process, else the readable form (`disagreeing_rows`, `draw_wins` and `tables.curve_chances` over the packed
    layout the lab reads too), the same figures to the last bit."""

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
        from sticks_tui.learn.tables import curve_table

        self._chances, self._draws = _chance_layout(self.rules, self.seat, self.rule)
        match = self._chances[0]
        self._table = curve_table(self._chances[1])  # the chances' working table: this scorer's own
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
                                                    self._per_row, *self._chances, self._table)
        agreement = 1.0 - wrong / total if total else 1.0
        # np.mean's own sum and division (the readable form's, to the last bit), without its checks
        draw_wins = float(np.add.reduce(self._per_row) / total) if total else 1.0
        return self._point(games, agreement, chances, draw_wins)

    def _score_readable(self, games: int, counts: np.ndarray) -> CurvePoint:
        """The same figures in the readable form: numpy over the rows, the exact chances in plain Python."""
        from sticks_tui.learn.tables import PROPORTIONAL, curve_chances

        if self._chances is None:
            self._laid_out()
        match, layout, start_cells, empty_code = self._chances
        pref = np.zeros((match.rows_a, match.width), dtype=np.float64)
        pref[:, : counts.shape[1]] = counts[: match.rows_a]
        chances = curve_chances(pref.ravel(), PROPORTIONAL, layout, start_cells, empty_code, self._table)
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
    rule: object | None = None  # what the game reads off the counts (sticks: the rule, `solve.read_rule`)

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
    rule = read_rule(rules, np.asarray(brain.counts))  # a game's own reading of its brain (sticks: the rule)
    return GameAnalysis(rules, brain.seat, tuple(verdicts), overall, winning_count, wrong, tuple(seats),
                        scope_words(rules), game_words(rules), _has_draws(rules), len(drawn), drawn_kept, rule)
