"""The Nim learner's hat for one position: each legal move's chance and count, the ball just drawn,
✓ on the winning moves, and a one-line summary.

    Hat (2, 3, 5): 2.5k balls for 10 moves. Likeliest: 4 quarters (91%), a winning move ✓.
    nickels                   dimes                     quarters
    1 nickel   ▁<1%    1      1 dime     ▁ 1%   25      4 quarters ▇91% 2.3k ✓

The moves are grouped by pile, one column per pile when the width allows, else one list.
Each line reads without colour: bar, chance, count, the move in words, and its marks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from sticks_tui.engine.nim import PILE_NAMES, coins_word
from sticks_tui.ui.widgets.heatmap import (MARK_DRAWN, MARK_PERFECT, chance_bar, short_chance,
                                           short_count)

#: The spaces before a pile's column where the piles before it have no move left: a style of their own
#: (no visible difference), so they are never merged with the move after them. Some SVG renderers
#: drop the leading spaces of a merged run and draw the move at the left edge.
PAD = "pad"
_PAD_STYLE = Style(underline=False)
ENTRY = 24  # "10 quarters" + bar + "64%" + " " + "1.2k" + " ✓"
GAP = 2


@dataclass(frozen=True)
class NimHatData:
    """What the widget shows: plain data, no brain object.

    position: (nickels, dimes, quarters) on the board.
    moves:    the legal moves as (pile, coins), pile 0 = nickels, 1 = dimes, 2 = quarters.
    counts:   the hat's ball count for each move, in `moves` order.
    winning:  the moves that win against perfect play (from the Nim table).
    drawn:    the move just drawn from this hat, or None.
    """

    position: tuple[int, int, int] = (0, 0, 0)
    moves: tuple[tuple[int, int], ...] = ()
    counts: tuple[int, ...] = ()
    winning: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    drawn: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if len(self.moves) != len(self.counts):
            raise ValueError(f"{len(self.moves)} moves but {len(self.counts)} counts: one count per move.")

    @classmethod
    def of(cls, position, moves: Iterable, counts: Iterable, winning: Iterable = (), drawn=None) -> NimHatData:
        return cls(tuple(int(p) for p in position), tuple((int(p), int(c)) for p, c in moves),
                   tuple(int(c) for c in counts), frozenset((int(p), int(c)) for p, c in winning),
                   None if drawn is None else (int(drawn[0]), int(drawn[1])))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def summary(self) -> str:
        """One line: how full the hat is, its likeliest move and whether that move wins."""
        n, d, q = self.position
        if not self.moves:
            return f"Position ({n}, {d}, {q}): no coins left, no hat."
        total = self.total
        best = max(range(len(self.moves)), key=lambda i: self.counts[i])
        tied = sum(1 for c in self.counts if c == self.counts[best])
        move = self.moves[best]
        moves = f"{len(self.moves)} move" + ("s" if len(self.moves) != 1 else "")
        head = f"Hat ({n}, {d}, {q}): {short_count(total).strip()} balls for {moves}."
        if tied > 1:
            likeliest = f" No favourite yet ({tied} moves tie at {short_chance(self.counts[best], total).strip()})."
        else:
            likeliest = f" Likeliest: {coins_word(*move)} ({short_chance(self.counts[best], total).strip()})"
            if not self.winning:
                likeliest += "; every move loses here."
            else:
                likeliest += f", a winning move {MARK_PERFECT}." if move in self.winning else ", not a winning move."
        drawn = f" Drawn: {MARK_DRAWN} {coins_word(*self.drawn)}." if self.drawn is not None else ""
        return head + likeliest + drawn


class NimHats(ScrollView, can_focus=True):
    """The Nim learner's hat for the current position. Set `data` (a `NimHatData`) to redraw."""

    DEFAULT_CSS = """
    NimHats { height: auto; max-height: 12; min-height: 3; }
    NimHats > .nimhats--summary { text-style: bold; }
    NimHats > .nimhats--header { color: $text-muted; text-style: bold; }
    NimHats > .nimhats--bar { color: $warning; }
    NimHats > .nimhats--win { color: $text-success; text-style: bold; }
    NimHats > .nimhats--drawn { text-style: bold reverse; }
    NimHats > .nimhats--muted { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"nimhats--summary", "nimhats--header", "nimhats--bar", "nimhats--win",
                         "nimhats--drawn", "nimhats--muted"}

    data: reactive[NimHatData] = reactive(NimHatData, always_update=True)

    def _by_pile(self) -> list[list[int]]:
        piles: list[list[int]] = [[], [], []]
        for i, (pile, _) in enumerate(self.data.moves):
            piles[pile].append(i)
        return piles

    def _layout(self, width: int) -> tuple[bool, int]:
        """(in columns?, rows of moves)."""
        piles = self._by_pile()
        columns = width >= 3 * ENTRY + 2 * GAP
        rows = max((len(p) for p in piles), default=0) if columns else len(self.data.moves)
        return columns, rows

    def _summary_lines(self, width: int) -> list[str]:
        words, lines = self.data.summary().split(" "), [""]
        for word in words:
            if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
                lines.append(word)
            else:
                lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
        return lines

    def get_content_height(self, container, viewport, width: int) -> int:
        columns, rows = self._layout(width)
        return len(self._summary_lines(width)) + (1 if columns else 0) + rows

    def _update_virtual_size(self) -> None:
        width = self.size.width
        columns, rows = self._layout(width)
        self.virtual_size = Size(min(width, 3 * ENTRY + 2 * GAP if columns else ENTRY),
                                 len(self._summary_lines(width)) + (1 if columns else 0) + rows)

    def watch_data(self) -> None:
        self._update_virtual_size()
        self.refresh(layout=True)

    def on_resize(self) -> None:
        self._update_virtual_size()

    def entry(self, i: int) -> list[tuple[str, str]]:
        """One move as (text, style class) runs: '2 dimes    ▆64% 1.2k ✓' (► replaces the bar when drawn)."""
        data = self.data
        move, count, total = data.moves[i], data.counts[i], data.total
        drawn = data.drawn == move
        runs = [(f"{coins_word(*move):<11}", "nimhats--drawn" if drawn else ""),
                (MARK_DRAWN if drawn else chance_bar(count, total), "nimhats--drawn" if drawn else "nimhats--bar"),
                (f"{short_chance(count, total)} {short_count(count):>4}", "nimhats--drawn" if drawn else ""),
                (f" {MARK_PERFECT}" if move in data.winning else "  ", "nimhats--win")]
        return runs

    def entry_text(self, move: tuple[int, int]) -> str:
        """What the line for `move` shows (for tests and readers)."""
        return "".join(t for t, _ in self.entry(self.data.moves.index(move))).rstrip()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = (int(v) for v in self.scroll_offset)
        width = self.scrollable_content_region.width
        line = y + scroll_y
        base = self.rich_style
        summary = self._summary_lines(width)
        columns, rows = self._layout(width)
        runs: list[tuple[str, str]] = []
        if line < len(summary):
            runs = [(summary[line], "nimhats--summary")]
        else:
            line -= len(summary)
            if columns:
                piles = self._by_pile()
                if line == 0:
                    runs = [("".join(f"{name:<{ENTRY + GAP}}" for name in PILE_NAMES), "nimhats--header")]
                else:
                    for pile, indices in enumerate(piles):
                        start = len("".join(t for t, _ in runs))
                        if start < pile * (ENTRY + GAP):
                            runs.append((" " * (pile * (ENTRY + GAP) - start), PAD))
                        if line - 1 < len(indices):
                            runs.extend(self.entry(indices[line - 1]))
            elif line < len(self.data.moves):
                runs = self.entry(line)
        segments = [Segment(t, base + (_PAD_STYLE if c == PAD else self.get_component_rich_style(c) if c else base))
                    for t, c in runs]
        strip = Strip(segments).extend_cell_length(width + scroll_x, base)
        return strip.crop(scroll_x, scroll_x + width).simplify()
