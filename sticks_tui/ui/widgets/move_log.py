"""The move log: sentences wrapped to the width, newest at the bottom, scrollable with the wheel.

A RichLog grows its virtual size with every line, and each growth makes Textual lay out the whole
screen (about 25 ms a move at 100 sticks). This widget keeps a fixed size and only repaints itself.
"""

from __future__ import annotations

import textwrap
from collections import deque

from rich.segment import Segment
from textual import events
from textual.strip import Strip
from textual.widget import Widget

KEEP = 500


class MoveLog(Widget, can_focus=False):
    DEFAULT_CSS = """
    MoveLog { height: 8; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: deque[str] = deque(maxlen=KEEP)  # the sentences, as written
        self._back = 0  # how many wrapped rows the view is scrolled up from the newest
        self._wrapped: list[str] | None = None
        self._wrapped_width = -1

    def write(self, text: str) -> None:
        self.lines.append(str(text))
        self._wrapped = None
        self._back = 0  # a new line brings the view back to the newest
        self.refresh()

    def clear(self) -> None:
        self.lines.clear()
        self._wrapped = None
        self._back = 0
        self.refresh()

    def wrapped(self, width: int) -> list[str]:
        if self._wrapped is None or width != self._wrapped_width:
            rows: list[str] = []
            for line in self.lines:
                rows.extend(textwrap.wrap(line, max(1, width), subsequent_indent="  ") or [""])
            self._wrapped, self._wrapped_width = rows, width
        return self._wrapped

    def on_resize(self) -> None:
        self._wrapped = None

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        rows = len(self.wrapped(self.content_region.width))
        self._back = min(max(0, rows - self.content_region.height), self._back + 1)
        self.refresh()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._back = max(0, self._back - 1)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.content_region.width, self.content_region.height
        rows = self.wrapped(width)
        top = max(0, len(rows) - height - self._back)
        index = top + y
        text = rows[index] if index < len(rows) else ""
        style = self.rich_style
        return Strip([Segment(text.ljust(width)[:width], style)], width)
