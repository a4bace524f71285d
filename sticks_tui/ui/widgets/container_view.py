"""One container of a counts learner (a hat of balls, a matchbox of beads) for one position: each legal
move's tokens, their chance, the token just drawn, ✓ on the perfect moves, after a game each drawn
token's count before → after, and a one-line summary. The heatmap (`widgets.heatmap`) is the same
family for a brain small enough to show every hat at once.

    Hat for 2 nickels, 3 dimes, 5 quarters: 2.5k balls for 10 moves. Likeliest: 4 quarters (91%), ✓ perfect.
    1 nickel   ▁<1%    1      1 dime     ▁ 1%   25      4 quarters ▇91% 2.3k ✓

The moves flow down columns, as many columns as the width holds. Each entry reads without colour:
the move in words, a bar, the chance, the count, and its marks.
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

from sticks_tui.learn.figure_words import percent
from sticks_tui.ui.widgets.heatmap import (MARK_DOWN, MARK_DRAWN, MARK_MIRROR, MARK_PERFECT, MARK_UP, chance_bar,
                                           short_chance, short_count)

#: The spaces before a column where the column before has no entry left: a style of their own (no visible
#: difference), so they are never merged with the entry after them. Some SVG renderers drop the leading
#: spaces of a merged run and draw the entry at the left edge.
PAD = "pad"
_PAD_STYLE = Style(underline=False)
LABEL_MAX = 14
GAP = 2


@dataclass(frozen=True)
class ContainerData:
    """What the widget shows: plain data, no brain object.

    title:   the container in words ("Hat for 2 nickels, 3 dimes, 5 quarters"); '' with no container.
    labels:  each legal move in a few words, in legal-move order.
    moves:   the moves themselves (to match `drawn`, `perfect` and `changes`), in the same order.
    counts:  the container's tokens for each move.
    perfect: the perfect moves (marked ✓).
    drawn:   the move whose token was just drawn, or None.
    changes: after a game: move -> (before, after) of each token drawn from this container.
    token:   what a token is called ("ball", "bead").
    empty:   words for a position with no container ('' : the title says it).
    mirrored: the moves with no tokens of their own (a mirror image of another move, counted there: ⇋);
             with `told_apart`, a move with 0 tokens that is not one was emptied (and the summary says so).
    """

    title: str = ""
    labels: tuple[str, ...] = ()
    moves: tuple = ()
    counts: tuple[int, ...] = ()
    perfect: frozenset = field(default_factory=frozenset)
    drawn: object = None
    changes: dict = field(default_factory=dict, compare=False)
    token: str = "ball"
    empty: str = ""
    mirrored: frozenset = field(default_factory=frozenset)
    told_apart: bool = False

    def __post_init__(self) -> None:
        if not len(self.labels) == len(self.moves) == len(self.counts):
            raise ValueError(f"{len(self.moves)} moves, {len(self.labels)} labels and {len(self.counts)} counts: "
                             "one of each per move.")

    @classmethod
    def of(cls, title: str, moves: Iterable, labels: Iterable[str], counts: Iterable, *, perfect: Iterable = (),
           drawn=None, changes: dict | None = None, token: str = "ball", mirrored: Iterable | None = None) -> ContainerData:
        """`mirrored` given (even empty): the moves without tokens are told apart (mirror images, emptied)."""
        return cls(title, tuple(labels), tuple(moves), tuple(int(c) for c in counts), frozenset(perfect), drawn,
                   dict(changes or {}), token, mirrored=frozenset(mirrored or ()), told_apart=mirrored is not None)

    @property
    def total(self) -> int:
        return sum(self.counts)

    def summary(self) -> str:
        """One line: how full the container is, its likeliest move and whether that move is perfect, and how
        often a token drawn is a perfect move."""
        if not self.moves:
            return self.empty or self.title
        total = self.total
        tokens = f"{self.token}s"
        moves = f"{len(self.moves)} move" + ("s" if len(self.moves) != 1 else "")
        head = f"{self.title}: {short_count(total).strip()} {tokens} for {moves}."
        if total == 0:
            return head + " It is empty."
        best = max(range(len(self.moves)), key=lambda i: self.counts[i])
        tied = sum(1 for c in self.counts if c == self.counts[best])
        if tied > 1:
            likeliest = f" No favourite yet ({tied} moves tie at {short_chance(self.counts[best], total).strip()})."
        else:
            likeliest = f" Likeliest: {self.labels[best]} ({short_chance(self.counts[best], total).strip()})"
            if not self.perfect:
                likeliest += "."
            else:
                likeliest += f", a perfect move {MARK_PERFECT}." if self.moves[best] in self.perfect \
                    else ", not a perfect move."
        perfect_here = [m for m in self.moves if m in self.perfect]
        if perfect_here and not (tied == 1 and perfect_here == [self.moves[best]]):
            # the likeliest move is not every draw: how often a draw is a perfect move (issue 33; said already
            # when the likeliest is the one perfect move: its chance)
            good = sum(c for m, c in zip(self.moves, self.counts, strict=True) if m in self.perfect)
            likeliest += f" A {self.token} drawn is a perfect move {percent(good / total)} of the time."
        drawn = ""
        if self.drawn is not None and self.drawn in self.moves:
            drawn = f" Drawn: {MARK_DRAWN} {self.labels[self.moves.index(self.drawn)]}."
        return head + likeliest + drawn + self.legend()

    def legend(self) -> str:
        """What a move without tokens means, for the kinds shown: a mirror image, or emptied."""
        words = ""
        if self.mirrored:
            words += f" {MARK_MIRROR} mirror: another move's twin, counted there."
        if self.told_apart and any(c == 0 and m not in self.mirrored
                                   for m, c in zip(self.moves, self.counts, strict=True)):
            words += f" 0 emptied: losses took its {self.token}s."
        return words


def change_words(before: int, after: int) -> str:
    """A token count's change after a game, in full: '11,006 → 11,007 ↑' (never '11k→11k')."""
    arrow = MARK_UP if after > before else MARK_DOWN if after < before else "="
    return f"{before:,} → {after:,} {arrow}"


class ContainerView(ScrollView):
    """A learner's container for one position. Set `data` (a `ContainerData`) to redraw."""

    DEFAULT_CSS = """
    ContainerView { height: auto; max-height: 12; min-height: 3; }
    ContainerView > .container--summary { text-style: bold; }
    ContainerView > .container--bar { color: $warning; }
    ContainerView > .container--win { color: $text-success; text-style: bold; }
    ContainerView > .container--drawn { text-style: bold reverse; }
    ContainerView > .container--change { text-style: bold; }
    ContainerView > .container--mirror { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"container--summary", "container--bar", "container--win", "container--drawn",
                         "container--change", "container--mirror"}

    data: reactive[ContainerData] = reactive(ContainerData, always_update=True)

    @property
    def label_width(self) -> int:
        return min(LABEL_MAX, max((len(label) for label in self.data.labels), default=1))

    @property
    def entry_width(self) -> int:
        # label, bar, "64%", count, " ✓", and room for the widest " 11,006 → 11,007 ↑" after a game
        changes = max((len(change_words(*c)) + 1 for c in self.data.changes.values()), default=0)
        return self.label_width + 1 + 1 + 3 + 1 + 4 + 2 + changes

    def _columns(self, width: int) -> tuple[int, int]:
        """(columns, rows of entries)."""
        n = len(self.data.moves)
        columns = max(1, min(n or 1, (width + GAP) // (self.entry_width + GAP)))
        return columns, -(-n // columns) if n else 0

    def _summary_lines(self, width: int) -> list[str]:
        words, lines = self.data.summary().split(" "), [""]
        for word in words:
            if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
                lines.append(word)
            else:
                lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
        return lines

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self._summary_lines(width)) + self._columns(width)[1]

    def _update_virtual_size(self) -> None:
        width = self.size.width
        columns, rows = self._columns(width)
        self.virtual_size = Size(max(1, min(width, columns * (self.entry_width + GAP))),
                                 len(self._summary_lines(width)) + rows)

    def watch_data(self) -> None:
        self._update_virtual_size()
        self.refresh(layout=True)

    def on_resize(self) -> None:
        self._update_virtual_size()

    def entry(self, i: int) -> list[tuple[str, str]]:
        """One move as (text, style class) runs: '2 dimes    ▆64% 1.2k ✓' (► replaces the bar when drawn),
        after a game ' 12→15 ↑'."""
        data = self.data
        move, count, total = data.moves[i], data.counts[i], data.total
        drawn = data.drawn == move
        style = "container--drawn" if drawn else ""
        label = data.labels[i][: self.label_width]
        if move in data.mirrored:
            return [(f"{label:<{self.label_width}} ", style), (f"{MARK_MIRROR} mirror", "container--mirror")]
        runs = [(f"{label:<{self.label_width}} ", style),
                (MARK_DRAWN if drawn else chance_bar(count, total), style or "container--bar"),
                (f"{short_chance(count, total)} {short_count(count):>4}", style),
                (f" {MARK_PERFECT}" if move in data.perfect else "  ", "container--win")]
        change = data.changes.get(move)
        if change is not None:
            runs.append((f" {change_words(*change)}", "container--change"))
        return runs

    def entry_text(self, move) -> str:
        """What the entry for `move` shows (for tests and readers)."""
        return "".join(t for t, _ in self.entry(self.data.moves.index(move))).rstrip()

    def screen_lines(self) -> list[str]:
        """Every line the widget draws, as text (for tests and readers)."""
        width = self.scrollable_content_region.width or 80
        summary = self._summary_lines(width)
        _, rows = self._columns(width)
        return [*summary, *("".join(t for t, _ in self._row(r, width)).rstrip() for r in range(rows))]

    def _row(self, row: int, width: int) -> list[tuple[str, str]]:
        columns, rows = self._columns(width)
        runs: list[tuple[str, str]] = []
        for column in range(columns):
            i = column * rows + row
            if i >= len(self.data.moves):
                break
            start = len("".join(t for t, _ in runs))
            target = column * (self.entry_width + GAP)
            if start < target:
                runs.append((" " * (target - start), PAD))
            runs.extend(self.entry(i))
        return runs

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = (int(v) for v in self.scroll_offset)
        width = self.scrollable_content_region.width
        line = y + scroll_y
        base = self.rich_style
        summary = self._summary_lines(width)
        if line < len(summary):
            runs = [(summary[line], "container--summary")]
        else:
            runs = self._row(line - len(summary), width) if line - len(summary) < self._columns(width)[1] else []
        segments = [Segment(t, base + (_PAD_STYLE if c == PAD else self.get_component_rich_style(c) if c else base))
                    for t, c in runs]
        strip = Strip(segments).extend_cell_length(width + scroll_x, base)
        return strip.crop(scroll_x, scroll_x + width).simplify()
