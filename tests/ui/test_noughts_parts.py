"""The noughts screen's parts without an app (cheap): who plays which mark, the small boards of the
boxes view, the first box's chart, where a click lands on the big board, and the keeper adding a
training run's curve after the games before it."""

from __future__ import annotations

import pytest

from sticks_tui.learn.menace import CurvePoint, MenaceBrain
from sticks_tui.ui.noughts_keeper import MenaceTrainingResult
from sticks_tui.ui.noughts_keeper import NoughtsKeeper
from sticks_tui.ui.screens.noughts import seat_kinds
from sticks_tui.ui.widgets.noughts_board import BOARD_H, BOARD_W, CELL_H, CELL_W, NoughtsBoard, NoughtsBoardData
from sticks_tui.ui.widgets.noughts_boxes import SMALL_W, BeadChart, boxes_grid, small_board


@pytest.mark.parametrize("opponent, x_first, kinds", [
    ("menace", True, {"X": "human", "O": "menace"}),
    ("menace", False, {"X": "menace", "O": "human"}),
    ("friend", False, {"X": "human", "O": "human"}),
    ("watch-perfect", True, {"X": "menace", "O": "perfect"}),
    ("watch-random", False, {"X": "random", "O": "menace"}),
    ("watch-menace", True, {"X": "menace", "O": "menace"}),
])
def test_who_plays_x_and_o(opponent, x_first, kinds):
    assert seat_kinds(opponent, x_first) == kinds


def test_a_small_board_shows_marks_counts_and_squares_without_beads():
    lines = small_board(2, "X...O....", (0, 7, 1, 0, 0, 12, 0, 0, 4000))
    assert lines == ["#2: 4.0k beads",
                     " X   7   1    ",
                     " ·   O   12   ",
                     " ·   ·  4.0k  "]
    assert all(len(line) == SMALL_W for line in lines)
    grid = boxes_grid([(n, "." * 9, (1,) * 9) for n in range(1, 6)], width=2 * SMALL_W + 3)
    assert grid[0] == "#1: 9 beads    │ #2: 9 beads" and grid[5].startswith("#3: ")  # two a row


def test_the_first_box_chart_plots_each_square_at_its_count():
    chart = BeadChart()
    chart.samples = ((0, (4, 4, 0, 0, 4, 0, 0, 0, 0)), (100, (0, 9, 0, 0, 20, 0, 0, 0, 0)))
    lines = ["".join(t for t, _ in line) for line in chart.chart_lines(40, 8)]
    assert lines[0] == "box 1: ●corner 0 ▲edge 9 ◆centre 20"
    assert lines[1].startswith("   20┤") and lines[1].rstrip().endswith("◆")  # centre 20 at game 100, the top
    assert lines[4].startswith("     │◆")  # game 0: all three at 4 (the centre drawn last, on top)
    assert lines[5].startswith("    0┤ ") and lines[5].rstrip().endswith("●")  # corner 0 at game 100
    assert "games" in lines[7]


def test_a_click_lands_on_the_square_drawn_there_and_never_on_a_grid_line():
    board = NoughtsBoard()
    assert board.square_at(1, 1) == 1 and board.square_at(BOARD_W - 2, BOARD_H - 2) == 9
    assert board.square_at(CELL_W + 2, CELL_H + 2) == 5
    assert board.square_at(CELL_W + 1, 3) is None and board.square_at(3, CELL_H + 1) is None
    assert board.square_at(0, 3) is None and board.square_at(3, BOARD_H) is None
    board.data = NoughtsBoardData("X........", cursor=5, best=(5, 9))
    assert "".join(t for t, _ in board.number_line(4)) == "5 ◆    ✓ best"
    assert "".join(t for t, _ in board.number_line(1)) == "2" + " " * (CELL_W - 1)


def test_a_training_run_is_added_after_the_games_before_it():
    keeper = NoughtsKeeper(seed=1)
    keeper.games, keeper.results[:] = 10, [2, 3, 5]
    run = MenaceTrainingResult(20, 20, 0.1, (4, 6, 10), [CurvePoint(1, 0, 0, 1, 0.5), CurvePoint(20, 4, 6, 10, 0.7)],
                               [(0, (4,) * 9), (20, (5,) * 9)], False, "kernel")
    keeper.add_run(run)
    assert keeper.games == 30 and keeper.results == [6, 9, 15]
    assert [(p.games, p.win, p.draw, p.loss) for p in keeper.curve] == [(11, 2, 3, 6), (30, 6, 9, 15)]
    assert keeper.first_box[-1] == (30, (5,) * 9) and keeper.first_box[0][0] == 0
    keeper.reset(keeper.rule)
    assert keeper.games == 0 and keeper.curve == [] and isinstance(keeper.x_brain, MenaceBrain)


def test_the_chance_against_the_perfect_player_says_whose_it_is():
    """The exact chance is X's boxes' (moving first), whichever seat MENACE takes in the game on screen:
    the line says so, with the figure computed from those boxes."""
    keeper = NoughtsKeeper(seed=1)
    text = keeper.chance_text()
    assert text == (f"MENACE (X)'s chance not to lose one more game to the perfect AI, moving first: "
                    f"{keeper.not_losing_vs_perfect():.1%} (exact).")


def test_the_chance_follows_boxes_taken_from_the_class_live():
    """After a game the chance is the curve's last point; when a classmate's lesson then changes X's boxes
    (the live check adopting them), the chance shown is of the boxes as they are now, not that point."""
    keeper = NoughtsKeeper(seed=1)
    keeper.curve.append(CurvePoint(1, 1, 0, 0, 0.5))  # as after a game: the chance of those boxes
    keeper.bases["X"] = keeper.x_brain.counts.copy()
    assert "50.0%" in keeper.chance_text()
    (name, brain, base, adopt, cell), = keeper.held()
    taught = brain.counts.copy()
    centre = keeper.x_brain.column(".........", 5)
    taught[0, centre] += 30  # the centre of the first box, much likelier
    adopt(taught)
    assert keeper.x_brain.counts[0, centre] == taught[0, centre]
    assert f"{keeper.not_losing_vs_perfect():.1%}" in keeper.chance_text()
    assert "50.0%" not in keeper.chance_text()
