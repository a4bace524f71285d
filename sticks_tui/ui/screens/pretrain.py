"""Seed 000's "Training AI, please wait...": a fresh AI trains by AI-vs-AI games, then plays."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import ProgressBar, Static

from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.ui.messages import TrainingFinished, TrainingProgressMsg
from sticks_tui.ui.session import TRAINED_AI_GAMES, MatchSetup
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.training import TrainingJob, start_training_worker, sticks_run
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader

PRETRAIN = "trained-ai"  # the purpose of this screen's training run


class PretrainScreen(StyledOnce, Screen):
    BINDINGS = [Binding("escape", "back", "Cancel", id="pretrain.back")]

    def __init__(self, setup: MatchSetup) -> None:
        super().__init__()
        self.setup = setup
        self.games = self.app.session.trained_games or TRAINED_AI_GAMES
        self.job: TrainingJob | None = None

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Vertical(id="pretrain"):
            yield Static("Training AI, please wait...", id="pretrain-title")
            yield Static(f"A fresh AI plays {self.games:,} games against another learning AI at "
                         f"{self.setup.rules.position_text(self.setup.start_position)}, taking turns to move first.", id="pretrain-help")
            with Center():
                yield ProgressBar(total=self.games, id="pretrain-bar", show_eta=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "training the AI"
        config = TrainingConfig(game=self.setup.rules, games=self.games, seed=self.app.session.child_seed())
        self.job = start_training_worker(self, PRETRAIN, sticks_run(config), idle=self.app.session.idle_training)

    def on_training_progress_msg(self, message: TrainingProgressMsg) -> None:
        self.query_one(ProgressBar).update(progress=message.progress.games_done)

    def on_training_finished(self, message: TrainingFinished) -> None:
        if not self.is_current:
            return
        if message.error is not None:
            self.notify(f"Training failed: {message.error}", severity="error")
            self.app.pop_screen()
            return
        result = message.result
        if result.cancelled:
            return
        from sticks_tui.ui.screens.game import GameScreen

        self.notify(f"The trained AI played {result.games_played:,} games in {result.seconds:.2f} s.", timeout=4)
        self.app.switch_screen(GameScreen(self.setup, trained_brain=result.brain))

    def action_back(self) -> None:
        if self.job is not None:
            self.job.cancel()
        self.app.pop_screen()
