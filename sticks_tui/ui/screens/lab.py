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

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Label, ProgressBar, Select, Static

from sticks_tui.learn.lab import (DEFAULT_CAP, DEFAULT_LEARNERS, DEFAULT_SEEDS, DEFAULT_SIZE, GAMES, MAX_CAP,
                                  MAX_SEEDS, PRESETS, SIZE_RANGE, LabConfig, LabError, LabResult, parse_learner,
                                  run_lab)  # numpy only: numba loads when a lab runs
from sticks_tui.store.errors import StoreError
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.inputs import Input

def figure_title(key: str, doc: dict) -> str:
    """The chart's title for a figure of the lab's curve (`agreement` or `vs_perfect`), from the lab's own words."""
    if key == "agreement":
        return "agreement with perfect play, % (median over seeds)"
    return f"{doc.get('vs_perfect_means', 'chance to win')} vs the perfect player, % (both seats' mean, seeds' median)"


#: The figure button names the figure it switches to.
FIGURE_BUTTON = {"agreement": "Vs perfect", "vs_perfect": "Agreement"}

#: One glyph per learner, in order: the series are told apart without colour.
MARKERS = ("•", "x", "+", "o", "*", "#")
CUSTOM = "custom"


def _games(n: int | None) -> str:
    return "never" if n is None else f"{n:,}"


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
    LabScreen #lab-chart { height: 1fr; min-height: 12; }  /* the rest of a big screen; 12 rows at 80x24 */
    LabScreen #lab-table { height: auto; max-height: 9; }
    LabScreen Button { min-width: 8; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back", id="lab.back"),
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

    def __init__(self, workers: int | None = None) -> None:
        super().__init__()
        self.lab_workers = workers
        self.result: LabResult | None = None  # the lab run here, last
        self.shown: dict | None = None  # the document of the lab shown (run here or kept)
        self.shown_id: int | None = None  # its id in the database (None: not kept)
        self.shown_at: str | None = None  # when it finished, as kept
        self.band_learner = 0  # the learner whose band over seeds the chart shows (the table's cursor)
        self.figure = "agreement"  # what the chart shows: a curve key, "agreement" or "vs_perfect" (FIGURE_BUTTON)
        self._cancel = threading.Event()
        self.running = False

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with VerticalScroll(id="lab-view"):
            with Horizontal(classes="lab-row"):
                yield Label("Game")
                yield Select([(g, g) for g in GAMES], value="sticks", allow_blank=False, compact=True, id="lab-game")
                yield Label(" Size")
                yield Input(str(DEFAULT_SIZE["sticks"]), compact=True, id="lab-size", max_length=4)
                yield Label(" Seeds")
                yield Input(str(DEFAULT_SEEDS), compact=True, id="lab-seeds", max_length=3)
                yield Label(" Cap")
                yield Input(f"{DEFAULT_CAP}", compact=True, id="lab-cap", max_length=8)
            with Horizontal(classes="lab-row"):
                yield Label("Preset")
                yield Select([(p.title, k) for k, p in PRESETS.items()] + [("your own learners", CUSTOM)],
                             value=CUSTOM, allow_blank=False, compact=True, id="lab-preset")
            with Horizontal(classes="lab-row"):
                yield Label("Learners")
                yield Input(" ".join(DEFAULT_LEARNERS), compact=True, id="lab-learners")
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

            yield LabChart(self._plot_into, id="lab-chart")
            yield DataTable(id="lab-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "race learners, see which learns fastest"
        table = self.query_one("#lab-table", DataTable)
        table.add_columns("", "learner", "mastery med", "p90", "never", "1st med", "2nd med", "agree", "secs")
        self.query_one("#lab-status", Label).update("Ctrl+R runs the lab")
        self._list_kept()
        self._draw_chart(None)

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
        low, high = SIZE_RANGE[game]
        for field, what, lo, hi in (("lab-size", "Size", low, high), ("lab-seeds", "Seeds", 1, MAX_SEEDS),
                                    ("lab-cap", "Cap", 1, MAX_CAP)):
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
        return LabConfig(self.query_one("#lab-game", Select).value, whole("lab-size"), learners, whole("lab-seeds"),
                         whole("lab-cap"), workers=self.lab_workers)

    def _show_problem(self) -> bool:
        problem = self._field_problem()
        for field in ("lab-size", "lab-seeds", "lab-cap", "lab-learners"):
            self.query_one(f"#{field}", Input).set_class(problem is not None and problem[0] == field, "-invalid")
        error = self.query_one("#lab-error", Static)
        error.update("" if problem is None else problem[1])
        error.set_class(problem is not None, "-shown")
        return problem is not None

    @on(Input.Changed)
    def _changed(self) -> None:
        self._show_problem()

    @on(Select.Changed, "#lab-game")
    def _game_changed(self, event: Select.Changed) -> None:
        self.query_one("#lab-size", Input).value = str(DEFAULT_SIZE[event.value])

    @on(Select.Changed, "#lab-preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        preset = PRESETS.get(event.value)
        if preset is not None:
            self.query_one("#lab-learners", Input).value = " ".join(preset.learners)
        look_for = self.query_one("#lab-look-for", Static)
        look_for.update("" if preset is None else preset.look_for)
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
        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            result = run_lab(config, progress, self._cancel.is_set, idle=self.app.session.idle_training)
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
            f"{name}{len(learners)} x {doc['seeds']} runs, cap {doc['cap']:,}: {seconds}")
        table = self.query_one("#lab-table", DataTable)
        table.clear()
        for marker, r in zip(MARKERS, learners, strict=False):
            m, seats = r["games_to_mastery"], r["games_to_mastery_by_seat"]
            table.add_row(marker, r["spec"], _games(m["median"]), _games(m["p90"]), f"{m['never']}/{doc['seeds']}",
                          _games(seats["first"]["median"]), _games(seats["second"]["median"]),
                          f"{r['final_agreement']:.0%}", f"{r['seconds']:.1f}")
        self.query_one("#lab-export", Button).disabled = False
        self.query_one("#lab-figure", Button).disabled = False
        self.refresh_bindings()
        self._draw_chart(doc)

    def _draw_chart(self, doc: dict | None) -> None:
        self._chart_doc = doc
        self.query_one("#lab-chart").refresh()

    def _plot_into(self, plt) -> None:
        """The chart's figure from the lab shown (called at every render of the chart)."""
        doc = getattr(self, "_chart_doc", None)
        plt.clear_data()
        plt.clear_figure()
        plt.ylim(0, 100)
        plt.yticks([0, 25, 50, 75, 100])
        if doc is None:  # plotext cannot draw an empty log axis: a plain, empty frame until a lab ends
            plt.title("agreement with perfect play: run the lab to see each learner's curve")
        else:
            key = self.figure
            plt.title(figure_title(key, doc))
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
                plt.plot(games, [100 * p[key]["median"] for p in curve], marker=marker,
                         label=r["spec"] + (" (· its 10-90% band)" if i == band and several else ""))

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

    def action_back(self) -> None:
        self._cancel.set()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self._cancel.set()
