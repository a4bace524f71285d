"""One analysis for every registered game (issue 32 item 2): `learn.analysis.analyse_brain`, written once against
the game API, held against each game's solver through the registry (no game named here)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from sticks_tui.engine import registry
from sticks_tui.learn.analysis import CurveScorer, analyse_brain
from sticks_tui.solve.sticks_hats import analyse
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.tables import game_tables
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.solve import solver_for

GAMES = registry.names()


def small_rules(entry):
    """The game's rules as its learning AI's brain has them (Nim's piles up to 3: small and quick)."""
    return entry.brain_rules(12, 3, (3, 3, 3))


def brain_of(entry, seat=None) -> Hats:
    return Hats(small_rules(entry), rule=HatRule(**entry.learner_settings), seat=seat)


def perfect_brain(entry) -> Hats:
    """Every container holds only a move that keeps its position's value (from the tables, not the analysis)
    where there is one: it plays perfectly."""
    brain = brain_of(entry)
    tables = game_tables(brain.rules)
    for position in brain.positions:
        row = brain.row(position)
        p = tables.index[position]
        keeps = {m for j, m in enumerate(tables.moves[p]) if tables.perfect[p, j]}
        moves = brain.moves_of(position)
        best = next((k for k in moves if k in keeps), None)
        brain.counts[row, : len(moves)] = [1 if best is None else 40 if m == best else 0 for m in moves]
    return brain


@lru_cache(maxsize=None)
def perfect_analysis(game: str):
    """(the perfect brain of `game`, its analysis), made once for the tests below."""
    brain = perfect_brain(registry.entry(game))
    return brain, analyse_brain(brain)


@pytest.mark.parametrize("game", GAMES)
def test_every_container_is_held_against_the_solver(game):
    entry = registry.entry(game)
    brain, result = perfect_analysis(game)
    solver = solver_for(brain.rules)
    assert [v.position for v in result.positions] == list(brain.positions)  # as the brain encodes them
    for v in result.positions:
        assert v.counts == brain.hat(v.position) and v.moves == brain.moves_of(v.position)
        assert v.winning == solver.is_winning(v.position)
        if v.winning:  # the perfect moves are the solver's winning moves the container counts
            assert v.perfect == tuple(m for m in v.moves if m in solver.winning_moves(v.position))
        assert v.likeliest == brain.best_move(v.position)
        assert sum(v.probabilities) == pytest.approx(1.0)
    assert result.agreement == 1.0 and result.disagreeing == () and result.plays_perfectly
    assert result.winning_positions == sum(v.winning for v in result.positions) > 0
    starts = brain.rules.start_positions()[0]
    for seat in result.seats:  # a perfect learner against the perfect player: the start's value, exactly
        win, draw, loss = seat.vs_perfect
        value = int(game_tables(brain.rules).value[game_tables(brain.rules).index[starts]])
        mine = value if seat.seat == 0 else -value
        assert (win, draw, loss) == pytest.approx((float(mine > 0), float(mine == 0), float(mine < 0)))
    assert [s.seat for s in result.seats] == [0, 1]
    assert result.scope == entry.scope_words(brain.rules) and result.game == entry.game_words(brain.rules)


@pytest.mark.parametrize("game", GAMES)
def test_one_wrong_container_is_named_and_counted(game):
    entry = registry.entry(game)
    brain = perfect_brain(entry)
    solver = solver_for(brain.rules)
    # a winning position with a losing move too: make the learner prefer the losing one
    position = next(p for p in brain.positions
                    if solver.is_winning(p) and set(brain.moves_of(p)) - set(solver.winning_moves(p)))
    moves = brain.moves_of(position)
    bad = next(m for m in moves if m not in solver.winning_moves(position))
    brain.counts[brain.row(position), : len(moves)] = [90 if m == bad else 1 for m in moves]
    result = analyse_brain(brain)
    assert result.disagreeing == (position,)
    assert result.agreement == pytest.approx(1 - 1 / result.winning_positions)
    # the learning curve's agreement is the same figure (one meaning per word)
    assert result.agreement == pytest.approx(CurveScorer.for_brain(brain).agreement(brain.counts))
    verdict = next(v for v in result.positions if v.position == position)
    assert (verdict.likeliest, verdict.agrees) == (bad, False)
    for seat in result.seats:  # where the game says whose turn it is, only that seat's agreement drops
        if verdict.seat is None:
            assert seat.agreement is None and seat.disagreeing == (position,)
        elif seat.seat == verdict.seat:
            assert seat.disagreeing == (position,)
            assert seat.agreement == pytest.approx(1 - 1 / seat.winning_positions)
        else:
            assert (seat.agreement, seat.disagreeing) == (1.0, ())


@pytest.mark.parametrize("game", [name for name in GAMES if getattr(registry.entry(name).make_rules(), "mover", None)])
def test_a_brain_of_one_seat_has_the_figures_of_that_seat_only(game):
    """MENACE's X boxes, HER's Black ones: the figures are that seat's, over the positions it moves in."""
    entry = registry.entry(game)
    for seat in (0, 1):
        brain = brain_of(entry, seat)
        result = analyse_brain(brain)
        assert [s.seat for s in result.seats] == [seat]
        assert all(v.seat == seat for v in result.positions)
        assert result.seats[0].agreement == result.agreement


def test_sticks_figures_are_those_of_the_sticks_analysis():
    """The general analysis of a sticks brain gives the very figures the sticks analysis did, at heap 20 of a
    brain of 100 hats (its hats above 20 are not part of them)."""
    sticks = registry.names()[0]
    brain = train(TrainingConfig(sticks=20, games=3000, seed=3), brain=Hats(100)).brain
    old = analyse(brain.counts, brain.max_take, heap=20)
    rules = registry.entry(sticks).make_rules(20, brain.max_take)
    new = analyse_brain(brain, rules)
    assert [v.position for v in new.positions] == list(range(1, 21))
    assert new.agreement == old.agreement and new.disagreeing == old.disagreeing
    first, second = new.seats
    assert first.agreement is None and second.agreement is None  # one hat for both seats: one agreement
    assert first.vs_perfect[0] == pytest.approx(old.win_vs_perfect_first)
    assert second.vs_perfect[0] == pytest.approx(old.win_vs_perfect_second)
    assert first.vs_random[0] == pytest.approx(old.win_vs_random_first)
    assert second.vs_random[0] == pytest.approx(old.win_vs_random_second)
    assert new.rule == old.rule
    assert (new.scope, new.game) == ("heaps 2-20", "a game of 20 sticks")
    for a, b in zip(new.positions, old.hats, strict=True):
        assert a.counts == b.counts and a.winning == b.winning and a.agrees == b.agrees
        assert a.perfect == (b.optimal_moves if b.winning else ())


def test_a_game_with_draws_names_its_drawing_moves_and_the_draws_kept():
    """Noughts and crosses: most positions are drawn; their perfect moves are the moves that keep the draw."""
    for game in GAMES:
        brain, result = perfect_analysis(game)
        if not result.draws:
            assert result.drawn_kept is None and result.drawn_positions == 0
            continue
        drawn = [v for v in result.positions if v.value == 0]
        assert drawn and result.drawn_positions == len(drawn) and result.drawn_kept == 1.0
        tables = game_tables(brain.rules)
        for v in drawn:
            p = tables.index[v.position]
            after = [tables.next_pos[p, j] for j, m in enumerate(tables.moves[p]) if m in v.perfect]
            assert after and all(n < 0 or tables.value[n] == 0 for n in after)  # each keeps the draw


def test_a_brain_that_does_not_fit_the_game_is_refused():
    sticks = registry.entry(registry.names()[0])
    with pytest.raises(ValueError, match="cannot train"):
        analyse_brain(Hats(10), sticks.make_rules(20, 3))
    assert np.asarray(Hats(10).counts).shape[0] == 11
