"""The sticks-tui Textual app: screens, the learning AI's brain, background training, the store."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from sticks_tui.learn.hats import Hats
from sticks_tui.ui.messages import TrainingUpdate

BRAIN_SIZE = 100  # one hat for every heap the app offers
DEFAULT_BRAIN = "default"


def stylesheet_path() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "styles.tcss", here.parent.parent / "styles.tcss"):
        if candidate.exists():
            return candidate
    return here.parent / "styles.tcss"


class SticksApp(App):
    """Play the Game of Sticks against an AI that learns, and watch it learn."""

    TITLE = "sticks-tui"
    SUB_TITLE = "a machine that learns from experience"
    CSS_PATH = str(stylesheet_path())
    # styles.tcss widens the hats panel on "Screen.-wide"; without this no screen ever got the class.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("q", "quit", "Quit", show=False),
        Binding("f2,t", "train", "Train", key_display="F2"),
        Binding("f3,r", "records", "Records", key_display="F3"),
        Binding("f4,a", "analysis", "Analysis", key_display="F4"),
    ]

    #: The newest training snapshot (None when no training has run); screens watch it.
    training: reactive[object | None] = reactive(None, always_update=True)

    def __init__(self, data_dir: str | None = None, *, seed: int | None = None,
                 ai_delay: float | None = None, trained_games: int | None = None) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.rng = random.Random(seed)
        self.seed = seed
        self.ai_delay_override = ai_delay
        self.trained_games = trained_games
        self.store = None
        self.brain_name = DEFAULT_BRAIN
        self.brain = Hats(BRAIN_SIZE)
        self.brain_games = 0
        self.training_running = False
        self._training_cancel = threading.Event()
        self._training_base: np.ndarray | None = None
        self.last_training_result = None
        self.training_points: list[tuple[int, float, float]] = []  # the running curve
        self.last_setup = None

    # -- start-up ------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self._open_store()
        from sticks_tui.ui.screens.setup import SetupScreen

        self.push_screen(SetupScreen())

    def _open_store(self) -> None:
        from sticks_tui.store import Store

        self.store = Store.open(self.data_dir)
        for notice in self.store.notices:
            self.notify(notice, title="Your data", severity="warning", timeout=12)
        self.load_brain(self.brain_name)

    def load_brain(self, name: str) -> None:
        from sticks_tui.store import StoreError

        try:
            hats = self.store.load_or_create_brain(name, BRAIN_SIZE)
        except StoreError as exc:
            self.notify(f"{exc} The AI starts with fresh hats.", title="Brain not loaded", severity="error",
                        timeout=10)
            hats = Hats(BRAIN_SIZE)
        self.brain = hats
        self.brain_name = name

    def save_brain(self, games_trained: int = 0) -> None:
        from sticks_tui.store import StoreError

        try:
            self.store.save_brain(self.brain_name, self.brain, games_trained=games_trained)
        except StoreError as exc:
            self.notify(str(exc), title="Not saved", severity="error", timeout=10)

    def record_game(self, **fields) -> None:
        from sticks_tui.store import StoreError

        try:
            self.store.record_game(**fields)
        except StoreError as exc:
            self.notify(str(exc), title="Not saved", severity="error", timeout=10)

    # -- commands ------------------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Go to the setup screen and start a new game", self.action_new_game)
        yield SystemCommand("Train the AI", "Let the learning AI play itself in the background",
                            self.action_train)
        if self.training_running:
            yield SystemCommand("Watch training", "Show the training run's progress and hats",
                                self.action_show_training)
            yield SystemCommand("Cancel training", "Stop the training run; the AI keeps what it learned",
                                self.action_cancel_training)
        train_nim = getattr(screen, "action_train_nim", None)
        if train_nim is not None:
            yield SystemCommand("Train the Nim AI", "500,000 games of self-play for the learning AI for Nim",
                                train_nim)
        yield SystemCommand("Records", "Wins and losses of every player, and recent games", self.action_records)
        yield SystemCommand("Analysis", "What the AI learned, held against the exact solution",
                            self.action_analysis)

    def action_new_game(self) -> None:
        from sticks_tui.ui.screens.setup import SetupScreen

        while len(self.screen_stack) > 2:
            self.pop_screen()
        if not isinstance(self.screen, SetupScreen):
            self.pop_screen() if len(self.screen_stack) > 1 else None

    def action_train(self) -> None:
        from sticks_tui.ui.screens.training import TrainDialog

        if self.training_running:
            self.action_show_training()
            return
        self.push_screen(TrainDialog(), self._train_chosen)

    def _train_chosen(self, config) -> None:
        if config is not None:
            self.start_training(config)
            self.action_show_training()

    def action_show_training(self) -> None:
        from sticks_tui.ui.screens.training import TrainingScreen

        if not isinstance(self.screen, TrainingScreen):
            self.push_screen(TrainingScreen())

    def action_cancel_training(self) -> None:
        if self.training_running:
            self._training_cancel.set()

    def action_records(self) -> None:
        from sticks_tui.ui.screens.records import RecordsScreen

        if not isinstance(self.screen, RecordsScreen):
            self.push_screen(RecordsScreen())

    def action_analysis(self) -> None:
        from sticks_tui.ui.screens.analysis import AnalysisScreen

        if not isinstance(self.screen, AnalysisScreen):
            self.push_screen(AnalysisScreen())

    # -- background training -------------------------------------------------------------------
    def start_training(self, config) -> None:
        """Train a copy of the brain in a thread; when it ends, fold the result back in."""
        if self.training_running:
            return
        self.training_running = True
        self._training_cancel.clear()
        self._training_base = self.brain.counts.copy()
        self.training = None
        self.training_points = []
        self._train(config, self.brain.copy())

    @work(thread=True, exclusive=True, group="training", exit_on_error=False)
    def _train(self, config, brain: Hats):
        from textual.worker import get_current_worker

        from sticks_tui.learn.trainer import train

        worker = get_current_worker()

        def progress(snapshot) -> None:
            self.post_message(TrainingUpdate(snapshot))

        return train(config, brain=brain, progress=progress,
                     cancel=lambda: worker.is_cancelled or self._training_cancel.is_set())

    def on_training_update(self, message: TrainingUpdate) -> None:
        p = message.progress
        self.training_points.append((p.games_done, p.agreement, p.win_probability_vs_perfect))
        self.training = p

    @on(Worker.StateChanged)
    def _training_state(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "training":
            return
        if event.state == WorkerState.SUCCESS:
            self._training_finished(event.worker.result)
        elif event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self.training_running = False
            if event.state == WorkerState.ERROR:
                self.notify(f"Training stopped: {event.worker.error}", title="Training", severity="error",
                            timeout=10)

    def _training_finished(self, result) -> None:
        """Fold the trained copy back into the live brain, keeping what games played meanwhile taught it."""
        if result is self.last_training_result:  # folded already (quitting folds it before the worker event)
            return
        self.training_running = False
        live = self.brain.counts
        played_meanwhile = live - self._training_base
        merged = result.brain.counts + played_meanwhile
        floor = Hats.fresh_counts(self.brain.size, self.brain.max_take, 1)
        if self.brain.rule.floor == "each":
            merged = np.maximum(merged, floor)
        else:
            merged = np.maximum(merged, 0)
            for n in range(1, self.brain.size + 1):
                legal = min(self.brain.max_take, n)
                if merged[n, :legal].sum() == 0:
                    merged[n, :legal] = live[n, :legal]
        live[:] = merged
        self.last_training_result = result
        self.save_brain(games_trained=result.games_played)
        try:
            self.store.save_training_curve(self.brain_name,
                                           result.curve)
        except Exception as exc:  # noqa: BLE001 - a curve not saved must not stop the app
            self.notify(f"The learning curve was not saved: {exc}", severity="warning")
        from sticks_tui.learn.analysis import quick_scores

        agreement, _ = quick_scores(self.brain.counts)
        verb = "Cancelled after" if result.cancelled else "Finished"
        self.notify(
            f"{verb} {result.games_played:,} games in {result.seconds:.1f} s "
            f"({result.games_per_second:,.0f} games/s). Agreement with perfect play: {agreement:.0%}.",
            title="Training", timeout=8)
        self.training = self.training  # wake the watchers with the final state

    async def action_quit(self) -> None:
        """Quit; a training run still going is stopped first and what it learned is kept (like Cancel)."""
        if self.training_running:
            self._training_cancel.set()
            for worker in self.workers:
                if worker.group == "training":
                    try:
                        await worker.wait()
                    except Exception:  # noqa: BLE001 - a failed run has nothing to keep; quit all the same
                        continue
                    if worker.state == WorkerState.SUCCESS:
                        self._training_finished(worker.result)
        self.exit()

    def ai_delay(self, setup) -> float:
        return self.ai_delay_override if self.ai_delay_override is not None else setup.delay

    def on_unmount(self) -> None:
        self._training_cancel.set()
        if self.store is not None:
            self.store.close()
