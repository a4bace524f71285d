"""The fast training loop: AI vs AI on the counts arrays, compiled by numba, releasing the GIL.

It applies the hat rule of `learn.hats` (`reinforced_count`, compiled here, not rewritten) and
draws as `Hats.draw` does, consuming the same xorshift64*
stream as `learn.rng.XorShift64Star`, so for the same seed it leaves the same counts as the
readable reference trainer (tests hold it to that). Importing this module compiles nothing;
the first call compiles (or loads the on-disk cache).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sticks_tui.learn import hats

#: The hat rule and the hat's other balls, compiled from `learn.hats` (the one place they are written).
reinforce_one = njit(nogil=True, cache=True, inline="always")(hats.reinforced_count)
other_balls = njit(nogil=True, cache=True, inline="always")(hats.other_balls)

PROTOCOL_CLASSIC = 0  # every game from the full heap (the seeds)
PROTOCOL_EXPLORE = 1  # every game from a random heap in 2..N


@njit(nogil=True, cache=True, inline="always")
def _next(rng_state):
    x = rng_state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng_state[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@njit(nogil=True, cache=True, inline="always")
def _below(rng_state, n):
    return np.int64((_next(rng_state) >> np.uint64(11)) % np.uint64(n))


@njit(nogil=True, cache=True, inline="always")
def reinforce_ball(counts, h, b, legal, won, reward, penalty, floor_code):
    """Apply the hat rule to one drawn ball (hat row h, column b, `legal` balls in that hat), in place.

    Shared by this kernel and `general_kernel`. The other balls are only counted when the rule reads
    them (a loss under the 'nonempty' floor), so the default rule costs nothing extra.
    """
    others = np.int64(0)
    if floor_code == 1 and not won:
        others = other_balls(counts, h, b, legal)
    counts[h, b] = reinforce_one(counts[h, b], others, won, reward, penalty, floor_code)


@njit(nogil=True, cache=True, inline="always")
def draw_column(counts, row, legal, rng_state):
    """A ball from hat `row` (its first `legal` columns), each as likely as its count: `Hats.draw`."""
    total = np.int64(0)
    for j in range(legal):
        total += counts[row, j]
    r = _below(rng_state, total)
    for j in range(legal):
        c = counts[row, j]
        if r < c:
            return j
        r -= c
    return 0  # unreachable: r < total


@njit(nogil=True, cache=True, inline="always")
def set_beside(rows, cols, n, row, col):
    """Set a drawn ball beside the hats (the n-th of this game); return the new count."""
    rows[n] = row
    cols[n] = col
    return n + 1


@njit(nogil=True, cache=True, inline="always")
def tally(stats, a_won, a_first):
    """stats[0] counts games won by the first mover, stats[1] games won by brain A."""
    if a_won == a_first:
        stats[0] += 1
    if a_won:
        stats[1] += 1


@njit(nogil=True, cache=True)
def _reinforce(counts, hats, balls, count, won, reward, penalty, floor_code, max_take):
    for i in range(count):
        h = hats[i]
        legal = max_take if h > max_take else h
        reinforce_ball(counts, h, balls[i] - 1, legal, won, reward, penalty, floor_code)


@njit(nogil=True, cache=True)
def play_games(counts_a, counts_b, n_games, start_heap, protocol, max_take, reward, penalty,
               floor_code, rng_state, game_index, stats):
    """Play `n_games` games between brain A and brain B, both learning; return how many were played.

    Game number g (counting from `game_index`) has A moving first when g is even.
    stats[0] += games won by the first mover, stats[1] += games won by A.
    """
    hats_a = np.empty(start_heap + 1, dtype=np.int64)
    balls_a = np.empty(start_heap + 1, dtype=np.int64)
    hats_b = np.empty(start_heap + 1, dtype=np.int64)
    balls_b = np.empty(start_heap + 1, dtype=np.int64)
    for g in range(n_games):
        a_first = (game_index + g) % 2 == 0
        if protocol == PROTOCOL_EXPLORE and start_heap > 2:
            heap = 2 + _below(rng_state, start_heap - 1)
        else:
            heap = start_heap
        na = 0
        nb = 0
        a_to_move = a_first
        while True:
            legal = max_take if heap > max_take else heap
            counts = counts_a if a_to_move else counts_b
            ball = draw_column(counts, heap, legal, rng_state) + 1
            if a_to_move:
                na = set_beside(hats_a, balls_a, na, heap, ball)
            else:
                nb = set_beside(hats_b, balls_b, nb, heap, ball)
            heap -= ball
            if heap == 0:
                break
            a_to_move = not a_to_move
        # whoever moved last took the last stick and lost
        a_won = not a_to_move
        _reinforce(counts_a, hats_a, balls_a, na, a_won, reward, penalty, floor_code, max_take)
        _reinforce(counts_b, hats_b, balls_b, nb, not a_won, reward, penalty, floor_code, max_take)
        tally(stats, a_won, a_first)
    return n_games


def warm_up() -> None:
    """Compile (or load from the cache) with a tiny run, so the first real batch starts at once."""
    counts = np.ones((4, 3), dtype=np.int64)
    play_games(counts, counts.copy(), 1, 3, 0, 3, 1, 1, 0, np.array([1], dtype=np.uint64), 0,
               np.zeros(2, dtype=np.int64))
