"""Players share one protocol; the driver publishes events; the hat learner draws and learns."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sticks_tui.engine.events import BallDrawn, EventBus, GameOver, HatsReinforced, MoveMade
from sticks_tui.play.game import Game
from sticks_tui.play.players import (
    AlwaysOnePlayer,
    HatPlayer,
    HumanPlayer,
    PerfectPlayer,
    Player,
    RandomPlayer,
)
from sticks_tui.engine.rules import IllegalMove, new_game
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.rng import XorShift64Star


def test_every_player_follows_the_protocol():
    for player in (HumanPlayer("you"), AlwaysOnePlayer("dumb"), RandomPlayer("r"), PerfectPlayer("p"),
                   HatPlayer("ai", Hats(10))):
        assert isinstance(player, Player)
    assert HumanPlayer("you").is_human
    assert not AlwaysOnePlayer("dumb").is_human


def test_a_humans_move_comes_from_outside():
    with pytest.raises(RuntimeError):
        HumanPlayer("you").choose(new_game(10))


def test_always_one_takes_one():
    assert AlwaysOnePlayer("dumb").choose(new_game(10)) == 1


def test_random_player_only_takes_legal_counts_and_all_of_them():
    player = RandomPlayer("r", random.Random(7))
    for heap, expected in ((1, {1}), (2, {1, 2}), (3, {1, 2, 3}), (10, {1, 2, 3})):
        seen = {player.choose(new_game(heap)) for _ in range(300)}
        assert seen == expected


@pytest.mark.parametrize("max_take", [2, 3, 4])
def test_perfect_player_wins_from_winning_heaps_and_takes_one_when_lost(max_take):
    player = PerfectPlayer("p")
    for heap in range(1, 40):
        move = player.choose(new_game(heap, max_take=max_take))
        if heap % (max_take + 1) == 1:
            assert move == 1  # lost: make the game last
        else:
            assert (heap - move) % (max_take + 1) == 1


def test_perfect_player_beats_random_from_a_winning_heap_every_time():
    rng = random.Random(3)
    for _ in range(200):
        game = Game([PerfectPlayer("p"), RandomPlayer("r", rng)], 10)
        game.play_to_end()
        assert game.state.winner == 0


class ScriptedRng:
    """A random source that returns a planned sequence, checking each bound it is asked for."""

    def __init__(self, plan):
        self.plan = list(plan)

    def randrange(self, n):
        bound, value = self.plan.pop(0)
        assert n == bound
        return value


def seed_000_game(bus=None):
    """Seed 000's worked example: 10 sticks, the player takes 3, the AI draws 2 from hat 7,
    the player takes 1, the AI draws 3 from hat 4, the player takes the last stick."""
    hats = Hats(10)
    ai = HatPlayer("AI", hats, ScriptedRng([(3, 1), (3, 2)]), bus=bus)
    game = Game([HumanPlayer("Player"), ai], 10, bus=bus)
    game.play(3)
    game.step()
    assert game.state.position == 5
    snapshot = (hats.counts.copy(), list(ai.beside))
    game.play(1)
    game.step()
    assert game.state.position == 1 and game.waiting_for_human
    game.play(1)
    return hats, ai, game, snapshot


FRESH_10 = [[], [1], [1, 1]] + [[1, 1, 1]] * 8


def test_seed_000_worked_example_hats_4_and_7_gain_one_ball():
    hats, ai, game, _ = seed_000_game()
    assert game.state.loser == 0  # the player took the final stick
    expected = [list(row) for row in FRESH_10]
    expected[4] = [1, 1, 2]  # 1,2,3,3
    expected[7] = [1, 2, 1]  # 1,2,2,3
    assert hats.as_lists() == expected
    assert ai.beside == []


def test_seed_001_beside_picture_is_the_same_state():
    """Seed 001 takes the drawn balls out and lays them beside the hats: hat 4 holds 1,2 with a 3
    beside it, hat 7 holds 1,3 with a 2 beside it. In counts, the hats plus what lies beside them
    are still the fresh hats, and the learner remembers (7, 2) and (4, 3)."""
    hats, _, _, (counts_mid_game, beside_mid_game) = seed_000_game()
    assert beside_mid_game == [(7, 2)]
    fresh = Hats(10)
    assert (counts_mid_game == fresh.counts).all()
    hats2 = Hats(10)
    ai = HatPlayer("AI", hats2, ScriptedRng([(3, 1), (3, 2)]))
    game = Game([HumanPlayer("Player"), ai], 10)
    game.play(3), game.step(), game.play(1), game.step()
    assert ai.beside == [(7, 2), (4, 3)]
    in_hats = {4: [1, 2], 7: [1, 3]}  # seed 001's "content" row for these hats
    for hat, ball in ai.beside:
        balls = in_hats[hat] + [ball]
        assert Counter(balls) == Counter(b for b, c in enumerate(hats2.hat(hat), 1) for _ in range(c))
    # ... and winning puts each ball back with one more (seed 001: "two balls of the type")
    game.play(1)
    assert hats2 == hats


def test_the_driver_publishes_moves_draws_reinforcement_and_game_over():
    bus = EventBus()
    seen = []
    unsubscribe = bus.subscribe(seen.append)
    seed_000_game(bus)
    kinds = [type(e).__name__ for e in seen]
    assert kinds == ["MoveMade", "BallDrawn", "MoveMade", "MoveMade", "BallDrawn", "MoveMade", "MoveMade",
                     "HatsReinforced", "GameOver"]
    draws = [e for e in seen if isinstance(e, BallDrawn)]
    assert [(d.hat, d.ball, d.counts) for d in draws] == [(7, 2, (1, 1, 1)), (4, 3, (1, 1, 1))]
    moves = [e for e in seen if isinstance(e, MoveMade)]
    assert [(m.player, m.move, m.before, m.after) for m in moves] == [
        (0, 3, 10, 7), (1, 2, 7, 5), (0, 1, 5, 4), (1, 3, 4, 1), (0, 1, 1, 0)]
    reinforced = next(e for e in seen if isinstance(e, HatsReinforced))
    assert reinforced.won
    assert [(c.hat, c.ball, c.before, c.after, c.delta) for c in reinforced.changes] == [
        (7, 2, 1, 2, 1), (4, 3, 1, 2, 1)]
    over = seen[-1]
    assert isinstance(over, GameOver)
    assert (over.loser, over.winner, over.loser_name, over.winner_name, over.moves) == (0, 1, "Player", "AI", 5)
    unsubscribe()
    seen.clear()
    seed_000_game(bus)
    assert seen == []


def test_events_are_frozen():
    event = MoveMade(0, "a", 1, 5, 4)
    with pytest.raises(AttributeError):
        event.move = 2  # type: ignore[misc]


def test_the_driver_refuses_illegal_moves_and_moves_after_the_end():
    game = Game([HumanPlayer("a"), HumanPlayer("b")], 2)
    with pytest.raises(IllegalMove):
        game.play(3)
    assert game.state.position == 2  # nothing changed
    game.play(2)
    with pytest.raises(IllegalMove, match="over"):
        game.play(1)


def test_the_driver_waits_for_a_human():
    game = Game([HumanPlayer("a"), AlwaysOnePlayer("b")], 10)
    assert game.waiting_for_human
    with pytest.raises(RuntimeError):
        game.step()
    game.play(2)
    assert not game.waiting_for_human
    game.step()
    assert game.state.position == 7


def test_a_loss_really_removes_a_ball_through_the_player():
    hats = Hats(10)
    hats.counts[5] = [1, 4, 1]
    # the AI faces 5 and draws ball 2 (r = 1 falls in the 4 balls numbered 2), then faces 1 and loses
    ai = HatPlayer("AI", hats, ScriptedRng([(6, 1), (1, 0)]))
    game = Game([ai, HumanPlayer("you")], 5)
    game.step()
    game.play(2)
    game.step()
    assert game.state.loser == 0
    assert hats.hat(5) == (1, 3, 1)
    assert hats.hat(1) == (1,)  # the last ball of a number stays


def test_a_player_that_does_not_learn_leaves_its_hats_alone():
    hats = Hats(10)
    before = hats.counts.copy()
    rng = XorShift64Star(1)
    for g in range(50):
        Game([HatPlayer("ai", hats, rng, learn=False), RandomPlayer("r", random.Random(g))], 10).play_to_end()
    assert (hats.counts == before).all()


def test_abandoning_a_game_learns_nothing():
    hats = Hats(10)
    ai = HatPlayer("AI", hats, XorShift64Star(2))
    game = Game([ai, HumanPlayer("you")], 10)
    game.step()
    assert ai.beside
    game.abandon()
    assert ai.beside == []
    assert hats == Hats(10)


def test_hat_player_refuses_a_heap_bigger_than_its_hats():
    ai = HatPlayer("AI", Hats(10), XorShift64Star(2))
    with pytest.raises(ValueError, match="hats up to 10"):
        ai.choose(new_game(11))


def test_a_game_has_two_players():
    with pytest.raises(ValueError):
        Game([HumanPlayer("a")], 10)
