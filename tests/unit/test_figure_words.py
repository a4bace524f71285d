"""Every figure says what it counts and what it is about (issue 33 item 6).

Over the winning positions a learner's likeliest move may be right while a ball drawn at random is not: the
second figure (`draw_wins`) says how often a draw is a winning move. The chances against a perfect player
are in one game from the start, and a seat the game's value loses says why it is 0%."""

from __future__ import annotations

import numpy as np

from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn.analysis import CurveScorer, agreement
from sticks_tui.solve.sticks_hats import analyse
from sticks_tui.learn.figure_words import cannot_win, chances_sentence, likeliest_sentence, percent
from sticks_tui.learn.hats import Hats


def test_a_likeliest_move_that_wins_everywhere_still_draws_a_losing_ball_and_the_figures_say_how_often():
    counts = np.ones((7, 3), dtype=np.int64)  # hats 0..6, every hat 1 ball of each number
    counts[2] = [3, 1, 0]  # heap 2: take 1 wins (3 of 4 balls)
    counts[3] = [1, 2, 0]  # heap 3: take 2 wins (2 of 3)
    counts[4] = [1, 1, 2]  # heap 4: take 3 wins (2 of 4)
    counts[6] = [5, 1, 4]  # heap 6: take 1 wins (5 of 10)
    counts[5] = [1, 1, 1]  # heap 5 is lost: not counted
    expected = (3 / 4 + 2 / 3 + 2 / 4 + 5 / 10) / 4
    a = analyse(counts, 3, heap=6)
    assert a.agreement == 1.0 and a.draw_wins == expected
    point = CurveScorer.for_rules(SticksRules(6)).score(0, counts)
    assert point.agreement == 1.0 and abs(point.draw_wins - expected) < 1e-12


def test_any_game_counts_a_draw_over_its_winning_positions():
    rules = NimRules((1, 2, 2))
    brain = Hats(rules)
    verdict = agreement(brain)
    # a fresh brain draws each move alike: the mean share of winning moves among each winning position's moves
    from sticks_tui.solve import solver_for

    solver = solver_for(rules)
    shares = [len(solver.winning_moves(p)) / len(rules.legal_moves(p)) for p in rules.positions()
              if solver.is_winning(p)]
    assert verdict.winning_states == len(shares)
    assert abs(verdict.draw_wins - sum(shares) / len(shares)) < 1e-12


def test_the_words_say_what_each_figure_counts_and_over_what():
    assert likeliest_sentence(SticksRules(20), 1.0, 0.9996, 15) == (
        "Over heaps 2-20, its likeliest move is a winning move in 100% of the 15 positions where a win can be "
        "forced; a ball drawn at random is one >99.9% of the time.")
    assert likeliest_sentence(NimRules((7, 7, 7)), 447 / 448, 0.5, 448).startswith(  # one wrong is not 100%
        "Over piles up to 7, 7, 7, its likeliest move is a winning move in 99.8% of the 448 positions")
    assert [percent(x) for x in (1, 0.9996, 0.996, 0.87, 0.004, 0.0004, 0)] == [
        "100%", ">99.9%", "99.6%", "87%", "0.4%", "<0.1%", "0%"]


def test_a_seat_the_game_loses_says_so_and_the_other_does_not():
    assert cannot_win(SticksRules(20), 1) == ("moving second at 20 sticks the perfect player wins every game: "
                                              "0% is the rule, not the learner")
    assert cannot_win(SticksRules(20), 0) == ""
    assert cannot_win(SticksRules(21), 0).startswith("moving first at 21 sticks the perfect player wins")
    assert cannot_win(NimRules((1, 2, 3)), 0).startswith("moving first in Nim from piles 1, 2, 3")  # 1^2^3 = 0
    assert cannot_win(NimRules((3, 4, 5)), 1).startswith("moving second in Nim from piles 3, 4, 5")
    assert cannot_win(NoughtsRules(), 0) == cannot_win(NoughtsRules(), 1) == (
        "in noughts and crosses perfect play is a draw: no one beats a perfect player, so 0% is the rule, "
        "not the learner")
    assert chances_sentence(SticksRules(21), 0.0, 0.5) == (
        "In a game of 21 sticks it beats a perfect player 0.0% moving first and 50.0% moving second (moving "
        "first at 21 sticks the perfect player wins every game: 0% is the rule, not the learner).")


def test_the_token_drawn_is_named_as_the_game_names_its_learners_tokens_on_every_screen():
    """'a bead drawn wins' for MENACE and HER (matchboxes of beads), 'a ball drawn wins' for the hats: the figure's
    word and the screens' words (ui.brains.entry_words) are one rule, the entry's `token_words`."""
    from sticks_tui.engine import registry
    from sticks_tui.engine.hexapawn import HexapawnRules
    from sticks_tui.learn.figure_words import drawn_label
    from sticks_tui.ui.brains import entry_words

    games = (SticksRules(20), NimRules(), NoughtsRules(), HexapawnRules())
    assert [drawn_label(r) for r in games] == ["a ball drawn wins", "a ball drawn wins", "a bead drawn wins",
                                               "a bead drawn wins"]
    assert [entry_words(registry.entry_of(r)).token for r in games] == ["ball", "ball", "bead", "bead"]
