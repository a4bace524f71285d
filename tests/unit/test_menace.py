"""MENACE (issue 18) as the counts learner with Michie's settings (issue 31): its 304 boxes folded by the 8
symmetries the rules offer, the beads up to symmetry, start beads by move number, the incentives, the empty
box, and the exact chances: against the perfect player worst for it, and against a perfect player choosing
at random among its best squares, each under its own name. (The compiled loop against the readable
learner: `test_one_loop.py`.)"""

from __future__ import annotations

import pytest

from sticks_tui.engine.noughts import (EMPTY_BOARD, SYMMETRIES, NoughtsRules, empty_squares, image, is_over, place,
                                       reachable_boards, to_move)
from sticks_tui.learn import hats
from sticks_tui.learn.analysis import exact_chances
from sticks_tui.learn.hats import HatRule, Hats, _fold
from sticks_tui.learn.menace import (DRAW, LOSS, MENACE_RULE, WIN, MenaceBrain, menace_rule, move_number,
                                     sentence)
from sticks_tui.learn.rng import XorShift64Star
from sticks_tui.learn.trainer import FixedPlayer, TrainingConfig, play_one_game, train
from sticks_tui.solve.noughts import solve_noughts

RULES = NoughtsRules()


def canonical(board):
    return _fold(RULES, board)[0]


def test_the_rules_offer_the_eight_symmetries_of_the_square_and_the_learner_folds_by_them():
    assert len(set(SYMMETRIES)) == 8 and all(p[4] == 4 for p in SYMMETRIES)
    group = set(SYMMETRIES)
    assert all(tuple(a[b[i]] for i in range(9)) in group for a in SYMMETRIES for b in SYMMETRIES)
    for board in list(reachable_boards())[:600]:
        assert {canonical(image(board, p)) for p in SYMMETRIES} == {canonical(board)}
        assert canonical(board) == min(image(board, p) for p in SYMMETRIES)


def test_menaces_game_is_the_registrys_word():
    """Issue 31 item 5: MENACE's module imports no game's module; its game is the one whose entry names MENACE."""
    from sticks_tui.engine import registry

    assert registry.learner_game("MENACE") is registry.entry_of(MenaceBrain().rules) is registry.entry("noughts")
    with pytest.raises(ValueError, match="No game here is played by the learner 'HER'"):
        registry.learner_game("HER")


def test_menace_has_304_boxes_1_12_108_183_by_move():
    boards = MenaceBrain().boxes.boards
    assert len(boards) == 304
    assert [sum(1 for b in boards if move_number(b) == m) for m in (1, 2, 3, 4)] == [1, 12, 108, 183]
    assert all(to_move(b) == "X" and not is_over(b) and b.count(".") >= 2 for b in boards)
    assert len(MenaceBrain(marks="O").boxes.boards) == 289


def test_a_box_holds_beads_for_the_squares_that_differ_up_to_symmetry():
    boxes = MenaceBrain().boxes
    assert boxes.boards[0] == EMPTY_BOARD and boxes.squares[0] == (0, 1, 4)  # corner, edge, centre
    for board, squares in zip(boxes.boards, boxes.squares, strict=True):
        children = {canonical(place(board, s)) for s in empty_squares(board)}
        assert len(squares) == len(children)
        assert {canonical(place(board, s + 1)) for s in squares} == children


def test_michies_start_beads_by_move_number():
    brain = MenaceBrain()
    assert brain.rule == MENACE_RULE == HatRule(start_balls=(4, 3, 2, 1), win_reward=3, draw_reward=1,
                                                 loss_penalty=1, floor="none", empty="resign")
    assert brain.box_squares(0) == (4, 4, 0, 0, 4, 0, 0, 0, 0)
    for row, board in enumerate(brain.boxes.boards):
        assert set(brain.hat(board)) == {(4, 3, 2, 1)[move_number(board) - 1]}
    eight = MenaceBrain(menace_rule(beads=(8, 3, 2, 1)))
    assert eight.counts[0].sum() == 24 and eight.counts[1:].sum() == brain.counts[1:].sum()


@pytest.mark.parametrize("kwargs, words", [
    ({"beads": (4, 3, 2)}, "start beads are 4 whole numbers"),
    ({"beads": (4, 3, 0, 1)}, "from 1 to 1000"),
    ({"incentives": (3, 1)}, "incentives are 3 whole numbers"),
    ({"incentives": (-1, 0, -1)}, "a win from 0 to 1000"),
    ({"empty": "shrug"}, "resign or refill"),
])
def test_a_bad_rule_is_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        menace_rule(**kwargs)


def test_incentives_win_draw_loss_and_the_drawn_bead_removed():
    brain = MenaceBrain()
    first = [(EMPTY_BOARD, 1), ("X...O....", 2)]
    before = [brain.hat(b) for b, _ in first]
    brain.reinforce(first, outcome=WIN)
    brain.reinforce(first, outcome=DRAW)
    assert brain.hat(EMPTY_BOARD)[0] == before[0][0] + 4
    brain.counts[brain.row("X...O...."), brain.column("X...O....", 2)] = 1
    brain.reinforce(first, outcome=LOSS)
    assert brain.hat(EMPTY_BOARD)[0] == before[0][0] + 3 and brain.square_beads("X...O....")[1] == 0
    brain.reinforce([("X...O....", 2)], outcome=LOSS)
    assert brain.square_beads("X...O....")[1] == 0  # never below none
    assert sentence(MENACE_RULE) == ("Start beads 4, 3, 2, 1 at MENACE's 1st to 4th move; each bead drawn gets "
                                     "+3 after a win, +1 after a draw, -1 after a loss; an empty box resigns "
                                     "the game.")


def test_an_empty_box_resigns_or_is_refilled():
    brain = MenaceBrain()
    brain.counts[0] = 0
    rng = XorShift64Star(1)
    assert brain.draw(EMPTY_BOARD, rng) is hats.RESIGN
    outcome, _ = play_one_game(RULES, (EMPTY_BOARD,), brain, FixedPlayer("random", RULES), rng, 0, False, True)
    assert outcome == LOSS
    refill = MenaceBrain(menace_rule(empty="refill"))
    refill.counts[0] = 0
    assert refill.draw(EMPTY_BOARD, rng) in range(1, 10)
    assert refill.box_squares(0) == (4, 4, 0, 0, 4, 0, 0, 0, 0)
    kept = MenaceBrain(menace_rule(empty="refill"))
    kept.counts[0] = 0  # a copy kept empty elsewhere (the store's) learns as the game drew: refilled first
    kept.reinforce([(EMPTY_BOARD, 5)], outcome=WIN)
    assert kept.box_squares(0) == (4, 4, 0, 0, 7, 0, 0, 0, 0)


def perfect_brain() -> MenaceBrain:
    """Beads only on the solver's best squares: MENACE as a perfect player."""
    brain = MenaceBrain()
    brain.counts[:] = 0
    solution = solve_noughts()
    for row, board in enumerate(brain.boxes.boards):
        for column, square in enumerate(brain.moves_of(board)):
            brain.counts[row, column] = int(square in solution.best_squares(board))
    return brain


def test_the_exact_chances_against_the_perfect_player_worst_for_menace_and_one_choosing_at_random():
    fresh = MenaceBrain()
    worst, at_random = exact_chances(fresh, "perfect"), exact_chances(fresh, "best-at-random")
    assert worst[0] == at_random[0] == 0.0  # nobody beats a perfect player
    assert 0 < worst[1] < at_random[1] < 1  # the one worst for MENACE leaves it fewer draws
    assert sum(worst) == pytest.approx(1.0) and sum(at_random) == pytest.approx(1.0)
    assert exact_chances(perfect_brain(), "perfect") == pytest.approx((0.0, 1.0, 0.0))
    win, draw, loss = exact_chances(perfect_brain(), "random")
    assert loss == 0 and win > 0.9
    resigning = MenaceBrain()
    resigning.counts[0] = 0
    assert exact_chances(resigning, "random")[2] == 1.0
    refilling = MenaceBrain(menace_rule(empty="refill"))
    refilling.counts[0] = 0
    assert exact_chances(refilling, "random") == pytest.approx(exact_chances(MenaceBrain(), "random"))


def test_the_worst_perfect_player_is_no_better_for_menace_than_any_perfect_player_after_training():
    brain = MenaceBrain()
    train(TrainingConfig(game=RULES, games=400, seed=9, opponent="random", seats="first", protocol="classic",
                         curve=False), brain)
    worst = exact_chances(brain, "perfect")
    at_random = exact_chances(brain, "best-at-random")
    assert worst[0] + worst[1] <= at_random[0] + at_random[1]


def test_square_beads_follow_the_board_in_play():
    brain = MenaceBrain()
    assert brain.square_beads(EMPTY_BOARD) == (4, 4, 0, 0, 4, 0, 0, 0, 0)
    board = "......OX."[::-1]  # '.XO......': X in square 2, O in square 3
    assert canonical(board) != board  # the box is filed under another image of the board
    beads = brain.square_beads(board)
    assert beads[1] == beads[2] == 0  # taken squares hold no beads
    assert sum(beads) == sum(brain.hat(board))
    assert all(board[square] == "." for square, n in enumerate(beads) if n)
    assert brain.square_beads("X........") is None  # O's turn: no box of X's
    assert brain.square_beads("XOXOXOOX.") is None  # one square left: a forced move


def test_menace_is_the_counts_learner_with_michies_settings():
    """No learner of its own: a MENACE brain is a `Hats` of noughts and crosses for X's seat."""
    brain = MenaceBrain()
    assert isinstance(brain, Hats) and brain.seat == 0 and brain.folds
    assert brain == Hats(RULES, rule=MENACE_RULE, seat=0)
