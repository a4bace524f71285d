"""The Nim learner's brain in the store, like the sticks brain: kept between runs (one brain per box),
taught by each game in the game's own transaction, merged with training runs, never written over
when it does not fit, and no learning lost when two processes teach it at once."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from sticks_tui.engine.nim import NimRules
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store import Store, StoreError
from sticks_tui.store.brains import legal_of
from sticks_tui.ui.keeper import kept_brain
from sticks_tui.ui.session import Session
from sticks_tui.vocabulary import NIM_LEARNER_BOX, nim_brain_name
from tests.unit.nim_teaching import NAME, play_nim, record


def nim_brain(box=(7, 7, 7), rule=None, counts=None):
    """A Nim learner's brain: the counts learner over piles up to `box` (the store knows no game's brain)."""
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.hats import Hats

    return Hats(NimRules(tuple(box)), rule=rule, counts=counts)

def test_the_nim_brain_is_named_by_its_box():
    assert nim_brain_name((7, 7, 7)) == NAME == "nim-7x7x7"
    assert nim_brain_name((3, 4, 5)) == "nim-3x4x5"


def test_the_nim_brain_keeps_its_games_learning_between_runs(tmp_path):
    rng = random.Random(4)
    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX)
        fresh = brain.counts.copy()
        for _ in range(30):
            moves, loser, drawn = play_nim(brain, (3, 4, 5), rng)
            brain.reinforce(drawn, loser != 1)  # what the player in memory learns
            got = record(store, moves, loser, drawn)
            assert np.array_equal(got.brains[1].counts, brain.counts)  # the store learned the same
    assert not np.array_equal(brain.counts, fresh)
    with Store.open(tmp_path) as store:  # the next run
        again = store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX)
        assert again == brain
        assert np.array_equal(store.rebuild_brain(NAME).counts, again.counts)  # the sum of its games
        info = store.brain_info(NAME)
        assert (info.game, info.games_trained) == ("nim", 0)  # 30 games against a person: none of them training
        wins, losses = store.brain_record(NAME)
        assert wins + losses == 30


def test_a_nim_brain_of_the_largest_box_is_taught_by_a_game(tmp_path):
    """The most hats a brain may hold is its game's word (`GameEntry.max_hats`: sticks' 1,000, for a brain that
    grows); a Nim brain of the box 10,10,10 has 1,330 hats and was refused every lesson with the sticks limit."""
    name = nim_brain_name((10, 10, 10))
    with Store.open(tmp_path) as store:
        store.save_brain(name, nim_brain((10, 10, 10)), 0)
        before = store.load_brain(name)
        lesson = record(store, ["1:1", "1:2"], 0, [((2, 0, 0), (0, 2))], start=(3, 0, 0), name=name).brains[1]
        before.reinforce([((2, 0, 0), (0, 2))], True)
        assert len(lesson.positions) == 1330 and lesson == before == store.load_brain(name)


def test_a_game_that_breaks_the_rules_teaches_the_nim_brain_nothing(tmp_path):
    with Store.open(tmp_path) as store:
        before = store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX).counts.copy()
        with pytest.raises(ValueError, match="not the moves it played"):  # it took 4 dimes, not 3
            record(store, ["1:3", "2:4", "3:5"], 1, [((0, 4, 5), (1, 3))])
        with pytest.raises(ValueError, match="do not empty the piles"):
            record(store, ["1:1", "2:4"], 1, [((2, 4, 5), (1, 4))])
        assert np.array_equal(store.load_brain(NAME).counts, before)
        assert store.game_count() == 0


def test_training_merges_its_net_change_onto_the_nim_brain_keeping_games_played_meanwhile(tmp_path):
    from sticks_tui.learn.trainer import TrainingConfig, train

    with Store.open(tmp_path) as store:
        brain = store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX)
        start = brain.counts.copy()
        trained = brain.copy()
        train(TrainingConfig(game=NimRules(NIM_LEARNER_BOX), games=20_000, seed=3), brain=trained)
        # meanwhile a game (here, or in another copy of the program) taught the stored brain:
        # Ann takes a nickel of three, the AI takes the last two and wins
        lesson = record(store, ["1:1", "1:2"], 0, [((2, 0, 0), (0, 2))], start=(3, 0, 0)).brains[1]
        assert lesson.hat((2, 0, 0)) == (1, 2)
        kept = store.apply_training(NAME, start, trained.counts, games_trained=20_000)
        want = merge_net_change(lesson.counts, start, trained.counts, brain.rule, legal_of(lesson))
        assert np.array_equal(kept.counts, want)
        assert np.array_equal(store.load_brain(NAME).counts, want)
        # the game's lesson is in it too, on top of what training taught that hat
        assert kept.hat((2, 0, 0))[1] == trained.hat((2, 0, 0))[1] + 1
        assert store.brain_info(NAME).games_trained == 20_000  # Ann's game taught it but trained it not


@pytest.mark.parametrize("squatter, message", [
    (Hats(10), "is a brain for sticks, not for nim"),
    (nim_brain((3, 3, 3)), r"knows piles up to \(3, 3, 3\), not \(7, 7, 7\)"),
])
def test_a_stored_brain_that_does_not_fit_is_left_as_it_is(tmp_path, squatter, message):
    with Store.open(tmp_path) as store:
        store.save_brain(NAME, squatter, games_trained=5)
        with pytest.raises(StoreError, match=message):
            store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX)
        # the app's session: fresh hats in memory, kept nowhere, and a message that says so
        session = Session(store=store)
        kept = kept_brain(session, "nim")
        assert kept.brain.rules == NimRules(NIM_LEARNER_BOX) and not kept.kept and kept.name == NAME
        assert "left as it is" in kept.problem and "not saved" in kept.problem
        assert store.load_brain(NAME) == squatter and store.brain_info(NAME).games_trained == 5


def test_the_session_loads_the_stored_nim_brain(tmp_path):
    with Store.open(tmp_path) as store:
        taught = store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX)
        taught.counts[5, 0] = 42
        store.save_brain(NAME, taught)
        session = Session(store=store)
        kept = kept_brain(session, "nim")
        assert kept.brain == taught and kept.kept and kept.problem is None
        assert kept_brain(session, "nim") is kept and session.kept[("nim", NAME)] is kept  # loaded once


TEACHER = """
    import random, sys, time
    from pathlib import Path
    from sticks_tui.store import Store
    from tests.unit.nim_teaching import NAME, play_nim, record  # not the test module: no pytest to import
    data, seed, go, GAMES = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
    store = Store.open(data)
    rng = random.Random(seed)
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.005)
    for _ in range(GAMES):
        brain = store.load_brain(NAME)  # this copy's view, which the other copy keeps changing
        moves, loser, drawn = play_nim(brain, (3, 4, 5), rng)
        record(store, moves, loser, drawn)
    store.close()
    print("done")
"""


#: Games each process teaches: enough that the two copies' games interleave (each loads the brain the other
#: keeps changing), few enough to be cheap (150 each before: 3.2 CPU s).
GAMES_EACH = 50


@pytest.mark.slow
def test_two_processes_teaching_one_nim_brain_lose_no_lesson(tmp_path):
    with Store.open(tmp_path) as store:
        fresh = store.load_or_create_brain(NAME, game="nim", box=NIM_LEARNER_BOX)
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(TEACHER), str(tmp_path), str(seed), str(go),
                               str(GAMES_EACH)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for seed in (1, 2)]
    for p in procs:  # both are open and waiting
        assert p.stdout.readline() == "ready\n", p.communicate()[1]
    go.touch()
    for p in procs:
        out, err = p.communicate(timeout=180)
        assert p.returncode == 0, err
        assert out.strip() == "done"
    with Store.open(tmp_path) as store:
        assert store.game_count() == 2 * GAMES_EACH and store.brain_info(NAME).games_trained == 0  # vs people
        stored = store.load_brain(NAME)
        # every lesson of both copies is in the brain: it is the fresh brain plus all 300, in order
        assert np.array_equal(store.rebuild_brain(NAME).counts, stored.counts)
        assert not np.array_equal(stored.counts, fresh.counts)
        wins, losses = store.brain_record(NAME)
        assert wins + losses == 2 * GAMES_EACH


def test_the_kept_brain_service_loads_every_games_brain_alike(tmp_path):
    """One load for sticks and Nim (ui/keeper.py): the stored brain, kept; or, where it does not fit,
    fresh hats of the brain the store would have made, not kept, the stored one left as it is, in the
    same words for both games."""
    from sticks_tui.ui.keeper import load_kept

    with Store.open(tmp_path) as store:
        store.save_brain("squat", nim_brain((3, 3, 3)), games_trained=5)
        store.save_brain("sticky", Hats(10), games_trained=2)
        nim = load_kept(store, "squat", "nim", box=NIM_LEARNER_BOX)
        sticks = load_kept(store, "squat", size=20)
        for loaded, rules in ((nim, NimRules(NIM_LEARNER_BOX)), (sticks, Hats(20).rules)):
            assert loaded.hats == Hats(rules) and not loaded.kept
            assert loaded.problem.endswith("The AI plays with fresh hats, which are not saved: the stored brain "
                                           "'squat' is left as it is.")
        assert store.load_brain("squat") == nim_brain((3, 3, 3)) and store.brain_info("squat").games_trained == 5
        kept = load_kept(store, "sticky", size=20)
        assert kept.kept and kept.problem is None and kept.hats.size == 20  # grown to the size asked
        made = load_kept(store, NAME, "nim", box=NIM_LEARNER_BOX)
        assert made.kept and made.hats == store.load_brain(NAME) == nim_brain(NIM_LEARNER_BOX)
    assert load_kept(None, NAME, "nim") == type(made)(nim_brain(NIM_LEARNER_BOX), False, None)  # no store
