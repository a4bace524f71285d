"""Replay a recorded game of noughts and crosses move by move: the board drawn large and a log of the
moves in words. Step 0 is the empty board, step k the board after move k.

Where the game taught MENACE (its lesson is kept with the game), each of MENACE's moves first shows its
box as it was before the game, with the bead it drew, and the last step shows each bead's count
before → after. Games kept without a lesson replay their moves and say so.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from sticks_tui.engine.noughts import EMPTY_BOARD, SQUARE_NAMES, place, to_move
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.boards.noughts import NoughtsBoard, NoughtsBoardData

NOTE_NO_BOXES = ("MENACE's beads as they were before this game are not kept with it: the moves replay, "
                 "the boxes do not.")
NOTE_BOXES = "Before each of MENACE's moves: its box as it was, and the bead it drew."


def replay_boards(game) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the board at each step, 0..n; the log line of each move, 1..n) of a recorded noughts game."""
    first = game.first
    boards, lines = [EMPTY_BOARD], []
    for i, square in enumerate(game.moves):
        board = boards[-1]
        lines.append(f"{i + 1}. {game.players[(first + i) % 2]} ({to_move(board)}): square {square} "
                     f"({SQUARE_NAMES[int(square) - 1]}).")
        boards.append(place(board, int(square)))
    return tuple(boards), tuple(lines)


def end_words(game) -> str:
    if game.resigned:
        return f"{game.loser_name} resigns (its box for this board is empty); {game.winner_name} wins."
    if game.drawn:
        return "A draw: the board is full and nobody has three in a row."
    return f"{game.winner_name} wins with three in a row; {game.loser_name} loses."


class NoughtsReplayScreen(StyledOnce, Screen):
    BINDINGS = [
        Binding("left", "step(-1)", "Previous", key_display="←", id="noughts_replay.back_one"),
        Binding("right", "step(1)", "Next", key_display="→", id="noughts_replay.forward"),
        Binding("home", "to(0)", "Start", id="noughts_replay.start"),
        Binding("end", "to(-1)", "End", id="noughts_replay.end"),
        Binding("escape", "back", "Back", id="noughts_replay.leave"),
    ]
    DEFAULT_CSS = """
    NoughtsReplayScreen #nr { height: 1fr; }
    NoughtsReplayScreen #nr-board { margin: 0 1 0 0; }
    NoughtsReplayScreen #nr-side { width: 1fr; height: 1fr; }
    NoughtsReplayScreen #nr-head { height: auto; text-style: bold; color: $accent; }
    NoughtsReplayScreen #nr-log { height: 1fr; border: none; }
    NoughtsReplayScreen #nr-note { height: auto; color: $text-muted; }
    """

    def __init__(self, game) -> None:
        super().__init__()
        self.game = game
        self.boards, self.lines = replay_boards(game)
        self.step = len(self.boards) - 1
        # MENACE's boxes before the game, by the seat it played: {seat: {board: beads by square}}
        self.boxes = {lesson.seat: lesson.hats_before() for lesson in game.learning}
        self.changes = tuple((int(c[1]), int(c[2]), int(c[3])) for lesson in game.learning for c in lesson.changes)

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="nr"):
            yield NoughtsBoard(id="nr-board")
            with Vertical(id="nr-side"):
                yield Static("", id="nr-head")
                yield MoveLog(id="nr-log")
                yield Static(NOTE_BOXES if self.boxes else NOTE_NO_BOXES if self.game.brain else "", id="nr-note")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"replay: game {self.game.id}, {' vs '.join(self.game.players)}"
        self.show()

    def show(self) -> None:
        n = len(self.boards) - 1
        end = self.step == n
        self.query_one(NoughtsBoard).data = self.board_data()
        self.query_one("#nr-head", Static).update(
            f"Game {self.game.id}: {' vs '.join(self.game.players)}, {self.game.result_words}. "
            f"Step {self.step} of {n} (←/→, Home/End).")
        log = self.query_one("#nr-log", MoveLog)
        log.clear()
        for line in self.lines[: self.step]:
            log.write(line)
        if end:
            log.write(end_words(self.game))

    def board_data(self) -> NoughtsBoardData:
        n = len(self.boards) - 1
        board = self.boards[self.step]
        if self.step == n:
            note = end_words(self.game)
            if self.changes:
                note += " Under MENACE's marks: its beads before → after."
            return NoughtsBoardData(board, changes=self.changes, note=note)
        seat = (self.game.first + self.step) % 2
        box = self.boxes.get(seat, {}).get(board)
        square = int(self.game.moves[self.step])
        if box is not None:
            return NoughtsBoardData(board, tuple(int(b) for b in box), drawn=square,
                                    note=f"Move {self.step + 1}: MENACE's box as it was; it drew square {square}.")
        return NoughtsBoardData(board, note=f"Move {self.step} of {n}.")

    def action_step(self, by: int) -> None:
        self.step = max(0, min(len(self.boards) - 1, self.step + by))
        self.show()

    def action_to(self, where: int) -> None:
        self.step = 0 if where == 0 else len(self.boards) - 1
        self.show()

    def action_back(self) -> None:
        self.app.pop_screen()
