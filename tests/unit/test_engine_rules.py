"""The rules of the Game of Sticks: legal moves, illegal moves and their messages, who loses."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sticks_tui.engine.state import GameState
from sticks_tui.engine.rules import (
    DEFAULT_MAX_TAKE,
    IllegalMove,
    SticksRules,
    legal_moves,
    new_game,
    parse_heap,
)


@pytest.mark.parametrize(("heap", "max_take", "expected"), [
    (10, 3, [1, 2, 3]), (3, 3, [1, 2, 3]), (2, 3, [1, 2]), (1, 3, [1]), (0, 3, []),
    (10, 1, [1]), (10, 5, [1, 2, 3, 4, 5]), (4, 6, [1, 2, 3, 4]),
])
def test_legal_moves_are_one_to_min_of_max_take_and_heap(heap, max_take, expected):
    assert list(legal_moves(heap, max_take)) == expected
    assert list(GameState(SticksRules(max(heap, 1), max_take), heap).legal_moves) == expected


def test_default_max_take_is_three():
    assert DEFAULT_MAX_TAKE == 3
    assert list(new_game(20).legal_moves) == [1, 2, 3]


def test_a_move_returns_a_new_state_and_leaves_the_old_one_alone():
    start = new_game(10)
    after = start.play(3)
    assert (start.position, start.to_move, start.history) == (10, 0, ())
    assert (after.position, after.to_move) == (7, 1)
    assert after.history[-1].move == 3 and after.history[-1].player == 0
    assert after.history[-1].before == 10 and after.history[-1].after == 7
    assert after.start == 10
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.position = 3  # type: ignore[misc]


def test_seed_000_example_1_player_2_takes_the_last_stick_and_loses():
    state = new_game(10)
    for take in (3, 3, 3, 1):
        assert not state.is_over and state.loser is None
        state = state.play(take)
    assert state.is_over
    assert state.loser == 1 and state.winner == 0


def test_seed_000_jamie_and_dakota_dakota_takes_the_final_stick():
    state = new_game(20)
    for take in (3, 2, 1, 3, 2, 2, 3, 1, 2):
        state = state.play(take)
    assert state.position == 1 and state.to_move == 1  # Dakota has to take the final stick
    state = state.play(1)
    assert state.loser == 1


def test_who_moves_first_is_a_parameter():
    state = new_game(2, first=1).play(2)
    assert state.loser == 1


@pytest.mark.parametrize(("state", "take", "message"), [
    (new_game(10), 0, "Please enter a number between 1 and 3."),
    (new_game(10), 4, "Please enter a number between 1 and 3."),
    (new_game(10), 55, "Please enter a number between 1 and 3."),
    (new_game(10), -1, "Please enter a number between 1 and 3."),
    (new_game(2), 3, "Cannot take 3 sticks: only 2 sticks left."),
    (new_game(1), 2, "Cannot take 2 sticks: only 1 stick left."),
    (new_game(1), 5, "Please enter a number between 1 and 1."),
    (new_game(10, max_take=5), 6, "Please enter a number between 1 and 5."),
])
def test_illegal_moves_raise_illegal_move_with_a_readable_message(state, take, message):
    with pytest.raises(IllegalMove) as caught:
        state.play(take)
    assert str(caught.value) == message


@pytest.mark.parametrize("take", ["2", 2.0, True, None])
def test_a_move_must_be_a_whole_number(take):
    with pytest.raises(IllegalMove, match="whole number"):
        new_game(10).play(take)


def test_no_move_once_the_game_is_over():
    over = new_game(1).play(1)
    with pytest.raises(IllegalMove, match="game is over"):
        over.play(1)
    assert not over.is_legal(1)


def test_illegal_move_is_a_value_error_so_callers_can_catch_either():
    assert issubclass(IllegalMove, ValueError)


@pytest.mark.parametrize(("heap", "match"), [(0, "at least one stick"), (-3, "at least one stick"),
                                             (2.5, "whole number"), ("10", "whole number")])
def test_new_game_refuses_impossible_heaps(heap, match):
    with pytest.raises(IllegalMove, match=match):
        new_game(heap)


def test_is_legal_agrees_with_take():
    state = new_game(2)
    assert [m for m in range(-1, 6) if state.is_legal(m)] == [1, 2]


@pytest.mark.parametrize(("text", "value"), [("10", 10), (" 50 ", 50), ("100", 100)])
def test_parse_heap_accepts_10_to_100(text, value):
    assert parse_heap(text) == value


@pytest.mark.parametrize("text", ["500", "3", "9", "101", "ten", "", "4.5"])
def test_parse_heap_gives_seed_000s_message(text):
    with pytest.raises(ValueError, match=r"^Please enter a number between 10 and 100\.$"):
        parse_heap(text)


# -- properties ----------------------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(heap=st.integers(1, 200), max_take=st.integers(1, 7), first=st.integers(0, 1), seed=st.integers(0, 2**32))
def test_every_game_ends_conserves_sticks_and_the_last_taker_loses(heap, max_take, first, seed):
    """The takes are chosen by a generator seeded by hypothesis (a draw of hypothesis's own for each of up to 200
    moves cost about 1.5 CPU s over the 150 examples)."""
    choose = random.Random(seed).choice
    state = new_game(heap, first=first, max_take=max_take)
    moves = 0
    while not state.is_over:
        legal = list(state.legal_moves)
        assert legal == list(range(1, min(max_take, state.position) + 1))
        take = choose(legal)
        mover = state.to_move
        state = state.play(take)
        moves += 1
        assert moves <= heap  # every move takes at least one stick, so the game ends
    assert sum(m.move for m in state.history) == heap
    assert state.position == 0
    assert state.loser == mover == state.history[-1].player
    assert state.winner == 1 - mover
    # players alternate, starting with `first`
    assert [m.player for m in state.history] == [(first + i) % 2 for i in range(moves)]


@settings(max_examples=100, deadline=None)
@given(heap=st.integers(1, 50), max_take=st.integers(1, 6), take=st.integers(-5, 60))
def test_a_take_is_legal_exactly_when_it_is_between_one_and_the_limit(heap, max_take, take):
    state = new_game(heap, max_take=max_take)
    if 1 <= take <= min(heap, max_take):
        assert state.play(take).position == heap - take
    else:
        with pytest.raises(IllegalMove):
            state.play(take)
