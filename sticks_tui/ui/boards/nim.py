"""Three-pile Nim's board (seed 004): three piles of coins side by side, the chosen pile and the coins
about to be taken standing out; ←/→ (or a click) chooses the pile, ↑/↓ the coins, Enter takes them.
u shows the table U(n, d, q) for the quarters in play instead of the piles ([ and ] step q).
And the game's words: "Ann takes 2 dimes: 3 nickels, 2 dimes, 5 quarters left."
"""

from __future__ import annotations

from rich.segment import Segment
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.engine.nim import coins_word, piles_text
from sticks_tui.engine.rules import parse_heap
from sticks_tui.ui.boards import Board, BoardView, GameBoard, StartProblem
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.nim_table import NimTableView

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


INTRO = ("Three-pile Nim: take one or more coins from one pile in turn; whoever takes the last "
         "coin wins.")


class NimBoard(GameBoard):
    """The piles, and the pile and coins a person is about to take (or the table U(n, d, q), u)."""

    DEFAULT_CSS = """
    NimBoard { height: 1fr; layout: vertical; }
    NimBoard #piles { height: 1fr; min-height: 3; }
    NimBoard #nim-controls { height: 1; align-horizontal: center; }
    NimBoard #nim-controls Button { margin: 0 1; min-width: 5; }
    NimBoard #nim-move { text-style: bold; }
    NimBoard #nim-table, NimBoard #nim-table-caption { display: none; }
    NimBoard #nim-table-caption { height: auto; color: $text-muted; }
    NimBoard.-table #nim-table { display: block; height: 1fr; }
    NimBoard.-table #nim-table-caption { display: block; }
    NimBoard.-table #piles { display: none; }
    """
    BINDINGS = [
        # one footer label for the four arrows: the footer stays whole at 80 columns with the screen's keys
        Binding("left", "pile(-1)", "Choose", key_display="←→↑↓", id="nim.previous_pile"),
        Binding("right", "pile(1)", "Next pile", show=False, id="nim.next_pile"),
        Binding("up", "coins(1)", "More coins", show=False, id="nim.more_coins"),
        Binding("down", "coins(-1)", "Fewer coins", show=False, id="nim.fewer_coins"),
        Binding("enter", "take", "Take", id="nim.take"),
        Binding("u", "table", "U table", show=False, id="nim.table",
                tooltip="The table U(n, d, q) for the quarters in play, or the piles again"),
        Binding("right_square_bracket", "q(1)", "More quarters", show=False, id="nim_table.more_quarters"),
        Binding("left_square_bracket", "q(-1)", "Fewer quarters", show=False, id="nim_table.fewer_quarters"),
    ]

    def __init__(self, rules=None, **kwargs) -> None:
        super().__init__(rules, **kwargs)
        self.chosen = 0
        self.coins = 1

    def compose(self) -> ComposeResult:
        yield NimPilesView(id="piles")
        yield Static("", id="nim-table-caption")
        yield NimTableView(id="nim-table")
        with Horizontal(id="nim-controls"):
            for button in (Button("-", id="fewer", compact=True), Label("", id="nim-move"),
                           Button("+", id="more", compact=True),
                           Button("Take", id="nim-take", variant="primary", compact=True)):
                button.can_focus = False  # the keys stay with the board
                yield button

    def prompt(self) -> str:
        return "pick a pile (←/→ or click) and coins (↑/↓), then Enter."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "table":
            return True
        if action == "q":
            return self.has_class("-table")
        return super().check_action(action, parameters)

    def watch_view(self, view: BoardView) -> None:
        if not self.is_mounted or view.position is None:
            return
        piles = tuple(view.position)
        if any(piles) and piles[self.chosen] == 0:
            self.chosen = next(i for i, p in enumerate(piles) if p)
        self.coins = max(1, min(self.coins, piles[self.chosen] or 1))
        self._show()

    def _show(self) -> None:
        view = self.view
        piles = tuple(view.position)
        shown = self.query_one(NimPilesView)
        shown.piles = piles
        shown.chosen = self.chosen
        shown.taking = self.coins if view.playable else 0
        self.query_one("#nim-controls").display = view.controls
        self.query_one("#nim-move", Label).update(f" take {coins_word(self.chosen, self.coins)} "
                                                  if view.playable else "")
        for wid in ("#fewer", "#more", "#nim-take"):
            self.query_one(wid, Button).disabled = not view.playable
        if self.has_class("-table"):
            self._show_table(piles[2])

    def _show_table(self, q: int) -> None:
        q = max(0, min(100, q))
        table = self.query_one(NimTableView)
        table.q = q
        table.here = tuple(self.view.position)
        self.query_one("#nim-table-caption", Static).update(
            f"U(n, d, {q}): rows are nickels n, columns dimes d. L = lost for the player to move (U = 0); "
            f"· = won. The L's lie exactly where n xor d = {q}. [ ] change q; u: the piles.")

    # -- actions -------------------------------------------------------------------------------------
    def action_pile(self, step: int) -> None:
        piles = tuple(self.view.position)
        for k in range(1, 4):
            candidate = (self.chosen + step * k) % 3
            if piles[candidate]:
                self.chosen = candidate
                break
        self._show()

    def action_coins(self, step: int) -> None:
        self.coins = max(1, min(tuple(self.view.position)[self.chosen], self.coins + step))
        self._show()

    def action_take(self) -> None:
        move = (self.chosen, self.coins)
        self.coins = 1
        self.pick(move)

    def action_table(self) -> None:
        self.toggle_class("-table")
        if self.has_class("-table"):
            self._show_table(tuple(self.view.position)[2])

    def action_q(self, step: int) -> None:
        self._show_table(self.query_one(NimTableView).q + step)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "nim-take":
            self.action_take()
        else:
            self.action_coins(1 if event.button.id == "more" else -1)

    @on(NimPilesView.PileClicked)
    def _clicked(self, event: NimPilesView.PileClicked) -> None:
        event.stop()
        if self.view.playable and tuple(self.view.position)[event.pile]:
            self.chosen = event.pile
            self._show()


def _move_line(rules, name: str, before, move, after) -> str:
    pile, coins = move
    if sum(after) == 0:
        return f"{name} takes {coins_word(pile, coins)}, the last coins, and wins."
    return f"{name} takes {coins_word(pile, coins)}: {piles_text(after)} left."


def _result(rules, position, winner, loser, resigned) -> str:
    return f"{winner} took the last coin and wins. {loser} loses."


def _hint(position) -> str:
    from sticks_tui.solve.nim import is_winning

    if is_winning(*position):
        return f"U{tuple(position)} = 1: the player to move can force a win. (u: the table)"
    return (f"U{tuple(position)} = 0: every move leaves a winning position for the other player "
            "(n xor d xor q = 0). Take little and hope for a mistake. (u: the table)")


def _setup_row() -> Widget:
    return Horizontal(Label(f"Piles ({vocabulary.PILE_RANGE[0]}-{vocabulary.PILE_RANGE[1]})", classes="field"),
                      *(Input(str(n), id=f"pile-{i}", compact=True, max_length=4, classes="pile")
                        for i, n in enumerate((3, 4, 5))),
                      Label("nickels, dimes, quarters", classes="muted"), classes="row heap-row", id="piles-row")


def _load(row, start) -> None:
    for i, n in enumerate(start):
        row.query_one(f"#pile-{i}", Input).value = str(n)


def _read(row, opponent) -> tuple[int, int, int]:
    low, high = vocabulary.PILE_RANGE
    values = []
    for i in range(3):
        try:
            values.append(parse_heap(row.query_one(f"#pile-{i}", Input).value, low, high))
        except ValueError:
            raise StartProblem(f"Please enter piles of {low} to {high} coins.", f"#pile-{i}") from None
    piles = tuple(values)
    if opponent == "learning" and any(p > b for p, b in zip(piles, vocabulary.NIM_LEARNER_BOX, strict=True)):
        raise StartProblem("The learning AI for Nim knows piles of up to 7 coins each.")
    return piles


registry.set_board("nim", board=Board(
    widget=NimBoard, intro=lambda app: INTRO, setup_row=_setup_row, load=_load, read=_read, default_start=(3, 4, 5),
    move_line=_move_line, result_line=_result, hint=_hint,
    opening=lambda rules, start: f"{piles_text(start)}. Whoever takes the last coin wins",
    move_label=lambda position, move: coins_word(*move),
    setup_lab_size=lambda settings: max(settings.of("nim").start or (3, 4, 5)),
    help=(("Three-pile Nim",
           "Whoever takes the last coin wins. The Nim learner keeps one hat per position (nickels, dimes, "
           "quarters) with one ball per legal move, and learns the same way. A position is lost for the player "
           "to move when n xor d xor q = 0. On the board: ←/→ or a click chooses the pile, ↑/↓ the coins, "
           "Enter takes them; u shows the table U(n, d, q) for the quarters in play ([ and ] step q)."),),
))
