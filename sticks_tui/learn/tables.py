"""A game as arrays: the one table-builder behind the compiled loop, the exact figures and the lab.

`game_tables(rules)` lays out every position of a game in play (index p, the rules' `positions()`
order) with its legal moves (column j: the j-th legal move), the position each move leads to
(`next_pos`, -1 where the move ends the game) and, where it ends it, the outcome for its mover
(`outcome`: +1 a win, 0 a draw, -1 a loss). `solved` adds the exact solution over the same arrays
(the value of each position for its mover and the moves that keep it), `order` lists the positions
with every successor first.

`lay_out` turns a game and its two players into the flat arrays `learn.kernel` plays on (a `Match`).
Each side s (0: learner A, 1: B, a second learner or a fixed player) and position p is one index
q = s * P + p; a learner's container at q starts at cell `first_of[q]` of one flat counts array
(A's rows, then B's); `after[q * width + c]` is where column c leads: the next side's index, or
`END` when the move ends the game (its outcome for the mover in `result`). A forced move (one legal
move) has `first_of` FORCED: it is made without a draw. A fixed player's side has FIXED, and its
columns are the legal moves themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np

#: `first_of` where a side draws nothing: a forced move, or a fixed player's move.
FORCED, FIXED = -1, -2
#: The fixed players (B, side 1): the RANDOM player (any legal move, each as likely), the
#: BEST_AT_RANDOM player (one of the moves that keep the position's exact value, at random), and (for
#: the exact figures only) the PERFECT player: among the moves that keep the position's value, the one
#: worst for the learner (its smallest chance not to lose, then to win).
RANDOM, BEST_AT_RANDOM, PERFECT = 1, 2, 3
#: How the exact figures read a learner's preference: drawn in proportion (the counts), or greedy (the
#: moves tied at the top, each as likely).
PROPORTIONAL, GREEDY = 0, 1


@dataclass(frozen=True, eq=False)
class GameTables:
    """Every position of a game in play, its moves, where they lead and how they end."""

    rules: object
    positions: tuple  # index p -> position
    index: dict  # position -> p
    moves: tuple  # p -> its legal moves, in order
    n_moves: np.ndarray  # (P,) int64
    next_pos: np.ndarray  # (P, width) int64: the position after move j; -1 where it ends the game
    outcome: np.ndarray  # (P, width) int8: where it ends the game, the outcome for its mover
    width: int

    @cached_property
    def solution(self) -> tuple[np.ndarray, np.ndarray]:
        """(value (P,) int8: what the player to move forces, +1, 0 or -1; perfect (P, width) bool: the moves
        that keep it), from the game's exact solver."""
        from sticks_tui.solve import solver_for

        solver = solver_for(self.rules)
        value_of = getattr(solver, "value", None)
        positions = self.positions
        value = np.zeros(len(positions), dtype=np.int8)
        for p, position in enumerate(positions):
            value[p] = int(value_of(position)) if value_of is not None else (1 if solver.is_winning(position) else -1)
        move_value = np.where(self.next_pos >= 0, -value[np.maximum(self.next_pos, 0)], self.outcome)
        legal = np.arange(self.width)[None, :] < self.n_moves[:, None]
        perfect = legal & (move_value == value[:, None])
        return value, perfect

    @property
    def value(self) -> np.ndarray:
        return self.solution[0]

    @property
    def perfect(self) -> np.ndarray:
        return self.solution[1]

    @cached_property
    def order(self) -> np.ndarray:
        """Every position with each of its successors before it (for exact figures, last first)."""
        P = len(self.positions)
        order: list[int] = []
        done = np.zeros(P, dtype=np.bool_)
        nxt = self.next_pos.tolist()
        n_moves = self.n_moves.tolist()
        for root in range(P):
            if done[root]:
                continue
            stack = [(root, 0)]
            while stack:
                r, j = stack.pop()
                if j < n_moves[r]:
                    stack.append((r, j + 1))
                    c = nxt[r][j]
                    if c >= 0 and not done[c]:
                        stack.append((c, 0))
                elif not done[r]:
                    done[r] = True
                    order.append(r)
        return np.array(order, dtype=np.int64)

    def start_indexes(self, starts) -> np.ndarray:
        return np.array([self.index[p] for p in starts], dtype=np.int64)


@lru_cache(maxsize=16)
def game_tables(rules) -> GameTables:
    """The game `rules` as arrays (built once a process for each game instance)."""
    positions = tuple(rules.positions())
    index = {p: i for i, p in enumerate(positions)}
    moves = tuple(tuple(rules.legal_moves(p)) for p in positions)
    width = max(1, max((len(m) for m in moves), default=1))
    P = len(positions)
    n_moves = np.array([len(m) for m in moves], dtype=np.int64)
    next_pos = np.full((P, width), -1, dtype=np.int64)
    outcome = np.zeros((P, width), dtype=np.int8)
    for p, position in enumerate(positions):
        for j, move in enumerate(moves[p]):
            after = rules.apply(position, move)
            if rules.is_terminal(after):
                outcome[p, j] = int(rules.outcome(after))
            else:
                next_pos[p, j] = index[after]
    for a in (n_moves, next_pos, outcome):
        a.flags.writeable = False
    return GameTables(rules, positions, index, moves, n_moves, next_pos, outcome, width)


# -- a brain over a game's positions -----------------------------------------------------------------

@lru_cache(maxsize=64)
def brain_map(tables: GameTables, brain_rules, seat) -> tuple[np.ndarray, np.ndarray]:
    """For the brains over `brain_rules` (and `seat`): (row (P,): the row of each position's container, -1
    where it has none; move (P, their width): the legal-move index at p of each of its container's
    columns, -1 past them). A forced position counts its one move in column 0, container or not."""
    from sticks_tui.learn.hats import Hats

    brain = Hats._made(brain_rules, None, None, seat)
    P = len(tables.positions)
    row = np.full(P, -1, dtype=np.int64)
    move = np.full((P, brain._layout.width), -1, dtype=np.int64)
    for p, position in enumerate(tables.positions):
        if tables.n_moves[p] == 1:
            move[p, 0] = 0
            continue
        found = brain.find(position)
        if found is None:
            continue
        r, pairs = found
        row[p] = r
        order = {m: j for j, m in enumerate(tables.moves[p])}
        for c, (_, m) in enumerate(pairs):
            move[p, c] = order[m]
    row.flags.writeable = False
    move.flags.writeable = False
    return row, move


@lru_cache(maxsize=64)
def reachable_sides(tables: GameTables, starts: tuple, a_seats: tuple) -> np.ndarray:
    """(2, P) bool: the positions side 0 (A) and side 1 (B) can be to move at, in games from `starts` with A
    moving first (seat 0) and/or second (seat 1), as `a_seats` lists."""
    P = len(tables.positions)
    seen = np.zeros((2, P), dtype=np.bool_)
    frontier = []
    for p in starts:
        for seat in a_seats:
            side = 0 if seat == 0 else 1
            if not seen[side, p]:
                seen[side, p] = True
                frontier.append((side, p))
    nxt = tables.next_pos
    while frontier:
        new = []
        for side, p in frontier:
            for j in range(int(tables.n_moves[p])):
                c = int(nxt[p, j])
                if c >= 0 and not seen[1 - side, c]:
                    seen[1 - side, c] = True
                    new.append((1 - side, c))
        frontier = new
    return seen


# -- the flat arrays the compiled loop plays on ------------------------------------------------------

class Match(NamedTuple):
    """A game and its two sides laid out flat for `learn.kernel` (see the module's words)."""

    first_of: np.ndarray  # (2P,) int64: a learner's first cell, FORCED or FIXED
    after: np.ndarray  # (2P * width,) int64: the next side's index, or END
    result: np.ndarray  # (2P * width,) int8: the outcome for the mover where `after` is END
    n_cols: np.ndarray  # (2P,) int64: the columns a side chooses among at q (1 where forced)
    perfect: np.ndarray  # (2P * width,) bool: a fixed player's value-keeping moves (its columns are moves)
    starts: np.ndarray  # (k,) int64: where games start (position indexes); one at random when k > 1
    width: int  # columns of a side at a position (the widest container or position)
    positions: int  # P
    rows_a: int  # A's rows (B's start at cell rows_a * width)
    rows_b: int
    row_cols: np.ndarray  # (rows_a + rows_b,) int64: the columns of each container, A's rows then B's
    start_cells: np.ndarray  # (cells,) int64: each learner's fresh counts, A's then B's (an empty container refills)


def lay_out(tables: GameTables, brain_a, brain_b, starts, a_seats=(0, 1)) -> Match:
    """The flat arrays of a match over `tables` between learner A (a `Hats`) and B (a `Hats`, or None: a
    fixed player); `starts` the start positions; `a_seats` the seats A takes (0: first, 1: second).
    ValueError when a learner can be to move at a position, not forced, that its brain has no
    container for."""
    P, W = tables.next_pos.shape
    width = max(W, brain_a._layout.width, brain_b._layout.width if brain_b is not None else 1)
    end = 2 * P
    start_idx = tables.start_indexes(starts)
    sides = reachable_sides(tables, tuple(int(s) for s in start_idx), tuple(a_seats))
    first_of = np.full(2 * P, FIXED, dtype=np.int64)
    n_cols = np.ones(2 * P, dtype=np.int64)
    col_moves = []
    rows = []
    for s, brain in ((0, brain_a), (1, brain_b)):
        block = slice(s * P, (s + 1) * P)
        if brain is None:  # a fixed player: its columns are the legal moves
            moves = np.where(np.arange(width)[None, :] < tables.n_moves[:, None], np.arange(width)[None, :], -1)
            n_cols[block] = tables.n_moves
            col_moves.append(moves)
            rows.append(0)
            continue
        layout = brain._layout
        row, move = brain_map(tables, brain.rules, brain.seat)
        offset = 0 if s == 0 else rows[0] * width
        forced = tables.n_moves == 1
        missing = np.flatnonzero(~forced & (row < 0) & sides[s])
        if missing.size:
            where = tables.rules.position_text(tables.positions[int(missing[0])])
            raise ValueError(f"This brain has no container for {where}, where it would have to move.")
        first_of[block] = np.where(forced, FORCED, np.where(row >= 0, offset + np.maximum(row, 0) * width, FORCED))
        n_cols[block] = np.where(row >= 0, layout.n_moves[np.maximum(row, 0)], 1)
        padded = np.full((P, width), -1, dtype=np.int64)
        padded[:, : move.shape[1]] = move
        col_moves.append(padded)
        rows.append(len(layout.rows))
    after = np.full(2 * P * width, end, dtype=np.int64)
    result = np.zeros(2 * P * width, dtype=np.int8)
    perfect = np.zeros(2 * P * width, dtype=np.bool_)
    p_idx = np.arange(P)[:, None]
    for s in (0, 1):
        j = col_moves[s]
        valid = j >= 0
        jj = np.maximum(j, 0)
        nxt = np.where(valid, tables.next_pos[p_idx, np.minimum(jj, W - 1)], -1)
        out = np.where(valid & (nxt < 0), tables.outcome[p_idx, np.minimum(jj, W - 1)], 0)
        q_next = np.where(nxt >= 0, (1 - s) * P + nxt, end)
        after[s * P * width:(s + 1) * P * width] = np.where(valid, q_next, end).ravel()
        result[s * P * width:(s + 1) * P * width] = out.ravel()
    if brain_b is None:
        solved = tables.perfect
        block = np.zeros((P, width), dtype=np.bool_)
        block[:, :W] = solved
        perfect[P * width:] = block.ravel()
    start_cells = np.zeros((rows[0] + rows[1]) * width, dtype=np.int64)
    row_cols = np.zeros(rows[0] + rows[1], dtype=np.int64)
    for s, brain in ((0, brain_a), (1, brain_b)):
        if brain is not None:
            offset = 0 if s == 0 else rows[0] * width
            fresh = np.zeros((rows[s], width), dtype=np.int64)
            fresh[:, : brain.start.shape[1]] = brain.start
            start_cells[offset: offset + rows[s] * width] = fresh.ravel()
            row_cols[(0 if s == 0 else rows[0]):(0 if s == 0 else rows[0]) + rows[s]] = brain.n_moves
    return Match(first_of, after, result, n_cols, perfect, start_idx, width, P, rows[0], rows[1], row_cols,
                 start_cells)


# -- exact figures ----------------------------------------------------------------------------------

def figure_sides(match, start, opponent):
    """(2P,) bool: the side positions whose chances `exact_chances_both` from `start` (either seat) can read,
    whatever the learner's preference: every move of the learner (side 0), and of the fixed player (side 1)
    every move against RANDOM, else only its value-keeping moves (the only ones the figures follow). On noughts
    against the perfect player: 3,706 of 9,040, so the lab's curve works out 41% of the table."""
    after, n_cols, perfect, width, P = match.after, match.n_cols, match.perfect, match.width, match.positions
    end = 2 * P
    seen = np.zeros(end + 1, dtype=np.bool_)
    frontier = np.array([start, P + start], dtype=np.int64)
    seen[frontier] = True
    cols = np.arange(width)
    while frontier.size:
        cells = frontier[:, None] * width + cols[None, :]
        ok = cols[None, :] < n_cols[frontier][:, None]
        if opponent != RANDOM:
            ok &= (frontier[:, None] < P) | perfect[cells]
        found = np.unique(after[cells[ok]])
        found = found[~seen[found]]
        seen[found] = True
        frontier = found[found != end]
    return seen[:end].copy()


class CurveLayout(NamedTuple):
    """`exact_chances_both` against the PERFECT player, laid out for the lab's curve (`curve_layout`): only the side
    positions the figures read, in the solving order, each with only the moves the figures follow, packed (one
    small table of chances, not one row a position of the whole game): `learn.kernel.curve_chances` reads it."""

    kind: np.ndarray  # (S,) int64: 0 the learner's container, 1 its forced move, 2 the perfect player
    moves: np.ndarray  # (S + 1,) int64: side k's moves are moves[k]..moves[k + 1] - 1, in column order
    cell: np.ndarray  # (M,) int64: the learner's cell of each move (its preference; kind 0)
    child: np.ndarray  # (M,) int64: the side it leads to (packed), or S, S + 1, S + 2: the learner wins, draws, loses
    first: int  # the packed side of the start, the learner moving first
    second: int  # the same, the perfect player moving first


def curve_layout(match, order, start, sides) -> CurveLayout:
    """The `CurveLayout` of `match` from `start` over `sides` (`figure_sides(match, start, PERFECT)`), packed in
    `order` (the solving order: each side after every side it leads to)."""
    first_of, after, result, n_cols, perfect, P, width = (match.first_of, match.after, match.result, match.n_cols,
                                                          match.perfect, match.positions, match.width)
    order = np.asarray(order, dtype=np.int64)
    packed = np.stack([order, P + order], axis=1).ravel()  # both sides of each position, in the order
    packed = packed[sides[packed]]
    S = packed.shape[0]
    index = np.full(2 * P + 1, -1, dtype=np.int64)
    index[packed] = np.arange(S)
    cols = np.arange(width)
    cells = packed[:, None] * width + cols[None, :]
    kept = cols[None, :] < n_cols[packed][:, None]
    kept &= (packed[:, None] < P) | perfect[cells]  # the perfect player's figures follow its value-keeping moves only
    first = first_of[packed]
    kind = np.where(packed < P, np.where(first >= 0, 0, 1), 2).astype(np.int64)
    moves = np.concatenate([[0], np.cumsum(kept.sum(axis=1))]).astype(np.int64)
    nq = after[cells[kept]]
    out = result[cells[kept]].astype(np.int64) * np.broadcast_to(np.where(packed < P, 1, -1)[:, None], kept.shape)[kept]  # the learner's outcome
    child = np.where(nq == 2 * P, np.where(out > 0, S, np.where(out == 0, S + 1, S + 2)), index[nq])
    cell = np.where(first[:, None] >= 0, first[:, None] + cols[None, :], 0)[kept]
    return CurveLayout(kind, moves, cell.astype(np.int64), child.astype(np.int64), int(index[start]),
                       int(index[P + start]))


def curve_chances(pref, policy, layout, start_cells, empty_code, chance):
    """`exact_chances_both(pref, policy, match, order, start, PERFECT, empty_code, sides)` over its `curve_layout`,
    the same six numbers to the last bit: each side's chances made by the same operations in the same order (an
    end adds `weight * 1.0` and `weight * 0.0`, which are `weight` and nothing). `chance`: (S + 3, 3) floats, its
    last three rows the ends (win, draw, loss: 1, 0, 0 and so on); the rest is written here. Pure Python over
    arrays: `learn.kernel.curve_chances` is this function compiled (the lab's curve, at every checkpoint)."""
    kind, moves, cell, child, first_k, second_k = layout
    S = kind.shape[0]
    for k in range(S):
        lo_m = moves[k]
        hi_m = moves[k + 1]
        w = 0.0
        d = 0.0
        lo = 0.0
        if kind[k] == 0:
            total = 0.0
            top = -1e300
            use_start = False
            for m in range(lo_m, hi_m):
                v = pref[cell[m]]
                if policy == GREEDY:
                    if v > top:
                        top = v
                elif v > 0:
                    total += v
            if policy == PROPORTIONAL and total == 0.0:
                if empty_code == 1:
                    chance[k, 0] = 0.0
                    chance[k, 1] = 0.0
                    chance[k, 2] = 1.0
                    continue
                use_start = True
                for m in range(lo_m, hi_m):
                    total += start_cells[cell[m]]
            if policy == GREEDY:
                for m in range(lo_m, hi_m):
                    if pref[cell[m]] == top:
                        total += 1.0
            for m in range(lo_m, hi_m):
                if policy == GREEDY:
                    weight = 1.0 / total if pref[cell[m]] == top else 0.0
                elif use_start:
                    weight = start_cells[cell[m]] / total
                else:
                    v = pref[cell[m]]
                    weight = v / total if v > 0 else 0.0
                if weight == 0.0:
                    continue
                c = child[m]
                w += weight * chance[c, 0]
                d += weight * chance[c, 1]
                lo += weight * chance[c, 2]
        elif kind[k] == 1:
            for m in range(lo_m, hi_m):
                c = child[m]
                w += 1.0 * chance[c, 0]
                d += 1.0 * chance[c, 1]
                lo += 1.0 * chance[c, 2]
        else:
            best_keep = 2.0
            best_win = 2.0
            for m in range(lo_m, hi_m):
                c = child[m]
                cw = chance[c, 0]
                cd = chance[c, 1]
                keep = cw + cd
                if keep < best_keep or (keep == best_keep and cw < best_win):
                    best_keep = keep
                    best_win = cw
                    w = cw
                    d = cd
                    lo = chance[c, 2]
        chance[k, 0] = w
        chance[k, 1] = d
        chance[k, 2] = lo
    return (chance[first_k, 0], chance[first_k, 1], chance[first_k, 2], chance[second_k, 0], chance[second_k, 1],
            chance[second_k, 2])


def curve_table(layout) -> np.ndarray:
    """The (S + 3, 3) table `curve_chances` fills, its three ends set: the learner wins, draws, loses."""
    S = layout.kind.shape[0]
    chance = np.zeros((S + 3, 3))
    chance[S, 0] = chance[S + 1, 1] = chance[S + 2, 2] = 1.0
    return chance


def exact_chances(pref, policy, match, order, start, learner_first, opponent, empty_code):
    """The exact chances (win, draw, loss) of learner A (its preference `pref`, flat over its containers'
    cells: drawn in PROPORTIONAL to it, or GREEDY with ties shared) in one game from position `start`,
    moving first or second, against the fixed player of `match` (side 1): RANDOM, BEST_AT_RANDOM, or
    PERFECT (among the moves that keep the position's value, the one worst for A: its smallest chance not
    to lose, then to win). An empty container resigns (empty_code 1: a loss) or draws from its start
    tokens (2). Pure Python over arrays (no numba here): `learn.kernel.chances` is this function compiled.
    Both seats' chances come from the one table (`exact_chances_both`), so this is that, one seat of it."""
    w1, d1, l1, w2, d2, l2 = exact_chances_both(pref, policy, match, order, start, opponent, empty_code,
                                                np.zeros(0, dtype=np.bool_))
    return (w1, d1, l1) if learner_first else (w2, d2, l2)


def exact_chances_both(pref, policy, match, order, start, opponent, empty_code, sides):
    """`exact_chances` moving first and moving second, (win, draw, loss) each, from ONE table: the table of
    every position's chances holds both seats (side 0 at `start`: A moves first; side 1: the fixed player
    does), so a figure for both seats costs one pass, not two (the lab's curve: both seats each checkpoint).
    `sides`: (2P,) bool, the side positions whose chances are worked out (`figure_sides`: those the
    start's chances can read; the others are never read), or empty: every one. The same figures either way.
    `learn.kernel.chances_both` is this function compiled."""
    first_of, after, result, n_cols, perfect, _, width, P, _, _, _, start_cells = match
    end = 2 * P
    chance = np.zeros((end + 1, 3))
    every = sides.shape[0] == 0
    for p in order:
        for side in range(2):
            q = side * P + p
            if not every and not sides[q]:
                continue
            first = first_of[q]
            legal = n_cols[q]
            base = q * width
            w = 0.0
            d = 0.0
            lo = 0.0
            if side == 0:
                total = 0.0
                top = -1e300
                use_start = False
                if first >= 0:
                    for j in range(legal):
                        v = pref[first + j]
                        if policy == GREEDY:
                            if v > top:
                                top = v
                        elif v > 0:
                            total += v
                    if policy == PROPORTIONAL and total == 0.0:
                        if empty_code == 1:
                            chance[q, 2] = 1.0
                            continue
                        use_start = True
                        for j in range(legal):
                            total += start_cells[first + j]
                    if policy == GREEDY:
                        for j in range(legal):
                            if pref[first + j] == top:
                                total += 1.0
                for j in range(legal):
                    if first < 0:
                        weight = 1.0
                    elif policy == GREEDY:
                        weight = 1.0 / total if pref[first + j] == top else 0.0
                    elif use_start:
                        weight = start_cells[first + j] / total
                    else:
                        v = pref[first + j]
                        weight = v / total if v > 0 else 0.0
                    if weight == 0.0:
                        continue
                    nq = after[base + j]
                    if nq == end:
                        out = result[base + j]
                        if out > 0:
                            w += weight
                        elif out == 0:
                            d += weight
                        else:
                            lo += weight
                    else:
                        w += weight * chance[nq, 0]
                        d += weight * chance[nq, 1]
                        lo += weight * chance[nq, 2]
            else:
                k = 0
                best_keep = 2.0
                best_win = 2.0
                for j in range(legal):
                    if opponent != RANDOM and not perfect[base + j]:
                        continue
                    nq = after[base + j]
                    if nq == end:
                        out = result[base + j]  # for the fixed player: the learner's is its opposite
                        cw = 1.0 if out < 0 else 0.0
                        cd = 1.0 if out == 0 else 0.0
                        cl = 1.0 if out > 0 else 0.0
                    else:
                        cw = chance[nq, 0]
                        cd = chance[nq, 1]
                        cl = chance[nq, 2]
                    if opponent == PERFECT:
                        keep = cw + cd
                        if keep < best_keep or (keep == best_keep and cw < best_win):
                            best_keep = keep
                            best_win = cw
                            w = cw
                            d = cd
                            lo = cl
                    else:
                        w += cw
                        d += cd
                        lo += cl
                        k += 1
                if opponent != PERFECT and k > 0:
                    w /= k
                    d /= k
                    lo /= k
            chance[q, 0] = w
            chance[q, 1] = d
            chance[q, 2] = lo
    q = P + start
    return chance[start, 0], chance[start, 1], chance[start, 2], chance[q, 0], chance[q, 1], chance[q, 2]
