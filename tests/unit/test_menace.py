"""MENACE (issue 18): its 304 boxes, the beads up to symmetry, Michie's start and incentives, the empty
box, the exact chance of a loss, and the compiled kernel held bit for bit to the readable learner."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.engine.noughts import EMPTY_BOARD, empty_squares, is_over, place, reachable_boards, to_move
from sticks_tui.learn import menace_kernel
from sticks_tui.learn.menace import (DRAW, LOSS, RESIGN, SYMMETRIES, WIN, MenaceBrain, MenaceConfig, MenaceRule,
                                     PerfectPlayer, RandomPlayer, canonical, image, loss_chance, menace_boxes,
                                     move_number, play_game, result_chances, tables, train_reference)
from sticks_tui.learn.menace_kernel import train
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.solve.noughts import solve_noughts


def test_the_symmetries_are_the_eight_of_the_square():
    assert len(set(SYMMETRIES)) == 8
    group = set(SYMMETRIES)
    for a in SYMMETRIES:
        for b in SYMMETRIES:
            assert tuple(a[b[i]] for i in range(9)) in group  # closed under composition
    assert all(p[4] == 4 for p in SYMMETRIES)  # the centre stays


def test_canonical_is_the_same_for_every_image_and_maps_the_squares():
    for board in list(reachable_boards())[:600]:
        canon, perm = canonical(board)
        assert image(board, perm) == canon
        assert {canonical(image(board, p))[0] for p in SYMMETRIES} == {canon}


def test_menace_has_304_boxes_1_12_108_183_by_move():
    boxes = menace_boxes("X")
    assert len(boxes) == 304
    by_move = [sum(1 for b in boxes.boards if move_number(b) == m) for m in (1, 2, 3, 4)]
    assert by_move == [1, 12, 108, 183]
    assert all(to_move(b) == "X" and not is_over(b) and b.count(".") >= 2 for b in boxes.boards)


def test_a_box_holds_beads_for_the_squares_that_differ_up_to_symmetry():
    boxes = menace_boxes("X")
    assert boxes.boards[0] == EMPTY_BOARD and boxes.squares[0] == (0, 1, 4)  # corner, edge, centre
    for board, squares in zip(boxes.boards, boxes.squares, strict=True):
        # two squares are the same choice exactly when the boards after them are the same up to symmetry
        children = {canonical(place(board, s))[0] for s in empty_squares(board)}
        assert len(squares) == len(children)
        assert {canonical(place(board, s + 1))[0] for s in squares} == children


def test_michies_start_beads_by_move_number():
    brain = MenaceBrain()
    assert brain.counts.shape == (304, 9)
    assert list(brain.counts[0]) == [4, 4, 0, 0, 4, 0, 0, 0, 0]
    for row, board in enumerate(brain.boxes.boards):
        expected = (4, 3, 2, 1)[move_number(board) - 1]
        assert sorted(set(brain.counts[row]) - {0}) == [expected]
    eight = MenaceBrain(MenaceRule(beads=(8, 3, 2, 1)))
    assert eight.counts[0].sum() == 24 and eight.counts[1:].sum() == brain.counts[1:].sum()


@pytest.mark.parametrize("kwargs, words", [
    ({"beads": (4, 3, 2)}, "start beads are 4 whole numbers"),
    ({"beads": (4, 3, 0, 1)}, "from 1 to 1000"),
    ({"incentives": (3, 1)}, "incentives are 3 whole numbers"),
    ({"empty": "shrug"}, "resign or refill"),
])
def test_a_bad_rule_is_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        MenaceRule(**kwargs)


def test_incentives_win_draw_loss_and_the_drawn_bead_removed():
    brain = MenaceBrain()
    first = [(0, 0), (5, 2)]
    before = brain.counts.copy()
    brain.reinforce(first, WIN)
    assert brain.counts[0, 0] == before[0, 0] + 3 and brain.counts[5, 2] == before[5, 2] + 3
    brain.reinforce(first, DRAW)
    assert brain.counts[0, 0] == before[0, 0] + 4
    brain.counts[5, 2] = 1
    brain.reinforce(first, LOSS)
    assert brain.counts[0, 0] == before[0, 0] + 3 and brain.counts[5, 2] == 0
    brain.reinforce([(5, 2)], LOSS)
    assert brain.counts[5, 2] == 0  # never below none
    assert MenaceRule().sentence() == ("Start beads 4, 3, 2, 1 at MENACE's 1st to 4th move; each bead drawn gets "
                                       "+3 after a win, +1 after a draw, -1 after a loss; an empty box resigns "
                                       "the game.")


def test_an_empty_box_resigns_or_is_refilled():
    brain = MenaceBrain()
    brain.counts[0] = 0
    rng = XorShift64Star(1)
    assert brain.choose(EMPTY_BOARD, rng) == (RESIGN, None)
    assert play_game(brain, RandomPlayer(), rng) == (LOSS, EMPTY_BOARD)
    refill = MenaceBrain(MenaceRule(empty="refill"))
    refill.counts[0] = 0
    square, bead = refill.choose(EMPTY_BOARD, rng)
    assert square in range(1, 10) and bead is not None
    assert list(refill.counts[0]) == [4, 4, 0, 0, 4, 0, 0, 0, 0]


def test_the_perfect_player_never_loses_and_menace_learns_from_each_game():
    brain = MenaceBrain()
    rng = XorShift64Star(3)
    perfect = PerfectPlayer()
    results = [play_game(brain, perfect, rng)[0] for _ in range(60)]
    assert WIN not in results
    assert brain.counts.sum() != MenaceBrain().counts.sum()


def perfect_brain() -> MenaceBrain:
    """Beads only on the solver's best squares: MENACE as a perfect player."""
    brain = MenaceBrain()
    brain.counts[:] = 0
    solution = solve_noughts()
    for row, board in enumerate(brain.boxes.boards):
        for square in solution.best_squares(board):
            brain.counts[row, square - 1] = 1
    return brain


def test_the_exact_chance_of_a_loss():
    fresh = MenaceBrain()
    assert 0 < loss_chance(fresh, "perfect") < 1 and 0 < loss_chance(fresh, "random") < 1
    perfect = perfect_brain()
    assert result_chances(perfect, "perfect") == pytest.approx((0.0, 1.0, 0.0))  # perfect play both sides: a draw
    win, draw, loss = result_chances(perfect, "random")
    assert loss == 0 and win > 0.9
    resigning = MenaceBrain()
    resigning.counts[0] = 0
    assert loss_chance(resigning, "random") == 1.0


@pytest.mark.parametrize("opponent", ["random", "perfect"])
def test_the_exact_chance_against_a_long_sample(opponent):
    """Incentives of 0 keep the beads as they are: 200,000 games of a half-trained MENACE lose as often
    as the exact chance says (within 4 standard errors)."""
    trained = train(MenaceConfig(games=150, opponent="random", seed=9, curve=False)).brain
    frozen = MenaceRule(incentives=(0, 0, 0))
    t = tables(frozen)
    counts = trained.counts.copy()
    stats = np.zeros(3, dtype=np.int64)
    games = 200_000
    menace_kernel.play(t, counts, np.zeros((1, 9), dtype=np.int64), opponent, games, frozen,
                       menace_kernel.new_rng_state(4), stats)
    assert np.array_equal(counts, trained.counts)
    p = loss_chance(MenaceBrain(frozen, counts=counts), opponent)
    assert 0.01 < p < 0.99
    assert abs(stats[2] / games - p) < 4 * (p * (1 - p) / games) ** 0.5


@pytest.mark.parametrize("opponent, rule", [
    ("random", MenaceRule()),
    ("perfect", MenaceRule()),
    ("menace", MenaceRule()),
    ("perfect", MenaceRule(beads=(1, 1, 1, 1), incentives=(2, 0, -3), empty="refill")),
    ("menace", MenaceRule(beads=(2, 2, 1, 1), empty="refill")),
])
def test_the_kernel_leaves_the_same_counts_as_the_readable_learner(opponent, rule):
    config = MenaceConfig(games=300, opponent=opponent, seed=42, rule=rule)
    slow = train_reference(config)
    fast = train(config)
    assert fast.engine == "kernel"
    assert np.array_equal(fast.brain.counts, slow.brain.counts)
    assert not np.array_equal(fast.brain.counts, MenaceBrain(rule).counts)  # it did learn
    if opponent == "menace":
        assert np.array_equal(fast.o_brain.counts, slow.o_brain.counts)
    assert fast.results == slow.results and sum(fast.results.values()) == 300
    assert [p.as_json() for p in fast.curve] == [p.as_json() for p in slow.curve]


@pytest.mark.parametrize("opponent", ["random", "perfect"])
def test_the_kernels_chance_is_the_readable_one(opponent):
    run = train(MenaceConfig(games=200, opponent="random", seed=5, curve=False))
    for empty in ("resign", "refill"):
        brain = MenaceBrain(MenaceRule(empty=empty), counts=run.brain.counts.copy())
        brain.counts[3] = 0  # an empty box
        fast = menace_kernel.chances(tables(brain.rule), brain.counts, opponent, empty == "refill")
        slow = result_chances(brain, opponent)
        assert fast == pytest.approx(slow, rel=1e-12, abs=1e-15)
        assert sum(slow) == pytest.approx(1.0, rel=1e-12) and slow[1] > 0 and slow[2] > 0
        assert (slow[0] == 0) == (opponent == "perfect")  # nobody beats the perfect player


def test_if_the_kernel_cannot_load_the_readable_learner_trains_and_says_why(monkeypatch):
    from sticks_tui.learn import compiled

    def broken():
        raise EOFError("Ran out of input")

    monkeypatch.setattr(menace_kernel, "warm_up", broken)
    monkeypatch.setattr(menace_kernel, "_loaded", False)
    monkeypatch.setattr(compiled, "clear_cache", lambda name: 0)
    monkeypatch.setattr("importlib.reload", lambda module: module)
    config = MenaceConfig(games=50, opponent="random", seed=2, curve=False)
    run = train(config)
    assert run.engine == "reference" and "EOFError" in run.notice and "reference learner" in run.notice
    assert np.array_equal(run.brain.counts, train_reference(config).brain.counts)


def test_square_beads_follow_the_board_in_play():
    brain = MenaceBrain()
    assert brain.square_beads(EMPTY_BOARD) == (4, 4, 0, 0, 4, 0, 0, 0, 0)
    # X in the bottom right corner and O beside it: the box is filed under another image of the board
    board = "......OX."[::-1]  # '.XO......': X in square 2, O in square 3
    canon, perm = canonical(board)
    assert canon != board
    beads = brain.square_beads(board)
    assert beads[1] == beads[2] == 0  # taken squares hold no beads
    assert sum(beads) == brain.counts[brain.boxes.find(board)[0]].sum()
    for square, n in enumerate(beads):
        if n:  # a bead's square is empty, and is the square the box's column names on this board
            assert board[square] == "."
    assert brain.square_beads("X........") is None  # O's turn: no box of X's
    assert brain.square_beads("XOXOXOOX.") is None  # one square left: a forced move
