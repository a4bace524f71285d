"""Telling a training game ball by ball: which draw comes next, and what each AI's hats show then.

The trainer plays a game whole and sends its story (`learn.control.GameStory`) with both AIs' hats
as the game left them. A `ToldGame` replays it one event at a time for the screen: each draw (the
ball ► in its hat, the player's earlier balls • beside theirs), then the lesson (↑ ↓ = on the
balls drawn, the hats as they are after it). Pure: no Textual here; the training screen asks it
what to show and writes the words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sticks_tui.learn.control import GameStory


@dataclass(frozen=True)
class HatsView:
    """What one AI's heatmap shows at a point of the telling."""

    counts: np.ndarray
    drawn: tuple[int, int] | None = None
    beside: frozenset = frozenset()
    flash: tuple[tuple[int, int, int], ...] = ()


@dataclass(eq=False)
class ToldGame:
    """One game's story being told: `shown` events so far (its draws in order, then the lesson)."""

    story: GameStory
    after: tuple[np.ndarray, np.ndarray]  # each AI's hats after the game (AI 1, AI 2)
    shown: int = 0
    #: Where a (position, move) is in the counts array: (row, column). Sticks: (heap, ball - 1).
    cell: Callable[[object, object], tuple[int, int]] = field(default=lambda hat, ball: (hat, ball - 1), repr=False)
    _before: dict = field(default_factory=dict, repr=False)

    @property
    def events(self) -> int:
        """The draws, and the lesson."""
        return len(self.story.draws) + 1

    @property
    def done(self) -> bool:
        return self.shown >= self.events

    def next_event(self) -> tuple[str, int | None]:
        """('draw', player) for the next draw, ('lesson', None) after the last one, ('done', None)."""
        if self.shown < len(self.story.draws):
            return "draw", int(self.story.draws[self.shown][0])
        return ("lesson", None) if not self.done else ("done", None)

    def before(self, player: int) -> np.ndarray:
        """The player's hats before the game: its hats after it, with the lesson taken back."""
        if player not in self._before:
            counts = np.array(self.after[player], copy=True)
            for change in self.story.changes[player]:
                counts[self.cell(change.hat, change.ball)] = change.before
            self._before[player] = counts
        return self._before[player]

    def view(self, player: int) -> HatsView:
        """What `player`'s hats show with `shown` events told."""
        draws = self.story.draws
        if self.shown > len(draws):  # the lesson: ↑ added, ↓ thrown away, = kept as it was
            flash = tuple((c.hat, c.ball, c.after - c.before) for c in self.story.changes[player])
            return HatsView(self.after[player], flash=flash)
        told = draws[: self.shown]
        drawn = None
        if told and told[-1][0] == player:
            drawn = (told[-1][1], told[-1][2])
        beside = frozenset((hat, ball) for p, hat, ball in told[:-1] if p == player)
        return HatsView(self.before(player), drawn=drawn, beside=beside)

    def whole(self, player: int, learned: bool) -> HatsView:
        """The game told at once: every ball it drew beside its hat, then (`learned`) the lesson."""
        if learned:
            flash = tuple((c.hat, c.ball, c.after - c.before) for c in self.story.changes[player])
            return HatsView(self.after[player], flash=flash)
        beside = frozenset((hat, ball) for p, hat, ball in self.story.draws if p == player)
        return HatsView(self.before(player), beside=beside)
