"""Noughts and crosses' board (issue 18, Donald Michie's MENACE): the board drawn large, with the
learning AI's matchbox for the board in play: in each empty square its number, its beads and their
chance (with a bar as long as the chance), the drawn bead marked `► drawn ◄`, and a line below that
says it all in words. Everything reads without colour: X and O are drawn in lines, chances in figures
and bars, the drawn bead in words.

    ┌─────────────┬─────────────┬─────────────┐
    │1            │2            │3            │
    │   ╲     ╱   │   3 beads   │             │
    │     ╳       │     25%     │  no beads   │
    │   ╱     ╲   │ ███         │             │
    │             │             │             │
    ├─────────────┼ ...

For play: a cursor square (`◆` beside its number; the arrows and Enter), the keys 1-9 laid out like a
phone's (1 2 3 is the top row), a click on a square, the perfect squares for a hint (`✓ best`), and
after a game what each bead the learner drew learned, in the cell of the mark it made (`4 → 7`, ↑ by its
number) and in full under the board. The box MENACE drew from stays after its move, until the next
move; a square that is a mirror image of another (`⇋ mirror`) looks apart from an emptied one (`0 beads`).
And the game's words, and MENACE in plain words for the help.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.engine.noughts import EMPTY_BOARD, SQUARE_NAMES, has_line, to_move
from sticks_tui.ui.boards import Board, BoardView, GameBoard
from sticks_tui.ui.widgets.heatmap import (MARK_DOWN, MARK_DRAWN, MARK_MIRROR, MARK_PERFECT, MARK_UP, short_chance,
                                           short_count)

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
             cell of the mark that bead made, and in full under the board.
    note: words to show under the board instead of the summary ('' : the summary).
    mirrored: squares (1-9) with no beads of their own: the mirror image (or turn) of another square of
              the box, whose beads stand for both. A square with 0 beads that is not one was emptied.
    box_of: the board the box shown is for, when it is not `board`: MENACE has just moved, and the box it
            drew from stays shown (its mark in the square drawn) until the next move.
    """

    board: str = EMPTY_BOARD
    beads: tuple[int, ...] | None = None
    drawn: int | None = None
    cursor: int | None = None
    best: tuple[int, ...] = ()
    changes: tuple[tuple[int, int, int], ...] = ()
    note: str = ""
    mirrored: tuple[int, ...] = ()
    box_of: str | None = None

    def __post_init__(self) -> None:
        if len(self.board) != 9:
            raise ValueError(f"a board is 9 characters, not {len(self.board)}")
        if self.beads is not None and len(self.beads) != 9:
            raise ValueError(f"one bead count per square: 9, not {len(self.beads)}")

    @property
    def total(self) -> int:
        return sum(self.beads) if self.beads is not None else 0

    def summary(self) -> str:
        if self.note or self.changes:
            return (self.note + self.changes_words()).strip()
        if self.beads is None:
            return f"{to_move(self.board)} to move."
        total = self.total
        squares = sum(1 for b in self.beads if b > 0)
        if total == 0:
            return "MENACE's box for this board is empty: it resigns (or refills the box)."
        box = "The box MENACE drew from" if self.box_of is not None else "MENACE's box"
        text = f"{box}: {total:,} beads for {squares} square" + ("s" if squares != 1 else "")
        if self.drawn is not None:
            where = "" if self.box_of is not None else f" ({SQUARE_NAMES[self.drawn - 1]})"
            text += f"; drawn: {MARK_DRAWN} square {self.drawn}{where}"
        return text + "." + self.legend()

    def legend(self) -> str:
        """What a square without beads means, for the kinds shown: a mirror image, or emptied."""
        shown = [i + 1 for i in range(9) if self.board[i] not in "XO" and (self.box_of or self.board)[i] not in "XO"]
        words = []
        if any(s in self.mirrored for s in shown):
            words.append(f"{MARK_MIRROR} mirror: a twin, counted there")
        if self.beads is not None and any(self.beads[s - 1] == 0 and s not in self.mirrored for s in shown):
            words.append("0: emptied by losses")
        return "".join(f" {w}." for w in words)

    def changes_words(self) -> str:
        """After a game, in full, each bead MENACE drew whose change its cell cannot show whole (a cell shows
        '11,006→11,007'; '+3' for '1,020,000 → 1,020,003'): ' MENACE's beads: square 1 1,020,000 → 1,020,003 ↑.'"""
        cut = [c for c in self.changes if len(f"{c[1]:,}→{c[2]:,}") > CELL_W]
        if not cut:
            return ""
        return " MENACE's beads: " + ", ".join(f"square\u00a0{square} {change_text(before, after)}"
                                               for square, before, after in cut) + "."


def arrow_of(before: int, after: int) -> str:
    return MARK_UP if after > before else MARK_DOWN if after < before else "="


def change_text(before: int, after: int) -> str:
    """A count's change in full: '11,006 → 11,007 ↑' (never rounded: a change of one bead shows)."""
    return f"{before:,}\u00a0→\u00a0{after:,}\u00a0{arrow_of(before, after)}"


def change_cell(before: int, after: int, width: int) -> str:
    """The change in a cell `width` wide, in full when it fits ('11,006→11,007'), else the difference ('+3');
    the arrow goes on the cell's top line."""
    for text in (f"{before:,} → {after:,}", f"{before:,}→{after:,}"):
        if len(text) <= width:
            return text
    return f"{after - before:+,}"


class NoughtsBoard(GameBoard):
    """The board and MENACE's matchbox for it. Set `view` (a `BoardView`) in play, or `data` (a
    `NoughtsBoardData`, what is drawn) directly."""

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
    NoughtsBoard > .noughtsboard--emptied { color: $error; text-style: bold; }
    """
    COMPONENT_CLASSES = {"noughtsboard--grid", "noughtsboard--mark", "noughtsboard--bar", "noughtsboard--drawn",
                         "noughtsboard--muted", "noughtsboard--cursor", "noughtsboard--best",
                         "noughtsboard--change", "noughtsboard--emptied"}

    BINDINGS = [
        Binding("1", "square(1)", "Square (1 2 3 = top row)", key_display="1-9", id="noughts.square",
                tooltip="Mark square 1 (the keys 1-9 are laid out like a phone's: 1 2 3 is the top row)"),
        *[Binding(str(n), f"square({n})", f"Square {n}", show=False, id=f"noughts.square{n}",
                  tooltip=f"Mark square {n} ({SQUARE_NAMES[n - 1]})") for n in range(2, 10)],
        Binding("left", "cursor(-1)", "Cursor", show=False, id="noughts.left", tooltip="Cursor (◆) left"),
        Binding("right", "cursor(1)", "Cursor", show=False, id="noughts.right", tooltip="Cursor (◆) right"),
        Binding("up", "cursor(-3)", "Cursor", show=False, id="noughts.up", tooltip="Cursor (◆) up"),
        Binding("down", "cursor(3)", "Cursor", show=False, id="noughts.down", tooltip="Cursor (◆) down"),
        Binding("enter", "mark", "Mark", show=False, id="noughts.mark", tooltip="Mark the square the cursor (◆) is on"),
    ]
    cursor = 5

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
        drawn = data.drawn == square + 1
        if mark in "XO":
            lines += [[(art, "mark")] for art in (X_ART if mark == "X" else O_ART)]
            change = next((c for c in data.changes if c[0] == square + 1), None)
            if change is not None:
                lines.append([(f"{change_cell(change[1], change[2], CELL_W):^{CELL_W}}", "change")])
            elif drawn and data.box_of is not None:  # the bead just drawn made this mark
                lines.append([(f"{MARK_DRAWN + ' drawn ◄':^{CELL_W}}", "drawn")])
            else:
                lines.append([(" " * CELL_W, "")])
            return lines
        beads = data.beads[square] if data.beads is not None else None
        if beads is None:
            lines += [[(" " * CELL_W, "")] for _ in range(CELL_H - 1)]
            return lines
        if square + 1 in data.mirrored:
            lines += [[(" " * CELL_W, "")], [(f"{MARK_MIRROR + ' mirror':^{CELL_W}}", "muted")],
                      [(f"{'no beads':^{CELL_W}}", "muted")], [(" " * CELL_W, "")]]
            return lines
        if beads == 0:
            lines += [[(" " * CELL_W, "")], [(f"{'0 beads':^{CELL_W}}", "emptied")],
                      [(f"{'emptied':^{CELL_W}}", "emptied")], [(" " * CELL_W, "")]]
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
        change = next((c for c in data.changes if c[0] == square + 1), None)
        if change is not None and not best:
            best = arrow_of(change[1], change[2])
        if not cursor and not best:
            return [(f"{left:<{CELL_W}}", "muted")]
        runs = [(left, "cursor" if cursor else "muted"), (" " * (CELL_W - len(left) - len(best)), "")]
        if best:
            runs.append((best, "best" if square + 1 in data.best else "change"))
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
            if self.view.playable:
                self.cursor = square
                self.pick(square)

    # -- in play ---------------------------------------------------------------------------------------
    def prompt(self) -> str:
        return "1-9 (1 2 3 = top row), a click, or the arrows and Enter."

    def watch_view(self, view: BoardView) -> None:
        if view.position is None:
            return
        board = view.position
        beads = None
        if view.container is not None:
            per_square = [0] * 9
            for square, n in zip(view.box_moves, view.container, strict=True):
                per_square[square - 1] = int(n)
            beads = tuple(per_square)
        changes = tuple((move, before, after) for _, move, before, after in view.changes)
        self.data = NoughtsBoardData(board, beads, drawn=view.drawn, cursor=self.cursor if view.playable else None,
                                     best=tuple(view.perfect), changes=changes, note=view.note,
                                     mirrored=tuple(view.mirrored), box_of=view.box_position)

    def action_square(self, square: int) -> None:
        self.cursor = square
        self.pick(square)

    def action_cursor(self, by: int) -> None:
        row, col = divmod(self.cursor - 1, 3)
        if by in (-1, 1):
            col = (col + by) % 3
        else:
            row = (row + by // 3) % 3
        self.cursor = 3 * row + col + 1
        self.view = self.view

    def action_mark(self) -> None:
        self.pick(self.cursor)

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


# -- a box drawn small (the brain view: many boxes at a glance) -----------------------------------------------
SMALL_CELL = 5  # a mark (► the bead drawn) or a space, then the count in 4: counts never touch
SMALL_W = 3 * SMALL_CELL


def small_board(number: int, board: str, counts: Sequence[int], mirrored: Sequence[int] = (),
                drawn: int | None = None, changes: dict | None = None) -> list[str]:
    """Four lines of SMALL_W characters: 'box N: B beads' and the board with the counts (⇋ on a mirror image's
    square, 0 on an emptied one); the box in play (`drawn`: the square whose bead was drawn) a fifth line.
    `changes` ({square: (before, after)}, after a game): the square drawn is marked with its arrow (↑ more, ↓
    fewer, = kept) and a line under the board gives the change in full ('sq 5: 11,006→11,007 ↑', or without
    'sq 5: ' when that is wider than the box): never '11k→11k'."""
    total = sum(int(c) for c in counts)
    changes = changes or {}
    head = f"#{number}: " + ("empty" if total == 0 else f"{short_count(total).strip()} beads")
    lines = [f"{head:<{SMALL_W}}"[:SMALL_W]]
    for r in range(3):
        cells = []
        for c in range(3):
            i = 3 * r + c
            if board[i] in "XO":
                text = board[i]
            elif i + 1 in mirrored:
                text = MARK_MIRROR
            else:
                text = short_count(counts[i]).strip()
            mark = arrow_of(*changes[i + 1]) if i + 1 in changes else MARK_DRAWN if drawn == i + 1 else " "
            cells.append(f"{mark}{text:^{SMALL_CELL - 1}}")
        lines.append("".join(cells))
    if drawn is not None:
        lines.append(f"{f'{MARK_DRAWN} in play: sq {drawn}':<{SMALL_W}}")
    for square, (before, after) in sorted(changes.items()):
        change = f"{before:,}→{after:,} {arrow_of(before, after)}"
        lines.append(f"{f'sq {square}: {change}' if len(change) + 6 <= SMALL_W else change:<{SMALL_W}}")
    return lines


def small_box(number: int, position, counts_by_move: dict, *, mirrored: Sequence = (), drawn=None,
              changes: dict | None = None) -> list[str]:
    """The brain view's drawing of one box: its number, its beads, the board with each square's count (and after
    a game, `changes`: {square: (before, after)} of the beads drawn from it)."""
    return small_board(number, position, tuple(counts_by_move.get(square, 0) for square in range(1, 10)),
                       tuple(mirrored), drawn, changes)


INTRO = ("Noughts and crosses: three in a row wins, a full board is a draw; whoever moves first plays "
         "X. MENACE learns it with 304 matchboxes of beads.")


def _move_line(rules, name: str, before, move, after) -> str:
    return f"{name}: square {move} ({SQUARE_NAMES[move - 1]})."


def _result(rules, position, winner, loser, resigned) -> str:
    if winner is None:
        return "A draw: the board is full and nobody has three in a row."
    if resigned:
        return f"{loser} resigns: its box for this board is empty. {winner} wins."
    mark = "X" if has_line(position, "X") else "O"
    return f"{winner} wins: three {mark}s in a row."


def help_sections() -> tuple[tuple[str, str], ...]:
    return (
        ("MENACE in plain words",
         "MENACE (Machine Educable Noughts And Crosses Engine) was built by Donald Michie in 1961 out of 304 "
         "matchboxes. Each box stands for one board MENACE can meet when it is its turn; boards that are the "
         "same when turned or mirrored share one box. Inside are beads, one colour for each square it may "
         "play there.\n"
         "To move, MENACE takes the box for the board, shakes it and draws one bead without looking: that "
         "square is its move. The more beads of a colour, the likelier that square.\n"
         "After the game every bead it drew is rewarded: a win adds 3 more of that colour, a draw 1 more, "
         "a loss takes the drawn bead out. Moves that led to wins become likelier, moves that lost become "
         "rarer. If a box runs out of beads, MENACE resigns (or, as an option, the box is filled again).\n"
         "It starts with 4 beads of each colour in the first box, 3 at its second move, 2 at its third and "
         "1 at its fourth: a late bad move then disappears after one loss.\n"
         "MENACE's boxes for X (moving first) and for O are two brains ('noughts MENACE' and 'noughts MENACE "
         "O'): whichever side it plays, it plays with that side's boxes, kept between sessions; every game "
         "teaches the boxes as stored, so every tab of a class server teaches one MENACE."),
        ("Reading the board",
         "Squares are numbered 1-9 row by row from the top left, like a phone's keys (not a numeric keypad, "
         "whose 7 8 9 is on top):\n    1 2 3\n    4 5 6\n    7 8 9\n"
         f"When MENACE is to move, each square shows its beads, the chance they give it and a bar as long "
         f"as that chance. {MARK_DRAWN} drawn: the bead it took; the box it drew from stays on the board until "
         f"the next move. {MARK_MIRROR} mirror: the square repeats another by a turn or mirror image of the board, "
         "and that square's beads stand for both. 0 beads, emptied: lost games took its every bead. After the "
         f"game, under each of MENACE's marks: its beads before → after in full, {MARK_UP} more, {MARK_DOWN} "
         f"fewer, = unchanged. {MARK_PERFECT} best (the hint): the squares exact minimax calls best. ◆ is the "
         "cursor. Space pauses MENACE (its next move waits); b shows all its boxes, the one in play marked."),
    )


registry.set_board("noughts", board=Board(
    widget=NoughtsBoard, intro=lambda app: INTRO,
    sides=("X", "O"), move_line=_move_line, result_line=_result,
    opening=lambda rules, start: "an empty board", move_label=lambda position, move: f"square {move}",
    help=help_sections(), layout="square", small=small_box,
))
