"""A learning curve: share of hats right and chance to beat a perfect player, over games played."""

from __future__ import annotations

from rich.segment import Segment
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

BLOCKS = " ▁▂▃▄▅▆▇█"


class LearningCurve(Widget):
    """Two series drawn as column charts, one above the other, each with its label and last value.

    `points` is a tuple of (games done, agreement, win probability vs perfect). Heights carry the
    values, so it reads without colour.
    """

    DEFAULT_CSS = """
    LearningCurve { height: 8; }
    LearningCurve > .curve--agreement { color: $success; }
    LearningCurve > .curve--win { color: $accent; }
    LearningCurve > .curve--label { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"curve--agreement", "curve--win", "curve--label"}

    points: reactive[tuple] = reactive(tuple)

    def series(self, width: int) -> tuple[list[float], list[float]]:
        """Resample the points to `width` columns (the newest value of each column)."""
        points = self.points
        if not points or width <= 0:
            return [], []
        if len(points) <= width:
            chosen = list(points)
        else:
            chosen = [points[min(len(points) - 1, int((i + 1) * len(points) / width) - 1)] for i in range(width)]
        return [p[1] for p in chosen], [p[2] for p in chosen]

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        label_style = self.get_component_rich_style("curve--label")
        half = max(1, (height - 2) // 2)
        agreement, win = self.series(width)
        if y == 0:
            text = f"agreement with perfect play: {agreement[-1]:.0%}" if agreement else "no games yet"
            return Strip([Segment(text[:width].ljust(width), self.rich_style + label_style)])
        if y == half + 1:
            text = f"win vs a perfect player: {win[-1]:.1%}" if win else ""
            return Strip([Segment(text[:width].ljust(width), self.rich_style + label_style)])
        if 1 <= y <= half:
            values, style, row = agreement, self.get_component_rich_style("curve--agreement"), half - y
        elif half + 2 <= y <= 2 * half + 1:
            values, style, row = win, self.get_component_rich_style("curve--win"), 2 * half + 1 - y
        else:
            return Strip.blank(width, self.rich_style)
        chars = []
        for v in values:
            if v != v:  # nan
                chars.append(" ")
                continue
            level = v * half * 8 - row * 8
            chars.append(BLOCKS[max(0, min(8, int(round(level))))])
        text = "".join(chars).ljust(width)
        return Strip([Segment(text, self.rich_style + style)])
