"""The hats as a heatmap: one row per hat, one cell per ball.

Each cell reads `▆78%  19k`: a bar (taller = likelier), the CHANCE of drawing that ball (the main
figure) and how many balls of that number the hat holds (short form: 9, 999, 9.9k, 99k, 9.9M ...).
The cell's background shades from cold to hot with the chance, but meaning never rides on colour
alone: the bar glyph and the figures carry it, so it reads in 16 colours and with NO_COLOR. A mark
replaces the bar when something happens to that ball: ► drawn now, • waiting beside the hat,
↑/↓/= after a game (added, thrown away, or kept as it was: a hat's last ball), ✓ a perfect move
(when `show_perfect` is on; beside another mark, in the space before the cell: `✓↑`). The after-game marks stay until the screen gives the next game's data.

The bar is drawn in the panel's own background (never inside the coloured cell), so a full bar is
a bright block beside the figures, not a dark hole in an orange cell.

Layout: a pinned header row (ball numbers), the hats in as many columns as the width allows and
the height needs (column-major, so hats read downwards), and a pinned legend at the bottom. It
draws per line (`render_line`), so a redraw costs only the visible rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from sticks_tui.engine.rules import legal_moves
from sticks_tui.learn.lesson_words import MARK_KEPT  # after a game: the ball stayed as it was

BARS = " ▁▂▃▄▅▆▇█"  # chance 0, then eighths (any chance above 0 shows at least ▁)
MARK_DRAWN = "►"
MARK_BESIDE = "•"
MARK_UP = "↑"
MARK_DOWN = "↓"
MARK_PERFECT = "✓"
MARK_MIRROR = "⇋"  # a move with no tokens of its own: a mirror image of another, counted there

HAT_LABEL = 3  # "100"
CELL = 10  # " " + mark + "78%" + " " + "9.9k"
MIN_BAR = 3  # the shortest bar across a widened cell worth drawing
MAX_CELL = 30  # a roomy panel widens the cells up to this, with a line across them as long as the chance
COLUMN_GAP = 2
HEAT_LEVELS = 20

_UNITS = ((10**24, "Y"), (10**21, "Z"), (10**18, "E"), (10**15, "P"), (10**12, "T"), (10**9, "G"),
          (10**6, "M"), (10**3, "k"))


def short_count(n: int) -> str:
    """A count in at most four characters, never rounded up: 9, 999, 9.9k, 99k, 999k, 9.9M ... 4.6E.

    Suffixes are k (thousand), M (million), G, T, P, E (10**18; 2**62 is 4.6E). Rounding down means
    a figure never claims more balls than there are, and never grows a fifth character.
    """
    n = int(n)
    if n < 0:
        return "-?"  # a hat never holds fewer than no balls; say so rather than fail
    if n < 1000:
        return str(n)
    for unit, suffix in _UNITS:
        if n >= unit:
            whole = n // unit
            if whole >= 1000:
                return "huge"
            if whole < 10:
                return f"{whole}.{n * 10 // unit % 10}{suffix}"
            return f"{whole}{suffix}"
    raise AssertionError("unreachable: n >= 1000 has a unit")


def short_chance(count: int, total: int) -> str:
    """The chance count/total in three characters: 'all', '99%' ... ' 1%', '<1%', ' 0%'.

    Exact integer arithmetic (counts may reach 2**62). Never shows 100% unless it is certain, and
    never 0% unless the ball cannot come out.
    """
    count, total = int(count), int(total)
    if total <= 0 or count <= 0:
        return " 0%"
    if count >= total:
        return "all"
    percent = (200 * count + total) // (2 * total)  # rounded half up
    if percent == 0:
        return "<1%"
    return f"{min(percent, 99):>2}%"


def chance_hbar(count: int, total: int, width: int) -> str:
    """A line `width` cells wide at most, as long as the chance (in half cells: ━ and ╸), padded with spaces."""
    count, total = int(count), int(total)
    if width <= 0:
        return ""
    halves = 0 if total <= 0 or count <= 0 else max(1, 2 * width * count // total)
    return ("━" * (halves // 2) + ("╸" if halves % 2 else "")).ljust(width)


def chance_bar(count: int, total: int) -> str:
    """One glyph, as tall as the chance: ' ' for none, then ▁ (up to 1/8) ... █ (above 7/8)."""
    count, total = int(count), int(total)
    if total <= 0 or count <= 0:
        return BARS[0]
    return BARS[min(8, -(-8 * count // total))]


LEGEND_ITEMS = (
    "▆78%: the chance this ball is drawn",
    "19k: its balls (k thousand, M million)",
    f"{MARK_DRAWN} drawn",
    f"{MARK_BESIDE} beside",
    f"{MARK_UP}{MARK_DOWN}{MARK_KEPT} after a game",
)
LEGEND_PERFECT = f"{MARK_PERFECT} perfect"
# the same, in full sentences: used when the hats leave spare rows below them
LEGEND_LONG = (
    "▆78%  the chance this ball is drawn; the bar beside it is as tall as that chance",
    "19k   how many balls of that number the hat holds (k thousand, M million, G billion)",
    f"{MARK_DRAWN}     the ball being drawn now",
    f"{MARK_BESIDE}     a ball waiting beside its hat until the game ends",
    f"{MARK_UP} {MARK_DOWN} {MARK_KEPT} after a game: added (a win), thrown away (a loss), kept as it was",
)
LEGEND_LONG_PERFECT = f"{MARK_PERFECT}     a perfect move: it leaves the other player a losing heap"


def pack_legend(width: int, items: tuple[str, ...]) -> list[str]:
    """The legend items packed into as few lines of `width` as they fit (an item splits only if wider than a line)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 2 + len(item) <= width:
            lines[-1] += "  " + item
        elif len(item) <= width:
            lines.append(item)
        else:  # wider than the line: wrapped at spaces, the rest indented under its name (never cut)
            import textwrap

            lines.extend(textwrap.wrap(item, width, subsequent_indent="  ", break_long_words=True) or [item])
    return lines


@dataclass(frozen=True)
class HeatmapData:
    """An immutable snapshot for the heatmap: give a new one (or `.with_(...)`) to redraw.

    counts:  int array of shape (hats + 1, max_take) or larger; counts[hat, ball - 1] (row 0 unused).
    hats:    hats 1..hats are shown (the heap of the game).
    max_take: balls per hat (1..max_take); a ball above the hat's number is illegal and shown as '-'.
    drawn:   (hat, ball) being drawn right now, or None: marked ► and scrolled into view.
    beside:  (hat, ball) pairs set beside the hats this game: marked •.
    flash:   (hat, ball, delta) after a game: ↑ for delta > 0, ↓ for delta < 0, = for 0 (kept as it was).
    perfect: perfect[hat] = the winning moves from that hat (empty when every move loses);
             marked ✓ when the widget's `show_perfect` is on.
    current: the hat in play (the heap now), or None: its number is highlighted and kept in view.
    """

    counts: np.ndarray = field(default_factory=lambda: np.zeros((1, 3), dtype=np.int64))
    hats: int = 0
    max_take: int = 3
    drawn: tuple[int, int] | None = None
    beside: frozenset[tuple[int, int]] = frozenset()
    flash: tuple[tuple[int, int, int], ...] = ()
    perfect: tuple[tuple[int, ...], ...] = ()
    current: int | None = None

    def with_(self, **changes) -> HeatmapData:
        return replace(self, **changes)


class HatHeatmap(ScrollView, can_focus=True):
    """The hats of a learning AI, read at a glance. Set `data` (a `HeatmapData`) to redraw.

    `show_perfect` (bool) marks the perfect moves with ✓. `legend` (constructor, default True)
    draws the legend inside the widget, pinned at the bottom.
    """

    DEFAULT_CSS = """
    HatHeatmap { height: 1fr; min-height: 4; scrollbar-size-vertical: 1; }
    HatHeatmap > .heatmap--label { color: $text-muted; }
    HatHeatmap > .heatmap--current { color: $text; background: $accent 40%; text-style: bold; }
    HatHeatmap > .heatmap--header { color: $text-muted; text-style: bold; }
    HatHeatmap > .heatmap--legend { color: $text-muted; }
    HatHeatmap > .heatmap--bar { color: $warning; }
    HatHeatmap > .heatmap--drawn { text-style: bold reverse; }
    HatHeatmap > .heatmap--beside { text-style: bold underline; }
    HatHeatmap > .heatmap--up { background: $success; color: $text; text-style: bold; }
    HatHeatmap > .heatmap--down { background: $error; color: $text; text-style: bold; }
    HatHeatmap > .heatmap--kept { background: $primary; color: $text; text-style: bold; }
    HatHeatmap > .heatmap--perfect { color: $success; text-style: bold; }
    HatHeatmap > .heatmap--hot { background: $warning 85%; }
    HatHeatmap > .heatmap--cold { background: $panel; }
    HatHeatmap > .heatmap--illegal { color: $text-disabled; }
    """
    COMPONENT_CLASSES = {
        "heatmap--label", "heatmap--current", "heatmap--header", "heatmap--legend", "heatmap--bar",
        "heatmap--drawn", "heatmap--beside", "heatmap--up", "heatmap--down", "heatmap--kept", "heatmap--perfect",
        "heatmap--hot", "heatmap--cold", "heatmap--illegal",
    }

    data: reactive[HeatmapData] = reactive(HeatmapData, always_update=True)
    show_perfect: reactive[bool] = reactive(False)

    def __init__(self, *, legend: bool = True, name: str | None = None, id: str | None = None,
                 classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.legend = legend
        self._heat_cache: dict[tuple, Style] = {}
        self._style_cache: dict[str, Style] = {}
        self._geometry_key: tuple | None = None
        self._combined: dict[Style, Style] = {}
        self._flashes_of: HeatmapData | None = None
        self._rows_of: HeatmapData | None = None
        self._rows: list[list[int]] = []
        self._flash_map: dict[tuple[int, int], int] = {}
        self._geometry_value: tuple = (1, 0, True, 1, [])

    # -- layout -------------------------------------------------------------------------------
    @property
    def entry_width(self) -> int:
        """Width of one hat: its number and one cell per ball."""
        return HAT_LABEL + CELL * self.data.max_take

    def _short_legend(self, width: int) -> list[str]:
        if not self.legend:
            return []
        items = LEGEND_ITEMS + ((LEGEND_PERFECT,) if self.show_perfect else ())
        return pack_legend(max(1, width), items)

    def _geometry(self, width: int | None = None, region=None) -> tuple:
        """(columns, rows, fits, body height, legend lines, cell width, lines a hat) for the current size and
        data, cached: render_line asks for it on every line, and a 100-hat repaint must stay cheap.

        When every hat fits with room to spare (a few hats on a big screen), the hats grow: wider cells
        (with a bar across as long as the chance) and a blank line under each hat."""
        region = self.scrollable_content_region if region is None else region
        width = region.width if width is None else width
        data = self.data
        key = (width, region.height, data.hats, data.max_take, self.show_perfect, self.legend)
        if self._geometry_key == key:
            return self._geometry_value
        short = self._short_legend(width)
        body = max(1, region.height - 1 - len(short))
        fit = max(1, (width + COLUMN_GAP) // (self.entry_width + COLUMN_GAP))
        hats = data.hats
        cols = max(1, min(fit, -(-hats // body) if hats else 1))  # no more columns than the height needs
        rows = -(-hats // cols) if hats else 0
        fits = rows <= body
        legend = short
        long = list(LEGEND_LONG) + ([LEGEND_LONG_PERFECT] if self.show_perfect else [])
        if not self.legend or not all(len(line) <= width for line in long):
            long = short
        cell, tall = CELL, 1
        if hats and fits:  # room to spare: the hats grow to fill it, taller first, then the legend in full
            per_column = (width + COLUMN_GAP) // cols - COLUMN_GAP - HAT_LABEL
            cell = max(CELL, min(MAX_CELL, per_column // max(1, data.max_take)))
            if cell < CELL + MIN_BAR + 1:
                cell = CELL  # (a bar a cell or two long says nothing the figure does not: no bar)
            if rows * 2 + 2 + len(long) <= region.height:
                tall, legend = 2, long
            elif rows * 2 + 2 + len(short) <= region.height:
                tall = 2
            elif region.height - 2 - rows >= len(long):
                legend = long
        self._geometry_key, self._geometry_value = key, (cols, rows, fits, body, legend, cell, tall)
        return self._geometry_value

    def fits_in(self, width: int, height: int) -> bool:
        """Whether every hat would be on screen (no scrolling) in `width` x `height` cells, legend and header
        included: what decides if two AIs' hats can share a screen side by side (`_geometry`'s sums)."""
        hats = self.data.hats
        if not hats:
            return True
        body = max(1, height - 1 - len(self._short_legend(max(1, width))))
        fit = max(1, (width + COLUMN_GAP) // (self.entry_width + COLUMN_GAP))
        cols = max(1, min(fit, -(-hats // body)))
        return -(-hats // cols) <= body and width >= self.entry_width

    def cell_width(self) -> int:
        """The width of one ball's cell now (CELL, or wider when the panel has room)."""
        return self._geometry()[5]

    def hat_height(self) -> int:
        """Lines a hat takes now: 1, or 2 (a blank line under it) when the panel has room."""
        return self._geometry()[6]

    def legend_lines(self, width: int | None = None) -> list[str]:
        """The legend: short and packed, or in full sentences when the hats leave rows to spare."""
        return self._geometry(width)[4]

    def body_height(self) -> int:
        """Rows left for hats between the pinned header and the (short) legend."""
        return self._geometry()[3]

    def columns(self, width: int | None = None) -> int:
        """As many columns as fit the width, but no more than the hats need to fit the height."""
        return self._geometry(width)[0]

    def grid(self) -> tuple[int, int, bool]:
        """(columns, rows, column_major): column-major when every hat fits, row-major when it scrolls."""
        return self._geometry()[:3]

    def position(self, hat: int) -> tuple[int, int]:
        """(row, column) of `hat` in the grid (row 0 is the first hat row, under the header)."""
        cols, rows, column_major = self.grid()
        i = hat - 1
        return (i % rows, i // rows) if column_major else (i // cols, i % cols)

    def hat_at(self, row: int, col: int) -> int | None:
        cols, rows, column_major = self.grid()
        if row < 0 or row >= rows or col < 0 or col >= cols:
            return None
        hat = (col * rows + row + 1) if column_major else (row * cols + col + 1)
        return hat if hat <= self.data.hats else None

    def _update_virtual_size(self) -> None:
        cols, rows, _, _, legend, cell, tall = self._geometry()
        width = cols * (HAT_LABEL + cell * self.data.max_take) + (cols - 1) * COLUMN_GAP
        pinned = 1 + len(legend)
        self.virtual_size = Size(width, rows * tall + pinned)

    def watch_data(self, data: HeatmapData) -> None:
        self._rows_of = self._flashes_of = None  # the same snapshot given again may hold new counts
        self._update_virtual_size()
        self._reveal_focus()
        self.refresh()

    def _reveal_focus(self) -> None:
        data = self.data
        focus = data.drawn[0] if data.drawn is not None else data.current
        if focus is not None:
            self.reveal_hat(focus)

    def watch_show_perfect(self) -> None:
        self._update_virtual_size()
        self.refresh()

    def on_resize(self) -> None:
        self._update_virtual_size()
        # data given before the first layout: scroll once the size (and so the scroll range) is known
        self.call_after_refresh(self._reveal_focus)
        self.refresh()

    def notify_style_update(self) -> None:
        self._heat_cache.clear()
        self._style_cache.clear()
        self._combined.clear()
        super().notify_style_update()

    def _style(self, name: str) -> Style:
        """A component class's style, looked up once per theme (not once per cell)."""
        style = self._style_cache.get(name)
        if style is None:
            style = self._style_cache[name] = self.get_component_rich_style(name)
        return style

    def reveal_hat(self, hat: int) -> None:
        """Scroll so that `hat` is on screen (the hat being drawn from, say)."""
        if not 1 <= hat <= self.data.hats:
            return
        row, _ = self.position(hat)
        row *= self.hat_height()
        top = int(self.scroll_offset.y)
        height = self.body_height()
        if row < top or row >= top + height:
            self.scroll_to(y=max(0, row - height // 2), animate=False, immediate=True)

    # -- drawing ------------------------------------------------------------------------------
    def _heat_style(self, count: int, total: int) -> Style:
        """Background shaded from cold to hot with the chance; text in a contrasting colour."""
        level = (HEAT_LEVELS * count // total) if total > 0 else 0
        hot = self._style("heatmap--hot")
        cold = self._style("heatmap--cold")
        key = (level, hot.bgcolor, cold.bgcolor)
        style = self._heat_cache.get(key)
        if style is None:
            if hot.bgcolor is None or cold.bgcolor is None:
                style = Style()
            else:
                bg = Color.from_rich_color(cold.bgcolor).blend(Color.from_rich_color(hot.bgcolor),
                                                               level / HEAT_LEVELS)
                style = Style(bgcolor=bg.rich_color, color=bg.get_contrast_text(0.95).rich_color)
            self._heat_cache[key] = style
        return style

    def _on_base(self, style: Style) -> Style:
        """`style` on the widget's own background and colour (cached per theme)."""
        cache = self._style_cache
        base = cache.get("")
        if base is None:
            base = cache[""] = self.rich_style
        combined = self._combined.get(style)
        if combined is None:
            combined = self._combined[style] = base + style
        return combined

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = (int(v) for v in self.scroll_offset)
        region = self.scrollable_content_region
        width, height = region.width, region.height
        base = self._on_base(Style())
        data = self.data
        cols, rows, fits, _, legend, cell, tall = self._geometry(region=region)
        # the legend sits under the last hat when every hat fits, else pinned to the bottom
        legend_top = min(height - len(legend), rows * tall + 2) if fits else height - len(legend)
        segments: list[Segment] = []
        if y == 0:
            header = self._on_base(self._style("heatmap--header"))
            if data.hats:
                one = "hat" + "".join(f" {'ball ' + str(b):^{cell - 1}}" for b in range(1, data.max_take + 1))
                segments.append(Segment((" " * COLUMN_GAP).join([one] * cols), header))
            else:
                segments.append(Segment("no hats to show", header))
        elif legend_top <= y < legend_top + len(legend):
            text = legend[y - legend_top]
            return Strip([Segment(text[:width].ljust(width), self._on_base(self._style("heatmap--legend")))], width)
        else:
            row, below = divmod(y - 1 + scroll_y, tall)
            if y < legend_top and row < rows and not below:  # (the line under a tall hat stays blank)
                flashes = self._flashes()
                current = data.current if data.current is not None else (data.drawn[0] if data.drawn else None)
                label = self._on_base(self._style("heatmap--label"))
                label_now = self._on_base(self._style("heatmap--current"))
                space = Segment(" ", base)
                gap = Segment(" " * COLUMN_GAP, base)
                for col in range(cols):
                    hat = (col * rows + row + 1) if fits else (row * cols + col + 1)
                    if hat > data.hats:
                        break
                    if col:
                        segments.append(gap)
                    segments.append(Segment(f"{hat:>{HAT_LABEL}}", label_now if hat == current else label))
                    for mark, rest, mark_style, rest_style in self._cells(hat, flashes, cell):
                        if len(mark) > 1:  # a ✓ beside another mark, in the space before the cell
                            segments.append(Segment(mark[0], self._on_base(self._style("heatmap--perfect"))))
                            mark = mark[1:]
                        else:
                            segments.append(space)
                        segments.append(Segment(mark, self._on_base(mark_style)))
                        segments.append(Segment(rest, self._on_base(rest_style)))
        strip = Strip(segments).extend_cell_length(width + scroll_x, base)
        return strip.crop(scroll_x, scroll_x + width) if scroll_x or strip.cell_length > width else strip

    def _flashes(self) -> dict[tuple[int, int], int]:
        data = self.data
        if self._flashes_of is not data:
            self._flashes_of, self._flash_map = data, {(h, b): d for h, b, d in data.flash}
        return self._flash_map

    def _cells(self, hat: int, flashes: dict, cell: int = CELL) -> list[tuple[str, str, Style, Style]]:
        """Per ball: (mark, 'chance count' text, mark style, text style); a cell wider than CELL has a bar
        across it as long as the chance."""
        data = self.data
        legal = len(legal_moves(hat, data.max_take))  # the balls of hat `hat`: the rules say which
        if self._rows_of is not data:  # the counts as Python ints, once per snapshot (not per cell)
            self._rows_of, self._rows = data, np.asarray(data.counts).tolist()
        rows = self._rows
        counts = rows[hat][:legal] if hat < len(rows) else [0] * legal
        total = sum(counts)
        perfect = data.perfect[hat] if self.show_perfect and hat < len(data.perfect) else ()
        bar_style = self._style("heatmap--bar")
        out = []
        for ball in range(1, data.max_take + 1):
            if ball > legal:
                illegal = self._style("heatmap--illegal")
                out.append((" ", f"{'-':>3} {'':>{4 + cell - CELL}}", illegal, illegal))
                continue
            count = counts[ball - 1]
            spare = cell - CELL
            across = chance_hbar(count, total, spare - 1) + " " if spare > 1 else " " * spare
            text = f"{short_chance(count, total)} {across}{short_count(count):>4}"
            style = self._heat_style(count, total)
            mark, mark_style = chance_bar(count, total), bar_style
            delta = flashes.get((hat, ball))
            if delta is not None:
                kind = "up" if delta > 0 else "down" if delta < 0 else "kept"
                extra = self._style(f"heatmap--{kind}")
                mark = MARK_UP if delta > 0 else MARK_DOWN if delta < 0 else MARK_KEPT
                mark_style, style = extra, style + extra
            elif data.drawn == (hat, ball):
                extra = self._style("heatmap--drawn")
                mark, mark_style, style = MARK_DRAWN, extra, style + extra
            elif (hat, ball) in data.beside:
                extra = self._style("heatmap--beside")
                mark, mark_style, style = MARK_BESIDE, extra, style + extra
            elif ball in perfect:
                mark, mark_style = MARK_PERFECT, self._style("heatmap--perfect")
            if ball in perfect and mark != MARK_PERFECT:
                # another mark holds the mark's place (↑ where the AI just learned the right move): the ✓
                # takes the space before the cell, so both show (issue 33 item 7)
                mark = MARK_PERFECT + mark
            out.append((mark, text, mark_style, style))
        return out

    def cell_text(self, hat: int, ball: int) -> str:
        """What the cell for (hat, ball) shows, e.g. '▆78%  19k' or '►33%    1' (for tests and readers)."""
        mark, text, _, _ = self._cells(hat, self._flashes(), self.cell_width())[ball - 1]
        return mark + text
