"""Three-pile Nim (seed 004) solved by its recurrence: U(n, d, q) for 0 <= n, d, q <= 100.

Piles of nickels, dimes and quarters; a move takes one or more coins from one pile; whoever takes
the last coin wins, so U(0, 0, 0) = 0 (the player to move has lost). A position is winning (U = 1)
when some move leads to a losing one. The table is built by that recurrence, never by the xor rule;
tests check it against the rule (losing exactly when n ^ d ^ q == 0).

Two builders:
- `build_table_literal` follows seed 004's algorithm as written: for each entry, scan every smaller
  count along each axis. O(N^4), readable, for tests on small boxes.
- `build_table` keeps, for every line of the cube, a running flag "a losing position has been seen
  below along this axis", so each entry costs three look-ups: O(N^3), compiled with numba.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sticks_tui.engine.nim import MAX_PILE, PILE_NAMES, coins_word, nim_after, nim_moves

#: The largest pile the table covers (seed 004: 0 <= n, d, q <= 100).
SIZE = MAX_PILE
#: How many replies `explain` lists one by one before it summarises the rest.
EXPLAIN_LIMIT = 12

Piles = tuple[int, int, int]
NimMove = tuple[int, int]  # (pile index 0..2, coins taken)


# -- the builders ----------------------------------------------------------------------------

def build_table_literal(n1: int, n2: int, n3: int) -> np.ndarray:
    """Seed 004's algorithm as written: U[n, d, q] for 0 <= n <= n1, 0 <= d <= n2, 0 <= q <= n3.

    "Set U(n,d,q) to 0; set it to 1 if there exists X1 < n with U(X1,d,q) == 0, or X2 < d with
    U(n,X2,q) == 0, or X3 < q with U(n,d,X3) == 0", entry by entry from U(0,0,0) upward.
    """
    _check_box(n1, n2, n3)
    u = [[[0] * (n3 + 1) for _ in range(n2 + 1)] for _ in range(n1 + 1)]
    for n in range(n1 + 1):
        for d in range(n2 + 1):
            for q in range(n3 + 1):
                value = 0  # U(0,0,0) = 0: no move, the player to move has lost
                for x1 in range(n):
                    if u[x1][d][q] == 0:
                        value = 1  # optimal strategy: move to (x1, d, q)
                for x2 in range(d):
                    if u[n][x2][q] == 0:
                        value = 1  # move to (n, x2, q)
                for x3 in range(q):
                    if u[n][d][x3] == 0:
                        value = 1  # move to (n, d, x3)
                u[n][d][q] = value
    return np.array(u, dtype=np.bool_)


def _running_flags_python(u, seen_n, seen_d):  # compiled below (the whole table); as is for a small box
    n1, n2, n3 = u.shape
    for n in range(n1):
        for q in range(n3):
            seen_d[q] = False
        for d in range(n2):
            seen_q = False
            for q in range(n3):
                # winning iff a losing position lies below along some axis
                win = seen_n[d, q] or seen_d[q] or seen_q
                u[n, d, q] = win
                if not win:
                    seen_n[d, q] = True
                    seen_d[q] = True
                    seen_q = True


_running_flags = None


def _kernel():
    """Compile the running-flag loop on first use (numba caches it on disk for later runs)."""
    global _running_flags
    if _running_flags is None:
        from numba import njit

        _running_flags = njit(nogil=True, cache=True)(_running_flags_python)
    return _running_flags


def build_table(n1: int = SIZE, n2: int = SIZE, n3: int = SIZE) -> np.ndarray:
    """U for the box 0..n1 x 0..n2 x 0..n3 as a bool array (1 byte a state), by running flags.

    Every line of the cube (two coordinates fixed) holds at most one losing position, and a
    position is winning exactly when one of its three lines has a losing position below it, so one
    flag per line ("seen a loss below") replaces seed 004's inner scans.
    """
    _check_box(n1, n2, n3)
    u = np.empty((n1 + 1, n2 + 1, n3 + 1), dtype=np.bool_)
    seen_n = np.zeros((n2 + 1, n3 + 1), dtype=np.bool_)
    seen_d = np.zeros(n3 + 1, dtype=np.bool_)
    _kernel()(u, seen_n, seen_d)
    return u


def _check_box(n1: int, n2: int, n3: int) -> None:
    for size in (n1, n2, n3):
        if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 0:
            raise ValueError(f"A box of piles needs whole sizes of at least 0, not {size!r}.")


@lru_cache(maxsize=1)
def nim_table() -> np.ndarray:
    """The full 101 x 101 x 101 table, built once per process and read-only."""
    table = build_table(SIZE, SIZE, SIZE)
    table.flags.writeable = False
    return table


#: Up to this many positions, a question about piles no bigger than a box is answered from a table of
#: that box alone, built by the running flags run as plain Python (~1 us a position): in a fresh process
#: that is far quicker than loading the compiled loop (numba: ~0.3 s of CPU) to build all 1,030,301.
SMALL_BOX = 20_000
_small_table: np.ndarray | None = None  # the table of the largest small box asked about so far


def _table_covering(piles: Piles) -> np.ndarray:
    """A read-only table holding `piles` and every position below them: the whole table once it is built,
    else one of a small box (the running flags, not compiled), else the whole table."""
    global _small_table
    if nim_table.cache_info().currsize:
        return nim_table()
    small = _small_table
    if small is not None and all(p < size for p, size in zip(piles, small.shape)):
        return small
    box = piles if small is None else tuple(max(p, size - 1) for p, size in zip(piles, small.shape))
    if (box[0] + 1) * (box[1] + 1) * (box[2] + 1) > SMALL_BOX:
        return nim_table()
    u = np.empty((box[0] + 1, box[1] + 1, box[2] + 1), dtype=np.bool_)
    seen_n, seen_d = np.zeros((box[1] + 1, box[2] + 1), dtype=np.bool_), np.zeros(box[2] + 1, dtype=np.bool_)
    _running_flags_python(u, seen_n, seen_d)
    u.flags.writeable = False
    _small_table = u
    return u


# -- questions the UI and the command ask ------------------------------------------------------

def check_piles(piles) -> Piles:
    """Three whole pile sizes in 0..100, or ValueError with a message a person can read."""
    try:
        values = tuple(piles)
    except TypeError:
        raise ValueError(f"Give three pile sizes (nickels, dimes, quarters), not {piles!r}.") from None
    if len(values) != 3:
        raise ValueError(f"Nim here has three piles (nickels, dimes, quarters), not {len(values)}.")
    out = []
    for name, value in zip(PILE_NAMES, values, strict=True):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ValueError(f"The {name} pile must be a whole number of coins, not {value!r}.")
        if not 0 <= value <= SIZE:
            raise ValueError(f"The {name} pile must hold between 0 and {SIZE} coins, not {value}.")
        out.append(int(value))
    return out[0], out[1], out[2]


def is_winning(n: int, d: int, q: int) -> bool:
    """U(n, d, q): can the player to move force a win?"""
    n, d, q = check_piles((n, d, q))
    return bool(_table_covering((n, d, q))[n, d, q])


def legal_moves(piles) -> list[NimMove]:
    """Every move (pile, coins) from `piles`, by pile then by coins taken."""
    return list(nim_moves(check_piles(piles)))


after = nim_after  # the piles once a move is played (engine.nim)


def winning_moves(piles) -> list[NimMove]:
    """Every move that leaves the opponent in a losing position; empty when `piles` is lost."""
    p = check_piles(piles)
    table = _table_covering(p)  # every position a move leaves is below `piles`
    return [m for m in legal_moves(p) if not table[after(p, m)]]


def perfect_move(piles) -> NimMove:
    """A winning move if there is one; in a lost position, one coin from the largest pile."""
    moves = winning_moves(piles)
    if moves:
        return moves[0]
    p = check_piles(piles)
    if sum(p) == 0:
        raise ValueError("There are no coins left: the game is over.")
    return p.index(max(p)), 1


class NimSolution:
    """The table as a solver of the game protocol (`solve.solver_for(NimRules(...))`)."""

    def winning_moves(self, piles) -> tuple[NimMove, ...]:
        return tuple(winning_moves(piles))

    def is_winning(self, piles) -> bool:
        return is_winning(*piles)

    def perfect_move(self, piles) -> NimMove:
        return perfect_move(piles)

    def answer(self, piles) -> tuple[dict, str]:
        """What `sticks-tui solve --game nim` says: {"piles", "winning", "moves" ([pile, coins], pile 0
        the nickels), "reason"}, and the reason in words (`explain`)."""
        p = check_piles(piles)
        reason = explain(p)
        return ({"piles": list(p), "winning": is_winning(*p), "moves": [list(m) for m in winning_moves(p)],
                 "reason": reason}, reason)


def table_slice(q: int) -> np.ndarray:
    """U(n, d, q) for one number of quarters: a read-only bool array indexed [n, d] (101 x 101)."""
    if isinstance(q, bool) or not isinstance(q, int | np.integer) or not 0 <= q <= SIZE:
        raise ValueError(f"The quarters pile must hold between 0 and {SIZE} coins, not {q!r}.")
    return nim_table()[:, :, int(q)]


# -- the reason in words -----------------------------------------------------------------------

def describe_move(move: NimMove) -> str:
    """`take 2 dimes`."""
    return f"take {coins_word(*move)}"


def describe_piles(piles) -> str:
    """`(2, 2, 1): 2 nickels, 2 dimes, 1 quarter`."""
    p = tuple(piles)
    return f"({p[0]}, {p[1]}, {p[2]}): " + ", ".join(coins_word(i, c) for i, c in enumerate(p))


def _answer(piles: Piles, who: str, other: str) -> str:
    """How `who` (facing the winning `piles`) answers, putting `other` in a losing position."""
    move = winning_moves(piles)[0]
    left = after(piles, move)
    if sum(left) == 0:
        return f"{describe_move(move)}, the last coin{'s' if move[1] > 1 else ''}, and {who} win"
    return f"{describe_move(move)}, leaving {_short(left)}, a losing position for {other} again (U = 0)"


def _short(piles) -> str:
    return f"({piles[0]}, {piles[1]}, {piles[2]})"


def explain(piles) -> str:
    """Whether the player to move can force a win from `piles`, and why, from the table alone.

    Winning: the winning move(s), then every reply the opponent has from the position it leaves,
    each with the answer that puts them back in a losing position. Losing: every move, each with
    the opponent's winning answer.
    """
    p = check_piles(piles)
    if sum(p) == 0:
        return ("There are no coins left: the previous player took the last coin and won, "
                "so the player to move has lost (U(0, 0, 0) = 0).")
    lines: list[str] = []
    moves = winning_moves(p)
    if moves:
        listing = "; ".join(f"{describe_move(m)}, leaving {_short(after(p, m))}" for m in moves)
        lines.append(f"Yes: the player to move can force a win from {describe_piles(p)}.")
        lines.append(f"Winning move{'s' if len(moves) > 1 else ''}: {listing}.")
        first = moves[0]
        left = after(p, first)
        if sum(left) == 0:
            lines.append("That takes the last coin, which wins the game.")
            return "\n".join(lines)
        replies = legal_moves(left)
        lines.append(
            f"After that move, {_short(left)} is a losing position for the opponent "
            f"(U = 0): each of their {len(replies)} possible replies leaves a position where you "
            f"have a winning answer:")
        role = ("they", "you", "them")
    else:
        replies = legal_moves(p)
        lines.append(f"No: the player to move cannot force a win from {describe_piles(p)} (U = 0).")
        lines.append(
            f"Every one of the {len(replies)} possible moves leaves a winning position for the "
            f"opponent, who has an answer to each:")
        role = ("you", "they", "you")
    for reply in replies[:EXPLAIN_LIMIT]:
        start = left if moves else p
        reached = after(start, reply)
        lines.append(f"  - {role[0]} {describe_move(reply)} -> {_short(reached)}; "
                     f"{role[1]} {_answer(reached, role[1], role[2])}")
    if len(replies) > EXPLAIN_LIMIT:
        lines.append(f"  ... and {len(replies) - EXPLAIN_LIMIT} more, each with such an answer in the table.")
    if moves:
        lines.append("Answering every move this way keeps the opponent in losing positions until "
                     "you take the last coin.")
    else:
        lines.append("Against perfect play this is lost; the best a player can do is move and "
                     "hope the opponent makes a mistake.")
    return "\n".join(lines)
