"""The Game of Sticks' board: the heap drawn as matchsticks in groups of five (the sticks just taken
shown leaving), how many are left, the Take buttons and keys 1-3, and the game's words (seed 000's
sentences: "Jamie takes 3 sticks, there are 17 sticks remaining.")."""

from __future__ import annotations

from rich.segment import Segment
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Label

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.engine.rules import MAX_HEAP, MIN_HEAP, parse_heap, sticks_word
from sticks_tui.ui.boards import Board, BoardView, GameBoard, StartProblem
from sticks_tui.ui.widgets.inputs import Input

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


LEAVE_SECONDS = 0.7  # the sticks just taken show leaving this long
INTRO = "Take 1, 2 or 3 sticks in turn; whoever takes the last stick loses."


class SticksBoard(GameBoard):
    """The heap, how many sticks are left, and Take 1-3 (keys or buttons) while a person is to move."""

    DEFAULT_CSS = """
    SticksBoard { height: 1fr; layout: vertical; }
    SticksBoard #sticks { height: 1fr; min-height: 4; }
    SticksBoard #count { width: 1fr; height: 1; content-align: center middle; color: $text-muted; }
    SticksBoard #moves { height: auto; align-horizontal: center; }
    SticksBoard #moves Button { margin: 0 1; min-width: 10; }
    """
    BINDINGS = [
        Binding("1", "take(1)", "Take", key_display="1-3", id="game.take1", tooltip="Take 1 stick"),
        Binding("2", "take(2)", "Take 2", show=False, id="game.take2", tooltip="Take 2 sticks"),
        Binding("3", "take(3)", "Take 3", show=False, id="game.take3", tooltip="Take 3 sticks"),
    ]

    def compose(self) -> ComposeResult:
        yield SticksView(id="sticks")
        yield Label("", id="count")
        with Horizontal(id="moves"):
            for n in range(1, (self.rules.max_take if self.rules is not None else 3) + 1):
                button = Button(f"Take {n}", id=f"take-{n}", classes="take")
                button.can_focus = False  # the keys stay with the board
                yield button

    def prompt(self) -> str:
        top = self.view.legal_moves[-1]
        choices = "1" if top == 1 else ", ".join(map(str, range(1, top))) + f" or {top}"
        return f"take {choices} (keys or buttons)."

    def watch_view(self, view: BoardView) -> None:
        if not self.is_mounted or view.position is None:
            return
        heap = view.position
        sticks = self.query_one(SticksView)
        if view.last is not None:
            sticks.show(heap, view.last[1])
            if not view.still:
                self.set_timer(LEAVE_SECONDS, lambda: sticks.show(sticks.heap, 0))
        elif view.still:
            sticks.show(heap)
        elif sticks.heap != heap:  # a new game (the same heap again: the sticks just taken go on leaving)
            sticks.show(heap)
        # fixed-size lines: new text needs no layout of the whole screen (that cost ~25 ms a move)
        # the seeds never say "There are 0 sticks on the board.": the game is over, and the turn line says so
        self.query_one("#count", Label).update(
            "" if heap == 0 else f"There {'is' if heap == 1 else 'are'} {heap} {sticks_word(heap)} on the board.",
            layout=False)
        self.query_one("#moves").display = view.controls
        for button in self.query(".take").results(Button):
            button.disabled = not (view.playable and view.is_legal(int(button.id.removeprefix("take-"))))

    @on(Button.Pressed, ".take")
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_take(int(event.button.id.removeprefix("take-")))

    def action_take(self, n: int) -> None:
        self.pick(n)


def move_sentence(name: str, take: int, before: int, after: int) -> str:
    """The seeds' words: "Jamie takes 3 sticks, there are 17 sticks remaining." """
    if after == 0:
        if take == 1:
            return f"{name} has to take the final stick and loses."
        return f"{name} takes the last {take} sticks and loses."
    remaining = "there is 1 stick remaining" if after == 1 else f"there are {after} sticks remaining"
    return f"{name} takes {take} {sticks_word(take)}, {remaining}."


def _result(rules, position, winner, loser, resigned) -> str:
    return f"{loser} took the last stick and loses. {winner} wins!"


#: Said on the setup screen while the AI's hats still hold only the seeds' 1 ball of each number: why its first
#: losses show no change, and the key (the setup screen's) that gives it MENACE-like hats instead.
SEEDS_WARNING = ("A new AI's losses change nothing (=) until it first wins: each hat starts with one ball of each "
                 "number and never loses the last. Press [@click=screen.menace_hats]F8[/] for MENACE-like hats "
                 "(3 balls each), where every loss shows.")


def losses_hidden(brain) -> bool:
    """Whether the brain's losses can change none of its hats yet: every hat still holds just 1 ball of each
    number, and a loss never takes a number's last ball (the seeds' rule, fresh or never yet won)."""
    rule = brain.rule
    if rule.loss_penalty == 0 or rule.floor != "each" or rule.start_balls != 1:
        return False
    return bool((brain.counts[brain.legal_mask] <= 1).all())


def _intro(app) -> str:
    from sticks_tui.learn.lesson_words import losses_note

    brain = app.session.brain
    if losses_hidden(brain):
        return f"{INTRO} {SEEDS_WARNING}"
    seeds_like = brain.rule.floor == "each" and brain.rule.start_balls == 1  # grown since: the note is not its
    note = "" if seeds_like else losses_note(brain.rule)
    return INTRO + (" " + note if note else "")


def _setup_row() -> Widget:
    row = Horizontal(Label(f"Sticks ({MIN_HEAP}-{MAX_HEAP})", classes="field"),
                     Input(str(20), id="heap", compact=True, type="text", max_length=6),
                     classes="row heap-row", id="heap-row")
    return row


def _load(row, start) -> None:
    row.query_one("#heap", Input).value = str(start)


def _read(row, opponent) -> int:
    try:
        return parse_heap(row.query_one("#heap", Input).value, MIN_HEAP, MAX_HEAP)
    except ValueError as exc:
        raise StartProblem(str(exc), "#heap") from None


def _help() -> tuple[tuple[str, str], ...]:
    max_take = 3
    losing = ", ".join(str(1 + i * (max_take + 1)) for i in range(4))
    return (("The Game of Sticks: the winning rule",
             f"Whoever takes the last stick loses. You lose if you face {losing}, ... sticks (n mod "
             f"{max_take + 1} = 1) and the other player plays well: whatever you take, they can take the rest "
             f"of {max_take + 1} and hand the same kind of heap back to you.\n"
             "From any other heap, take just enough to leave one of those heaps. A trained AI finds this rule "
             "by itself: its hats for the other heaps fill with the winning ball, while the hats for the losing "
             "heaps stay mixed (every move there loses)."),)


registry.set_board("sticks", board=Board(
    widget=SticksBoard, intro=_intro, setup_row=_setup_row, load=_load, read=_read, default_start=20,
    brain_choices=True,
    move_line=lambda rules, name, before, move, after: move_sentence(name, move, before, after),
    opening=lambda rules, start: f"{start} {sticks_word(start)} on the board", result_line=_result,
    move_label=lambda position, move: f"take {move}", help=_help(),
    draw_line=lambda name, position, move, words: f"{name} draws {words.token} {move} from {words.container} {position}.",
    setup_lab_size=lambda settings: settings.of("sticks").start or 20,
))
