"""The heap drawn as matchsticks, in groups of five, with the sticks just taken shown leaving."""

from __future__ import annotations

from rich.segment import Segment
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

GROUP = 5
MAX_TALL = 8  # a roomy board draws taller matches (a head and up to seven lines of stick)


class SticksView(Widget):
    """Draws `heap` sticks plus `leaving` sticks that were just taken (drawn hollow and dim)."""

    DEFAULT_CSS = """
    SticksView { height: 1fr; min-height: 3; }
    SticksView > .sticks--head { color: $error; text-style: bold; }
    SticksView > .sticks--stick { color: $warning; }
    SticksView > .sticks--leaving { color: $text-muted; text-style: dim; }
    """
    COMPONENT_CLASSES = {"sticks--head", "sticks--stick", "sticks--leaving"}

    heap: reactive[int] = reactive(0)
    leaving: reactive[int] = reactive(0)

    def show(self, heap: int, leaving: int = 0) -> None:
        self.heap = heap
        self.leaving = leaving

    def layout_for(self, width: int, height: int) -> tuple[int, int, int, int]:
        """(sticks per row, rows, stick height, cell width) that fit `width` x `height`: as tall as fits,
        up to MAX_TALL (3 was the most before; a big screen has room)."""
        total = self.heap + self.leaving
        if total == 0 or width < 1 or height < 1:
            return (0, 0, 0, 2)
        for cell in (2, 1):
            group_width = GROUP * cell + (1 if cell == 2 else 0)
            groups = max(1, (width + 1) // group_width)
            per_row = GROUP * groups
            rows = -(-total // per_row)
            for tall in range(MAX_TALL, 0, -1):
                gap = 1 if tall > 1 else 0
                if rows * tall + (rows - 1) * gap <= height:
                    return (per_row, rows, tall, cell)
        per_row = max(1, width)
        return (per_row, -(-total // per_row), 1, 1)

    _styles: tuple | None = None

    def notify_style_update(self) -> None:
        self._styles = None  # the theme or the CSS changed: resolve the styles again
        super().notify_style_update()

    def styles_for_drawing(self) -> tuple:
        """(base, head, stick, leaving) rich styles, resolved once: each look-up walks the DOM."""
        if self._styles is None:
            base = self.rich_style
            self._styles = (base, base + self.get_component_rich_style("sticks--head"),
                            base + self.get_component_rich_style("sticks--stick"),
                            base + self.get_component_rich_style("sticks--leaving"))
        return self._styles

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        per_row, rows, tall, cell = self.layout_for(width, height)
        base, head, stick, leaving = self.styles_for_drawing()
        if not per_row:
            return Strip.blank(width, base)
        gap = 1 if tall > 1 else 0
        block = tall + gap
        drawn_height = rows * tall + (rows - 1) * gap
        top = max(0, (height - drawn_height) // 2)
        y -= top
        if y < 0 or y >= drawn_height or y % block >= tall:
            return Strip.blank(width, base)
        row, line = divmod(y, block)
        total = self.heap + self.leaving
        first = row * per_row
        count = min(per_row, total - first)
        segments: list[Segment] = []
        used = 0
        group_width = GROUP * cell + (1 if cell == 2 else 0)
        full_width = (per_row // GROUP) * group_width - (1 if cell == 2 else 0)
        left = max(0, (width - min(full_width, width)) // 2)
        segments.append(Segment(" " * left, base))  # unstyled padding showed as grey boxes
        used += left
        for i in range(count):
            index = first + i
            gone = index >= self.heap
            if line == 0 and tall > 1:
                glyph, style = ("○", leaving) if gone else ("●", head)
            else:
                glyph, style = ("╎", leaving) if gone else ("┃", stick)
            text = glyph + (" " if cell == 2 else "")
            if cell == 2 and (i + 1) % GROUP == 0:
                text += " "
            segments.append(Segment(text, style))
            used += len(text)
        if used < width:
            segments.append(Segment(" " * (width - used), base))
        return Strip(segments).crop(0, width).simplify()
