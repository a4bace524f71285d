"""Each game's board alone (cheap: a small app holding the board, no game screen, no store): the keys and clicks
a person moves by, the move the board reports for them (`GameBoard.Picked`), and what it draws of a position.
A new game adds its board's test here; the rest of the screen is tested once (test_game_screen.py)."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button, Label

from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.noughts import NoughtsRules
from sticks_tui.engine.rules import SticksRules
from sticks_tui.ui.boards import BoardView, GameBoard, board_of
from sticks_tui.ui.boards.nim import NimBoard, NimPilesView
from sticks_tui.ui.boards.noughts import BOARD_H, BOARD_W, CELL_H, CELL_W, NoughtsBoard, NoughtsBoardData
from sticks_tui.ui.boards.sticks import SticksBoard, SticksView
from sticks_tui.ui.widgets.nim_table import NimTableView


class Host(App):
    """A board with the focus, and every move it reports."""

    def __init__(self, board: GameBoard, view: BoardView) -> None:
        super().__init__()
        self.board, self.first_view, self.picked = board, view, []

    def compose(self) -> ComposeResult:
        yield self.board

    def on_mount(self) -> None:
        self.board.view = self.first_view
        self.board.focus()

    def on_game_board_picked(self, event: GameBoard.Picked) -> None:
        self.picked.append(event.move)


def view(rules, position, **kwargs) -> BoardView:
    return BoardView(rules, position, controls=True, playable=True, **kwargs)


@pytest.mark.parametrize("game, widget", [("sticks", SticksBoard), ("nim", NimBoard), ("noughts", NoughtsBoard)])
def test_each_game_has_its_board(game, widget):
    assert board_of(game).widget is widget


async def test_the_sticks_board_takes_by_keys_and_buttons_and_says_how_many_are_left():
    rules = SticksRules(10)
    app = Host(SticksBoard(rules, id="board"), view(rules, 2, last=(4, 2)))
    async with app.run_test(size=(60, 16)) as pilot:
        board = app.board
        assert board.query_one(SticksView).heap == 2 and board.query_one(SticksView).leaving == 2  # 2 just taken
        assert str(board.query_one("#count", Label).render()) == "There are 2 sticks on the board."
        assert board.prompt() == "take 1 or 2 (keys or buttons)."
        assert board.query_one("#take-3", Button).disabled and not board.query_one("#take-2", Button).disabled
        await pilot.press("1", "3")  # a take the rules refuse is the screen's to refuse: the board reports it
        await pilot.click("#take-2")
        assert app.picked == [1, 3, 2]
        board.view = BoardView(rules, 2, controls=True, playable=False)  # the other player's turn
        await pilot.pause()
        await pilot.press("1")
        assert app.picked == [1, 3, 2] and board.query_one("#take-1", Button).disabled
        board.view = BoardView(rules, 0)  # over: no controls
        await pilot.pause()
        assert not board.query_one("#moves").display and str(board.query_one("#count", Label).render()) == ""


async def test_the_nim_board_chooses_a_pile_and_coins_takes_them_and_shows_the_table():
    rules = NimRules((100, 100, 100))
    app = Host(NimBoard(rules, id="board"), view(rules, (2, 2, 1)))
    async with app.run_test(size=(80, 20)) as pilot:
        board = app.board
        await pilot.press("right", "right")  # to the quarters
        await pilot.press("up", "up")  # one quarter only: the count stays 1
        assert (board.chosen, board.coins) == (2, 1)
        assert "take 1 quarter" in str(board.query_one("#nim-move", Label).render())
        await pilot.press("enter")
        assert app.picked == [(2, 1)]
        board.view = view(rules, (2, 2, 0))
        await pilot.pause()
        assert board.chosen != 2  # an empty pile is never chosen
        await pilot.click(NimPilesView, offset=(2, 1))  # a click on the first pile chooses it
        await pilot.press("up")
        await pilot.click("#nim-take")
        assert app.picked == [(2, 1), (0, 2)]
        await pilot.press("u")  # the table U(n, d, q) for the quarters in play, here highlighted
        table = board.query_one(NimTableView)
        assert board.has_class("-table") and (table.q, table.here) == (0, (2, 2, 0))
        await pilot.press("right_square_bracket")
        assert table.q == 1
        line = "".join(seg.text for seg in table.render_line(3))  # row n = 2: 'L' exactly where 2 xor d == 1
        assert line[4:].split(" ")[3] == "L" and line[4:].split(" ").count("L") == 1
        await pilot.press("u")
        assert not board.has_class("-table")


async def test_the_noughts_board_marks_by_keys_arrows_and_clicks_and_shows_the_box_in_play():
    rules = NoughtsRules()
    board_now = "X...O...."
    beads = (0, 3, 1, 0, 0, 0, 0, 0, 4)  # by square; squares 4, 6, 7, 8 repeat others by the mirror
    legal = rules.legal_moves(board_now)
    app = Host(NoughtsBoard(rules, id="board"),
               view(rules, board_now, container=tuple(beads[s - 1] for s in legal), drawn=9, perfect=(3,)))
    async with app.run_test(size=(60, 26)) as pilot:
        board = app.board
        data = board.data
        assert (data.beads, data.drawn, data.best, data.cursor) == (beads, 9, (3,), 5)
        assert "drawn: ► square 9" in data.summary() and "8 beads for 3 squares" in data.summary()
        await pilot.press("3")
        await pilot.press("right", "down", "enter")  # the cursor from 3 (just marked) to 1, then 4
        await pilot.click(NoughtsBoard, offset=(CELL_W + 2, 2 * CELL_H + 3))  # square 8
        assert app.picked == [3, 4, 8]
        board.view = BoardView(rules, "XO.XO.X..", changes=(("X...O....", 7, 3, 6),))  # over: the lesson
        await pilot.pause()
        assert board.data.changes == ((7, 3, 6),) and board.data.cursor is None


def test_a_click_on_the_noughts_board_lands_on_the_square_drawn_there_and_never_on_a_grid_line():
    board = NoughtsBoard()
    assert board.square_at(1, 1) == 1 and board.square_at(BOARD_W - 2, BOARD_H - 2) == 9
    assert board.square_at(CELL_W + 2, CELL_H + 2) == 5
    assert board.square_at(CELL_W + 1, 3) is None and board.square_at(3, CELL_H + 1) is None
    assert board.square_at(0, 3) is None and board.square_at(3, BOARD_H) is None
    board.data = NoughtsBoardData("X........", cursor=5, best=(5, 9))
    assert "".join(t for t, _ in board.number_line(4)) == "5 ◆    ✓ best"
    assert "".join(t for t, _ in board.number_line(1)) == "2" + " " * (CELL_W - 1)


def test_a_box_drawn_small_shows_marks_counts_apart_and_a_mirror_image_apart_from_an_emptied_square():
    from sticks_tui.ui.boards.noughts import SMALL_W, small_board

    lines = small_board(2, "X...O....", (0, 1900, 11000, 0, 0, 12, 0, 0, 4000), mirrored=(4, 8))
    assert lines == ["#2: 16k beads  ",
                     "  X   1.9k 11k ",  # counts never touch (they ran together: '1.9k11k')
                     "  ⇋    O    12 ",  # ⇋ a mirror image of another square (square 4 is square 2's)
                     "  0    ⇋   4.0k"]  # 0: emptied
    assert all(len(line) == SMALL_W for line in lines)
    assert board_of("noughts").small(2, "X...O....", {2: 1900, 3: 11000, 4: 0, 6: 12, 7: 0, 8: 0, 9: 4000},
                                     mirrored=(4, 8)) == lines
    in_play = small_board(2, "X...O....", (0, 1900, 11000, 0, 0, 12, 0, 0, 4000), mirrored=(4, 8), drawn=3)
    assert in_play[1] == "  X   1.9k►11k " and in_play[4] == "► in play: sq 3"


async def test_the_hexapawn_board_moves_by_number_and_by_clicking_the_pawn_then_its_square():
    hexapawn = pytest.importorskip("sticks_tui.engine.hexapawn")  # its rules come from the registry's branch
    START, HexapawnRules = hexapawn.START, hexapawn.HexapawnRules
    from sticks_tui.ui.boards.hexapawn import BOARD_W, CELL, LEFT, HexapawnBoard

    rules = HexapawnRules()
    app = Host(HexapawnBoard(rules, id="board"), view(rules, START, container=(1, 2, 3), drawn="b1-b2", perfect=("a1-a2",)))
    async with app.run_test(size=(60, 16)) as pilot:
        board = app.board
        assert board_of("hexapawn").widget is HexapawnBoard
        lines = [text for text, _ in board.move_lines()]
        assert lines == ["White to move:", "1 a1-a2     1 17% ✓", "2 b1-b2 ►   2 33%", "3 c1-c2     3 50%"]
        await pilot.press("3")  # the third move of the list
        await pilot.click(HexapawnBoard, offset=(LEFT + CELL + 1 + 2, 5))  # the pawn on b1 ...
        assert board.chosen == 7
        await pilot.click(HexapawnBoard, offset=(LEFT + CELL + 1 + 2, 3))  # ... to b2
        assert app.picked == ["c1-c2", "b1-b2"] and board.chosen is None
        assert board.square_at(LEFT + CELL, 1) is None and board.square_at(BOARD_W, 1) is None  # a line, outside
