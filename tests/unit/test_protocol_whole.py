"""The protocol describes a game whole (issue 17 item 1): outcome, words, and encoding of positions
and moves, for every game; one generic state and one move event serve them all."""

from __future__ import annotations

import json

import pytest

from sticks_tui.engine import registry
from sticks_tui.engine.events import EventBus, MoveMade
from sticks_tui.play.game import GameDriver
from sticks_tui.engine.nim import NimRules
from sticks_tui.play.players import PerfectPlayer, RandomPlayer
from sticks_tui.engine.protocol import DRAW, LOSS, WIN, move_outcome, mover_wins
from sticks_tui.engine.rules import IllegalMove, SticksRules
from sticks_tui.engine.state import new_state

RULES = [SticksRules(12, 3), SticksRules(9, 5), NimRules((2, 3, 1)), NimRules((3, 3, 3))]


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_positions_and_moves_survive_json_and_back(rules):
    for position in rules.positions():
        value = json.loads(json.dumps(rules.encode_position(position)))
        assert rules.decode_position(value) == position
        for move in rules.legal_moves(position):
            encoded = json.loads(json.dumps(rules.encode_move(move)))
            assert rules.decode_move(position, encoded) == move
            assert rules.move_text(position, move).startswith("take ")
        assert rules.position_text(position)


def test_outcome_is_for_the_last_mover():
    assert SticksRules(5).outcome(0) == LOSS  # whoever takes the last stick loses
    assert NimRules().outcome((0, 0, 0)) == WIN  # whoever takes the last coin wins
    assert move_outcome(SticksRules(5), 1, 1) == LOSS and move_outcome(SticksRules(5), 3, 1) is None
    assert move_outcome(NimRules(), (0, 2, 0), (1, 2)) == WIN
    assert mover_wins(SticksRules(5), 1, 1) is False and mover_wins(NimRules(), (1, 0, 0), (0, 1)) is True
    assert DRAW == 0


@pytest.mark.parametrize("rules, value, message", [
    (SticksRules(10), 11, "from 0 to 10"), (SticksRules(10), True, "whole number"),
    (NimRules((3, 3, 3)), [1, 2], "three piles"), (NimRules((3, 3, 3)), [4, 0, 0], "at most 3"),
    (NimRules((3, 3, 3)), "1,2,3", "three piles"),
])
def test_decoding_a_position_that_is_not_one_says_why(rules, value, message):
    with pytest.raises(ValueError, match=message):
        rules.decode_position(value)


@pytest.mark.parametrize("rules, position, value, message", [
    (SticksRules(10), 2, 3, "only 2 sticks left"), (SticksRules(10), 5, 4, "between 1 and 3"),
    (SticksRules(10), 0, 1, "game is over"), (NimRules(), (1, 0, 2), [1, 1], "dimes pile is empty"),
    (NimRules(), (1, 0, 2), 5, "pile and a number"),
])
def test_decoding_an_illegal_move_says_why(rules, position, value, message):
    with pytest.raises(IllegalMove, match=message):
        rules.decode_move(position, value)


def test_the_registry_names_each_game_and_finds_it_by_its_rules():
    assert set(registry.names()) >= {"sticks", "nim"}
    assert registry.name_of(SticksRules(4)) == "sticks" and registry.name_of(NimRules()) == "nim"
    with pytest.raises(ValueError, match="not 'chess'"):
        registry.entry("chess")


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_one_driver_and_one_move_event_for_every_game(rules):
    seen = []
    bus = EventBus()
    bus.subscribe(seen.append)
    import random

    game = GameDriver([RandomPlayer("r", random.Random(1)), PerfectPlayer("p")], new_state(rules), bus)
    game.play_to_end()
    moves = [e for e in seen if isinstance(e, MoveMade)]
    assert [(m.player, m.move, m.before, m.after) for m in moves] == \
        [(t.player, t.move, t.before, t.after) for t in game.state.history]
    assert game.state.loser is not None and game.state.winner == 1 - game.state.loser
