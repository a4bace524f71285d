"""What the sticks and the Nim game screens share: the game's event bus wired to typed messages,
the AI's timed moves, the lifecycle (a game left unfinished is abandoned), leaving with a question,
and keeping the record of a finished game."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.timer import Timer

from sticks_tui.engine.events import EventBus
from sticks_tui.ui.messages import core_message
from sticks_tui.ui.session import SPEEDS, MatchSetup, Session
from sticks_tui.ui.styled_once import StyledOnce


class GameScreenBase(StyledOnce, Screen):
    """A screen that plays rounds of one game. Subclasses make the players and the game, and show it.

    Subclasses implement `make_players()`, `make_game(first)`, `start_round(first)` (write the
    opening lines) and `show_state()` (update the controls); they handle the core's events with
    `on_move_made_msg`, `on_ball_drawn_msg`, ... (see ui/messages.py)."""

    def __init__(self, setup: MatchSetup) -> None:
        super().__init__()
        self.setup = setup
        self.bus = EventBus()
        self.round = 0
        self.speed = setup.speed
        self.paused = False
        self.game: Any = None
        self.result_text = ""
        self._ai_timer: Timer | None = None
        self._unsubscribe = self.bus.subscribe(self._post_core_event)
        self.players = self.make_players()

    @property
    def session(self) -> Session:
        return self.app.session

    def _post_core_event(self, event: Any) -> None:
        message = core_message(event)
        if message is not None:
            self.post_message(message)

    # -- to implement ----------------------------------------------------------------------------
    def make_players(self) -> list:
        raise NotImplementedError

    def make_game(self, first: int) -> Any:
        raise NotImplementedError

    def start_round(self, first: int) -> None:
        """Show a new game (log lines, the board); called after `self.game` is made."""

    def show_state(self) -> None:
        raise NotImplementedError

    # -- lifecycle -------------------------------------------------------------------------------
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

    # -- the game loop ---------------------------------------------------------------------------
    def new_game(self) -> None:
        if self.game is not None and not self.game.is_over:
            self.game.abandon()
        first = self.setup.first_mover(self.round, self.session.rng)
        self.round += 1
        self.result_text = ""
        self.game = self.make_game(first)
        self.start_round(first)
        self.advance()

    def advance(self) -> None:
        """Show whose turn it is; if an AI is to move, let it after the chosen pause."""
        self.show_state()
        game = self.game
        if game.is_over or game.waiting_for_human or self.paused:
            return
        self._schedule_ai(self._delay())

    def _delay(self) -> float:
        return self.session.ai_delay(SPEEDS[self.speed])

    def _schedule_ai(self, delay: float) -> None:
        self._stop_ai()
        if delay > 0:
            self._ai_timer = self.set_timer(delay, self._ai_move)
        else:
            self.call_after_refresh(self._ai_move)

    def _stop_ai(self) -> None:
        if self._ai_timer is not None:
            self._ai_timer.stop()
            self._ai_timer = None

    def _ai_move(self) -> None:
        self._ai_timer = None
        game = self.game
        if game is None or game.is_over or game.waiting_for_human or self.paused:
            return
        game.step()
        self.advance()

    def action_play_again(self) -> None:
        if self.game is not None and self.game.is_over:
            self.new_game()

    # -- records ---------------------------------------------------------------------------------
    def record_finished_game(self, *, game: str, start: str, moves: list, loser: int, brain: str | None = None,
                             learning: dict | None = None, hats=None) -> bool:
        """Keep the finished game in the store (ui/keeper.py; the app says so if it cannot).

        `learning` ({seat: (brain name, balls drawn)}) is applied to the stored brain with the game, in one
        transaction, and each seat it taught plays on with its brain as stored. If the brain as stored
        cannot take it (deleted or damaged meanwhile), the app says why, the game is kept without it and
        `hats` (the session's brain that learned it) is merged onto the brain as stored by the keeper's
        one failure behaviour. Returns whether the lesson was kept with the game."""
        fields = self.game_fields(game=game, start=start, moves=moves, loser=loser)
        if brain is not None:
            fields["brain"] = brain
        recorded, saved = self.app.keeper.record(fields, learning, hats=hats, base=self.base_of(hats))
        if recorded is not None:
            self.play_on_with_stored(recorded)
            return True
        if saved is not None and saved.counts.shape == hats.counts.shape:
            self.set_base(hats, saved.counts)
        return False

    def base_of(self, hats):
        """The counts `hats` (one of the session's kept brains) had when it last read or wrote the store."""
        session = self.session
        if hats is None:
            return None
        if hats is session.brain:
            return session.brain_base
        if hats is session.nim_brain:
            return session.nim_base
        return None

    def set_base(self, hats, counts) -> None:
        session = self.session
        if hats is session.brain:
            session.brain_base = counts.copy()
        elif hats is session.nim_brain:
            session.nim_base = counts.copy()

    def game_fields(self, *, game: str, start: str, moves: list, loser: int) -> dict:
        """What `Store.record_game` needs to know of this finished game."""
        return dict(game=game, start=start, opponent=self.setup.opponent,
                    players=(self.players[0].name, self.players[1].name), moves=moves, loser=loser,
                    ai_seats=[seat for seat, p in enumerate(self.players) if not p.is_human])

    def play_on_with_stored(self, recorded) -> None:
        """Each seat the game taught plays on with its brain as stored (what every copy's games taught
        it), in place: whoever holds those hats sees them at once."""
        for seat, stored in recorded.brains.items():
            hats = getattr(self.players[seat], "hats", None)
            if hats is not None and stored.counts.shape == hats.counts.shape:
                hats.counts[:] = stored.counts
                self.set_base(hats, stored.counts)
