"""Three-pile Nim (seed 004): the game screen, its hint, the table view, and the learning AI for Nim."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, Label, Static
from textual.worker import Worker, WorkerState

from sticks_tui.engine.events import BallDrawn, EventBus, GameOver, HatsReinforced, NimMoveMade
from sticks_tui.engine.game import NimGame
from sticks_tui.engine.nim import coins_word
from sticks_tui.engine.players import HatPlayer as NimHatPlayer
from sticks_tui.engine.players import HumanPlayer as NimHumanPlayer
from sticks_tui.engine.players import PerfectPlayer as NimPerfectPlayer
from sticks_tui.engine.players import RandomPlayer as NimRandomPlayer
from sticks_tui.ui.messages import CoreEvent
from sticks_tui.ui.session import SPEEDS, MatchSetup
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.nim_piles import NimPilesView
from sticks_tui.ui.widgets.nim_table import NimTableView

NIM_OPPONENTS = {
    "friend": "a friend (same keyboard)",
    "random": "the random AI",
    "perfect": "the perfect AI (the table)",
    "learning": "the learning AI (piles up to 7)",
}
NIM_AI_NAMES = {"random": "Nim Random AI", "perfect": "Nim Perfect AI", "learning": "Nim Learning AI"}
NIM_LEARNER_BOX = (7, 7, 7)
NIM_TRAIN_GAMES = 500_000


def piles_text(piles) -> str:
    return ", ".join(coins_word(i, n) for i, n in enumerate(piles))


def nim_brain(app):
    """The app's learning AI for Nim (one hat per position up to 7, 7, 7), made on first use."""
    brain = getattr(app, "nim_brain", None)
    if brain is None:
        from sticks_tui.engine.nim import NimRules
        from sticks_tui.learn.hats import Hats

        brain = app.nim_brain = Hats(NimRules(NIM_LEARNER_BOX))
    return brain


class NimGameScreen(Screen):
    BINDINGS = [
        # all priority, so that keys pressed quickly act in the order they were pressed
        Binding("left", "pile(-1)", "Pile", key_display="←/→", priority=True),
        Binding("right", "pile(1)", "Next pile", show=False, priority=True),
        Binding("up", "coins(1)", "Coins", key_display="↑/↓", priority=True),
        Binding("down", "coins(-1)", "Fewer", show=False, priority=True),
        Binding("enter", "take", "Take", priority=True),
        Binding("h", "hint", "Hint"),
        Binding("u", "table", "U table"),
        Binding("n", "play_again", "Play again"),
        Binding("f2,t", "train_nim", "Train Nim AI", key_display="F2"),
        Binding("escape", "back", "Setup"),
    ]

    def __init__(self, setup: MatchSetup, piles: tuple[int, int, int]) -> None:
        super().__init__()
        self.setup = setup
        self.start_piles = piles
        self.bus = EventBus()
        self.round = 0
        self.hint = False
        self.chosen = 0
        self.coins = 1
        self.game: NimGame | None = None
        self._ai_timer: Timer | None = None
        self._pending: dict[int, BallDrawn] = {}
        self._unsubscribe = self.bus.subscribe(lambda e: self.post_message(CoreEvent(e)))
        self.players = self._make_players()
        self.result_text = ""

    def _make_players(self):
        rng = self.app.rng
        kind = self.setup.opponent
        first = NimHumanPlayer(self.setup.name1)
        if kind == "friend":
            second = NimHumanPlayer(self.setup.name2)
        elif kind == "random":
            second = NimRandomPlayer(self.setup.name2, rng)
        elif kind == "perfect":
            second = NimPerfectPlayer(self.setup.name2)
        elif kind == "learning":
            second = NimHatPlayer(self.setup.name2, nim_brain(self.app), rng, self.bus)
        else:
            raise ValueError(f"There is no Nim opponent called {kind!r}.")
        return [first, second]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="nim"):
            yield Static("", id="nim-turn")
            yield NimPilesView(id="piles")
            with Horizontal(id="nim-controls"):
                yield Button("-", id="fewer", compact=True, action="screen.coins(-1)")
                yield Label("", id="nim-move")
                yield Button("+", id="more", compact=True, action="screen.coins(1)")
                yield Button("Take", id="nim-take", variant="primary", compact=True, action="screen.take")
                yield Button("Play again", id="nim-again", variant="primary", compact=True,
                             action="screen.play_again")
            yield Static("", id="nim-hint")
            yield MoveLog(id="nim-log")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "three-pile Nim: " + " vs ".join(p.name for p in self.players)
        self.new_game()

    def on_unmount(self) -> None:
        self._unsubscribe()
        if self.game is not None and not self.game.is_over:
            self.game.abandon()

    # -- game loop -----------------------------------------------------------------------------
    def new_game(self) -> None:
        first = self.setup.first_mover(self.round, self.app.rng)
        self.round += 1
        self.game = NimGame(self.players, self.start_piles, first=first, bus=self.bus)
        self.query_one("#nim-log", MoveLog).write(
            f"Game {self.round}: {piles_text(self.start_piles)}. Whoever takes the last coin wins. "
            f"{self.players[first].name} moves first.")
        self.chosen = next(i for i, p in enumerate(self.start_piles) if p)
        self.coins = 1
        self.advance()

    def advance(self) -> None:
        self._update()
        game = self.game
        if game.is_over or game.waiting_for_human:
            return
        delay = self.app.ai_delay_override
        delay = SPEEDS[self.setup.speed] if delay is None else delay
        if self._ai_timer is not None:
            self._ai_timer.stop()
        if delay > 0:
            self._ai_timer = self.set_timer(delay, self._ai_move)
        else:
            self.call_after_refresh(self._ai_move)

    def _ai_move(self) -> None:
        game = self.game
        if game.is_over or game.waiting_for_human:
            return
        game.step()
        self.advance()

    def _update(self) -> None:
        game = self.game
        piles = game.state.piles
        if not game.is_over and piles[self.chosen] == 0:
            self.chosen = next(i for i, p in enumerate(piles) if p)
        self.coins = max(1, min(self.coins, piles[self.chosen] or 1))
        view = self.query_one(NimPilesView)
        human = game.waiting_for_human
        view.piles = piles
        view.chosen = self.chosen
        view.taking = self.coins if human else 0
        turn = self.query_one("#nim-turn", Static)
        if game.is_over:
            turn.update(self.result_text)
        elif human:
            turn.update(f"{game.current.name}'s turn: choose a pile (←/→ or click) and how many coins (↑/↓), "
                        f"then Enter.")
        else:
            turn.update(f"{game.current.name} is thinking ...")
        self.query_one("#nim-move", Label).update(
            f" take {coins_word(self.chosen, self.coins)} " if human else "")
        for wid in ("#fewer", "#more", "#nim-take"):
            self.query_one(wid, Button).display = not game.is_over
            self.query_one(wid, Button).disabled = not human
        self.query_one("#nim-again", Button).display = game.is_over
        self._show_hint()
        self.refresh_bindings()

    def _show_hint(self) -> None:
        hint = self.query_one("#nim-hint", Static)
        game = self.game
        if not self.hint or game.is_over:
            hint.update("Press h for a hint from the table U(n, d, q)." if not game.is_over else "")
            return
        from sticks_tui.solve.nim import describe_move, is_winning, winning_moves

        piles = game.state.piles
        if is_winning(*piles):
            moves = ", ".join(describe_move(m) for m in winning_moves(piles))
            hint.update(f"Hint: U{piles} = 1, the player to move can force a win. Winning moves: {moves}.")
        else:
            hint.update(f"Hint: U{piles} = 0, every move leaves a winning position for the other player "
                        f"(n xor d xor q = 0). Take little and hope for a mistake.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        game = self.game
        if game is None:
            return True
        if action in ("pile", "coins", "take"):
            return False if game.is_over else (True if game.waiting_for_human else None)
        if action == "play_again":
            return game.is_over
        if action == "train_nim":
            return self.setup.opponent == "learning"
        return True

    # -- actions -------------------------------------------------------------------------------
    def action_pile(self, step: int) -> None:
        piles = self.game.state.piles
        for k in range(1, 4):
            candidate = (self.chosen + step * k) % 3
            if piles[candidate]:
                self.chosen = candidate
                break
        self._update()

    def action_coins(self, step: int) -> None:
        self.coins = max(1, min(self.game.state.piles[self.chosen], self.coins + step))
        self._update()

    def action_take(self) -> None:
        game = self.game
        if game.is_over:
            self.action_play_again()
            return
        if not game.waiting_for_human or not game.state.is_legal(self.chosen, self.coins):
            self.app.bell()
            return
        game.play(self.chosen, self.coins)
        self.coins = 1
        self.advance()

    def action_hint(self) -> None:
        self.hint = not self.hint
        self._show_hint()

    def action_table(self) -> None:
        self.app.push_screen(NimTableScreen(self.game.state.piles))

    def action_play_again(self) -> None:
        if self.game.is_over:
            self.new_game()

    def action_back(self) -> None:
        self.app.pop_screen()

    @on(NimPilesView.PileClicked)
    def _clicked(self, event: NimPilesView.PileClicked) -> None:
        if self.game.waiting_for_human and self.game.state.piles[event.pile]:
            self.chosen = event.pile
            self._update()

    # -- events from the core --------------------------------------------------------------------
    def on_core_event(self, message: CoreEvent) -> None:
        event = message.event
        log = self.query_one("#nim-log", MoveLog)
        if isinstance(event, BallDrawn):
            self._pending[event.player] = event
        elif isinstance(event, NimMoveMade):
            text = (f"{event.name} takes {coins_word(event.pile, event.coins)}: "
                    f"{piles_text(event.piles_after)} left.")
            if sum(event.piles_after) == 0:
                text = (f"{event.name} takes {coins_word(event.pile, event.coins)}, "
                        "the last coins, and wins.")
            draw = self._pending.pop(event.player, None)
            if draw is not None:
                text = f"{event.name} draws the ball '{event.coins} from pile {event.pile + 1}' from hat " \
                       f"{draw.hat}. " + text
            log.write(text)
        elif isinstance(event, HatsReinforced):
            verb = "won: each ball it drew goes back with one more" if event.won else \
                "lost: it throws away the balls it drew"
            log.write(f"{event.name} {verb} ({len(event.changes)} hats).")
        elif isinstance(event, GameOver):
            self.result_text = f"{event.winner_name} took the last coin and wins. {event.loser_name} loses."
            log.write(f"{event.loser_name}: You lose.  {event.winner_name}: You win!")
            state = self.game.state
            self.app.record_game(
                game="nim", start=",".join(map(str, state.start_piles)), opponent=self.setup.opponent,
                players=(self.players[0].name, self.players[1].name),
                moves=[f"{t.pile + 1}:{t.coins}" for t in state.history], loser=event.loser,
                ai_seats=[s for s, p in enumerate(self.players) if not p.is_human])
            self._update()

    # -- the learning AI for Nim ----------------------------------------------------------------
    def action_train_nim(self) -> None:
        if self.setup.opponent != "learning":
            self.notify("Choose the learning AI on the setup screen to train it.", severity="warning")
            return
        if self.game is not None and not self.game.is_over:
            self.notify("Finish this game first: the AI cannot learn while it plays.", severity="warning")
            return
        self.notify(f"Training the Nim AI: {NIM_TRAIN_GAMES:,} games of self-play ...", timeout=3)
        self._train_nim()

    @work(thread=True, exclusive=True, group="nim-training", exit_on_error=False)
    def _train_nim(self):
        from sticks_tui.engine.nim import NimRules
        from sticks_tui.learn.analysis import agreement
        from sticks_tui.learn.trainer import TrainingConfig, train

        brain = nim_brain(self.app)
        seed = None if self.app.seed is None else self.app.rng.randrange(2**32)
        copy = brain.copy()
        result = train(TrainingConfig(game=NimRules(NIM_LEARNER_BOX), games=NIM_TRAIN_GAMES, seed=seed), brain=copy)
        return result, agreement(result.brain)

    @on(Worker.StateChanged)
    def _trained(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "nim-training":
            return
        if event.state == WorkerState.SUCCESS:
            result, analysis = event.worker.result
            nim_brain(self.app).counts[:] = result.brain.counts
            self.notify(f"The Nim AI played {result.games_played:,} games in {result.seconds:.1f} s. "
                        f"It now plays the winning move in {analysis.agreement:.0%} of the "
                        f"{analysis.winning_states} winning positions.", title="Nim training", timeout=8)
        elif event.state == WorkerState.ERROR:
            self.notify(f"Training failed: {event.worker.error}", severity="error")


class NimTableScreen(Screen):
    """The table U(n, d, q) for one q: where the losing positions lie."""

    AUTO_FOCUS = "#nim-table"  # so +/- step q at once; Tab reaches the q box
    BINDINGS = [
        Binding("plus,equals_sign,right_square_bracket", "q(1)", "q+1", key_display="+/-"),
        Binding("minus,left_square_bracket", "q(-1)", "q-1", show=False),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, piles: tuple[int, int, int] = (0, 0, 0)) -> None:
        super().__init__()
        self.piles = piles

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="nim-table-screen"):
            with Horizontal(id="nim-table-controls"):
                yield Label("quarters q = ")
                yield Input(str(self.piles[2]), id="q", compact=True, max_length=3)
                yield Label("", id="q-error", classes="error")
            yield Static("", id="nim-table-caption")
            yield NimTableView(id="nim-table")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "the table U(n, d, q)"
        view = self.query_one(NimTableView)
        view.here = self.piles
        self._set_q(self.piles[2])

    def _set_q(self, q: int) -> None:
        q = max(0, min(100, q))
        view = self.query_one(NimTableView)
        view.q = q
        with self.prevent(Input.Changed):
            self.query_one("#q", Input).value = str(q)
        self.query_one("#nim-table-caption", Static).update(
            f"U(n, d, {q}): rows are nickels n, columns dimes d. L = lost for the player to move (U = 0); "
            f"· = won. The L's lie exactly where n xor d = {q}. Your position is highlighted.")

    @on(Input.Changed, "#q")
    def _typed(self, event: Input.Changed) -> None:
        error = self.query_one("#q-error", Label)
        text = event.value.strip()
        if not text.isdigit() or int(text) > 100:
            error.update(" Please enter a number between 0 and 100.")
            return
        error.update("")
        self._set_q(int(text))

    def action_q(self, step: int) -> None:
        self._set_q(self.query_one(NimTableView).q + step)

    def action_back(self) -> None:
        self.app.pop_screen()
