"""The noughts and crosses solver against brute force: a plain minimax over the whole game tree from
the empty board visits every reachable board and must agree with the solver's value and best squares at
each one. The search keeps what it found for each board (a board says whose move it is, so its value is
the board's alone): each of the 5,478 boards is searched once, not once per path to it (549,946 nodes,
about 2 CPU s), and no table of the solver's is consulted."""

from __future__ import annotations

import pytest

from sticks_tui.engine.noughts import LINES, BadBoard, NoughtsRules, reachable_boards
from sticks_tui.solve import solver_for
from sticks_tui.solve.noughts import solve_noughts


def _line(board, mark):
    return any(board[a] == board[b] == board[c] == mark for a, b, c in LINES)


def brute_force():
    """Every board's value for the player to move and its best squares, by searching each board's moves
    in full the first time it is met (no table of the solver's is consulted)."""
    values: dict[str, int] = {}
    best: dict[str, tuple[int, ...]] = {}

    def search(board: str, me: str, other: str) -> int:
        if board in values:
            return values[board]
        if _line(board, other):
            value, squares = -1, ()
        elif "." not in board:
            value, squares = 0, ()
        else:
            scores = []
            for i, cell in enumerate(board):
                if cell == ".":
                    scores.append((i + 1, -search(board[:i] + me + board[i + 1:], other, me)))
            value = max(s for _, s in scores)
            squares = tuple(sq for sq, s in scores if s == value)
        values[board] = value
        best[board] = squares
        return value

    search(".........", "X", "O")
    return values, best


@pytest.fixture(scope="module")
def brute():
    return brute_force()


def test_brute_force_meets_every_reachable_board(brute):
    values, _ = brute
    assert set(values) == reachable_boards()


def test_solver_agrees_with_brute_force_everywhere(brute):
    values, best = brute
    solution = solve_noughts()
    wrong = [b for b in values if solution.value(b) != values[b] or solution.best_squares(b) != best[b]]
    assert wrong == []


def test_known_answers():
    s = solve_noughts()
    assert s.value(".........") == 0 and s.best_squares(".........") == tuple(range(1, 10))
    assert s.value("X........") == 0 and s.best_squares("X........") == (5,)  # a corner needs the centre
    assert s.value("XX.OO....") == 1 and s.best_squares("XX.OO....") == (3,)
    assert s.value("X...O...X") == 0 and s.best_squares("X...O...X") == (2, 4, 6, 8)  # an edge, not a corner
    assert s.value("XXXOO....") == -1 and s.best_squares("XXXOO....") == ()
    assert s.is_winning("XX.OO....") and s.winning_moves("X........") == ()
    assert solver_for(NoughtsRules()) is s


def test_a_bad_board_is_refused():
    with pytest.raises(BadBoard, match="O has more marks"):
        solve_noughts().value("OO.......")
