"""MENACE's training compiled by numba, releasing the GIL: the readable learner of `learn.menace`
on the arrays of `menace.tables`.

It draws from the same xorshift64* stream as `learn.rng` (`learn.kernel`'s helpers), in the same
order, and applies the same bead rule (`menace.bead_count`, compiled here, not rewritten), so for the
same seed it leaves the same counts as the readable learner (a test holds it to that).
"""

from __future__ import annotations

import importlib
import sys
import time

import numpy as np
from numba import njit

from sticks_tui.learn import menace
from sticks_tui.learn.batches import checkpoints
from sticks_tui.learn import kernel

bead_count = njit(nogil=True, cache=True, inline="always")(menace.bead_count)


_below = kernel.below_in_place
draw_column = kernel.draw_column


RANDOM, PERFECT, MENACE = 0, 1, 2
OPPONENT_CODES = {"random": RANDOM, "perfect": PERFECT, "menace": MENACE}


@njit(nogil=True, cache=True, inline="always")
def _menace_move(counts, start, row, refill, rng_state):
    """The column of the bead drawn from box `row`; -1 when the box is empty and MENACE resigns."""
    total = np.int64(0)
    for c in range(9):
        total += counts[row, c]
    if total == 0:
        if not refill:
            return -1
        for c in range(9):
            counts[row, c] = start[row, c]
    return draw_column(counts, row, 9, rng_state)


@njit(nogil=True, cache=True, inline="always")
def _reinforce(counts, rows, cols, n, delta):
    for k in range(n):
        counts[rows[k], cols[k]] = bead_count(counts[rows[k], cols[k]], delta)


@njit(nogil=True, cache=True)
def play_games(counts_x, counts_o, next_pos, state, x_row, x_perm, o_row, o_perm, best, n_best, empty,
               n_empty, x_start, o_start, opponent, n_games, incentives, refill, rng_state, stats):
    """Play `n_games` games, MENACE (counts_x) as X against the random (0), perfect (1) or MENACE (2,
    counts_o) player; stats[0..2] += X's wins, draws, losses. Returns the result of the last game."""
    rows_x = np.empty(5, dtype=np.int64)
    cols_x = np.empty(5, dtype=np.int64)
    rows_o = np.empty(5, dtype=np.int64)
    cols_o = np.empty(5, dtype=np.int64)
    result = 0
    for g in range(n_games):
        pos = 0
        nx = 0
        no = 0
        x_turn = True
        while True:
            square = -1
            if x_turn:
                row = x_row[pos]
                if row < 0:  # forced: the one empty square
                    square = empty[pos, 0]
                else:
                    col = _menace_move(counts_x, x_start, row, refill, rng_state)
                    if col < 0:
                        result = -1
                        break
                    rows_x[nx] = row
                    cols_x[nx] = col
                    nx += 1
                    square = x_perm[pos, col]
            elif opponent == 2:
                row = o_row[pos]
                col = _menace_move(counts_o, o_start, row, refill, rng_state)
                if col < 0:
                    result = 1
                    break
                rows_o[no] = row
                cols_o[no] = col
                no += 1
                square = o_perm[pos, col]
            elif opponent == 1:
                k = n_best[pos]
                square = best[pos, 0] if k == 1 else best[pos, _below(rng_state, k)]
            else:
                k = n_empty[pos]
                square = empty[pos, 0] if k == 1 else empty[pos, _below(rng_state, k)]
            pos = next_pos[pos, square]
            if state[pos] == 1:
                result = 1 if x_turn else -1
                break
            if state[pos] == 2:
                result = 0
                break
            x_turn = not x_turn
        _reinforce(counts_x, rows_x, cols_x, nx, incentives[1 - result])
        if opponent == 2:
            _reinforce(counts_o, rows_o, cols_o, no, incentives[1 + result])
        stats[1 - result] += 1
    return result


@njit(nogil=True, cache=True)
def result_chances(counts_x, next_pos, state, marks, x_row, x_perm, best, n_best, x_start, opponent, refill):
    """The exact chances [win, draw, loss] of MENACE (counts_x, as X) in one game against the random
    (0) or the perfect (1) player, as `menace.result_chances` computes them."""
    n = state.shape[0]
    chance = np.zeros((n, 3), dtype=np.float64)
    for i in range(n - 1, -1, -1):  # fuller boards have higher indexes
        if state[i] != 0:
            if state[i] == 2:
                chance[i, 1] = 1.0
            elif marks[i] % 2 == 1:  # X made the last move (X has one mark more)
                chance[i, 0] = 1.0
            else:
                chance[i, 2] = 1.0
            continue
        empties = 9 - marks[i]
        if marks[i] % 2 == 1:  # O to move
            if opponent == 1:
                weight = 1.0 / n_best[i]
                for k in range(n_best[i]):
                    for r in range(3):
                        chance[i, r] += weight * chance[next_pos[i, best[i, k]], r]
            else:
                weight = 1.0 / empties
                for s in range(9):
                    if next_pos[i, s] >= 0:
                        for r in range(3):
                            chance[i, r] += weight * chance[next_pos[i, s], r]
            continue
        row = x_row[i]
        if row < 0:
            for s in range(9):
                if next_pos[i, s] >= 0:
                    for r in range(3):
                        chance[i, r] = chance[next_pos[i, s], r]
            continue
        total = 0.0
        for c in range(9):
            total += counts_x[row, c]
        use_start = False
        if total == 0.0:
            if not refill:
                chance[i, 2] = 1.0
                continue
            use_start = True
            for c in range(9):
                total += x_start[row, c]
        for c in range(9):
            beads = x_start[row, c] if use_start else counts_x[row, c]
            if beads > 0:
                weight = beads / total
                for r in range(3):
                    chance[i, r] += weight * chance[next_pos[i, x_perm[i, c]], r]
    return chance[0].copy()


def _arrays(t: menace.MenaceTables):
    return (t.next_pos, t.state, t.x_row, t.x_perm, t.o_row, t.o_perm, t.best, t.n_best, t.empty, t.n_empty,
            t.x_start, t.o_start)


def chances(t: menace.MenaceTables, counts_x: np.ndarray, opponent: str, refill: bool) -> tuple[float, float, float]:
    """`result_chances` (win, draw, loss) with the tables unpacked; opponent 'random' or 'perfect'."""
    found = result_chances(counts_x, t.next_pos, t.state, t.marks, t.x_row, t.x_perm, t.best, t.n_best,
                           t.x_start, OPPONENT_CODES[opponent], refill)
    return float(found[0]), float(found[1]), float(found[2])


def chance_of_loss(t: menace.MenaceTables, counts_x: np.ndarray, opponent: str, refill: bool) -> float:
    return chances(t, counts_x, opponent, refill)[2]


def play(t: menace.MenaceTables, counts_x, counts_o, opponent: str, games: int, rule: menace.MenaceRule,
         rng_state: np.ndarray, stats: np.ndarray) -> int:
    """`games` games on the tables (counts and the generator's state change in place)."""
    return int(play_games(counts_x, counts_o, *_arrays(t), OPPONENT_CODES[opponent], games,
                          np.array(rule.incentives, dtype=np.int64), rule.empty == "refill", rng_state, stats))


def new_rng_state(seed: int) -> np.ndarray:
    """The kernel's generator state for `seed`: the same start as `learn.rng.XorShift64Star(seed)`."""
    from sticks_tui.learn.rng import XorShift64Star

    return np.array([XorShift64Star(seed).state], dtype=np.uint64)


def train(config: menace.MenaceConfig, engine: str = "kernel") -> menace.MenaceRun:
    """Train MENACE: compiled, unless `engine` is 'reference' or the kernel cannot load (then the
    readable learner plays, and the run says why in `notice`)."""
    if engine == "reference":
        return menace.train_reference(config)
    notice = load()
    if notice is not None:
        run = menace.train_reference(config)
        run.notice = notice
        return run
    return train_compiled(config)


def train_compiled(config: menace.MenaceConfig) -> menace.MenaceRun:
    """The same run as `menace.train_reference`, compiled (the curve's chances included)."""
    t = menace.tables(config.rule)
    brain, o_brain = menace.new_brains(config)
    counts_o = o_brain.counts if o_brain is not None else np.zeros((1, 9), dtype=np.int64)
    rng_state = new_rng_state(config.seed)
    stats = np.zeros(3, dtype=np.int64)  # X's wins, draws, losses
    refill = config.rule.empty == "refill"
    curve = []
    done = 0
    began = time.perf_counter()
    for mark in (checkpoints(config.games) if config.curve else [config.games]):
        play(t, brain.counts, counts_o, config.opponent, mark - done, config.rule, rng_state, stats)
        done = mark
        if config.curve:
            curve.append(menace.CurvePoint(mark, int(stats[0]), int(stats[1]), int(stats[2]),
                                           1.0 - chance_of_loss(t, brain.counts, "perfect", refill)))
    seconds = time.perf_counter() - began
    results = {"win": int(stats[0]), "draw": int(stats[1]), "loss": int(stats[2])}
    return menace.MenaceRun(config, brain, results, curve, seconds, "kernel", o_brain=o_brain)


def warm_up() -> None:
    """Compile (or load from the cache) with a tiny run, so the first real run starts at once."""
    rule = menace.MenaceRule()
    t = menace.tables(rule)
    counts_x, counts_o = t.x_start.copy(), t.o_start.copy()
    play(t, counts_x, counts_o, "menace", 1, rule, new_rng_state(0), np.zeros(3, dtype=np.int64))
    chance_of_loss(t, counts_x, "perfect", False)


_loaded = False


def load() -> str | None:
    """Make the kernel ready; None when it is, else in words why not (a damaged numba cache is
    cleared and compiled once more first, as `learn.compiled.load` does for the other kernels)."""
    global _loaded
    if _loaded:
        return None
    from sticks_tui.learn import compiled

    if not compiled._ready:  # before numba has read any index in this process
        compiled.clear_stale()
    try:
        warm_up()
    except Exception:  # noqa: BLE001 - any damage in numba's cache shows up as some exception here
        compiled.clear_cache(__name__)
        try:
            fresh = importlib.reload(sys.modules[__name__])
            fresh.warm_up()
        except Exception as exc:  # noqa: BLE001
            return (f"The compiled trainer could not be loaded ({type(exc).__name__}: {exc}); "
                    f"trained with the slower reference learner instead.")
    _loaded = True
    return None
