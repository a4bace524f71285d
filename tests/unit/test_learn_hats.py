"""The hats: counts in a fixed-shape array, draws proportional to counts among legal balls only,
a win adds `win_reward`, a loss removes `loss_penalty`, never below the floor."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticks_tui.play.game import Game
from sticks_tui.play.players import HatPlayer
from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats, reinforced_count
from sticks_tui.learn.rng import XorShift64Star


def test_fresh_hats_hold_one_ball_of_each_legal_number():
    hats = Hats(10)
    assert hats.counts.shape == (11, 3)
    assert hats.counts.dtype == np.int64
    assert hats.as_lists() == [[], [1], [1, 1]] + [[1, 1, 1]] * 8
    assert hats.counts[1, 1] == hats.counts[1, 2] == hats.counts[2, 2] == 0  # no ball larger than the heap


def test_start_balls_is_configurable():
    hats = Hats(5, rule=HatRule(start_balls=3))
    assert hats.hat(5) == (3, 3, 3) and hats.hat(1) == (3,)


def test_seed_000_worked_example_through_reinforce():
    hats = Hats(10)
    changes = hats.reinforce([(7, 2), (4, 3)], won=True)
    assert hats.hat(4) == (1, 1, 2)
    assert hats.hat(7) == (1, 2, 1)
    for n in (3, 5, 6, 8, 9, 10):
        assert hats.hat(n) == (1, 1, 1)
    assert [(c.hat, c.ball, c.before, c.after) for c in changes] == [(7, 2, 1, 2), (4, 3, 1, 2)]


def test_a_loss_really_removes_a_ball():
    hats = Hats(10)
    hats.counts[6] = [5, 7, 2]
    changes = hats.reinforce([(6, 2)], won=False)
    assert hats.hat(6) == (5, 6, 2)
    assert changes[0].delta == -1


def test_loss_penalty_and_win_reward_are_configurable():
    hats = Hats(10, rule=HatRule(win_reward=3, loss_penalty=2))
    hats.counts[6] = [5, 7, 2]
    hats.reinforce([(6, 1)], won=True)
    hats.reinforce([(6, 2)], won=False)
    assert hats.hat(6) == (8, 5, 2)


def test_a_win_never_lifts_a_count_past_max_count():
    assert reinforced_count(MAX_COUNT - 2, 0, 5, 0) == MAX_COUNT
    assert reinforced_count(MAX_COUNT, 0, 1, 0) == MAX_COUNT
    assert reinforced_count(MAX_COUNT - 5, 0, 5, 0) == MAX_COUNT  # reaching it exactly is allowed
    hats = Hats(10, rule=HatRule(win_reward=5))
    hats.counts[7] = [1, MAX_COUNT - 2, MAX_COUNT]
    changes = hats.reinforce([(7, 2), (7, 3)], won=True)
    assert hats.hat(7) == (1, MAX_COUNT, MAX_COUNT)
    assert [(c.before, c.after) for c in changes] == [(MAX_COUNT - 2, MAX_COUNT), (MAX_COUNT, MAX_COUNT)]


def test_floor_each_keeps_the_last_ball_of_every_number():
    hats = Hats(10, rule=HatRule(loss_penalty=5))
    hats.counts[6] = [3, 1, 9]
    hats.reinforce([(6, 1), (6, 2)], won=False)
    assert hats.hat(6) == (1, 1, 9)


def test_floor_nonempty_lets_a_number_go_but_keeps_the_hat_nonempty():
    hats = Hats(10, rule=HatRule(floor="nonempty"))
    hats.reinforce([(6, 2)], won=False)
    assert hats.hat(6) == (1, 0, 1)
    hats.reinforce([(6, 1)], won=False)
    assert hats.hat(6) == (0, 0, 1)
    hats.reinforce([(6, 3)], won=False)
    assert hats.hat(6) == (0, 0, 1)  # seed 003: the last ball goes back


def test_floor_nonempty_ignores_illegal_cells_when_counting_what_is_left():
    hats = Hats(10, rule=HatRule(floor="nonempty"))
    hats.counts[2] = [1, 0, 50]  # a stray count in the illegal cell (ball 3 in hat 2) is not a ball
    hats.reinforce([(2, 1)], won=False)
    assert hats.hat(2) == (1, 0)


def test_rule_validation_says_what_is_wrong():
    with pytest.raises(ValueError, match="floor rule"):
        HatRule(floor="zero")
    with pytest.raises(ValueError, match="win reward"):
        HatRule(win_reward=-1)
    with pytest.raises(ValueError, match="whole number"):
        HatRule(loss_penalty=1.5)
    with pytest.raises(ValueError, match="Starting balls"):
        HatRule(start_balls=0)


def test_draws_are_proportional_to_counts():
    hats = Hats(10)
    hats.counts[9] = [1, 2, 7]
    rng = XorShift64Star(11)
    n = 20_000
    seen = np.bincount([hats.draw(9, rng) for _ in range(n)], minlength=4)[1:]
    expected = np.array([0.1, 0.2, 0.7]) * n
    # about 5 standard deviations
    assert np.all(np.abs(seen - expected) < 5 * np.sqrt(expected))


def test_an_illegal_ball_is_never_drawn_even_with_counts_in_illegal_cells():
    hats = Hats(10)
    hats.counts[2] = [5, 5, 1000]  # ball 3 cannot come out of hat 2
    hats.counts[1] = [1, 1000, 1000]  # only ball 1 from hat 1
    rng = XorShift64Star(5)
    assert {hats.draw(2, rng) for _ in range(2000)} == {1, 2}
    assert {hats.draw(1, rng) for _ in range(500)} == {1}


def test_a_trained_hat_2_never_yields_3_nor_hat_1_anything_but_1():
    hats = Hats(10, rule=HatRule(win_reward=5, loss_penalty=0))
    rng = XorShift64Star(3)
    a, b = HatPlayer("a", hats, rng), HatPlayer("b", Hats(10), rng)
    for g in range(400):
        Game([a, b] if g % 2 else [b, a], 2 + g % 9).play_to_end()
    assert hats.counts[1, 1] == hats.counts[1, 2] == hats.counts[2, 2] == 0


def test_hats_are_fixed_shape_counts_that_do_not_grow():
    hats = Hats(12)
    shape, dtype, array = hats.counts.shape, hats.counts.dtype, hats.counts
    rng = XorShift64Star(8)
    a, b = HatPlayer("a", hats, rng), HatPlayer("b", Hats(12), rng)
    for g in range(300):  # each hat is reached and reinforced many times over
        Game([a, b] if g % 2 else [b, a], 12).play_to_end()
    assert hats.counts is array  # learned in place, not rebuilt
    assert hats.counts.shape == shape and hats.counts.dtype == dtype
    assert hats.counts.nbytes == 13 * 3 * 8
    assert hats.counts.sum() > 13 * 3  # ... while the balls it stands for have grown


def test_as_lists_round_trips_and_checks_lengths():
    hats = Hats(7)
    hats.counts[5] = [2, 9, 4]
    again = Hats.from_lists(hats.as_lists())
    assert again == hats
    with pytest.raises(ValueError, match="Hat 2 should hold 2 counts"):
        Hats.from_lists([[], [1], [1, 1, 1]])


def test_copy_is_independent():
    hats = Hats(5)
    twin = hats.copy()
    twin.counts[5, 0] = 9
    assert hats.hat(5) == (1, 1, 1)


def test_seed_003_table():
    hats = Hats(17)
    hats.counts[17] = [6, 12, 1]
    assert hats.table(first=17) == "17 | {1: 6, 2: 12, 3: 1}"
    assert hats.table().splitlines()[0] == " 1 | {1: 1}"


# -- properties ----------------------------------------------------------------------------

rules = st.builds(HatRule, start_balls=st.integers(1, 4), win_reward=st.integers(0, 5),
                  loss_penalty=st.integers(0, 6), floor=st.sampled_from(["each", "nonempty"]))


def assert_floor_holds(hats: Hats) -> None:
    for n in range(1, hats.size + 1):
        legal = hats.counts[n, : hats.legal(n)]
        illegal = hats.counts[n, hats.legal(n):]
        assert (illegal == 0).all(), f"hat {n} gained an illegal ball: {hats.counts[n]}"
        if hats.rule.floor == "each":
            assert (legal >= 1).all(), f"hat {n} lost its last ball of a number: {legal}"
        else:
            assert (legal >= 0).all() and legal.sum() >= 1, f"hat {n} went empty: {legal}"


@settings(max_examples=60, deadline=None)
@given(rule=rules, size=st.integers(1, 12),
       steps=st.lists(st.tuples(st.integers(1, 12), st.integers(1, 3), st.booleans()), max_size=80))
def test_no_count_ever_falls_below_its_floor_under_any_sequence_of_results(rule, size, steps):
    hats = Hats(size, rule=rule)
    for hat, ball, won in steps:
        hat = 1 + (hat - 1) % size
        ball = 1 + (ball - 1) % hats.legal(hat)
        before = int(hats.counts[hat, ball - 1])
        changes = hats.reinforce([(hat, ball)], won)
        if len(hats.rules.legal_moves(hat)) == 1:  # a forced move teaches nothing
            assert changes == () and hats.counts[hat, ball - 1] == before
            continue
        (change,) = changes
        if won:
            assert change.after == before + rule.win_reward
        else:
            assert change.after <= before
            floor = hats.floor_of(hat, ball)
            assert change.after == max(floor, before - rule.loss_penalty)
        assert_floor_holds(hats)


@settings(max_examples=25, deadline=None)
@given(rule=rules, size=st.integers(2, 15), seed=st.integers(0, 2**32))
def test_no_count_below_its_floor_after_real_games(rule, size, seed):
    rng = XorShift64Star(seed)
    a, b = Hats(size, rule=rule), Hats(size, rule=rule)
    pa, pb = HatPlayer("a", a, rng), HatPlayer("b", b, rng)
    for g in range(60):
        Game([pa, pb] if g % 2 else [pb, pa], size).play_to_end()
    assert_floor_holds(a)
    assert_floor_holds(b)
