"""Seed 000's "Training AI, please wait...": a fresh AI trains by AI-vs-AI games, then plays."""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, ProgressBar, Static
from textual.worker import Worker, WorkerState

from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.ui.session import TRAINED_AI_GAMES, MatchSetup


class PretrainScreen(Screen):
    BINDINGS = [Binding("escape", "back", "Cancel")]

    def __init__(self, setup: MatchSetup) -> None:
        super().__init__()
        self.setup = setup
        self.games = self.app.trained_games or TRAINED_AI_GAMES

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="pretrain"):
            yield Static("Training AI, please wait...", id="pretrain-title")
            yield Static(f"A fresh AI plays {self.games:,} games against another learning AI at "
                         f"{self.setup.heap} sticks, taking turns to move first.", id="pretrain-help")
            with Center():
                yield ProgressBar(total=self.games, id="pretrain-bar", show_eta=False)
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "training the AI"
        seed = None if self.app.seed is None else self.app.rng.randrange(2**32)
        self._train(TrainingConfig(sticks=self.setup.heap, games=self.games, seed=seed))

    @work(thread=True, exclusive=True, group="pretrain", exit_on_error=False)
    def _train(self, config: TrainingConfig):
        from textual.worker import get_current_worker

        from sticks_tui.learn.trainer import train

        worker = get_current_worker()
        bar = self.query_one(ProgressBar)

        def progress(p) -> None:
            self.app.call_from_thread(bar.update, progress=p.games_done)

        return train(config, progress=progress, cancel=lambda: worker.is_cancelled)

    @on(Worker.StateChanged)
    def _done(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.SUCCESS and self.is_current:
            from sticks_tui.ui.screens.game import GameScreen

            result = event.worker.result
            self.notify(f"The trained AI played {result.games_played:,} games in {result.seconds:.2f} s.",
                        timeout=4)
            self.app.switch_screen(GameScreen(self.setup, trained_brain=result.brain))
        elif event.state == WorkerState.ERROR:
            self.notify(f"Training failed: {event.worker.error}", severity="error")
            self.app.pop_screen()

    def action_back(self) -> None:
        self.workers.cancel_group(self, "pretrain")
        self.app.pop_screen()
