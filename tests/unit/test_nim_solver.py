"""The Nim table U(n, d, q): both builders, the xor check, and seed 004's questions (2) and (3)."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.solve import nim


def xor_rule(shape) -> np.ndarray:
    """The known answer, used only as a check: losing exactly when n ^ d ^ q == 0."""
    n, d, q = np.indices(shape)
    return (n ^ d ^ q) != 0


def test_literal_builder_follows_the_recurrence_on_a_tiny_box():
    u = nim.build_table_literal(2, 2, 1)
    assert not u[0, 0, 0]  # U(0, 0, 0) = 0
    assert u[1, 0, 0] and u[0, 1, 0] and u[0, 0, 1]  # one coin: take it and win
    assert not u[1, 1, 0] and not u[2, 2, 0]  # mirrored piles lose
    assert u[2, 2, 1]


@pytest.mark.parametrize("box", [(12, 12, 12), (0, 0, 0), (0, 5, 9), (13, 1, 6), (3, 17, 2)])
def test_both_builders_agree(box):
    literal = nim.build_table_literal(*box)
    fast = nim.build_table(*box)
    assert literal.shape == fast.shape == tuple(b + 1 for b in box)
    assert np.array_equal(literal, fast)


def test_both_builders_agree_on_random_boxes():
    rng = np.random.default_rng(4)
    for _ in range(6):
        box = tuple(int(x) for x in rng.integers(0, 16, size=3))
        assert np.array_equal(nim.build_table_literal(*box), nim.build_table(*box)), box


def test_full_table_losing_positions_are_exactly_the_xor_zero_ones():
    table = nim.nim_table()
    assert table.shape == (101, 101, 101)
    assert table.dtype == np.bool_
    assert table.nbytes == 1_030_301 <= 1 << 20
    assert np.array_equal(table, xor_rule(table.shape))
    assert int((~table).sum()) == int((~xor_rule(table.shape)).sum())


def test_literal_builder_matches_the_fast_one_on_a_corner_of_the_full_table():
    assert np.array_equal(nim.build_table_literal(9, 9, 9), nim.nim_table()[:10, :10, :10])


def test_table_is_cached_and_read_only():
    assert nim.nim_table() is nim.nim_table()
    with pytest.raises(ValueError):
        nim.nim_table()[0, 0, 0] = True


def test_question_2_start_221_is_a_win_by_taking_the_quarter():
    assert nim.is_winning(2, 2, 1)
    assert nim.winning_moves((2, 2, 1)) == [(2, 1)]
    reason = nim.explain((2, 2, 1))
    assert reason.startswith("Yes")
    assert "take 1 quarter, leaving (2, 2, 0)" in reason
    # every one of the opponent's 4 replies from (2, 2, 0) is listed with its winning answer
    for reply, answer in [("take 1 nickel -> (1, 2, 0)", "take 1 dime, leaving (1, 1, 0)"),
                          ("take 2 nickels -> (0, 2, 0)", "take 2 dimes, the last coins"),
                          ("take 1 dime -> (2, 1, 0)", "take 1 nickel, leaving (1, 1, 0)"),
                          ("take 2 dimes -> (2, 0, 0)", "take 2 nickels, the last coins")]:
        line = next(x for x in reason.splitlines() if reply in x)
        assert answer in line
    assert "4 possible replies" in reason


def test_question_3_start_337_is_a_win_by_taking_all_quarters():
    assert nim.is_winning(3, 3, 7)
    assert nim.winning_moves((3, 3, 7)) == [(2, 7)]
    reason = nim.explain((3, 3, 7))
    assert reason.startswith("Yes")
    assert "take 7 quarters, leaving (3, 3, 0)" in reason
    assert "6 possible replies" in reason
    assert reason.count("  - they take") == 6


def test_a_lost_position_is_explained_move_by_move():
    assert not nim.is_winning(1, 2, 3)
    assert nim.winning_moves((1, 2, 3)) == []
    reason = nim.explain((1, 2, 3))
    assert reason.startswith("No")
    assert reason.count("  - you take") == 6  # all six moves, each with the opponent's answer
    for line in reason.splitlines():
        if line.startswith("  - you take"):
            assert "they take" in line


def test_explanations_are_true_to_the_table_everywhere_they_name_a_position():
    """Every answer the text gives must lead to a position the table marks lost."""
    import re

    for piles in [(2, 2, 1), (3, 3, 7), (1, 2, 3), (5, 9, 12), (100, 100, 100), (40, 1, 0)]:
        for line in nim.explain(piles).splitlines():
            m = re.search(r"leaving \((\d+), (\d+), (\d+)\)", line)
            if m:
                assert not nim.is_winning(*map(int, m.groups())), (piles, line)


def test_long_explanations_are_summarised():
    reason = nim.explain((100, 100, 100))
    assert "more, each with such an answer" in reason
    assert len(reason.splitlines()) < nim.EXPLAIN_LIMIT + 8


def test_empty_and_one_pile_positions():
    assert not nim.is_winning(0, 0, 0)
    assert "no coins left" in nim.explain((0, 0, 0))
    assert nim.winning_moves((0, 0, 5)) == [(2, 5)]
    assert "last coin" in nim.explain((0, 0, 5))


def test_winning_moves_lead_to_lost_positions_and_only_those():
    table = nim.nim_table()
    for piles in [(3, 4, 5), (7, 7, 7), (1, 1, 1), (10, 20, 30), (64, 33, 99)]:
        moves = nim.winning_moves(piles)
        assert bool(moves) == table[piles]
        for pile, coins in nim.legal_moves(piles):
            assert ((pile, coins) in moves) == (not table[nim.after(piles, (pile, coins))])


def test_perfect_move_in_a_lost_position_takes_one_from_the_largest_pile():
    assert nim.perfect_move((1, 2, 3)) == (2, 1)
    assert nim.perfect_move((5, 5, 0)) == (0, 1)  # ties: the first largest pile
    assert nim.perfect_move((3, 4, 5)) == (0, 2)
    with pytest.raises(ValueError):
        nim.perfect_move((0, 0, 0))


def test_table_slice_is_the_n_by_d_grid_for_one_q():
    s = nim.table_slice(7)
    assert s.shape == (101, 101)
    assert s[3, 3] == nim.is_winning(3, 3, 7)
    assert not s[3, 4]  # 3 ^ 4 ^ 7 == 0
    assert not s.flags.writeable


@pytest.mark.parametrize("bad", [(101, 0, 0), (-1, 2, 3), (1, 2), (1, 2, 3, 4), (1.5, 2, 3), ("1", 2, 3),
                                 (True, 2, 3), None])
def test_bad_piles_give_readable_errors(bad):
    with pytest.raises(ValueError, match=r"pile|piles"):
        nim.check_piles(bad)


@pytest.mark.parametrize("q", [-1, 101, 2.0])
def test_bad_slice(q):
    with pytest.raises(ValueError, match="quarters"):
        nim.table_slice(q)


def test_is_winning_rejects_out_of_range():
    with pytest.raises(ValueError, match="between 0 and 100"):
        nim.is_winning(0, 0, 101)
