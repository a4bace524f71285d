"""The brain is the sum of its games: a game's lesson is applied to the brain as stored, with the
game's record, in one transaction; a training run merges its net change within the floor."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sticks_tui.engine.events import HatChange
from sticks_tui.learn.analysis import CurvePoint
from sticks_tui.learn.hats import MAX_COUNT, HatRule, Hats
from sticks_tui.learn.merge import merge_net_change
from sticks_tui.store import Store, StoreError


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path)
    yield s
    s.close()


def play(hats: Hats, heap: int, rng: random.Random, ai_seat: int = 1):
    """A game of the hats (seat `ai_seat`) against a random player; (moves, loser, drawn)."""
    moves, drawn, seat = [], [], 0
    while heap:
        if seat == ai_seat:
            take = hats.draw(heap, rng)
            drawn.append((heap, take))
        else:
            take = rng.randint(1, min(3, heap))
        moves.append(take)
        heap -= take
        seat = 1 - seat
    return moves, 1 - seat, drawn


def record(store, moves, loser, drawn, name="shared", seat=1):
    return store.record_game(game="sticks", start=sum(moves), opponent="learning", players=("Ann", "AI"),
                             moves=moves, loser=loser, brain=name, learning={seat: (name, drawn)})


def test_a_game_teaches_the_brain_as_stored_not_the_callers_copy(store):
    mine = store.load_or_create_brain("shared", 10)
    other = Store.open(store.path.parent)  # another copy of the program
    theirs = other.load_or_create_brain("shared", 10)
    # the other copy's AI takes 1 from 10 and wins (seat 1 moves second: Ann 3, AI 3, Ann 3, AI... )
    got = record(other, [3, 3, 3, 1], 1, [(7, 3), (1, 1)])  # AI (seat 1) took the last: it loses
    # the floor keeps one each; its last take (hat 1, one legal move) was forced, and teaches nothing
    assert got.changes[1] == (HatChange(7, 3, 1, 1),)
    got = record(store, [1, 3, 3, 3], 0, [(10, 1), (6, 3)])  # the AI moved first; Ann took the last: AI won
    assert got.brains[1].counts[10, 0] == 2 and got.brains[1].counts[6, 2] == 2
    other.close()
    stored = store.load_brain("shared")
    assert stored == got.brains[1] and stored != mine and theirs == Hats(10)
    assert store.brain_info("shared").games_trained == 0  # games against Ann teach it, but are not training
    [last, first] = store.recent_games()
    assert last.learning[0].drawn == ((10, 1), (6, 3)) and last.learning[0].won
    assert last.learning[0].changes == ((10, 1, 1, 2), (6, 3, 1, 2))
    assert first.learning[0].changes == ((7, 3, 1, 1),) and not first.learning[0].won
    assert store.game(int(got)).learning == last.learning


def test_the_learning_is_hats_reinforce_on_the_stored_counts(store):
    store.save_brain("shared", Hats(10, rule=HatRule(3, 2, 5, "nonempty")))
    rng = random.Random(5)
    expected = store.load_brain("shared")
    for _ in range(40):
        moves, loser, drawn = play(expected, 10, rng)
        expected.reinforce(drawn, loser != 1)
        got = record(store, moves, loser, drawn)
        assert got.brains[1] == expected
    assert store.load_brain("shared") == expected == store.rebuild_brain("shared")


def test_drawn_balls_must_be_the_seats_own_moves_and_a_refused_game_changes_nothing(store):
    store.load_or_create_brain("shared", 10)
    with pytest.raises(ValueError, match="not the moves it played"):
        record(store, [3, 3, 3, 1], 1, [(10, 3), (4, 3)])  # seat 0's moves, not seat 1's
    with pytest.raises(StoreError, match="no brain called 'nobody'"):
        record(store, [3, 3, 3, 1], 1, [(7, 3), (1, 1)], name="nobody")
    assert store.game_count() == 0 and store.load_brain("shared") == Hats(10)
    assert store.leaderboard() == []


def test_a_brain_grows_when_a_game_reaches_a_hat_it_lacks(store):
    store.save_brain("shared", Hats(5))
    got = record(store, [2, 3, 3, 3, 1], 0, [(12, 2), (7, 3), (1, 1)], seat=0)  # seat 0 moved first, lost
    assert got.brains[0].size == 12 and store.load_brain("shared").size == 12
    assert store.rebuild_brain("shared") == store.load_brain("shared")


def test_self_play_on_one_brain_learns_from_both_seats(store):
    store.load_or_create_brain("self", 10)
    got = store.record_game(game="sticks", start=10, opponent="learning", players=("AI 1", "AI 2"),
                            moves=[3, 3, 3, 1], loser=1, ai_seats=(0, 1),
                            learning={0: ("self", [(10, 3), (4, 3)]), 1: ("self", [(7, 3), (1, 1)])})
    brain = store.load_brain("self")
    assert brain.counts[10, 2] == 2 and brain.counts[4, 2] == 2 and brain.counts[7, 2] == 1
    assert got.brains[1] == brain and store.rebuild_brain("self") == brain
    assert store.brain_info("self").games_trained == 1  # no person played: one training game, as the trainer counts


def test_only_a_game_without_a_person_counts_among_the_games_trained(store):
    """Issue 33 item 6: "Trained" counts training games only; two AIs' game counts once for each brain."""
    store.load_or_create_brain("a", 10)
    store.load_or_create_brain("b", 10)
    store.record_game(game="sticks", start=10, opponent="learning", players=("Ann", "AI"), moves=[3, 3, 3, 1],
                      loser=1, brain="a", learning={1: ("a", [(7, 3), (1, 1)])})
    store.record_game(game="sticks", start=10, opponent="learning", players=("AI 1", "AI 2"), moves=[3, 3, 3, 1],
                      loser=1, ai_seats=(0, 1), learning={0: ("a", [(10, 3), (4, 3)]), 1: ("b", [(7, 3), (1, 1)])})
    assert [(b.name, b.games_trained) for b in store.list_brains()] == [("a", 1), ("b", 1)]
    assert store.brain_results("a") == (0, 0, 1) and store.brain_results("b") == (0, 0, 0)  # its own record:
    # the game against Ann, lost (the AIs' game named no brain)


# -- training: the net change merged onto the stored brain --------------------------------------
def test_merge_net_change_adds_the_runs_change_onto_what_the_brain_learned_meanwhile():
    rule = HatRule()
    start = Hats(5).counts
    trained = start.copy()
    trained[5] = [9, 1, 4]
    current = start.copy()
    current[5] = [1, 3, 1]
    current[2] = [2, 7, 0]
    merged = merge_net_change(current, start, trained, rule, Hats(5).legal_mask)
    assert merged[5].tolist() == [9, 3, 4] and merged[2].tolist() == [2, 7, 0]
    assert not np.shares_memory(merged, current)


def test_merge_net_change_keeps_the_floor_each_and_the_cap():
    start, legal = Hats(4).counts, Hats(4).legal_mask
    trained = start.copy()
    trained[3] = [1, 1, 50]
    current = start.copy()
    current[3] = [1, 1, MAX_COUNT - 10]
    current[4] = [5, 1, 1]
    trained[4] = [1, 1, 1]  # the run lost 4... from a hat that held 1 at its start: it cannot go below 1
    start2 = start.copy()
    start2[4] = [5, 1, 1]
    merged = merge_net_change(current, start2, trained, HatRule(floor="each"), legal)
    assert merged[3, 2] == MAX_COUNT
    assert merged[4].tolist() == [1, 1, 1]
    trained[4] = [1, 1, 1]
    current[4] = [2, 1, 1]
    assert merge_net_change(current, start2, trained, HatRule(), legal)[4].tolist() == [1, 1, 1]  # 2 - 4 < 1: floor 1
    assert merge_net_change(current, start2, trained, HatRule(), legal)[0].tolist() == [0, 0, 0]
    assert merge_net_change(current, start2, trained, HatRule(), legal)[1].tolist() == [1, 0, 0]


def test_a_merge_is_told_the_brains_own_cells_and_assumes_no_games_layout():
    """A Nim brain's counts fit a sticks layout of the same shape: merged without its own legal cells they
    would be read as sticks' hats; the merge has no default layout, so it cannot happen (issue 31 item 5)."""
    from sticks_tui.engine import registry

    nim = Hats(registry.entry("nim").rules_from({"piles": (1, 1, 2)}))
    with pytest.raises(TypeError, match="legal"):
        merge_net_change(nim.counts, nim.counts, nim.counts, nim.rule)
    assert np.array_equal(merge_net_change(nim.counts, nim.counts, nim.counts, nim.rule, nim.legal_mask), nim.counts)


def test_merge_net_change_floor_nonempty_never_empties_a_hat():
    rule = HatRule(floor="nonempty")
    start = np.array([[0, 0, 0], [1, 0, 0], [4, 4, 0]])
    trained = np.array([[0, 0, 0], [1, 0, 0], [0, 4, 0]])  # the run threw away hat 2's ones
    current = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0]])  # meanwhile games threw away the twos
    legal = Hats(2).legal_mask  # hats 0-2 of 3 balls
    merged = merge_net_change(current, start, trained, rule, legal)
    assert merged[2].sum() > 0  # both together would leave hat 2 empty: it keeps what it holds
    assert merged[2].tolist() == [2, 0, 0]
    trained2 = np.array([[0, 0, 0], [1, 0, 0], [1, 9, 0]])
    assert merge_net_change(current, start, trained2, rule, legal)[2].tolist() == [0, 5, 0]  # zeros allowed


def test_apply_training_merges_onto_the_stored_brain_in_one_transaction(store):
    store.load_or_create_brain("shared", 10)
    start = store.load_brain("shared").counts.copy()
    trained = start.copy()
    trained[4] = [1, 1, 30]
    record(store, [1, 3, 3, 3], 0, [(10, 1), (6, 3)])  # meanwhile a game taught hat 10 and hat 6
    brain = store.apply_training("shared", start, trained, games_trained=1000, curve=[(1, 0.5, 0.25, 0.25)])
    assert brain.counts[4].tolist() == [1, 1, 30] and brain.counts[10, 0] == 2 and brain.counts[6, 2] == 2
    assert store.load_brain("shared") == brain and store.brain_info("shared").games_trained == 1000  # Ann's: not
    assert store.last_training_curve("shared") == [CurvePoint(1, 0.5, 0.25, 0.25)]
    assert store.rebuild_brain("shared") == brain  # training starts a new generation: still the sum


def test_apply_training_that_fails_keeps_nothing(store):
    store.load_or_create_brain("shared", 10)
    start = store.load_brain("shared").counts.copy()
    store._conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="read-only.*training run"):
        store.apply_training("shared", start, start + 5, games_trained=10, curve=[(1, 0.5, 0.5)])
    store._conn.execute("PRAGMA query_only = OFF")
    assert store.load_brain("shared") == Hats(10) and store.last_training_curve("shared") == []


# -- the Nim brain lives in the database too ----------------------------------------------------
def test_a_nim_brain_is_kept_loaded_and_taught_like_the_sticks_brain(store):
    brain = store.load_or_create_brain("nim", game="nim", box=(7, 7, 7))
    assert brain.counts.shape == (511, 7 + 7 + 7) and tuple(brain.rules.box) == (7, 7, 7)
    assert store.brain_info("nim").game == "nim"
    # (2, 1, 0): Ann takes a nickel, the AI takes the dime from (1, 1, 0), Ann the last nickel and wins; the
    # AI's move at (1, 1, 0) was a choice (two moves), so the loss takes its ball... to the floor of one
    got = store.record_game(game="nim", start="2,1,0", opponent="learning", players=("Ann", "Nim AI"),
                            moves=["1:1", "2:1", "1:1"], loser=1, brain="nim",
                            learning={1: ("nim", [((1, 1, 0), (1, 1))])})
    row, col = brain.row((1, 1, 0)), brain.column((1, 1, 0), (1, 1))
    assert got.changes[1] == (HatChange((1, 1, 0), (1, 1), 1, 1),)
    # (3, 1, 0): Ann takes a nickel, the AI another from (2, 1, 0), Ann a third, and the AI the dime: a win,
    # its ball at (2, 1, 0) one more; its last move (one coin left) was forced and teaches nothing
    got = store.record_game(game="nim", start="3,1,0", opponent="learning", players=("Ann", "Nim AI"),
                            moves=["1:1", "1:1", "1:1", "2:1"], loser=0, brain="nim",
                            learning={1: ("nim", [((2, 1, 0), (0, 1)), ((0, 1, 0), (1, 1))])})
    row, col = brain.row((2, 1, 0)), brain.column((2, 1, 0), (0, 1))
    assert got.brains[1].counts[row, col] == 2 and store.load_brain("nim").counts[row, col] == 2
    assert got.changes[1] == (HatChange((2, 1, 0), (0, 1), 1, 2),)
    assert store.rebuild_brain("nim") == store.load_brain("nim")
    with pytest.raises(StoreError, match="for nim, not for sticks"):
        store.load_or_create_brain("nim", 10)
    store.reset_brain("nim")
    assert np.array_equal(store.load_brain("nim").counts, brain.counts)


def test_a_copy_behind_the_store_saves_its_change_merged_onto_the_brain_as_stored(tmp_path):
    """Issue 23: save_brain(base=...) merges only the copy's change since it read the brain; what
    another copy taught the brain meanwhile is kept (a whole write would lose it)."""
    with Store.open(tmp_path) as store:
        store.save_brain("default", Hats(20), games_trained=3)
        mine = store.load_brain("default")
        base = mine.counts.copy()
        other = store.load_brain("default")  # another tab teaches the stored brain
        other.counts[10, 1] += 50
        store.save_brain("default", other, base=base)
        mine.counts[12, 0] += 7  # this tab's own lesson, on its stale copy
        saved = store.save_brain("default", mine, games_trained=2, base=base)
        stored = store.load_brain("default")
        assert stored.counts[10, 1] == base[10, 1] + 50
        assert stored.counts[12, 0] == base[12, 0] + 7
        assert (saved.counts == stored.counts).all()
        assert store.brain_info("default").games_trained == 5


def test_a_copy_of_a_brain_deleted_meanwhile_is_saved_as_it_is(tmp_path):
    """Nothing stored to merge onto, and nothing of another copy's to lose: the copy is kept whole."""
    with Store.open(tmp_path) as store:
        store.save_brain("default", Hats(20))
        mine = store.load_brain("default")
        base = mine.counts.copy()
        store.delete_brain("default")
        mine.counts[12, 0] += 7
        store.save_brain("default", mine, base=base)
        assert store.load_brain("default") == mine
