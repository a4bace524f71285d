"""MENACE's boxes drawn small and the first box's chart, without an app (cheap)."""

from __future__ import annotations

from sticks_tui.ui.widgets.noughts_boxes import SMALL_W, BeadChart, boxes_grid, small_board


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
