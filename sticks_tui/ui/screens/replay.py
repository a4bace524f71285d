"""Replay a finished game of any game move by move, on the game's own board (`ui.boards`): the move log in the
game's words, and for the learning AI its brain as it was before the game, the token it drew at each move, and at
the end what the game changed (↑ added, ↓ thrown away, = kept as it was). One screen for every game.

A game whose entry shows every hat a game reaches (`replay_every_hat`: sticks) shows the learner's whole brain as a
heatmap (`build_replay`, in the seeds' words); any other shows the container the learner drew from at each move
(`build_board_replay`), and the board draws it too where it can (noughts: the box's beads on the board).

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
from sticks_tui.learn.hats import HatRule
from sticks_tui.learn.lesson_words import lesson_sentence
from sticks_tui.ui.boards.sticks import move_sentence
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.move_log import MoveLog
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


@dataclass(frozen=True)
class BoardStep:
    """A step of a game replayed on its board: the position, the move just made (before, move), the log's line,
    a headline, the learner's container before the move it drew at this step ((position, moves, counts, move)),
    and for the lesson step each change as (position, move, before, after)."""

    position: object
    last: tuple | None
    line: str
    headline: str
    box: tuple | None = None
    lesson: tuple = ()


def _counts_for(counts, moves, rules=None, position=None) -> tuple[int, ...] | None:
    """A stored container's tokens in legal-move order: kept so (hats), or in the order of the counts learner's
    container for `position` (`Hats.hat`: one move of each set alike by a symmetry of the board, MENACE's boxes),
    a move alike to a counted one showing 0."""
    counts = tuple(int(c) for c in counts)
    if len(counts) == len(moves):
        return counts
    if rules is not None:
        from sticks_tui.learn.hats import Hats

        try:
            counted = Hats(rules).moves_of(position)
        except (ValueError, KeyError, TypeError):
            return None
        if len(counted) == len(counts):
            by_move = dict(zip(counted, counts, strict=True))
            return tuple(by_move.get(move, 0) for move in moves)
    return None


def build_board_replay(game, rule=None) -> tuple[tuple[BoardStep, ...], str, object]:
    """(the steps, what is not known about the learner's brain, the rules) of a recorded game of any game."""
    from sticks_tui.engine import registry
    from sticks_tui.ui import brains
    from sticks_tui.ui.boards import board_of

    entry, board = registry.entry(game.game), board_of(game.game)
    start = entry.parse_start(game.start)
    parsed = [entry.parse_move(m) for m in game.moves]
    rules = entry.make_rules(start, None, parsed)
    words = brains.entry_words(entry)
    first, names = game.first, game.players

    def named(seat: int) -> str:
        mark = board.side_of(first, seat)
        return names[seat] + (f" ({mark})" if mark else "")

    lessons = {lesson.seat: lesson for lesson in game.learning}
    boxes = {seat: lesson.hats_before() for seat, lesson in lessons.items()}
    pending = {seat: list(lesson.drawn) for seat, lesson in lessons.items()}
    steps = [BoardStep(start, None, f"Game {game.id}: {board.words_of_opening(rules, start)}. {named(first)} moves "
                                    "first.", f"Before the first move: {named(first)} to move.")]
    position = start
    for i, given in enumerate(parsed):
        seat = (first + i) % 2
        move = rules.decode_move(position, given)
        after = rules.apply(position, move)
        line = board.words_of_move(rules, named(seat), position, move, after)
        box = None
        draws = pending.get(seat)
        if draws and tuple(draws[0]) == (position, move):
            draws.pop(0)
            line = f"{board.words_of_draw(rules, names[seat], position, move, words)} {line}"
            moves = tuple(rules.legal_moves(position))
            stored = boxes.get(seat, {}).get(position)
            counts = _counts_for(stored, moves, rules, position) if stored is not None else None
            if counts is not None:
                box = (position, moves, counts, move)
        headline = f"Move {i + 1} of {len(parsed)}: {named(seat)} plays {board.label(rules, position, move)}."
        steps.append(BoardStep(after, (position, move), line, headline, box))
        position = after
    winner = None if game.loser is None else named(1 - game.loser)
    loser = None if game.loser is None else named(game.loser)
    end = board.words_of_result(rules, position, winner, loser, bool(game.resigned))
    if game.loser is not None:
        end += f" {game.loser_name}: You lose.  {game.winner_name}: You win!"
    last = steps[-1]
    steps[-1] = BoardStep(last.position, last.last, f"{last.line} {end}", last.headline, last.box)
    for seat, lesson in lessons.items():
        won = None if lesson.outcome == 0 else lesson.won
        changes = [HatChange(h, b, w, a) for h, b, w, a in lesson.changes]
        line = lesson_sentence(names[seat], won, changes, rule or HatRule(), detail=False) \
            if words == brains.HAT_WORDS else \
            f"{names[seat]}'s {words.tokens} after the game: " + ", ".join(
                f"{board.label(rules, c.hat, c.ball)} {c.before:,} → {c.after:,}" for c in changes) + "."
        steps.append(BoardStep(position, None, line, f"After the game: what {names[seat]} learned (↑ added, "
                               "↓ thrown away, = kept as it was).",
                               lesson=tuple((c.hat, c.ball, c.before, c.after) for c in changes)))
    if not lessons:
        note = NOTE_NO_AI if not game.ai_seats or game.opponent in ("friend",) else NOTE_OLD
    elif not any(boxes.values()):
        note = NOTE_NO_HATS
    else:
        note = ""
    return tuple(steps), note, rules


def _turns(game):
    heap = int(game.start)
    for take in game.moves:
        yield heap, int(take)
        heap -= int(take)


class ReplayScreen(StyledOnce, Screen):
    """One recorded game of any game, move by move, on its own board (see the module docstring)."""

    DEFAULT_CSS = """
    ReplayScreen #replay { height: 1fr; }
    ReplayScreen #replay-board { width: 1fr; min-width: 36; padding: 0 1; }
    ReplayScreen #replay-title { height: auto; text-style: bold; }
    ReplayScreen #replay-step { height: 3; color: $accent; }
    ReplayScreen #replay-game-board { height: 1fr; min-height: 3; }
    ReplayScreen #replay-buttons { height: 1; align-horizontal: center; }
    ReplayScreen #replay-buttons Button { margin: 0 1 0 0; min-width: 5; }
    ReplayScreen #replay-log { height: 8; border: round $panel; }
    ReplayScreen #replay-hats { width: 42; border-left: tall $panel; }
    ReplayScreen #replay-hats-title { text-style: bold; }
    ReplayScreen #replay-note { height: auto; color: $warning; }
    ReplayScreen.-wide #replay-hats { width: 2fr; max-width: 120; }
    ReplayScreen.-wide #replay-log { height: 12; }
    ReplayScreen.-square #replay-log { height: 1fr; }
    ReplayScreen.-square #replay-game-board { height: auto; }
    /* a board of fixed size at 80 columns draws the learner's box itself: no room for the panel beside it */
    ReplayScreen.-square.-narrow #replay-hats { display: none; }
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
        from sticks_tui.engine import registry
        from sticks_tui.ui.boards import board_of

        super().__init__()
        self.record = game
        self.board = board_of(game.game)
        self.every_hat = registry.entry(game.game).replay_every_hat
        rule = self._rule_of(game)
        if self.every_hat:
            self.replay = build_replay(game, rule)
            self.rules = registry.entry(game.game).make_rules(int(game.start), None, [int(m) for m in game.moves])
            self.board_steps = None
        else:
            self.replay = None
            self.board_steps, self.note, self.rules = build_board_replay(game, rule)
        self.step = 0

    def _rule_of(self, game) -> HatRule | None:
        """The rule of the brain the game taught, as stored now (None if it cannot be read)."""
        if not game.learning:
            return None
        try:
            info = self.app.session.store.brain_info(game.learning[0].brain)
        except Exception:  # noqa: BLE001 - a replay never fails for want of the rule's words
            return None
        rule = getattr(info, "rule", None)
        return rule if isinstance(rule, HatRule) else None

    @property
    def steps(self) -> tuple:
        return self.replay.steps if self.replay is not None else self.board_steps

    def compose(self) -> ComposeResult:
        from sticks_tui.ui.widgets.container_view import ContainerView

        yield AppHeader()
        with Horizontal(id="replay"):
            with Vertical(id="replay-board"):
                yield Static("", id="replay-title")
                yield Static("", id="replay-step")
                board = self.board.widget(self.rules, id="replay-game-board")
                board.can_focus = False  # a replay's board is shown, not played
                yield board
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
                heatmap = HatHeatmap(id="replay-heatmap")
                heatmap.display = self.every_hat
                yield heatmap
                container = ContainerView(id="replay-container")
                container.display = not self.every_hat
                yield container
        yield KeysFooter()

    def on_mount(self) -> None:
        from sticks_tui.engine import registry
        from sticks_tui.ui import brains

        game = self.record
        self.sub_title = f"replay of game {game.id}"
        self.set_class(self.board.layout == "square", "-square")
        when = game.played_at.astimezone().strftime("%Y-%m-%d %H:%M") if game.played_at else "-"
        start = self.steps[0]
        opening = f"{game.start} sticks" if self.every_hat else \
            f"{registry.entry(game.game).title} from {self.board.words_of_opening(self.rules, start.position)}"
        self.query_one("#replay-title", Static).update(f"Game {game.id}: {' vs '.join(game.players)}, {opening}, {when}")
        title = self.query_one("#replay-hats-title", Label)
        note = self.query_one("#replay-note", Static)
        learner = game.players[game.learning[0].seat] if game.learning else None
        if self.every_hat:
            replay = self.replay
            note.update(replay.note)
            note.display = bool(replay.note)
            self.query_one(HatHeatmap).display = replay.before is not None
            title.update(f"{replay.learner}'s hats as they were" if replay.learner is not None
                         else "The learning AI's hats")
        else:
            note.update(self.note)
            note.display = bool(self.note)
            words = brains.entry_words(registry.entry(game.game)).containers
            title.update(f"{learner}'s {words} as they were" if learner is not None else f"The learning AI's {words}")
        self.query_one("#replay-next", Button).focus()
        self.show()

    # -- stepping ----------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return len(self.steps) - 1

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
        from sticks_tui.ui.boards import BoardView, GameBoard

        step = self.steps[self.step]
        # its height is fixed (3 lines): new words need no layout of the whole screen, at every step
        self.query_one("#replay-step", Static).update(step.headline, layout=False)
        log = self.query_one(MoveLog)
        log.clear()
        for s in self.steps[: self.step + 1]:
            log.write(s.line)
        self.query_one("#replay-previous", Button).disabled = self.step == 0
        self.query_one("#replay-start", Button).disabled = self.step == 0
        self.query_one("#replay-next", Button).disabled = self.step == self.last
        self.query_one("#replay-end", Button).disabled = self.step == self.last
        board = self.query_one("#replay-game-board", GameBoard)
        if self.every_hat:
            heap = step.heap
            last = (heap + step.leaving, step.leaving) if step.leaving else None
            board.view = BoardView(self.rules, heap, last, still=True)
            self._show_heatmap(step, heap)
            return
        box = step.box
        lesson = step.lesson
        board.view = BoardView(self.rules, step.position, step.last, still=True,
                               container=box[2] if box is not None and box[0] == step.position else None,
                               changes=lesson)
        if box is not None:  # the learner drew at this move: its box before the move, the token drawn
            board.view = BoardView(self.rules, box[0], None, still=True, container=box[2], drawn=box[3])
        self._show_container(step)

    def _show_container(self, step) -> None:
        from sticks_tui.engine import registry
        from sticks_tui.ui import brains
        from sticks_tui.ui.widgets.container_view import ContainerData, ContainerView

        view = self.query_one("#replay-container", ContainerView)
        words = brains.entry_words(registry.entry(self.record.game))
        shown = step.box
        if shown is None and step.lesson:  # the lesson: the last box drawn from, each token before -> after
            boxes = [s.box for s in self.steps if s.box is not None]
            if boxes:
                position, moves, counts, _ = boxes[-1]
                changes = {m: (b, a) for p, m, b, a in step.lesson if p == position}
                view.data = ContainerData.of(f"Its {words.container} for {self.rules.position_text(position)}, after "
                                             "the game", moves, (self.board.label(self.rules, position, m) for m in moves),
                                             [changes.get(m, (c, c))[1] for m, c in zip(moves, counts, strict=True)],
                                             changes=changes, token=words.token)
                return
        if shown is None:
            view.data = ContainerData(title=f"No {words.container} drawn from at this move.")
            return
        position, moves, counts, move = shown
        view.data = ContainerData.of(f"Its {words.container} for {self.rules.position_text(position)}, as it was", moves,
                                     (self.board.label(self.rules, position, m) for m in moves), counts, drawn=move,
                                     token=words.token)

    def _show_heatmap(self, step, heap) -> None:
        replay = self.replay
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
            if title.content != (words := f"{replay.learner}'s hats {when}"):  # laid out again only when it changes
                title.update(words)
