"""The noughts and crosses board drawn large, with MENACE's matchbox for the board in play: in each
empty square its number, its beads and their chance (with a bar as long as the chance), the drawn
bead marked `► drawn ◄`, and a line below that says it all in words. Everything reads without colour:
X and O are drawn in lines, chances in figures and bars, the drawn bead in words.

    ┌─────────────┬─────────────┬─────────────┐
    │1            │2            │3            │
    │   ╲     ╱   │   3 beads   │             │
    │     ╳       │     25%     │  no beads   │
    │   ╱     ╲   │ ███         │             │
    │             │             │             │
    ├─────────────┼ ...

The noughts screen (`ui.screens.noughts`) adds what play needs: a cursor square (`◆` beside its
number), the solver's best squares for a hint (`✓ best`), and after a game what each of MENACE's beads
learned, in the cell of the mark it made (`↑ 4→7`, `↓ 3→2`, `= 0→0`). A click on a square posts
`NoughtsBoard.Clicked` with its number.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from sticks_tui.engine.noughts import EMPTY_BOARD, SQUARE_NAMES, to_move
from sticks_tui.ui.widgets.heatmap import MARK_DOWN, MARK_DRAWN, MARK_PERFECT, MARK_UP, short_chance, short_count

CELL_W = 13
CELL_H = 5
BAR_W = CELL_W - 2
X_ART = ("   ╲     ╱   ", "      ╳      ", "   ╱     ╲   ")
O_ART = ("    ╭───╮    ", "    │   │    ", "    ╰───╯    ")
BOARD_W = 3 * CELL_W + 4
BOARD_H = 3 * CELL_H + 4


@dataclass(frozen=True)
class NoughtsBoardData:
    """What the widget shows: plain data, no brain object.

    board: 9 characters of X, O and '.' row by row.
    beads: the box's beads for each square (0-8), or None when there is no box for this board (the
           other player's turn, or a forced move).
    drawn: the square (1-9) whose bead was just drawn, or None.
    cursor: the square (1-9) the keys point at, or None.
    best: squares (1-9) to mark as best (a hint), or ().
    changes: after a game, (square, beads before, beads after) for each bead MENACE drew: shown in the
             cell of the mark that bead made.
    note: words to show under the board instead of the summary ('' : the summary).
    """

    board: str = EMPTY_BOARD
    beads: tuple[int, ...] | None = None
    drawn: int | None = None
    cursor: int | None = None
    best: tuple[int, ...] = ()
    changes: tuple[tuple[int, int, int], ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        if len(self.board) != 9:
            raise ValueError(f"a board is 9 characters, not {len(self.board)}")
        if self.beads is not None and len(self.beads) != 9:
            raise ValueError(f"one bead count per square: 9, not {len(self.beads)}")

    @property
    def total(self) -> int:
        return sum(self.beads) if self.beads is not None else 0

    def summary(self) -> str:
        if self.note:
            return self.note
        if self.beads is None:
            return f"{to_move(self.board)} to move; no matchbox for this board."
        total = self.total
        squares = sum(1 for b in self.beads if b > 0)
        if total == 0:
            return "MENACE's box for this board is empty: it resigns (or refills the box)."
        text = f"MENACE's box: {short_count(total).strip()} beads for {squares} square" + ("s" if squares != 1 else "")
        if self.drawn is not None:
            text += f"; drawn: {MARK_DRAWN} square {self.drawn} ({SQUARE_NAMES[self.drawn - 1]})"
        return text + "."


class NoughtsBoard(Widget):
    """The board and MENACE's matchbox for it. Set `data` (a `NoughtsBoardData`) to redraw."""

    DEFAULT_CSS = """
    NoughtsBoard { width: auto; height: auto; }
    NoughtsBoard > .noughtsboard--grid { color: $text-muted; }
    NoughtsBoard > .noughtsboard--mark { text-style: bold; }
    NoughtsBoard > .noughtsboard--bar { color: $warning; }
    NoughtsBoard > .noughtsboard--drawn { text-style: bold reverse; }
    NoughtsBoard > .noughtsboard--muted { color: $text-muted; }
    NoughtsBoard > .noughtsboard--cursor { text-style: bold reverse; }
    NoughtsBoard > .noughtsboard--best { color: $success; text-style: bold; }
    NoughtsBoard > .noughtsboard--change { text-style: bold; }
    """
    COMPONENT_CLASSES = {"noughtsboard--grid", "noughtsboard--mark", "noughtsboard--bar", "noughtsboard--drawn",
                         "noughtsboard--muted", "noughtsboard--cursor", "noughtsboard--best",
                         "noughtsboard--change"}

    class Clicked(Message):
        """A square (1-9) was clicked."""

        def __init__(self, board: NoughtsBoard, square: int) -> None:
            super().__init__()
            self.board = board
            self.square = square

        @property
        def control(self) -> NoughtsBoard:
            return self.board

    data: reactive[NoughtsBoardData] = reactive(NoughtsBoardData, always_update=True, layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return BOARD_W

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return BOARD_H + len(self.summary_lines())

    def summary_lines(self) -> list[str]:
        """The summary, wrapped to the board's width."""
        lines = [""]
        for word in self.data.summary().split(" "):
            if lines[-1] and len(lines[-1]) + 1 + len(word) > BOARD_W:
                lines.append(word)
            else:
                lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
        return lines

    def watch_data(self) -> None:
        self._lines: list[list[tuple[str, str]]] | None = None

    def cell_lines(self, square: int) -> list[list[tuple[str, str]]]:
        """The CELL_H lines of one square (0-8), each as (text, style class) runs of CELL_W characters."""
        data = self.data
        mark = data.board[square]
        lines: list[list[tuple[str, str]]] = [self.number_line(square)]
        if mark in "XO":
            lines += [[(art, "mark")] for art in (X_ART if mark == "X" else O_ART)]
            change = next((c for c in data.changes if c[0] == square + 1), None)
            if change is None:
                lines.append([(" " * CELL_W, "")])
            else:
                _, before, after = change
                arrow = MARK_UP if after > before else MARK_DOWN if after < before else "="
                lines.append([(f"{f'{arrow} {short_count(before).strip()}→{short_count(after).strip()}':^{CELL_W}}",
                               "change")])
            return lines
        beads = data.beads[square] if data.beads is not None else None
        drawn = data.drawn == square + 1
        if beads is None:
            lines += [[(" " * CELL_W, "")] for _ in range(CELL_H - 1)]
            return lines
        if beads == 0:
            lines += [[(" " * CELL_W, "")], [(f"{'no beads':^{CELL_W}}", "muted")],
                      [(" " * CELL_W, "")], [(" " * CELL_W, "")]]
            return lines
        words = f"{short_count(beads).strip()} bead" + ("s" if beads != 1 else "")
        style = "drawn" if drawn else ""
        chance = short_chance(beads, data.total)
        fill = max(1, (BAR_W * beads) // data.total)
        lines.append([(f"{words:^{CELL_W}}", style)])
        lines.append([(f"{chance.strip():^{CELL_W}}", style)])
        lines.append([(" ", ""), ("█" * fill, "bar"), (" " * (CELL_W - 1 - fill), "")])
        lines.append([(f"{MARK_DRAWN + ' drawn ◄':^{CELL_W}}", "drawn")] if drawn else [(" " * CELL_W, "")])
        return lines

    def number_line(self, square: int) -> list[tuple[str, str]]:
        """The top line of a cell: its number, `◆` where the cursor is, `✓ best` for a hint."""
        data = self.data
        cursor = data.cursor == square + 1
        left = f"{square + 1}" + (" ◆" if cursor else "")
        best = f"{MARK_PERFECT} best" if square + 1 in data.best else ""
        if not cursor and not best:
            return [(f"{left:<{CELL_W}}", "muted")]
        runs = [(left, "cursor" if cursor else "muted"), (" " * (CELL_W - len(left) - len(best)), "")]
        if best:
            runs.append((best, "best"))
        return runs

    def square_at(self, x: int, y: int) -> int | None:
        """The square (1-9) drawn at (x, y) of the widget, or None on a grid line or outside the board."""
        if not (0 < x < BOARD_W - 1 and 0 < y < BOARD_H - 1):
            return None
        if x % (CELL_W + 1) == 0 or y % (CELL_H + 1) == 0:
            return None
        return 3 * (y // (CELL_H + 1)) + x // (CELL_W + 1) + 1

    def on_click(self, event: events.Click) -> None:
        square = self.square_at(event.x, event.y)
        if square is not None:
            event.stop()
            self.post_message(self.Clicked(self, square))

    def board_lines(self) -> list[list[tuple[str, str]]]:
        rule = "─" * CELL_W
        out: list[list[tuple[str, str]]] = [[("┌" + "┬".join([rule] * 3) + "┐", "grid")]]
        for r in range(3):
            cells = [self.cell_lines(3 * r + c) for c in range(3)]
            for y in range(CELL_H):
                line: list[tuple[str, str]] = [("│", "grid")]
                for c in range(3):
                    line += cells[c][y] + [("│", "grid")]
                out.append(line)
            out.append([(("├" + "┼".join([rule] * 3) + "┤") if r < 2 else ("└" + "┴".join([rule] * 3) + "┘"),
                         "grid")])
        out += [[(line, "")] for line in self.summary_lines()]
        return out

    _lines: list[list[tuple[str, str]]] | None = None

    def render_line(self, y: int) -> Strip:
        if self._lines is None:
            self._lines = self.board_lines()
        lines = self._lines
        if y >= len(lines):
            return Strip.blank(self.size.width)
        base = self.rich_style
        segments = []
        for text, cls in lines[y]:
            style = base + self.get_component_rich_style(f"noughtsboard--{cls}", partial=True) if cls else base
            segments.append(Segment(text, style))
        return Strip(segments).adjust_cell_length(self.size.width, base or Style())
