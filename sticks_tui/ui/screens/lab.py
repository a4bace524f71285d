"""The learning lab (issue 20): pick a game, learners and seeds, race them in the background, and see
every learner's curve on one chart and its games to mastery in a table.

The runs go to worker processes (`learn.lab.run_lab`), so the app's own thread stays free for key
presses; this screen's thread worker only waits for them. Leaving the screen cancels a lab in
progress. The chart is textual-plotext: a log-scale games axis, and each learner's median curve drawn
with a glyph of its own (•, x, +, o, *, #) and named in the legend, so it reads without colour.

A finished lab is kept in the database (`Store.save_lab`, from the worker thread: a busy database never
holds up a key press); a cancelled one is not. The chart and the table are drawn from the lab's document
(`LabResult.as_json()`), the very thing kept, so a lab chosen under "Kept" shows again as it did.
Export (Ctrl+S) writes the lab shown, its table and curves, as CSV or JSON through the export dialog.
"""

from __future__ import annotations

import threading
import time

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Label, ProgressBar, Select, Static

from sticks_tui.learn.lab import (DEFAULT_LEARNERS, DEFAULT_SEEDS, MAX_CAP, MAX_SEEDS, PRESETS, LabConfig, LabError,
                                  LabResult, default_cap, default_size, games, parse_learner, run_lab, size_range,
                                  within_size)  # numpy only: numba loads when a lab runs
from sticks_tui.store.errors import StoreError
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.screens.help import HelpScreen, game_sections
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.heatmap import short_count
from sticks_tui.ui.widgets.inputs import Input

def figure_title(key: str, doc: dict) -> str:
    """The chart's title for a figure of the lab's curve (`agreement` or `vs_perfect`), from the lab's own words."""
    if key == "agreement":
        return "agreement with perfect play, % (median over seeds)"
    return f"{doc.get('vs_perfect_means', 'chance to win')} vs the perfect player, % (both seats' mean, seeds' median)"


#: The figure button names the figure it switches to.
FIGURE_BUTTON = {"agreement": "Vs perfect", "vs_perfect": "Agreement"}

#: Seconds between two showings of a lab's results so far while it runs.
PARTIAL_EVERY = 0.5
#: Seconds between two showings of its progress.
PROGRESS_EVERY = 0.25
#: The table's columns (F1 explains each).
TABLE_COLUMNS = ("", "learner", "learns from", "mastery med", "p90", "never", "1st med", "2nd med", "held", "agree",
                 "secs")
#: One glyph per learner, in order: the series are told apart without colour.
MARKERS = ("•", "x", "+", "o", "*", "#")
CUSTOM = "custom"


def _games(n: int | None) -> str:
    return "never" if n is None else f"{n:,}"


def setup_game(app) -> tuple[str, int | None]:
    """The game and size the setup screen has (saved at once as they change: the settings), as the lab
    races it: its board says the size (sticks: the heap; Nim: the largest pile, at most 7), else the lab's
    default for the game."""
    from sticks_tui.engine import registry

    settings = getattr(app, "settings", None)
    lab_games = games()
    game = getattr(settings, "game", lab_games[0])
    if game not in lab_games:
        game = lab_games[0]
    board = registry.entry(game).board.get("board")
    size_of = getattr(board, "setup_lab_size", None)
    if size_of is None:
        return game, default_size(game)
    try:
        return game, within_size(game, size_of(settings))
    except (AttributeError, TypeError, ValueError):
        return game, default_size(game)


def lab_help_sections() -> list[tuple[str, str]]:
    """The lab in a teacher's words: what it does, every column of its table, each learner, and the chart."""
    return [
        ("What the lab does",
         "It trains each learner from scratch, once per seed, on the game chosen, and watches after every "
         "game whether it has mastered the game. Every learner gets the same seeds, so the race is fair, "
         "and the figures come from the game's exact solution, not from guesses.\n"
         "Seeds: how many times each learner is trained from scratch (each seed is a different run of "
         "luck). Cap: the most games one run may play. Results appear seed by seed as runs finish."),
        ("Mastered: unbeatable",
         "A learner has mastered the game when its own play can no longer be beaten where it should not "
         "be: from every start the lab uses, moving first and moving second, whatever the opponent "
         "does, it never loses a position it could win (nor loses one where it could hold a draw). "
         "Its play means its favourite move in each position: the hats' likeliest ball (when two balls "
         "tie, both count), a value learner's highest value. The hats really play by drawing, so a "
         "mastered hat can still draw a bad ball now and then: mastery is of its likeliest move."),
        ("The table's columns",
         "learns from: whether each game teaches the learner's table from one seat (its own moves only) "
         "or from both seats (one table plays both sides, so every game teaches it from both).\n"
         "mastery med: the median number of games to mastery over the seeds: half the runs got there "
         "sooner.\n"
         "p90: nine runs in ten got there by then ('never' when more than one in ten did not).\n"
         "never: how many runs did not get there within the cap.\n"
         "1st med, 2nd med: the same median for being unbeatable moving first only, or moving second "
         "only (in noughts: playing X, or playing O).\n"
         "held: how many runs were still unbeatable at the end of their run. A learner can master "
         "the game and then unlearn it; 'held' tells you whether it stayed mastered.\n"
         "agree: the share of every position where its favourite move is right (median over seeds), "
         "even positions its own play never reaches.\n"
         "secs: the seconds the runs took."),
        ("The learners",
         "hats: the app's own learner, a hat of balls per position; a win adds balls, a loss takes "
         "them away. 'hats' plays a second set of hats (two tables: each game teaches the one measured "
         "from one seat). 'hats:table=one' is one set of hats playing both seats, learning from both.\n"
         "q: Q-learning as textbooks write it for two players: one table of move values for both "
         "seats; a move's value moves towards minus the best value of the position the opponent then "
         "faces (what is good for the opponent is bad for you), or the result at the end. alpha: how far "
         "a value moves each time (1: all the way); epsilon: how often it tries a random move.\n"
         "qseat: Q-learning with one table per seat that treats the opponent as part of the world: a "
         "value moves towards the best value at its own next turn. With a random-moving opponent its "
         "values chase luck, which is why it can be slow or never settle.\n"
         "mc: Monte-Carlo control: after each game every move played moves towards the game's result.\n"
         "Each learner's settings are typed after it, e.g. hats:reward=3,penalty=1 or q:alpha=0.5."),
        ("The chart",
         "Games on a log scale across (1, 10, 100, ...), one line per learner with its own mark, named "
         "in the legend under the chart; the dots (·) around the line of the learner highlighted in the "
         "table are its band: the middle 80% of the seeds (10th to 90th percentile). Ctrl+G switches "
         "between agreement and the chance against a perfect player."),
        ("Why a perfect learner reaches only 50% against a perfect player",
         "The chance against the perfect player is averaged over both seats. In sticks (and in Nim and "
         "Hexapawn) one seat can force a win from the start: from the winning seat a perfect learner "
         "always wins, from the losing seat the perfect player always wins. So the best anyone can "
         "score is 100% in one seat and 0% in the other: 50% over both seats. In noughts and crosses nobody "
         "can force a win, so there the figure is the chance not to lose, and a perfect learner reaches "
         "100%."),
    ]


def _say(static: Static, text: str) -> None:
    """Show `text`, unless it is shown already: an update lays the whole screen out again, and each field's
    Changed as the lab opens (and every key typed in one) said the same words again."""
    if static.content != text:
        static.update(text)


class LabScreen(StyledOnce, Screen):
    DEFAULT_CSS = """
    LabScreen #lab-view { height: 1fr; padding: 0 1; }
    LabScreen .lab-row { height: 1; }
    LabScreen .lab-row Label { padding-right: 1; }
    LabScreen #lab-game { width: 14; }
    LabScreen #lab-preset { width: 1fr; }
    LabScreen #lab-size, LabScreen #lab-seeds { width: 7; }
    LabScreen #lab-cap { width: 11; }
    LabScreen #lab-learners { width: 1fr; }
    LabScreen #lab-error { height: auto; color: $error; }
    LabScreen #lab-look-for { height: auto; color: $text-muted; }
    LabScreen #lab-error, LabScreen #lab-look-for { display: none; }
    LabScreen #lab-error.-shown, LabScreen #lab-look-for.-shown { display: block; }
    LabScreen #lab-kept { width: 1fr; }
    LabScreen #lab-progress { width: 22; display: none; }
    LabScreen #lab-progress.-running { display: block; }
    LabScreen #lab-status { width: 1fr; }
    LabScreen #lab-chart-title { height: 1; color: $text-muted; }
    LabScreen #lab-chart { height: 1fr; min-height: 12; }  /* the rest of a big screen; 8 rows of plot at 80x24 */
    LabScreen #lab-legend { height: auto; }
    LabScreen #lab-table { height: auto; max-height: 9; }
    LabScreen Button { min-width: 8; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back", id="lab.back"),
        Binding("f1,question_mark", "lab_help", "Help", key_display="F1", id="lab.help", tooltip="The lab explained"),
        Binding("ctrl+r", "run_lab", "Run", id="lab.run"),
        Binding("ctrl+t", "cancel_lab", "Cancel", id="lab.cancel"),
        Binding("ctrl+s", "export_lab", "Export", id="lab.export"),
        Binding("ctrl+o", "kept_labs", "Kept labs", id="lab.kept"),
        Binding("ctrl+g", "switch_figure", "Figure", id="lab.figure"),
    ]
    COMMANDS = {screen_commands(
        ("Run the lab", "Race the learners over the seeds", "run_lab"),
        ("Cancel the lab", "Stop the lab in progress", "cancel_lab"),
        ("Export the lab", "Write the lab shown, its table and curves, as CSV or JSON", "export_lab"),
        ("Kept labs", "Show a lab kept in the database again", "kept_labs"),
        ("Switch the chart's figure", "Agreement with perfect play, or the chance against the perfect player",
         "switch_figure"),
    )}

    def __init__(self, workers: int | None = None, game: str | None = None, size: int | None = None) -> None:
        """`game` and `size`: what the lab opens on (default: the setup screen's game and size)."""
        super().__init__()
        self.lab_workers = workers
        self.start_game = game
        self.start_size = size
        self.result: LabResult | None = None  # the lab run here, last
        self.shown: dict | None = None  # the document of the lab shown (run here or kept)
        self.shown_id: int | None = None  # its id in the database (None: not kept)
        self.shown_at: str | None = None  # when it finished, as kept
        self.band_learner = 0  # the learner whose band over seeds the chart shows (the table's cursor)
        self.figure = "agreement"  # what the chart shows: a curve key, "agreement" or "vs_perfect" (FIGURE_BUTTON)
        self._cancel = threading.Event()
        self.running = False

    def compose(self) -> ComposeResult:
        if self.start_game is None:
            self.start_game, self.start_size = setup_game(self.app)
        yield AppHeader()
        with VerticalScroll(id="lab-view"):
            with Horizontal(classes="lab-row"):
                yield Label("Game")
                yield Select([(g, g) for g in games()], value=self.start_game, allow_blank=False, compact=True,
                             id="lab-game")
                yield Label(" Size")
                yield Input("" if self.start_size is None else str(self.start_size), compact=True, id="lab-size",
                            max_length=4, disabled=self.start_size is None)
                yield Label(" Seeds")
                yield Input(str(self._saved("lab_seeds", DEFAULT_SEEDS)), compact=True, id="lab-seeds", max_length=3)
                yield Label(" Cap")
                yield Input(f"{self._saved_cap(self.start_game)}", compact=True, id="lab-cap", max_length=8)
            with Horizontal(classes="lab-row"):
                yield Label("Preset")
                learners = self._saved("lab_learners", " ".join(DEFAULT_LEARNERS)).split()
                preset = next((k for k, p in PRESETS.items() if list(p.learners) == learners), CUSTOM)
                yield Select([(p.title, k) for k, p in PRESETS.items()] + [("your own learners", CUSTOM)],
                             value=preset, allow_blank=False, compact=True, id="lab-preset")
            with Horizontal(classes="lab-row"):
                yield Label("Learners")
                yield Input(self._saved("lab_learners", " ".join(DEFAULT_LEARNERS)), compact=True, id="lab-learners")
            yield Static("", id="lab-error")
            yield Static("", id="lab-look-for")
            with Horizontal(classes="lab-row"):
                yield Label("Kept")
                yield Select([], prompt="no lab kept yet", compact=True, id="lab-kept")
            with Horizontal(classes="lab-row"):
                yield Button("Run", id="lab-run", compact=True, variant="primary")
                yield Button("Cancel", id="lab-cancel", compact=True, disabled=True)
                yield Button("Export", id="lab-export", compact=True, disabled=True)
                yield Button(FIGURE_BUTTON["agreement"], id="lab-figure", compact=True, disabled=True)
                yield Label(" ")
                yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="lab-progress")
                yield Label("", id="lab-status")
            from textual_plotext import PlotextPlot  # plotext loads only when the lab is opened

            class LabChart(PlotextPlot):
                """plotext applies the log scale to the data it holds each time it builds, so a second
                render took the log of a log (math domain error at game 1): every render plots afresh."""

                def __init__(self, plot_into, **kwargs) -> None:
                    super().__init__(**kwargs)
                    self._plot_into = plot_into

                def render(self):
                    self._plot_into(self.plt)
                    return super().render()

            yield Static("", id="lab-chart-title")
            yield LabChart(self._plot_into, id="lab-chart")
            yield Static("", id="lab-legend")
            yield DataTable(id="lab-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "race learners, see which learns fastest"
        table = self.query_one("#lab-table", DataTable)
        table.add_columns(*TABLE_COLUMNS)
        self.query_one("#lab-status", Label).update("Ctrl+R runs the lab")
        self._list_kept()
        self._draw_chart(None)
        self._warm_kernel()

    @work(thread=True, exclusive=True, group="lab-warm", exit_on_error=False)
    def _warm_kernel(self) -> None:
        """Load the compiled loops while the teacher reads the form, so Ctrl+R shows results at once."""
        from sticks_tui.learn.lab import lab_kernel

        try:
            lab_kernel()
        except RuntimeError:
            pass  # said when a lab runs

    # -- labs kept in the database ---------------------------------------------------------------
    def _store(self):
        session = getattr(self.app, "session", None)
        return None if session is None else session.store

    def _list_kept(self) -> None:
        """The Kept list: every lab in the database, newest first (the one shown selected)."""
        store = self._store()
        select = self.query_one("#lab-kept", Select)
        try:
            kept = [] if store is None else store.list_labs()
        except StoreError as exc:
            self.app.notify(str(exc), title="Kept labs", severity="error")
            kept = []
        with select.prevent(Select.Changed):
            select.prompt = f"show one of {len(kept)} labs kept" if kept else "no lab kept yet"
            select.set_options([(k.title, k.id) for k in kept])
            if self.shown_id is not None and any(k.id == self.shown_id for k in kept):
                select.value = self.shown_id

    @on(Select.Changed, "#lab-kept")
    def _kept_chosen(self, event: Select.Changed) -> None:
        if event.value == Select.NULL or event.value == self.shown_id:
            return
        self.show_kept(int(event.value))

    def show_kept(self, lab_id: int) -> bool:
        """Show the lab kept under `lab_id` again, as it was; False (said in a notification) when it cannot be read."""
        store = self._store()
        try:
            kept = None if store is None else store.lab(lab_id)
        except StoreError as exc:
            self.app.notify(str(exc), title="Kept labs", severity="error")
            return False
        if kept is None:
            self.app.notify(f"There is no lab {lab_id} in the database.", title="Kept labs", severity="error")
            return False
        self.show_doc(kept.doc, kept.id, kept.finished_at.isoformat())
        return True

    def action_kept_labs(self) -> None:
        """Open the Kept list, the newest lab highlighted (Enter shows it)."""
        from textual.widgets._select import SelectOverlay

        select = self.query_one("#lab-kept", Select)
        select.focus()
        select.expanded = True
        overlay = select.query_one(SelectOverlay)
        if select.value == Select.NULL and overlay.option_count > 1:
            overlay.highlighted = 1  # the first lab, under the prompt

    def action_export_lab(self) -> None:
        if self.shown is None:
            return
        from sticks_tui.store.exports import ExportText, lab_export, suggested_filename
        from sticks_tui.ui.screens.export_dialog import ExportChoice, open_export

        doc, lab_id, finished = self.shown, self.shown_id, self.shown_at

        def make(fmt: str) -> ExportText:
            return ExportText("lab", fmt, lab_export(doc, fmt, lab_id=lab_id, finished_at=finished),
                              suggested_filename("lab", fmt, lab_id=lab_id))

        label = f"lab {lab_id}: its table and curves" if lab_id is not None else "this lab: its table and curves"
        open_export(self, [ExportChoice("lab", label, make, {"lab_id": lab_id})])

    @on(Button.Pressed, "#lab-export")
    def _export_pressed(self) -> None:
        self.action_export_lab()

    # -- the form ------------------------------------------------------------------------------
    def _field_problem(self) -> tuple[str, str] | None:
        """(field id, one line) for the first value that cannot be used; None when all can."""
        game = self.query_one("#lab-game", Select).value
        fields = [("lab-seeds", "Seeds", 1, MAX_SEEDS), ("lab-cap", "Cap", 1, MAX_CAP)]
        sizes = size_range(game)
        if sizes is not None:  # other games have no size
            fields.insert(0, ("lab-size", "Size", *sizes))
        for field, what, lo, hi in fields:
            text = self.query_one(f"#{field}", Input).value.replace(",", "").replace("_", "").strip()
            if not text.isdigit() or not lo <= int(text) <= hi:
                return field, f"{what}: a whole number from {lo:,} to {hi:,}, not {text or 'nothing'!r}."
        texts = self.query_one("#lab-learners", Input).value.split()
        if not texts:
            return "lab-learners", "Learners: at least one, e.g. hats q:alpha=0.5,epsilon=0.1 mc."
        if len(texts) > 6:
            return "lab-learners", f"Learners: at most 6, not {len(texts)}."
        for text in texts:
            try:
                parse_learner(text)
            except LabError as exc:
                return "lab-learners", f"Learners: {exc}."
        return None

    def _config(self) -> LabConfig:
        def whole(field: str) -> int:
            return int(self.query_one(f"#{field}", Input).value.replace(",", "").replace("_", "").strip())

        learners = tuple(parse_learner(t) for t in self.query_one("#lab-learners", Input).value.split())
        game = self.query_one("#lab-game", Select).value
        size = whole("lab-size") if size_range(game) is not None else None
        return LabConfig(game, size, learners, whole("lab-seeds"), whole("lab-cap"), workers=self.lab_workers)

    def _show_problem(self) -> bool:
        problem = self._field_problem()
        for field in ("lab-size", "lab-seeds", "lab-cap", "lab-learners"):
            self.query_one(f"#{field}", Input).set_class(problem is not None and problem[0] == field, "-invalid")
        error = self.query_one("#lab-error", Static)
        _say(error, "" if problem is None else problem[1])
        error.set_class(problem is not None, "-shown")
        return problem is not None

    # -- the choices made here, kept at once (the settings; the game and size follow the setup screen's) ------
    def _saved(self, name: str, default):
        settings = getattr(self.app, "settings", None)
        return default if settings is None else getattr(settings, name, default)

    def _saved_cap(self, game: str) -> int:
        settings = getattr(self.app, "settings", None)
        cap = None if settings is None else settings.of(game).lab_cap
        return default_cap(game) if cap is None else cap

    def _remember(self) -> None:
        """Seeds, learners and the game's cap as the form holds them, once every field can be used."""
        remember = getattr(self.app, "remember", None)
        if remember is None or not self.is_mounted or self._field_problem() is not None:
            return
        try:
            config = self._config()
        except (LabError, ValueError):
            return  # said when the lab runs
        learners = " ".join(self.query_one("#lab-learners", Input).value.split())
        remember(lab_seeds=config.seeds, lab_learners=learners)  # the same values again change nothing
        if config.cap != self._saved_cap(config.game):  # a game's default cap is not written until changed
            self.app.remember_game(config.game, lab_cap=config.cap)

    @on(Input.Changed)
    def _changed(self) -> None:
        if not self._show_problem():
            self._remember()

    @on(Select.Changed, "#lab-game")
    def _game_changed(self, event: Select.Changed) -> None:
        if event.value == self.start_game:  # the game it opened on (the Select says so as it mounts): its size kept
            return
        self.start_game = event.value
        size = default_size(event.value)
        box = self.query_one("#lab-size", Input)
        box.value = "" if size is None else str(size)
        box.disabled = size is None
        self.query_one("#lab-cap", Input).value = str(self._saved_cap(event.value))

    @on(Select.Changed, "#lab-preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        preset = PRESETS.get(event.value)
        if preset is not None:
            self.query_one("#lab-learners", Input).value = " ".join(preset.learners)
        look_for = self.query_one("#lab-look-for", Static)
        _say(look_for, "" if preset is None else preset.look_for)
        look_for.set_class(preset is not None, "-shown")

    # -- running -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "run_lab":
            return not self.running
        if action == "cancel_lab":
            return self.running
        if action in ("export_lab", "switch_figure"):
            return self.shown is not None
        return True

    @on(Button.Pressed, "#lab-run")
    def action_run_lab(self) -> None:
        if self.running or self._show_problem():
            return
        config = self._config()
        self.running = True
        self._cancel.clear()
        self.query_one("#lab-run", Button).disabled = True
        self.query_one("#lab-cancel", Button).disabled = False
        total = len(config.learners) * config.seeds
        bar = self.query_one("#lab-progress", ProgressBar)
        bar.update(total=total, progress=0)
        bar.add_class("-running")
        self.query_one("#lab-status", Label).update(f"0 of {total} runs")
        self.refresh_bindings()
        self._run(config)

    @on(Button.Pressed, "#lab-cancel")
    def action_cancel_lab(self) -> None:
        if self.running:
            self._cancel.set()
            self.query_one("#lab-status", Label).update("cancelling...")

    @work(thread=True, exclusive=True, group="lab", exit_on_error=False)
    def _run(self, config: LabConfig) -> None:
        told = [0.0]

        def progress(done: int, total: int) -> None:
            # at most four times a second (and the last): every redraw holds the app's thread and Python's
            # lock, which the runs need between their compiled stretches (a lab took 3x as long in the app)
            now = time.monotonic()
            if done == total or now - told[0] >= PROGRESS_EVERY:
                told[0] = now
                self.app.call_from_thread(self._progress, done, total)

        shown = [0.0]

        def partial(so_far: LabResult) -> None:
            # the first result at once, then at most twice a second: each redraw of the chart holds the
            # app's thread (and Python's lock) that the runs' own Python needs
            now = time.monotonic()
            if not self._cancel.is_set() and now - shown[0] >= PARTIAL_EVERY:
                shown[0] = now
                self.app.call_from_thread(self._partial, so_far.as_json())

        try:
            result = run_lab(config, progress, self._cancel.is_set, idle=self.app.session.idle_training,
                             partial=partial)
        except Exception as exc:  # noqa: BLE001 - a failed run is said on the screen, never a crash
            self.app.call_from_thread(self._finished, None, f"The lab failed: {exc}")
            return
        if result is None:  # cancelled: nothing shown, nothing kept
            self.app.call_from_thread(self._finished, None, None)
            return
        doc, kept, problem = result.as_json(), None, None
        store = self._store()
        if store is not None:
            try:  # here, in the worker's thread: a database locked by another process waits here, not in the app
                kept = store.save_lab(doc)
            except StoreError as exc:
                problem = str(exc)
        self.app.call_from_thread(self._finished, result, problem, doc, kept)

    def _partial(self, doc: dict) -> None:
        """The results so far, seed by seed, while the lab runs (nothing kept, nothing to export yet)."""
        if self.running:
            self._fill(doc)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#lab-progress", ProgressBar).update(progress=done)
        self.query_one("#lab-status", Label).update(f"{done} of {total} runs")

    def _finished(self, result: LabResult | None, problem: str | None, doc: dict | None = None, kept=None) -> None:
        self.running = False
        self.query_one("#lab-run", Button).disabled = False
        self.query_one("#lab-cancel", Button).disabled = True
        self.query_one("#lab-progress", ProgressBar).remove_class("-running")
        self.refresh_bindings()
        if result is None:
            self.query_one("#lab-status", Label).update(problem or "cancelled: nothing shown, nothing kept")
            return
        self.show_result(result, doc, kept)
        if problem is not None:
            self.app.notify(f"The lab was not kept: {problem}", title="Learning lab", severity="error", timeout=10)

    def show_result(self, result: LabResult, doc: dict | None = None, kept=None) -> None:
        """Draw a lab run here (kept: its `KeptLab`, when the database has it)."""
        self.result = result
        self.show_doc(doc if doc is not None else result.as_json(), None if kept is None else kept.id,
                      None if kept is None else kept.finished_at.isoformat())
        if kept is not None:
            self._list_kept()

    def show_doc(self, doc: dict, lab_id: int | None = None, finished_at: str | None = None) -> None:
        """Draw a finished lab from its document (`LabResult.as_json()`, as run or as kept): the chart and the table."""
        self.shown, self.shown_id, self.shown_at = doc, lab_id, finished_at
        learners = doc["learners"]
        seconds = f"{doc['seconds']:.1f} s"
        name = "" if lab_id is None else f"lab {lab_id}: "
        self.query_one("#lab-status", Label).update(
            f"{name}{len(learners)} x {doc['seeds']} runs, {seconds}, cap {short_count(doc['cap'])}")
        # (the time first, the cap short: at 80x24 beside the buttons 'lab 1: 4 x 20 runs, cap 100,000: 17.6 s'
        # lost its seconds)
        self._fill(doc)
        self.query_one("#lab-export", Button).disabled = False
        self.query_one("#lab-figure", Button).disabled = False
        self.refresh_bindings()

    def _fill(self, doc: dict) -> None:
        """The table and the chart of a lab's document (finished, or so far: each learner over its seeds done)."""
        table = self.query_one("#lab-table", DataTable)
        row = table.cursor_row
        table.clear()
        for marker, r in zip(MARKERS, doc["learners"], strict=False):
            m, seats = r["games_to_mastery"], r["games_to_mastery_by_seat"]
            runs = len(r.get("seeds", ())) or doc["seeds"]
            held = f"{r['held']}/{runs}" if "held" in r else "-"  # a lab kept before issue 35 has none
            table.add_row(marker, r["spec"], r.get("learns_from", "-"), _games(m["median"]), _games(m["p90"]),
                          f"{m['never']}/{runs}", _games(seats["first"]["median"]), _games(seats["second"]["median"]),
                          held, f"{r['final_agreement']:.0%}", f"{r['seconds']:.1f}")
        if 0 < row < table.row_count:
            table.move_cursor(row=row)
        self._draw_chart(doc)

    def _draw_chart(self, doc: dict | None) -> None:
        self._chart_doc = doc
        self.query_one("#lab-chart").refresh()
        title = "agreement with perfect play: run the lab to see each learner's curve" if doc is None else \
            figure_title(self.figure, doc)
        self.query_one("#lab-chart-title", Static).update(title)
        legend = ""
        if doc is not None:
            band = min(max(self.band_learner, 0), len(doc["learners"]) - 1)
            names = [f"{marker} {r['spec']}" for marker, r in zip(MARKERS, doc["learners"], strict=False)]
            legend = "   ".join(names)
            if doc["seeds"] > 1 and doc["learners"]:
                legend += f"\n· the 10-90% band of {doc['learners'][band]['spec']}"
        self.query_one("#lab-legend", Static).update(legend)

    def _plot_into(self, plt) -> None:
        """The chart's figure from the lab shown (called at every render of the chart)."""
        doc = getattr(self, "_chart_doc", None)
        plt.clear_data()
        plt.clear_figure()
        plt.ylim(0, 100)
        plt.yticks([0, 25, 50, 75, 100])
        if doc is not None and doc["learners"]:  # (plotext cannot draw an empty log axis: a plain frame until then)
            key = self.figure
            plt.xscale("log")
            plt.xlabel("games (log scale)")
            learners = doc["learners"]
            last = max(p["games"] for r in learners for p in r["curve"][-1:])
            ticks = [10 ** k for k in range(len(str(last)))]
            plt.xticks(ticks, [f"{t:,}" for t in ticks])
            band = min(max(self.band_learner, 0), len(learners) - 1)
            several = doc["seeds"] > 1
            for i, (marker, r) in enumerate(zip(MARKERS, learners, strict=False)):
                curve = r["curve"]
                games = [p["games"] for p in curve]
                if i == band and several:
                    # the highlighted learner's 10th-90th percentile band over seeds, in dots of its own
                    for edge in ("p10", "p90"):
                        plt.plot(games, [100 * p[key][edge] for p in curve], marker="·")
                plt.plot(games, [100 * p[key]["median"] for p in curve], marker=marker)  # named under the chart
        from sticks_tui.ui.widgets.plot_curve import ordered_ticks

        ordered_ticks(plt)  # the same chart every run (plotext keeps its ticks in hash order)

    @on(Button.Pressed, "#lab-figure")
    def action_switch_figure(self) -> None:
        """The chart shows agreement with perfect play, or the chance against the perfect player, in turn."""
        if self.shown is None:
            return
        self.figure = "vs_perfect" if self.figure == "agreement" else "agreement"
        self.query_one("#lab-figure", Button).label = FIGURE_BUTTON[self.figure]
        self._draw_chart(self.shown)

    @on(DataTable.RowHighlighted, "#lab-table")
    def _band_for(self, event: DataTable.RowHighlighted) -> None:
        """The chart shows the band over seeds of the learner highlighted in the table."""
        if self.shown is not None and event.cursor_row != self.band_learner:
            self.band_learner = event.cursor_row
            self._draw_chart(self.shown)

    def action_lab_help(self) -> None:
        from sticks_tui.ui.screens.help import keys_of, screen_title

        self.app.push_screen(LabHelpScreen(keys_of(self), title=screen_title(self)))

    def action_back(self) -> None:
        self._cancel.set()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self._cancel.set()


class LabHelpScreen(HelpScreen):
    """The lab's help (F1): what it does, every column, each learner, the chart, and why 50%; then its keys."""

    def compose(self) -> ComposeResult:
        from textual.containers import Vertical
        from textual.content import Content

        with Vertical(id="help"):
            with VerticalScroll(id="help-body"):
                yield Static(Content.styled("Help: the learning lab", "bold"), id="help-heading")
                yield Static(Content("Esc, F1 or q closes it; ↑/↓, PgUp/PgDn or the mouse wheel scroll."),
                             classes="help-text")
                for title, text in lab_help_sections():
                    yield Static(Content.styled(title, "bold"), classes="help-title")
                    yield Static(Content(text), classes="help-text")
                yield Static(Content.styled(f"Keys on {self.keys_title}", "bold"), classes="help-title")
                yield Static(Content(self.keys_text()), id="help-keys")
                for title, text in game_sections():  # the games it races learners on, each in its own words
                    yield Static(Content.styled(title, "bold"), classes="help-title")
                    yield Static(Content(text), classes="help-text")
            with Vertical(id="help-close-row"):
                yield Button("Close", id="help-close", action="screen.close", compact=True)
