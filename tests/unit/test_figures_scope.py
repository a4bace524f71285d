"""Every figure is about the game in play (issue 16 item 1) and the perfect player is the worst case
(issue 22 item 4).

A brain may hold more hats than the game trained (the app's has 100): agreement, the chances and
the rule are computed over heaps 2..N of a game of N sticks, and say so. The chance against a
perfect player is the minimum over every perfect player: at a lost heap it picks the move worst
for the AI's hats."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from sticks_tui.play.game import Game
from sticks_tui.play.players import BasePlayer, HatPlayer
from sticks_tui.engine.rules import legal_moves
from tests.unit.sticks_scores import quick_scores
from sticks_tui.solve.sticks_hats import analyse, policy_matrix, win_probabilities
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.solve.sticks import solve_sticks


@pytest.fixture(scope="module")
def run_at_20():
    """The teacher's run: 20,000 games at heap 20 on the app's brain of 100 hats."""
    return train(TrainingConfig(sticks=20, games=20_000, seed=1), brain=Hats(100))


def test_a_run_at_20_sticks_that_learned_every_hat_shows_100_percent(run_at_20):
    counts = run_at_20.brain.counts
    assert counts.shape[0] == 101
    a = analyse(counts, 3, heap=20)
    assert (a.size, a.scope) == (20, "heaps 2-20")
    assert a.agreement == 1.0 and a.disagreeing == ()
    assert a.rule.matches_solution
    assert a.win_vs_perfect_second == 0.0  # 20 is a winning heap: moving second, a perfect player wins
    assert a.win_vs_perfect_first > 0.99
    assert quick_scores(counts, 3, heap=20)[0] == 1.0


def test_the_curve_of_a_run_is_scored_over_the_heaps_it_trained(run_at_20):
    last = run_at_20.curve[-1]
    assert last.games == 20_000
    assert last.agreement == 1.0
    assert last.win_first > 0.99
    assert run_at_20.rules.size == 20


def test_hats_above_the_heap_are_not_part_of_its_figures(run_at_20):
    counts = run_at_20.brain.counts.copy()
    counts[21:] = np.array([1, 50, 50])  # every hat above 20 wrong
    from sticks_tui.learn.analysis import CurveScorer

    assert analyse(counts, 3, heap=20) == analyse(counts[:21], 3)
    assert CurveScorer.for_rules(run_at_20.rules).score(0, counts).agreement == 1.0


def test_a_heap_outside_the_brain_is_refused():
    with pytest.raises(ValueError, match="between 1 and 10"):
        analyse(Hats(10).counts, 3, heap=11)
    with pytest.raises(ValueError, match="between 1 and 10"):
        analyse(Hats(10).counts, 3, heap=0)


def test_scope_words():
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.engine.rules import SticksRules
    from sticks_tui.learn.analysis import scope_words
    from sticks_tui.engine.rules import heaps_words

    assert heaps_words(20) == "heaps 2-20"
    assert heaps_words(2) == "heap 2"
    assert scope_words(SticksRules(35)) == "heaps 2-35"
    assert scope_words(NimRules((7, 7, 7))) == "piles up to 7, 7, 7"


# -- the worst perfect player ---------------------------------------------------------------------
def test_the_issue_22_run_gives_0_percent_moving_first():
    """`train --sticks 10 --games 1000 --seed 4242 --protocol classic --floor nonempty`: a perfect
    player that takes 1 at a lost heap loses to these hats every time; one that picks its move against
    them never does."""
    rule = HatRule(floor="nonempty")
    result = train(TrainingConfig(sticks=10, games=1000, seed=4242, protocol="classic"), Hats(10, rule=rule))
    a = analyse(result.brain.counts, 3)
    assert a.win_vs_perfect_first == 0.0
    assert result.curve[-1].win_first == 0.0


def deterministic_perfect_players(size: int):
    """Every perfect player that plays one fixed move per heap, as its policy matrix: a winning move
    where there is one, else any legal move (each loses against perfect play)."""
    sol = solve_sticks(size)
    choices = [sol.winning_moves(n) or legal_moves(n, 3) for n in range(1, size + 1)]
    for picks in itertools.product(*choices):
        policy = np.zeros((size + 1, 3))
        for n, m in enumerate(picks, start=1):
            policy[n, m - 1] = 1.0
        yield picks, policy


@pytest.fixture(scope="module")
def half_trained():
    return train(TrainingConfig(sticks=14, games=300, seed=7, protocol="classic")).brain.counts  # the choice matters


def test_the_chance_is_the_minimum_over_every_perfect_player(half_trained):
    policy = policy_matrix(half_trained, 3)
    a = analyse(half_trained, 3)
    firsts, seconds = zip(*(win_probabilities(policy, p, 14) for _, p in deterministic_perfect_players(14)))
    assert len(firsts) == 27  # heaps 5, 9 and 13 are lost: any of 3 moves each
    assert a.win_vs_perfect_first == pytest.approx(min(firsts))
    assert a.win_vs_perfect_second == pytest.approx(min(seconds))
    assert max(firsts) - min(firsts) > 0.2  # the choice matters for these hats


class ReplyPlayer(BasePlayer):
    """A perfect player given as its move at each heap."""

    def __init__(self, name: str, replies) -> None:
        super().__init__(name)
        self.replies = replies

    def choose(self, state):
        return self.replies[state.position]


def test_the_worst_perfect_player_plays_to_the_exact_figure(half_trained):
    from sticks_tui.solve.sticks_hats import worst_perfect_replies

    replies = worst_perfect_replies(policy_matrix(half_trained, 3), solve_sticks(14), 14)
    sol = solve_sticks(14)
    for n in range(1, 15):
        assert replies[n] in (sol.winning_moves(n) or range(1, min(3, n) + 1))
    a = analyse(half_trained, 3)
    hats = Hats(14, counts=half_trained)
    rng = XorShift64Star(9)
    wins = 0
    for g in range(2000):
        ai = HatPlayer("ai", hats, rng, learn=False)
        game = Game([ai, ReplyPlayer("p", replies)], 14)
        game.play_to_end()
        wins += game.state.winner == ai.seat
    assert wins / 2000 == pytest.approx(a.win_vs_perfect_first, abs=0.04)  # one sd is at most 0.011 (fixed seed)


def test_a_perfect_ai_still_wins_every_winning_start():
    sol = solve_sticks(17)
    hats = Hats(17)
    for n in range(2, 18):
        if sol.is_winning(n):
            hats.counts[n] = [0, 0, 0]
            hats.counts[n, sol.perfect_move(n) - 1] = 5
    for n in range(2, 18):
        a = analyse(hats.counts, 3, heap=n)
        assert a.win_vs_perfect_first == (1.0 if sol.is_winning(n) else 0.0), n
