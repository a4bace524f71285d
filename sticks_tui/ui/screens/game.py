"""The game screen: the sticks, Take 1/2/3, whose turn it is, the move log, and the live hat heatmap."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Label, Static

from sticks_tui.engine.events import BallDrawn
from sticks_tui.engine.game import Game
from sticks_tui.engine.players import HatPlayer, HumanPlayer
from sticks_tui.engine.rules import sticks_word
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.lesson_words import lesson_sentence
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.messages import BallDrawnMsg, GameOverMsg, HatsReinforcedMsg, MoveMadeMsg
from sticks_tui.ui.screens.base import GameScreenBase
from sticks_tui.ui.session import SPEEDS, MatchSetup, make_opponent
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.sticks_view import SticksView
from sticks_tui.ui.widgets.training_badge import TrainingBadge

LEAVE_SECONDS = 0.7
FLASH_SECONDS = 3.0
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


def move_line(name: str, take: int, before: int, after: int, draw: tuple | None = None) -> str:
    """A move in the log (game screen and replay): the ball drawn, if any ((hat, ball)), then the move."""
    sentence = move_sentence(name, take, before, after)
    return sentence if draw is None else f"{name} draws ball {draw[1]} from hat {draw[0]}. {sentence}"


class GameScreen(GameScreenBase):
    BINDINGS = [
        Binding("1", "take(1)", "Take", key_display="1-3", id="game.take1"),
        Binding("2", "take(2)", "Take 2", show=False, id="game.take2"),
        Binding("3", "take(3)", "Take 3", show=False, id="game.take3"),
        Binding("n", "play_again", "Play again", id="game.play_again"),
        Binding("enter", "play_again", "Play again", show=False, id="game.play_again.enter"),
        Binding("space", "pause", "Pause", id="game.pause"),
        Binding("p", "toggle_perfect", "Perfect", id="game.perfect"),
        Binding("minus", "slower", "Speed", key_display="-/+", id="game.slower"),
        Binding("plus,equals_sign", "faster", "Faster", show=False, id="game.faster"),
        Binding("escape", "back", "Setup", id="game.back"),
    ]
    COMMANDS = {screen_commands(
        ("Play again", "Start the next game (when this one is over)", "play_again"),
        ("Show the perfect moves", "Mark the winning ball of each winning hat on the heatmap", "toggle_perfect"),
        ("Pause or go on", "Pause the AI vs AI game, or let it go on", "pause"),
        ("AI faster", "Shorter pauses before the AI's moves", "faster"),
        ("AI slower", "Longer pauses before the AI's moves", "slower"),
    )}

    def __init__(self, setup: MatchSetup, trained_brain: Hats | None = None) -> None:
        self.trained_brain = trained_brain
        self._flash_timer: Timer | None = None
        self._pending_draw: dict[int, BallDrawn] = {}
        self._bindings_shown: tuple | None = None  # what the Footer was last told (see show_state)
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
        yield Header()
        with Horizontal(id="game"):
            with Vertical(id="board"):
                yield Static("", id="turn")
                yield SticksView(id="sticks")
                yield Label("", id="count")
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
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        names = " vs ".join(p.name for p in self.players)
        self.sub_title = names
        learner = self.learner
        title = self.query_one("#hats-title", Label)
        if learner is None:
            title.update("The learning AI's hats (not playing)")
        else:
            title.update(f"{learner.name}'s hats")
        self.new_game()
        self.watch(self.app, "training", self._training_changed, init=False)

    def _training_changed(self, progress) -> None:
        """A run that ends is merged into the hats in play: show them as they are now."""
        if progress is not None and progress.finished and not self.app.session.training.running:
            self._refresh_heatmap()

    # -- the game loop -------------------------------------------------------------------------
    def make_game(self, first: int) -> Game:
        self._pending_draw.clear()
        return Game(self.players, self.setup.heap, first=first, bus=self.bus)

    def start_round(self, first: int) -> None:
        log = self.query_one("#log", MoveLog)
        log.write(f"Game {self.round}: {self.setup.heap} sticks on the board. "
                  f"{self.players[first].name} moves first.")
        for player in self.players:
            if not player.is_human and self.round == 1 and not self.setup.watch:
                log.write(f"{player.name} says 'I, the AI, will hope to defeat you!'")
        self.query_one(SticksView).show(self.setup.heap)
        self._refresh_heatmap(reset=True)

    def action_take(self, n: int) -> None:
        game = self.game
        if game is None or not game.waiting_for_human or not game.state.is_legal(n):
            self.app.bell()
            if game is not None and game.waiting_for_human:
                heap = game.state.heap
                self.notify(f"Only {heap} {sticks_word(heap)} left: take {min(heap, game.state.max_take)} "
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
            return game.is_over
        if action == "pause":
            return not any(p.is_human for p in self.players)
        return True

    # -- controls ------------------------------------------------------------------------------
    def show_state(self) -> None:
        game = self.game
        over = game.is_over
        for n in (1, 2, 3):
            legal = game.waiting_for_human and game.state.is_legal(n)
            self.query_one(f"#take-{n}", Button).disabled = not legal
        self.query_one("#moves").display = not over
        self.query_one("#after").display = over
        turn = self.query_one("#turn", Static)
        heap = game.state.heap
        count = self.query_one("#count", Label)
        # fixed-size lines: new text needs no layout of the whole screen (that cost ~25 ms a move)
        # the seeds never say "There are 0 sticks on the board.": the game is over, and the turn line says so
        count.update("" if heap == 0 else f"There {'is' if heap == 1 else 'are'} {heap} {sticks_word(heap)} "
                     "on the board.", layout=False)
        if over:
            turn.update(self.result_text)  # once a game: laid out, so a long result wraps whole
            turn.set_class(True, "-over")
        else:
            turn.set_class(False, "-over")
            player = game.current
            top = min(game.state.max_take, heap)
            if player.is_human:
                choices = "1" if top == 1 else ", ".join(map(str, range(1, top))) + f" or {top}"
                turn.update(f"{player.name}'s turn: take {choices} (keys or buttons).", layout=False)
            elif self.paused:
                turn.update(f"Paused before {player.name}'s move: press space to go on.", layout=False)
            else:
                turn.update(f"{player.name} is thinking ...", layout=False)
        if over and not self.setup.watch:
            self.query_one("#again", Button).focus()
        # The Footer recomposes on every refresh_bindings: only when what check_action says changed.
        shown = (*(self.check_action("take", (n,)) for n in (1, 2, 3)),
                 self.check_action("play_again", ()), self.check_action("pause", ()))
        if shown != self._bindings_shown:
            self._bindings_shown = shown
            self.refresh_bindings()

    def action_pause(self) -> None:
        self.paused = not self.paused
        if not self.paused:
            if self.game.is_over and self.setup.watch:
                self.new_game()
            else:
                self.advance()
        else:
            self._stop_ai()
            self.show_state()
        self.notify("Paused" if self.paused else "Going on", timeout=1)

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
            self._refresh_heatmap(drawn=(event.hat, event.ball))

    def on_move_made_msg(self, message: MoveMadeMsg) -> None:
        event = message.event
        draw = self._pending_draw.pop(event.player, None)
        self.query_one("#log", MoveLog).write(move_line(event.name, event.take, event.heap_before, event.heap_after,
                                                        None if draw is None else (draw.hat, draw.ball)))
        sticks = self.query_one(SticksView)
        sticks.show(event.heap_after, event.take)
        self.set_timer(LEAVE_SECONDS, lambda: sticks.show(sticks.heap, 0))

    def on_hats_reinforced_msg(self, message: HatsReinforcedMsg) -> None:
        event = message.event
        hats = next((p.hats for p in self.players if p.name == event.name and isinstance(p, HatPlayer)), None)
        rule = hats.rule if hats is not None else self.session.brain.rule
        self.query_one("#log", MoveLog).write(lesson_sentence(event.name, event.won, event.changes, rule))
        if self.learner is not None and event.name == self.learner.name:
            flash = tuple((c.hat, c.ball, c.delta if c.delta else (1 if event.won else -1))
                          for c in event.changes)
            self._refresh_heatmap(flash=flash)
            if self._flash_timer is not None:
                self._flash_timer.stop()
            self._flash_timer = self.set_timer(FLASH_SECONDS, lambda: self._refresh_heatmap(flash=()))

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
        # in the same transaction; if the game cannot be kept, the brain is saved whole as before
        seats = [seat for seat, p in enumerate(self.players)
                 if isinstance(p, HatPlayer) and p.hats is session.brain and session.brain_kept]
        learning = {seat: (session.brain_name, [(m.heap_before, m.take) for m in state.history if m.player == seat])
                    for seat in seats} or None
        # the brain's own record counts games against people
        taught = self.record_finished_game(
            game="sticks", start=str(state.start_heap), moves=[m.take for m in state.history], loser=event.loser,
            brain=session.brain_name if self.setup.opponent == "learning" and not self.setup.watch else None,
            learning=learning)
        if seats and not taught:
            self.app.save_brain()
        self.show_state()
        if self.setup.watch and not self.paused:
            self.set_timer(max(WATCH_NEXT_GAME, self._delay()), self._next_watched_game)

    def _next_watched_game(self) -> None:
        if self.setup.watch and not self.paused and self.game.is_over and self.is_current:
            self.new_game()

    # -- heatmap -------------------------------------------------------------------------------
    def _refresh_heatmap(self, reset: bool = False, **changes) -> None:
        heatmap = self.query_one(HatHeatmap)
        learner = self.learner
        hats = learner.hats if learner is not None else self.session.brain
        shown = min(hats.size, self.setup.heap)
        data = heatmap.data
        if reset or data.hats != shown:
            solution = solve_sticks(shown)
            data = HeatmapData(counts=hats.counts.copy(), hats=shown, max_take=hats.max_take,
                               perfect=tuple(solution.winning_moves(n) for n in range(shown + 1)))
        else:
            data = data.with_(counts=hats.counts.copy())
        beside = frozenset(learner.beside) if learner is not None else frozenset()
        if "flash" in changes and changes["flash"]:
            beside = frozenset()
        data = data.with_(beside=beside, **{k: v for k, v in changes.items()})
        if "drawn" not in changes:
            data = data.with_(drawn=None)
        heatmap.data = data
