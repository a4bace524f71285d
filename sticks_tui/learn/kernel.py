"""The fast training loop for every game of the protocol: AI vs AI, compiled by numba, releasing the GIL.

The game arrives as arrays (`trainer.compile_game`): for hat row i and ball j, `next_row[i, j]` is
the row after that move, or -1 when the move ends the game, and then `outcome[i, j]` (int8) is what
it brought its mover: +1 a win, 0 a draw, -1 a loss. The loop draws as `Hats.draw` does, from the
same xorshift64* stream as `learn.rng.XorShift64Star`, and learns by the hat rule of `learn.hats`
(`reinforced_count`, compiled here, not rewritten, with the change `HatRule.changes` gives each
outcome), so for the same seed it leaves the same counts as the readable reference learner (tests
hold it to that). Importing this module compiles nothing; the first call compiles (or loads the
on-disk cache).

Sticks used to have a loop of its own (the next heap is heap - ball: no table to read); this one
loop is as fast on sticks (issue 17, `benchmarks/bench_kernel_loops.py`) because:
- for each batch, both brains' counts are copied into ONE flat array (a `RunState`'s, made once a
  run), A's hats then B's, so the mover is an offset into it, not a choice between two arrays
  (which numba pays for in reference counting);
- a ball is a cell number (row * width + column), and the game is laid out flat once a run
  (`lay_out`) with one extra row that every ending move leads to, so the next hat is one load;
- each hat's total is kept up to date as the hats learn, so a draw reads one number instead of
  summing its hat before it can divide;
- indices are unsigned, so numba adds no negative-index wrap-around to each load.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sticks_tui.learn import hats


class CompiledGame(NamedTuple):
    """A game instance as arrays over a brain's hat rows (`trainer.compile_game` builds it with `lay_out`)."""

    n_moves: np.ndarray  # (rows,) int64: the balls in each hat
    next_row: np.ndarray  # (rows, width) int64: the row after each move; -1 when the move ends the game
    outcome: np.ndarray  # (rows, width) int8: for the mover, where next_row == -1: +1 win, 0 draw, -1 loss
    starts: np.ndarray  # (k,) int64: rows where games start; one at random each game when k > 1
    # the same, laid out flat for the loop (cell = row * width + column), with an end row at rows * width:
    following: np.ndarray  # (cells + width,) int64: the first cell of the next hat, or the end row's
    result: np.ndarray  # (cells + width,) int8: the outcome for the mover, where the move ends the game


def lay_out(n_moves, next_row, outcome, starts) -> CompiledGame:
    """A `CompiledGame` from the game's arrays (NumPy, once a run)."""
    rows, width = next_row.shape
    end = rows * width
    following = np.full(end + width, end, dtype=np.int64)
    following[:end] = np.where(next_row >= 0, next_row * width, end).ravel()
    result = np.zeros(end + width, dtype=np.int8)
    result[:end] = np.where(next_row < 0, outcome, 0).ravel()
    # fresh writable int64/int8 copies: numba types a read-only array apart (`Hats.n_moves` is one),
    # and every run must match the signature `warm_up` compiled
    return CompiledGame(np.array(n_moves, dtype=np.int64), np.array(next_row, dtype=np.int64),
                        np.array(outcome, dtype=np.int8), np.array(starts, dtype=np.int64), following, result)


class RunState(NamedTuple):
    """What a run carries from batch to batch: its random stream, its tallies and the loop's working
    arrays (made once a run, so a batch allocates nothing)."""

    rng_state: np.ndarray  # (1,) uint64: the xorshift64 state
    stats: np.ndarray  # (3,) int64: games won by the first mover, won by A, drawn
    hat: np.ndarray  # (2 * (cells + width),) int64: A's hats then B's, each with the end row
    total: np.ndarray  # the same shape: each hat's total, at its first cell
    cells: np.ndarray  # (rows + 1,) int64: the balls drawn in a game, in move order
    firsts: np.ndarray  # (rows + 1,) int64: the first cell of each one's hat

    @classmethod
    def new(cls, rng_state: int, game: CompiledGame) -> RunState:
        rows = game.n_moves.shape[0]
        size = 2 * game.following.shape[0]
        return cls(np.array([rng_state], dtype=np.uint64), np.zeros(3, dtype=np.int64), np.zeros(size, dtype=np.int64),
                   np.zeros(size, dtype=np.int64), np.zeros(rows + 1, dtype=np.int64), np.zeros(rows + 1, dtype=np.int64))


class CompiledRule(NamedTuple):
    """A `HatRule` as the kernel takes it (`trainer.compile_rule` builds it)."""

    changes: np.ndarray  # (3,) int64: what a loss, a draw and a win give each ball drawn
    floor_code: int  # 0 'each', 1 'nonempty'


#: The hat rule, compiled from `learn.hats` (the one place it is written).
reinforce_one = njit(nogil=True, cache=True, inline="always")(hats.reinforced_count)

_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_U = np.uint64  # an index numba knows is not negative: no wrap-around test on each load


@njit(nogil=True, cache=True, inline="always")
def _step(x):
    """The next xorshift64 state (the xorshift64* output is `x * _MULTIPLIER`): `XorShift64Star.next_u64`."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x


@njit(nogil=True, cache=True, inline="always")
def _below(x, n):
    """`XorShift64Star.randrange(n)` from the state `x` just stepped."""
    return np.int64(((x * _MULTIPLIER) >> np.uint64(11)) % np.uint64(n))

# -- a draw that steps an array's random state in place (the lab's and MENACE's kernels) -----------------

@njit(nogil=True, cache=True, inline="always")
def below_in_place(rng_state, n):
    """A number in 0..n-1 from the stream in rng_state[0] (`XorShift64Star.randrange`), stepping it in place."""
    x = _step(rng_state[0])
    rng_state[0] = x
    return _below(x, n)


@njit(nogil=True, cache=True, inline="always")
def draw_column(counts, row, legal, rng_state):
    """A ball from hat `row` (its first `legal` columns), each as likely as its count: `Hats.draw`."""
    total = np.int64(0)
    for j in range(legal):
        total += counts[row, j]
    r = below_in_place(rng_state, total)
    for j in range(legal):
        c = counts[row, j]
        if r < c:
            return j
        r -= c
    return 0  # unreachable: r < total



@njit(nogil=True, cache=True)
def play_games(counts_a, counts_b, game, rule_a, rule_b, n_games, game_index, state):
    """Play `n_games` games between brain A and brain B, both learning; return how many were played.

    `game` is a `CompiledGame`; `rule_a` and `rule_b` (`CompiledRule`s) are the rules A and B each
    learn by (each brain its own); `state` is the run's `RunState`. Game g (counting from
    `game_index`) has A moving first when g is even. stats[0] += games won by the first mover,
    stats[1] += games won by A, stats[2] += games drawn.
    """
    n_moves, _, _, starts, following, result = game
    rng_state, stats, hat, total, cells, firsts = state
    changes_a, floor_a = rule_a
    changes_b, floor_b = rule_b
    rows, width = counts_a.shape
    end = rows * width  # the end row every ending move leads to
    region = end + width  # one brain's hats in `hat`, its end row included
    # the batch's working copy: A's hats at offset 0, B's at `region`; each hat's total at its first cell
    for i in range(rows):
        base = i * width
        total[base] = 0
        total[region + base] = 0
        for j in range(n_moves[i]):
            hat[base + j] = counts_a[i, j]
            hat[region + base + j] = counts_b[i, j]
            total[base] += counts_a[i, j]
            total[region + base] += counts_b[i, j]
    n_starts = starts.shape[0]
    x = rng_state[0]
    for g in range(n_games):
        a_first = (game_index + g) % 2 == 0
        if n_starts == 1:
            base = starts[0] * width
        else:
            x = _step(x)
            base = starts[_below(x, n_starts)] * width
        off = 0 if a_first else region  # the mover's hats
        n = 0
        while True:
            first = off + base
            x = _step(x)
            r = _below(x, total[_U(first)])
            cell = first
            while True:  # the ball drawn: each as likely as its count (Hats.draw)
                r -= hat[_U(cell)]
                if r < 0:
                    break
                cell += 1
            cells[_U(n)] = cell
            firsts[_U(n)] = first
            n += 1
            base = following[_U(cell - off)]
            if base == end:
                break
            off = region - off
        mover = np.int64(result[_U(cell - off)])  # the outcome for whoever moved last
        first_mover = mover if n % 2 == 1 else -mover
        a_outcome = first_mover if a_first else -first_mover
        # A's balls, then B's, each in the order drawn, as the reference learner does
        for i in range(0 if a_first else 1, n, 2):
            _learn(hat, total, cells[i], firsts[i], changes_a[a_outcome + 1], floor_a)
        for i in range(1 if a_first else 0, n, 2):
            _learn(hat, total, cells[i], firsts[i], changes_b[1 - a_outcome], floor_b)
        if first_mover > 0:
            stats[0] += 1
        if a_outcome > 0:
            stats[1] += 1
        elif a_outcome == 0:
            stats[2] += 1
    rng_state[0] = x
    for i in range(rows):
        base = i * width
        for j in range(n_moves[i]):
            counts_a[i, j] = hat[base + j]
            counts_b[i, j] = hat[region + base + j]
    return n_games


@njit(nogil=True, cache=True, inline="always")
def _learn(hat, total, cell, first, change, floor_code):
    """The hat rule for one ball drawn (cell `cell` of `hat`, whose hat starts at `first`), keeping
    the hat's total."""
    before = hat[_U(cell)]
    others = total[_U(first)] - before  # the hat's other balls: the 'nonempty' floor reads them
    after = reinforce_one(before, others, change, floor_code)
    hat[_U(cell)] = after
    total[_U(first)] += after - before


def warm_up() -> None:
    """Compile (or load from the cache) with a tiny run, so the first real batch starts at once."""
    game = lay_out(np.ones(1, dtype=np.int64), np.full((1, 1), -1, dtype=np.int64), np.ones((1, 1), dtype=np.int8),
                   np.zeros(1, dtype=np.int64))
    rule = CompiledRule(np.array([-1, 0, 1], dtype=np.int64), 0)
    counts = np.ones((1, 1), dtype=np.int64)
    play_games(counts, counts.copy(), game, rule, rule, 1, 0, RunState.new(1, game))
