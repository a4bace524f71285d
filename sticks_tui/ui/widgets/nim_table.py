"""A slice of the Nim table U(n, d, q) for one q: the n x d grid of won and lost positions."""

from __future__ import annotations

from rich.segment import Segment
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

CELL = 2
LABEL = 4


class NimTableView(ScrollView, can_focus=True):
    """Rows are nickels n, columns are dimes d. 'L' marks a lost position (U = 0), '·' a won one."""

    DEFAULT_CSS = """
    NimTableView { height: 1fr; }
    NimTableView > .nimtable--lost { background: $error 60%; color: $text; text-style: bold; }
    NimTableView > .nimtable--won { color: $text-muted; }
    NimTableView > .nimtable--axis { color: $accent; text-style: bold; }
    NimTableView > .nimtable--here { text-style: reverse bold; }
    """
    COMPONENT_CLASSES = {"nimtable--lost", "nimtable--won", "nimtable--axis", "nimtable--here"}

    q: reactive[int] = reactive(0)
    here: reactive[tuple[int, int, int] | None] = reactive(None)

    def __init__(self, size: int = 100, **kwargs) -> None:
        super().__init__(**kwargs)
        self.table_size = size

    def on_mount(self) -> None:
        self.virtual_size = Size(LABEL + CELL * (self.table_size + 1), self.table_size + 2)

    def watch_q(self) -> None:
        self.refresh()

    def watch_here(self) -> None:
        self.refresh()

    def render_line(self, y: int) -> Strip:
        from sticks_tui.solve.nim import table_slice

        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        line = y + int(scroll_y)
        base = self.rich_style
        axis = self.get_component_rich_style("nimtable--axis")
        segments: list[Segment] = []
        if line == 0:
            segments.append(Segment("n\\d ", base + axis))
            for d in range(self.table_size + 1):
                segments.append(Segment(f"{d:>2}" if d % 5 == 0 else "  ", base + axis))
        elif line - 1 <= self.table_size:
            n = line - 1
            grid = table_slice(self.q)
            lost = self.get_component_rich_style("nimtable--lost")
            won = self.get_component_rich_style("nimtable--won")
            here_style = self.get_component_rich_style("nimtable--here")
            segments.append(Segment(f"{n:>3} ", base + axis))
            for d in range(self.table_size + 1):
                winning = bool(grid[n, d])
                style = base + (won if winning else lost)
                if self.here is not None and self.here == (n, d, self.q):
                    style += here_style
                segments.append(Segment("· " if winning else "L ", style))
        strip = Strip(segments).extend_cell_length(width + int(scroll_x), base)
        return strip.crop(int(scroll_x), int(scroll_x) + width)
