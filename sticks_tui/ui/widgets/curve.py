"""A learning curve: several series over games played, with labelled axes, readable without colour.

    ● agreement with perfect play 100%  ▲ beat a perfect player, moving first 100%
    100%┤                        ▲▲▲▲▲▲▲▲●●●●●●●●
     50%┤           ●●●●●●●●●●●●●
      0%┼▲▲▲▲▲▲▲▲▲▲▲──────────────────────────────
        1       10      100      1k      10k   games

Each series has its own glyph (and a colour on top), named in the legend line with its last value.
The x axis is logarithmic (games trained: 1, 10, 100, 1k ...) or linear (games recorded).
"""

from __future__ import annotations

import dataclasses

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from sticks_tui.learn.analysis import CurvePoint
from sticks_tui.learn.figure_words import LIKELIEST, cannot_win_short, drawn_label, game_heading, percent, scope_heading
from sticks_tui.ui.widgets.heatmap import pack_legend, short_count

Y_LABEL = 5  # "100%" and the axis
STYLE_CLASSES = ("curve--s0", "curve--s1", "curve--s2", "curve--s3")
GLYPHS = ("●", "▲", "▽", "◆", "■", "○")
LABEL_AGREEMENT = LIKELIEST  # over the winning positions: how often the likeliest move is a winning one
LABEL_DRAWN = "a token drawn wins"  # ... and how often a token drawn at random is (its game's word: `about`)
LABEL_WIN = "chance to beat a perfect player"
LABEL_WIN_FIRST = "beats a perfect player moving first"
LABEL_WIN_SECOND = "beats a perfect player moving second"
#: In a game that can end in a draw: the chance not to lose to the perfect player (MENACE's figure: a draw at best)
LABEL_KEEP_FIRST = "does not lose to a perfect player moving first"
LABEL_KEEP_SECOND = "does not lose to a perfect player moving second"


@dataclass(frozen=True)
class FigureHeadings:
    """What the curve's figures are about, for the game in play (the core's words, `learn.figure_words`): the
    heading of the figures over its winning positions, the token drawn, the heading of the chances against a
    perfect player in one game from the start, and why a seat can never win that game."""

    over: str
    drawn: str
    game: str
    notes: tuple[str, str] = ("", "")  # each seat's: why it never wins, in a few words ('' when it can)

    @classmethod
    def of(cls, rules) -> FigureHeadings:
        notes = (cannot_win_short(rules, 0), cannot_win_short(rules, 1))
        return cls(scope_heading(rules), drawn_label(rules), game_heading(rules), notes)


@dataclass(frozen=True)
class CurveSeries:
    """One line of the chart: its name, its glyph, and its points (x, y) with y in 0..1."""

    label: str
    glyph: str
    points: tuple[tuple[float, float], ...] = ()

    @classmethod
    def of(cls, value) -> CurveSeries:
        """A CurveSeries, or a plain (label, glyph, points) tuple made into one."""
        if isinstance(value, CurveSeries):
            return value
        label, glyph, points = value
        return cls(str(label), str(glyph)[:1] or "*", tuple((float(x), float(y)) for x, y in points))


def series_from_points(points: Iterable[Sequence[float]]) -> tuple[CurveSeries, ...]:
    """The trainer's samples as series: (games, agreement, win), (games, agreement, win_first, win_second),
    (games, agreement, win_first, win_second, draw_wins) or that and (keep_first, keep_second): not losing to the
    perfect player, where the game can end in a draw (NaN elsewhere: such a series is not shown)."""
    points = [tuple(p) for p in points]
    if not points:
        return ()
    width = max(len(p) for p in points)
    if width >= 7:
        labels = (LABEL_AGREEMENT, LABEL_WIN_FIRST, LABEL_WIN_SECOND, LABEL_DRAWN, LABEL_KEEP_FIRST, LABEL_KEEP_SECOND)
    elif width >= 5:
        labels = (LABEL_AGREEMENT, LABEL_WIN_FIRST, LABEL_WIN_SECOND, LABEL_DRAWN)
    elif width == 4:
        labels = (LABEL_AGREEMENT, LABEL_WIN_FIRST, LABEL_WIN_SECOND)
    else:
        labels = (LABEL_AGREEMENT, LABEL_WIN)[: max(0, width - 1)]
    series = (CurveSeries(label, GLYPHS[i], tuple((float(p[0]), float(p[i + 1])) for p in points
                                                  if len(p) > i + 1 and p[i + 1] is not None))
              for i, label in enumerate(labels))
    # a figure never computed for this game (a chance against a perfect player outside sticks) is not shown
    return tuple(s for s in series if not s.points or any(_finite(y) for _, y in s.points))


def points_of(value: Iterable) -> tuple[tuple, ...]:
    """The trainer's samples as plain tuples: a `CurvePoint` as (games, agreement, win_first, win_second,
    draw_wins, keep_first, keep_second), any other dataclass as its fields, anything else as a tuple."""
    return tuple((p.games, p.agreement, p.win_first, p.win_second, p.draw_wins, p.keep_first, p.keep_second)
                 if isinstance(p, CurvePoint) else
                 dataclasses.astuple(p) if dataclasses.is_dataclass(p) else tuple(p) for p in value)


def legend_items(series: Sequence[CurveSeries], scope: str = "", about: FigureHeadings | None = None) -> list[str]:
    """The legend's items, each series' glyph, name and last value: with `about` (the game in play's
    `FigureHeadings`), the figures over its winning positions under one heading and the chances in one game
    under another, each seat's with why it cannot win; else what the figures are about ("over heaps 2-20:")
    and the series as named."""
    def item(s: CurveSeries, label: str, note: str = "") -> str:
        good = [y for x, y in sorted(s.points) if _finite(x) and _finite(y)]
        return f"{s.glyph} {label}{f' {percent(good[-1])}' if good else ''}{f' ({note})' if note else ''}"

    if about is not None and series:
        over = {LABEL_AGREEMENT: LIKELIEST, LABEL_DRAWN: about.drawn}
        game = {LABEL_WIN_FIRST: "first", LABEL_WIN_SECOND: "second", LABEL_WIN: "either, on average",
                LABEL_KEEP_FIRST: "not losing, first", LABEL_KEEP_SECOND: "not losing, second"}
        notes = {LABEL_WIN_FIRST: about.notes[0], LABEL_WIN_SECOND: about.notes[1]}
        items = [about.over] + [item(s, over[s.label]) for s in series if s.label in over]
        chances = [item(s, game[s.label], notes.get(s.label, "")) for s in series if s.label in game]
        if chances:
            items += [about.game, *chances]
        return items + [item(s, s.label) for s in series if s.label not in over and s.label not in game]
    items = [f"over {scope}:"] if scope and series else []
    return items + [item(s, s.label) for s in series]


def _finite(v: float) -> bool:
    return v == v and v not in (math.inf, -math.inf)


def nice_step(span: float, most: int) -> float:
    """A step of 1, 2 or 5 times a power of ten that cuts `span` into at most `most` parts."""
    if span <= 0:
        return 1.0
    raw = span / max(1, most)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def tick_text(x: float) -> str:
    """A tick label: 1, 10, 100, 1k, 10k, 2.5M (no '.0')."""
    if x != int(x):
        return f"{x:g}"
    text = short_count(int(x))
    return text.replace(".0", "") if len(text) == 4 and text[1:3] == ".0" else text


class LearningCurve(Widget):
    """A chart of learning: `series` is a tuple of `CurveSeries` (or (label, glyph, points) tuples).

    x_scale: "log" (games trained; x below 1 is drawn at 1) or "linear" (games recorded).
    x_label: the x axis's name, printed after its last tick label when there is room.
    scope: what the figures are about ("heaps 2-20"), said first in the legend.
    `points` (setter) takes the trainer's samples and turns them into series (see series_from_points).
    """

    DEFAULT_CSS = """
    LearningCurve { height: 9; min-height: 6; }
    LearningCurve > .curve--axis { color: $text-muted; }
    LearningCurve > .curve--legend { color: $text; }
    LearningCurve > .curve--empty { color: $text-muted; text-style: italic; }
    LearningCurve > .curve--s0 { color: $success; text-style: bold; }
    LearningCurve > .curve--s1 { color: $accent; text-style: bold; }
    LearningCurve > .curve--s2 { color: $warning; text-style: bold; }
    LearningCurve > .curve--s3 { color: $secondary; text-style: bold; }
    """
    COMPONENT_CLASSES = {"curve--axis", "curve--legend", "curve--empty", "curve--s0", "curve--s1",
                         "curve--s2", "curve--s3"}

    series: reactive[tuple[CurveSeries, ...]] = reactive(tuple, always_update=True)
    x_scale: reactive[str] = reactive("log")
    x_label: reactive[str] = reactive("games")
    #: What the figures are about ("heaps 2-20"), said first in the legend ("over heaps 2-20:"); "" says nothing.
    scope: reactive[str] = reactive("")
    #: What each group of figures is about (`FigureHeadings.of(rules)`): when set, the legend says it in place
    #: of `scope`, the figures over winning positions under one heading, the chances in one game under another.
    about: reactive[FigureHeadings | None] = reactive(None)

    def __init__(self, series: Iterable = (), *, x_scale: str = "log", x_label: str = "games",
                 empty_text: str = "no games yet", name: str | None = None, id: str | None = None,
                 classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        if x_scale not in ("log", "linear"):
            raise ValueError(f"x_scale is 'log' or 'linear', not {x_scale!r}.")
        self._points: tuple = ()
        self.empty_text = empty_text
        self.set_reactive(LearningCurve.x_scale, x_scale)
        self.set_reactive(LearningCurve.x_label, x_label)
        self.set_reactive(LearningCurve.series, tuple(CurveSeries.of(s) for s in series))
        self._cache: tuple | None = None
        self._styles: dict[str, Style] = {}
        self._range_key: tuple | None = None
        self._range: tuple[float, float] = (1.0, 10.0)

    # -- data ---------------------------------------------------------------------------------
    @property
    def points(self) -> tuple:
        """The last samples given through `points` (the old interface)."""
        return self._points

    @points.setter
    def points(self, value: Iterable[Sequence[float]]) -> None:
        self._points = points_of(value)
        self.series = series_from_points(self._points)

    def validate_series(self, value) -> tuple[CurveSeries, ...]:
        return tuple(CurveSeries.of(s) for s in value)

    def validate_x_scale(self, value: str) -> str:
        return value if value in ("log", "linear") else "log"

    def watch_series(self) -> None:
        self._cache = None
        self._range_key = None
        self.refresh()

    def watch_x_scale(self) -> None:
        self._cache = None
        self._range_key = None
        self.refresh()

    def watch_x_label(self) -> None:
        self._cache = None
        self.refresh()

    def watch_about(self) -> None:
        self._cache = None
        self.refresh()

    def watch_scope(self) -> None:
        self._cache = None
        self.refresh()

    def on_resize(self) -> None:
        self._cache = None

    # -- geometry -----------------------------------------------------------------------------
    def _x_range(self) -> tuple[float, float]:
        """(lowest, highest) x on the axis; remembered for the series and scale it was made for."""
        key = (id(self.series), self.x_scale)
        if self._range_key == key:
            return self._range
        xs = [x for s in self.series for x, y in s.points if _finite(x) and _finite(y)]
        if self.x_scale == "log":
            value = 1.0, max([10.0] + xs)
        else:
            value = 0.0, max([1.0] + xs)
        self._range_key, self._range = key, value
        return value

    def x_to_column(self, x: float, width: int) -> int:
        """The plot column (0 .. width-1) of x."""
        lo, hi = self._x_range()
        if width <= 1:
            return 0
        if self.x_scale == "log":
            f = math.log10(max(x, 1.0)) / math.log10(hi)
        else:
            f = (x - lo) / (hi - lo) if hi > lo else 0.0
        return max(0, min(width - 1, round(f * (width - 1))))

    def _ticks(self) -> list[float]:
        lo, hi = self._x_range()
        if self.x_scale == "log":
            ticks, t = [], 1
            while t <= hi:
                ticks.append(float(t))
                t *= 10
            return ticks
        step = max(1.0, nice_step(hi - lo, 6))  # games are whole: no tick between two of them
        return [lo + i * step for i in range(int((hi - lo) / step) + 1)]

    # -- drawing ------------------------------------------------------------------------------
    def _legend_items(self) -> list[str]:
        return legend_items(self.series, self.scope, self.about)

    def legend_lines(self, width: int) -> list[str]:
        """Each series' glyph, name and last value, packed into lines of `width`."""
        items = self._legend_items()
        return pack_legend(max(1, width), tuple(items)) if items else []

    def _name_fits_axis(self, width: int) -> bool:
        """Whether the x axis's name fits under the axis (else the legend names it)."""
        axis, ticks = self._axis_lines(max(1, width - Y_LABEL), width)
        return self.x_label in axis or self.x_label in ticks

    def _render_all(self) -> list[list[tuple[str, str]]]:
        """Every line as a list of (text, style class) runs."""
        width, height = self.size
        legend = self.legend_lines(width)
        if self.x_label and self.series and not self._name_fits_axis(width):
            legend = pack_legend(max(1, width), tuple(self._legend_items()) + (f"x: {self.x_label}",))
        legend = legend[: max(0, height - 3)]
        plot_h = max(1, height - len(legend) - 2)
        plot_w = max(1, width - Y_LABEL)
        grid: list[list[list[int]]] = [[[] for _ in range(plot_w)] for _ in range(plot_h)]
        lo, hi = self._x_range()
        log = self.x_scale == "log"
        x_span = math.log10(hi) if log else hi - lo

        def to_column(x: float) -> int:  # x_to_column, with the range looked up once
            if plot_w <= 1 or x_span <= 0:
                return 0
            f = math.log10(max(x, 1.0)) / x_span if log else (x - lo) / x_span
            return max(0, min(plot_w - 1, round(f * (plot_w - 1))))

        def row_of(y: float) -> int:
            return plot_h - 1 - max(0, min(plot_h - 1, math.floor(y * (plot_h - 1) + 0.5)))

        has_points = False
        series = self.series
        for index, s in enumerate(series):
            pts = sorted((x, y) for x, y in s.points if _finite(x) and _finite(y))
            if not pts:
                continue
            has_points = True
            # one value per column: the last sample that lands there
            at: dict[int, float] = {}
            for x, y in pts:
                at[to_column(x)] = max(0.0, min(1.0, y))
            known = sorted(at)
            values: list[float] = []
            for left, right in zip(known, known[1:]):  # between two samples: a straight line
                a, b = at[left], at[right]
                values.extend(a + (b - a) * (c - left) / (right - left) for c in range(left, right))
            values.append(at[known[-1]])
            previous_row = None
            for c, y in enumerate(values, known[0]):
                r = row_of(y)
                span = (r, r) if previous_row is None else (min(r, previous_row), max(r, previous_row))
                for rr in range(span[0], span[1] + 1):  # a steep rise stays joined
                    if (rr == r or rr != previous_row) and index not in grid[rr][c]:
                        grid[rr][c].append(index)
                previous_row = r

        lines: list[list[tuple[str, str]]] = [[(t.ljust(width)[:width], "curve--legend")] for t in legend]
        mid = row_of(0.5) if plot_h >= 3 else None
        for r in range(plot_h):
            if r == 0:
                label = "100%┤"
            elif r == plot_h - 1:
                label = "  0%┼"
            elif r == mid:
                label = " 50%┤"
            else:
                label = "    │"
            runs: list[tuple[str, str]] = [(label[:width], "curve--axis")]
            for c in range(plot_w):
                here = grid[r][c]
                if not here:
                    runs.append(("─" if r == plot_h - 1 else " ", "curve--axis"))
                else:  # where lines overlap, their glyphs take turns column by column
                    who = here[c % len(here)]
                    runs.append((series[who].glyph, STYLE_CLASSES[who % 4]))
            lines.append(runs)
        if not has_points and plot_h >= 1:
            r = plot_h // 2 if plot_h > 1 else 0
            text = self.empty_text[: plot_w]
            start = max(0, (plot_w - len(text)) // 2)
            row = lines[len(legend) + r]
            row[1 + start: 1 + start + len(text)] = [(text, "curve--empty")]
        axis_line, tick_line = self._axis_lines(plot_w, width)
        lines.append([(axis_line[:width], "curve--axis")])
        lines.append([(tick_line.ljust(width)[:width], "curve--axis")])
        merged = []
        for line in lines[:height]:  # one run per stretch of one style: fewer segments to draw
            runs: list[tuple[str, str]] = []
            for text, cls in line:
                if runs and runs[-1][1] == cls:
                    runs[-1] = (runs[-1][0] + text, cls)
                else:
                    runs.append((text, cls))
            merged.append(runs)
        return merged

    def _axis_lines(self, plot_w: int, width: int) -> tuple[str, str]:
        """The x axis: its line with ticks, and the line of tick labels (and the axis's name)."""
        # a label that would touch the previous one is left out
        axis = ["    └"] + ["─"] * plot_w
        labels = [" "] * (plot_w + Y_LABEL)
        last_end = -1
        ticks = self._ticks()
        lo, hi = self._x_range()
        for t in ticks:
            c = self.x_to_column(t, plot_w)
            axis[1 + c] = "┬" if c < plot_w else axis[1 + c]
            text = tick_text(t)
            start = Y_LABEL + c - len(text) // 2 if c else Y_LABEL - 1 + c
            start = min(start, len(labels) - len(text))
            start = max(start, last_end + 2 if last_end >= 0 else 0)
            if start + len(text) <= len(labels) and start > last_end:
                labels[start: start + len(text)] = list(text)
                last_end = start + len(text) - 1
        end_text = tick_text(hi)
        if ticks and hi > ticks[-1] * 1.5:  # the run's end, when it is not a tick
            start = len(labels) - len(end_text)
            if start > last_end + 1:
                labels[start:] = list(end_text)
                axis[-1] = "┬"
                last_end = len(labels) - 1
        name = self.x_label
        tick_line = "".join(labels)
        spot = tick_line.rstrip()  # the axis name goes after the last label, or at the axis's end
        axis_line = "".join(axis)
        if name and len(spot) + 2 + len(name) <= width:
            tick_line = spot + "  " + name
        elif name:  # in the middle of the longest stretch of bare axis
            best, run_start, best_start = 0, None, 0
            for i, ch in enumerate(axis_line + "|"):
                if ch == "─" and i > Y_LABEL:
                    run_start = i if run_start is None else run_start
                elif run_start is not None:
                    if i - run_start >= best:
                        best, best_start = i - run_start, run_start
                    run_start = None
            if best >= len(name) + 4:
                at = best_start + (best - len(name) - 2) // 2
                axis_line = axis_line[:at] + " " + name + " " + axis_line[at + len(name) + 2:]
        return axis_line, tick_line

    def render_line(self, y: int) -> Strip:
        width, _ = self.size
        if self._cache is None or self._cache[0] != tuple(self.size):
            self._cache = (tuple(self.size), self._render_all())
        lines = self._cache[1]
        styles = self._styles
        base = styles.get("")
        if base is None:
            base = styles[""] = self.rich_style
        if y >= len(lines):
            return Strip.blank(width, base)
        segments = []
        for text, cls in lines[y]:
            style = styles.get(cls)
            if style is None:
                style = styles[cls] = base + self.get_component_rich_style(cls)
            segments.append(Segment(text, style))
        return Strip(segments).adjust_cell_length(width, base)

    def notify_style_update(self) -> None:
        self._styles.clear()
        super().notify_style_update()

    def screen_text(self) -> list[str]:
        """The chart as plain lines, the way it reads without colour (for tests and readers)."""
        if self._cache is None or self._cache[0] != tuple(self.size):
            self._cache = (tuple(self.size), self._render_all())
        return ["".join(t for t, _ in line) for line in self._cache[1]]
