"""MENACE's matchboxes small: many boards at a glance, each with its bead counts, and a chart of the
beads in the first box over games. Both read without colour (figures, glyphs and words).

A small board (14 columns, 4 lines) is one box: its number, its beads in all, and the board in its
canonical form with the marks and, in each square that holds beads, their count; `·` is an empty
square with no beads of its own (it repeats another square by a symmetry of the board):

    #2: 9 beads
     X   3   3
     ·   O   3
     ·   3   ·
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from sticks_tui.ui.widgets.heatmap import short_count

SMALL_W = 14
SMALL_CELL = 4
GAP = " │ "


def small_board(number: int, board: str, counts: Sequence[int]) -> list[str]:
    """Four lines of SMALL_W characters: 'box N: B beads' and the board with the counts."""
    total = sum(int(c) for c in counts)
    head = f"#{number}: " + ("empty" if total == 0 else f"{short_count(total).strip()} beads")
    lines = [f"{head:<{SMALL_W}}"[:SMALL_W]]
    for r in range(3):
        cells = []
        for c in range(3):
            i = 3 * r + c
            text = board[i] if board[i] in "XO" else (short_count(counts[i]).strip() if counts[i] else "·")
            cells.append(f"{text:^{SMALL_CELL}}")
        lines.append(f"{''.join(cells):<{SMALL_W}}")
    return lines


def boxes_grid(boxes: Sequence[tuple[int, str, Sequence[int]]], width: int) -> list[str]:
    """(box number, canonical board, counts) laid out as small boards, as many a row as `width` holds."""
    per_row = max(1, (width + len(GAP)) // (SMALL_W + len(GAP)))
    out: list[str] = []
    for start in range(0, len(boxes), per_row):
        row = [small_board(*box) for box in boxes[start:start + per_row]]
        for y in range(4):
            out.append(GAP.join(b[y] for b in row).rstrip())
        out.append("")
    return out


#: The first box (the empty board) holds beads for three squares up to symmetry: these columns.
FIRST_BOX_SQUARES = ((0, "corner", "●"), (1, "edge", "▲"), (4, "centre", "◆"))


class BeadChart(Widget):
    """The beads in MENACE's first box (corner, edge, centre) over games, games on a log axis.

    `samples` is a tuple of (games, 9 counts of the first box)."""

    DEFAULT_CSS = """
    BeadChart { height: 10; min-height: 6; }
    BeadChart > .beadchart--axis { color: $text-muted; }
    BeadChart > .beadchart--s0 { color: $accent; text-style: bold; }
    BeadChart > .beadchart--s1 { color: $warning; text-style: bold; }
    BeadChart > .beadchart--s2 { color: $success; text-style: bold; }
    """
    COMPONENT_CLASSES = {"beadchart--axis", "beadchart--s0", "beadchart--s1", "beadchart--s2"}

    samples: reactive[tuple] = reactive(tuple, always_update=True)

    def legend(self) -> str:
        if not self.samples:
            return "beads in the first box: no games yet"
        last = self.samples[-1][1]
        return "box 1: " + " ".join(f"{glyph}{name} {int(last[col]):,}" for col, name, glyph in FIRST_BOX_SQUARES)

    def chart_lines(self, width: int, height: int) -> list[list[tuple[str, str]]]:
        """Every line as (text, style class) runs: the legend, the plot with a y axis of counts, the x axis."""
        out: list[list[tuple[str, str]]] = [[(self.legend()[:width], "")]]
        plot_h = max(1, height - 3)
        label_w = 6
        plot_w = max(2, width - label_w)
        samples = [(max(1.0, float(g)), counts) for g, counts in self.samples]
        top = max([1] + [int(c[col]) for _, c in samples for col, _, _ in FIRST_BOX_SQUARES])
        hi = max([10.0] + [g for g, _ in samples])
        grid: list[list[tuple[str, str]]] = [[(" ", "")] * plot_w for _ in range(plot_h)]
        for k, (col, _, glyph) in enumerate(FIRST_BOX_SQUARES):
            for g, counts in samples:
                x = round(math.log10(g) / math.log10(hi) * (plot_w - 1))
                y = plot_h - 1 - round(int(counts[col]) / top * (plot_h - 1))
                grid[y][x] = (glyph, f"s{k}")
        for y in range(plot_h):
            label = short_count(top).strip() if y == 0 else ("0" if y == plot_h - 1 else "")
            out.append([(f"{label:>{label_w - 1}}" + ("┤" if label else "│"), "axis")] + grid[y])
        out.append([(" " * (label_w - 1) + "└" + "─" * plot_w, "axis")])
        ticks = [" "] * plot_w
        t = 1
        while t <= hi:
            x = round(math.log10(t) / math.log10(hi) * (plot_w - 1))
            text = short_count(t).strip()
            if x + len(text) <= plot_w and all(c == " " for c in ticks[max(0, x - 1):x + len(text)]):
                ticks[x:x + len(text)] = list(text)
            t *= 10
        axis = "".join(ticks)
        name = "games"
        if len(axis.rstrip()) + len(name) + 2 <= plot_w:
            axis = axis[: plot_w - len(name)] + name
        out.append([(" " * label_w + axis, "axis")])
        return out[:height]

    _cache: tuple | None = None

    def watch_samples(self) -> None:
        self._cache = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        if self._cache is None or self._cache[0] != (width, height):
            self._cache = ((width, height), self.chart_lines(width, height))
        lines = self._cache[1]
        base = self.rich_style
        if y >= len(lines):
            return Strip.blank(width, base)
        segments = [Segment(text, base + self.get_component_rich_style(f"beadchart--{cls}", partial=True)
                            if cls else base) for text, cls in lines[y]]
        return Strip(segments).adjust_cell_length(width, base or Style())

    def screen_text(self) -> list[str]:
        width, height = self.size
        return ["".join(t for t, _ in line) for line in self.chart_lines(width, height)]
