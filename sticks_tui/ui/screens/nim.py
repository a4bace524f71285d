"""Three-pile Nim (seed 004): the game screen, its hint, the table view, and the learning AI for Nim."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Label, Static

from sticks_tui.engine.events import BallDrawn
from sticks_tui.play.game import GameDriver
from sticks_tui.engine.nim import coins_word, new_nim_game, piles_text
from sticks_tui.play.players import HatPlayer, HumanPlayer, PerfectPlayer, RandomPlayer
from sticks_tui.learn.lesson_words import lesson_sentence
from sticks_tui import vocabulary
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.messages import (
    BallDrawnMsg,
    GameOverMsg,
    HatsReinforcedMsg,
    MoveMadeMsg,
    TrainingFinished,
    TrainingProgressMsg,
)
from sticks_tui.ui.screens.base import GameScreenBase
from sticks_tui.ui.session import NIM_LEARNER_BOX, MatchSetup
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.training import TrainingJob, nim_run, start_training_worker
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.live import other_brain_words
from sticks_tui.ui.widgets.nim_hats import NimHatData, NimHats
from sticks_tui.ui.widgets.nim_piles import NimPilesView
from sticks_tui.ui.widgets.nim_table import NimTableView
from sticks_tui.ui.widgets.header import AppHeader

NIM_OPPONENTS = vocabulary.opponents("nim")
NIM_AI_NAMES = vocabulary.ai_names("nim")  # no person may play under one (store.names)
NIM_TRAIN_GAMES = vocabulary.NIM_TRAIN_GAMES


NIM_TRAINING = "nim"  # the purpose of the Nim AI's training run


class NimGameScreen(GameScreenBase):
    BINDINGS = [
        # all priority, so that keys pressed quickly act in the order they were pressed
        # (one footer label for the four arrows, and h/u named on the hint line: the footer stays
        # whole at 80 columns with the app's keys)
        Binding("left", "pile(-1)", "Choose", key_display="←→↑↓", priority=True, id="nim.previous_pile"),
        Binding("right", "pile(1)", "Next pile", show=False, priority=True, id="nim.next_pile"),
        Binding("up", "coins(1)", "More coins", show=False, priority=True, id="nim.more_coins"),
        Binding("down", "coins(-1)", "Fewer coins", show=False, priority=True, id="nim.fewer_coins"),
        Binding("enter", "take", "Take", priority=True, id="nim.take"),
        Binding("h", "hint", "Hint", show=False, id="nim.hint"),
        Binding("u", "table", "U table", show=False, id="nim.table"),
        Binding("n", "play_again", "Play again", id="nim.play_again"),
        Binding("f2,t", "train_nim", "Train", key_display="F2", id="nim.train_nim"),
        Binding("escape", "back", "Setup", id="nim.back"),
    ]
    COMMANDS = {screen_commands(
        ("Train the Nim AI", f"{NIM_TRAIN_GAMES:,} games of self-play for the learning AI for Nim", "train_nim"),
        ("Show the table U(n, d, q)", "Where the lost positions lie, for the quarters in play", "table"),
        ("Hint", "Show or hide what the table says about this position", "hint"),
        ("Play again", "Start the next game (when this one is over)", "play_again"),
    )}

    def __init__(self, setup: MatchSetup, piles: tuple[int, int, int]) -> None:
        self.start_piles = piles
        self.hint = False
        self.chosen = 0
        self.coins = 1
        self._pending: dict[int, BallDrawn] = {}
        self._nim_job: TrainingJob | None = None
        self._train_start = None  # the Nim AI's counts when the training run started
        self._after_game = ""  # what the last game taught the AI, in words (shown over its hats)
        self._draws: list[BallDrawn] = []  # the AI's draws this game, with each hat's counts then
        self._changes: dict = {}  # (hat, ball) -> HatChange: what this game changed, once it is over
        super().__init__(setup)
        if setup.opponent == "learning":
            self.add_class("-learning")  # styles.tcss: the hats panel, beside the piles when wide

    @property
    def learner(self) -> HatPlayer | None:
        """The learning AI for Nim, when it plays."""
        return next((p for p in self.players if isinstance(p, HatPlayer)), None)

    def make_players(self):
        session = self.app.session
        rng = session.rng
        kind = self.setup.opponent
        first = HumanPlayer(self.setup.name1)
        if kind == "friend":
            second = HumanPlayer(self.setup.name2)
        elif kind == "random":
            second = RandomPlayer(self.setup.name2, rng)
        elif kind == "perfect":
            second = PerfectPlayer(self.setup.name2)
        elif kind == "learning":
            second = HatPlayer(self.setup.name2, self.app.keeper.nim_hats(), rng, self.bus)
        else:
            raise ValueError(f"There is no Nim opponent called {kind!r}.")
        return [first, second]

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Vertical(id="nim"):
            yield Static("", id="nim-turn")
            with Container(id="nim-board"):
                with Vertical(id="nim-play"):
                    yield NimPilesView(id="piles")
                    with Horizontal(id="nim-controls"):
                        yield Button("-", id="fewer", compact=True, action="screen.coins(-1)")
                        yield Label("", id="nim-move")
                        yield Button("+", id="more", compact=True, action="screen.coins(1)")
                        yield Button("Take", id="nim-take", variant="primary", compact=True, action="screen.take")
                        yield Button("Play again", id="nim-again", variant="primary", compact=True,
                                     action="screen.play_again")
                    yield Static("", id="nim-hint")
                with Vertical(id="nim-hats-panel"):
                    yield Static("", id="nim-hats-title")
                    yield NimHats(id="nim-hats")
                    yield Static("", id="nim-lessons")  # every draw of the game (wide screens)
            yield Static("", id="nim-training")
            yield MoveLog(id="nim-log")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "three-pile Nim: " + " vs ".join(p.name for p in self.players)
        self.query_one("#nim-training").display = False
        self.query_one("#nim-hats-panel").display = self.learner is not None
        problem = self.session.nim_problem
        if self.learner is not None and problem:
            self.notify(problem, title="The Nim AI's hats", severity="error", timeout=15)
        self.new_game()
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def _class_changed(self, change) -> None:
        """A classmate's Nim game (or run) taught the class's Nim hats: the hat in view as stored now, and
        whose game it was and what it changed over the hats ("Ann's game: hat (2, 3, 5), 4 quarters ↑")."""
        name = self.session.nim_stored_as
        if change is None or not change.changes_of(name) or self.learner is None:
            return
        self._show_hats()
        words = other_brain_words(change, name, lambda position, move: f"hat {position}, {coins_word(*move)}",
                                  "the class's Nim hats changed")
        self.query_one("#nim-hats-title", Static).update(f"{words}\n{self._hat_title}")

    # -- game loop -----------------------------------------------------------------------------
    def make_game(self, first: int) -> GameDriver:
        return GameDriver(self.players, new_nim_game(self.start_piles, first), self.bus)

    def start_round(self, first: int) -> None:
        self.query_one("#nim-log", MoveLog).write(
            f"Game {self.round}: {piles_text(self.start_piles)}. Whoever takes the last coin wins. "
            f"{self.players[first].name} moves first.")
        self.chosen = next(i for i, p in enumerate(self.start_piles) if p)
        self.coins = 1
        self._after_game = ""
        self._draws, self._changes = [], {}

    def show_state(self) -> None:
        game = self.game
        piles = game.state.position
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
            turn.update(f"{game.current.name}'s turn: pick a pile (←/→ or click) and coins (↑/↓), then Enter.")
        else:
            turn.update(f"{game.current.name} is thinking ...")
        self.query_one("#nim-move", Label).update(
            f" take {coins_word(self.chosen, self.coins)} " if human else "")
        for wid in ("#fewer", "#more", "#nim-take"):
            self.query_one(wid, Button).display = not game.is_over
            self.query_one(wid, Button).disabled = not human
        self.query_one("#nim-again", Button).display = game.is_over
        self._show_hint()
        self._show_hats()
        self.refresh_bindings()

    # -- the learning AI's hats ------------------------------------------------------------------
    def _show_hats(self) -> None:
        """The hat in play: the AI's hat for this position while it is to move; the hat it last drew
        from (the ball marked) while the person thinks; after the game, that hat as the game left it."""
        learner = self.learner
        game = self.game
        if learner is None or game is None:
            return
        state = game.state
        mine = [t for t in state.history if t.player == learner.seat]
        name = learner.name
        if game.is_over:
            if mine:
                self._show_hat(mine[-1].before, mine[-1].move, self._after_game or
                               f"{name} drew the ball marked ► from this hat, its last of the game.")
            else:
                self._show_hat(state.start, None, self._after_game or
                               f"{name} drew no ball this game. Its hat for the start:")
        elif game.current is learner:
            self._show_hat(state.position, None, f"{name} draws a ball from its hat for this position ...")
        elif mine:
            self._show_hat(mine[-1].before, mine[-1].move,
                           f"{name} drew the ball marked ► from this hat and took {coins_word(*mine[-1].move)}.")
        else:
            self._show_hat(state.position, None, f"{name}'s hat for this position (it draws from it when it "
                                              "moves here):")

    def _show_hat(self, position, drawn, title: str, counts=None) -> None:
        """Show the hat for `position` (its counts now, or `counts`), with `drawn` marked."""
        from sticks_tui.solve.nim import winning_moves

        hats = self.app.keeper.nim_hats()
        self._hat_title = title
        self.query_one("#nim-hats-title", Static).update(title)
        view = self.query_one(NimHats)
        if not hats.has_hat(tuple(position)):
            view.data = NimHatData(tuple(position))
            return
        position = tuple(position)
        moves = hats.moves_of(position)
        view.data = NimHatData.of(position, moves, hats.hat(position) if counts is None else counts,
                                  winning_moves(position), drawn)

    def _show_hint(self) -> None:
        hint = self.query_one("#nim-hint", Static)
        game = self.game
        if not self.hint or game.is_over:
            hint.update("Press h for a hint, u for the table U(n, d, q)." if not game.is_over else "")
            return
        from sticks_tui.solve.nim import describe_move, is_winning, winning_moves

        piles = game.state.position
        if is_winning(*piles):
            moves = ", ".join(describe_move(m) for m in winning_moves(piles))
            hint.update(f"Hint: U{piles} = 1, the player to move can force a win. Winning moves: {moves}. "
                        "(u: the table)")
        else:
            hint.update(f"Hint: U{piles} = 0, every move leaves a winning position for the other player "
                        f"(n xor d xor q = 0). Take little and hope for a mistake. (u: the table)")

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

    def cannot_leave_now(self) -> str | None:
        """Why this screen must not be left now (Esc, or the palette's New game), or None."""
        if self._nim_job is not None and self._nim_job.running:
            # the run belongs to this screen: leaving would throw away what it learns
            return "The Nim AI is training (a few seconds): leave when it has finished."
        return None

    def action_back(self) -> None:
        why = self.cannot_leave_now()
        if why:
            self.notify(why, severity="warning")
            return
        super().action_back()

    # -- actions -------------------------------------------------------------------------------
    def action_pile(self, step: int) -> None:
        piles = self.game.state.position
        for k in range(1, 4):
            candidate = (self.chosen + step * k) % 3
            if piles[candidate]:
                self.chosen = candidate
                break
        self.show_state()

    def action_coins(self, step: int) -> None:
        self.coins = max(1, min(self.game.state.position[self.chosen], self.coins + step))
        self.show_state()

    def action_take(self) -> None:
        game = self.game
        if game.is_over:
            self.action_play_again()
            return
        if not game.waiting_for_human or not game.state.is_legal((self.chosen, self.coins)):
            self.app.bell()
            return
        game.play((self.chosen, self.coins))
        self.coins = 1
        self.advance()

    def action_hint(self) -> None:
        self.hint = not self.hint
        self._show_hint()

    def action_table(self) -> None:
        self.app.push_screen(NimTableScreen(self.game.state.position))

    @on(NimPilesView.PileClicked)
    def _clicked(self, event: NimPilesView.PileClicked) -> None:
        if self.game.waiting_for_human and self.game.state.position[event.pile]:
            self.chosen = event.pile
            self.show_state()

    # -- events from the core --------------------------------------------------------------------
    def on_ball_drawn_msg(self, message: BallDrawnMsg) -> None:
        self._pending[message.event.player] = message.event
        if self.learner is not None and message.event.player == self.learner.seat:
            self._draws.append(message.event)
            self._show_lessons()

    def on_move_made_msg(self, message: MoveMadeMsg) -> None:
        event = message.event
        pile, coins = event.move
        text = (f"{event.name} takes {coins_word(pile, coins)}: "
                f"{piles_text(event.after)} left.")
        if sum(event.after) == 0:
            text = (f"{event.name} takes {coins_word(pile, coins)}, "
                    "the last coins, and wins.")
        draw = self._pending.pop(event.player, None)
        if draw is not None:
            text = f"{event.name} draws the ball '{coins} from pile {pile + 1}' from hat " \
                   f"{draw.hat}. " + text
        self.query_one("#nim-log", MoveLog).write(text)

    def on_hats_reinforced_msg(self, message: HatsReinforcedMsg) -> None:
        event = message.event
        learner = self.learner
        rule = learner.hats.rule if learner is not None else self.app.keeper.nim_hats().rule
        lesson = lesson_sentence(event.name, event.won, event.changes, rule, detail=False)
        self.query_one("#nim-log", MoveLog).write(lesson)
        if not event.changes:
            self._after_game = f"{event.name} drew no ball this game: nothing to learn. Its hat for the start:"
        else:
            last = event.changes[-1]
            change = (f"{coins_word(*last.ball)} {last.before} → {last.after}" if last.before != last.after
                      else f"{coins_word(*last.ball)} stays at {last.after}, the fewest it keeps")
            self._after_game = f"{lesson} Its last hat, ► the ball drawn: {change}."
        self._changes = {(c.hat, c.ball): c for c in event.changes}
        self._show_hats()
        self._show_lessons()

    def _show_lessons(self) -> None:
        """Each ball the AI drew this game: from which hat, how likely it was, whether it wins, and
        once the game is over what the game did to it."""
        from sticks_tui.solve.nim import winning_moves

        if not self._draws:
            self.query_one("#nim-lessons", Static).update("")
            return
        over = bool(self._changes)
        lines = ["What this game taught it, hat by hat:" if over else "Its draws this game, hat by hat:"]
        for draw in self._draws:
            moves = self.app.keeper.nim_hats().moves_of(draw.hat)
            count, total = draw.counts[moves.index(draw.ball)], sum(draw.counts)
            good = "✓ a winning move" if draw.ball in winning_moves(draw.hat) else "not a winning move"
            line = f"{draw.hat}: ► {coins_word(*draw.ball)}, {count} of {total} balls ({count / total:.0%}), {good}"
            change = self._changes.get((draw.hat, draw.ball))
            if change is not None:
                line += f"; {change.before} → {change.after}"
            lines.append(line + ".")
        self.query_one("#nim-lessons", Static).update("\n".join(lines))

    def on_game_over_msg(self, message: GameOverMsg) -> None:
        event = message.event
        self.result_text = f"{event.winner_name} took the last coin and wins. {event.loser_name} loses."
        self.query_one("#nim-log", MoveLog).write(f"{event.loser_name}: You lose.  {event.winner_name}: You win!")
        self._record(event.loser)
        self.show_state()

    def _record(self, loser: int) -> None:
        """Keep the finished game; the learning AI's lesson goes to its stored brain in the same
        transaction, and the AI then plays with the brain as stored (what every copy taught it). If the
        store cannot take it, the app says why and the stored brain is left as it is (ui/keeper.py)."""
        session = self.session
        state = self.game.state
        learner, name = self.learner, session.nim_stored_as
        learning = None
        brain = None
        if learner is not None and name is not None:
            drawn = [(t.before, t.move) for t in state.history if t.player == learner.seat]
            brain, learning = name, {learner.seat: (name, drawn)}
        self.record_finished_game(game="nim", start=",".join(map(str, state.start)),
                                  moves=[f"{t.move[0] + 1}:{t.move[1]}" for t in state.history], loser=loser,
                                  brain=brain, learning=learning, hats=learner.hats if learning else None)

    # -- the learning AI for Nim ----------------------------------------------------------------
    def action_train_nim(self) -> None:
        if self.setup.opponent != "learning":
            self.notify("Choose the learning AI on the setup screen to train it.", severity="warning")
            return
        if self.game is not None and not self.game.is_over:
            self.notify("Finish this game first: the AI cannot learn while it plays.", severity="warning")
            return
        if self._nim_job is not None and self._nim_job.running:
            self.notify("The Nim AI is training already.", severity="warning")
            return
        session = self.session
        hats = self.app.keeper.nim_hats()
        self._show_nim_training(f"Training the Nim AI: {NIM_TRAIN_GAMES:,} games of self-play ...")
        self._train_start = hats.counts.copy()
        self._nim_job = start_training_worker(
            self, NIM_TRAINING, nim_run(NIM_LEARNER_BOX, NIM_TRAIN_GAMES, session.child_seed(), hats.copy()),
            idle=session.idle_training)

    def _show_nim_training(self, text: str | None) -> None:
        line = self.query_one("#nim-training", Static)
        line.display = text is not None
        line.update(text or "")

    def on_training_progress_msg(self, message: TrainingProgressMsg) -> None:
        if message.purpose == NIM_TRAINING:
            p = message.progress
            self._show_nim_training(f"Training the Nim AI: {p.games_done:,} of {p.games_total:,} games "
                                    f"({p.fraction:.0%}) ...")
            data = self.query_one(NimHats).data
            hats = self.app.keeper.nim_hats()
            # while no new game is under way, the hat on show is the one the run is teaching
            if self.game is not None and self.game.is_over and data.moves and hats.has_hat(data.position):
                counts = p.hats[hats.row(data.position), : len(data.moves)]
                self._show_hat(data.position, data.drawn, f"Training: this hat after {p.games_done:,} of "
                                                          f"{p.games_total:,} games of self-play.", counts)

    def on_training_finished(self, message: TrainingFinished) -> None:
        if message.purpose != NIM_TRAINING:
            return
        self._show_nim_training(None)
        if message.error is not None:
            self.notify(f"Training failed: {message.error}", severity="error")
            self._show_hats()
            return
        if self._train_start is None:
            return  # kept already (quitting keeps a run still going before its message comes)
        result = message.result
        hats = self._keep_training(result)
        from sticks_tui.learn.analysis import agreement, scope_words

        analysis = agreement(hats)  # over the positions the run trained: the brain's box
        self.notify(f"The Nim AI played {result.games_played:,} games in {result.seconds:.1f} s. "
                    f"It now plays the winning move in {analysis.agreement:.0%} of the "
                    f"{analysis.winning_states} winning positions, over {scope_words(hats.rules)}.",
                    title="Nim training", timeout=8)
        data = self.query_one(NimHats).data
        if self.game is not None and self.game.is_over and data.moves:
            self._show_hat(data.position, data.drawn, f"After {result.games_played:,} games of training: "
                                                      "this hat now.")
        else:
            self._show_hats()

    async def keep_running_training(self) -> None:
        """Stop the Nim AI's run if it is still going and keep what it learned so far (quitting does:
        the run belongs to this screen, which goes with the app)."""
        job = self._nim_job
        if job is not None and job.running:
            job.cancel()
            result = await job.wait()
            if result is not None and self._train_start is not None:
                self._keep_training(result)

    def _keep_training(self, result):
        """Add the run's net change to the Nim AI's brain as stored (what games taught it meanwhile
        is kept), in one transaction; then play with the stored brain. Not stored: merged in memory;
        the store fails: the keeper's one failure behaviour (ui/keeper.py)."""
        session = self.session
        hats = self.app.keeper.nim_hats()
        start, self._train_start = self._train_start, None
        stored = self.app.keeper.merge(session.nim_stored_as, hats, start, result, base=session.nim_base)
        if stored is not None and stored.counts.shape == hats.counts.shape:
            session.nim_base = stored.counts.copy()
        return hats


class NimTableScreen(StyledOnce, Screen):
    """The table U(n, d, q) for one q: where the losing positions lie."""

    AUTO_FOCUS = "#nim-table"  # so +/- step q at once; Tab reaches the q box
    BINDINGS = [
        Binding("plus,equals_sign,right_square_bracket", "q(1)", "Quarters", key_display="+/-",
                id="nim_table.more_quarters"),
        Binding("minus,left_square_bracket", "q(-1)", "Fewer quarters", show=False, id="nim_table.fewer_quarters"),
        Binding("escape", "back", "Back", id="nim_table.back"),
    ]

    def __init__(self, piles: tuple[int, int, int] = (0, 0, 0)) -> None:
        super().__init__()
        self.piles = piles

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Vertical(id="nim-table-screen"):
            with Horizontal(id="nim-table-controls"):
                yield Label("quarters q = ")
                yield Input(str(self.piles[2]), id="q", compact=True, max_length=3)
                yield Label("", id="q-error", classes="error")
            yield Static("", id="nim-table-caption")
            yield NimTableView(id="nim-table")
        yield KeysFooter()

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
