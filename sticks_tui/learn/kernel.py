"""The compiled loops, by numba, releasing the GIL: ONE game loop for every counts learner (the trainer,
MENACE's training and the lab's hats), one for the lab's value learners (Q, Monte-Carlo), the
exact figures of a brain against a fixed player, and a learning-curve checkpoint of any game (`curve_point`).

The game arrives as a `learn.tables.Match`: each side s (0: learner A; 1: B, a second learner or a
fixed player) at position p is one index q = s * P + p; `first_of[q]` is the first cell of that
side's container in ONE flat array (A's containers, then B's), FORCED (one legal move: made without
a draw) or FIXED (the fixed player's move); `after[q * width + c]` is where column c leads (the other
side's index, or END with the outcome for the mover in `result`). The loop draws as `Hats.draw`
does, from the same xorshift64* stream as `learn.rng.XorShift64Star`, and learns by the token rule
of `learn.hats` (`reinforced_count`, compiled here, not rewritten), so for the same seed it leaves
the same counts as the readable learner (`learn.trainer.play_one_game`; tests hold it to that for
every game and rule option). Importing this module compiles nothing; `warm_up` compiles (or loads
numba's on-disk cache).

Speed: each batch copies both brains' counts into the one flat array (made once a run: `RunState`)
and keeps each container's total at its first cell, so a draw reads one number before it walks the
cells; indices are unsigned, so numba adds no negative-index wrap-around to each load. A draw multiplies
by 1 / the total (`_below_by`, kept beside it) rather than dividing: the same token, a shorter wait.

The lab's value learners keep the one other loop (`play_values`): a value learner chooses by the
greedy/epsilon rule over float values and learns at every move (Q-learning, one table by negamax)
rather than by counted tokens after the game. Kept apart for what it reads and writes, not for speed:
a trial fold of Monte-Carlo's choice and lesson into the counts loop (2026-11-28, heap 100 self-play,
7 alternating rounds) left the counts learners' speed as it was (1.009x), bit for bit the same counts.
The lab's mastery (`Watch`, `unbeatable`): after a game that changed the top moves of one of A's
containers, an exact walk over the positions A's greedy play can reach against every opponent move.
In the counts loop the lab pays for it next to nothing: as A's tokens are learnt, one load each says
whether its row may have changed its answer (`Watch.code`, `_UP`, `_DOWN`), and only then are the
game's rows looked at again (late in a run, one game in thousands); in a game not closed (noughts)
likewise one load a token (`Watch.peak`: the row's top count and its one top move) says whether it may
have changed its row's top moves (it rose to the top count and is not the one top move, or it was at
the top and fell), and only then are the game's rows read again (0.5% of the games of a 1,000,000-game
run), their top moves (`Watch.top`) and answers kept; the walk is made again only when a changed row was
reached by that seat's last walk (`Watch.reached`: when the walk's answer was no, only the rows on its
way to the wrong row), and for a seat whose first game is found, only when the other seat's first game
needs it or at the end of the batch (`settle_unbeatable`). Once every first the watch looks for is found, no game
can change one: the games are played untracked and the watch is worked out afresh after them (`refresh`). The
lab's curve reads a packed layout of only the sides its figures need (`curve_chances`). See docs/performance.md
(bench_lab_speed.py) for the lab's hats against the trainer, game by game.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sticks_tui.learn import hats
from sticks_tui.learn import tables
from sticks_tui.learn.tables import FIXED, FORCED

#: Who B is: a second learner (SELF, it learns too), the RANDOM player (any legal move), or the
#: BEST_AT_RANDOM player (one of the moves that keep the position's exact value, at random).
SELF = 0
#: B is A itself: one set of containers plays both seats and learns from both (the lab's shared hats).
SHARED = 4
RANDOM, BEST_AT_RANDOM = tables.RANDOM, tables.BEST_AT_RANDOM
PERFECT = tables.PERFECT  # the opponent of the exact figures: the perfect player worst for the learner
#: Which seat A takes: first in even games and second in odd ones (ALTERNATE), always first, or always second.
ALTERNATE, A_FIRST, A_SECOND = 0, 1, 2
PROPORTIONAL, GREEDY = tables.PROPORTIONAL, tables.GREEDY


class CompiledRule(NamedTuple):
    """A `HatRule` as the loop takes it (`compile_rule`)."""

    changes: np.ndarray  # (3,) int64: what a loss, a draw and a win give each token drawn
    floor_code: int  # 0 'each', 1 'nonempty', 2 'none'
    empty_code: int  # 0 never empty, 1 resign, 2 refill


def compile_rule(rule) -> CompiledRule:
    return CompiledRule(np.array(rule.changes, dtype=np.int64), rule.floor_code, rule.empty_code)


class RunState(NamedTuple):
    """What a run carries from batch to batch: its random stream, its tallies and the loop's working
    arrays (made once a run, so a batch allocates nothing)."""

    rng_state: np.ndarray  # (1,) uint64: the xorshift64 state
    stats: np.ndarray  # (4,) int64: A's wins, draws, losses; games won by the first mover
    hat: np.ndarray  # (cells,) int64: A's containers then B's
    total: np.ndarray  # the same shape: each container's total, at its first cell
    cells: np.ndarray  # (P + 1,) int64: the tokens drawn in a game, in move order
    firsts: np.ndarray  # (P + 1,) int64: the first cell of each one's container

    @classmethod
    def new(cls, rng_state: int, match) -> RunState:
        size = max(1, (match.rows_a + match.rows_b) * match.width)
        length = match.positions + 1
        return cls(np.array([rng_state], dtype=np.uint64), np.zeros(4, dtype=np.int64), np.zeros(size, dtype=np.int64),
                   np.zeros(size, dtype=np.int64), np.zeros(length, dtype=np.int64),
                   np.zeros(length, dtype=np.int64))


class Watch(NamedTuple):
    """The lab's mastery tracking over A's rows (`learn.lab`): `good[cell]` a right move, `checked[row]` a
    row that counts, `seat_mask[row, s]` faced from seat s; `ok`, `bad` and `mastery` kept as it plays
    (every position: the share of them right is the lab's agreement curve).

    Unbeatable (issue 35): A's greedy play (every move tied at the top of its preference) never loses
    a position it can win nor one where it can hold a draw, against ANY opponent, from every start in
    `starts`, for each seat. Checked exactly over the positions that play can reach against every
    opponent move (the fixed match's tables: `f_first`, `f_after`, `f_cols`), again only after a game
    changed the set of top moves of one of A's rows (`top`, a bit per column, sets `dirty`), and for a seat whose
    first game is found, not at once but when it is needed (the other seat's first game, `settle_unbeatable`).
    `holds[s]` is the answer now (seat 0, 1, both); `first_hold[s]` the first game after which it held.
    In a closed game (`over`) the answer is the `bad` counts, no walk."""

    good: np.ndarray  # (rows_a * width,) bool
    checked: np.ndarray  # (rows_a,) bool
    seat_mask: np.ndarray  # (rows_a, 2) bool
    ok: np.ndarray  # (rows_a,) bool
    bad: np.ndarray  # (3,) int64: rows checked and not right, for seat 0, 1 and either
    mastery: np.ndarray  # (3,) int64: the first game after which bad[s] was 0 (-1: not yet)
    f_first: np.ndarray  # (2P,) int64: the fixed match's first_of (A's cells; B: FIXED)
    f_after: np.ndarray  # (2P * width,) int64: the fixed match's after (B's columns: every legal move)
    f_cols: np.ndarray  # (2P,) int64: the fixed match's n_cols
    starts: np.ndarray  # (k,) int64: the protocol's start positions
    top: np.ndarray  # (rows_a,) int64: each row's top moves, a bit a column (-1: not known yet)
    dirty: np.ndarray  # (2,) bool: for seat 0, 1: a row its last walk reached changed its top moves since
    # (`holds[s]` is then to be worked out again: at once while its first game is not found, else when needed)
    holds: np.ndarray  # (3,) bool: unbeatable now, seat 0, 1 and both
    first_hold: np.ndarray  # (3,) int64: the first game after which it held (-1: not yet)
    stamp: np.ndarray  # (2P,) int64: the check's visited marks (a new number each check)
    stack: np.ndarray  # (2P + 1,) int64: the check's work list
    closed: np.ndarray  # (1,) bool: every position with a container is a start (explore): no walk needed
    code: np.ndarray  # (rows_a * width,) int64: 0 a cell of a row not checked; 2 a checked row's wrong move, 4 a
    # right one; plus 1 in every cell of a row whose answer (`ok`) is right
    peak: np.ndarray  # (rows_a * width,) int64: at each row's first cell, its top count << 6 | the column of its
    # one top move (63: tied); the counts loop reads it as each token is learnt, keeps it (a top count it may let lag
    # below the true one within a batch, never above) and makes it exact at the end of each batch
    reached: np.ndarray  # (rows_a,) int64: the mark of the last check that reached the row (`unbeatable`)
    marks: np.ndarray  # (2,) int64: the mark of each seat's last check (a row it reached has `reached` at least that)
    parent: np.ndarray  # (2P,) int64: the check's way back, the position each was reached from (-1: a start)

    @classmethod
    def none(cls) -> Watch:
        """Nothing watched (the trainer does not pay for it)."""
        one = np.zeros(1, dtype=np.bool_)
        i1 = np.zeros(1, dtype=np.int64)
        return cls(one, one.copy(), np.zeros((1, 2), dtype=np.bool_), one.copy(), np.zeros(3, dtype=np.int64),
                   np.full(3, -1, dtype=np.int64), i1.copy(), i1.copy(), i1.copy(), i1.copy(), i1.copy(),
                   np.zeros(2, dtype=np.bool_), np.zeros(3, dtype=np.bool_), np.full(3, -1, dtype=np.int64), i1.copy(), i1.copy(),
                   one.copy(), i1.copy(), i1.copy(), i1.copy(), np.zeros(2, dtype=np.int64), i1.copy())

    @classmethod
    def over(cls, good, checked, seat_mask, fixed_match, closed: bool = False) -> Watch:
        """A watch over A's rows, its unbeatable check over `fixed_match` (A against a fixed player).
        `closed`: every position A has a container for is a start of the protocol (sticks and Nim explore
        from every position). Then, from either seat, the positions A can face do not depend on its
        choices (each is a start, or follows a start by the opponent's move), so unbeatable from a seat
        is every one of them right: the `bad` count of that seat at 0, no walk needed."""
        rows = checked.shape[0]
        P = fixed_match.positions
        code = np.where(np.repeat(checked, good.shape[0] // max(rows, 1)), np.where(good, 4, 2), 0).astype(np.int64)
        return cls(good, checked, seat_mask, np.zeros(rows, dtype=np.bool_), np.zeros(3, dtype=np.int64),
                   np.full(3, -1, dtype=np.int64), fixed_match.first_of, fixed_match.after, fixed_match.n_cols,
                   fixed_match.starts, np.full(rows, -1, dtype=np.int64), np.ones(2, dtype=np.bool_),
                   np.zeros(3, dtype=np.bool_), np.full(3, -1, dtype=np.int64), np.zeros(2 * P, dtype=np.int64),
                   np.zeros(2 * P + 1, dtype=np.int64), np.array([closed], dtype=np.bool_), code,
                   np.zeros(good.shape[0], dtype=np.int64), np.zeros(rows, dtype=np.int64), np.zeros(2, dtype=np.int64),
                   np.full(2 * P, -1, dtype=np.int64))


#: The token rule, compiled from `learn.hats` (the one place it is written).
reinforce_one = njit(nogil=True, cache=True)(hats.reinforced_count)

#: Which tokens learnt may change their row's answer, a bit for each `Watch.code` (wrong move
#: 2, right move 4; plus 1 where the row is right): a count up of a wrong move in a right row (3) or of a
#: right move in a wrong row (4); a count down of a wrong move in a wrong row (2) or of a right move in
#: a right row (5). Any other token learnt leaves its row's answer as it was (see `play_games`).
_UP = np.int64(1 << 3 | 1 << 4)
_DOWN = np.int64(1 << 2 | 1 << 5)
_MULTIPLIER = np.uint64(0x2545F4914F6CDD1D)
_U = np.uint64  # an index numba knows is not negative: no wrap-around test on each load


@njit(nogil=True, cache=True)
def _step(x):
    """The next xorshift64 state (the xorshift64* output is `x * _MULTIPLIER`): `XorShift64Star.next_u64`."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x


@njit(nogil=True, cache=True)
def _below(x, n):
    """`XorShift64Star.randrange(n)` from the state `x` just stepped: (x * M >> 11) % n, exactly, by a float
    division corrected by one (u < 2**53 and n are exact as floats; a float division is cheaper than an
    integer one here: the trainer ~15% faster at 100 sticks)."""
    u = np.int64((x * _MULTIPLIER) >> np.uint64(11))
    m = np.int64(n)
    r = u - np.int64(np.float64(u) / np.float64(m)) * m
    if r < 0:
        r += m
    elif r >= m:
        r -= m
    return r


@njit(nogil=True, cache=True)
def _below_by(x, n, inverse):
    """`_below(x, n)`, the same number exactly, with `inverse` = 1 / n worked out before: the draw then waits
    for a multiplication, not a division (the trainer 1.09x at 100 sticks). u * (1 / n) is within two
    roundings of u / n, so its whole part is off by at most one, which the test corrects, as in `_below`
    (n = 1: 1 / n is exact). Which token is drawn, and the stream, are unchanged."""
    u = np.int64((x * _MULTIPLIER) >> np.uint64(11))
    m = np.int64(n)
    r = u - np.int64(np.float64(u) * inverse) * m
    if r < 0:
        r += m
    elif r >= m:
        r -= m
    return r


@njit(nogil=True, cache=True)
def _learn(hat, total, inverse, cell, first, change, floor_code):
    """The token rule for one token drawn (cell `cell` of `hat`, whose container starts at `first`),
    keeping the container's total and its inverse (infinite for an empty container: never drawn from)."""
    was = hat[_U(cell)]
    t = total[_U(first)]
    now = reinforce_one(was, t - was, change, floor_code)  # (names apart from the loops': LLVM inlines it)
    # (t - was: the container's other tokens, which the 'nonempty' floor reads)
    hat[_U(cell)] = now
    t += now - was
    total[_U(first)] = t
    inverse[_U(first)] = 1.0 / np.float64(t)


@njit(nogil=True, cache=True)
def _row_right(pref, first, legal, good):
    """Every column tied at the top of `pref` in the container at `first` is a right move."""
    top = pref[first]
    for j in range(1, legal):
        if pref[first + j] > top:
            top = pref[first + j]
    for j in range(legal):
        if pref[first + j] == top and not good[first + j]:
            return False
    return True


@njit(nogil=True, cache=True)
def _top_bits(pref, first, legal):
    """The columns tied at the top of `pref` in the container at `first`, a bit a column (-2: too wide)."""
    if legal > 62:
        return np.int64(-2)
    top = pref[first]
    bits = np.int64(1)
    for j in range(1, legal):
        v = pref[first + j]
        if v > top:
            top = v
            bits = np.int64(1) << j
        elif v == top:
            bits |= np.int64(1) << j
    return bits


@njit(nogil=True, cache=True)
def _lead(pref, first, legal):
    """`Watch.peak` of the container at `first`: its top count << 6 | the column of its one top move (63: several
    tied; and a container of more than 62 columns is 63, a top count of 0: every token learnt is looked at)."""
    if legal > 62:
        return np.int64(63)
    top = pref[first]
    one = np.int64(0)
    for j in range(1, legal):
        v = pref[first + j]
        if v > top:
            top = v
            one = j
        elif v == top:
            one = 63
    return np.int64(top) << 6 | one


@njit(nogil=True, cache=True)
def _count_answer(bad, seat_mask, row, now):
    """Row `row`'s answer became `now` (right or not): the counts of wrong rows by seat (0, 1) and in all (2)."""
    step = -1 if now else 1
    for s in range(2):
        if seat_mask[row, s]:
            bad[s] += step
    if seat_mask[row, 0] or seat_mask[row, 1]:
        bad[2] += step


@njit(nogil=True, cache=True)
def _set_answer(ok, code, seat_mask, bad, row, f, width, now):
    """Row `row` (its cells from `f`) is now right (`now`) or not: its answer, each cell's code bit, the counts."""
    ok[row] = now
    for j in range(width):
        code[f + j] = (code[f + j] & ~np.int64(1)) | (1 if now else 0)
    _count_answer(bad, seat_mask, row, now)


@njit(nogil=True, cache=True)
def _recheck(pref, width, row_cols, good, checked, seat_mask, ok, bad, firsts, n, off_b, shift):
    """Look again at the rows A drew from in a game (`firsts[:n]`: A's below `off_b`; B's past it are A's
    own `shift` on where B shares A's table, else skipped) after they changed, keeping `ok` and the `bad`
    counts true. One call a game: a call a row cost the lab's loop 2.5x (its arrays' reference counts)."""
    for i in range(n):
        first = firsts[i]
        if first >= off_b:
            if shift == 0:
                continue  # B's own table
            first -= shift
        row = first // width
        if not checked[row]:
            continue
        now = _row_right(pref, row * width, row_cols[row], good)
        if now != ok[row]:
            ok[row] = now
            _count_answer(bad, seat_mask, row, now)


@njit(nogil=True, cache=True)
def unbeatable(pref, width, watch, seat):
    """A's greedy play (every move tied at the top of `pref`) from every start, A moving first (seat 0)
    or second (seat 1), reaches no position it can win (or draw) where a top move is not right, whatever
    the opponent plays. Reads `ok` (kept by `_recheck` / `check_all`). Marks in `reached` the rows whose
    change of top moves may change the answer: every row it reached when it is yes; when it is no, only the
    rows on the way to the position found wrong (`parent`), with a mark of their own, so a change elsewhere
    does not ask for the walk again (the way is still taken, so the answer is still no)."""
    first_of, after, n_cols, starts, stamp, stack = (watch.f_first, watch.f_after, watch.f_cols, watch.starts,
                                                     watch.stamp, watch.stack)
    checked, ok, reached, parent = watch.checked, watch.ok, watch.reached, watch.parent
    P = first_of.shape[0] // 2
    end = 2 * P
    mark = stack[end] + 1  # the marks: a new number each check, kept in the last slot of `stack`
    stack[end] = mark
    n = 0
    for i in range(starts.shape[0]):
        q = starts[i] if seat == 0 else P + starts[i]
        if stamp[q] != mark:
            stamp[q] = mark
            parent[q] = -1
            stack[n] = q
            n += 1
    while n > 0:
        n -= 1
        q = stack[n]
        legal = n_cols[q]
        base = q * width
        if q < P:
            first = first_of[q]
            bits = np.int64(1)  # a forced move: its one column
            if first >= 0:
                row = first // width
                reached[row] = mark
                if checked[row] and not ok[row]:
                    # No, and it stays no while the rows on the way here from a start keep their top moves (and
                    # this one its answer): only they are marked as reached by this check (a mark of its own)
                    stack[end] = mark + 1
                    while q >= 0:
                        if q < P and first_of[q] >= 0:
                            reached[first_of[q] // width] = mark + 1
                        q = parent[q]
                    return False
                bits = _top_bits(pref, first, legal)
            for c in range(legal):
                if bits != -2 and not (bits >> np.int64(c)) & np.int64(1):
                    continue
                nq = after[base + c]
                if nq != end and stamp[nq] != mark:
                    stamp[nq] = mark
                    parent[nq] = q
                    stack[n] = nq
                    n += 1
        else:
            for c in range(legal):
                nq = after[base + c]
                if nq != end and stamp[nq] != mark:
                    stamp[nq] = mark
                    parent[nq] = q
                    stack[n] = nq
                    n += 1
    return True


@njit(nogil=True, cache=True)
def note_unbeatable(pref, width, row_cols, watch, games, firsts, n, off_b, shift):
    """After a game whose tokens (or choices) were at `firsts[:n]` (B's past `off_b`, A's own `shift` on
    where B shares A's table): work out `holds` again where one of A's rows changed its top moves (`dirty`),
    and note the first game it held. A closed game reads its `bad` counts instead (`Watch.over`). Kept out
    of the game loop: its writes there cost the loop three times its time (measured at heap 100).

    A seat's walk is made at once while its first game (`first_hold`) is still to be found, and, while the
    first game of both is, when the other seat's answer is not known to be no; otherwise it waits for
    `settle_unbeatable` (at the end of each batch), so `first_hold` is the same and `holds` is exact when the
    loop returns. (The walk for the seat that holds first, once found, is most of the lab's walks on noughts.)"""
    holds, first_hold, dirty = watch.holds, watch.first_hold, watch.dirty
    if watch.closed[0]:
        holds[0] = watch.bad[0] == 0
        holds[1] = watch.bad[1] == 0
        holds[2] = holds[0] and holds[1]
    else:
        top = watch.top
        for i in range(n):
            f = firsts[i]
            if f >= off_b:
                if shift == 0:
                    continue  # B's own table
                f -= shift
            row = f // width
            bits = _top_bits(pref, row * width, row_cols[row])
            if bits != top[row] or bits == -2:
                top[row] = bits
                dirty[0] = True
                dirty[1] = True
        if not (dirty[0] or dirty[1]):
            return
        for s in range(2):
            if dirty[s] and first_hold[s] < 0:
                _walk(pref, width, watch, s)
        if first_hold[2] < 0 and not (not dirty[0] and not holds[0]) and not (not dirty[1] and not holds[1]):
            for s in range(2):
                if dirty[s]:
                    _walk(pref, width, watch, s)
        if (not dirty[0] and not holds[0]) or (not dirty[1] and not holds[1]):
            holds[2] = False
        elif not dirty[0] and not dirty[1]:
            holds[2] = holds[0] and holds[1]
    for s in range(3):
        if holds[s] and first_hold[s] < 0:
            first_hold[s] = games


@njit(nogil=True, cache=True)
def _walk(pref, width, watch, seat):
    """`holds[seat]` worked out by the walk (`unbeatable`), and the walk's mark kept for the seat."""
    watch.holds[seat] = unbeatable(pref, width, watch, seat)
    watch.marks[seat] = watch.stack[watch.stack.shape[0] - 1]
    watch.dirty[seat] = False


@njit(nogil=True, cache=True)
def settle_unbeatable(pref, width, watch):
    """Work out the answers `note_unbeatable` left for later (a seat whose first game was found): `holds`
    exact again. Changes no `first_hold`: a walk is left for later only where its answer cannot give one."""
    if watch.closed[0] or not (watch.dirty[0] or watch.dirty[1]):
        return
    for s in range(2):
        if watch.dirty[s]:
            _walk(pref, width, watch, s)
    watch.holds[2] = watch.holds[0] and watch.holds[1]


@njit(nogil=True, cache=True)
def _all_found(watch):
    """Every first game the watch looks for is found: right everywhere and unbeatable, each seat and both."""
    for s in range(3):
        if watch.mastery[s] < 0 or watch.first_hold[s] < 0:
            return False
    return True


@njit(nogil=True, cache=True)
def refresh(pref, width, row_cols, watch):
    """The watch's state worked out afresh from `pref` (its answers, counts, top moves and `holds`), its firsts
    kept: after games played untracked once every first was found (`play_games`)."""
    check_all(pref, width, row_cols, watch)
    if watch.closed[0]:
        for s in range(2):
            watch.holds[s] = watch.bad[s] == 0
        watch.holds[2] = watch.holds[0] and watch.holds[1]
    else:
        settle_unbeatable(pref, width, watch)


@njit(nogil=True, cache=True)
def check_all(pref, width, row_cols, watch):
    """Set `ok` and `bad` from scratch over A's rows (before the first game)."""
    good, checked, seat_mask, ok, bad = watch.good, watch.checked, watch.seat_mask, watch.ok, watch.bad
    bad[:] = 0
    watch.dirty[:] = True
    for r in range(checked.shape[0]):
        ok[r] = True
        if watch.top.shape[0] == checked.shape[0]:
            watch.top[r] = _top_bits(pref, r * width, row_cols[r])
        if watch.peak.shape[0] == checked.shape[0] * width:
            watch.peak[r * width] = _lead(pref, r * width, row_cols[r])
        if checked[r]:
            ok[r] = _row_right(pref, r * width, row_cols[r], good)
        if watch.code.shape[0] == checked.shape[0] * width:
            for j in range(width):
                watch.code[r * width + j] = (watch.code[r * width + j] & ~np.int64(1)) | (1 if ok[r] else 0)
        if not checked[r]:
            continue
        if not ok[r]:
            for s in range(2):
                if seat_mask[r, s]:
                    bad[s] += 1
            if seat_mask[r, 0] or seat_mask[r, 1]:
                bad[2] += 1


@njit(nogil=True, cache=True)
def _note_mastery(bad, mastery, games):
    for s in range(3):
        if bad[s] == 0 and mastery[s] < 0:
            mastery[s] = games


@njit(nogil=True, cache=True)
def _fixed_column(x, opponent, q, legal, perfect, width):
    """(the stepped state, the fixed player's column): RANDOM any legal move, BEST_AT_RANDOM one of the
    value-keeping moves; no draw from the stream when there is one choice."""
    if opponent == RANDOM:
        if legal == 1:
            return x, np.int64(0)
        x = _step(x)
        return x, _below(x, legal)
    base = q * width
    k = 0
    for j in range(legal):
        if perfect[base + j]:
            k += 1
    pick = np.int64(0)
    if k > 1:
        x = _step(x)
        pick = _below(x, k)
    for j in range(legal):
        if perfect[base + j]:
            if pick == 0:
                return x, np.int64(j)
            pick -= 1
    return x, np.int64(0)  # unreachable: every position has a value-keeping move


@njit(nogil=True, cache=True, error_model="numpy")
def play_games(counts_a, counts_b, match, rule_a, rule_b, opponent, seats, n_games, game_index, run, track,
               watch):
    """Play `n_games` games of learner A (counts_a) against B (`opponent` SELF: counts_b, learning too;
    else a fixed player); return how many were played.

    `match` is a `tables.Match`; `rule_a` and `rule_b` (`CompiledRule`s) are the rules A and B each learn
    by; `seats` ALTERNATE (A first in game g, counting from `game_index`, when g is even), A_FIRST or A_SECOND;
    `run` the run's `RunState`: stats[0..2] += A's wins, draws, losses; stats[3] += games won by the
    first mover. `track`: keep the lab's mastery `watch` after every game (the trainer does not)."""
    first_of, leads, result, n_cols, perfect, starts, width, P, rows_a, rows_b, row_cols, start_cells = match
    rng_state, stats, hat, total, cells, firsts = run
    # 1 / each container's total, at its first cell (`_below_by`): made here, a batch, not kept in `run`, so
    # the compiler knows no other array is it and keeps its loads out of the draw's way (1.10x, against
    # 1.00x from an array in `run`)
    inverse = np.empty(total.shape[0])
    # B's tokens apart from A's (A's in `cells`, `firsts`), each list in the order drawn: the learning loops then
    # need no test of whose token it is (the trainer 1.08x at 100 sticks); B's first cells as learnt (`shift`)
    cells_b = np.empty(cells.shape[0], dtype=np.int64)
    firsts_b = np.empty(cells.shape[0], dtype=np.int64)
    changes_a, floor_a, empty_a = rule_a
    changes_b, floor_b, empty_b = rule_b
    end = 2 * P
    off_b = rows_a * width
    b_learns = opponent == SELF
    shared = opponent == SHARED  # B draws from and teaches A's own containers (one set for both seats)
    shift = off_b if shared else 0  # B's cells, as A's
    # the batch's working copy: A's containers, then B's; each container's total at its first cell
    for i in range(rows_a):
        base = i * width
        t = np.int64(0)
        for j in range(row_cols[i]):
            c = counts_a[i, j]
            hat[base + j] = c
            t += c
        total[base] = t
        inverse[base] = 1.0 / np.float64(t)
    if b_learns:
        for i in range(rows_b):
            base = off_b + i * width
            t = np.int64(0)
            for j in range(row_cols[rows_a + i]):
                c = counts_b[i, j]
                hat[base + j] = c
                t += c
            total[base] = t
            inverse[base] = 1.0 / np.float64(t)
    w_good, w_checked, w_seat, w_ok, w_bad = watch.good, watch.checked, watch.seat_mask, watch.ok, watch.bad
    w_code, w_top, w_dirty, w_peak, w_reached = watch.code, watch.top, watch.dirty, watch.peak, watch.reached
    w_marks = watch.marks  # the mark of each seat's last check
    fresh = w_dirty[0] or w_dirty[1]  # a walk is due after the next game (check_all asks for one)
    closed = watch.closed[0]
    # Every first the lab looks for is found (the first game every position was right, and unbeatable from each
    # seat and both): no game can change one, so the games are played untracked, as the trainer plays them, and the
    # watch is worked out afresh from the counts after them (what `check_all` and the walks give: exact)
    found = track and _all_found(watch)
    if found:
        track = False
    per_width = 1.0 / width
    n_starts = starts.shape[0]
    by_starts = 1.0 / np.float64(n_starts)
    x = rng_state[0]
    for g in range(n_games):
        a_first = seats == A_FIRST or (seats == ALTERNATE and (game_index + g) % 2 == 0)
        refilled = False
        if n_starts == 1:
            p = starts[0]
        else:
            x = _step(x)
            p = starts[_below_by(x, n_starts, by_starts)]
        q = p if a_first else P + p
        n = 0
        n_b = 0
        out = np.int64(0)
        while True:
            first = first_of[_U(q)]
            if first >= 0:
                real = first if first < off_b else first - shift
                t = total[_U(real)]
                if t == 0:  # an empty container (only under the floor 'none')
                    empty = empty_a if first < off_b else empty_b
                    if empty != 2:  # it resigns: the mover loses
                        out = np.int64(-1)
                        break
                    for j in range(n_cols[_U(q)]):  # refilled with its start tokens
                        hat[_U(real + j)] = start_cells[_U(real + j)]
                        t += start_cells[_U(real + j)]
                    total[_U(real)] = t
                    inverse[_U(real)] = 1.0 / np.float64(t)
                    refilled = True
                x = _step(x)
                r = _below_by(x, t, inverse[_U(real)])
                cell = real
                while True:  # the token drawn: each as likely as its count (Hats.draw)
                    r -= hat[_U(cell)]
                    if r < 0:
                        break
                    cell += 1
                if first < off_b:
                    cells[_U(n)] = cell
                    firsts[_U(n)] = first
                    n += 1
                else:
                    cells_b[_U(n_b)] = cell
                    firsts_b[_U(n_b)] = real
                    n_b += 1
                c = cell - real
            elif first == FORCED:
                c = np.int64(0)
            else:
                x, c = _fixed_column(x, opponent, q, n_cols[_U(q)], perfect, width)
            k = q * width + c
            nq = leads[_U(k)]
            if nq == end:
                out = np.int64(result[_U(k)])
                break
            q = nq
        a_outcome = out if q < P else -out  # the outcome for whoever moved last, made A's
        # A's tokens, then B's, each in the order drawn, as the readable learner does
        # (with `track`, `need` says whether a row A drew from may have changed its answer: see below)
        need = refilled
        change = changes_a[a_outcome + 1]
        mask = (_UP if change > 0 else _DOWN) if track and closed and change != 0 else 0
        if mask:
            for i in range(n):
                _learn(hat, total, inverse, cells[i], firsts[i], change, floor_a)
                need |= (mask >> w_code[_U(cells[i])]) & 1
        elif track and not closed and change != 0:
            # not closed (noughts): a token may have changed its row's top moves only if it rose to at least
            # the row's top count and is not its one top move, or it was at the top and fell (`Watch.peak`,
            # read only here: its top count may be below the true one, never above, so no change is missed)
            if change > 0:
                for i in range(n):
                    f, cell = firsts[i], cells[i]
                    _learn(hat, total, inverse, cell, f, change, floor_a)
                    lead = w_peak[_U(f)]
                    need |= (hat[_U(cell)] >= lead >> 6) & ((lead & 63) != cell - f)
            else:
                for i in range(n):
                    f, cell = firsts[i], cells[i]
                    was = hat[_U(cell)]
                    _learn(hat, total, inverse, cell, f, change, floor_a)
                    need |= (was >= w_peak[_U(f)] >> 6) & (hat[_U(cell)] != was)
        else:
            for i in range(n):
                _learn(hat, total, inverse, cells[i], firsts[i], change, floor_a)
        if b_learns or shared:
            change = changes_b[1 - a_outcome]
            mask = (_UP if change > 0 else _DOWN) if track and closed and shared and change != 0 else 0
            if mask:
                for i in range(n_b):
                    _learn(hat, total, inverse, cells_b[i], firsts_b[i], change, floor_b)
                    need |= (mask >> w_code[_U(cells_b[i])]) & 1
            elif track and not closed and shared and change != 0:  # B's tokens are A's own: as above
                for i in range(n_b):
                    f, cell = firsts_b[i], cells_b[i]
                    was = hat[_U(cell)]
                    _learn(hat, total, inverse, cell, f, change, floor_b)
                    now = hat[_U(cell)]
                    lead = w_peak[_U(f)]
                    if change > 0:
                        need |= (now >= lead >> 6) & ((lead & 63) != cell - f)
                    else:
                        need |= (was >= lead >> 6) & (now != was)
            else:
                for i in range(n_b):
                    _learn(hat, total, inverse, cells_b[i], firsts_b[i], change, floor_b)
        stats[1 - a_outcome] += 1
        first_outcome = a_outcome if a_first else -a_outcome
        if first_outcome > 0:
            stats[3] += 1
        if track:
            # When `need` (a token learnt may have turned its row's answer: `_UP`, `_DOWN`), A's rows drawn
            # from are looked at again after the game: here, not in a function (a call taking arrays,
            # inlined or not, pays their reference counts each time: 2.5x the loop's time) nor in the
            # learning loop above (writes there cost that loop 2.8x). A refilled container is looked at.
            moved = False
            if closed:
                for i in range((n + (n_b if shared else 0)) if need else 0):  # (B's own table: not A's)
                    if i < n:
                        f, cell = firsts[i], cells[i]
                        change = changes_a[a_outcome + 1]
                    else:
                        f, cell = firsts_b[i - n], cells_b[i - n]
                        change = changes_b[1 - a_outcome]
                    if change == 0 and not refilled:
                        continue
                    row = np.int64(np.float64(f) * per_width + 0.5)  # f // width, exactly: f is a multiple of it
                    if not w_checked[row]:
                        continue
                    was = w_ok[row]
                    if not refilled and (w_good[cell] == was) == (change > 0):
                        continue
                    now = _row_right(hat, f, row_cols[row], w_good)
                    if now != was:
                        _set_answer(w_ok, w_code, w_seat, w_bad, row, f, width, now)
                        moved = True
            else:
                # Not closed (noughts): after a game where a token may have changed its row's top moves (`need`,
                # from the learning loops above), each row A's tokens were learnt in is read again: its top
                # moves (`top`, a bit a column), and its top count and one top move (`peak`). A row's answer
                # (`ok`) changes only with its top moves, so it is looked at only then, from the bits; the walk
                # is made again only when a changed row was reached by the last walk. (A game visits a position
                # once: the game's tables are in solving order, without cycles.)
                for i in range((n + (n_b if shared else 0)) if need else 0):  # (B's own table: not A's)
                    if i < n:
                        f, cell = firsts[i], cells[i]
                        change = changes_a[a_outcome + 1]
                    else:
                        f, cell = firsts_b[i - n], cells_b[i - n]
                        change = changes_b[1 - a_outcome]
                    if change == 0 and not refilled:
                        continue
                    row = np.int64(np.float64(f) * per_width + 0.5)  # f // width, exactly
                    t = w_top[_U(row)]
                    legal = row_cols[row]
                    top_count = hat[f]
                    bits = np.int64(1)
                    one = np.int64(0)
                    for j in range(1, legal):
                        v = hat[f + j]
                        if v > top_count:
                            top_count = v
                            bits = np.int64(1) << j
                            one = j
                        elif v == top_count:
                            bits |= np.int64(1) << j
                            one = 63
                    if legal > 62:
                        bits = np.int64(-2)
                        w_peak[_U(f)] = 63  # no top count kept: every token learnt here is looked at
                    else:
                        w_peak[_U(f)] = top_count << 6 | one
                        if bits == t:
                            continue
                    w_top[_U(row)] = bits
                    # a row the last check did not reach cannot change its answer (nor can any row reach it
                    # without a change of its own, which is looked at then)
                    reached = w_reached[row]
                    if reached >= w_marks[0]:
                        w_dirty[0] = True
                        fresh = True
                    if reached >= w_marks[1]:
                        w_dirty[1] = True
                        fresh = True
                    if not w_checked[row]:
                        continue
                    if bits == -2:
                        now = _row_right(hat, f, row_cols[row], w_good)
                    else:
                        now = True
                        for j in range(row_cols[row]):
                            if (bits >> j) & 1 and not w_good[f + j]:
                                now = False
                    if now != w_ok[row]:
                        _set_answer(w_ok, w_code, w_seat, w_bad, row, f, width, now)
                        moved = True
            if moved:
                _note_mastery(w_bad, watch.mastery, game_index + g + 1)
            if fresh if not closed else moved:
                note_unbeatable(hat, width, row_cols, watch, game_index + g + 1, firsts, 0, off_b, shift)
                fresh = False
    rng_state[0] = x
    if track and not closed:  # each of A's rows' top count made exact again (the loop's may lag: `Watch.peak`)
        for i in range(rows_a):
            w_peak[_U(i * width)] = _lead(hat, i * width, row_cols[i])
        settle_unbeatable(hat, width, watch)  # the answers left for later (`note_unbeatable`)
    if found:  # (A's containers lead `hat`, laid out as a preference is: row r at r * width)
        refresh(hat, width, row_cols, watch)
    for i in range(rows_a):
        base = i * width
        for j in range(row_cols[i]):
            counts_a[i, j] = hat[base + j]
    if b_learns:
        for i in range(rows_b):
            base = off_b + i * width
            for j in range(row_cols[rows_a + i]):
                counts_b[i, j] = hat[base + j]
    return n_games


# -- the lab's value learners -----------------------------------------------------------------------

@njit(nogil=True, cache=True)
def _max_value(values, first, legal):
    top = values[first]
    for j in range(1, legal):
        if values[first + j] > top:
            top = values[first + j]
    return top


@njit(nogil=True, cache=True)
def _greedy(values, first, legal, x):
    """(state, the column with the highest value; ties broken at random, no draw when there is no tie)."""
    top = values[first]
    best = 0
    k = 1
    for j in range(1, legal):
        v = values[first + j]
        if v > top:
            top = v
            best = j
            k = 1
        elif v == top:
            k += 1
    if k == 1:
        return x, np.int64(best)
    x = _step(x)
    pick = _below(x, k)
    for j in range(best, legal):
        if values[first + j] == top:
            if pick == 0:
                return x, np.int64(j)
            pick -= 1
    return x, np.int64(best)


def explore_threshold(epsilon: float) -> np.uint64:
    """The whole number T with k / 2**53 < epsilon exactly when k < T, for every 53-bit k."""
    import math

    return np.uint64(math.ceil(epsilon * 9007199254740992.0))


@njit(nogil=True, cache=True)
def _position_value(values, q, first_of, after, result, n_cols, width, end, shift, off_b):
    """What the mover at side index `q` is worth by the one table `values` (negamax): the best value of its
    container; at a forced move, the value its one move leads to (the result where it ends the game)."""
    sign = 1.0
    while True:
        first = first_of[_U(q)]
        if first >= 0:
            base = first if first < off_b else first - shift
            return sign * _max_value(values, base, n_cols[_U(q)])
        k = q * width  # a forced move: column 0
        nq = after[_U(k)]
        if nq == end:
            return sign * result[_U(k)]
        sign = -sign
        q = nq


@njit(nogil=True, cache=True)
def play_values(q_a, q_b, n_a, n_b, method, alpha, explore, match, opponent, n_games, game_index, run, watch):
    """`n_games` games of an action-value learner A (q_a, flat over its containers' cells) against B (SELF:
    q_b, learning too) or a fixed player, A moving first in even games; both choose epsilon-greedily
    (`explore`: `explore_threshold(epsilon)`), a forced move made without a choice. The result is +1 a
    win, 0 a draw, -1 a loss, at the end only (no discount); the mastery `watch` is kept after every game.

    method 2, self-play Q-learning as textbooks write it: ONE table (q_a) for both seats (B chooses from it
    and teaches it too; `opponent` SELF); each move is moved `alpha` of the way towards the negative of
    the best value of the position the opponent then faces (negamax), or the result where it ends the
    game, at once. method 0, Q-learning with a table per seat: each of a learner's moves is moved `alpha`
    of the way towards the best value at its next choice (the result, after its last one). method 1, Monte-Carlo control: after the game
    every move played is moved towards the result, by `alpha` (or, alpha 0, by 1/visits: the average of
    every result that followed it; n_a, n_b count the visits)."""
    first_of, after, result, n_cols, perfect, starts, width, P, rows_a, rows_b, row_cols, _ = match
    rng_state, stats, _, _, cells, firsts = run
    off_b = rows_a * width
    end = 2 * P
    n_starts = starts.shape[0]
    one_table = method == 2
    shift = off_b if one_table else 0
    x = rng_state[0]
    for g in range(n_games):
        a_first = (game_index + g) % 2 == 0
        if n_starts == 1:
            p = starts[0]
        else:
            x = _step(x)
            p = starts[_below(x, n_starts)]
        q = p if a_first else P + p
        n = 0
        last_a = -1  # A's last choice (a cell), for Q-learning's step at its next choice
        last_b = -1
        out = np.int64(0)
        while True:
            first = first_of[_U(q)]
            if first >= 0:
                is_a = first < off_b
                values = q_a if is_a or one_table else q_b
                base = first if is_a else first - off_b
                legal = n_cols[_U(q)]
                if method == 0:
                    last = last_a if is_a else last_b
                    if last >= 0:
                        values[last] += alpha * (_max_value(values, base, legal) - values[last])
                x = _step(x)
                if ((x * _MULTIPLIER) >> np.uint64(11)) < explore:
                    x = _step(x)
                    c = _below(x, legal)
                else:
                    x, c = _greedy(values, base, legal, x)
                cells[_U(n)] = first + c
                firsts[_U(n)] = first
                n += 1
                if is_a:
                    last_a = base + c
                else:
                    last_b = base + c
            elif first == FORCED:
                c = np.int64(0)
            else:
                x, c = _fixed_column(x, opponent, q, n_cols[_U(q)], perfect, width)
            k = q * width + c
            nq = after[_U(k)]
            if one_table and first >= 0:
                cell = (first if first < off_b else first - off_b) + c
                if nq == end:
                    target = np.float64(result[_U(k)])
                else:
                    target = -_position_value(q_a, nq, first_of, after, result, n_cols, width, end, shift, off_b)
                q_a[cell] += alpha * (target - q_a[cell])
            if nq == end:
                out = np.int64(result[_U(k)])
                break
            q = nq
        a_outcome = out if q < P else -out
        for side in range(2):
            if one_table:
                break
            if side == 1 and opponent != SELF:
                break
            values = q_a if side == 0 else q_b
            visits = n_a if side == 0 else n_b
            outcome = a_outcome if side == 0 else -a_outcome
            if method == 0:
                last = last_a if side == 0 else last_b
                if last >= 0:
                    values[last] += alpha * (outcome - values[last])
                continue
            for i in range(n):
                if (firsts[i] < off_b) == (side == 0):
                    cell = cells[i] if side == 0 else cells[i] - off_b
                    visits[cell] += 1
                    step = alpha if alpha > 0 else 1.0 / visits[cell]
                    values[cell] += step * (outcome - values[cell])
        stats[1 - a_outcome] += 1
        if (a_outcome if a_first else -a_outcome) > 0:
            stats[3] += 1
        _recheck(q_a, width, row_cols, watch.good, watch.checked, watch.seat_mask, watch.ok, watch.bad, firsts, n,
                 off_b, off_b if one_table else 0)
        _note_mastery(watch.bad, watch.mastery, game_index + g + 1)
        note_unbeatable(q_a, width, row_cols, watch, game_index + g + 1, firsts, n, off_b, off_b if one_table else 0)
    rng_state[0] = x
    settle_unbeatable(q_a, width, watch)
    return n_games


# -- exact figures ----------------------------------------------------------------------------------

#: The exact figures of both seats from one table (`tables.exact_chances_both`), compiled.
chances_both = njit(nogil=True, cache=True)(tables.exact_chances_both)
#: The same figures against the perfect player over the lab's packed layout (`tables.curve_chances`), compiled.
curve_chances = njit(nogil=True, cache=True)(tables.curve_chances)


@njit(nogil=True, cache=True)
def chances(pref, policy, match, order, start, learner_first, opponent, empty_code):
    """The exact figures of one seat (`tables.exact_chances`), compiled."""
    w1, d1, l1, w2, d2, l2 = chances_both(pref, policy, match, order, start, opponent, empty_code,
                                          np.zeros(0, dtype=np.bool_))
    return (w1, d1, l1) if learner_first else (w2, d2, l2)


@njit(nogil=True, cache=True)
def agreement(pref, width, row_cols, good, checked):
    """The share of A's checked rows where every move tied at the top of `pref` is right (1 with none)."""
    right = 0
    total = 0
    for r in range(checked.shape[0]):
        if checked[r]:
            total += 1
            if _row_right(pref, r * width, row_cols[r], good):
                right += 1
    return right / total if total > 0 else 1.0


# -- the learning curve's checkpoint -------------------------------------------------------------------

@njit(nogil=True, cache=True)
def curve_point(counts, win_mask, winning, pref, per_row, match, layout, start_cells, empty_code, chance):
    """One checkpoint of the learning curve, for any game, in one call (`learn.analysis.CurveScorer.score`; its
    readable form is the scorer's numpy `disagreeing_rows` and `draw_wins` with `tables.curve_chances`, the lab's).

    `counts`: the brain's counts by row (its first `match.rows_a` rows are scored); `win_mask` (rows, columns)
    its winning moves, `winning` its rows of winning positions. Fills `pref` (A's cells of `match`) with the
    counts and `per_row` with, for each winning row in order, the chance that a token drawn from it is a
    winning move (an empty container draws nothing: 0), whose mean the caller takes by numpy (its summation
    order, the readable form's, to the last bit). Returns (rows not agreeing, winning rows, then the chances
    (win, draw, loss) moving first and moving second against the perfect player worst for the brain). A row
    agrees when its one most likely token (strictly: a tie is no preference) is a winning move."""
    width = match.width
    cols = counts.shape[1]
    for r in range(match.rows_a):
        base = r * width
        for c in range(width):
            pref[base + c] = counts[r, c] if c < cols else 0
    wrong = 0
    total = 0
    for r in range(match.rows_a):
        if not winning[r]:
            continue
        top = counts[r, 0]
        best = 0
        ties = 0
        whole = 0.0
        good = 0.0
        for c in range(match.row_cols[r]):
            v = counts[r, c]
            if v > top:
                top = v
                best = c
                ties = 1
            elif v == top:
                ties += 1
            whole += v
            if win_mask[r, c]:
                good += v
        if ties != 1 or not win_mask[r, best]:
            wrong += 1
        per_row[total] = good / whole if whole > 0 else 0.0
        total += 1
    w1, d1, l1, w2, d2, l2 = curve_chances(pref, PROPORTIONAL, layout, start_cells, empty_code, chance)
    return wrong, total, w1, d1, l1, w2, d2, l2


def warm_up() -> None:
    """Compile (or load from the cache) every loop here with a tiny game: one position, one winning move
    (forced) and one of two moves."""
    warm_up_counts()
    warm_up_values()


def _tiny_match():
    """The tiny game `warm_up` plays: one position, one winning move (forced) and one of two moves."""
    from sticks_tui.learn.tables import Match

    first_of = np.array([0, FIXED], dtype=np.int64)
    after = np.array([2, 2, 2, 2], dtype=np.int64)
    result = np.array([1, 1, 1, 1], dtype=np.int8)
    n_cols = np.array([2, 2], dtype=np.int64)
    perfect = np.ones(4, dtype=np.bool_)
    return Match(first_of, after, result, n_cols, perfect, np.zeros(1, dtype=np.int64), 2, 1, 1, 0,
                 np.array([2], dtype=np.int64), np.ones(2, dtype=np.int64))


def warm_up_counts() -> None:
    """The counts learners' loop (`play_games`), compiled or loaded: about half of `warm_up`'s compile, which
    a second process may do beside `warm_up_values` (each loop keeps its own cache files)."""
    match = _tiny_match()
    counts = np.ones((1, 2), dtype=np.int64)
    rule = CompiledRule(np.array([-1, 0, 1], dtype=np.int64), 0, 0)
    watch = Watch.none()
    for opponent in (SELF, RANDOM):
        play_games(counts, counts.copy(), match, rule, rule, opponent, ALTERNATE, 1, 0, RunState.new(1, match), False,
                   watch)


def warm_up_values() -> None:
    """The value learners' loop and the checks (`play_values`, `check_all`, `chances`, `agreement`, `curve_point`),
    compiled or loaded: the other half of `warm_up`."""
    match = _tiny_match()
    counts = np.ones((1, 2), dtype=np.int64)
    watch = Watch.none()
    q = np.zeros(2)
    play_values(q, q.copy(), np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), 0, 0.5,
                explore_threshold(0.1), match, RANDOM, 1, 0, RunState.new(1, match), watch)
    check_all(q, 2, match.row_cols, watch)
    check_all(counts.ravel().astype(np.float64), 2, match.row_cols, watch)
    chances(q, GREEDY, match, np.zeros(1, dtype=np.int64), 0, True, PERFECT, 0)
    chances_both(q, GREEDY, match, np.zeros(1, dtype=np.int64), 0, PERFECT, 0, np.ones(2, dtype=np.bool_))
    agreement(q, 2, match.row_cols, np.ones(2, dtype=np.bool_), np.ones(1, dtype=np.bool_))
    layout = tables.curve_layout(match, np.zeros(1, dtype=np.int64), 0, np.ones(2, dtype=np.bool_))
    curve_chances(q, PROPORTIONAL, layout, match.start_cells, 0, tables.curve_table(layout))
    curve_point(counts, np.ones((1, 2), dtype=np.bool_), np.ones(1, dtype=np.bool_), q.copy(), np.zeros(1), match,
                layout, match.start_cells, 0, tables.curve_table(layout))
