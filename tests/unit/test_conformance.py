"""Every game of the protocol goes through the same checks (issue 8): random play ends, every move
played is legal, the generic solver agrees with the game's own solver and its known rule. (The compiled loop and the
readable learner leave bit-identical counts for every game and rule option: `test_one_loop.py`.)"""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

import pytest

from sticks_tui.engine import registry
from sticks_tui.play.game import GameDriver
from sticks_tui.engine.state import new_state
from sticks_tui.engine.nim import NimRules
from sticks_tui.play.players import PerfectPlayer, RandomPlayer
from sticks_tui.engine.protocol import GameRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.solve import solver_for
from sticks_tui.solve.generic import GenericSolution

GAMES = [SticksRules(12, 1), SticksRules(15, 2), SticksRules(21, 3), SticksRules(17, 5),
         NimRules((3, 3, 3)), NimRules((2, 4, 1)), NimRules((0, 5, 5))]
IDS = [repr(g) for g in GAMES]
#: Every game the registry lists, at its default size: a new game is held to the protocol by being registered.
REGISTERED = [registry.entry(name) for name in registry.names()]
REGISTERED_RULES = [game.rules_from() for game in REGISTERED]
REGISTERED_IDS = [f"registered-{game.name}" for game in REGISTERED]


def known_rule_says_lost(rules, position) -> bool:
    """The rule each game is known by: sticks n % (k + 1) == 1; Nim n ^ d ^ q == 0."""
    if isinstance(rules, SticksRules):
        return position % (rules.max_take + 1) == 1
    return reduce(xor, position) == 0


@pytest.mark.parametrize("rules", GAMES + REGISTERED_RULES, ids=IDS + REGISTERED_IDS)
def test_the_game_follows_the_protocol(rules):
    assert isinstance(rules, GameRules)
    positions = tuple(rules.positions())
    assert positions and len(set(positions)) == len(positions)
    assert all(not rules.is_terminal(p) and rules.legal_moves(p) for p in positions)
    assert set(rules.start_positions()) <= set(positions)
    # a learner keeps a container for every position with a choice (a forced move may have one too)
    rows = {p for p in rules.hat_rows() if p is not None}
    assert rows <= set(positions) and all(len(rules.legal_moves(p)) == 1 for p in set(positions) - rows)
    known = set(positions)
    for p in positions:  # a move always leads to a position of the instance or to the end, never both
        for m in rules.legal_moves(p):
            after = rules.apply(p, m)
            assert (after in known) is not rules.is_terminal(after), (p, m, after)


@pytest.mark.parametrize("rules", GAMES + REGISTERED_RULES, ids=IDS + REGISTERED_IDS)
def test_random_play_always_ends_with_legal_moves(rules):
    rng = random.Random(7)
    positions = tuple(rules.positions())
    bound = len(positions) + 1
    for start in positions:
        position, moves = start, 0
        while not rules.is_terminal(position):
            legal = tuple(rules.legal_moves(position))
            move = rng.choice(legal)
            assert move in legal
            position = rules.apply(position, move)
            moves += 1
            assert moves <= bound


@pytest.mark.parametrize("rules", GAMES, ids=IDS)
def test_engine_games_between_the_generic_players_end_legally(rules):
    for seed in range(20):
        players = [RandomPlayer("r", random.Random(seed)), PerfectPlayer("p")]
        if seed % 2:
            players.reverse()
        start = rules.start_positions()[0]
        game = GameDriver(players, new_state(rules, start))
        while not game.is_over:
            before = game.state
            move = game.current.choose(before)
            assert move in tuple(before.legal_moves)
            game.play(move)
        assert game.state.winner in (0, 1)
        perfect_seat = 1 if seed % 2 == 0 else 0
        if perfect_seat == 0 and solver_for(rules).is_winning(start):
            assert game.state.winner == perfect_seat  # the perfect player never throws a won game


@pytest.mark.parametrize("rules", GAMES, ids=IDS)
def test_the_generic_solver_agrees_with_the_games_own_solver_and_rule(rules):
    generic = GenericSolution(rules)
    own = solver_for(rules)
    assert not isinstance(own, GenericSolution)  # each game here has a solver of its own
    for p in rules.positions():
        assert tuple(generic.winning_moves(p)) == tuple(own.winning_moves(p)), p
        assert generic.is_winning(p) == own.is_winning(p) == (not known_rule_says_lost(rules, p))
        # a perfect move from a winning position leaves a lost one (or wins outright)
        if own.is_winning(p):
            after = rules.apply(p, own.perfect_move(p))
            if rules.is_terminal(after):  # it took the last: a win only where the last mover wins
                assert rules.last_mover_wins, p
            else:
                assert not own.is_winning(after), p
