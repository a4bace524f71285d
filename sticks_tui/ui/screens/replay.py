"""Replay a finished game of sticks move by move: the sticks, the move log in the seeds' words, and for
the learning AI its hats as they were before the game, the ball it drew at each move, and at the end
what the game changed (↑ a ball added, ↓ a ball thrown away, = a ball kept as it was).

Steps: 0 is the board before the first move, k (1..n) the board after move k; a game that taught the
learning AI has one more step, the lesson it took. Old games (kept before sticks-tui stored the hats
with each game) replay their moves and say plainly what is not known.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from sticks_tui.engine.events import HatChange
from sticks_tui.engine.rules import sticks_word
from sticks_tui.learn.hats import HatRule
from sticks_tui.learn.lesson_words import lesson_sentence
from sticks_tui.ui.boards.sticks import move_sentence
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.boards.sticks import SticksView
from sticks_tui.ui.widgets.header import AppHeader

NOTE_NO_AI = "No learning AI played in this game: there are no hats to show."
NOTE_OLD = ("This game was kept before sticks-tui stored the hats with each game: the moves replay, "
            "but the hats as they were, and what the AI drew from them, were not kept.")
NOTE_TRAINED = ("The trained AI's hats lived for that session only and were not kept with the game: "
                "the moves replay, the hats do not.")
NOTE_NO_HATS = ("This game was kept before sticks-tui stored the whole hats: the balls drawn and what "
                "changed are shown, but not the hats as they were.")


@dataclass(frozen=True)
class Step:
    heap: int  # sticks on the board after this step
    leaving: int  # sticks just taken (drawn hollow)
    line: str  # the log line this step adds
    headline: str  # what this step is, in one sentence
    drawn: tuple[int, int] | None = None  # (hat, ball) the learning AI drew at this move
    beside: frozenset = frozenset()  # balls drawn earlier in the game
    lesson: bool = False  # the step after the game: the changes applied


@dataclass(frozen=True)
class Replay:
    """A recorded game of sticks, cut into steps (a pure function of the record)."""

    game: object  # GameRecord
    steps: tuple[Step, ...]
    seat: int | None  # the learning seat shown, if any
    before: np.ndarray | None  # the hats before the game: counts[hat, ball - 1]
    after: np.ndarray | None  # and after its lesson
    flash: tuple[tuple[int, int, int], ...]  # (hat, ball, +1/-1) the lesson's marks
    note: str  # what is not known about this game's hats ("" when all of it is)

    @property
    def learner(self) -> str | None:
        return None if self.seat is None else self.game.players[self.seat]


def build_replay(game, rule: HatRule | None = None) -> Replay:
    """The steps of a recorded sticks game, with the learning AI's hats where they were kept; its lesson
    told by `rule` (the brain's rule; the seeds' when not given)."""
    rule = rule or HatRule()
    start = int(game.start)
    names = game.players
    learning = game.learning[0] if game.learning else None
    seat = learning.seat if learning is not None else None
    before = after = None
    flash: tuple = ()
    if learning is None:
        note = {"learning": NOTE_OLD, "trained": NOTE_TRAINED}.get(game.opponent, NOTE_NO_AI)
    elif learning.hats is None:
        note = NOTE_NO_HATS
    else:
        note = ""
        hats = learning.hats_before()
        width = max([3] + [len(c) for c in hats.values()])
        before = np.zeros((start + 1, width), dtype=np.int64)
        for hat, counts in hats.items():
            if 1 <= hat <= start:
                before[hat, : len(counts)] = counts
        after = before.copy()
        for hat, ball, _, new in learning.changes:
            if 1 <= hat <= start:
                after[hat, ball - 1] = new
    if learning is not None:
        flash = tuple((h, b, a - w) for h, b, w, a in learning.changes)  # = where a ball stayed as it was
    drawn = {}  # move index -> (hat, ball)
    if learning is not None:
        draws = list(learning.drawn)
        for i, (heap, take) in enumerate(_turns(game)):
            if draws and (game.first + i) % 2 == seat and tuple(draws[0]) == (heap, take):
                drawn[i] = draws.pop(0)
    first = game.first
    steps = [Step(start, 0, f"Game {game.id}: {start} sticks on the board. {names[first]} moves first.",
                  f"Before the first move: {start} sticks, {names[first]} to move.")]
    heap = start
    seen: list = []
    for i, take in enumerate(game.moves):
        mover = names[(first + i) % 2]
        after_heap = heap - int(take)
        draw = drawn.get(i)
        sentence = move_sentence(mover, int(take), heap, after_heap)
        if draw is not None:
            sentence = f"{mover} draws ball {draw[1]} from hat {draw[0]}. {sentence}"
        headline = f"Move {i + 1} of {len(game.moves)}: {mover} takes {take}"
        headline += f" (ball {draw[1]} from hat {draw[0]})." if draw is not None else "."
        steps.append(Step(after_heap, int(take), sentence, headline, draw, frozenset(seen)))
        if draw is not None:
            seen.append(draw)
        heap = after_heap
    last = steps[-1]
    end_line = f"{game.loser_name}: You lose.  {game.winner_name}: You win!"
    steps[-1] = Step(last.heap, last.leaving, last.line + " " + end_line, last.headline, last.drawn, last.beside)
    if learning is not None:
        line = lesson_sentence(names[seat], learning.won, [HatChange(h, b, w, a) for h, b, w, a in learning.changes],
                               rule)
        headline = f"After the game: what {names[seat]} learned (↑ added, ↓ thrown away, = kept as it was)."
        steps.append(Step(0, 0, line, headline, None, frozenset(), True))
    return Replay(game, tuple(steps), seat, before, after, flash, note)


def _turns(game):
    heap = int(game.start)
    for take in game.moves:
        yield heap, int(take)
        heap -= int(take)


class ReplayScreen(StyledOnce, Screen):
    """One recorded game, move by move."""

    DEFAULT_CSS = """
    ReplayScreen #replay { height: 1fr; }
    ReplayScreen #replay-board { width: 1fr; min-width: 36; padding: 0 1; }
    ReplayScreen #replay-title { height: auto; text-style: bold; }
    ReplayScreen #replay-step { height: 3; color: $accent; }
    ReplayScreen #replay-sticks { height: 1fr; min-height: 3; }
    ReplayScreen #replay-count { width: 1fr; height: 1; content-align: center middle; color: $text-muted; }
    ReplayScreen #replay-buttons { height: 1; align-horizontal: center; }
    ReplayScreen #replay-buttons Button { margin: 0 1 0 0; min-width: 5; }
    ReplayScreen #replay-log { height: 8; border: round $panel; }
    ReplayScreen #replay-hats { width: 42; border-left: tall $panel; }
    ReplayScreen #replay-hats-title { text-style: bold; }
    ReplayScreen #replay-note { height: auto; color: $warning; }
    ReplayScreen.-wide #replay-hats { width: 2fr; max-width: 120; }
    ReplayScreen.-wide #replay-log { height: 12; }
    """
    BINDINGS = [
        Binding("right,n", "next", "Move", key_display="←/→", id="replay.next"),
        Binding("left,p", "previous", "Previous", show=False, id="replay.previous"),
        Binding("home", "start", "Start", show=False, id="replay.start"),  # the Start and End buttons show these two
        Binding("end", "end", "End", show=False, id="replay.end"),
        Binding("e", "export", "Export", id="replay.export"),
        Binding("escape", "back", "Back", id="replay.back"),
    ]

    def __init__(self, game) -> None:
        super().__init__()
        self.record = game
        self.replay = build_replay(game, self._rule_of(game))
        self.step = 0

    def _rule_of(self, game) -> HatRule | None:
        """The rule of the brain the game taught, as stored now (None if it cannot be read)."""
        if not game.learning:
            return None
        try:
            info = self.app.session.store.brain_info(game.learning[0].brain)
        except Exception:  # noqa: BLE001 - a replay never fails for want of the rule's words
            return None
        return getattr(info, "rule", None)

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="replay"):
            with Vertical(id="replay-board"):
                yield Static("", id="replay-title")
                yield Static("", id="replay-step")
                yield SticksView(id="replay-sticks")
                yield Label("", id="replay-count")
                with Horizontal(id="replay-buttons"):
                    yield Button("Start", id="replay-start", compact=True, action="screen.start")
                    yield Button("◀ Prev", id="replay-previous", compact=True, action="screen.previous")
                    yield Button("Next ▶", id="replay-next", compact=True, variant="primary",
                                 action="screen.next")
                    yield Button("End", id="replay-end", compact=True, action="screen.end")
                yield MoveLog(id="replay-log")
            with Vertical(id="replay-hats"):
                yield Label("", id="replay-hats-title")
                yield Static("", id="replay-note")
                yield HatHeatmap(id="replay-heatmap")
        yield KeysFooter()

    def on_mount(self) -> None:
        game = self.record
        self.sub_title = f"replay of game {game.id}"
        when = game.played_at.astimezone().strftime("%Y-%m-%d %H:%M") if game.played_at else "-"
        self.query_one("#replay-title", Static).update(
            f"Game {game.id}: {' vs '.join(game.players)}, {game.start} sticks, {when}")
        replay = self.replay
        title = self.query_one("#replay-hats-title", Label)
        note = self.query_one("#replay-note", Static)
        note.update(replay.note)
        note.display = bool(replay.note)
        heatmap = self.query_one(HatHeatmap)
        heatmap.display = replay.before is not None
        if replay.learner is not None:
            title.update(f"{replay.learner}'s hats as they were")
        else:
            title.update("The learning AI's hats")
        self.query_one("#replay-next", Button).focus()
        self.show()

    # -- stepping ----------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.replay.steps) - 1

    def go(self, step: int) -> None:
        step = max(0, min(self.last, step))
        if step == self.step:
            self.app.bell()
            return
        self.step = step
        self.show()

    def action_next(self) -> None:
        self.go(self.step + 1)

    def action_previous(self) -> None:
        self.go(self.step - 1)

    def action_start(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        self.go(self.last)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import open_export, records_exports

        open_export(self, records_exports(self.app, self.record, only_game=True))

    def show(self) -> None:
        replay, step = self.replay, self.replay.steps[self.step]
        self.query_one("#replay-step", Static).update(step.headline)
        self.query_one(SticksView).show(step.heap, step.leaving)
        heap = step.heap
        self.query_one("#replay-count", Label).update(
            f"There {'is' if heap == 1 else 'are'} {heap} {sticks_word(heap)} on the board.")
        log = self.query_one(MoveLog)
        log.clear()
        for s in replay.steps[: self.step + 1]:
            log.write(s.line)
        self.query_one("#replay-previous", Button).disabled = self.step == 0
        self.query_one("#replay-start", Button).disabled = self.step == 0
        self.query_one("#replay-next", Button).disabled = self.step == self.last
        self.query_one("#replay-end", Button).disabled = self.step == self.last
        if replay.before is not None:
            start = int(self.record.start)
            data = HeatmapData(counts=replay.after if step.lesson else replay.before, hats=start,
                               max_take=replay.before.shape[1], drawn=step.drawn, beside=step.beside,
                               flash=replay.flash if step.lesson else (),
                               current=None if step.lesson or step.drawn or heap == 0 else heap)
            heatmap = self.query_one(HatHeatmap)
            heatmap.data = data
            if step.lesson:  # the changes run down the hats: start from the first
                heatmap.scroll_to(y=0, animate=False, immediate=True)
            title = self.query_one("#replay-hats-title", Label)
            when = "after the game" if step.lesson else "as they were"
            title.update(f"{replay.learner}'s hats {when}")
