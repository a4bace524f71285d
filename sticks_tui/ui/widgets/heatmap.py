"""The hats as a heatmap: one cell per hat and ball; colour is the move's probability, text its count.

Meaning never rides on colour alone: each cell has a count and a marker glyph (a shade for the
probability, or a symbol for a highlight), so it reads in 16 colours and with NO_COLOR.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

SHADES = " ░▒▓█"
MARK_DRAWN = "►"
MARK_BESIDE = "•"
MARK_UP = "↑"
MARK_DOWN = "↓"
MARK_PERFECT = "✓"
CELL = 5  # four characters of count, then its marker
HAT_LABEL = 3


def short_count(n: int) -> str:
    """A count in at most four characters: 7, 512, 4.2k, 63k, 1.5M."""
    if n < 10_000:
        return f"{n:>4}" if n < 1000 else f"{n / 1000:.1f}k" if n < 9_950 else f"{n // 1000:>3}k"
    if n < 1_000_000:
        return f"{n // 1000:>3}k"
    if n < 9_950_000:
        return f"{n / 1_000_000:.1f}M"
    if n < 1_000_000_000:
        return f"{n // 1_000_000:>3}M"
    return " >1G"


@dataclass(frozen=True)
class HeatmapData:
    """An immutable snapshot for the heatmap: give a new one to redraw."""

    counts: np.ndarray = field(default_factory=lambda: np.zeros((1, 3), dtype=np.int64))
    hats: int = 0  # hats 1..hats are shown
    max_take: int = 3
    drawn: tuple[int, int] | None = None  # (hat, ball) being drawn right now
    beside: frozenset[tuple[int, int]] = frozenset()  # balls set beside the hats this game
    flash: tuple[tuple[int, int, int], ...] = ()  # (hat, ball, delta) after a game
    perfect: tuple[tuple[int, ...], ...] = ()  # perfect[hat] = winning moves (empty if lost)

    def with_(self, **changes) -> HeatmapData:
        from dataclasses import replace

        return replace(self, **changes)


class HatHeatmap(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    HatHeatmap { height: 1fr; min-height: 3; scrollbar-size-vertical: 1; }
    HatHeatmap > .heatmap--label { color: $text-muted; }
    HatHeatmap > .heatmap--header { color: $text-muted; text-style: bold; }
    HatHeatmap > .heatmap--drawn { text-style: bold reverse; }
    HatHeatmap > .heatmap--beside { text-style: bold underline; }
    HatHeatmap > .heatmap--up { background: $success; color: $text; text-style: bold; }
    HatHeatmap > .heatmap--down { background: $error; color: $text; text-style: bold; }
    HatHeatmap > .heatmap--perfect { text-style: underline; }
    HatHeatmap > .heatmap--hot { background: $warning; }
    HatHeatmap > .heatmap--cold { background: $panel; }
    HatHeatmap > .heatmap--illegal { color: $text-disabled; }
    """
    COMPONENT_CLASSES = {
        "heatmap--label", "heatmap--header", "heatmap--drawn", "heatmap--beside", "heatmap--up",
        "heatmap--down", "heatmap--perfect", "heatmap--hot", "heatmap--cold", "heatmap--illegal",
    }

    data: reactive[HeatmapData] = reactive(HeatmapData, always_update=True)
    show_perfect: reactive[bool] = reactive(False)

    # -- layout -------------------------------------------------------------------------------
    @property
    def entry_width(self) -> int:
        return HAT_LABEL + CELL * self.data.max_take + 2

    def columns(self, width: int | None = None) -> int:
        width = self.scrollable_content_region.width if width is None else width
        return max(1, (width + 2) // self.entry_width)

    def grid(self) -> tuple[int, int, bool]:
        """(columns, rows, column_major): column-major when everything fits, row-major when it scrolls."""
        hats = self.data.hats
        cols = self.columns()
        rows = -(-hats // cols) if hats else 0
        fits = rows + 1 <= max(1, self.scrollable_content_region.height)
        return cols, rows, fits

    def position(self, hat: int) -> tuple[int, int]:
        cols, rows, column_major = self.grid()
        i = hat - 1
        return (i % rows, i // rows) if column_major else (i // cols, i % cols)

    def hat_at(self, row: int, col: int) -> int | None:
        cols, rows, column_major = self.grid()
        if row < 0 or row >= rows or col >= cols:
            return None
        hat = (col * rows + row + 1) if column_major else (row * cols + col + 1)
        return hat if hat <= self.data.hats else None

    def _update_virtual_size(self) -> None:
        cols, rows, _ = self.grid()
        self.virtual_size = Size(cols * self.entry_width, rows + 1)

    def watch_data(self, data: HeatmapData) -> None:
        self._update_virtual_size()
        if data.drawn is not None:
            self.reveal_hat(data.drawn[0])
        self.refresh()

    def watch_show_perfect(self) -> None:
        self.refresh()

    def on_resize(self) -> None:
        self._update_virtual_size()
        self.refresh()

    def reveal_hat(self, hat: int) -> None:
        """Scroll so that `hat` is on screen (the hat being drawn from, say)."""
        if not 1 <= hat <= self.data.hats:
            return
        row, _ = self.position(hat)
        line = row + 1
        top = int(self.scroll_offset.y)
        height = self.scrollable_content_region.height
        if line < top + 1 or line >= top + height:
            self.scroll_to(y=max(0, line - height // 2), animate=False)

    # -- drawing ------------------------------------------------------------------------------
    def _cell_style(self, p: float) -> Style:
        hot = self.get_component_rich_style("heatmap--hot")
        cold = self.get_component_rich_style("heatmap--cold")
        if hot.bgcolor is None or cold.bgcolor is None:
            return Style()
        c_hot = Color.from_rich_color(hot.bgcolor)
        c_cold = Color.from_rich_color(cold.bgcolor)
        bg = c_cold.blend(c_hot, float(p))
        return Style(bgcolor=bg.rich_color, color=bg.get_contrast_text(0.9).rich_color)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        line = y + int(scroll_y)
        data = self.data
        cols, rows, _ = self.grid()
        base = self.rich_style
        segments: list[Segment] = []
        if line == 0:
            header = self.get_component_rich_style("heatmap--header")
            one = "hat" + "".join(f"{b:>{CELL - 1}} " for b in range(1, data.max_take + 1))
            text = ("  ".join([one] * cols)) if data.hats else "no hats to show"
            segments.append(Segment(text, base + header))
        elif line - 1 < rows:
            label = self.get_component_rich_style("heatmap--label")
            flashes = {(h, b): d for h, b, d in data.flash}
            for col in range(cols):
                hat = self.hat_at(line - 1, col)
                if hat is None:
                    break
                if col:
                    segments.append(Segment("  ", base))
                segments.append(Segment(f"{hat:>{HAT_LABEL}}", base + label))
                segments.extend(self._hat_cells(hat, flashes, base))
        strip = Strip(segments).extend_cell_length(width + int(scroll_x), base)
        return strip.crop(int(scroll_x), int(scroll_x) + width).simplify()

    def _hat_cells(self, hat: int, flashes: dict, base: Style) -> list[Segment]:
        data = self.data
        legal = min(data.max_take, hat)
        row = data.counts[hat] if hat < len(data.counts) else np.zeros(data.max_take, dtype=np.int64)
        total = int(row[:legal].sum())
        perfect = data.perfect[hat] if self.show_perfect and hat < len(data.perfect) else ()
        out = []
        for ball in range(1, data.max_take + 1):
            if ball > legal:
                out.append(Segment("   - ", base + self.get_component_rich_style("heatmap--illegal")))
                continue
            count = int(row[ball - 1])
            p = count / total if total else 0.0
            style = base + self._cell_style(p)
            mark = SHADES[min(4, int(p * 5))]
            delta = flashes.get((hat, ball))
            if delta is not None and delta != 0:
                mark = MARK_UP if delta > 0 else MARK_DOWN
                style += self.get_component_rich_style("heatmap--up" if delta > 0 else "heatmap--down")
            elif data.drawn == (hat, ball):
                mark = MARK_DRAWN
                style += self.get_component_rich_style("heatmap--drawn")
            elif (hat, ball) in data.beside:
                mark = MARK_BESIDE
                style += self.get_component_rich_style("heatmap--beside")
            elif ball in perfect:
                mark = MARK_PERFECT
                style += self.get_component_rich_style("heatmap--perfect")
            out.append(Segment(short_count(count) + mark, style))
        return out

    def cell_text(self, hat: int, ball: int) -> str:
        """What the cell for (hat, ball) shows, for tests and screen readers."""
        segs = self._hat_cells(hat, {(h, b): d for h, b, d in self.data.flash}, Style())
        return segs[ball - 1].text
