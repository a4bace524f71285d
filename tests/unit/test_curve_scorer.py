"""One way to score a learning-curve checkpoint for every game (issue 31 items 2 and 5): `CurveScorer.score` is one
compiled call (`kernel.curve_point`) over arrays laid out once a run, with no path of sticks' own, and its figures
are the readable form's (numpy over the rows, `tables.curve_chances`, the lab's packed layout) and the figures of before
(`curve_before.py`: sticks' plain-Python path, every other game's general one) to the last bit: agreement, the
chances against the perfect player worst for the brain in each seat, the chances not to lose, `draw_wins`.

One difference from before, on purpose: sticks' old path took the mean of `draw_wins` in heap order, the general
one (and `CurveScorer.draw_wins`, which the app's sentence reads) by numpy's sum; the one scorer takes numpy's, so
a sticks curve point's `draw_wins` may differ from before in its last bits (held to 1e-14 here: a mean of at most
100 chances in [0, 1], each rounded once, moves by at most ~100 ulps when summed in another order), and is now the
same number as `CurveScorer.draw_wins` and the general path's. And where a sticks hat is empty (only under the
floor 'none'), the old path drew from it uniformly whatever the rule; the one scorer follows the rule (an empty hat
resigns, or is refilled), as `exact_chances` and `analyse_brain` do."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sticks_tui.engine.hexapawn import HexapawnRules
from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn import compiled
from sticks_tui.learn.analysis import CurveScorer, exact_chances
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.menace import MENACE_RULE
from sticks_tui.learn.trainer import TrainingConfig, train
from tests.unit.curve_before import CurveScorerBefore

FIGURES = ("agreement", "win_first", "win_second", "keep_first", "keep_second", "draw_wins")
RULES = {"each": HatRule(), "nonempty": HatRule(start_balls=2, win_reward=3, floor="nonempty"),
         "resign": HatRule(loss_penalty=2, floor="none"),
         "refill": HatRule(start_balls=2, floor="none", empty="refill")}


@pytest.fixture(scope="module", autouse=True)
def kernel_loaded():
    assert compiled.load() is None


def random_counts(brain: Hats, rng, floor: str, empty_rows: bool) -> np.ndarray:
    """Counts a brain under `floor` can hold, small so that ties at the top are common; under 'none' some
    containers empty only when `empty_rows`."""
    legal = np.arange(brain.counts.shape[1])[None, :] < np.asarray(brain.n_moves)[:, None]
    counts = rng.integers(1 if floor == "each" else 0, 4, size=brain.counts.shape) * legal
    if floor == "nonempty" or (floor == "none" and not empty_rows):
        dry = legal.any(axis=1) & (counts.sum(axis=1) == 0)
        counts[dry, 0] = 1
    return counts.astype(np.int64)


def brains():
    """(name, the game scored, the brain's seat, its rule, its counts): trained, fresh and random brains of every
    game (a sticks brain of 100 hats scored at 20 too)."""
    rng = np.random.default_rng(31)
    out = []
    for size in range(1, 101):  # every heap 1-100, max take 2-5 by turns, each floor by turns
        rules = SticksRules(size, 2 + size % 4)
        name = ("each", "nonempty", "refill", "resign")[size % 4]
        brain = Hats(rules, rule=RULES[name])
        counts = brain.counts if size % 10 == 0 else random_counts(brain, rng, brain.rule.floor, False)
        out.append((f"sticks-{size}-{name}", rules, None, RULES[name], counts))
    big = SticksRules(100, 3)
    for games in (30, 3_000, 100_000):
        counts = train(TrainingConfig(game=big, games=games, seed=games, curve=False)).brain.counts
        out.append((f"sticks-100-trained-{games}", big, None, None, counts))
        out.append((f"sticks-100-trained-{games}-at-20", SticksRules(20, 3), None, None, counts))
    games = [(NimRules((2, 3, 1)), None), (NimRules((3, 3, 3)), None), (NoughtsRules(), 0), (NoughtsRules(), 1),
             (NoughtsRules(), None), (HexapawnRules(), 0), (HexapawnRules(), 1), (HexapawnRules(), None)]
    others = tuple(RULES.items())
    for i, (rules, seat) in enumerate(games):  # two rules each: MENACE's (one seat) or the seeds', and one more
        for name, rule in (("menace", MENACE_RULE) if seat is not None else others[0], others[1 + i % 3]):
            brain = Hats(rules, rule=rule, seat=seat)
            out.append((f"{rules.name}-{seat}-{name}-random", rules, seat, rule,
                        random_counts(brain, rng, rule.floor, True)))
        if i in (0, 2, 3, 6, 7):  # trained against the random player: Nim, MENACE's X and O, Hexapawn
            trained = train(TrainingConfig(game=rules, games=400, seed=5, protocol="classic", curve=False,
                                           seats={0: "first", 1: "second", None: "both"}[seat], opponent="random"),
                            Hats(rules, rule=MENACE_RULE if seat is not None else None, seat=seat))
            out.append((f"{rules.name}-{seat}-trained", rules, seat, trained.brain.rule, trained.brain.counts))
    return out


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_one_scorer_gives_the_readable_form_and_the_figures_of_before_to_the_last_bit():
    checked = {"sticks": 0, "other": 0}
    for name, rules, seat, rule, counts in brains():
        scorer = CurveScorer.for_rules(rules, seat, rule)
        point = scorer.score(7, counts)
        # the readable form in plain Python: on noughts (tenths of a second each) for the trained brains only
        readable = scorer._score_readable(7, counts) if "noughts" not in name or "trained" in name else point
        before = CurveScorerBefore.for_rules(rules, seat, rule)
        old = before.score(7, counts)
        assert point.games == 7
        for figure in FIGURES:
            assert same(getattr(point, figure), getattr(readable, figure)), (name, figure)
            if figure == "draw_wins" and before.sticks:
                assert same(point.draw_wins, before.draw_wins(counts)), name  # numpy's mean, as the general path
                assert point.draw_wins == pytest.approx(old.draw_wins, rel=0, abs=1e-14), name
            else:
                assert same(getattr(point, figure), getattr(old, figure)), (name, figure)
        checked["sticks" if before.sticks else "other"] += 1
        if seat is not None:  # the seat the brain does not play has no figures
            assert math.isnan((point.win_second, point.win_first)[seat == 1])
    assert checked == {"sticks": 106, "other": 21}


def test_an_empty_sticks_hat_follows_the_brains_rule():
    """Sticks' old path drew from an empty hat uniformly; the one scorer does what the rule says, as
    `exact_chances` (and `analyse_brain`): an empty hat on the way resigns the game."""
    rules = SticksRules(10)
    brain = Hats(rules, rule=RULES["resign"])
    counts = brain.counts.copy()
    counts[10, :] = 0  # moving first from 10 sticks (a winning heap) the brain resigns
    counts[7, :] = 0
    brain.counts[:] = counts
    point = CurveScorer.for_brain(brain).score(0, counts)
    assert point.win_first == exact_chances(brain, "perfect", True)[0] == 0.0
    assert CurveScorerBefore.for_brain(brain).score(0, counts).win_first > 0.0  # before: a uniform draw
    refill = Hats(rules, rule=RULES["refill"])
    refill.counts[:] = counts
    assert CurveScorer.for_brain(refill).score(0, counts).win_first == exact_chances(refill, "perfect", True)[0] > 0


def test_a_checkpoint_is_one_compiled_call_for_every_game(monkeypatch):
    from sticks_tui.learn import kernel

    calls = []
    real = kernel.curve_point
    monkeypatch.setattr(kernel, "curve_point", lambda *args: calls.append(args) or real(*args))
    for rules, seat in ((SticksRules(30), None), (NimRules((2, 2, 2)), None), (NoughtsRules(), 0),
                        (HexapawnRules(), 1)):
        brain = Hats(rules, seat=seat)
        CurveScorer.for_brain(brain).score(0, brain.counts)
    assert len(calls) == 4
