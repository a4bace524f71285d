"""The game screen: the sticks, Take 1/2/3, whose turn it is, the move log, and the live hat heatmap."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Button, Label, Static

from sticks_tui.engine.events import BallDrawn, HatsReinforced
from sticks_tui.play.game import GameDriver
from sticks_tui.play.players import HatPlayer, HumanPlayer
from sticks_tui.engine.rules import new_game, sticks_word
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.lesson_words import lesson_sentence
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.bindings import relabel
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.messages import BallDrawnMsg, GameOverMsg, HatsReinforcedMsg, MoveMadeMsg
from sticks_tui.ui.screens.base import GameScreenBase
from sticks_tui.ui.session import SPEEDS, MatchSetup, make_opponent
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.sticks_view import SticksView
from sticks_tui.ui.widgets.training_badge import TrainingBadge
from sticks_tui.ui.widgets.header import AppHeader

LEAVE_SECONDS = 0.7
WATCH_NEXT_GAME = 1.0  # pause between games when watching AI vs AI
SPEED_ORDER = list(SPEEDS)


def move_sentence(name: str, take: int, before: int, after: int) -> str:
    """The seeds' words: "Jamie takes 3 sticks, there are 17 sticks remaining." """
    if after == 0:
        if take == 1:
            return f"{name} has to take the final stick and loses."
        return f"{name} takes the last {take} sticks and loses."
    remaining = "there is 1 stick remaining" if after == 1 else f"there are {after} sticks remaining"
    return f"{name} takes {take} {sticks_word(take)}, {remaining}."


def tally_text(names: tuple[str, str], winners: list[str], overall: tuple[int, int] | None, plotted: int,
               width: int = 30) -> str:
    """The two players' wins this session (and in all, from the records), and one player's results game by
    game (● won, ○ lost; the last `width` games): a tally sheet a class can read from the back."""
    a, b = names
    if winners:
        line = f"This session: {a} {winners.count(a)}, {b} {winners.count(b)}"
    else:
        line = "This session: no game finished yet"
    if overall is not None and sum(overall):
        line += f" (in all: {overall[0]}, {overall[1]})" if winners else f" (in all: {a} {overall[0]}, {b} {overall[1]})"
    line += "."
    if not winners:
        return line
    who = names[plotted]
    marks = "".join("●" if w == who else "○" for w in winners[-width:])
    more = "… " if len(winners) > width else ""
    return f"{line}\n{who}: {more}{marks} (● won, ○ lost)"


def move_line(name: str, take: int, before: int, after: int, draw: tuple | None = None) -> str:
    """A move in the log (game screen and replay): the ball drawn, if any ((hat, ball)), then the move."""
    sentence = move_sentence(name, take, before, after)
    return sentence if draw is None else f"{name} draws ball {draw[1]} from hat {draw[0]}. {sentence}"


class GameScreen(GameScreenBase):
    BINDINGS = [
        Binding("1", "take(1)", "Take", key_display="1-3", id="game.take1", tooltip="Take 1 stick"),
        Binding("2", "take(2)", "Take 2", show=False, id="game.take2", tooltip="Take 2 sticks"),
        Binding("3", "take(3)", "Take 3", show=False, id="game.take3", tooltip="Take 3 sticks"),
        Binding("n", "play_again", "Play again", id="game.play_again"),
        Binding("enter", "play_again", "Play again", show=False, id="game.play_again.enter"),
        Binding("space", "pause", "Pause", id="game.pause", tooltip="Pause, or go on (AI vs AI)"),
        Binding("s", "step", "Step", id="game.step",
                tooltip="Step (AI vs AI): one move, one ball drawn; at the end the lesson; then the next game"),
        Binding("p", "toggle_perfect", "Perfect", id="game.perfect", tooltip="Show or hide the perfect moves (✓)"),
        Binding("minus", "slower", "Speed", key_display="-/+", id="game.slower",
                tooltip="AI slower: a longer pause before each of its moves"),
        Binding("plus,equals_sign", "faster", "Faster", show=False, id="game.faster",
                tooltip="AI faster: a shorter pause before each of its moves"),
        Binding("escape", "back", "Setup", id="game.back", tooltip="Back to the setup screen"),
    ]
    COMMANDS = {screen_commands(
        ("Play again", "Start the next game (when this one is over)", "play_again"),
        ("Show the perfect moves", "Mark the winning ball of each winning hat on the heatmap", "toggle_perfect"),
        ("Pause or go on", "Pause the AI vs AI game, or let it go on", "pause"),
        ("Step", "AI vs AI: one move (one ball drawn), then the lesson of the game's end, then the next game", "step"),
        ("AI faster", "Shorter pauses before the AI's moves", "faster"),
        ("AI slower", "Longer pauses before the AI's moves", "slower"),
    )}

    def __init__(self, setup: MatchSetup, trained_brain: Hats | None = None) -> None:
        self.trained_brain = trained_brain
        self._beat_timer: Timer | None = None  # watch mode: the lesson's beat, then the next game
        self._pending_draw: dict[int, BallDrawn] = {}
        self._drawn: tuple[int, int, int] | None = None  # (seat, hat, ball): the learner's ball just drawn
        self._lessons: list[HatsReinforced] = []  # watch mode: the game's lessons, told at their own beat
        self._bindings_shown: tuple | None = None  # what the footer was last told (see show_state)
        super().__init__(setup)

    # -- players -------------------------------------------------------------------------------
    def make_players(self):
        session = self.app.session
        setup = self.setup
        rng = session.rng
        kind = setup.opponent
        if kind == "learning":
            brain = session.brain
        elif kind == "trained":
            brain = self.trained_brain
        else:
            brain = None
        if setup.watch:
            first = make_opponent("learning", setup.name1, brain=session.brain, rng=rng, bus=self.bus)
            if kind == "learning":  # its sparring partner has a brain of its own, never the same one
                brain = Hats(session.brain.size)
        else:
            first = HumanPlayer(setup.name1)
        second = (HumanPlayer(setup.name2) if kind == "friend"
                  else make_opponent(kind, setup.name2, brain=brain, rng=rng, bus=self.bus))
        return [first, second]

    @property
    def learner(self) -> HatPlayer | None:
        """The learning player whose hats the heatmap shows (the saved brain's, if it plays)."""
        learners = [p for p in self.players if isinstance(p, HatPlayer)]
        for p in learners:
            if p.hats is self.session.brain:
                return p
        return learners[0] if learners else None

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Horizontal(id="game"):
            with Vertical(id="board"):
                yield Static("", id="turn")
                yield SticksView(id="sticks")
                yield Label("", id="count")
                yield Static("", id="tally")
                with Horizontal(id="moves"):
                    for n in (1, 2, 3):
                        yield Button(f"Take {n}", id=f"take-{n}", classes="take", action=f"screen.take({n})")
                with Horizontal(id="after"):
                    yield Button("Play again", id="again", variant="primary", action="screen.play_again")
                    yield Button("Setup", id="to-setup", action="screen.back")
                yield MoveLog(id="log")
            with Vertical(id="hats-panel"):
                yield Label("", id="hats-title")
                yield HatHeatmap(id="heatmap")
                yield Label("► drawn • beside ↑↓ learned ✓ perfect\n░▒▓█ and colour: chance of that ball",
                            id="hats-legend")
        yield TrainingBadge()
        yield KeysFooter()

    def on_mount(self) -> None:
        names = " vs ".join(p.name for p in self.players)
        self.sub_title = names
        learner = self.learner
        title = self.query_one("#hats-title", Label)
        if learner is None:
            self._hats_title = "The learning AI's hats (not playing)"
        else:
            self._hats_title = f"{learner.name}'s hats"
        title.update(self._hats_title)
        self.new_game()
        self._show_tally()
        self.watch(self.app, "training", self._training_changed, init=False)
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def _class_changed(self, change) -> None:
        """A classmate's game (or training run) taught the class's brain: the hats as stored now, each cell it
        changed marked ↑/↓ until the next game starts, and whose game it was over the hats."""
        if change is None:
            return
        learner = self.learner
        if learner is not None and learner.hats is not self.session.brain:
            return  # another brain (the trained AI's): the class's games do not teach it
        if change.cells:
            self._refresh_heatmap()  # this game's own marks (► •) stay
            heatmap = self.query_one(HatHeatmap)
            shown = tuple(c for c in change.cells if c[0] <= heatmap.data.hats)
            heatmap.data = heatmap.data.with_(flash=shown)
        if change.words:
            self.query_one("#hats-title", Label).update(f"{self._hats_title} · {change.words}")

    def _training_changed(self, progress) -> None:
        """A run that ends is merged into the hats in play: show them as they are now."""
        if progress is not None and progress.finished and not self.app.session.training.running:
            self._refresh_heatmap()

    # -- the tally: wins this session and in all, and the AI's results game by game ---------------------
    @property
    def plotted_seat(self) -> int:
        """Whose results the tally plots: the learning AI's (the saved brain's), else an AI's, else player 2's."""
        learner = self.learner
        if learner is not None:
            return self.players.index(learner)
        return next((seat for seat, p in enumerate(self.players) if not p.is_human), 1)

    def _show_tally(self) -> None:
        from sticks_tui.store import StoreError

        names = (self.players[0].name, self.players[1].name)
        winners = [w for a, b, w in self.session.results if (a, b) == names]
        try:
            overall = self.session.store.head_to_head(*names)
        except (StoreError, AttributeError):
            overall = None
        width = max(5, self.query_one("#tally").size.width - len(names[self.plotted_seat]) - 20)
        self.query_one("#tally", Static).update(tally_text(names, winners, overall, self.plotted_seat, width))

    # -- the game loop -------------------------------------------------------------------------
    def make_game(self, first: int) -> GameDriver:
        self._pending_draw.clear()
        self._drawn = None
        self._lessons = []
        self._stop_beat()
        return GameDriver(self.players, new_game(self.setup.heap, first), self.bus)

    def start_round(self, first: int) -> None:
        log = self.query_one("#log", MoveLog)
        log.write(f"Game {self.round}: {self.setup.heap} sticks on the board. "
                  f"{self.players[first].name} moves first.")
        for player in self.players:
            if not player.is_human and self.round == 1 and not self.setup.watch:
                log.write(f"{player.name} says 'I, the AI, will hope to defeat you!'")
        self.query_one(SticksView).show(self.setup.heap)
        self._refresh_heatmap(reset=True)  # the last game's marks go with it

    def action_take(self, n: int) -> None:
        game = self.game
        if game is None or not game.waiting_for_human or not game.state.is_legal(n):
            self.app.bell()
            if game is not None and game.waiting_for_human:
                heap = game.state.position
                self.notify(f"Only {heap} {sticks_word(heap)} left: take {game.state.legal_moves[-1]} "
                            "at most.", severity="warning", timeout=2)
            return
        game.play(n)
        self.advance()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        game = self.game
        if game is None:
            return True
        if action == "take":
            if game.is_over or not any(p.is_human for p in self.players):
                return False  # no one here takes sticks by hand now: off the footer
            return True if game.waiting_for_human and game.state.is_legal(parameters[0]) else None
        if action == "play_again":
            if self.setup.watch:
                return False  # watching, the next game comes by itself, or by a step (s) or space: off the footer
            return game.is_over
        if action in ("pause", "step"):
            return self.setup.watch
        return True

    # -- controls ------------------------------------------------------------------------------
    def next_step(self) -> str:
        """What the step key does next (watch mode): 'draw', 'lesson' or 'new game'."""
        game = self.game
        if game is None or game.is_over:
            return "lesson" if self._lessons else "new game"
        return "draw"

    def show_state(self) -> None:
        game = self.game
        over = game.is_over
        for n in (1, 2, 3):
            legal = game.waiting_for_human and game.state.is_legal(n)
            self.query_one(f"#take-{n}", Button).disabled = not legal
        self.query_one("#moves").display = not over and not self.setup.watch  # watching, nobody takes by hand
        self.query_one("#after").display = over
        self.query_one("#again").display = not self.setup.watch
        turn = self.query_one("#turn", Static)
        heap = game.state.position
        count = self.query_one("#count", Label)
        # fixed-size lines: new text needs no layout of the whole screen (that cost ~25 ms a move)
        # the seeds never say "There are 0 sticks on the board.": the game is over, and the turn line says so
        count.update("" if heap == 0 else f"There {'is' if heap == 1 else 'are'} {heap} {sticks_word(heap)} "
                     "on the board.", layout=False)
        if over:
            text = self.result_text
            if self.setup.watch and self.paused:  # said on screen for as long as it lasts, never a toast only
                text += (" Paused: s shows the lesson, space goes on." if self._lessons
                         else " Paused: s starts the next game, space goes on.")
            turn.update(text)  # laid out, so a long result wraps whole
            turn.set_class(True, "-over")
        else:
            turn.set_class(False, "-over")
            player = game.current
            top = game.state.legal_moves[-1]
            if player.is_human:
                choices = "1" if top == 1 else ", ".join(map(str, range(1, top))) + f" or {top}"
                turn.update(f"{player.name}'s turn: take {choices} (keys or buttons).", layout=False)
            elif self.paused:
                turn.update(f"Paused before {player.name}'s move: s steps one move, space goes on.", layout=False)
            else:
                turn.update(f"{player.name} is thinking ...", layout=False)
        if over and not self.setup.watch:
            self.query_one("#again", Button).focus()
        # The footer is told only when a label or a key's state changed (show_state runs at every move).
        relabelled = relabel(self, "game.pause", "Resume" if self.paused else "Pause")
        relabelled |= relabel(self, "game.step", f"Step: {self.next_step()}")
        shown = (*(self.check_action("take", (n,)) for n in (1, 2, 3)),
                 self.check_action("play_again", ()), self.check_action("pause", ()))
        if shown != self._bindings_shown or relabelled:
            self._bindings_shown = shown
            self.refresh_bindings()

    def action_pause(self) -> None:
        if not self.setup.watch:
            return
        self.paused = not self.paused
        if not self.paused:
            if self.game.is_over:
                if self._lessons:
                    self._lesson_beat()
                else:
                    self.new_game()
            else:
                self.advance()
        else:
            self._stop_ai()
            self._stop_beat()
            self.show_state()

    def action_step(self) -> None:
        """Watch mode: one move (one ball drawn); at the game's end its lesson; then the next game."""
        if not self.setup.watch:
            return
        if not self.paused:
            self.paused = True
            self._stop_ai()
            self._stop_beat()
        game = self.game
        if game.is_over:
            if self._lessons:
                self._show_lessons()
                self.show_state()
                return
            self.new_game()  # paused: it waits before its first move, which this step plays
            game = self.game
        if not game.is_over and not game.waiting_for_human:
            game.step()
        self.show_state()

    def action_toggle_perfect(self) -> None:
        heatmap = self.query_one(HatHeatmap)
        heatmap.show_perfect = not heatmap.show_perfect

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

    # -- core events ---------------------------------------------------------------------------
    def on_ball_drawn_msg(self, message: BallDrawnMsg) -> None:
        event = message.event
        self._pending_draw[event.player] = event
        if self.learner is not None and event.name == self.learner.name:
            self._drawn = (event.player, event.hat, event.ball)
            self._refresh_heatmap()

    def on_move_made_msg(self, message: MoveMadeMsg) -> None:
        event = message.event
        draw = self._pending_draw.pop(event.player, None)
        self.query_one("#log", MoveLog).write(move_line(event.name, event.move, event.before, event.after,
                                                        None if draw is None else (draw.hat, draw.ball)))
        sticks = self.query_one(SticksView)
        sticks.show(event.after, event.move)
        self.set_timer(LEAVE_SECONDS, lambda: sticks.show(sticks.heap, 0))
        if self._drawn is not None and self._drawn[0] != event.player:
            self._drawn = None  # the other player moved: the learner's ball is beside its hat now (•), not ►
            self._refresh_heatmap()

    def on_hats_reinforced_msg(self, message: HatsReinforcedMsg) -> None:
        self._lessons.append(message.event)
        if not self.setup.watch:
            self._show_lessons()  # a person played: the lesson comes with the result

    def _show_lessons(self) -> None:
        """The game's lessons in the log, and the learner's on its hats (↑ ↓ =, until the next game starts)."""
        lessons, self._lessons = self._lessons, []
        log = self.query_one("#log", MoveLog)
        learner = self.learner
        for event in lessons:
            hats = next((p.hats for p in self.players if p.name == event.name and isinstance(p, HatPlayer)), None)
            rule = hats.rule if hats is not None else self.session.brain.rule
            log.write(lesson_sentence(event.name, event.won, event.changes, rule))
            if learner is not None and event.name == learner.name:
                self._drawn = None
                self._refresh_heatmap(flash=tuple((c.hat, c.ball, c.delta) for c in event.changes))

    def on_game_over_msg(self, message: GameOverMsg) -> None:
        event = message.event
        log = self.query_one("#log", MoveLog)
        self.result_text = f"{event.loser_name} took the last stick and loses. {event.winner_name} wins!"
        log.write(f"{event.loser_name}: You lose.  {event.winner_name}: You win!")
        if any(not p.is_human for p in self.players) and not self.setup.watch:
            log.write(f"{self.players[1].name} says 'That was fun, thank you!'")
        session = self.session
        state = self.game.state
        # the saved brain's lesson is kept with the game (what a replay shows) and applied to it as stored,
        # in the same transaction; if the store cannot take it, the app says so and the copy's change is
        # merged onto the brain as stored (never written over; ui/keeper.py)
        seats = [seat for seat, p in enumerate(self.players)
                 if isinstance(p, HatPlayer) and p.hats is session.brain and session.brain_kept]
        learning = {seat: (session.brain_name, [(m.before, m.move) for m in state.history if m.player == seat])
                    for seat in seats} or None
        # the brain's own record counts games against people
        self.record_finished_game(
            game="sticks", start=str(state.start), moves=[m.move for m in state.history], loser=event.loser,
            brain=session.brain_name if self.setup.opponent == "learning" and not self.setup.watch else None,
            learning=learning, hats=session.brain if learning else None)
        self.session.results.append((self.players[0].name, self.players[1].name, event.winner_name))
        self._show_tally()
        self._drawn = None
        self._refresh_heatmap()  # the brain as stored now; in watch mode the hats as the game left them

        self.show_state()
        if self.setup.watch and not self.paused:
            self._beat_timer = self.set_timer(max(0.01, self._delay()), self._lesson_beat)

    def _lesson_beat(self) -> None:
        """Watch mode, going on: the lesson at its own beat, then the next game after a pause."""
        self._beat_timer = None
        self._show_lessons()
        self.show_state()
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

    # -- heatmap -------------------------------------------------------------------------------
    def _refresh_heatmap(self, reset: bool = False, flash: tuple | None = None) -> None:
        """The learner's hats now: ► its ball just drawn, • the others beside their hats; after a game
        its lesson (`flash`), which stays until the next game starts (`reset`)."""
        heatmap = self.query_one(HatHeatmap)
        learner = self.learner
        hats = learner.hats if learner is not None else self.session.brain
        shown = min(hats.size, self.setup.heap)
        data = heatmap.data
        counts = hats.counts.copy()
        if reset or data.hats != shown:
            solution = solve_sticks(shown)
            data = HeatmapData(hats=shown, max_take=hats.max_take,
                               perfect=tuple(solution.winning_moves(n) for n in range(shown + 1)))
        beside = frozenset(learner.beside) if learner is not None else frozenset()
        pending = [e for e in self._lessons if learner is not None and e.name == learner.name]
        for event in pending:  # learned already, told at the next beat: the hats as the game left them
            for c in event.changes:
                counts[c.hat, c.ball - 1] = c.before
            beside = beside | {(c.hat, c.ball) for c in event.changes}
        if flash is not None:
            beside = frozenset()
            data = data.with_(flash=flash)
        drawn = self._drawn[1:] if self._drawn is not None else None
        heatmap.data = data.with_(counts=counts, beside=beside, drawn=drawn)
