"""The sticks solver: U(n) by the recursion, losing positions exactly n % (k + 1) == 1."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticks_tui.solve.sticks import solve_sticks


def test_small_positions_by_hand():
    s = solve_sticks(10)
    assert s.is_winning(0)  # the opponent took the last stick
    assert not s.is_winning(1)  # you must take the last stick
    assert s.is_winning(2) and s.is_winning(3) and s.is_winning(4)
    assert not s.is_winning(5)
    assert s.losing_positions == (1, 5, 9)


def test_winning_moves_lead_to_losing_positions():
    s = solve_sticks(20)
    assert s.winning_moves(7) == (2,)
    assert s.winning_moves(4) == (3,)
    assert s.winning_moves(2) == (1,)
    assert s.winning_moves(9) == ()
    assert s.perfect_move(9) == 1  # lost: take one and hope
    assert s.perfect_move(20) == 3


@settings(max_examples=60, deadline=None)
@given(max_take=st.integers(1, 6), size=st.integers(0, 300))
def test_losing_positions_are_exactly_n_mod_k_plus_1_equal_1(max_take, size):
    s = solve_sticks(size, max_take)
    assert s.losing_positions == tuple(n for n in range(1, size + 1) if n % (max_take + 1) == 1)


@pytest.mark.parametrize("max_take", range(1, 7))
def test_every_k_up_to_200(max_take):
    s = solve_sticks(200, max_take)
    for n in range(1, 201):
        assert s.is_winning(n) == (n % (max_take + 1) != 1)
        for m in s.winning_moves(n):
            assert 1 <= m <= min(max_take, n)
            assert (n - m) % (max_take + 1) == 1


def test_bad_arguments():
    with pytest.raises(ValueError):
        solve_sticks(-1)
    with pytest.raises(ValueError):
        solve_sticks(10, 0)
