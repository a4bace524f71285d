"""Nim's game state, players and driver: the same protocol and events as sticks."""

from __future__ import annotations

import random

import numpy as np

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticks_tui.engine.events import GameOver, MoveMade
from sticks_tui.play.game import NimGame
from sticks_tui.engine.nim import NimRules, new_nim_game
from sticks_tui.play.players import HatPlayer as NimHatPlayer
from sticks_tui.play.players import HumanPlayer as NimHumanPlayer
from sticks_tui.play.players import PerfectPlayer as NimPerfectPlayer
from sticks_tui.play.players import Player
from sticks_tui.play.players import RandomPlayer as NimRandomPlayer
from sticks_tui.engine.rules import IllegalMove
from sticks_tui.learn.hats import Hats as StateHats
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.solve.nim import is_winning


def test_a_move_returns_a_new_state():
    s = new_nim_game((2, 2, 1))
    t = s.play((2, 1))
    assert s.position == (2, 2, 1) and t.position == (2, 2, 0)
    assert t.to_move == 1 and len(t.history) == 1
    assert t.history[0].move == (2, 1) and t.history[0].after == (2, 2, 0)
    assert t.start == (2, 2, 1)
    with pytest.raises(AttributeError):
        t.position = (0, 0, 0)  # frozen


def test_legal_moves_are_every_pile_and_count():
    assert new_nim_game((1, 0, 2)).legal_moves == ((0, 1), (2, 1), (2, 2))
    assert len(new_nim_game((3, 4, 5)).legal_moves) == 12


def test_whoever_takes_the_last_coin_wins():
    s = new_nim_game((1, 1, 0), first=1).play((0, 1))
    assert not s.is_over and s.winner is None and s.loser is None
    s = s.play((1, 1))
    assert s.is_over and s.winner == 0 and s.loser == 1


@pytest.mark.parametrize("pile, coins, message", [
    (3, 1, "Choose pile 0"),
    (-1, 1, "Choose pile 0"),
    (True, 1, "Choose pile 0"),
    (0, 0, "at least one coin"),
    (0, -2, "at least one coin"),
    (0, 3, "Cannot take 3 nickels: only 2 nickels left"),
    (1, 1.0, "whole number"),
    (2, 1, "quarters pile is empty"),
])
def test_illegal_moves_say_why(pile, coins, message):
    s = new_nim_game((2, 1, 0))
    with pytest.raises(IllegalMove, match=message):
        s.play((pile, coins))
    assert not s.is_legal((pile, coins))


def test_no_move_after_the_end():
    s = new_nim_game((0, 1, 0)).play((1, 1))
    with pytest.raises(IllegalMove, match="game is over"):
        s.play((1, 1))


@pytest.mark.parametrize("piles, message", [
    ((0, 0, 0), "at least one coin"), ((101, 1, 1), "at most 100"), ((1, -1, 1), "cannot hold"),
    ((1, 2), "three piles"), (("a", 1, 1), "whole number")])
def test_bad_starts(piles, message):
    with pytest.raises(IllegalMove, match=message):
        new_nim_game(piles)


def test_players_share_the_sticks_protocol():
    hats = StateHats(NimRules((3, 3, 3)))
    players = [NimHumanPlayer("you"), NimPerfectPlayer("perfect"), NimRandomPlayer("random", random.Random(1)),
               NimHatPlayer("hats", hats, XorShift64Star(1))]
    for p in players:
        assert isinstance(p, Player)
        assert hasattr(p, "seat") and isinstance(p.name, str)
    assert [p.is_human for p in players] == [True, False, False, False]
    with pytest.raises(RuntimeError):
        players[0].choose(new_nim_game((1, 1, 1)))


def test_perfect_player_wins_or_takes_one_from_the_largest_pile():
    p = NimPerfectPlayer("p")
    assert p.choose(new_nim_game((2, 2, 1))) == (2, 1)
    assert p.choose(new_nim_game((3, 3, 7))) == (2, 7)
    assert p.choose(new_nim_game((1, 2, 3))) == (2, 1)


def test_game_driver_waits_for_the_human_and_publishes_events():
    events = []
    game = NimGame([NimHumanPlayer("you"), NimPerfectPlayer("AI")], (2, 2, 1))
    game.bus.subscribe(events.append)
    assert game.waiting_for_human
    with pytest.raises(RuntimeError):
        game.step()
    with pytest.raises(IllegalMove):
        game.play((0, 5))
    game.play((0, 1))  # a mistake: (1, 2, 1)
    assert not game.waiting_for_human
    game.step()
    assert events[0] == MoveMade(0, "you", (0, 1), (2, 2, 1), (1, 2, 1))
    assert isinstance(events[1], MoveMade) and events[1].player == 1
    assert not is_winning(*game.state.position)  # the AI left the person a lost position
    while not game.is_over:
        if game.waiting_for_human:
            game.play(game.state.legal_moves[0])
        else:
            game.step()
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.winner == 1 and over.winner_name == "AI" and over.moves == len(game.state.history)
    with pytest.raises(IllegalMove, match="game is over"):
        game.play((0, 1))


def test_hat_player_learns_and_forgets():
    hats = StateHats(NimRules((2, 2, 1)))
    events = []
    from sticks_tui.engine.events import BallDrawn, EventBus, HatsReinforced

    bus = EventBus()
    bus.subscribe(events.append)
    ai = NimHatPlayer("hats", hats, XorShift64Star(3), bus=bus)
    game = NimGame([ai, NimPerfectPlayer("perfect")], (2, 2, 1), bus=bus)
    before = hats.counts.copy()
    game.play_to_end()
    drawn = [e for e in events if isinstance(e, BallDrawn)]
    reinforced = [e for e in events if isinstance(e, HatsReinforced)]
    assert drawn and drawn[0].hat == (2, 2, 1) and drawn[0].counts == (1, 1, 1, 1, 1)
    assert drawn[0].ball in new_nim_game((2, 2, 1)).legal_moves
    assert len(reinforced) == 1 and len(reinforced[0].changes) == len(drawn)
    # seed 3 loses to the perfect player; every ball it drew was the only one of its number, so the
    # floor keeps each at 1 and the hats end as they began
    assert reinforced[0].won is False and game.state.winner == 1
    assert [(c.before, c.after) for c in reinforced[0].changes] == [(1, 1)] * len(drawn)
    assert np.array_equal(hats.counts, before)
    game2 = NimGame([ai, NimRandomPlayer("r", random.Random(0))], (2, 2, 1))
    game2.step()
    assert ai.beside
    game2.abandon()
    assert ai.beside == []


def test_hat_player_refuses_piles_it_has_no_hat_for():
    ai = NimHatPlayer("hats", StateHats(NimRules((2, 2, 2))), XorShift64Star(1))
    with pytest.raises(ValueError, match="no hat"):
        ai.choose(new_nim_game((3, 0, 0)))


piles_strategy = st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12)).filter(lambda p: sum(p) > 0)


@settings(max_examples=60, deadline=None)
@given(piles=piles_strategy, seed=st.integers(0, 2**32), first=st.integers(0, 1))
def test_random_games_end_and_conserve_coins(piles, seed, first):
    game = NimGame([NimRandomPlayer("a", random.Random(seed)), NimRandomPlayer("b", random.Random(seed + 1))],
                   piles, first=first)
    game.play_to_end()
    s = game.state
    assert s.is_over and s.position == (0, 0, 0)
    assert sum(t.move[1] for t in s.history) == sum(piles)  # every coin taken exactly once
    for t, u in zip(s.history, s.history[1:], strict=False):
        assert t.after == u.before and t.player != u.player
    assert len(s.history) <= sum(piles)
    assert s.winner == s.history[-1].player


@settings(max_examples=60, deadline=None)
@given(piles=piles_strategy, seed=st.integers(0, 2**32), first=st.integers(0, 1))
def test_perfect_player_always_wins_from_a_winning_position(piles, seed, first):
    perfect = NimPerfectPlayer("perfect")
    players = [perfect, NimRandomPlayer("random", random.Random(seed))]
    if first == 1:
        players.reverse()
    game = NimGame(players, piles)
    game.play_to_end()
    perfect_seat = players.index(perfect)
    # the perfect player faces a winning position if it starts in one, or if it moves second
    # from a position that is lost for the first mover (every random move hands it a win)
    faces_a_win = is_winning(*piles) if perfect_seat == 0 else not is_winning(*piles)
    if faces_a_win:
        assert game.state.winner == perfect_seat
