"""Noughts and crosses with Donald Michie's MENACE (issue 18): the game, MENACE's matchbox for the
board in play, its learning, its training, every box, and help in plain words.

`NoughtsScreen` plays one game at a time: a person against a friend, the random AI, the perfect AI or
MENACE, or (watch) MENACE against MENACE, the perfect AI or the random AI. Squares are chosen with the
mouse, the arrow keys and Enter, or the keys 1-9 laid out like a phone's (1 2 3 is the top row).
`NoughtsTrainDialog` asks for a training run and MENACE's rule as options; `NoughtsBoxesScreen` shows
all 304 boxes; `MenaceHelpScreen` explains MENACE.

MENACE's brains live in the app's `NoughtsKeeper` (ui/noughts_keeper.py), which keeps them in the store
between sessions.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, Select, Static

from sticks_tui import vocabulary
from sticks_tui.engine import registry
from sticks_tui.engine.noughts import EMPTY_BOARD, SQUARE_NAMES, NoughtsError, NoughtsState, has_line, to_move
from sticks_tui.learn import menace
from sticks_tui.learn.control import BALL_BY_BALL, PACES, pace_words
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.noughts_keeper import NoughtsKeeper, keeper_of
from sticks_tui.ui.screens.help import HelpScreen, keys_of, screen_title
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import CurveSeries, LearningCurve
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.heatmap import MARK_DOWN, MARK_DRAWN, MARK_PERFECT, MARK_UP
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.noughts_board import NoughtsBoard, NoughtsBoardData
from sticks_tui.ui.widgets.noughts_boxes import BeadChart, boxes_grid
from sticks_tui.ui.widgets.training_badge import games_words

NOUGHTS_TRAINING = "noughts"  # the purpose of MENACE's training run
#: Who plays: (X's kind, O's kind) for each opponent choice, when "you" (or MENACE, watching) play X.
OPPONENTS: dict[str, str] = {
    "menace": "MENACE (it learns)",
    "perfect": "the perfect AI (h: its best squares)",
    "random": "the random AI",
    "friend": "a friend (same keyboard)",
    "watch-menace": "watch MENACE vs MENACE",
    "watch-perfect": "watch MENACE vs the perfect AI",
    "watch-random": "watch MENACE vs the random AI",
}
AI_WORDS = {"random": "the random AI", "perfect": "the perfect AI", "menace": "MENACE", "human": "you"}
#: An AI's move is shown after a beat, MENACE's in two (its box, then the bead drawn). A beat follows the
#: AI speed (the setup screen's, or -/+ on the sticks game screen; kept in the settings), scaled so that
#: at the default speed ("normal") it is MOVE_SECONDS, the pace this screen always had: slow 2 s, fast
#: 1/3 s, instant at once.
MOVE_SECONDS = 1.0


def beat_seconds(speed: str) -> float:
    """Seconds a beat of an AI's move at the AI speed `speed` (an unknown one: the default's)."""
    return MOVE_SECONDS * vocabulary.SPEEDS.get(speed, vocabulary.SPEEDS[vocabulary.DEFAULT_SPEED]) \
        / vocabulary.SPEEDS[vocabulary.DEFAULT_SPEED]


TRAIN_PACES = tuple(p for p in PACES if p != BALL_BY_BALL)  # a game at a time at most; no ball by ball here


def seat_kinds(opponent: str, x_first: bool) -> dict[str, str]:
    """Who plays X and O ('human', 'random', 'perfect', 'menace') for an opponent choice; `x_first`:
    you (or, watching, MENACE) play X."""
    if opponent == "friend":
        return {"X": "human", "O": "human"}
    if opponent.startswith("watch-"):
        other = opponent.removeprefix("watch-")
        return {"X": "menace", "O": other} if x_first else {"X": other, "O": "menace"}
    return {"X": "human", "O": opponent} if x_first else {"X": opponent, "O": "human"}


def player_name(kinds: dict[str, str], mark: str) -> str:
    kind = kinds[mark]
    if kind == "human":
        if kinds["X"] == kinds["O"]:
            return f"Player {1 if mark == 'X' else 2}"
        return "You"
    if kind == "menace":
        both = kinds["X"] == kinds["O"]
        return f"MENACE {mark}" if both else "MENACE"
    return AI_WORDS[kind][0].upper() + AI_WORDS[kind][1:]


def change_words(changes) -> list[str]:
    """What each bead MENACE drew learned, one line a bead: 'MENACE X, move 1, square 5 (centre): 4 → 7 ↑'."""
    lines = []
    for n, c in enumerate(changes, start=1):
        arrow = MARK_UP if c.after > c.before else MARK_DOWN if c.after < c.before else "="
        lines.append(f"{c.marks}'s bead {n}: square {c.square} ({SQUARE_NAMES[c.square - 1]}) "
                     f"{c.before:,} → {c.after:,} {arrow}")
    return lines


@dataclass(frozen=True)
class TrainRequest:
    games: int
    pace: float | None
    opponent: str
    rule: menace.MenaceRule
    reset: bool


class NoughtsScreen(StyledOnce, Screen):
    """The board, MENACE's box for it, the results and MENACE's learning. See the module docstring."""

    BINDINGS = [
        Binding("1", "square(1)", "Square (1 2 3 = top row)", key_display="1-9", id="noughts.square",
                tooltip="Mark square 1 (the keys 1-9 are laid out like a phone's: 1 2 3 is the top row)"),
        *[Binding(str(n), f"square({n})", f"Square {n}", show=False, id=f"noughts.square{n}",
                  tooltip=f"Mark square {n} ({SQUARE_NAMES[n - 1]})") for n in range(2, 10)],
        Binding("left", "cursor(-1)", "Cursor", show=False, id="noughts.left", tooltip="Cursor (◆) left"),
        Binding("right", "cursor(1)", "Cursor", show=False, id="noughts.right", tooltip="Cursor (◆) right"),
        Binding("up", "cursor(-3)", "Cursor", show=False, id="noughts.up", tooltip="Cursor (◆) up"),
        Binding("down", "cursor(3)", "Cursor", show=False, id="noughts.down", tooltip="Cursor (◆) down"),
        Binding("enter", "mark", "Mark", show=False, id="noughts.mark",
                tooltip="Mark the square the cursor (◆) is on; after a game, the next game"),
        Binding("h", "hint", "Hint", id="noughts.hint", tooltip="Show or hide the best squares (✓, exact minimax)"),
        Binding("n", "new_game", "New", show=False, id="noughts.new_game",
                tooltip="A new game (from one not finished MENACE learns nothing)"),
        Binding("b", "boxes", "Boxes", id="noughts.boxes", tooltip="All of MENACE's matchboxes, by move number"),
        Binding("f2,t", "train", "Train", key_display="t", id="noughts.train",
                tooltip="Train MENACE: games in the background, its rule as options"),
        Binding("v", "learning", "Curve", id="noughts.learning",
                tooltip="MENACE's learning (curve, first box) or the game (80 columns)"),
        Binding("space", "toggle_pause", "Pause", id="noughts.toggle_pause", tooltip="Pause or resume training"),
        Binding("s", "step", "Step", id="noughts.step", tooltip="Training: one game, told, then pause"),
        Binding("plus,equals_sign", "pace(1)", "Pace", key_display="+/-", id="noughts.faster",
                tooltip="Training faster (to full speed)"),
        Binding("minus", "pace(-1)", "Slower", show=False, id="noughts.slower", tooltip="Training slower"),
        Binding("c", "cancel_training", "Stop", id="noughts.cancel_training",
                tooltip="Stop training (MENACE keeps what it learned)"),
        Binding("f1,question_mark", "menace_help", "Help", key_display="F1", id="noughts.help",
                tooltip="Help: MENACE in plain words, and these keys"),
        Binding("escape", "back", "Back", id="noughts.back", tooltip="Back to the setup screen"),
    ]
    COMMANDS = {screen_commands(
        ("Train MENACE", "Games in the background; start beads, incentives and the empty box as options", "train"),
        ("MENACE's matchboxes", "All 304 boxes with their beads, by move number", "boxes"),
        ("Hint: the best squares", "Show or hide the squares exact minimax calls best", "hint"),
        ("New noughts game", "Start a new game of noughts and crosses", "new_game"),
        ("MENACE's learning", "The curve of wins, draws and losses and the first box's beads", "learning"),
    )}
    AUTO_FOCUS = "#noughts-board"  # the keys go to the board (Tab reaches the choices of who plays)
    DEFAULT_CSS = """
    NoughtsScreen #noughts { height: 1fr; }
    NoughtsScreen #noughts-board { margin: 0 1 0 0; }
    NoughtsScreen #noughts-side { width: 1fr; height: 1fr; }
    NoughtsScreen #noughts-turn { height: auto; min-height: 2; text-style: bold; color: $accent; }
    NoughtsScreen .row { height: 1; }
    NoughtsScreen .row .field { width: 10; text-style: bold; }
    NoughtsScreen .row Select { width: 1fr; }
    NoughtsScreen #noughts-tally { height: auto; margin-top: 1; }
    NoughtsScreen #noughts-log { height: 1fr; min-height: 3; border: none; }
    NoughtsScreen #noughts-note { height: auto; color: $text-muted; }
    NoughtsScreen #noughts-learning { display: none; width: 1fr; height: 1fr; }
    NoughtsScreen #noughts-training { height: auto; }
    NoughtsScreen #noughts-rule { height: auto; color: $text-muted; display: none; }
    NoughtsScreen.-wide #noughts-rule { display: block; }
    NoughtsScreen #noughts-curve { height: 1fr; min-height: 6; }
    NoughtsScreen #noughts-beads { height: 7; }
    NoughtsScreen.-learning #noughts-learning { display: block; }
    NoughtsScreen.-learning.-narrow #noughts-side { display: none; }
    NoughtsScreen.-wide #noughts-learning { display: block; margin-left: 2; }
    NoughtsScreen.-wide #noughts-side { width: 44; }
    NoughtsScreen.-wide #noughts-beads { height: 12; }
    """

    def __init__(self, opponent: str = "menace", x_first: bool = False,
                 names: tuple[str, str] = ("Player 1", "Player 2")) -> None:
        super().__init__()
        self.opponent = opponent if opponent in OPPONENTS else "menace"
        self.x_first = x_first  # you (watching: MENACE) play X
        self.names = names  # the people's names for the records (Player 1's, and Player 2's with a friend)
        self.state = NoughtsState()
        self.cursor = 5
        self.hint = False
        # MENACE's beads this game: (mark, row, col, square, board)
        self.drawn: list[tuple[str, int, int, int, str]] = []
        self.shown_box: tuple[str, int | None] | None = None  # (board, drawn square): the box shown now
        self.changes = []
        self.over_text = ""
        self.resigned: str | None = None
        self._timer = None
        self._job = None
        self._told = None  # the last training game told (MenaceStory)
        self._train_opponent = None  # the last training run's opponent ('menace': O's brain learned too)

    @property
    def keeper(self) -> NoughtsKeeper:
        return keeper_of(self.app)

    @property
    def kinds(self) -> dict[str, str]:
        return seat_kinds(self.opponent, self.x_first)

    @property
    def training(self) -> bool:
        return self._job is not None and self._job.running

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="noughts"):
            yield NoughtsBoard(id="noughts-board")
            with Vertical(id="noughts-side"):
                yield Static("", id="noughts-turn")
                with Horizontal(classes="row"):
                    yield Label("Opponent", classes="field")
                    yield Select([(label, key) for key, label in OPPONENTS.items()], value=self.opponent,
                                 allow_blank=False, id="noughts-opponent", compact=True)
                with Horizontal(classes="row"):
                    yield Label("X (first)", classes="field")
                    yield Select(self._x_options(), value="first" if self.x_first else "second",
                                 allow_blank=False, id="noughts-x", compact=True)
                yield Static("", id="noughts-tally")
                yield MoveLog(id="noughts-log")
                yield Static(self.keeper.saved_text(), id="noughts-note")
            with Vertical(id="noughts-learning"):
                yield Static("", id="noughts-training")
                yield Static("", id="noughts-rule")
                yield LearningCurve(id="noughts-curve", empty_text="no games yet: play, or press t to train")
                yield BeadChart(id="noughts-beads")
        yield KeysFooter()

    def _x_options(self) -> list[tuple[str, str]]:
        if self.opponent == "friend":
            return [("Player 1", "first"), ("Player 2", "second")]
        if self.opponent == "watch-menace":
            return [("MENACE X (O: a second brain)", "first")]
        if self.opponent.startswith("watch-"):
            other = AI_WORDS[self.opponent.removeprefix("watch-")]
            return [("MENACE", "first"), (f"{other} (MENACE: O's brain)", "second")]
        ai = AI_WORDS[self.opponent]
        if self.opponent == "menace":
            return [("you (MENACE: O's brain, a second one)", "first"), ("MENACE (X's brain)", "second")]
        return [("you", "first"), (ai, "second")]

    def on_mount(self) -> None:
        self.sub_title = "noughts and crosses with MENACE"
        self.query_one(NoughtsBoard).can_focus = True
        self.query_one("#noughts-log", MoveLog).can_focus = False
        self._show_learning()
        self.new_game()
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def _class_changed(self, change) -> None:
        """A classmate's game (or run) taught the class's MENACE: its boxes as stored now (the keeper took
        them), and in the log whose game it was and which beads it changed."""
        if change is None:
            return
        from sticks_tui.ui.live import other_brain_words

        for mark in ("X", "O"):
            name = vocabulary.NOUGHTS_BRAINS[mark]
            if change.changes_of(name):
                self.query_one("#noughts-log", MoveLog).write(other_brain_words(
                    change, name, lambda board, square: f"box {board} square {square}",
                    f"the class's MENACE ({mark}) changed") + ".")
        self.show()

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)

    # -- choosing who plays ---------------------------------------------------------------------------
    @on(Select.Changed, "#noughts-opponent")
    def _opponent_chosen(self, event: Select.Changed) -> None:
        if event.value == self.opponent:
            return
        self.opponent = event.value
        options = self._x_options()
        select = self.query_one("#noughts-x", Select)
        with self.prevent(Select.Changed):
            select.set_options(options)
            if self.opponent == "watch-menace":
                self.x_first = True
            select.value = "first" if self.x_first else "second"
        self.query_one(NoughtsBoard).focus()
        self._remember()
        self.new_game()

    def _remember(self) -> None:
        """The opponent and who plays X, remembered as the setup screen's (watching is this screen's own)."""
        if self.opponent in registry.entry(vocabulary.NOUGHTS_GAME).opponents:
            self.app.remember(opponent=self.opponent, first="p1" if self.x_first else "p2")

    @on(Select.Changed, "#noughts-x")
    def _x_chosen(self, event: Select.Changed) -> None:
        x_first = event.value == "first"
        self.query_one(NoughtsBoard).focus()
        if x_first != self.x_first:
            self.x_first = x_first
            self._remember()
            self.new_game()

    # -- the game ---------------------------------------------------------------------------------
    def new_game(self) -> None:
        self._stop_timer()
        self.state = NoughtsState()
        self.drawn = []
        self.changes = []
        self.over_text = ""
        self.resigned = None
        self.shown_box = None
        self._told = None
        kinds = self.kinds
        self.query_one("#noughts-log", MoveLog).write(
            f"New game: {player_name(kinds, 'X')} X, {player_name(kinds, 'O')} O. X moves first.")
        self.advance()

    @property
    def over(self) -> bool:
        return self.state.is_over or self.resigned is not None

    @property
    def human_to_move(self) -> bool:
        return not self.over and not self.training and self.kinds[self.state.to_move] == "human"

    def advance(self) -> None:
        """Show the board; if an AI is to move, let it (after a beat, so a person sees it)."""
        self.show()
        if self.over or self.training or self.human_to_move:
            return
        if self.kinds[self.state.to_move] == "menace":
            self.shown_box = (self.state.board, None)  # first its box, then the bead it draws
            self.show()
        self._later(self._ai_move)

    def _later(self, then) -> None:
        self._stop_timer()
        delay = self.app.session.ai_delay(beat_seconds(self.app.settings.ai_speed))
        if delay > 0:
            self._timer = self.set_timer(delay, then)
        else:
            self.call_after_refresh(then)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _ai_move(self) -> None:
        self._timer = None
        if self.over or self.training or self.human_to_move or not self.is_attached:
            return
        board, mark = self.state.board, self.state.to_move
        kind = self.kinds[mark]
        square, bead = self.keeper.choose(kind, board)
        if square == menace.RESIGN:
            self.resigned = mark
            self._finish()
            return
        if bead is not None:
            self.drawn.append((mark, bead[0], bead[1], square, board))
            self.shown_box = (board, square)
            self.show()
            self._later(lambda: self._place(square, drew=True))
            return
        self._place(square)

    def _place(self, square: int, drew: bool = False) -> None:
        self._timer = None
        if self.over or self.training:
            return
        mark = self.state.to_move
        name = player_name(self.kinds, mark)
        self.state = self.state.play(square, mark)
        bead = ""
        if drew and self.shown_box is not None:
            beads = self.keeper.brain_for(mark).square_beads(self.shown_box[0]) or ()
            box = ", ".join(f"{sq}: {n}" for sq, n in enumerate(beads, start=1) if n)
            total = sum(beads)
            bead = f", the bead it drew from its box of {total:,} bead{'' if total == 1 else 's'} (by square {box})"
        self.shown_box = None
        self.query_one("#noughts-log", MoveLog).write(f"{name} ({mark}): square {square} "
                                                       f"({SQUARE_NAMES[square - 1]}){bead}.")
        if self.state.is_over:
            self._finish()
            return
        self.advance()

    def _finish(self) -> None:
        """The game is over: who won, MENACE learns, the tally and the curve."""
        kinds = self.kinds
        if self.resigned is not None:
            result = menace.LOSS if self.resigned == "X" else menace.WIN
            loser = player_name(kinds, self.resigned)
            self.over_text = f"{loser} resigns: its box for this board is empty."
        elif has_line(self.state.board, "X") or has_line(self.state.board, "O"):
            mark = "X" if has_line(self.state.board, "X") else "O"
            result = menace.WIN if mark == "X" else menace.LOSS
            winner = player_name(kinds, mark)
            self.over_text = f"{winner} win{'' if winner == 'You' else 's'}: three {mark}s in a row."
        else:
            result = menace.DRAW
            self.over_text = "A draw: the board is full and nobody has three in a row."
        self.changes = self.keeper.learn(self.drawn, result, kinds)
        log = self.query_one("#noughts-log", MoveLog)
        log.write(self.over_text)
        if self.changes:
            rule = self.keeper.rule
            for mark in ("X", "O"):
                mine = [c for c in self.changes if c.marks == mark]
                if not mine:
                    continue
                outcome = result if mark == "X" else -result
                delta = rule.change(outcome)
                word = {1: "won", 0: "drew", -1: "lost"}[outcome]
                log.write(f"MENACE ({mark}) {word}: each bead it drew gets {delta:+d}.")
                for line in change_words(mine):
                    log.write("  " + line)
        self.shown_box = None
        self._record(result)
        self.query_one("#noughts-note", Static).update(self.keeper.saved_text())
        self._show_learning()
        self.show()

    def record_fields(self, result: int) -> dict | None:
        """What `Store.record_game` keeps of this finished game (X's `result`); a resignation is kept as
        one (the loser resigned at its turn: its moves stop before the board is finished)."""
        kinds, entry = self.kinds, registry.entry(vocabulary.NOUGHTS_GAME)
        x_seat = 0 if self.x_first else 1  # seat 0: Player 1 (you), or MENACE watching
        marks = ("X", "O") if x_seat == 0 else ("O", "X")
        names = []
        for seat, mark in enumerate(marks):
            kind = kinds[mark]
            if kind == "human":
                names.append(self.names[seat])
            elif kind == "menace" and mark == "O" and kinds["X"] == "menace":
                names.append(entry.ai_names["menace-o"])
            else:
                names.append(entry.ai_names[kind])
        loser = None if result == menace.DRAW else (1 - x_seat if result == menace.WIN else x_seat)
        menace_marks = [m for m in ("X", "O") if kinds[m] == "menace"]
        return dict(game=vocabulary.NOUGHTS_GAME, start=EMPTY_BOARD,
                    opponent=self.opponent, players=tuple(names), moves=list(self.state.history), loser=loser,
                    first=x_seat, ai_seats=[s for s, m in enumerate(marks) if kinds[m] != "human"],
                    brain=vocabulary.NOUGHTS_BRAINS[menace_marks[0]] if menace_marks else None,
                    resigned=self.resigned is not None)

    def _record(self, result: int) -> None:
        """Keep the finished game in the records (the app's kept-brain service says so if it cannot)."""
        self.keeper.keep(self.record_fields(result), self.drawn, self.kinds)

    # -- showing ----------------------------------------------------------------------------------
    def board_data(self) -> NoughtsBoardData:
        board = self.state.board
        best = ()
        if self.hint and self.human_to_move:
            from sticks_tui.solve.noughts import solve_noughts

            best = solve_noughts().best_squares(board)
        cursor = self.cursor if self.human_to_move else None
        if self._told is not None:  # a training game told
            story = self._told
            return NoughtsBoardData(story.board, changes=tuple((c.square, c.before, c.after) for c in story.changes),
                                    note=self._story_words(story))
        if self.over:
            note = self.over_text
            if self.changes:
                note += " Under MENACE's marks: its beads before → after."
            return NoughtsBoardData(board, changes=tuple((c.square, c.before, c.after) for c in self.changes),
                                    note=note)
        if self.shown_box is not None:
            box_board, drawn = self.shown_box
            beads = self.keeper.brain_for(to_move(box_board)).square_beads(box_board)
            return NoughtsBoardData(box_board, beads, drawn=drawn)
        return NoughtsBoardData(board, None, cursor=cursor, best=best, note=self._board_words(best))

    def _board_words(self, best) -> str:
        if self.training:
            return "MENACE is training: the game waits (Stop: c)."
        mark = self.state.to_move
        if self.human_to_move:
            text = f"{player_name(self.kinds, mark)} ({mark}): choose a square."
            if best:
                text += f" {MARK_PERFECT} best: " + ", ".join(map(str, best)) + "."
            return text
        return f"{player_name(self.kinds, mark)} ({mark}) is thinking ..."

    def _story_words(self, story) -> str:
        word = {1: "X won", 0: "a draw", -1: "O won"}[story.result]
        if story.resigned:
            word = f"{story.resigned} resigned"
        return f"Training game {story.number:,}: {word}. Under MENACE's marks: its beads before → after."

    def show(self) -> None:
        self.query_one(NoughtsBoard).data = self.board_data()
        turn = self.query_one("#noughts-turn", Static)
        kinds = self.kinds
        if self.training:
            turn.update("MENACE is training (the game waits).")
        elif self.over:
            turn.update(self.over_text + " n: a new game.")
        elif self.human_to_move:
            mark = self.state.to_move
            turn.update(f"{player_name(kinds, mark)} ({mark}): 1-9 (1 2 3 = top row), a click, "
                        "or the arrows and Enter. n: new game.")
        else:
            mark = self.state.to_move
            verb = "draws a bead from its box" if kinds[mark] == "menace" else "chooses"
            turn.update(f"{player_name(kinds, mark)} ({mark}) {verb} ...")
        played = self.keeper.played
        self.query_one("#noughts-tally", Static).update(
            f"Here: X won {played['X']}, drawn {played['draw']}, O won {played['O']}.\n"
            + self.keeper.results_text())
        self.refresh_bindings()

    def _show_learning(self) -> None:
        keeper = self.keeper
        curve = keeper.curve
        series = []
        if curve:
            series = [
                CurveSeries("won", "●", tuple((p.games, p.win / p.games) for p in curve)),
                CurveSeries("drawn", "○", tuple((p.games, p.draw / p.games) for p in curve)),
                CurveSeries("lost", "▽", tuple((p.games, p.loss / p.games) for p in curve)),
                CurveSeries("not losing vs perfect", "▲",
                            tuple((p.games, p.not_losing_vs_perfect) for p in curve)),
            ]
        chart = self.query_one("#noughts-curve", LearningCurve)
        chart.series = tuple(series)
        self.query_one(BeadChart).samples = tuple(keeper.first_box)
        self.query_one("#noughts-rule", Static).update("Rule: " + menace.sentence(keeper.rule))
        self._show_training(None)

    def _show_training(self, progress) -> None:
        line = self.query_one("#noughts-training", Static)
        control = self._job.control if self._job is not None else None
        if self.training and control is not None:
            paused = control.paused
            done = progress.games_done if progress is not None else 0
            total = progress.games_total if progress is not None else 0
            line.update(f"{'Paused' if paused else 'Training'}: {done:,} of {games_words(total)}, "
                        f"{pace_words(control.pace)}. Space pause, s step, +/- pace, c stop.")
        else:
            line.update(self.keeper.results_text() + " " + self.keeper.chance_text())

    # -- keys ---------------------------------------------------------------------------------------
    TRAINING_ACTIONS = frozenset({"toggle_pause", "step", "pace", "cancel_training"})

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action in self.TRAINING_ACTIONS:
            return self.training
        if action in ("square", "cursor", "hint"):
            return self.human_to_move  # hidden from the footer otherwise
        if action == "mark":
            return True  # Enter: a square while you play, the next game after one
        if action == "new_game":
            return not self.training
        if action == "learning":
            return not self.has_class("-wide")
        if action == "train":
            return not self.training
        return True

    def action_square(self, square: int) -> None:
        if not self.human_to_move:
            return
        self.cursor = square
        try:
            self.state.play(square, self.state.to_move)
        except NoughtsError as exc:
            self.notify(str(exc), severity="warning", timeout=4)
            self.show()
            return
        self._place(square)

    @on(NoughtsBoard.Clicked)
    def _clicked(self, event: NoughtsBoard.Clicked) -> None:
        if self.human_to_move:
            self.action_square(event.square)
        elif self.over and not self.training:
            self.new_game()

    def action_cursor(self, by: int) -> None:
        if not self.human_to_move:
            return
        row, col = divmod(self.cursor - 1, 3)
        if by in (-1, 1):
            col = (col + by) % 3
        else:
            row = (row + by // 3) % 3
        self.cursor = 3 * row + col + 1
        self.show()

    def action_mark(self) -> None:
        if self.human_to_move:
            self.action_square(self.cursor)
        elif self.over and not self.training:
            self.new_game()

    def action_hint(self) -> None:
        self.hint = not self.hint
        self.show()

    def action_new_game(self) -> None:
        if not self.training:
            self.new_game()

    def action_learning(self) -> None:
        from sticks_tui.ui.bindings import relabel

        self.toggle_class("-learning")
        relabel(self, "noughts.learning", "Game" if self.has_class("-learning") else "Curve")
        self.refresh_bindings()

    def action_boxes(self) -> None:
        self.app.push_screen(NoughtsBoxesScreen())

    def action_menace_help(self) -> None:
        self.app.push_screen(MenaceHelpScreen(keys_of(self), title=screen_title(self)))

    @property
    def game_in_progress(self) -> bool:
        """A person plays, and the game has begun and is not over: leaving would lose it."""
        return (not self.over and bool(self.state.history) and "human" in self.kinds.values())

    def action_back(self) -> None:
        """Back to setup (a training run stops; MENACE keeps what it learned); mid-game, ask first."""
        def leave(yes: bool | None = True) -> None:
            if yes and self.is_current:
                if self.training:
                    self._job.cancel()
                self.app.pop_screen()

        if not self.game_in_progress or self.training:
            leave()
            return
        from sticks_tui.ui.screens.confirm import ConfirmDialog

        self.app.push_screen(ConfirmDialog("This game is not finished: leave it? MENACE learns nothing from it.",
                                           yes="Leave", default_yes=True), leave)

    # -- training -----------------------------------------------------------------------------------
    def action_train(self) -> None:
        if self.training:
            return
        self.app.push_screen(NoughtsTrainDialog(), self._train_chosen)

    def _train_chosen(self, request: TrainRequest | None) -> None:
        if request is None:
            return
        keeper = self.keeper
        if request.reset:
            keeper.reset(request.rule)
        self._stop_timer()
        self.drawn = []  # the game on the board is left: it teaches nothing
        from sticks_tui.ui.training import start_training_worker

        seed = self.app.session.child_seed()
        if seed is None:
            seed = keeper.rng.randrange(2**63)
        self._train_opponent = request.opponent
        self._job = start_training_worker(self, NOUGHTS_TRAINING, menace_run(keeper, request, seed),
                                          idle=self.app.session.idle_training, pace=request.pace)
        against = "a second MENACE (O)" if request.opponent == "menace" else AI_WORDS[request.opponent]
        self.query_one("#noughts-log", MoveLog).write(
            f"Training: {games_words(request.games)} against {against}, {pace_words(request.pace)}.")
        self.show()
        self._show_learning()

    def on_training_progress_msg(self, message) -> None:
        if message.purpose != NOUGHTS_TRAINING:
            return
        progress = message.progress
        message.stop()
        if progress.story is not None:
            self._told = progress.story
            self.query_one(NoughtsBoard).data = self.board_data()
            self.query_one("#noughts-log", MoveLog).write(story_line(progress.story))
        keeper = self.keeper
        base = keeper.games
        chart = self.query_one("#noughts-curve", LearningCurve)
        w0, d0, l0 = keeper.results
        points = list(keeper.curve) + [menace.CurvePoint(base + p.games, w0 + p.win, d0 + p.draw, l0 + p.loss,
                                                         p.not_losing_vs_perfect) for p in progress.curve]
        if points:
            chart.series = (
                CurveSeries("won", "●", tuple((p.games, p.win / p.games) for p in points)),
                CurveSeries("drawn", "○", tuple((p.games, p.draw / p.games) for p in points)),
                CurveSeries("lost", "▽", tuple((p.games, p.loss / p.games) for p in points)),
                CurveSeries("not losing vs perfect", "▲",
                            tuple((p.games, p.not_losing_vs_perfect) for p in points)),
            )
        self.query_one(BeadChart).samples = tuple(keeper.first_box) + tuple(
            (base + g, c) for g, c in progress.first_box if g > 0)
        self._show_training(progress)

    def on_training_finished(self, message) -> None:
        if message.purpose != NOUGHTS_TRAINING:
            return
        message.stop()
        if message.error is not None:
            self.notify(f"Training stopped: {message.error}", severity="error", timeout=10)
        else:
            result = message.result
            verb = "Stopped after" if result.cancelled else "Trained"
            notice = f" {result.notice}" if result.notice else ""
            self.notify(f"{verb} {games_words(result.games_played)}. {self.keeper.chance_text()}{notice}",
                        title="MENACE", timeout=8)
        self._job = None
        self._told = None
        if message.result is not None and message.result.games_played:
            self.keeper.save("X", message.result.games_played)
            if self._train_opponent == "menace":  # O's brain learned too
                self.keeper.save("O", message.result.games_played)
        self.query_one("#noughts-note", Static).update(self.keeper.saved_text())
        self._show_learning()
        self.new_game()

    def action_toggle_pause(self) -> None:
        if self.training:
            self._job.control.toggle_pause()
            self._show_training(None)

    def action_step(self) -> None:
        if self.training:
            self._job.control.step()
            self._show_training(None)

    def action_pace(self, by: int) -> None:
        if not self.training:
            return
        control = self._job.control
        paces = list(TRAIN_PACES)
        index = paces.index(control.pace) if control.pace in paces else len(paces) - 1
        control.set_pace(paces[max(0, min(len(paces) - 1, index + by))])
        if control.paused:
            control.resume()
        self._show_training(None)

    def action_cancel_training(self) -> None:
        if self.training:
            self._job.cancel()

    def cannot_leave_now(self) -> str | None:
        return None


def menace_run(keeper: NoughtsKeeper, request: TrainRequest, seed: int):
    """A run for `ui.training.start_training_worker` (as `ui.training.sticks_run` is for sticks; it
    belongs beside it once the game registry lands): MENACE's brains in `keeper` trained in place by the
    one trainer (`noughts_keeper.train_menace`), the run's games, results and curve added to the keeper."""
    o_brain = keeper.brain_for("O") if request.opponent == "menace" else None

    def run(progress, control):
        from sticks_tui.ui.noughts_keeper import train_menace

        # in the thread: loading the compiled kernel (numba) takes a while the first time
        result = train_menace(keeper.x_brain, request.opponent, seed, request.games, control, progress,
                              o_brain=o_brain)
        keeper.add_run(result)
        return result

    return run


def story_line(story) -> str:
    """A training game told in one line: 'Training game 12: X 5, O 1, X 9, O 3: a draw. MENACE X 4→5 ↑, ...'."""
    moves = ", ".join(f"{'XO'[i % 2]} {square}" for i, square in enumerate(story.moves))
    result = {1: "X won", 0: "a draw", -1: "O won"}[story.result]
    if story.resigned:
        result = f"{story.resigned} resigned (an empty box)"
    beads = ", ".join(f"{c.marks} {c.before}→{c.after} "
                      f"{MARK_UP if c.after > c.before else MARK_DOWN if c.after < c.before else '='}"
                      for c in story.changes)
    return f"Training game {story.number:,}: {moves or 'no move'}: {result}." + (f" Beads: {beads}." if beads else "")


# -- the train dialog ------------------------------------------------------------------------------
TRAIN_OPPONENTS = [("the perfect AI", "perfect"), ("the random AI", "random"),
                   ("a second MENACE learning O", "menace")]


class TrainForm(ValueError):
    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def whole(text: str, what: str, low: int, high: int, field: str) -> int:
    text = text.strip().replace(",", "").replace("_", "")
    try:
        value = int(text)
    except ValueError:
        raise TrainForm(f"Please enter {what} as a whole number from {low:,} to {high:,}.", field) from None
    if not low <= value <= high:
        raise TrainForm(f"Please enter {what} as a whole number from {low:,} to {high:,}.", field)
    return value


class NoughtsTrainDialog(StyledOnce, ModalScreen[TrainRequest | None]):
    """MENACE's training run: games, pace, opponent, and its rule (start beads by move number,
    incentives for a win, a draw and a loss, what an empty box does), said in a sentence."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="noughts_train.cancel")]
    AUTO_FOCUS = "#nt-games"
    CSS = """
    #nt-dialog { width: 76; padding: 0 2; }
    #nt-dialog .form .row { height: 1; margin-bottom: 0; }
    #nt-dialog .form .field { width: 14; }
    #nt-dialog .form .small { width: 6; margin-right: 1; }
    #nt-dialog .form .what { width: auto; color: $text-muted; margin-right: 1; }
    #nt-effect { margin-top: 1; height: 6; }
    #nt-error { height: 2; }
    """

    def compose(self) -> ComposeResult:
        keeper = keeper_of(self.app)
        rule = keeper.rule
        with Vertical(id="nt-dialog", classes="dialog"):
            yield Static("Train MENACE (its X boxes; a second MENACE learns O)", classes="dialog-title")
            with Vertical(classes="form"):
                with Horizontal(classes="row"):
                    yield Label("Games", classes="field")
                    yield Input("5000", id="nt-games", compact=True, max_length=10, classes="small")
                    yield Label("Pace", classes="what")
                    yield Select([(pace_words(p), "full" if p is None else f"{p:g}") for p in TRAIN_PACES],
                                 value="full", allow_blank=False, id="nt-pace", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Opponent", classes="field")
                    yield Select(TRAIN_OPPONENTS, value="perfect", allow_blank=False, id="nt-opponent", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Start beads", classes="field")
                    for i, (n, word) in enumerate(zip(rule.beads, ("1st", "2nd", "3rd", "4th"), strict=True)):
                        yield Label(word, classes="what")
                        yield Input(str(n), id=f"nt-beads-{i}", compact=True, max_length=4, classes="small")
                with Horizontal(classes="row"):
                    yield Label("Incentives", classes="field")
                    for i, (n, word) in enumerate(zip(rule.incentives, ("win", "draw", "loss"), strict=True)):
                        yield Label(word, classes="what")
                        yield Input(f"{n:+d}", id=f"nt-incentive-{i}", compact=True, max_length=5, classes="small")
                with Horizontal(classes="row"):
                    yield Label("Empty box", classes="field")
                    yield Select([("MENACE resigns (Michie's)", "resign"),
                                  ("refilled with its start beads", "refill")],
                                 value=rule.empty, allow_blank=False, id="nt-empty", compact=True)
                with Horizontal(classes="row"):
                    yield Label("", classes="field")
                    from sticks_tui.ui.screens.training import TickBox

                    yield TickBox("Start MENACE afresh (forget its beads)", id="nt-reset", compact=True)
            yield Static("", id="nt-effect", classes="muted")
            yield Static("", id="nt-error", classes="error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Train", id="nt-go", variant="primary", compact=True)
                yield Button("Cancel", id="nt-cancel", compact=True)

    def on_mount(self) -> None:
        self._describe()

    def read_form(self) -> TrainRequest:
        value = lambda wid: self.query_one(f"#{wid}", Input).value  # noqa: E731
        games = whole(value("nt-games"), "the games", 1, 10_000_000, "nt-games")
        beads = tuple(whole(value(f"nt-beads-{i}"), f"the start beads at MENACE's {w} move", 1, 1000,
                            f"nt-beads-{i}") for i, w in enumerate(("1st", "2nd", "3rd", "4th")))
        incentives = tuple(whole(value(f"nt-incentive-{i}").replace("+", ""), f"the {w} incentive", -1000, 1000,
                                 f"nt-incentive-{i}") for i, w in enumerate(("win", "draw", "loss")))
        rule = menace.MenaceRule(beads, incentives, self.query_one("#nt-empty", Select).value)
        reset = self.query_one("#nt-reset").value
        keeper = keeper_of(self.app)
        if rule != keeper.rule and not reset:
            raise TrainForm("MENACE learns by its own rule; to train by another, tick \"Start MENACE afresh\".",
                            "nt-reset")
        pace_key = self.query_one("#nt-pace", Select).value
        pace = None if pace_key == "full" else float(pace_key)
        return TrainRequest(games, pace, self.query_one("#nt-opponent", Select).value, rule, reset)

    def _describe(self) -> TrainForm | None:
        effect = self.query_one("#nt-effect", Static)
        error = self.query_one("#nt-error", Static)
        try:
            request = self.read_form()
        except TrainForm as exc:
            effect.update("What the run will do is told here when every field holds a good value.")
            error.update(str(exc))
            return exc
        error.update("")
        against = dict((k, w) for w, k in TRAIN_OPPONENTS)[request.opponent]
        first = "MENACE starts afresh. " if request.reset else "MENACE keeps what it learned. "
        effect.update(f"{first}{menace.sentence(request.rule)} It plays X in {games_words(request.games)} "
                      f"against {against}, {pace_words(request.pace)}.")
        return None

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        if self.is_mounted:
            self._describe()

    @on(Input.Submitted)
    @on(Button.Pressed, "#nt-go")
    def _go(self) -> None:
        problem = self._describe()
        if problem is not None:
            self.query_one("#nt-error", Static).update(str(problem) + " Nothing was started.")
            self.query_one(f"#{problem.field}").focus()
            return
        self.dismiss(self.read_form())

    @on(Button.Pressed, "#nt-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_checkbox_changed(self) -> None:
        self._describe()


# -- every box -----------------------------------------------------------------------------------------
class NoughtsBoxesScreen(StyledOnce, Screen):
    """All of MENACE's boxes, by its move number (1: 1 box, 2: 12, 3: 108, 4: 183), as small boards with
    their bead counts; o switches to O's boxes (a second brain) when there is one."""

    BINDINGS = [
        Binding("1", "move(1)", "1st-4th move", key_display="1-4", id="noughts_boxes.move",
                tooltip="The box for MENACE's 1st move"),
        *[Binding(str(n), f"move({n})", f"Move {n}", show=False, id=f"noughts_boxes.move{n}",
                  tooltip=f"The boxes for MENACE's {w} move") for n, w in ((2, "2nd"), (3, "3rd"), (4, "4th"))],
        Binding("o", "other", "X/O boxes", id="noughts_boxes.other", tooltip="X's boxes, or O's second brain"),
        Binding("f1,question_mark", "menace_help", "Help", key_display="F1", id="noughts_boxes.help",
                tooltip="Help: MENACE in plain words, and these keys"),
        Binding("escape", "back", "Back", id="noughts_boxes.back"),
    ]
    DEFAULT_CSS = """
    NoughtsBoxesScreen #boxes-title { height: auto; text-style: bold; padding: 0 1; }
    NoughtsBoxesScreen #boxes-scroll { height: 1fr; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.move = 1
        self.marks = "X"

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static("", id="boxes-title")
        with VerticalScroll(id="boxes-scroll"):
            yield Static("", id="boxes-grid")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "MENACE's matchboxes"
        self.show()

    def on_resize(self) -> None:
        self.call_after_refresh(self.show)

    def show(self) -> None:
        keeper = keeper_of(self.app)
        brain = keeper.x_brain if self.marks == "X" or keeper.o_brain is None else keeper.o_brain
        boxes = brain.boxes
        rows = [(i + 1, b, brain.box_squares(i)) for i, b in enumerate(boxes.boards)
                if menace.move_number(b) == self.move]
        counts = [sum(1 for b in boxes.boards if menace.move_number(b) == m) for m in (1, 2, 3, 4, 5)]
        of = ", ".join(str(n) for n in counts[:4])
        mark = brain.boxes.marks
        self.query_one("#boxes-title", Static).update(
            f"{'MENACE' if mark == 'X' else 'The second MENACE (O)'}'s {len(rows)} box"
            f"{'es' if len(rows) != 1 else ''} for its move {self.move} ({of} by move: {len(boxes)}). "
            "#box: its beads; the board turned to one form, each playable square's beads; "
            "· a mirror image's square (or no beads left).")
        width = max(16, self.query_one("#boxes-scroll").size.width - 2 or self.app.size.width - 4)
        self.query_one("#boxes-grid", Static).update(Content("\n".join(boxes_grid(rows, width))))

    def action_move(self, move: int) -> None:
        self.move = move
        self.query_one("#boxes-scroll", VerticalScroll).scroll_home(animate=False)
        self.show()

    def action_menace_help(self) -> None:
        self.app.push_screen(MenaceHelpScreen(keys_of(self), title=screen_title(self)))

    def action_other(self) -> None:
        keeper = keeper_of(self.app)
        if keeper.o_brain is None:
            self.notify("There is no second MENACE for O yet: it is made when MENACE first plays O "
                        "(against you playing X, or watching, or training against MENACE).", timeout=6)
            return
        self.marks = "O" if self.marks == "X" else "X"
        self.show()

    def action_back(self) -> None:
        self.app.pop_screen()


# -- help ------------------------------------------------------------------------------------------------
def menace_help_sections() -> list[tuple[str, str]]:
    return [
        ("MENACE in plain words",
         "MENACE (Machine Educable Noughts And Crosses Engine) was built by Donald Michie in 1961 out of 304 "
         "matchboxes. Each box stands for one board MENACE can meet when it is its turn; boards that are the "
         "same when turned or mirrored share one box. Inside are beads, one colour for each square it may "
         "play there.\n"
         "To move, MENACE takes the box for the board, shakes it and draws one bead without looking: that "
         "square is its move. The more beads of a colour, the likelier that square.\n"
         "After the game every bead it drew is rewarded: a win adds 3 more of that colour, a draw 1 more, "
         "a loss takes the drawn bead out. Moves that led to wins become likelier, moves that lost become "
         "rarer. If a box runs out of beads, MENACE resigns (or, as an option, the box is filled again).\n"
         "It starts with 4 beads of each colour in the first box, 3 at its second move, 2 at its third and "
         "1 at its fourth: a late bad move then disappears after one loss.\n"
         "MENACE plays X (first). A second MENACE, with boxes of its own, plays O when it is chosen."),
        ("Reading the board",
         "Squares are numbered 1-9 row by row from the top left, like a phone's keys (not a numeric keypad, "
         "whose 7 8 9 is on top):\n    1 2 3\n    4 5 6\n    7 8 9\n"
         f"When MENACE is to move, each square shows its beads, the chance they give it and a bar as long "
         f"as that chance. {MARK_DRAWN} drawn: the bead it took. A square with no beads repeats another by a "
         f"mirror image (or lost its last bead). After the game, under each of MENACE's marks: its beads "
         f"before → after, {MARK_UP} more, {MARK_DOWN} fewer, = unchanged. {MARK_PERFECT} best (h): the "
         "squares exact minimax calls best. ◆ is the cursor."),
        ("MENACE's learning",
         "v (or the right-hand panel on a wide screen): the shares of MENACE's games won, drawn and lost so "
         "far, over games on a log scale from game 1, and its exact chance not to lose one more game to the "
         "perfect AI (computed from its beads, not sampled). Against the perfect AI the best MENACE can do "
         "is draw every game. Below: the beads in the first box (corner, edge, centre) over games.\n"
         "t trains MENACE in the background at any pace (space pauses, s plays one game and tells it, "
         "+/- change the pace, c stops); its rule is set there. MENACE's boxes are kept between sessions "
         "(brains 'noughts MENACE' for X, 'noughts MENACE O' for O): every game and run teaches the boxes as "
         "stored, so every tab of a class server teaches one MENACE. The curve counts this session's games."),
    ]


class MenaceHelpScreen(HelpScreen):
    """The help for the noughts screen: MENACE in plain words, then the screen's keys."""

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            with VerticalScroll(id="help-body"):
                yield Static(Content.styled("Help: noughts and crosses with MENACE", "bold"), id="help-heading")
                yield Static(Content("Esc, F1 or q closes it; ↑/↓, PgUp/PgDn or the mouse wheel scroll."),
                             classes="help-text")
                for title, text in menace_help_sections():
                    yield Static(Content.styled(title, "bold"), classes="help-title")
                    yield Static(Content(text), classes="help-text")
                yield Static(Content.styled(f"Keys on {self.keys_title}", "bold"), classes="help-title")
                yield Static(Content(self.keys_text()), id="help-keys")
            with Vertical(id="help-close-row"):
                yield Button("Close", id="help-close", action="screen.close", compact=True)
