"""The compiled kernel against the readable reference learner: the same hats, bit for bit,
and the same statistics."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.learn import kernel
from sticks_tui.learn.analysis import policy_matrix, win_probability
from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.trainer import TrainingConfig, compile_game, compile_rule, start_positions, train

CASES = [
    # (sticks, games, seed, protocol, rule)
    (10, 3000, 1, "explore", HatRule()),
    (10, 3000, 2, "classic", HatRule()),
    (20, 2000, 3, "explore", HatRule(floor="nonempty")),
    (20, 2000, 4, "classic", HatRule(floor="nonempty")),
    (15, 2000, 5, "explore", HatRule(start_balls=3, win_reward=2, loss_penalty=3)),
    (15, 2000, 6, "classic", HatRule(start_balls=2, win_reward=3, loss_penalty=1, floor="nonempty")),
    (12, 2000, 7, "explore", HatRule(start_balls=4, win_reward=0, loss_penalty=2)),
    (40, 1000, 8, "explore", HatRule(win_reward=1, loss_penalty=0)),
    (2, 500, 9, "explore", HatRule()),
    (1, 101, 10, "classic", HatRule()),
]


@pytest.mark.parametrize(("sticks", "games", "seed", "protocol", "rule"), CASES)
def test_kernel_and_reference_leave_identical_hats(sticks, games, seed, protocol, rule):
    results = {}
    for engine in ("kernel", "reference"):
        config = TrainingConfig(sticks=sticks, games=games, seed=seed, protocol=protocol, engine=engine)
        results[engine] = train(config, Hats(sticks, rule=rule))
    k, r = results["kernel"], results["reference"]
    assert np.array_equal(k.brain.counts, r.brain.counts)
    assert np.array_equal(k.opponent.counts, r.opponent.counts)
    assert (k.games_played, k.wins_first, k.wins_brain) == (r.games_played, r.wins_first, r.wins_brain)
    if sticks >= 10 and rule.win_reward + rule.loss_penalty > 0:
        assert not np.array_equal(k.brain.counts, Hats(sticks, rule=rule).counts)  # it did learn


def test_different_seeds_give_different_hats():
    a = train(TrainingConfig(sticks=20, games=2000, seed=1)).brain.counts
    b = train(TrainingConfig(sticks=20, games=2000, seed=2)).brain.counts
    assert not np.array_equal(a, b)


def test_how_the_games_are_cut_into_batches_does_not_matter():
    config = TrainingConfig(sticks=20, games=5000, seed=3)
    whole = train(config).brain.counts
    a, b = Hats(20), Hats(20)
    game = compile_game(a, start_positions(config))
    state = kernel.RunState.new(XorShift64Star(3).state, game)
    done = 0
    for n in (1, 2, 997, 3000, 1000):
        rule = compile_rule(a.rule)
        done += kernel.play_games(a.counts, b.counts, game, rule, rule, n, done, state)
    assert done == 5000
    assert np.array_equal(a.counts, whole)


def test_kernel_statistics_match_the_exact_win_probability():
    """With learning off (reward 0, penalty 0) the kernel plays a fixed policy: the share of games
    brain A wins must match the exact probability computed over all positions."""
    rng = np.random.default_rng(0)
    size = 10
    a = Hats(size, rule=HatRule(win_reward=0, loss_penalty=0))
    b = Hats(size, rule=a.rule)
    for hats in (a, b):
        for n in range(1, size + 1):
            hats.counts[n, : min(3, n)] = rng.integers(1, 6, size=min(3, n))
    before = (a.counts.copy(), b.counts.copy())
    games = 200_000
    result = train(TrainingConfig(sticks=size, games=games, seed=11, protocol="classic"), a, b)
    assert np.array_equal(a.counts, before[0]) and np.array_equal(b.counts, before[1])
    pa, pb = policy_matrix(a.counts, 3), policy_matrix(b.counts, 3)
    a_first = win_probability(pa, pb, size, True)
    a_second = win_probability(pa, pb, size, False)
    expected_a = (a_first + a_second) / 2
    expected_first = (a_first + (1 - a_second)) / 2
    sd = 0.5 / np.sqrt(games)
    assert abs(result.wins_brain / games - expected_a) < 6 * sd
    assert abs(result.wins_first / games - expected_first) < 6 * sd


def test_reference_statistics_match_the_exact_win_probability_too():
    size = 6
    a = Hats(size, rule=HatRule(win_reward=0, loss_penalty=0))
    b = Hats(size, rule=a.rule)
    a.counts[6] = [1, 1, 6]
    a.counts[4] = [5, 1, 1]
    games = 20_000
    result = train(TrainingConfig(sticks=size, games=games, seed=12, protocol="classic",
                                  engine="reference"), a, b)
    pa, pb = policy_matrix(a.counts, 3), policy_matrix(b.counts, 3)
    expected = (win_probability(pa, pb, size, True) + win_probability(pa, pb, size, False)) / 2
    assert abs(result.wins_brain / games - expected) < 6 * 0.5 / np.sqrt(games)


def test_the_kernel_never_draws_an_illegal_ball_even_with_counts_in_illegal_cells():
    a, b = Hats(5), Hats(5)
    for hats in (a, b):
        hats.counts[1] = [1, 10**6, 10**6]
        hats.counts[2] = [1, 1, 10**6]
    result = train(TrainingConfig(sticks=5, games=20_000, seed=13, protocol="explore"), a, b)
    # an illegal ball would leave a negative heap: the kernel would run off the array or
    # reinforce the illegal cell. Neither happened:
    assert result.games_played == 20_000
    for hats in (a, b):
        assert hats.counts[1, 1] == hats.counts[1, 2] == hats.counts[2, 2] == 10**6


def test_each_brain_learns_by_its_own_rule_in_both_engines():
    """The run takes the rule from the brains (issue 17): a brain and an opponent with different rules
    each learn by their own, and the kernel and the reference make the same brains from the same games."""
    out = []
    for engine in ("kernel", "reference"):
        brain = Hats(10, rule=HatRule(start_balls=2, win_reward=3, loss_penalty=2, floor="nonempty"))
        opponent = Hats(10)
        out.append(train(TrainingConfig(sticks=10, games=2000, seed=1, engine=engine), brain, opponent))
    assert np.array_equal(out[0].brain.counts, out[1].brain.counts)
    assert np.array_equal(out[0].opponent.counts, out[1].opponent.counts)
    assert out[0].brain.rule.win_reward == 3 and out[0].opponent.rule == HatRule()
    legal = out[0].brain.legal_mask
    assert (out[0].brain.counts[legal] == 0).any()  # the brain's 'nonempty' floor let numbers run out ...
    assert (out[0].opponent.counts[legal] >= 1).all()  # ... the opponent's 'each' floor never does
    fresh = train(TrainingConfig(sticks=10, games=10, seed=1), brain=Hats(10, rule=HatRule(win_reward=5)))
    assert fresh.opponent.rule == HatRule(win_reward=5)  # a fresh sparring partner takes the brain's rule


@pytest.mark.parametrize(("max_take", "protocol"), [(1, "explore"), (2, "classic"), (5, "explore"), (6, "classic")])
def test_kernel_and_reference_agree_for_other_maximum_takes(max_take, protocol):
    out = []
    for engine in ("kernel", "reference"):
        config = TrainingConfig(sticks=17, games=1500, seed=max_take, protocol=protocol, max_take=max_take,
                                engine=engine)
        out.append(train(config))
    assert out[0].brain.counts.shape == (18, max_take)
    assert np.array_equal(out[0].brain.counts, out[1].brain.counts)
    assert np.array_equal(out[0].opponent.counts, out[1].opponent.counts)


def test_a_bigger_brain_trained_on_a_smaller_heap_matches_too():
    out = []
    for engine in ("kernel", "reference"):
        out.append(train(TrainingConfig(sticks=12, games=2000, seed=21, engine=engine), brain=Hats(30)).brain)
    assert np.array_equal(out[0].counts, out[1].counts)
    assert (out[0].counts[13:] == Hats(30).counts[13:]).all()  # hats above the heap never visited


def test_the_kernel_keeps_counts_at_max_count_too():
    rule = HatRule(win_reward=1000)
    out = []
    for engine in ("kernel", "reference"):
        brain = Hats(6, rule=rule)
        brain.counts[brain.counts > 0] = MAX_COUNT - 1
        out.append(train(TrainingConfig(sticks=6, games=300, seed=3, engine=engine), brain=brain).brain)
    assert out[0].counts.max() == MAX_COUNT  # a win reached the cap and stopped there
    assert np.array_equal(out[0].counts, out[1].counts)
