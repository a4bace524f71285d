"""The game screen, one for every game: the board comes from the game's board (`ui.boards`), everything
else is written here once against the game protocol and the players' events.

It plays rounds of the game as set up (`MatchSetup`): a person against a friend or an AI, or (watch) two
AIs. The AI moves after the chosen pause; a learner in two beats (its draw shown on its brain, then its
move). Watching, space pauses and s steps (one move, then the game's lesson, then the next game). The
move log tells the game in its own words, the tally counts this session's games (and all of them, from
the records), the learners' brains are shown beside the board (a grid of every hat when the brain is
small enough, else the container in play), with what the game taught them (↑ ↓ =) until the next game
starts, and a classmate's game that taught the same brain shows live. A game in progress is not left,
nor the app quit, without a question. The finished game is kept in the records with its lessons
(`ui.keeper`), each learner playing on with its brain as stored.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Label, Static

from sticks_tui.engine import registry
from sticks_tui.engine.events import EventBus
from sticks_tui.engine.state import GameState
from sticks_tui.play.game import GameDriver
from sticks_tui.play.players import RESIGN
from sticks_tui.ui import brains
from sticks_tui.ui.bindings import relabel, reshow
from sticks_tui.ui.boards import Board, BoardView, GameBoard, board_of
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.messages import BallDrawnMsg, GameOverMsg, HatsReinforcedMsg, MoveMadeMsg, core_message
from sticks_tui.ui.session import LEARNER_KINDS, SPEEDS, KeptBrain, MatchSetup, Session, make_player
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.container_view import ContainerData, ContainerView
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.heatmap import MARK_DRAWN, MARK_PERFECT, HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.training_badge import TrainingBadge

WATCH_NEXT_GAME = 1.0  # pause between games when watching AI vs AI
SPEED_ORDER = list(SPEEDS)


def tally_text(names: tuple[str, str], winners: list[str], overall: tuple | None, plotted: int,
               width: int = 30, plotted_as: tuple[str, list[str]] | None = None) -> str:
    """The two players' wins this session (and in all, from the records), and one player's results game
    by game (● won, ○ lost, ◐ drawn; the last `width` games): a tally sheet a class can read from the back.
    `winners`: each game's winner's name, '' for a draw. `plotted_as`: (who, outcomes): the plotted player is a
    learner, named `who` ("MENACE (O)"), and `outcomes` ("won", "drawn", "lost") are its games this session with
    the brain in play against this opponent, which its line counts and plots."""
    a, b = names
    draws = winners.count("")
    drawn = f", {draws} drawn" if draws else ""
    if winners:
        line = f"This session: {a} {winners.count(a)}, {b} {winners.count(b)}{drawn}"
    else:
        line = "This session: no game finished yet"
    if overall is not None and sum(overall):  # (a's wins, b's wins[, draws]) in every recorded game between them
        drew = f", {overall[2]} drawn" if len(overall) > 2 and overall[2] else ""
        line += f" (in all: {overall[0]}, {overall[1]}{drew})" if winners else \
            f" (in all: {a} {overall[0]}, {b} {overall[1]}{drew})"
    line += "."
    if plotted_as is not None:
        who, outcomes = plotted_as
    else:
        who = names[plotted]
        outcomes = ["drawn" if w == "" else "won" if w == names[plotted] else "lost" for w in winners]
    if not outcomes:
        return line
    marks = "".join({"won": "●", "lost": "○", "drawn": "◐"}[o] for o in outcomes[-width:])
    more = "… " if len(outcomes) > width else ""
    key = f"● won {outcomes.count('won')}" + (f", ◐ drawn {outcomes.count('drawn')}" if "drawn" in outcomes else "")
    key += f", ○ lost {outcomes.count('lost')}"
    return f"{line}\n{who} vs {names[1 - plotted]}: {more}{marks} ({key})"


class BrainPanel(Vertical):
    """One learner's brain beside the board: a title, the brain (a grid of every hat, or the container
    in play) and, for a container, this game's draws."""

    DEFAULT_CSS = """
    BrainPanel { height: 1fr; }
    BrainPanel .brain-title { text-style: bold; height: auto; }
    BrainPanel .brain-draws { height: auto; margin-top: 1; color: $text-muted; }
    """

    def __init__(self, grid: bool, *, id: str) -> None:  # noqa: A002
        super().__init__(id=id, classes="brain-panel")
        self.grid = grid

    def compose(self) -> ComposeResult:
        yield Label("", classes="brain-title")
        if self.grid:
            heatmap = HatHeatmap(classes="brain")
            heatmap.can_focus = False  # the keys stay with the board
            yield heatmap
        else:
            yield ContainerView(classes="brain")
            yield Static("", classes="brain-draws")



def _set_text(label: Static, text: str) -> None:
    """Show `text` on `label` only when it is not already shown there: an update lays out the whole screen (about
    10 ms), and the brain panels' titles are set again, with the same words, at every move."""
    if label.content != text:
        label.update(text)

class GameScreen(StyledOnce, Screen):
    """Rounds of one game as set up (see the module docstring)."""

    BINDINGS = [
        Binding("n", "play_again", "Play again", id="game.play_again"),
        Binding("enter", "play_again", "Play again", show=False, id="game.play_again.enter"),
        Binding("space", "pause", "Pause", id="game.pause", tooltip="Pause the AI, or let it go on"),
        Binding("s", "step", "Step", id="game.step",
                tooltip="Step (AI vs AI): one move, one ball drawn; at the end the lesson; then the next game"),
        Binding("p,h", "toggle_perfect", "Perfect", id="game.perfect",
                tooltip="Show or hide the perfect moves (✓)"),
        Binding("b", "brain", "Brain", show=False, id="game.brain",
                tooltip="The learning AI's whole brain: every hat or box, each move's balls or beads"),
        Binding("o", "other_brain", "Other AI", show=False, id="game.other_brain",
                tooltip="Two learners play: show the other one's brain (a wide screen shows both)"),
        Binding("minus", "slower", "Speed", key_display="-/+", id="game.slower",
                tooltip="AI slower: a longer pause before each of its moves"),
        Binding("plus,equals_sign", "faster", "Faster", show=False, id="game.faster",
                tooltip="AI faster: a shorter pause before each of its moves"),
        Binding("f", "swap_first", "Swap first", show=False, id="game.swap_first",
                tooltip="Swap who moves first from the next game (noughts: who plays X)"),
        Binding("escape", "back", "Setup", id="game.back", tooltip="Back to the setup screen"),
    ]
    COMMANDS = {screen_commands(
        ("Play again", "Start the next game (when this one is over)", "play_again"),
        ("Show the perfect moves", "Mark the perfect moves on the board and on the AI's brain", "toggle_perfect"),
        ("The learning AI's brain", "Every hat or box of the learning AI, each move's balls or beads", "brain"),
        ("Pause or go on", "Pause the AI (its next move waits), or let it go on", "pause"),
        ("Step", "AI vs AI: one move (one ball drawn), then the lesson of the game's end, then the next game", "step"),
        ("AI faster", "Shorter pauses before the AI's moves", "faster"),
        ("Swap who moves first", "From the next game the other player moves first (in noughts, plays X)", "swap_first"),
        ("AI slower", "Longer pauses before the AI's moves", "slower"),
    )}
    AUTO_FOCUS = "#board"

    def __init__(self, setup: MatchSetup, trained_brain=None) -> None:
        super().__init__()
        self.setup = setup
        self.board: Board = board_of(setup.game)
        self.entry = registry.entry(setup.game)
        self.rules = setup.rules
        self.start = setup.start_position
        self.trained_brain = trained_brain
        self.bus = EventBus()
        self.round = 0
        self._turn_shape: tuple[int, int] | None = None  # (width, wrapped lines) of the turn line as laid out
        self.speed = setup.speed
        self.paused = False
        self.perfect_shown = False
        self.game: GameDriver | None = None
        self.first = 0  # the seat that moved first this game
        self.result_text = ""
        self.brains: dict[int, KeptBrain] = {}  # each learner's brain this game, by seat
        self.draws: dict[int, list[tuple]] = {}  # each learner's draws this game: (position, move)
        self.lessons: list = []  # watch mode: the game's lessons, told at their own beat
        self.taught: dict[int, Any] = {}  # each learner's lesson this game (its HatsReinforced), once told
        self._sparring: KeptBrain | None = None  # a second learner's own brain, when the game has one brain
        self._drawn: tuple | None = None  # (seat, position, move): a learner's token just drawn
        self._pending: Any = None  # a learner's move drawn, played at the next beat
        self._ai_timer: Timer | None = None
        self._beat_timer: Timer | None = None
        self._last: tuple | None = None  # (before, move) of the last move, for the board
        self._bindings_shown: tuple | None = None
        self._draw_odds: dict[int, list[tuple]] = {}  # each draw's (position, move, count, total), by seat
        self._unsubscribe = self.bus.subscribe(self._post_core_event)
        self.players = self.make_players()
        self._next_first = setup.first_mover(0, self.app.session.rng)  # who moves first in game 1

    @property
    def session(self) -> Session:
        return self.app.session

    def _post_core_event(self, event: Any) -> None:
        message = core_message(event)
        if message is not None:
            self.post_message(message)

    # -- players and their brains ---------------------------------------------------------------------
    def make_players(self) -> list:
        setup, rng = self.setup, self.app.session.rng
        kind = setup.opponent
        first = (make_player(self.learner_kind, setup.name1, brain=self._placeholder(), rng=rng, bus=self.bus)
                 if setup.watch else make_player("friend", setup.name1, rng=rng))
        second = make_player(kind, setup.name2, brain=self._placeholder() if kind in LEARNER_KINDS else None,
                             rng=rng, bus=self.bus)
        return [first, second]

    @property
    def learner_kind(self) -> str:
        """The kind the game's learning AI is offered as (the learning AI; MENACE)."""
        return next((k for k in self.entry.opponents if k in LEARNER_KINDS and k != "trained"), "learning")

    def _placeholder(self):
        """The brain a learner is made with (it plays with its side's brain from each game's start)."""
        if self.trained_brain is not None and self.setup.opponent == "trained":
            return self.trained_brain
        return self.app.keeper.learner(self.setup.game, 0).brain

    @property
    def learner_seats(self) -> list[int]:
        return [seat for seat, p in enumerate(self.players) if getattr(p, "kind", "") in LEARNER_KINDS]

    def _assign_brains(self) -> None:
        """Each learner plays this game with its side's brain (the first mover's or the second's: one for
        both when the game has one), kept in the store; a second learner of a one-brain game with its own,
        not kept; the trained AI with the brain it trained."""
        keeper, game = self.app.keeper, self.setup.game
        per_side = registry.entry(game).brains_by_side()
        self.brains = {}
        for seat in self.learner_seats:
            player = self.players[seat]
            side = 0 if seat == self.first else 1
            if player.kind == "trained":
                kept = KeptBrain(game, "trained", self.trained_brain, kept=False)
            elif per_side or not any(k.kept or k is self._sparring for k in self.brains.values()):
                kept = keeper.learner(game, side if per_side else 0)
            else:
                if self._sparring is None:
                    main = keeper.learner(game, 0)
                    self._sparring = KeptBrain(game, f"{main.name} (sparring)", brains.fresh_copy(main.brain),
                                               kept=False)
                kept = self._sparring
            player.hats = kept.brain
            self.brains[seat] = kept

    @property
    def shown_seats(self) -> list[int]:
        """The learners whose brains are shown: the kept brain's first (in watch mode seat 1's too)."""
        seats = sorted(self.brains, key=lambda s: (not self.brains[s].kept, s))
        return seats[:2]

    # -- layout ----------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield AppHeader()
        board = self.board.widget(self.rules, id="board")
        grids = self._grids()
        # the panels' classes before the widgets are mounted: they are styled once, with them (set in on_mount,
        # each styled the whole screen again)
        self.update_classes({"-no-brain": len(grids) == 0, "-two-brains": len(grids) == 2})
        with Horizontal(id="game", classes=f"-{self.board.layout}"):
            with Vertical(id="play"):
                if self.board.layout == "square":
                    with Horizontal(id="board-row"):
                        yield board
                        with Vertical(id="beside"):
                            yield from self._words()
                else:
                    yield Static("", id="turn")
                    yield board
                    yield Static("", id="hint")
                    yield Static("", id="tally")
                    yield from self._after_buttons()
                    yield MoveLog(id="log")
            with Horizontal(id="brain-panels"):
                for i, grid in enumerate(grids):
                    yield BrainPanel(grid, id=f"brain-{i}")
        yield TrainingBadge()
        yield KeysFooter()

    def _say_turn(self, turn: Static, text: str) -> None:
        """Show `text` on the turn line, laid out again only when its wrapped height changes: a layout at every
        move was slow, and none left a longer sentence cut ("Player 1 (O)'s turn: ... or the arrows" without
        "and Enter." after MENACE's first move at 80x24)."""
        width = turn.content_region.width
        shape = (width, len(Text(text).wrap(self.app.console, width))) if width > 0 else None
        turn.update(text, layout=shape is None or shape != self._turn_shape)
        self._turn_shape = shape

    def _words(self) -> ComposeResult:
        yield Static("", id="turn")
        yield Static("", id="hint")
        yield Static("", id="tally")
        yield from self._after_buttons()
        yield MoveLog(id="log")

    def _after_buttons(self) -> ComposeResult:
        with Horizontal(id="after"):
            for button in (Button("Play again", id="again", variant="primary", action="screen.play_again"),
                           Button("Setup", id="to-setup", action="screen.back")):
                button.can_focus = False  # the keys stay with the board
                yield button

    def _grids(self) -> list[bool]:
        """Each brain panel's kind (a grid of every hat, or the container in play), one per brain shown."""
        first = self.setup.first_mover(0, self.session.rng) if False else 0
        self.first = first
        self._assign_brains()
        shown = self.shown_seats
        if not shown:
            kept = self._idle_brain()
            return [] if kept is None else [self._fits(kept.brain)]
        return [self._fits(self.brains[seat].brain) for seat in shown]

    def _fits(self, brain) -> bool:
        return brains.grid_fits(brain, brain.size)  # the brain's own containers: never every position of the rules

    def _idle_brain(self) -> KeptBrain | None:
        """Without a learner in this game: the game's learning AI's brain if this tab holds it already
        (shown as not playing), else None (nothing loaded, nothing made in the store)."""
        from sticks_tui.ui.keeper import brain_name

        return self.session.kept.get((self.setup.game, brain_name(self.session, self.setup.game, 0)))

    def on_mount(self) -> None:
        self.sub_title = f"{self.entry.title}: " + " vs ".join(p.name for p in self.players)
        self.query_one("#log", MoveLog).can_focus = False
        for kept in self.brains.values():
            if kept.problem:
                self.notify(kept.problem, title="The AI's brain", severity="error", timeout=15)
                break
        self.new_game()
        self.call_after_refresh(self._fit_brains)
        self.watch(self.app, "training", self._training_changed, init=False)
        self.watch(self.app, "class_change", self._class_changed, init=False)

    # -- lifecycle ---------------------------------------------------------------------------------------
    def on_unmount(self) -> None:
        self._unsubscribe()
        if self.game is not None and not self.game.is_over:
            self.game.abandon()

    @property
    def game_in_progress(self) -> bool:
        """A person plays, and the game has begun and is not over: leaving it would lose it."""
        game = self.game
        return (game is not None and not game.is_over and bool(game.state.history)
                and any(p.is_human for p in self.players))

    def action_back(self) -> None:
        """Back to setup; with a game in progress, ask first."""
        from sticks_tui.ui.screens.confirm import ConfirmDialog

        if not self.game_in_progress:
            self.app.pop_screen()
            return

        def answered(yes: bool | None) -> None:
            if yes and self.is_current:
                self.app.pop_screen()

        self.app.push_screen(ConfirmDialog("This game is not finished: leave it? It will not be recorded.",
                                           yes="Leave", default_yes=True), answered)

    # -- the game loop ---------------------------------------------------------------------------------
    def new_game(self) -> None:
        if self.game is not None and not self.game.is_over:
            self.game.abandon()
        self._stop_ai()
        self._stop_beat()
        self.first = self._next_first if self.round == 0 else self.setup.first_mover(self.round, self.session.rng)
        self.round += 1
        self.result_text = ""
        self._assign_brains()
        self.draws = {seat: [] for seat in self.brains}
        self._draw_odds = {seat: [] for seat in self.brains}
        self.lessons, self.taught = [], {}
        self._drawn = self._pending = self._last = None
        self.game = GameDriver(self.players, GameState(self.rules, self.start, self.first), self.bus)
        log = self.query_one("#log", MoveLog)
        mover = self.seat_name(self.first)
        log.write(f"Game {self.round}: {self.board.words_of_opening(self.rules, self.start)}. {mover} moves first.")
        if self.round == 1 and not self.setup.watch:
            for player in self.players:
                if not player.is_human:
                    log.write(f"{player.name} says 'I, the AI, will hope to defeat you!'")
        self._show_brains(reset=True)
        self._show_tally()  # the learner's line follows the brain it plays this game with
        self.advance()

    def seat_name(self, seat: int) -> str:
        """A player's name, with its mark in a game that has marks ("Ann (X)")."""
        mark = self.board.side_of(self.first, seat)
        return self.players[seat].name + (f" ({mark})" if mark else "")

    def advance(self) -> None:
        """Show whose turn it is; if an AI is to move, let it after the chosen pause."""
        self.show_state()
        game = self.game
        if game.is_over or game.waiting_for_human or self.paused:
            return
        self._schedule(self._delay(), self._ai_move)

    def _delay(self) -> float:
        return self.session.ai_delay(SPEEDS[self.speed])

    def _schedule(self, delay: float, then) -> None:
        self._stop_ai()
        if delay > 0:
            self._ai_timer = self.set_timer(delay, then)
        else:
            self.call_after_refresh(then)

    def _stop_ai(self) -> None:
        if self._ai_timer is not None:
            self._ai_timer.stop()
            self._ai_timer = None

    def _ai_move(self, *, at_once: bool = False) -> None:
        """The AI to move chooses; a learner's draw is shown a beat before its move (unless `at_once`)."""
        self._ai_timer = None
        game = self.game
        if game is None or game.is_over or game.waiting_for_human or (self.paused and not at_once):
            return
        if self._pending is not None:
            self._play_pending()
            return
        player = game.current
        drawn_before = len(getattr(player, "beside", ()))
        move = player.choose(game.state)
        if move is RESIGN:
            game.resign()
            self.advance()
            return
        self._pending = move
        delay = self._delay()
        if len(getattr(player, "beside", ())) > drawn_before and delay > 0 and not at_once:
            self.show_state()
            self._schedule(delay, self._play_pending)  # its draw is shown, then its move
            return
        self._play_pending()

    def _play_pending(self) -> None:
        self._ai_timer = None
        move, self._pending = self._pending, None
        if move is None or self.game is None or self.game.is_over:
            return
        self.game.play(move)
        self.advance()

    def action_play_again(self) -> None:
        if self.game is not None and self.game.is_over and not self.setup.watch:
            self.new_game()

    # -- a person's move ---------------------------------------------------------------------------
    @on(GameBoard.Picked)
    def _picked(self, event: GameBoard.Picked) -> None:
        event.stop()
        game = self.game
        if game is None or not game.waiting_for_human:
            self.app.bell()
            return
        try:
            self.rules.decode_move(game.state.position, event.move)
        except (ValueError, TypeError) as exc:
            self.app.bell()
            self.notify(str(exc), severity="warning", timeout=3)
            return
        game.play(event.move)
        self.advance()

    # -- keys ----------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        game = self.game
        if game is None:
            return True
        if action == "play_again":
            if self.setup.watch:
                return False  # watching, the next game comes by itself, or by a step (s) or space: off the footer
            return game.is_over
        if action == "step":
            return self.setup.watch
        if action == "pause":  # an AI plays: its timer waits (a game of people has none)
            return self.setup.watch or (any(not p.is_human for p in self.players) and (self.paused or not game.is_over))
        if action == "other_brain":  # one learner's brain at a time: at 80 columns, or wide when both would scroll
            return self.has_class("-two-brains") and (not self.has_class("-wide") or self.has_class("-one"))
        return True

    def action_pause(self) -> None:
        """Pause the AI (its timer waits, the footer and the turn line say so), or let it go on."""
        if not self.check_action("pause", ()):
            return
        self.paused = not self.paused
        if not self.paused:
            if self.game.is_over and not self.setup.watch:
                self.show_state()
            elif self.game.is_over:
                if self.lessons:
                    self._lesson_beat()
                else:
                    self.new_game()
            elif self._pending is not None:
                self._schedule(self._delay(), self._play_pending)
            else:
                self.advance()
        else:
            self._stop_ai()
            self._stop_beat()
            self.show_state()

    def action_step(self) -> None:
        """Watch mode: one move (one token drawn); at the game's end its lesson; then the next game."""
        if not self.setup.watch:
            return
        if not self.paused:
            self.paused = True
            self._stop_ai()
            self._stop_beat()
        game = self.game
        if game.is_over:
            if self.lessons:
                self._tell_lessons()
                self.show_state()
                return
            self.new_game()  # paused: it waits before its first move, which this step plays
            game = self.game
        if not game.is_over and not game.waiting_for_human:
            self._ai_move(at_once=True)
        self.show_state()

    def next_step(self) -> str:
        """What the step key does next (watch mode): 'draw', 'lesson' or 'new game'."""
        game = self.game
        if game is None or game.is_over:
            return "lesson" if self.lessons else "new game"
        return "draw"

    def action_toggle_perfect(self) -> None:
        self.perfect_shown = not self.perfect_shown
        for heatmap in self.query(HatHeatmap):
            heatmap.show_perfect = self.perfect_shown
        self.show_state()
        self._show_brains()

    def action_other_brain(self) -> None:
        self.toggle_class("-other")
        self._fit_brains()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_brains)

    def _fit_brains(self) -> None:
        """Wide, with two learners' grids of hats: both side by side when every hat of each fits its half of the
        panel, else one (the class -one; o shows the other, a footer key then, named after it), so no hat of
        the learner shown is off screen (100 sticks at 160x48)."""
        if not self.is_mounted or not self.has_class("-two-brains"):
            return
        panels = list(self.query(BrainPanel))
        one = False
        if self.has_class("-wide") and all(p.grid for p in panels):
            heatmap = next((h for h in self.query(HatHeatmap) if h.size.height), None)
            if heatmap is not None:
                half = (self.query_one("#brain-panels").size.width - 1) // 2 - 1  # the margin; a scrollbar
                one = not heatmap.fits_in(half, heatmap.size.height)
        changed = self.has_class("-one") != one
        self.set_class(one, "-one")
        changed |= reshow(self, "game.other_brain", one)
        shown = [(seat, kept) for _, seat, kept in self._panel_seats()]
        if one and len(shown) == 2 and None not in (shown[0][0], shown[1][0]):
            seat, kept = shown[0 if self.has_class("-other") else 1]  # the one o shows next
            changed |= relabel(self, "game.other_brain",
                               f"{self.players[seat].name}'s {brains.words(kept.brain).containers}")
        if changed:
            self.refresh_bindings()

    def _seat_in_view(self) -> int | None:
        """The seat of the learner whose brain is shown (at 80 columns with two, the one in view); None: none."""
        seats = self.shown_seats
        return seats[1] if len(seats) > 1 and self.has_class("-other") else seats[0] if seats else None

    @property
    def brain_side(self) -> int:
        """The side (0 the first mover's, 1 the second's) of the learner's brain in view this game: the one b shows
        and F2 trains (MENACE playing O: O's boxes); 0 where the learner keeps one brain for both sides."""
        seat = self._seat_in_view()
        return 0 if seat is None or seat == self.first or not registry.entry(self.setup.game).brains_by_side() else 1

    def action_brain(self) -> None:
        """The whole brain of the learner shown (at 80 columns with two, the one in view)."""
        from sticks_tui.ui.screens.brain import BrainScreen

        seat, side = self._seat_in_view(), self.brain_side
        draws = self.draws.get(seat) if seat is not None else None
        in_play = draws[-1] if draws and self.brains[seat].kept else None  # the box in play and the bead drawn
        self.app.push_screen(BrainScreen(self.setup.game, side, in_play))

    def action_slower(self) -> None:
        i = SPEED_ORDER.index(self.speed)
        self.speed = SPEED_ORDER[max(0, i - 1)]
        self.app.remember(ai_speed=self.speed)
        self.notify(f"AI speed: {self.speed} ({SPEEDS[self.speed]:g} s a move)", timeout=2)

    def action_faster(self) -> None:
        i = SPEED_ORDER.index(self.speed)
        self.speed = SPEED_ORDER[min(len(SPEED_ORDER) - 1, i + 1)]
        self.app.remember(ai_speed=self.speed)
        self.notify(f"AI speed: {self.speed} ({SPEEDS[self.speed]:g} s a move)", timeout=2)

    def action_swap_first(self) -> None:
        """The seats' switch: from the next game the other player moves first (which seat the learning AI moves
        first from; in noughts, who plays X), saved as the game's "who moves first", so the setup screen shows it
        and the next start plays it."""
        from dataclasses import replace

        first = ("p2", "p1")[self.first]
        self.setup = replace(self.setup, first=first)
        self.app.remember_game(self.setup.game, first=first)
        name = self.players[1 - self.first].name
        mark = self.board.sides[0] if self.board.sides else ""
        self.query_one("#log", MoveLog).write(f"From the next game {name} moves first{f' ({mark})' if mark else ''}.")

    # -- showing ---------------------------------------------------------------------------------------
    def perfect_moves(self, position) -> tuple:
        from sticks_tui.solve import solver_for

        if self.rules.is_terminal(position):
            return ()
        return tuple(solver_for(self.rules).winning_moves(position))

    def show_state(self) -> None:
        game = self.game
        state = game.state
        over = game.is_over
        person = any(p.is_human for p in self.players)
        playable = game.waiting_for_human
        position = state.position
        perfect = self.perfect_moves(position) if self.perfect_shown and playable else ()
        container, drawn, changes, note, box_position, mirrored = None, None, (), "", None, ()
        learner = self._learner_in_view()
        if learner is not None and not over:
            # the box shows while its learner is to move, and the one it drew from until the next move
            if self._drawn is not None and self._drawn[0] == learner:
                box_position, drawn = self._drawn[1], self._drawn[2]
            elif state.to_move == learner:
                box_position = position
            if box_position is not None:
                brain, moves = self.brains[learner].brain, tuple(self.rules.legal_moves(box_position))
                container = brains.container_of(brain, box_position, moves)
                mirrored = brains.mirrored_moves(brain, box_position, moves) if container is not None else ()
                if container is None:
                    drawn = None
                if box_position == position:
                    box_position = None
        if over:
            changes = tuple((c.hat, c.ball, c.before, c.after) for e in self.taught.values() for c in e.changes)
            note = self.result_text
        self.query_one("#board", GameBoard).view = BoardView(
            self.rules, position, self._last, controls=person and not over and not self.setup.watch,
            playable=playable, perfect=perfect, container=container, drawn=drawn, changes=changes, note=note,
            box_position=box_position if container is not None else None, mirrored=mirrored)
        turn = self.query_one("#turn", Static)
        if over:
            text = self.result_text
            if self.setup.watch and self.paused:  # said on screen for as long as it lasts, never a toast only
                text += (" Paused: s shows the lesson, space goes on." if self.lessons
                         else " Paused: s starts the next game, space goes on.")
            if turn.content != text or self._turn_shape is not None:
                turn.update(text)  # laid out, so a long result wraps whole (once: shown again, it is as it was)
            self._turn_shape = None
            turn.set_class(True, "-over")
        else:
            turn.set_class(False, "-over")
            name = self.seat_name(state.to_move)
            if playable:
                paused = " (Paused: the AI waits; space goes on.)" if self.paused else ""
                self._say_turn(turn, f"{name}'s turn: {self.query_one('#board', GameBoard).prompt()}{paused}")
            elif self.paused:
                steps = "s steps one move, " if self.setup.watch else ""
                self._say_turn(turn, f"Paused before {name}'s move: {steps}space goes on.")
            elif self._pending is not None:
                self._say_turn(turn, f"{name} drew {MARK_DRAWN} from its "
                               f"{brains.words(self.players[state.to_move].hats).container} ...")
            else:
                self._say_turn(turn, f"{name} is thinking ...")
        self._show_hint(perfect, playable)
        self.query_one("#after").display = over and not self.setup.watch
        # The footer is told only when a label or a key's state changed (show_state runs at every move).
        relabelled = relabel(self, "game.pause", "Paused" if self.paused else "Pause")
        # a person's game: the key pauses the AI whenever pressed, and the footer shows it while paused, in the place
        # of the AI's speed (80 columns hold the game's own keys and F1 beside them, not every key)
        relabelled |= reshow(self, "game.pause", self.setup.watch or self.paused)
        relabelled |= reshow(self, "game.slower", self.setup.watch or not self.paused)
        relabelled |= relabel(self, "game.step", f"Step: {self.next_step()}")
        shown = (playable, over, self.check_action("play_again", ()), self.check_action("pause", ()))
        if shown != self._bindings_shown or relabelled:
            self._bindings_shown = shown
            self.refresh_bindings()

    def _show_hint(self, perfect: tuple, playable: bool) -> None:
        hint = self.query_one("#hint", Static)
        if not self.perfect_shown or not playable:
            hint.display = False
            return
        position = self.game.state.position
        label = lambda move: self.board.label(self.rules, position, move)  # noqa: E731
        if perfect:
            text = f"{MARK_PERFECT} Perfect here: " + ", ".join(label(m) for m in perfect) + "."
        else:
            text = "No move here wins against perfect play."
        if self.board.hint is not None:
            text += " " + self.board.hint(position)
        hint.display = True
        hint.update(text)

    def _learner_in_view(self) -> int | None:
        """The learner whose container the board shows (the one to move, else the first shown)."""
        seats = self.shown_seats
        if not seats:
            return None
        to_move = self.game.state.to_move if self.game is not None else None
        return to_move if to_move in seats else seats[0]

    # -- the brains beside the board ------------------------------------------------------------------
    def _panel_seats(self) -> list[tuple[BrainPanel, int | None, KeptBrain | None]]:
        panels = list(self.query(BrainPanel))
        seats = self.shown_seats
        if not seats:
            return [(panel, None, self._idle_brain()) for panel in panels]
        return [(panel, seat, self.brains[seat]) for panel, seat in zip(panels, seats)]

    def _panel_title(self, seat: int | None, kept: KeptBrain) -> str:
        w = brains.words(kept.brain)
        if seat is None:
            return f"The learning AI's {w.containers} (not playing)"
        mark = self.board.side_of(self.first, seat)
        whose = self.players[seat].name + (f" ({mark})" if mark else "")
        kept_words = "" if kept.kept else " (not kept)"
        return f"{whose}'s {w.containers}{kept_words}"

    def _show_brains(self, reset: bool = False, flash: dict | None = None) -> None:
        """Each learner's brain now: ► its token just drawn, • the others beside their containers; after a
        game its lesson (`flash`, by seat), which stays until the next game starts (`reset`)."""
        for panel, seat, kept in self._panel_seats():
            if kept is None:
                continue
            _set_text(panel.query_one(".brain-title", Label), self._panel_title(seat, kept))
            if panel.grid:
                self._show_grid(panel.query_one(HatHeatmap), seat, kept, reset, (flash or {}).get(seat))
            else:
                self._show_container(panel, seat, kept)

    def _show_grid(self, heatmap: HatHeatmap, seat: int | None, kept: KeptBrain, reset: bool, flash) -> None:
        from sticks_tui.solve import solver_for

        brain = kept.brain
        shown = min(brain.size, max(self.rules.positions()))
        data = heatmap.data
        counts = brain.counts.copy()
        if reset or data.hats != shown:
            solution = solver_for(self.rules)
            data = HeatmapData(hats=shown, max_take=brain.max_take,
                               perfect=tuple(tuple(solution.winning_moves(n)) if n else () for n in range(shown + 1)))
        draws = self.draws.get(seat, []) if seat is not None else []
        beside = frozenset(draws) if seat is not None and seat not in self.taught else frozenset()
        pending = [e for e in self.lessons if seat is not None and e.player == seat]
        for event in pending:  # learned already, told at the next beat: the hats as the game left them
            for c in event.changes:
                counts[brain.row(c.hat), brain.moves_of(c.hat).index(c.ball)] = c.before
            beside = beside | {(c.hat, c.ball) for c in event.changes}
        if flash is not None:
            beside = frozenset()
            data = data.with_(flash=flash)
        drawn = self._drawn[1:] if self._drawn is not None and self._drawn[0] == seat else None
        heatmap.data = data.with_(counts=counts, beside=beside, drawn=drawn)

    def _show_container(self, panel: BrainPanel, seat: int | None, kept: KeptBrain) -> None:
        """The container in play: the learner's for this position while it is to move; the one it last
        drew from (the token marked) while the other thinks; after the game, that one as the game left it."""
        game, brain = self.game, kept.brain
        w = brains.words(brain)
        state = game.state
        draws = self.draws.get(seat, []) if seat is not None else []
        drawn = None
        if seat is not None and not game.is_over and state.to_move == seat and not (
                self._drawn is not None and self._drawn[0] == seat):
            position = state.position
        elif draws:
            position, drawn = draws[-1]
        else:
            position = state.position if not game.is_over else self.start
        view = panel.query_one(ContainerView)
        title = f"{w.container.capitalize()} for {self.rules.position_text(position)}"
        if self.rules.is_terminal(position):
            view.data = ContainerData(title=f"{title}: the game is over here, no {w.container}.")
            return
        moves = tuple(self.rules.legal_moves(position))
        counts = brains.container_of(brain, position, moves)
        if counts is None:
            view.data = ContainerData(title=f"{title}: no {w.container} (its move here is forced, or it never "
                                            "moves here).")
        else:
            lesson = self.taught.get(seat)
            changes = {c.ball: (c.before, c.after) for c in lesson.changes if c.hat == position} if lesson else {}
            view.data = ContainerData.of(title, moves, (self.board.label(self.rules, position, m) for m in moves),
                                         counts, perfect=self.perfect_moves(position) if self.perfect_shown else (),
                                         drawn=drawn, changes=changes, token=w.token,
                                         mirrored=brains.mirrored_moves(brain, position, moves))
        panel.query_one(".brain-draws", Static).update(self._draws_words(seat, kept))

    def _draws_words(self, seat: int | None, kept: KeptBrain) -> str:
        """Each token the learner drew this game: from which container, how likely it was, whether it was a
        perfect move, and once the game is over what the game did to it."""
        if seat is None or not self.draws.get(seat):
            return ""
        w = brains.words(kept.brain)
        lesson = self.taught.get(seat)
        changes = {(c.hat, c.ball): c for c in lesson.changes} if lesson else {}
        lines = [f"What this game taught it, {w.container} by {w.container}:" if lesson
                 else f"Its draws this game, {w.container} by {w.container}:"]
        for position, move, count, total in self._draw_odds.get(seat, []):
            good = f"{MARK_PERFECT} perfect" if move in self.perfect_moves(position) else "not perfect"
            line = (f"{self.rules.position_text(position)}: {MARK_DRAWN} {self.board.label(self.rules, position, move)}, "
                    f"{count:,} of {total:,} ({count / total:.0%}), {good}")
            change = changes.get((position, move))
            if change is not None:
                line += f"; {change.before:,} → {change.after:,}"
            lines.append(line + ".")
        return "\n".join(lines)

    # -- the tally -------------------------------------------------------------------------------------
    @property
    def plotted_seat(self) -> int:
        """Whose results the tally plots: a learner's (the kept brain's), else an AI's, else player 2's."""
        seats = self.shown_seats
        if seats:
            return seats[0]
        return next((seat for seat, p in enumerate(self.players) if not p.is_human), 1)

    def _show_tally(self) -> None:
        from sticks_tui.store import StoreError

        names = (self.players[0].name, self.players[1].name)
        winners = [w for a, b, w in self.session.results if (a, b) == names]
        try:
            overall = self.session.store.head_to_head(*names, game=self.setup.game)
        except (StoreError, AttributeError):
            overall = None
        tally = self.query_one("#tally", Static)
        seat = self.plotted_seat
        kept = self.brains.get(seat)
        plotted_as = None
        if kept is not None:  # a learner: its games with the brain in play (its side's) against this opponent
            plotted_as = (self.seat_name(seat), self.session.learner_results.get(self._results_key(seat), []))
        # the learner's line may take two rows: its name, its opponent's, the marks and their key ("● won 12, ...")
        width = max(5, 2 * tally.size.width - len(names[seat]) - len(names[1 - seat]) - 48)
        tally.update(tally_text(names, winners, overall, seat, width, plotted_as))

    def _results_key(self, seat: int) -> tuple[str, str, str]:
        """Where a learner's results this session are kept: its game, its brain's name, its opponent's name."""
        return self.setup.game, self.brains[seat].name, self.players[1 - seat].name

    # -- the core's events -----------------------------------------------------------------------------
    def on_ball_drawn_msg(self, message: BallDrawnMsg) -> None:
        event = message.event
        if event.player not in self.draws:
            return
        self.draws[event.player].append((event.hat, event.ball))
        moves = tuple(self.rules.legal_moves(event.hat))
        self._draw_odds[event.player].append((event.hat, event.ball, event.counts[moves.index(event.ball)],
                                              sum(event.counts)))
        self._drawn = (event.player, event.hat, event.ball)
        self._show_brains()
        self.show_state()

    def on_move_made_msg(self, message: MoveMadeMsg) -> None:
        event = message.event
        log = self.query_one("#log", MoveLog)
        line = self.board.words_of_move(self.rules, self.seat_name(event.player), event.before, event.move, event.after)
        if self._drawn is not None and self._drawn[0] == event.player and self._drawn[1] == event.before:
            w = brains.words(self.players[event.player].hats)
            line = f"{self.board.words_of_draw(self.rules, event.name, event.before, event.move, w)} {line}"
        log.write(line)
        if self._drawn is not None and self._drawn[0] != event.player:
            self._drawn = None  # the other player moved: the learner's token is beside its container now (•)
        self._last = (event.before, event.move)  # the board shows the move happen (sticks leaving)
        self.show_state()
        self._last = None
        self._show_brains()

    def on_hats_reinforced_msg(self, message: HatsReinforcedMsg) -> None:
        self.lessons.append(message.event)
        if not self.setup.watch:
            self._tell_lessons()  # a person played: the lesson comes with the result

    def _tell_lessons(self) -> None:
        """The game's lessons in the log, and on each learner's brain (↑ ↓ =, until the next game starts)."""
        lessons, self.lessons = self.lessons, []
        log = self.query_one("#log", MoveLog)
        flash = {}
        for event in lessons:
            brain = self.brains[event.player].brain if event.player in self.brains else None
            label = lambda position, move: self.board.label(self.rules, position, move)  # noqa: E731
            detail = any(panel.grid for panel in self.query(BrainPanel))  # a container view lists them itself
            log.write(brains.lesson_line(self.seat_name(event.player), event, brain, label, detail=detail))
            self.taught[event.player] = event
            flash[event.player] = tuple((c.hat, c.ball, c.delta) for c in event.changes)
        self._drawn = None
        self._show_brains(flash=flash)
        self.show_state()

    def on_game_over_msg(self, message: GameOverMsg) -> None:
        event = message.event
        game = self.game
        log = self.query_one("#log", MoveLog)
        winner = None if event.winner is None else self.seat_name(event.winner)
        loser = None if event.loser is None else self.seat_name(event.loser)
        self.result_text = self.board.words_of_result(self.rules, game.state.position, winner, loser, event.resigned)
        if event.winner is None or event.resigned:  # the moves in the log do not say it
            log.write(self.result_text)
        if event.winner is not None:
            log.write(f"{event.loser_name}: You lose.  {event.winner_name}: You win!")
        if any(not p.is_human for p in self.players) and any(p.is_human for p in self.players):
            log.write(f"{self.players[1].name} says 'That was fun, thank you!'")
        self._record(event)
        self.session.results.append((self.players[0].name, self.players[1].name, event.winner_name))
        for seat in self.brains:
            outcome = "drawn" if event.winner is None else "won" if event.winner == seat else "lost"
            self.session.learner_results.setdefault(self._results_key(seat), []).append(outcome)
        self._show_tally()
        self._drawn = None
        self._show_brains()  # the brains as stored now; in watch mode as the game left them
        self.show_state()
        if self.setup.watch and not self.paused:
            self._beat_timer = self.set_timer(max(0.01, self._delay()), self._lesson_beat)

    def _record(self, event) -> None:
        """Keep the finished game; each kept learner's lesson goes to its stored brain in the same transaction,
        and it plays on with the brain as stored (what every copy taught it). If the store cannot take it, the
        app says why and the keeper's one failure behaviour follows (ui/keeper.py)."""
        state, entry = self.game.state, self.entry
        learning = {seat: (kept.name, list(self.draws.get(seat, []))) for seat, kept in self.brains.items()
                    if kept.kept}
        person = any(p.is_human for p in self.players)
        named = next((self.brains[s].name for s in self.learner_seats if self.brains[s].kept), None)
        fields = dict(game=self.setup.game, start=entry.record_start(self.start), opponent=self.setup.opponent,
                      players=(self.players[0].name, self.players[1].name),
                      moves=[entry.record_move(self.rules, t.move) for t in state.history], loser=event.loser,
                      ai_seats=[seat for seat, p in enumerate(self.players) if not p.is_human], first=self.first,
                      resigned=event.resigned)
        if named is not None and person:
            fields["brain"] = named
        first_seat = next(iter(learning), None)
        first = self.brains[first_seat] if first_seat is not None else None
        recorded, saved = self.app.keeper.record(fields, learning or None, hats=first.brain if first else None,
                                                 base=first.base if first else None)
        if recorded is not None:
            for seat, stored in recorded.brains.items():
                kept = self.brains.get(seat)
                if kept is not None:
                    kept.adopt(stored.counts)
            return
        if saved is not None and first is not None and saved.counts.shape == first.brain.counts.shape:
            first.base = saved.counts.copy()
        for seat, kept in list(self.brains.items())[1:]:
            if kept.kept and kept is not first:
                stored = self.app.keeper.save(kept.name, kept.brain, kept.base, 0)
                if stored is not None:
                    kept.base = kept.brain.counts.copy()

    def _lesson_beat(self) -> None:
        """Watch mode, going on: the lesson at its own beat, then the next game after a pause."""
        self._beat_timer = None
        self._tell_lessons()
        if self.setup.watch and not self.paused:
            self._beat_timer = self.set_timer(max(WATCH_NEXT_GAME, self._delay()), self._next_watched_game)

    def _stop_beat(self) -> None:
        if self._beat_timer is not None:
            self._beat_timer.stop()
            self._beat_timer = None

    def _next_watched_game(self) -> None:
        self._beat_timer = None
        if self.setup.watch and not self.paused and self.game.is_over and self.is_current:
            self.new_game()

    # -- the app's news ---------------------------------------------------------------------------------
    def _training_changed(self, progress) -> None:
        """A run that ends is merged into the brain in play: show it as it is now."""
        if progress is not None and progress.finished and not self.session.training.running:
            self._show_brains()

    def _class_changed(self, change) -> None:
        """A classmate's game (or training run) taught a brain shown here: the brain as stored now, each
        token it changed marked ↑/↓ until the next game starts, and whose game it was over the brain."""
        if change is None:
            return
        from sticks_tui.ui.live import other_brain_words

        for panel, seat, kept in self._panel_seats():
            if kept is None or not kept.kept:
                continue
            cells = change.changes_of(kept.name)
            if not cells:
                continue
            w = brains.words(kept.brain)
            if kept.name == change.brain and change.words:
                words = change.words
            else:
                words = other_brain_words(change, kept.name, lambda p, m: f"{w.container} {p}, "
                                          f"{self.board.label(self.rules, p, m)}", f"the class's {w.containers} changed")
            if panel.grid:
                self._show_grid(panel.query_one(HatHeatmap), seat, kept, False, None)
                heatmap = panel.query_one(HatHeatmap)
                heatmap.data = heatmap.data.with_(flash=tuple(c for c in cells if c[0] <= heatmap.data.hats))
            else:
                self._show_container(panel, seat, kept)
            panel.query_one(".brain-title", Label).update(f"{self._panel_title(seat, kept)} · {words}")
