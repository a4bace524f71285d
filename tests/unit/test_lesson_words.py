"""The lesson of one game in one sentence, read from the brain's rule and what changed (never a ball
said thrown away that stayed)."""

from __future__ import annotations

from sticks_tui.engine.events import HatChange
from sticks_tui.learn.hats import HatRule
from sticks_tui.learn.lesson_words import lesson_sentence

SEEDS = HatRule()
MENACE = HatRule(start_balls=3, win_reward=3, loss_penalty=1)


def test_a_loss_that_finds_only_last_balls_says_nothing_is_thrown_away():
    changes = (HatChange(17, 1, 1, 1), HatChange(13, 3, 1, 1), HatChange(1, 1, 1, 1))
    assert lesson_sentence("Learning AI", False, changes, SEEDS) == (
        "Learning AI lost, but each ball it drew was the last of its number, and a hat always keeps at least one "
        "ball of each number: nothing is thrown away, and hat 17 ball 1, hat 13 ball 3 and hat 1 ball 1 stay as "
        "they were (=).")
    assert lesson_sentence("AI 2", False, changes[:1], SEEDS, detail=False) == (
        "AI 2 lost, but the ball it drew was the last of its number, and a hat always keeps at least one ball of "
        "each number: nothing is thrown away, and hat 17 stays as it was (=).")


def test_a_loss_that_throws_some_away_names_the_ones_that_stay():
    changes = (HatChange(10, 3, 2, 1), HatChange(5, 1, 1, 1), HatChange(1, 1, 1, 1))
    assert lesson_sentence("AI 2", False, changes, SEEDS) == (
        "AI 2 lost: each ball it drew is thrown away (hat 10 ball 3: 2→1), except hat 5 ball 1 and hat 1 ball 1: "
        "they were the last of their number, and a hat always keeps at least one ball of each number, so they "
        "stay (=).")
    assert lesson_sentence("AI 2", False, changes, SEEDS, detail=False) == (
        "AI 2 lost: each ball it drew is thrown away, except hats 5 and 1: they were the last of their number, and "
        "a hat always keeps at least one ball of each number, so they stay (=).")


def test_the_menace_rule_loses_a_ball_you_can_see():
    changes = (HatChange(10, 3, 3, 2), HatChange(5, 1, 3, 2))
    assert lesson_sentence("Learning AI", False, changes, MENACE) == (
        "Learning AI lost: each ball it drew is thrown away (hat 10 ball 3: 3→2, hat 5 ball 1: 3→2).")
    assert lesson_sentence("Learning AI", True, (HatChange(7, 2, 3, 6),), MENACE) == (
        "Learning AI won: each ball it drew goes back with 3 more of its number (hat 7 ball 2: 3→6).")


def test_rules_that_change_nothing_say_so():
    change = (HatChange(7, 2, 1, 1),)
    assert lesson_sentence("AI 1", True, change, HatRule(win_reward=0)) == (
        "AI 1 won, but a win adds no ball: its hats stay as they were.")
    assert lesson_sentence("AI 1", False, change, HatRule(loss_penalty=0)) == (
        "AI 1 lost, but a loss takes no ball away: its hats stay as they were.")
    assert lesson_sentence("AI 1", False, (), SEEDS) == "AI 1 lost without drawing a ball: its hats stay as they were."


def test_the_whole_hat_floor_and_a_heavier_penalty():
    rule = HatRule(loss_penalty=2, floor="nonempty")
    changes = (HatChange(9, 2, 3, 1), HatChange(2, 1, 1, 1))
    assert lesson_sentence("AI 1", False, changes, rule) == (
        "AI 1 lost: up to 2 balls of each number it drew are thrown away (hat 9 ball 2: 3→1), except hat 2 ball 1: "
        "it was the last ball in its hat, and a hat always keeps at least one ball, so it stays (=).")


def test_whether_a_loss_shows_from_the_first_game():
    from sticks_tui.learn.lesson_words import losses_note

    assert losses_note(MENACE) == "With 3 balls of each number to start, a loss visibly takes balls away (3→2) from the first game on."
    assert losses_note(SEEDS) == ("With 1 ball of each number to start, a loss before the AI's first win finds only "
                                  "last balls, which stay (=); MENACE-like hats start with 3.")
    assert losses_note(HatRule(floor="nonempty")) == (
        "With 1 ball of each number to start, a loss visibly takes balls away (1→0) from the first game on.")
    assert losses_note(HatRule(loss_penalty=0)) == ""


def test_a_draw_is_told_by_the_rules_draw_reward():
    """Games that can draw (issue 17): the lesson and the rule in words say what a draw gives."""
    menace = HatRule(start_balls=3, win_reward=3, draw_reward=1, loss_penalty=1)
    change = (HatChange(4, 1, 3, 4), HatChange(2, 2, 3, 4))
    assert lesson_sentence("AI 1", None, change, menace) == (
        "AI 1 drew: each ball it drew goes back with one more of its number (hat 4 ball 1: 3→4, hat 2 ball 2: 3→4).")
    assert lesson_sentence("AI 1", None, change, HatRule()) == (
        "AI 1 drew, but a draw adds no ball: its hats stay as they were.")
    kept = (HatChange(4, 1, 5, 3), HatChange(2, 2, 1, 1))
    assert lesson_sentence("AI 1", None, kept, HatRule(draw_reward=-2), detail=False) == (
        "AI 1 drew: up to 2 balls of each number it drew are thrown away, except hat 2: it was the last of its "
        "number, and a hat always keeps at least one ball of each number, so it stays (=).")
    from sticks_tui.learn.lesson_words import rule_sentence

    assert rule_sentence(menace) == (
        "Each hat starts with 3 balls of each number. A win adds 3 balls of each number drawn, a draw adds 1 ball, "
        "a loss takes 1 away; a hat never has fewer than 1 ball of each number.")
