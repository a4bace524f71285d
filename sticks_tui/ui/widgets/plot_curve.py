"""The training screen's learning curve, drawn by plotext (textual-plotext, as the lab's chart is).

    over heaps 2-20:                         <- the legend, outside the plot: each series' glyph,
    ● agreement with perfect play 87%           its name and its last value
 100%┤                          ●●●●●●●●●      <- plotext puts each value on its true row
  50%┤              ●●●●●●●●●●●                   (0-100%, ticks every 25%)
   0%┤●●●●●●●●●●●●●
    └┬─────────┬─────────┬─────────┬──────
     1        10        100       1,000
              games trained (log scale)

The series are the same as the hand-drawn `LearningCurve`'s (`series_from_points`): the trainer's samples
(games, agreement, chance moving first, chance moving second), each with its own glyph so they are told
apart without colour. plotext is imported when the widget is first composed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from sticks_tui.ui.widgets.curve import CurveSeries, FigureHeadings, legend_items, points_of, series_from_points

Y_TICKS = (0, 25, 50, 75, 100)


def ordered_ticks(plt) -> None:
    """Put the ticks plotext holds back in order. plotext 5 drops duplicate ticks through a set
    (`_utility.brush`), so its ticks come out in the order of their labels' string hashes, which changes from
    run to run (PYTHONHASHSEED), and it places crowded labels in that order: the same chart drawn with
    "1,000" a column apart from one run to the next. Sorted, a chart is the same every run."""
    monitor = getattr(plt, "monitor", None)
    if not hasattr(monitor, "xticks"):  # not a plotext figure (a test's recorder of calls): nothing to order
        return
    for ticks, labels in ((monitor.xticks, monitor.xlabels), (monitor.yticks, monitor.ylabels)):
        for side in range(len(ticks)):
            if ticks[side] and labels[side] and len(ticks[side]) == len(labels[side]):
                pairs = sorted(zip(ticks[side], labels[side], strict=True))
                ticks[side], labels[side] = [t for t, _ in pairs], [label for _, label in pairs]


def decade_ticks(last: float) -> list[int]:
    """1, 10, 100 ... up to the last games count (at least up to 10)."""
    ticks, t = [1], 10
    while t <= max(10, last):
        ticks.append(t)
        t *= 10
    return ticks


class PlotCurve(Vertical):
    """A learning curve over games trained (log scale): the legend above, the plot (plotext) below.

    `points` takes the trainer's samples; `scope` says what the figures are about ("heaps 2-20").
    The plot takes the rest of the widget's height; `plot_rows()` says how many rows of it hold values."""

    DEFAULT_CSS = """
    PlotCurve { height: 1fr; }
    PlotCurve > .plot-curve--legend { height: auto; }
    PlotCurve > .plot-curve--plot { height: 1fr; min-height: 6; }
    """

    def __init__(self, *, empty_text: str = "no games yet", x_label: str = "games trained (log scale)",
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.empty_text = empty_text
        self.x_label = x_label
        self._series: tuple[CurveSeries, ...] = ()
        self._points: tuple = ()
        self._scope = ""
        self._about: FigureHeadings | None = None

    def compose(self) -> ComposeResult:
        from textual_plotext import PlotextPlot  # plotext loads only when a curve is first shown
        from textual_plotext.plot import Plot

        curve = self

        class _Plot(PlotextPlot):
            """Every render plots afresh, on a fresh plotext figure: plotext keeps the log of the data it holds,
            and a figure built before places its tick labels a column off the first build's (a screen that
            differed with the number of renders before it: about 8 ms a build at 80x24)."""

            def render(self):
                self._plot = Plot()
                curve._plot_into(self.plt)
                return super().render()

        yield Static("", classes="plot-curve--legend")
        yield _Plot(classes="plot-curve--plot")

    def on_mount(self) -> None:
        self._show()

    # -- data ---------------------------------------------------------------------------------
    @property
    def points(self) -> tuple:
        return self._points

    @points.setter
    def points(self, value: Iterable[Sequence[float]]) -> None:
        points = points_of(value)
        if points == self._points:
            return
        self._points = points
        self.series = series_from_points(points)

    @property
    def series(self) -> tuple[CurveSeries, ...]:
        return self._series

    @series.setter
    def series(self, value: Iterable) -> None:
        self._series = tuple(CurveSeries.of(s) for s in value)
        self._show()

    @property
    def scope(self) -> str:
        return self._scope

    @scope.setter
    def scope(self, value: str) -> None:
        if value != self._scope:
            self._scope = value
            self._show()

    @property
    def about(self) -> FigureHeadings | None:
        """What the figures are about, for the game in play (`FigureHeadings`): the legend's headings."""
        return self._about

    @about.setter
    def about(self, value: FigureHeadings | None) -> None:
        if value != self._about:
            self._about = value
            self._show()

    def _drawn(self) -> list[tuple[CurveSeries, list[float], list[float]]]:
        """Each series with points: its games (at least 1, on a log axis) and its values in percent."""
        drawn = []
        for s in self._series:
            pts = sorted((x, y) for x, y in s.points if x == x and y == y and abs(y) != float("inf"))
            if pts:
                drawn.append((s, [max(1.0, x) for x, _ in pts], [100 * max(0.0, min(1.0, y)) for _, y in pts]))
        return drawn

    def legend_text(self) -> str:
        """The legend as shown: what the figures are about, then each series' glyph, name and last value."""
        if not self._drawn():
            return self.empty_text
        lines: list[str] = []
        for item in legend_items(self._series, self._scope, self._about):
            if item.endswith(":") or not lines:  # a heading starts a line; its figures follow it on that line
                lines.append(item)
            else:
                lines[-1] += ("  " if not lines[-1].endswith(":") else " ") + item
        return "\n".join(lines)

    def legend_lines(self, width: int | None = None) -> list[str]:
        """The legend's lines (a heading and its figures on one line; a long one wraps on screen)."""
        return self.legend_text().splitlines()

    def _show(self) -> None:
        if not self.is_mounted:
            return
        self.query_one(".plot-curve--legend", Static).update(self.legend_text())
        self.query_one(".plot-curve--plot").refresh()

    # -- the plot -----------------------------------------------------------------------------
    def _plot_into(self, plt) -> None:
        plt.clear_data()
        plt.clear_figure()
        plt.ylim(0, 100)
        plt.yticks(list(Y_TICKS), [f"{t}%" for t in Y_TICKS])
        plt.xaxes(True, False)  # the axes only, no box: its top line is a row more of plot at 80x24
        plt.yaxes(True, False)
        drawn = self._drawn()
        if not drawn:  # (plotext cannot draw an empty log axis: a plain frame until the first sample)
            ordered_ticks(plt)
            return
        plt.xscale("log")
        plt.xlabel(self.x_label)
        last = max(max(xs) for _, xs, _ in drawn)
        ticks = decade_ticks(last)
        plt.xticks(ticks, [f"{t:,}" for t in ticks])
        for s, xs, ys in drawn:
            plt.plot(xs, ys, marker=s.glyph)
        ordered_ticks(plt)

    def plot_lines(self) -> list[str]:
        """The plot as plain lines, as drawn at the widget's size now (for tests and readers)."""
        return str(self.query_one(".plot-curve--plot").render()).splitlines()

    def plot_rows(self) -> int:
        """The rows above the x axis: where values are drawn."""
        lines = self.plot_lines()
        return next((i for i, line in enumerate(lines) if "└" in line), 0)
