"""Three piles of coins side by side; the chosen pile and the coins about to be taken stand out."""

from __future__ import annotations

from rich.segment import Segment
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

PILE_LABELS = ("Nickels", "Dimes", "Quarters")


class NimPilesView(Widget):
    DEFAULT_CSS = """
    NimPilesView { height: 1fr; min-height: 4; }
    NimPilesView > .piles--label { text-style: bold; }
    NimPilesView > .piles--chosen { text-style: bold reverse; }
    NimPilesView > .piles--coin { color: $warning; }
    NimPilesView > .piles--taking { color: $error; text-style: bold; }
    """
    COMPONENT_CLASSES = {"piles--label", "piles--chosen", "piles--coin", "piles--taking"}

    piles: reactive[tuple[int, int, int]] = reactive((0, 0, 0))
    chosen: reactive[int] = reactive(0)
    taking: reactive[int] = reactive(0)  # coins marked for taking from the chosen pile

    class PileClicked(Message):
        def __init__(self, pile: int) -> None:
            super().__init__()
            self.pile = pile

    def pile_at(self, x: int) -> int:
        return min(2, max(0, x * 3 // max(1, self.size.width)))

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.PileClicked(self.pile_at(event.x)))

    def _layout(self, column: int, height: int) -> tuple[int, int]:
        """(coins per row, cell width) so the largest pile fits `height - 1` rows."""
        biggest = max(self.piles) or 1
        for cell in (2, 1):
            per_row = max(1, (column - 1) // cell)
            if -(-biggest // per_row) <= height - 1:
                return per_row, cell
        return max(1, column - 1), 1

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        column = width // 3
        per_row, cell = self._layout(column, height)
        base = self.rich_style
        segments: list[Segment] = []
        for pile in range(3):
            count = self.piles[pile]
            chosen = pile == self.chosen
            if y == 0:
                text = f" {PILE_LABELS[pile]}: {count} "
                text = (("▶" + text + "◀") if chosen else (" " + text + " "))[:column].center(column)
                style = self.get_component_rich_style("piles--chosen" if chosen else "piles--label")
                segments.append(Segment(text, base + style))
                continue
            row = y - 1
            first = row * per_row
            line: list[Segment] = [Segment(" ", base)]
            used = 1
            for i in range(first, min(count, first + per_row)):
                # the coins taken are the last ones drawn in the pile
                marked = chosen and i >= count - self.taking
                glyph = "○" if marked else "●"
                style = self.get_component_rich_style("piles--taking" if marked else "piles--coin")
                text = glyph + (" " if cell == 2 else "")
                line.append(Segment(text, base + style))
                used += len(text)
            if used < column:
                line.append(Segment(" " * (column - used), base))
            segments.extend(line)
        strip = Strip(segments)
        return strip.extend_cell_length(width, base).crop(0, width)
