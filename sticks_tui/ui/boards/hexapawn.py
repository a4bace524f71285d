"""Hexapawn's board (issue 32 item 6, Martin Gardner's game for HER): the 3x3 board with its files a-c and ranks 1-3,
White's pawns ♙ and Black's ♟ (and W, B in words beside the board), and under it the side to move's moves, numbered:
a person picks one with its number (1-9) or by clicking the pawn, then the square it goes to. While the learning AI
is to move, each of its moves shows the beads its box holds for it and their chance, the one drawn marked ►; after a
game, each bead it drew with its count before → after.

    3 │ ♟ │ ♟ │ ♟ │        1 a1-a2
      ├───┼───┼───┤        2 b1-b2
    2 │   │   │   │        3 c1-c2
      ├───┼───┼───┤
    1 │ ♙ │ ♙ │ ♙ │
        a   b   c
"""

from __future__ import annotations

from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.strip import Strip

from sticks_tui.engine import registry
from sticks_tui.ui.boards import Board, BoardView, GameBoard
from sticks_tui.ui.widgets.container_view import change_words
from sticks_tui.ui.widgets.heatmap import MARK_DRAWN, MARK_MIRROR, MARK_PERFECT, short_chance, short_count

PIECES = {"W": "♙", "B": "♟", ".": " "}
SIDES = {"W": "White", "B": "Black"}
CELL = 5  # " ♙ " with room: a square's width
LEFT = 3  # "3 │"
BOARD_W = LEFT + 3 * (CELL + 1)
MOVES_AT = BOARD_W + 3  # the column the list of moves starts at
INTRO = ("Hexapawn: three pawns a side on a 3x3 board; a pawn steps forward into an empty square or takes "
         "diagonally forward. Reach the far row, take every pawn, or leave the other side no move to win. Martin "
         "Gardner's HER learned it with matchboxes.")


def file_rank(index: int) -> str:
    row, col = divmod(index, 3)
    return f"{'abc'[col]}{3 - row}"


class HexapawnBoard(GameBoard):
    """The board, and the side to move's moves numbered beside it (keys 1-9, or clicks: the pawn, then its square)."""

    DEFAULT_CSS = """
    HexapawnBoard { width: auto; height: auto; min-width: 40; }
    HexapawnBoard > .hexapawn--grid { color: $text-muted; }
    HexapawnBoard > .hexapawn--pawn { text-style: bold; }
    HexapawnBoard > .hexapawn--chosen { text-style: bold reverse; }
    HexapawnBoard > .hexapawn--drawn { text-style: bold reverse; }
    HexapawnBoard > .hexapawn--best { color: $success; text-style: bold; }
    """
    COMPONENT_CLASSES = {"hexapawn--grid", "hexapawn--pawn", "hexapawn--chosen", "hexapawn--drawn", "hexapawn--best"}
    BINDINGS = [
        Binding("1", "move(1)", "Move", key_display="1-9", id="hexapawn.move",
                tooltip="Play the move of that number in the list beside the board"),
        *[Binding(str(n), f"move({n})", f"Move {n}", show=False, id=f"hexapawn.move{n}") for n in range(2, 10)],
    ]

    chosen: int | None = None  # the square of the pawn clicked first

    def prompt(self) -> str:
        return "its number (1-9), or a click on the pawn and then on its square."

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return MOVES_AT + 24

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(9, len(self.move_lines()))

    def watch_view(self, view: BoardView) -> None:
        if not view.playable:
            self.chosen = None
        self.refresh(layout=True)

    # -- what is drawn -----------------------------------------------------------------------------
    def move_lines(self) -> list[tuple[str, str]]:
        """The list beside the board: each legal move numbered, with the box's beads for it when shown; after
        the learner's move, the box it drew from (its bead drawn ►) until the next move; after a game, each bead
        it drew with its count before → after in full."""
        view = self.view
        if view.position is None:
            return []
        lines: list[tuple[str, str]] = []
        if not view.rules.is_terminal(view.position):
            lines.append((f"{SIDES[view.position[10]]} to move:", "pawn"))
            here = view.container if view.box_position is None else None
            for n, move in enumerate(view.legal_moves, start=1):
                text = f"{n} {move}" + (self._beads(move, n - 1) if here is not None else "")
                if move in view.perfect:
                    text += f" {MARK_PERFECT}"
                style = "drawn" if here is not None and move == view.drawn else "best" if move in view.perfect else ""
                lines.append((text, style))
            if view.container is not None and view.box_position is not None:
                lines.append(("The box it drew from:", "pawn"))
                lines += [(f"  {move}{self._beads(move, i)}", "drawn" if move == view.drawn else "")
                          for i, move in enumerate(view.box_moves)]
        else:
            lines.append(("", ""))
        for _, move, before, after in view.changes:
            lines.append((f"{move}: {change_words(before, after)}", ""))
        return lines

    def _beads(self, move, i: int) -> str:
        """A move's beads in the box shown: ' ►   3 50%' (⇋: a mirror image of another move, counted there)."""
        view = self.view
        mark = MARK_DRAWN if move == view.drawn else " "
        if move in view.mirrored:
            return f" {mark}{MARK_MIRROR:>4} mirror"
        beads, total = view.container[i], sum(view.container)
        return f" {mark}{short_count(beads):>4} {short_chance(beads, total)}" + (" emptied" if beads == 0 else "")

    def board_lines(self) -> list[list[tuple[str, str]]]:
        view = self.view
        board = view.position[:9] if view.position is not None else "." * 9
        rule = "├" + "┼".join(["─" * CELL] * 3) + "┤"
        # (the spaces before a line are a run of their own: some SVG renderers drop a run's leading spaces)
        out: list[list[tuple[str, str]]] = [[("  ", ""), ("┌" + "┬".join(["─" * CELL] * 3) + "┐", "grid")]]
        for row in range(3):
            line: list[tuple[str, str]] = [(f"{3 - row} │", "grid")]
            for col in range(3):
                index = row * 3 + col
                piece = board[index]
                if index == self.chosen:
                    line += [(f"  {PIECES[piece]}  ", "chosen"), ("│", "grid")]
                else:  # the glyph a run of its own: some SVG renderers drop a run's leading spaces
                    line += [("  ", ""), (PIECES[piece], "pawn"), ("  ", ""), ("│", "grid")]
            out.append(line)
            out.append([("  ", ""), (rule if row < 2 else "└" + "┴".join(["─" * CELL] * 3) + "┘", "grid")])
        out.append([("     ", ""), ("a     b     c", "grid")])
        out.append([(f"{PIECES['W']} White  {PIECES['B']} Black", "")])
        return out

    def render_line(self, y: int) -> Strip:
        base = self.rich_style
        board = self.board_lines()
        runs = board[y] if y < len(board) else []
        moves = self.move_lines()
        used = sum(len(text) for text, _ in runs)
        if y < len(moves):
            text, style = moves[y]
            runs = [*runs, (" " * max(0, MOVES_AT - used), ""), (text, style)]
        segments = [Segment(text, base + self.get_component_rich_style(f"hexapawn--{style}", partial=True)
                            if style else base) for text, style in runs]
        return Strip(segments).adjust_cell_length(self.size.width, base)

    # -- a person's move ---------------------------------------------------------------------------
    def action_move(self, number: int) -> None:
        moves = self.view.legal_moves
        if 1 <= number <= len(moves):
            self.pick(moves[number - 1])

    def square_at(self, x: int, y: int) -> int | None:
        """The square (0-8, row by row from rank 3) drawn at (x, y), or None on a line or outside the board."""
        if not (1 <= y <= 6 and y % 2 == 1 and LEFT <= x < BOARD_W):
            return None
        col, offset = divmod(x - LEFT, CELL + 1)
        return None if offset == CELL or col > 2 else (y // 2) * 3 + col

    def on_click(self, event: events.Click) -> None:
        square = self.square_at(event.x, event.y)
        view = self.view
        if square is None or not view.playable:
            return
        event.stop()
        if self.chosen is None or view.position[square] == view.position[10]:
            self.chosen = square if view.position[square] == view.position[10] else None
            self.refresh()
            return
        start, end = file_rank(self.chosen), file_rank(square)
        self.chosen = None
        self.refresh()
        self.pick(f"{start}-{end}")  # the rules read 'b1-a2' as the take 'b1xa2' (and refuse what is not a move)


BOARD = Board(
    # HER's brains, Black's 19 boxes and White's 18, are her game's (`GameEntry.ai_brains`)
    widget=HexapawnBoard, intro=lambda app: INTRO, sides=("White", "Black"),
    move_label=lambda position, move: move, layout="square",
    opening=lambda rules, start: "three pawns a side, each on its home row",
    move_line=lambda rules, name, before, move, after: f"{name}: {move}.",
    result_line=lambda rules, position, winner, loser, resigned: (
        f"{loser} resigns. {winner} wins." if resigned else f"{winner} wins: {rules.position_text(position)}."),
    help=(("Hexapawn (Martin Gardner's HER)",
           "Three pawns a side on a 3x3 board; White moves first. A pawn steps one square straight forward into an "
           "empty square, or takes an enemy pawn one square diagonally forward. A side wins by reaching the far "
           "row, by taking every enemy pawn, or when the other side has no move. There are no draws, and with "
           "perfect play Black, the second player, always wins.\n"
           "The learning AI, HER, keeps a hat for each position it faces with balls for each move, draws one, "
           "and learns by the hats' rule above (a win adds balls like those drawn, a loss takes them away); "
           "Gardner's HER did it with matchboxes of beads. Playing Black she has 19 boxes (one per position up to "
           "the mirror), playing White another brain, 'HER White', of 18. On the board the side to move's moves are numbered: "
           "a number key, or a click on the pawn and then on its square, plays one."),),
)
registry.set_board("hexapawn", board=BOARD)
