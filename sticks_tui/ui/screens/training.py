"""Training from the menu: a dialog that asks how, and a screen that shows it happen.

The dialog offers every option of a training run (`learn.trainer.TrainingConfig` and the hat rule
`learn.hats.HatRule`, as `sticks-tui train` does), a pace, and "reset the brain first", and says in
a sentence what the run will do. The screen shows the run; at a pace (or paused, or stepping) it
tells each game's story in a short log, in the seeds' words, and marks the game's balls on the hats.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Footer, Header, Input, Label, ProgressBar, Select, Static

from sticks_tui.learn.control import BALL_BY_BALL, PACES, GameStory, pace_words
from sticks_tui.learn.hats import FLOOR_RULES, HatRule
from sticks_tui.learn.trainer import DEFAULT_PROTOCOL, MAX_GAMES, PROTOCOLS, TrainingConfig
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.training_badge import format_seconds

DEFAULT_GAMES = 100_000
PROTOCOL_LABELS = {"explore": "explore (games start at random heaps)",
                   "classic": "classic (every game from the full heap)"}
FLOOR_LABELS = {"each": "each number", "nonempty": "whole hat"}  # what keeps its last ball
PLAYERS = ("AI 1", "AI 2")  # the brain being trained, and its sparring partner


def pace_key(pace: float | str | None) -> str:
    """The pace as the dialog's select and the settings name it: 'full', 'ball', '1', '20'."""
    return "full" if pace is None else BALL_BY_BALL if pace == BALL_BY_BALL else f"{pace:g}"


PACE_OPTIONS = [(pace_words(p), pace_key(p)) for p in PACES]
PACE_OF = {pace_key(p): p for p in PACES}


class FormError(ValueError):
    """Bad input in the dialog: the message, and the field to put the cursor in."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


def parse_games(text: str) -> int:
    message = f"Please enter a number of games between 1 and {MAX_GAMES:,}."
    try:
        value = int(text.strip().replace(",", "").replace("_", ""))
    except ValueError:
        raise ValueError(message) from None
    if not 1 <= value <= MAX_GAMES:
        raise ValueError(message)
    return value


def parse_whole(text: str, what: str, low: int, high: int, field: str) -> int:
    """A whole number in [low, high] typed for `what`; FormError in words otherwise."""
    text = text.strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise FormError(f"Please enter {what} as a whole number from {low} to {high}.", field)
    return int(text)


def _balls(n: int) -> str:
    return f"{n} ball" if n == 1 else f"{n} balls"


def rule_sentence(rule: HatRule, *, fresh: bool = True) -> str:
    """The hat rule in words (what `learn.hats.reinforced_count` does with it)."""
    start = (f"Each hat starts with {_balls(rule.start_balls)} of each number. " if fresh else "")
    win = (f"A win adds {_balls(rule.win_reward)} of each number drawn" if rule.win_reward
           else "A win adds no ball")
    loss = f"a loss takes {rule.loss_penalty} away" if rule.loss_penalty else "a loss takes none away"
    floor = ("a hat never has fewer than 1 ball of each number." if rule.floor == "each"
             else "a hat may run out of a number, but never out of every number.")
    return f"{start}{win}, {loss}; {floor}"


def rule_short(rule: HatRule) -> str:
    return (f"start {rule.start_balls}, win +{rule.win_reward}, loss -{rule.loss_penalty}, "
            f"floor: {FLOOR_LABELS[rule.floor]}")


# -- a game's story in words ---------------------------------------------------------------------
def _hat_list(hats: list) -> str:
    hats = [str(h) for h in hats]
    return hats[0] if len(hats) == 1 else ", ".join(hats[:-1]) + " and " + hats[-1]


def story_sentences(story: GameStory, rule: HatRule) -> list[str]:
    """Two sentences for a game of sticks: the draws, and what each AI's hats learned from it."""
    parts = []
    for i, (player, hat, ball) in enumerate(story.draws):
        verb = "draws" if i < 2 else ""
        parts.append(f"{PLAYERS[player]} {verb + ' ' if verb else ''}ball {ball} from hat {hat}")
    loser = PLAYERS[story.loser]
    played = ", ".join(parts)
    first = f"Game {story.number:,}: {played}. {loser} has to take the last stick and loses."
    winner = PLAYERS[story.winner]
    if rule.win_reward == 0:
        won = f"{winner}'s hats stay as they were (a win adds no ball)"
    elif rule.win_reward == 1:
        won = f"{winner}'s hats get one more ball of each number it drew"
    else:
        won = f"{winner}'s hats get {rule.win_reward} more balls of each number it drew"
    kept = sorted({c.hat for c in story.changes[story.loser] if c.after == c.before}, reverse=True)
    if rule.loss_penalty == 0:
        lost = f"{loser}'s hats stay as they were (a loss takes none away)"
        kept = []
    elif rule.loss_penalty == 1:
        lost = f"{loser}'s drawn balls are thrown away"
    else:
        lost = f"{loser} throws away {rule.loss_penalty} balls of each number it drew"
    if kept and len(kept) == len(story.changes[story.loser]):
        lost = f"{loser} throws nothing away"
    if len(kept) == 1:
        lost += f" (hat {kept[0]} keeps its last ball)"
    elif 1 < len(kept) <= 5:
        lost += f" (hats {_hat_list(kept)} keep their last ball)"
    elif kept:
        lost += f" ({len(kept)} of its hats keep their last ball)"
    return [first, f"{won}; {lost}."]


# -- the dialog ----------------------------------------------------------------------------------
class TickBox(Checkbox):
    """A checkbox that reads without colour: ✓ when ticked, blank when not (Textual's shows X either way)."""

    @property
    def _button(self):
        from textual.content import Content
        from textual.style import Style

        button_style = self.get_visual_style("toggle--button")
        side_style = Style(foreground=button_style.background, background=self.background_colors[1])
        return Content.assemble((self.BUTTON_LEFT, side_style), ("✓" if self.value else " ", button_style),
                                (self.BUTTON_RIGHT, side_style))


class TrainDialog(ModalScreen[TrainingConfig | None]):
    """Every option of a training run, what it will do in words, and Train."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="train_dialog.cancel")]
    AUTO_FOCUS = "#games"
    # (CSS, not DEFAULT_CSS: it narrows the app stylesheet's dialog rows, so it must outrank it)
    CSS = """
    #train-dialog { width: 74; }
    #train-dialog .form .row { height: 1; margin-bottom: 0; }
    #train-dialog .form .field { width: 13; }
    #train-dialog .form .half { width: 1fr; height: 1; }
    #train-dialog .form .gap { width: 2; }
    #train-dialog #reset-first { width: 1fr; }
    #train-effect { margin-top: 1; height: auto; }
    #train-error { margin-top: 1; height: auto; }
    #train-error.-empty { display: none; }
    #train-dialog.-error #train-effect { display: none; }  /* the message takes the sentence's place */
    """

    def compose(self) -> ComposeResult:
        session = self.app.session
        brain = session.brain
        rule = brain.rule
        with Vertical(id="train-dialog", classes="dialog"):
            yield Static(f"Train the AI (brain '{session.brain_name}') by AI-vs-AI games", classes="dialog-title")
            with Vertical(classes="form"):
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Games", classes="field")
                        yield Input(f"{DEFAULT_GAMES}", id="games", compact=True, max_length=12)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        yield Label("Pace", classes="field")
                        yield Select(PACE_OPTIONS, value="full", allow_blank=False, id="pace", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Protocol", classes="field")
                    yield Select([(PROTOCOL_LABELS.get(k, k), k) for k in PROTOCOLS], value=DEFAULT_PROTOCOL,
                                 allow_blank=False, id="protocol", compact=True)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label(f"Heap (1-{brain.size})", classes="field")
                        yield Input(str(brain.size), id="heap", compact=True, max_length=4)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        yield Label("Floor", classes="field")
                        yield Select([(FLOOR_LABELS[f], f) for f in FLOOR_RULES], value=rule.floor,
                                     allow_blank=False, id="floor", compact=True)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Start balls", classes="field")
                        yield Input(str(rule.start_balls), id="start-balls", compact=True, max_length=5)
                    yield Static(classes="gap")
                    with Horizontal(classes="half"):
                        yield Label("Win reward", classes="field")
                        yield Input(str(rule.win_reward), id="reward", compact=True, max_length=5)
                with Horizontal(classes="row"):
                    with Horizontal(classes="half"):
                        yield Label("Loss penalty", classes="field")
                        yield Input(str(rule.loss_penalty), id="penalty", compact=True, max_length=5)
                    yield Static(classes="gap")
                    yield TickBox("Reset the brain first", id="reset-first", compact=True)
            yield Static("", id="train-effect", classes="muted")
            yield Static("", id="train-error", classes="error -empty")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Train", id="go", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self._describe()

    # -- reading the form ------------------------------------------------------------------------
    def read_form(self) -> tuple[TrainingConfig, bool]:
        """The run the form asks for and whether to reset the brain first; FormError if it cannot be."""
        session = self.app.session
        brain = session.brain
        value = lambda wid: self.query_one(f"#{wid}", Input).value  # noqa: E731
        try:
            games = parse_games(value("games"))
        except ValueError as exc:
            raise FormError(str(exc), "games") from None
        heap = parse_whole(value("heap"), "the heap", 1, brain.size, "heap")
        start = parse_whole(value("start-balls"), "the start balls", 1, 1000, "start-balls")
        reward = parse_whole(value("reward"), "the win reward", 0, 1000, "reward")
        penalty = parse_whole(value("penalty"), "the loss penalty", 0, 1000, "penalty")
        floor = self.query_one("#floor", Select).value
        rule = HatRule(start_balls=start, win_reward=reward, loss_penalty=penalty, floor=floor)
        reset = self.query_one("#reset-first", Checkbox).value
        if reset and self.app.work_in_progress(training=False):
            # that game plays with the brain as it is, and teaches it when it ends: a reset now would lose it
            raise FormError("A game with the AI is in progress: finish it before resetting the brain, or train "
                            "without resetting.", "reset-first")
        if rule != brain.rule and not reset:
            raise FormError(f"The brain '{session.brain_name}' learns by its own rule ({rule_short(brain.rule)}). "
                            "To train by another, tick \"Reset the brain first\".", "reset-first")
        pace = PACE_OF[self.query_one("#pace", Select).value]
        protocol = self.query_one("#protocol", Select).value
        config = TrainingConfig(sticks=heap, games=games, protocol=protocol, rule=rule, pace=pace)
        return config, reset  # no seed yet: `_go` draws it, so describing the form uses up none

    def _describe(self) -> None:
        effect = self.query_one("#train-effect", Static)
        try:
            config, reset = self.read_form()
        except FormError:
            effect.update("What the run will do is told here when every field holds a good value.")
            return
        name = self.app.session.brain_name
        heaps = ("random heaps from 2 to " if config.protocol == "explore" else "a heap of ") + str(config.sticks)
        run = f"{config.games:,} {'game' if config.games == 1 else 'games'} from {heaps}, at {pace_words(config.pace)}."
        if reset:
            first = f"First the brain '{name}' forgets everything it learned (its games trained go back to 0). "
            effect.update(first + rule_sentence(config.rule) + " " + run)
        else:
            effect.update(f"The brain '{name}' keeps what it learned. " + rule_sentence(config.rule, fresh=False)
                          + " " + run)

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        error = self.query_one("#train-error", Static)
        error.update("")
        error.add_class("-empty")
        self.query_one("#train-dialog").remove_class("-error")
        if self.is_mounted:
            self._describe()

    @on(Input.Submitted)
    @on(Button.Pressed, "#go")
    def _go(self) -> None:
        try:
            config, reset = self.read_form()
        except FormError as exc:
            self._show_error(str(exc) + " Nothing was started.")
            self.query_one(f"#{exc.field}").focus()
            return
        if reset and not self._reset_brain(config.rule):
            return
        self.dismiss(replace(config, seed=self.app.session.child_seed()))

    def _show_error(self, message: str) -> None:
        error = self.query_one("#train-error", Static)
        error.update(message)
        error.remove_class("-empty")
        self.query_one("#train-dialog").add_class("-error")

    def _reset_brain(self, rule: HatRule) -> bool:
        """Reset the stored brain (the store's own reset), with `rule` if it differs; reload it."""
        from sticks_tui.learn.hats import Hats
        from sticks_tui.store import StoreError

        app = self.app
        name = app.session.brain_name
        store = app.session.store
        try:
            store.reset_brain(name)
            stored = store.load_brain(name)
            if stored.rule != rule:  # a new rule: fresh hats learning by it, from now
                store.save_brain(name, Hats(stored.size, stored.max_take, rule), replace=True)
        except (StoreError, ValueError) as exc:
            self._show_error(f"The brain was not reset: {exc} Nothing was started.")
            return False
        app.load_brain(name)
        return True

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


# -- the training screen -------------------------------------------------------------------------
class TrainingScreen(Screen):
    """Progress, games/s, time left, the hats changing, the learning curve; pace, pause, step, cancel."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="training.back"),  # training goes on
        Binding("space", "toggle_pause", "Pause", id="training.toggle_pause"),
        Binding("s,full_stop", "step", "Step", key_display="s", id="training.step"),
        Binding("plus,equals_sign", "faster", "Pace", key_display="+/-", id="training.faster"),  # one entry for both
        Binding("minus", "slower", "Slower", show=False, id="training.slower"),
        Binding("c", "cancel_training", "Cancel", show=False, id="training.cancel_training"),  # the button shows it; it asks
        Binding("p", "toggle_perfect", "Perfect", show=False, id="training.toggle_perfect"),
        Binding("e", "export", "Export", id="training.export"),
    ]
    COMMANDS = {screen_commands(
        ("Show the perfect moves", "Mark the winning ball of each winning hat on the heatmap", "toggle_perfect"),
        ("Pause or resume training", "Stop the run between two games, or let it go on", "toggle_pause"),
        ("Play one training game", "Play one game, tell its story, and pause", "step"),
    )}
    AUTO_FOCUS = "#training-heatmap"  # never a button: Enter must not cancel the run
    DEFAULT_CSS = """
    #training-pace { height: 1; }
    #training-controls { height: 1; margin: 1 0; }
    #training-controls Button { margin-right: 1; width: auto; min-width: 6; }
    #training-controls #pause { width: 8; }
    #training-log { height: 1fr; min-height: 4; display: none; }
    TrainingScreen.-told #training-log { display: block; }
    TrainingScreen.-told.-narrow #curve { display: none; }
    TrainingScreen.-told.-wide #training-log { height: 12; }
    """
    # (CSS, not DEFAULT_CSS: these narrow the app stylesheet's own margins, so they must outrank it)
    CSS = """
    TrainingScreen.-told.-narrow #training-status { margin-top: 0; }
    TrainingScreen.-told.-narrow #training-bar { margin: 0; }
    TrainingScreen.-told.-narrow #training-figures { margin-bottom: 0; }
    """

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="training"):
            with Vertical(id="training-left"):
                yield Static("", id="training-status")
                yield ProgressBar(total=1, id="training-bar", show_eta=False)
                yield Static("", id="training-figures")
                yield Static("", id="training-pace")
                with Horizontal(id="training-controls"):
                    yield Button("Pause", id="pause", compact=True, action="screen.toggle_pause")
                    yield Button("Step", id="step", compact=True, action="screen.step")
                    yield Button("Slower", id="slower", compact=True, action="screen.slower")
                    yield Button("Faster", id="faster", compact=True, action="screen.faster")
                yield LearningCurve(id="curve")
                yield MoveLog(id="training-log")
                with Horizontal(id="training-buttons"):
                    yield Button("Cancel training", id="cancel-training", variant="error", action="screen.cancel_training")
                    yield Button("Back", id="back", action="screen.back")
            with Vertical(id="training-hats"):
                yield Label("AI 1's hats: the brain being trained", id="training-hats-title")
                yield HatHeatmap(id="training-heatmap")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "training the AI"
        self._hats_shown = None
        self._told = 0  # the last game number told in the log
        self._flash_timer = None
        for button in self.query(Button):  # keys go to the screen's bindings, never to a focused button
            button.can_focus = False
        self.watch(self.app, "training", self._update, init=True)

    @property
    def control(self):
        return getattr(self.app, "training_control", None)

    def _update(self, progress) -> None:
        state = self.app.session.training
        status = self.query_one("#training-status", Static)
        bar = self.query_one("#training-bar", ProgressBar)
        figures = self.query_one("#training-figures", Static)
        self.query_one("#cancel-training", Button).display = state.running
        self.query_one("#training-controls").display = state.running
        if state.running != getattr(self, "_bindings_for", None):
            self._bindings_for = state.running
            self.refresh_bindings()
        self._show_pace()
        if progress is None:
            status.update("Starting ..." if state.running else "No training has run yet: press t.")
            return
        bar.update(total=max(1, progress.games_total), progress=progress.games_done)
        control = self.control
        if state.running:
            word = "Paused" if control is not None and control.paused else "Training"
            status.update(f"{word}: {progress.games_done:,} of {progress.games_total:,} games")
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
        story = getattr(progress, "story", None)
        if story is not None and story.number > self._told:
            self._tell(story, progress.hats)
        elif story is None and progress.games_done != self._told:
            heatmap.data = heatmap.data.with_(counts=progress.hats, beside=frozenset(), flash=(), drawn=None)

    def _tell(self, story: GameStory, after: np.ndarray) -> None:
        """The game in the log; on the hats, AI 1's drawn balls beside their hats (•), then its changes (↑/↓)."""
        self._told = story.number
        self.add_class("-told")
        log = self.query_one(MoveLog)
        rule = self.app.session.brain.rule
        for sentence in story_sentences(story, rule):
            log.write(sentence)
        heatmap = self.query_one(HatHeatmap)
        changes = story.changes[0]
        before = after.copy()
        for change in changes:
            before[change.hat, change.ball - 1] = change.before
        drawn = frozenset((hat, ball) for player, hat, ball in story.draws if player == 0)
        heatmap.data = heatmap.data.with_(counts=before, beside=drawn, flash=(), drawn=None)
        # then the balls go back with the game's changes: ↑ added, ↓ thrown away (one kept at its floor: no mark)
        flash = tuple((c.hat, c.ball, c.after - c.before) for c in changes if c.after != c.before)

        def learned() -> None:
            self._flash_timer = None
            heatmap.data = heatmap.data.with_(counts=after, beside=frozenset(), flash=flash)

        if self._flash_timer is not None:
            self._flash_timer.stop()
        control = self.control
        pace = control.pace if control is not None else None
        delay = 0.1 if pace is None or (control is not None and control.paused) else min(0.4, 0.5 / pace)
        self._flash_timer = self.set_timer(delay, learned)

    def _show_pace(self) -> None:
        control = self.control
        running = self.app.session.training.running
        pace_line = self.query_one("#training-pace", Static)
        if control is None or not running:
            pace_line.update("")
            return
        paused = control.paused
        pace_line.update(f"Pace: {pace_words(control.pace)}" + (" (paused)" if paused else ""))
        self.query_one("#pause", Button).label = "Resume" if paused else "Pause"

    # -- actions ------------------------------------------------------------------------------------
    RUN_ACTIONS = frozenset({"toggle_pause", "step", "faster", "slower", "cancel_training"})

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The run's keys only while a run goes on (the footer shows them only then)."""
        if action in self.RUN_ACTIONS:
            return self._running_control() is not None
        return True

    def _running_control(self):
        control = self.control
        return control if control is not None and self.app.session.training.running else None

    def action_toggle_pause(self) -> None:
        control = self._running_control()
        if control is not None:
            control.toggle_pause()
            self.app.training = self.app.training  # this screen and the badges say so at once

    def action_step(self) -> None:
        control = self._running_control()
        if control is not None:
            control.step()
            self._update(self.app.training)

    def _change_pace(self, by: int) -> None:
        control = self._running_control()
        if control is None:
            return
        paces = list(PACES)
        pace = control.pace
        if pace in paces:
            index = paces.index(pace)
        else:  # a pace not offered: the nearest offered one
            index = min(range(len(paces) - 1), key=lambda i: abs(paces[i] - pace))
        control.set_pace(paces[max(0, min(len(paces) - 1, index + by))])
        self._show_pace()
        self.app.training = self.app.training  # the badges say the new pace

    def action_slower(self) -> None:
        self._change_pace(-1)

    def action_faster(self) -> None:
        self._change_pace(+1)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_cancel_training(self) -> None:
        """Stop the run, after asking (one stray key must not end a long run)."""
        if not self.app.session.training.running:
            return
        from sticks_tui.ui.screens.confirm import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.action_cancel_training()

        self.app.push_screen(ConfirmDialog("Stop training now? The AI keeps what it learned so far.",
                                           yes="Stop training"), answered)

    def action_toggle_perfect(self) -> None:
        heatmap = self.query_one(HatHeatmap)
        heatmap.show_perfect = not heatmap.show_perfect

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import open_export, training_exports

        open_export(self, training_exports(self.app))
