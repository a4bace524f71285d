"""MENACE trained while watched (issue 18 item 4): one game at a time (told, with its beads' changes)
and compiled batches share one random stream, so a run whose pace changes leaves the same beads."""

from __future__ import annotations

import numpy as np
import pytest

from sticks_tui.engine.noughts import EMPTY_BOARD, place
from sticks_tui.learn.control import TrainingControl
from sticks_tui.learn.menace import MenaceBrain, MenaceRule
from sticks_tui.learn.menace_training import MenaceTrainer


def brains(opponent, rule=MenaceRule()):
    return MenaceBrain(rule), (MenaceBrain(rule, "O") if opponent == "menace" else None)


@pytest.mark.parametrize("opponent", ["random", "perfect", "menace"])
def test_told_games_between_batches_leave_the_beads_of_batches_alone(opponent):
    rule = MenaceRule(beads=(2, 2, 1, 1), incentives=(2, 1, -1), empty="refill")
    x1, o1 = brains(opponent, rule)
    mixed = MenaceTrainer(x1, opponent, seed=11, o_brain=o1)
    assert mixed.engine == "kernel"
    mixed.play(150)
    told = [mixed.play_story(150 + g) for g in range(40)]
    mixed.play(110)
    x2, o2 = brains(opponent, rule)
    batches = MenaceTrainer(x2, opponent, seed=11, o_brain=o2)
    batches.play(300)
    assert np.array_equal(x1.counts, x2.counts)
    if o1 is not None:
        assert np.array_equal(o1.counts, o2.counts)
    assert mixed.results == batches.results and sum(mixed.results) == 300
    assert [s.number for s in told] == list(range(151, 191))


def test_a_told_game_says_which_beads_changed_and_how():
    x, _ = brains("perfect")
    trainer = MenaceTrainer(x, "perfect", seed=3, engine="reference")
    story = trainer.play_story(0)
    board = EMPTY_BOARD
    for square in story.moves:
        board = place(board, square)
    assert story.board == board
    assert story.result in (0, -1)  # the perfect player never loses
    x_changes = [c for c in story.changes if c.marks == "X"]
    assert x_changes, "MENACE drew at least its first bead"
    delta = {0: 1, -1: -1}[story.result]
    for change in x_changes:
        assert change.after == max(0, change.before + delta)
        assert x.counts[change.row, change.col] == change.after
        assert change.board[change.square - 1] == "."
        assert change.square in story.moves


def test_a_run_at_a_pace_then_stepped_is_bit_for_bit_a_run_at_full_speed():
    x1, _ = brains("random")
    control = TrainingControl(1000)  # one game at a time, each told
    stories = []
    result = MenaceTrainer(x1, "random", seed=5).run(
        25, control, progress=lambda p: stories.append(p.story) if p.story is not None else None)
    assert [s.number for s in stories] == list(range(1, 26))
    x2, _ = brains("random")
    fast = MenaceTrainer(x2, "random", seed=5).run(25)
    assert np.array_equal(x1.counts, x2.counts)
    assert result.results == fast.results
    assert [p.games for p in result.curve] == [1, 2, 3, 5, 7, 10, 15, 20, 25]
    assert [p.not_losing_vs_perfect for p in result.curve] == [p.not_losing_vs_perfect for p in fast.curve]
    assert result.first_box[0] == (0, (4, 4, 0, 0, 4, 0, 0, 0, 0))
    assert result.first_box[-1] == (25, tuple(int(c) for c in x1.counts[0]))


def test_menace_against_menace_needs_a_brain_for_o():
    with pytest.raises(ValueError, match="second brain for O"):
        MenaceTrainer(MenaceBrain(), "menace", seed=1)
