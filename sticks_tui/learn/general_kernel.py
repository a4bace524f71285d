"""The fast self-play loop for any game of the protocol (`engine.protocol`), compiled by numba.

The game arrives as arrays (`trainer.compile_game`): for hat row i and ball j, the next row, or -1
when the move ends the game, and then whether the mover won. The loop draws balls exactly as
`Hats.draw` does, from the same xorshift64* stream (`learn.rng`), and applies the hat rule of
`learn.hats` (compiled in `learn.kernel`), so for the same seed it leaves the same counts as the
reference engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sticks_tui.learn.kernel import _below, draw_column, reinforce_ball, set_beside, tally


@njit(nogil=True, cache=True)
def _reinforce(counts, n_moves, rows, cols, count, won, reward, penalty, floor_code):
    for i in range(count):
        h = rows[i]
        reinforce_ball(counts, h, cols[i], n_moves[h], won, reward, penalty, floor_code)


@njit(nogil=True, cache=True)
def play_games(counts_a, counts_b, n_moves, next_row, mover_wins, starts, n_games, reward, penalty,
               floor_code, rng_state, game_index, stats, max_length):
    """Play `n_games` games between brain A and brain B, both learning; return how many were played.

    Game g (counting from `game_index`) has A moving first when g is even.
    stats[0] += games won by the first mover, stats[1] += games won by A.
    """
    rows_a = np.empty(max_length, dtype=np.int64)
    cols_a = np.empty(max_length, dtype=np.int64)
    rows_b = np.empty(max_length, dtype=np.int64)
    cols_b = np.empty(max_length, dtype=np.int64)
    n_starts = starts.shape[0]
    for g in range(n_games):
        a_first = (game_index + g) % 2 == 0
        if n_starts == 1:
            row = starts[0]
        else:
            row = starts[_below(rng_state, n_starts)]
        na = 0
        nb = 0
        a_to_move = a_first
        while True:
            counts = counts_a if a_to_move else counts_b
            legal = n_moves[row]
            ball = draw_column(counts, row, legal, rng_state)
            if a_to_move:
                na = set_beside(rows_a, cols_a, na, row, ball)
            else:
                nb = set_beside(rows_b, cols_b, nb, row, ball)
            nxt = next_row[row, ball]
            if nxt < 0:
                a_won = a_to_move == mover_wins[row, ball]
                break
            row = nxt
            a_to_move = not a_to_move
        _reinforce(counts_a, n_moves, rows_a, cols_a, na, a_won, reward, penalty, floor_code)
        _reinforce(counts_b, n_moves, rows_b, cols_b, nb, not a_won, reward, penalty, floor_code)
        tally(stats, a_won, a_first)
    return n_games


def warm_up() -> None:
    """Compile (or load from the cache) with a tiny run, so the first real batch starts at once."""
    counts = np.ones((1, 1), dtype=np.int64)
    play_games(counts, counts.copy(), np.ones(1, dtype=np.int64), np.full((1, 1), -1, dtype=np.int64),
               np.ones((1, 1), dtype=np.bool_), np.zeros(1, dtype=np.int64), 1, 1, 1, 0,
               np.array([1], dtype=np.uint64), 0, np.zeros(2, dtype=np.int64), 2)
