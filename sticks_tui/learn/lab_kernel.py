"""The learning lab's compiled games (issue 20): the hats, Q-learning and Monte-Carlo control on the
same tables of any game of the protocol, with the learner's mastery tracked after every game.

The game arrives as arrays (`learn.lab.LabGame`): for row i and move column j, `next_row[i, j]` (-1
when the move ends the game) and `outcome[i, j]`, +1/0/-1 for the mover where the game ends. Learner
A is the one measured; it plays against B, a second learner of the same kind that learns too
(`opponent` SELF, as the trainer does), or a fixed player (RANDOM: any legal move; PERFECT: a move
that keeps the position's exact value, chosen at random among them). A moves first in even games.

Every random number comes from the xorshift64* stream of `learn.rng`, stepped by `learn.kernel._step`
and read by `learn.kernel._below` (the trainer's loop's own), and the hats change by
`learn.kernel.reinforce_one` (the hat rule of `learn.hats`, not rewritten, with a change per outcome as
`HatRule.changes` gives it): so the hats here, in self-play, leave the same counts as the trainer's
kernel for the same seed, game for game (a test holds them to it).

Mastery (`ok`, `bad`, `mastery`): a row is *right* when every move tied at the top of the learner's
preference (its hat's counts, or its action values) is a right move there (`good`: a winning move
where the mover can force a win, a move that keeps the draw where it can hold one). After each game
only the rows A changed are looked at again, so tracking costs a few operations a move.
`bad[s]` counts the rows checked for seat s (0: A moves first, 1: second, 2: either) that are not
right; `mastery[s]` is the first game after which `bad[s]` was 0 (-1: not yet).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sticks_tui.learn import hats, kernel

SELF, RANDOM, PERFECT = 0, 1, 2
_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
#: A hat's other balls, compiled from `learn.hats` (the 'nonempty' floor reads them).
other_balls = njit(nogil=True, cache=True, inline="always")(hats.other_balls)


@njit(nogil=True, cache=True, inline="always")
def _next(rng_state):
    """The stream's next xorshift64* output (`XorShift64Star.next_u64`), stepping the state in place."""
    x = kernel._step(rng_state[0])
    rng_state[0] = x
    return x * _MULTIPLIER


_below = kernel.below_in_place
draw_column = kernel.draw_column


@njit(nogil=True, cache=True, inline="always")
def reinforce_ball(counts, h, b, legal, change, floor_code):
    """The hat rule (`learn.kernel.reinforce_one`) on one drawn ball (hat row h, column b, `legal`
    balls in that hat), in place; the other balls are only counted when the rule reads them (balls
    taken out under the 'nonempty' floor)."""
    others = np.int64(0)
    if floor_code == 1 and change < 0:
        others = other_balls(counts, h, b, legal)
    counts[h, b] = kernel.reinforce_one(counts[h, b], others, change, floor_code)
#: Policies for `evaluate`: draw in proportion to the preference (the hats), or greedy (ties at random).
PROPORTIONAL, GREEDY = 0, 1


@njit(nogil=True, cache=True, inline="always")
def fixed_move(opponent, perfect, row, legal, rng_state):
    """The fixed player's column: RANDOM any legal move, PERFECT one of the value-keeping moves; no
    draw from the stream when there is only one choice."""
    if opponent == RANDOM:
        if legal == 1:
            return 0
        return _below(rng_state, legal)
    k = 0
    for j in range(legal):
        if perfect[row, j]:
            k += 1
    pick = 0 if k == 1 else _below(rng_state, k)
    for j in range(legal):
        if perfect[row, j]:
            if pick == 0:
                return j
            pick -= 1
    return 0  # unreachable: every position has a value-keeping move


@njit(nogil=True, cache=True, inline="always")
def greedy_column(values, row, legal, rng_state):
    """The column with the highest value; ties broken at random (no draw when there is no tie).
    One pass finds the top and how many share it; a second, only on a tie, finds the one drawn."""
    top = values[row, 0]
    first = 0
    k = 1
    for j in range(1, legal):
        v = values[row, j]
        if v > top:
            top = v
            first = j
            k = 1
        elif v == top:
            k += 1
    if k == 1:
        return first
    pick = _below(rng_state, k)
    for j in range(first, legal):
        if values[row, j] == top:
            if pick == 0:
                return j
            pick -= 1
    return first


@njit(nogil=True, cache=True, inline="always")
def explore_column(values, row, legal, threshold, rng_state):
    """Epsilon-greedy: any legal move when the stream's next 53 bits fall below `threshold`
    (`explore_threshold(epsilon)`: the same test as `XorShift64Star.random() < epsilon`, on whole
    numbers), else the greedy one."""
    if (_next(rng_state) >> np.uint64(11)) < threshold:
        return _below(rng_state, legal)
    return greedy_column(values, row, legal, rng_state)


def explore_threshold(epsilon: float) -> np.uint64:
    """The whole number T with k / 2**53 < epsilon exactly when k < T, for every 53-bit k."""
    import math

    return np.uint64(math.ceil(epsilon * 9007199254740992.0))


@njit(nogil=True, cache=True, inline="always")
def row_right(pref, row, legal, good):
    """Every move tied at the top of `pref` at `row` is a right move."""
    top = pref[row, 0]
    for j in range(1, legal):
        if pref[row, j] > top:
            top = pref[row, j]
    for j in range(legal):
        if pref[row, j] == top and not good[row, j]:
            return False
    return True


@njit(nogil=True, cache=True)
def recheck(pref, rows, count, n_moves, good, checked, seat_mask, ok, bad):
    """Look again at the rows A changed in a game, keeping `ok` and the `bad` counts true."""
    for i in range(count):
        r = rows[i]
        if not checked[r]:
            continue
        now = row_right(pref, r, n_moves[r], good)
        if now != ok[r]:
            ok[r] = now
            step = -1 if now else 1
            for s in range(2):
                if seat_mask[r, s]:
                    bad[s] += step
            if seat_mask[r, 0] or seat_mask[r, 1]:
                bad[2] += step


@njit(nogil=True, cache=True)
def check_all(pref, n_moves, good, checked, seat_mask, ok, bad):
    """Set `ok` and `bad` from scratch (before the first game)."""
    bad[:] = 0
    for r in range(pref.shape[0]):
        ok[r] = True
        if not checked[r]:
            continue
        ok[r] = row_right(pref, r, n_moves[r], good)
        if not ok[r]:
            for s in range(2):
                if seat_mask[r, s]:
                    bad[s] += 1
            if seat_mask[r, 0] or seat_mask[r, 1]:
                bad[2] += 1


@njit(nogil=True, cache=True, inline="always")
def note_mastery(bad, mastery, games):
    for s in range(3):
        if bad[s] == 0 and mastery[s] < 0:
            mastery[s] = games


@njit(nogil=True, cache=True, inline="always")
def start_row(starts, rng_state):
    if starts.shape[0] == 1:
        return starts[0]
    return starts[_below(rng_state, starts.shape[0])]


@njit(nogil=True, cache=True)
def hats_learn(counts, n_moves, rows, cols, count, result, reward, penalty, draw, floor_code):
    """The hat rule on every ball drawn in a game, with the change its result gives each ball (as
    `HatRule.changes`): a win adds `reward`, a loss takes out `penalty` (to the floor), a draw adds
    `draw` balls (a negative `draw` takes them out as a loss does)."""
    if result > 0:
        change = reward
    elif result < 0:
        change = -penalty
    else:
        change = draw
    for i in range(count):
        h = rows[i]
        reinforce_ball(counts, h, cols[i], n_moves[h], change, floor_code)


@njit(nogil=True, cache=True)
def play_hats(counts_a, counts_b, opponent, reward, penalty, draw, floor_code,
              n_moves, next_row, outcome, starts, perfect, good, checked, seat_mask,
              ok, bad, mastery, rng_state, game_index, n_games, stats):
    """`n_games` games of hats learner A (counts_a) against B (SELF: counts_b, learning too) or a
    fixed player. stats[0..2] += A's wins, draws, losses. Returns the games played."""
    max_length = n_moves.shape[0] + 1
    rows_a = np.empty(max_length, dtype=np.int64)
    cols_a = np.empty(max_length, dtype=np.int64)
    rows_b = np.empty(max_length, dtype=np.int64)
    cols_b = np.empty(max_length, dtype=np.int64)
    for g in range(n_games):
        a_to_move = (game_index + g) % 2 == 0
        row = start_row(starts, rng_state)
        na = 0
        nb = 0
        a_result = 0
        while True:
            legal = n_moves[row]
            if a_to_move:
                col = draw_column(counts_a, row, legal, rng_state)
                rows_a[na] = row
                cols_a[na] = col
                na += 1
            elif opponent == SELF:
                col = draw_column(counts_b, row, legal, rng_state)
                rows_b[nb] = row
                cols_b[nb] = col
                nb += 1
            else:
                col = fixed_move(opponent, perfect, row, legal, rng_state)
            nxt = next_row[row, col]
            if nxt < 0:
                a_result = outcome[row, col] if a_to_move else -outcome[row, col]
                break
            row = nxt
            a_to_move = not a_to_move
        hats_learn(counts_a, n_moves, rows_a, cols_a, na, a_result, reward, penalty, draw, floor_code)
        if opponent == SELF:
            hats_learn(counts_b, n_moves, rows_b, cols_b, nb, -a_result, reward, penalty, draw, floor_code)
        stats[1 - a_result] += 1
        recheck(counts_a, rows_a, na, n_moves, good, checked, seat_mask, ok, bad)
        note_mastery(bad, mastery, game_index + g + 1)
    return n_games


@njit(nogil=True, cache=True, inline="always")
def _max_value(values, row, legal):
    top = values[row, 0]
    for j in range(1, legal):
        if values[row, j] > top:
            top = values[row, j]
    return top


@njit(nogil=True, cache=True)
def play_values(q_a, q_b, n_a, n_b, method, alpha, explore, opponent,
                n_moves, next_row, outcome, starts, perfect, good, checked, seat_mask,
                ok, bad, mastery, rng_state, game_index, n_games, stats):
    """`n_games` games of an action-value learner A (q_a) against B (SELF: q_b, learning too) or a
    fixed player; both choose epsilon-greedily (`explore`: `explore_threshold(epsilon)`). The result
    is +1 a win, 0 a draw, -1 a loss, at the end only (no discount).

    method 0, Q-learning: each of a learner's moves is moved `alpha` of the way towards the best
    value at its next turn (the result, after its last move).
    method 1, Monte-Carlo control: after the game every move played is moved towards the result,
    by `alpha` (or, alpha 0, by 1/visits: the average of every result that followed it; n_a, n_b
    count the visits)."""
    max_length = n_moves.shape[0] + 1
    rows_a = np.empty(max_length, dtype=np.int64)
    cols_a = np.empty(max_length, dtype=np.int64)
    rows_b = np.empty(max_length, dtype=np.int64)
    cols_b = np.empty(max_length, dtype=np.int64)
    for g in range(n_games):
        a_to_move = (game_index + g) % 2 == 0
        row = start_row(starts, rng_state)
        na = 0
        nb = 0
        a_result = 0
        while True:
            legal = n_moves[row]
            if a_to_move:
                if method == 0 and na > 0:
                    p, c = rows_a[na - 1], cols_a[na - 1]
                    q_a[p, c] += alpha * (_max_value(q_a, row, legal) - q_a[p, c])
                col = explore_column(q_a, row, legal, explore, rng_state)
                rows_a[na] = row
                cols_a[na] = col
                na += 1
            elif opponent == SELF:
                if method == 0 and nb > 0:
                    p, c = rows_b[nb - 1], cols_b[nb - 1]
                    q_b[p, c] += alpha * (_max_value(q_b, row, legal) - q_b[p, c])
                col = explore_column(q_b, row, legal, explore, rng_state)
                rows_b[nb] = row
                cols_b[nb] = col
                nb += 1
            else:
                col = fixed_move(opponent, perfect, row, legal, rng_state)
            nxt = next_row[row, col]
            if nxt < 0:
                a_result = outcome[row, col] if a_to_move else -outcome[row, col]
                break
            row = nxt
            a_to_move = not a_to_move
        _learn_values(q_a, n_a, rows_a, cols_a, na, method, alpha, a_result)
        if opponent == SELF:
            _learn_values(q_b, n_b, rows_b, cols_b, nb, method, alpha, -a_result)
        stats[1 - a_result] += 1
        recheck(q_a, rows_a, na, n_moves, good, checked, seat_mask, ok, bad)
        note_mastery(bad, mastery, game_index + g + 1)
    return n_games


@njit(nogil=True, cache=True, inline="always")
def _learn_values(q, visits, rows, cols, count, method, alpha, result):
    if count == 0:
        return
    if method == 0:
        p, c = rows[count - 1], cols[count - 1]
        q[p, c] += alpha * (result - q[p, c])
        return
    for i in range(count):
        p, c = rows[i], cols[i]
        visits[p, c] += 1
        step = alpha if alpha > 0 else 1.0 / visits[p, c]
        q[p, c] += step * (result - q[p, c])


@njit(nogil=True, cache=True)
def evaluate(pref, policy, n_moves, next_row, outcome, perfect, good, checked, order, start):
    """Exact figures of a learner's policy (PROPORTIONAL to `pref`, or GREEDY with ties shared):
    (share of checked rows that are right, chance to beat the perfect player moving first, second,
    chance not to lose to it moving first, second). The perfect player keeps each position's value and,
    among such moves, takes the one worst for the learner (separately for beating and not losing).
    `order` lists the rows with every row's successors before it."""
    rows = n_moves.shape[0]
    win_l = np.zeros(rows)  # learner to move: chance the learner wins
    win_o = np.zeros(rows)  # perfect player to move
    keep_l = np.zeros(rows)  # ... chance the learner does not lose
    keep_o = np.zeros(rows)
    prob = np.zeros(pref.shape[1])
    for r in order:
        legal = n_moves[r]
        top = pref[r, 0]
        for j in range(1, legal):
            if pref[r, j] > top:
                top = pref[r, j]
        total = 0.0
        for j in range(legal):
            if policy == PROPORTIONAL:
                prob[j] = pref[r, j] if pref[r, j] > 0 else 0.0
            else:
                prob[j] = 1.0 if pref[r, j] == top else 0.0
            total += prob[j]
        w = 0.0
        k = 0.0
        worst_w = 2.0
        worst_k = 2.0
        for j in range(legal):
            p = prob[j] / total if total > 0 else 1.0 / legal
            nxt = next_row[r, j]
            if nxt < 0:
                out = outcome[r, j]
                w += p * (1.0 if out > 0 else 0.0)
                k += p * (1.0 if out >= 0 else 0.0)
                if perfect[r, j]:
                    worst_w = min(worst_w, 1.0 if out < 0 else 0.0)
                    worst_k = min(worst_k, 1.0 if out <= 0 else 0.0)
            else:
                w += p * win_o[nxt]
                k += p * keep_o[nxt]
                if perfect[r, j]:
                    worst_w = min(worst_w, win_l[nxt])
                    worst_k = min(worst_k, keep_l[nxt])
        win_l[r] = w
        keep_l[r] = k
        win_o[r] = worst_w
        keep_o[r] = worst_k
    right = 0
    total_checked = 0
    for r in range(rows):
        if checked[r]:
            total_checked += 1
            if row_right(pref, r, n_moves[r], good):
                right += 1
    agreement = right / total_checked if total_checked > 0 else 1.0
    return agreement, win_l[start], win_o[start], keep_l[start], keep_o[start]


def warm_up() -> None:
    """Compile (or load from the cache) every kernel here with a tiny game: one row, one move that wins."""
    one = np.ones((1, 1), dtype=np.int64)
    n_moves = np.ones(1, dtype=np.int64)
    next_row = np.full((1, 1), -1, dtype=np.int64)
    outcome = np.ones((1, 1), dtype=np.int8)
    starts = np.zeros(1, dtype=np.int64)
    mask = np.ones((1, 1), dtype=np.bool_)
    checked = np.ones(1, dtype=np.bool_)
    seats = np.ones((1, 2), dtype=np.bool_)
    ok = np.zeros(1, dtype=np.bool_)
    bad = np.zeros(3, dtype=np.int64)
    mastery = np.full(3, -1, dtype=np.int64)
    rng = np.array([1], dtype=np.uint64)
    stats = np.zeros(3, dtype=np.int64)
    play_hats(one, one.copy(), SELF, 1, 1, 0, 0, n_moves, next_row, outcome, starts, mask, mask, checked, seats,
              ok, bad, mastery, rng, 0, 1, stats)
    q = np.zeros((1, 1))
    play_values(q, q.copy(), one, one.copy(), 0, 0.5, explore_threshold(0.1), SELF, n_moves, next_row, outcome,
                starts, mask, mask,
                checked, seats, ok, bad, mastery, rng, 0, 1, stats)
    check_all(q, n_moves, mask, checked, seats, ok, bad)
    check_all(one, n_moves, mask, checked, seats, ok, bad)
    evaluate(q, GREEDY, n_moves, next_row, outcome, mask, mask, checked, np.zeros(1, dtype=np.int64), 0)
