"""Issue 16 item 2: the hat rule is written in words in one place (`learn.lesson_words`), from the brain's
rule, and every sentence about a lesson (game log, replay, training story, help, Nim) reads it there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from parsed import walked
from sticks_tui.learn.hats import Hats, HatRule
from sticks_tui.learn.lesson_words import how_hats_learn, rule_sentence, win_words, won_sentence
from sticks_tui.store import Store

UI = Path(__file__).resolve().parents[2] / "sticks_tui" / "ui"
#: Words that state how much a win adds or what a loss takes without reading the rule.
FIXED_RULE_WORDS = re.compile(r"one more (ball|of)|adds a ball|a ball for each|throws away the balls|"
                              r"went back with one more|drawn balls are thrown away")


def test_a_win_of_three_says_three_more_balls():
    rule = HatRule(win_reward=3)
    assert win_words(rule) == "3 more balls of each number it drew"
    assert won_sentence("AI 1", rule) == "AI 1's hats get 3 more balls of each number it drew"
    assert won_sentence("AI 1", HatRule()) == "AI 1's hats get one more ball of each number it drew"
    assert won_sentence("AI 1", HatRule(win_reward=0)) == "AI 1's hats stay as they were (a win adds no ball)"
    assert rule_sentence(HatRule(start_balls=3, win_reward=3, loss_penalty=0)) == (
        "Each hat starts with 3 balls of each number. A win adds 3 balls of each number drawn, a loss takes none "
        "away; a hat never has fewer than 1 ball of each number.")


def test_the_help_tells_the_brains_rule():
    from sticks_tui.ui.screens.help import help_sections

    seeds = dict(help_sections(3))["How the hats learn"]
    assert "goes back in with one more of the same number" in seeds and "those balls are thrown away" in seeds
    text = dict(help_sections(3, HatRule(start_balls=3, win_reward=3, loss_penalty=0)))["How the hats learn"]
    assert "starts with 3 balls of each number 1, 2, 3" in text
    assert "goes back in with 3 more of the same number" in text
    assert "If it loses, every ball goes back in as it was: nothing is thrown away." in text
    assert "one more" not in text
    heavy = how_hats_learn(HatRule(loss_penalty=2, floor="nonempty"), "1, 2")
    assert "up to 2 balls of each of those numbers are thrown away, but a hat always keeps at least one ball " \
           "(the floor)" in heavy


def test_the_replay_tells_the_lesson_by_the_brains_rule(tmp_path):
    from sticks_tui.ui.screens.replay import build_replay

    rule = HatRule(win_reward=3, loss_penalty=0)
    with Store.open(tmp_path / "data") as store:
        store.save_brain("menace", Hats(20, rule=rule))
        store.record_game(start=10, opponent="learning", players=("Ann", "Learning AI"), moves=[3, 2, 1, 3, 1],
                          loser=0, brain="menace", learning={1: ("menace", [(7, 2), (4, 3)])})
        game = store.recent_games()[0]
    lesson = build_replay(game, rule).steps[-1].line
    assert lesson == ("Learning AI won: each ball it drew goes back with 3 more of its number "
                      "(hat 7 ball 2: 1→4, hat 4 ball 3: 1→4).")


def _literals(nodes):
    """The string constants among a module's nodes (`walked`), its docstrings aside."""
    docstrings = {id(node.body[0].value) for node in nodes
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def test_no_screen_writes_the_rule_in_its_own_words():
    """A screen that says 'one more ball' without reading the rule is wrong for every other rule."""
    found = []
    for path in sorted(UI.rglob("*.py")):
        for node in _literals(walked(path)):
            if FIXED_RULE_WORDS.search(node.value):
                found.append(f"{path.relative_to(UI)}:{node.lineno}: {node.value[:60]!r}")
    assert found == []
