"""A snapshot of the noughts and crosses board with MENACE's matchbox (issue 18) at 80x24: two marks,
three squares with beads (their counts, chances and bars), squares that repeat another by symmetry
marked as mirror images (⇋, told apart from an emptied square), and the drawn bead marked in words. Fixed numbers, nothing moves.
Regenerate with `pytest tests/snapshots --snapshot-update`, then look at the SVG."""

from __future__ import annotations

from textual.app import App

from sticks_tui.learn.menace import MenaceBrain
from sticks_tui.ui.boards.noughts import NoughtsBoard, NoughtsBoardData

BOARD = "X...O...."  # X in a corner, O in the centre: X's second move


def board_data() -> NoughtsBoardData:
    brain = MenaceBrain()
    row = brain.row(BOARD)
    brain.counts[row] = 0
    # the squares of the board in play its box counts (4, 7, 8, 9: the others repeat one of them by the
    # board's diagonal symmetry)
    for square, beads in ((4, 7), (7, 1), (8, 12), (9, 4)):
        brain.counts[row, brain.column(BOARD, square)] = beads
    return NoughtsBoardData(BOARD, brain.square_beads(BOARD), drawn=9, mirrored=(2, 3, 6))


class BoardApp(App):
    def compose(self):
        yield NoughtsBoard()

    def on_mount(self) -> None:
        self.query_one(NoughtsBoard).data = board_data()


def test_noughts_board_80x24(snap_compare):
    assert snap_compare(BoardApp(), terminal_size=(80, 24))
