"""The learning lab (issue 20): learners on one interface, exact mastery, the trainer's own hats."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.lab import LabConfig, LabError, Mastery, lab_game, parse_learner, preference, run_learner
from sticks_tui.learn.lab_players import is_unbeatable, train_readable
from sticks_tui.learn.trainer import TrainingConfig, train

pytestmark = pytest.mark.slow  # the lab kernel compiles (or loads numba's cache) on first use


def flat(g, counts) -> np.ndarray:
    """A brain's counts flat over the lab's containers' cells (as the lab reads a preference)."""
    pref = np.zeros((g.rows, g.width))
    pref[:, : counts.shape[1]] = counts
    return pref.ravel()


@pytest.mark.parametrize("text", [
    "hats", "hats:start=3,reward=3,penalty=1,draw=-1,floor=nonempty", "hats:draw=2,vs=perfect", "hats:table=one",
    "q", "q:alpha=0.5,epsilon=0.1", "qseat:alpha=1,epsilon=0.3", "qseat:vs=random", "mc", "mc:alpha=0.2,vs=perfect"])
@pytest.mark.parametrize("game,size,games", [("sticks", 20, 300), ("nim", 2, 200), ("noughts", None, 30)])
def test_kernel_plays_as_the_readable_players(text, game, size, games):
    """Same seed, same stream: the compiled lab leaves the very hats / values the protocol players leave
    (one player object in both seats for q and the shared hats), and finds mastery (the unbeatable check,
    written again from the definition over the rules and the solver: `is_unbeatable`) at the same game.
    (Self-play hats without the lab: `test_one_loop.py`.)"""
    g = lab_game(game, size)
    spec = parse_learner(text)
    run = run_learner(spec, g, 7, games, points=[games])
    player, mastery = train_readable(spec, g, 7, games)
    assert np.array_equal(preference(spec, g, run.state), player.preference)
    assert run.mastery == mastery


@pytest.mark.parametrize("rule,text", [(HatRule(), "hats"), (HatRule(3, 3, 1), "hats:start=3,reward=3,penalty=1")])
def test_hats_in_the_lab_are_the_trainers_hats(rule, text):
    """A plain training run with the same seed, as long as the lab took to mastery, leaves the same
    two brains, mastered exactly then and not one game earlier."""
    g = lab_game("sticks", 20)
    run = run_learner(parse_learner(text), g, 5, 20_000, points=[20_000])
    first = run.mastery[2]
    assert first is not None and first > 0
    at = train(TrainingConfig(sticks=20, games=first, seed=5, curve=False), Hats(20, rule=rule))
    before = train(TrainingConfig(sticks=20, games=first - 1, seed=5, curve=False), Hats(20, rule=rule))
    assert is_unbeatable(g, flat(g, at.brain.counts), 2)
    assert not is_unbeatable(g, flat(g, before.brain.counts), 2)
    again = run_learner(parse_learner(text), g, 5, first, points=[first])
    assert np.array_equal(again.state["a"].counts, at.brain.counts)
    assert np.array_equal(again.state["b"].counts, at.opponent.counts)


def test_the_trainers_hats_are_never_mastered_before_the_labs_first_game():
    """Game by game: the lab's first mastered game is the first at which the plain trainer's brain is."""
    g = lab_game("sticks", 12)
    run = run_learner(parse_learner("hats"), g, 3, 5_000, points=[5_000])
    first = run.mastery[2]
    assert first is not None
    mastered = [is_unbeatable(g, flat(g, train(TrainingConfig(sticks=12, games=n, seed=3, curve=False)).brain.counts), 2)
                for n in range(first + 1)]
    assert mastered.index(True) == first


@pytest.mark.parametrize("text", ["hats", "hats:start=3,reward=3,penalty=1", "hats:table=one", "q", "qseat",
                                  "qseat:alpha=1,epsilon=0.1", "mc", "hats:vs=perfect", "qseat:vs=perfect",
                                  "mc:vs=perfect"])
def test_each_learner_masters_sticks_at_20(text):
    """Each within 20,000 games (seed 1: the latest, hats:start=3,reward=3,penalty=1 at 5,228; a cap of 200,000
    played ten times as many games for the same masteries, ~1.1 CPU s more over the ten)."""
    g = lab_game("sticks", 20)
    run = run_learner(parse_learner(text), g, 1, 20_000)
    assert run.mastery[2] is not None
    assert run.curve[-1].agreement == 1.0


def test_the_curve_is_exact_and_log_spaced():
    g = lab_game("sticks", 20)
    run = run_learner(parse_learner("qseat:vs=perfect"), g, 2, 1000)
    assert [p.games for p in run.curve] == [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700,
                                            1000]
    # a mastered greedy learner from heap 20 (a winning heap) wins every game moving first, and the
    # perfect player wins every game it starts from there
    assert run.mastery[2] is not None and run.mastery[2] <= 1000
    assert run.curve[-1].win_first == 1.0 and run.curve[-1].win_second == 0.0


def test_noughts_scores_draws_as_not_losing():
    g = lab_game("noughts")
    assert g.has_draws
    run = run_learner(parse_learner("qseat:vs=perfect"), g, 1, 3000, points=[3000])
    point = run.curve[-1]
    assert point.win_first == 0.0 and point.win_second == 0.0  # nobody beats the perfect player
    assert point.keep_first > 0.0


def test_mastery_over_seeds_by_nearest_rank():
    m = Mastery.of([10, 20, 30, None, 40, 50, 60, 70, 80, None])
    assert (m.median, m.p90, m.never) == (50, None, 2)
    assert Mastery.of([10, 20, 30, None, 40, 50, 60, 70, 80, 90]).p90 == 90
    assert Mastery.of([5, 7, 9]).as_json() == {"median": 7, "p90": 9, "never": 0}


@pytest.mark.parametrize("text,words", [
    ("sarsa", "there is no learner 'sarsa': choose hats, q, qseat, mc"),
    ("q:beta=1", "q has no setting 'beta': its settings are alpha, epsilon"),
    ("qseat:beta=1", "qseat has no setting 'beta': its settings are alpha, epsilon, vs"),
    ("q:alpha=2", "q's alpha is a number from 0 to 1, not '2'"),
    ("hats:floor=none", "hats's floor is one of each, nonempty, not 'none'"),
    ("hats:vs=friend", "hats's vs is one of self, random, best-at-random, not 'friend'"),
    ("hats:table=both", "hats's table is one of two, one, not 'both'"),
    ("hats:reward", "hats's reward needs a value"),
])
def test_bad_learners_name_the_valid_choices(text, words):
    with pytest.raises(LabError, match=words.replace("(", r"\(")):
        parse_learner(text)


def test_bad_lab_settings_name_the_valid_choices():
    hats = (parse_learner("hats"),)
    with pytest.raises(LabError, match="the cap is from 1 to 10,000,000 games a run, not 0"):
        LabConfig(learners=hats, cap=0)
    with pytest.raises(LabError, match="seeds are from 1 to 100, not 101"):
        LabConfig(learners=hats, seeds=101)
    with pytest.raises(LabError, match="there is no game 'chess': choose sticks, nim, noughts"):
        LabConfig(game="chess", learners=hats)
    with pytest.raises(LabError, match="at most 6 learners"):
        LabConfig(learners=hats * 7)


@pytest.mark.parametrize("games", [0, 30, 300, 3000])
def test_the_curve_is_the_trainers_own_figure_for_the_hats(games):
    """The lab's exact scoring of hats (agreement, chance to beat the worst perfect player from each seat)
    is the app's learning-curve figure (`CurveScorer`), for the same brain."""
    from sticks_tui.engine.rules import SticksRules
    from sticks_tui.learn.analysis import CurveScorer

    g = lab_game("sticks", 20)
    run = run_learner(parse_learner("hats"), g, 9, games, points=[games])
    point = CurveScorer.for_rules(SticksRules(20)).score(games, run.state["a"].counts)
    mine = run.curve[-1]
    assert mine.agreement == pytest.approx(point.agreement)
    assert (mine.win_first, mine.win_second) == (pytest.approx(point.win_first), pytest.approx(point.win_second))
    assert (mine.keep_first, mine.keep_second) == (pytest.approx(point.win_first), pytest.approx(point.win_second))


def test_noughts_seats_are_x_and_o_and_only_drawable_or_won_boards_are_checked():
    """The lab's noughts learners keep one container per board up to its 8 symmetries (as MENACE does,
    for both players): each is faced moving first when X is to move, and checked where X or O can hold a
    draw or force a win; its right moves are the best squares, one of each set alike by the symmetries."""
    from sticks_tui.engine.noughts import to_move
    from sticks_tui.solve.noughts import solve_noughts

    g = lab_game("noughts")  # from the empty board: moving first is playing X
    solution = solve_noughts()
    template = g.template
    assert len(template.positions) == 304 + 289
    for row, board in enumerate(template.positions):
        assert bool(g.seat_mask[row, 0]) == (to_move(board) == "X")
        assert bool(g.seat_mask[row, 1]) == (to_move(board) == "O")
        assert bool(g.checked[row]) == (solution.value(board) >= 0)
        moves = [m for j, m in enumerate(template.moves_of(board)) if g.good[row * g.width + j]]
        best = set(solution.best_squares(board)) if solution.value(board) >= 0 else set()
        assert moves == [m for m in template.moves_of(board) if m in best]


@pytest.mark.parametrize("idle", [True, False])
def test_the_apps_lab_runs_its_threads_at_idle_priority(idle):
    """The app's lab (idle=True) runs its threads at Linux's SCHED_IDLE, so key presses in the app (and a
    served class's other tabs) keep their cores; the command line's lab (idle=False) does not."""
    import os
    import threading

    if not hasattr(os, "SCHED_IDLE"):
        pytest.skip("SCHED_IDLE is Linux's")
    from sticks_tui.learn.lab import run_lab

    policies: list[int] = []
    before = set(threading.enumerate())  # (a cancelled lab's threads finish their run on their own)

    def progress(done: int, total: int) -> None:
        if not policies:  # the pool is up, with runs still to go
            policies.extend(os.sched_getscheduler(t.native_id) for t in threading.enumerate()
                            if t.name.startswith("lab") and t not in before)

    # cancelled once seen: at idle priority on a loaded machine the rest of the lab would wait its turn
    run_lab(LabConfig("sticks", 30, (parse_learner("hats"),), seeds=6, cap=500, workers=2), progress,
            cancelled=lambda: bool(policies), idle=idle)
    assert len(policies) == 2
    assert policies == [os.SCHED_IDLE if idle else os.SCHED_OTHER] * 2


@pytest.mark.parametrize("game,size", [("noughts", None), ("sticks", 12)])
def test_the_curves_packed_figures_are_the_whole_tables_to_the_last_bit(game, size):
    """The lab's curve reads a packed layout of only the sides its figures need (`tables.curve_layout`): on tables
    at random (zeros among them: empty containers, resigning or refilled) and trained ones, each policy, the six
    figures are those of the whole table (`chances_both`, every side worked out) to the last bit; and the curve's
    agreement, from the loop's count of wrong rows, is `agreement` worked out from the counts."""
    from sticks_tui.learn.lab import lab_kernel
    from sticks_tui.learn.tables import curve_table

    k = lab_kernel()
    g = lab_game(game, size)
    rng = np.random.default_rng(5)
    tables = [rng.integers(0, 4, g.rows * g.width) * (rng.random(g.rows * g.width) < 0.7) for _ in range(4)]
    runs = [run_learner(parse_learner(text), g, 1, 1_000, points=[1_000]) for text in ("hats", "q")]
    tables += [preference(r.spec, g, r.state) for r in runs]
    chance = curve_table(g.curve)
    every = np.zeros(0, dtype=np.bool_)
    for pref in tables:
        pref = np.asarray(pref, dtype=np.float64)
        for policy in (k.PROPORTIONAL, k.GREEDY):
            for empty in (1, 2):
                whole = k.chances_both(pref, policy, g.fixed_match, g.tables.order, g.start, k.PERFECT, empty, every)
                assert k.curve_chances(pref, policy, g.curve, g.fixed_match.start_cells, empty, chance) == whole
    for r in runs:
        assert r.curve[-1].agreement == k.agreement(preference(r.spec, g, r.state), g.width, g.row_cols, g.good,
                                                    g.checked)
