"""The paper game (issue 36): a game played with the printed machine of the brain in play, typed in move by
move; the brain on screen learns the same lesson (g in the brain view, or "Paper game" in the command palette).

At the machine's turn the class types the box they took and the bead they drew ("17 red"), or "resign" when its
box is empty and its rule resigns; at the other side's turn, the move made as the game writes it ("2", "5",
"2:3"); a forced move is made by itself and said. `play.paper.PaperGame` checks each against the game and the
brain as the store keeps it: a box that is not the one for the position, a colour that box has no bead of, or a
bead it has run out of on screen is refused with the reason, and nothing changes. When the game ends it is
recorded with the machine's lesson through the store (the same lesson the same game on screen teaches), the app
plays on with the brain as stored, and the boxes the game changed are shown with the usual marks (before -> after,
↑/↓: `widgets.container_view`). Written once for every game: the board is the game's own widget, the words its
rules' and board's.

In a class (`sticks-tui serve`) only the teacher's tab types in a paper game: it teaches the class's shared brain
with a game no screen saw, from the one machine at the front of the room; a pupil's tab does not offer it.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from sticks_tui.engine import registry
from sticks_tui.ui import brains
from sticks_tui.ui.boards import BoardView, board_of
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.container_view import ContainerData, ContainerView
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.select import Select

SEATS = (("the machine moves first", 0), ("the class moves first", 1))


def open_paper_game(app, game: str, side: int = 0) -> None:
    """The paper game of `game`'s learning AI's brain for `side` (the teacher's; said to a pupil)."""
    from sticks_tui.ui.roles import is_teacher

    if not is_teacher(app):
        app.notify("Only the teacher types in a paper game: it teaches the class's brain.", title="Not for pupils",
                   severity="warning")
        return
    kept = app.keeper.learner(game, side)
    if not kept.kept or app.session.store is None:
        app.notify(f"The brain '{kept.name}' is not kept in the store this time, so a paper game cannot teach it."
                   + (f" {kept.problem}" if kept.problem else ""), title="Paper game", severity="warning", timeout=10)
        return
    app.push_screen(PaperScreen(game, side))


class PaperScreen(StyledOnce, Screen):
    """A paper game of `game`'s learning AI's brain for `side` (see the module docstring)."""

    BINDINGS = [
        Binding("ctrl+n", "new_game", "New paper game", id="paper.new_game",
                tooltip="Start the paper game again (an unfinished one is not recorded)"),
        Binding("escape", "back", "Back", id="paper.back"),
    ]
    DEFAULT_CSS = """
    PaperScreen #paper-title { height: auto; text-style: bold; padding: 0 1; }
    PaperScreen #paper-main { height: 1fr; }
    PaperScreen #paper-left { width: 1fr; height: 1fr; padding: 0 1; }
    PaperScreen.-square #paper-left { width: auto; }
    PaperScreen.-over #paper-left { display: none; }
    PaperScreen #paper-right { width: 1fr; height: 1fr; padding: 0 1; }
    PaperScreen #paper-seat { width: 40; margin: 0 0 1 0; }
    PaperScreen #paper-log { height: auto; }
    PaperScreen #paper-prompt { height: auto; padding: 0 1; text-style: bold; }
    PaperScreen #paper-input { margin: 0 1; }
    PaperScreen #paper-error { height: auto; padding: 0 1; color: $error; text-style: bold; }
    """
    AUTO_FOCUS = "#paper-input"

    def __init__(self, game: str, side: int = 0) -> None:
        super().__init__()
        self.game_kind = game  # the app's `game_in_play` reads it
        self.side = side
        self.board = board_of(game)
        self.paper = None
        self.machine_seat = 0
        self.said: list[str] = []
        self.changes: tuple = ()

    # -- the brain and the game ----------------------------------------------------------------------
    @property
    def kept(self):
        return self.app.keeper.learner(self.game_kind, self.side)

    @property
    def game_in_progress(self) -> bool:
        """A game typed in part (leaving or quitting loses it: it is recorded only when it ends)."""
        return self.paper is not None and bool(self.paper.moves) and not self.paper.over

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static("", id="paper-title")
        with Horizontal(id="paper-main"):
            with Vertical(id="paper-left"):
                yield self.board.widget(None, id="paper-board")
            with Vertical(id="paper-right"):
                yield Select(SEATS, value=0, allow_blank=False, id="paper-seat", compact=True)
                with VerticalScroll(id="paper-boxes"):
                    yield Static("", id="paper-log")
                    yield Static("", id="paper-lesson")
                    yield ContainerView(id="paper-box")
        yield Static("", id="paper-prompt")
        yield Input(id="paper-input", compact=True)
        yield Static("", id="paper-error")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.set_class(self.board.layout == "square", "-square")  # a board of fixed size: the rest beside it
        self.sub_title = f"a paper game: {registry.entry(self.game_kind).title}"
        self.new_game()

    def new_game(self) -> None:
        """A new paper game of the brain in play (its machine as the store keeps it)."""
        from sticks_tui.play.paper import PaperGame, PaperRefusal
        from sticks_tui.store import StoreError

        from sticks_tui.ui.session import setup_start

        kept = self.kept
        self.said, self.changes = [], ()
        self._clear_lesson()
        try:
            self.paper = PaperGame(self.app.session.store, kept.name, game=self.game_kind,
                                   machine_seat=self.machine_seat, start=setup_start(self.app, self.game_kind),
                                   players=("Class", f"{kept.name} on paper"))
        except (PaperRefusal, StoreError) as exc:
            self.paper = None
            self.query_one("#paper-title", Static).update(f"No paper game: {exc}")
            self.query_one("#paper-input", Input).disabled = True
            return
        seat = self.query_one("#paper-seat", Select)
        seat.display = kept.brain.seat is None  # a one-seat brain (MENACE's X) plays its own side
        box, bead = self.paper.machine.words
        from sticks_tui.learn.machine import plural

        from sticks_tui.learn.machine import rows_from

        needed = len(rows_from(kept.brain, self.paper.start))
        self.query_one("#paper-title", Static).update(
            f"A paper game of {self.paper.kind.title} from {self.paper.rules.position_text(self.paper.start)}: the "
            f"class plays the printed machine of the brain '{kept.name}' ({needed} {plural(box)}; p in the brain view "
            f"prints it) and types each move here. The brain on screen learns the same lesson.")
        self.query_one("#paper-error", Static).update("")
        self._advance()

    def _advance(self) -> None:
        """Make the machine's forced moves, then show the game and ask for the next move (or finish)."""
        game = self.paper
        while game.machine_to_move and game.machine_forced() is not None:
            before = game.position
            move = game.forced_move()
            self._said_move(before, move, f"{self._machine_name()} has one move here")
        if game.moves:  # who moves first is settled
            self.query_one("#paper-seat", Select).display = False
        if game.over:
            self._finish()
        self.show()

    def _machine_name(self) -> str:
        return self.paper.players[self.paper.seat]

    def _said_move(self, before, move, how: str = "") -> None:
        game = self.paper
        mover = 1 - game.turn  # the move is made: the turn has passed
        name = game.players[mover] + (f" ({how})" if how else "")
        self.said.append(self.board.words_of_move(game.rules, name, before, move, game.position))

    # -- drawing -----------------------------------------------------------------------------------
    def show(self) -> None:
        game = self.paper
        if game is None:
            return
        rules, position = game.rules, game.position
        brain = self.kept.brain
        box_word, bead_word = game.machine.words
        container = None
        if game.machine_to_move and not rules.is_terminal(position):
            container = brains.container_of(brain, position, tuple(rules.legal_moves(position)))
        self.query_one("#paper-board").view = BoardView(rules, position, still=True, container=container)
        # once the game is over, its result and its lesson (the moves are in the records)
        said = self.said[-1:] if game.over else self.said[-12:]
        self.query_one("#paper-log", Static).update("\n".join(said) or self.board.words_of_opening(rules, game.start))
        self.set_class(game.over, "-over")  # the result and the lesson take the whole width
        prompt = self.query_one("#paper-prompt", Static)
        box_view = self.query_one("#paper-box", ContainerView)
        if game.over:
            box_view.display = False
            prompt.update("The game is recorded. Enter (or Ctrl+N) starts another paper game; Esc goes back.")
            return
        if game.machine_to_move:
            box = game.box_now()
            box_view.display = True
            turned = " (its board is this one turned or mirrored)" if box.position != position else ""
            self._show_box(box_view, box, f"{box_word.capitalize()} {box.number}{turned}, its {bead_word}s on screen")
            prompt.update(f"{self._machine_name()}'s turn: take {box_word} {box.number}, draw a {bead_word}, and "
                          f"type its number and colour (e.g. '{box.number} {box.colours[0].name}')"
                          + (", or 'resign' if it is empty." if brain.rule.empty == "resign" else "."))
        else:
            box_view.display = False
            prompt.update(f"{game.players[game.turn]}'s move: type it as the game writes it "
                          f"(e.g. '{self._example_move()}').")

    def _example_move(self) -> str:
        import json

        game = self.paper
        move = tuple(game.rules.legal_moves(game.position))[0]
        plain = game.kind.record_move(game.rules, move)
        return plain if isinstance(plain, str) else json.dumps(plain)

    def _show_box(self, view: ContainerView, box, title: str, changes: dict | None = None, counts=None) -> None:
        """A printed box as the screen's container view: its beads by colour (the colours' moves in the title, as
        the printed key has them), with the marks."""
        game = self.paper
        moves = box.moves
        labels = [colour.name for colour in box.colours]
        key = ", ".join(f"{colour.name} = {self.board.label(game.rules, box.position, m)}"
                        for colour, m in zip(box.colours, moves, strict=True))
        title = f"{title} ({key})"
        if counts is None:
            brain = self.kept.brain
            counts = [int(brain.counts[box.row, j]) for j in range(len(moves))]
        view.data = ContainerData.of(title, moves, labels, counts, changes=changes,
                                     token=game.machine.words[1])

    def _clear_lesson(self) -> None:
        self.query_one("#paper-lesson", Static).update("")
        for view in self.query(".paper-changed"):
            view.remove()

    # -- typing ------------------------------------------------------------------------------------
    @on(Input.Submitted, "#paper-input")
    def typed(self, event: Input.Submitted) -> None:
        from sticks_tui.play.paper import PaperRefusal
        from sticks_tui.store import StoreError

        game = self.paper
        field = self.query_one("#paper-input", Input)
        text = event.value.strip()
        error = self.query_one("#paper-error", Static)
        if game is None:
            return
        if game.over:
            field.value = ""
            self.new_game()
            return
        if not text:
            return
        before = game.position
        try:
            if game.machine_to_move:
                box = game.box_now()
                move = game.typed_machine_move(text)
                if move is None:
                    self.said.append(f"{self._machine_name()} resigns: its {game.machine.words[0]} is empty.")
                else:
                    colour = text.split(" ", 1)[1].strip()
                    self._said_move(before, move, f"{game.machine.words[0]} {box.number}, {colour}")
            else:
                move = game.other_move(text)
                self._said_move(before, move)
        except PaperRefusal as exc:
            error.update(f"Refused: {exc} Nothing was changed.")
            return
        except StoreError as exc:  # the brain as stored could not be read to check the bead
            error.update(f"{exc} Nothing was changed.")
            return
        error.update("")
        field.value = ""
        self._advance()

    @on(Select.Changed, "#paper-seat")
    def _seat_changed(self, event: Select.Changed) -> None:
        if self.paper is not None and not self.paper.moves and event.value != self.machine_seat:
            self.machine_seat = int(event.value)
            self.new_game()

    # -- the end -----------------------------------------------------------------------------------
    def _finish(self) -> None:
        """Record the game with the machine's lesson (through the store), play on with the brain as stored, and
        show the boxes it changed."""
        from sticks_tui.play.paper import PaperRefusal
        from sticks_tui.store import StoreError

        game = self.paper
        loser = game.loser
        winner = None if loser is None else game.players[1 - loser]
        self.said.append(self.board.words_of_result(game.rules, game.position, winner,
                                                   None if loser is None else game.players[loser], game.resigned))
        kept = self.kept
        try:
            _, self.changes = game.finish()
            stored = self.app.session.store.load_brain(kept.name, self.game_kind)
        except (PaperRefusal, StoreError, ValueError) as exc:
            self.query_one("#paper-error", Static).update(f"The game was not recorded: {exc}")
            return
        if stored is not None:
            kept.adopt(stored.counts)
        self._show_lesson()

    def _show_lesson(self) -> None:
        game = self.paper
        box_word, bead_word = game.machine.words
        lesson = self.query_one("#paper-lesson", Static)
        if not self.changes:
            lesson.update(f"The machine drew no {bead_word}: nothing to learn.")
            return
        from sticks_tui.learn.machine import plural

        lesson.update(f"The brain '{self.kept.name}' learned it. The {plural(box_word)} this game changed "
                      f"({bead_word}s before→after; do the same to the paper {plural(box_word)}):")
        by_box: dict[int, dict] = {}
        for change in self.changes:
            move = game.machine.move_of_colour(change.colour)
            by_box.setdefault(change.box, {})[move] = (change.before, change.after)
        scroll = self.query_one("#paper-boxes", VerticalScroll)
        for number, changes in by_box.items():
            box = game.machine.box(number)
            view = ContainerView(classes="paper-changed")
            scroll.mount(view)
            self._show_box(view, box, f"{box_word.capitalize()} {number} after the game", changes)
        scroll.scroll_home(animate=False)

    # -- keys --------------------------------------------------------------------------------------
    def action_new_game(self) -> None:
        if self.game_in_progress:
            from sticks_tui.ui.screens.confirm import ConfirmDialog

            self.app.push_screen(ConfirmDialog("The paper game is not finished: start again (it is not recorded)?",
                                               yes="Start again"), lambda yes: self.new_game() if yes else None)
            return
        self.new_game()

    def action_back(self) -> None:
        if self.game_in_progress:
            from sticks_tui.ui.screens.confirm import ConfirmDialog

            self.app.push_screen(ConfirmDialog("The paper game is not finished: leave it (it is not recorded)?",
                                               yes="Leave"), lambda yes: self.app.pop_screen() if yes else None)
            return
        self.app.pop_screen()
