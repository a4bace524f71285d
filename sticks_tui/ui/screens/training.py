"""Training from the menu: a dialog that asks how, and a screen that shows it happen."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Input, Label, ProgressBar, Select, Static

from sticks_tui.learn.trainer import DEFAULT_PROTOCOL, MAX_GAMES, PROTOCOLS, TrainingConfig
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.training_badge import format_seconds

DEFAULT_GAMES = 100_000
PROTOCOL_LABELS = {"explore": "explore (games start at random heaps)",
                   "classic": "classic (every game from the full heap)"}


def parse_games(text: str) -> int:
    message = f"Please enter a number of games between 1 and {MAX_GAMES:,}."
    try:
        value = int(text.strip().replace(",", "").replace("_", ""))
    except ValueError:
        raise ValueError(message) from None
    if not 1 <= value <= MAX_GAMES:
        raise ValueError(message)
    return value


class TrainDialog(ModalScreen[TrainingConfig | None]):
    """How many games, which protocol, which heap."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="train_dialog.cancel")]
    AUTO_FOCUS = "#games"

    def compose(self) -> ComposeResult:
        brain = self.app.session.brain
        with Vertical(id="train-dialog", classes="dialog"):
            yield Static(f"Train the AI (brain '{self.app.session.brain_name}') by AI-vs-AI games", classes="dialog-title")
            with Vertical(classes="form"):
                with Horizontal(classes="row"):
                    yield Label("Games", classes="field")
                    yield Input(f"{DEFAULT_GAMES}", id="games", compact=True, max_length=12)
                yield Label("", id="games-error", classes="error")
                with Horizontal(classes="row"):
                    yield Label("Protocol", classes="field")
                    yield Select([(PROTOCOL_LABELS.get(k, k), k) for k in PROTOCOLS], value=DEFAULT_PROTOCOL,
                                 allow_blank=False, id="protocol", compact=True)
                with Horizontal(classes="row"):
                    yield Label(f"Heap (1-{brain.size})", classes="field")
                    yield Input(str(brain.size), id="heap", compact=True, max_length=4)
                yield Static("Training plays from every heap up to this one: the AI's hats 1 to "
                             f"{brain.size} cover every game the app offers.", classes="muted")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Train", id="go", variant="primary")
                yield Button("Cancel", id="cancel")

    @on(Input.Changed)
    def _clear(self) -> None:
        self.query_one("#games-error", Label).update("")

    @on(Input.Submitted)
    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        error = self.query_one("#games-error", Label)
        try:
            games = parse_games(self.query_one("#games", Input).value)
        except ValueError as exc:
            error.update(str(exc))
            self.query_one("#games", Input).focus()
            return
        size = self.app.session.brain.size
        text = self.query_one("#heap", Input).value.strip()
        if not text.isdigit() or not 1 <= int(text) <= size:
            error.update(f"Please enter a heap between 1 and {size}.")
            self.query_one("#heap", Input).focus()
            return
        protocol = self.query_one("#protocol", Select).value
        self.dismiss(TrainingConfig(sticks=int(text), games=games, protocol=protocol,
                                    seed=self.app.session.child_seed(),
                                    rule=self.app.session.brain.rule))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class TrainingScreen(Screen):
    """Progress, games/s, time left, the hats changing, the learning curve, and Cancel."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="training.back"),  # training goes on
        Binding("c", "cancel_training", "Cancel", id="training.cancel_training"),
        Binding("p", "toggle_perfect", "Perfect", id="training.toggle_perfect"),
        Binding("e", "export", "Export", id="training.export"),
    ]
    COMMANDS = {screen_commands(
        ("Show the perfect moves", "Mark the winning ball of each winning hat on the heatmap", "toggle_perfect"),
    )}

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="training"):
            with Vertical(id="training-left"):
                yield Static("", id="training-status")
                yield ProgressBar(total=1, id="training-bar", show_eta=False)
                yield Static("", id="training-figures")
                yield LearningCurve(id="curve")
                with Horizontal(id="training-buttons"):
                    yield Button("Cancel training", id="cancel-training", variant="error", action="screen.cancel_training")
                    yield Button("Back", id="back", action="screen.back")
            with Vertical(id="training-hats"):
                yield Label("The hats being trained", id="training-hats-title")
                yield HatHeatmap(id="training-heatmap")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "training the AI"
        self._hats_shown = None
        self.watch(self.app, "training", self._update, init=True)

    def _update(self, progress) -> None:
        state = self.app.session.training
        status = self.query_one("#training-status", Static)
        bar = self.query_one("#training-bar", ProgressBar)
        figures = self.query_one("#training-figures", Static)
        self.query_one("#cancel-training", Button).display = state.running
        if progress is None:
            status.update("Starting ..." if state.running else "No training has run yet: press t.")
            return
        bar.update(total=max(1, progress.games_total), progress=progress.games_done)
        if state.running:
            status.update(f"Training: {progress.games_done:,} of {progress.games_total:,} games")
        else:
            result = state.last_result
            word = "Cancelled" if result is not None and result.cancelled else "Finished"
            status.update(f"{word}: {progress.games_done:,} of {progress.games_total:,} games. "
                          "The AI keeps what it learned.")
        rate = progress.games_per_second
        rate_text = f"{rate / 1e6:.2f}M" if rate >= 1e6 else f"{rate:,.0f}"
        left = format_seconds(progress.seconds_left) if state.running else "0 s"
        figures.update(f"{rate_text} games/s, {format_seconds(progress.seconds)} gone, {left} left")
        curve = self.query_one(LearningCurve)
        curve.points = tuple(state.points)
        hats = progress.hats.shape[0] - 1
        heatmap = self.query_one(HatHeatmap)
        if self._hats_shown != hats:
            self._hats_shown = hats
            solution = solve_sticks(hats)
            heatmap.data = HeatmapData(counts=progress.hats, hats=hats, max_take=progress.hats.shape[1],
                                       perfect=tuple(solution.winning_moves(n) for n in range(hats + 1)))
        else:
            heatmap.data = heatmap.data.with_(counts=progress.hats)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_cancel_training(self) -> None:
        self.app.action_cancel_training()

    def action_toggle_perfect(self) -> None:
        heatmap = self.query_one(HatHeatmap)
        heatmap.show_perfect = not heatmap.show_perfect

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import open_export, training_exports

        open_export(self, training_exports(self.app))
