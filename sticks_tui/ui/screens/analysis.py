"""Analysis: what the AI learned, hat by hat, held against the exact solution (seed 002's part 4).

Every figure is about one game, the heap chosen here (it starts at the setup screen's): the hats
of heaps 1..N, agreement over heaps 2..N, the chances in a game of N sticks. The last training
run's curve says which heaps it was scored over (the run's own heap)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Select, Static

from sticks_tui.ui.boards import board_of, has_board
from sticks_tui.learn.analysis import PERFECT_PLAYER_WORDS, analyse, heaps_words
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.roles import RoleChecks, is_teacher, teacher_only
from sticks_tui.ui.screens.confirm import ConfirmDialog, NameDialog
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.inputs import Input


class AnalysisScreen(StyledOnce, RoleChecks, Screen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="analysis.back"),
        Binding("c", "copy_brain", "Copy brain", id="analysis.copy_brain"),
        Binding("x", "reset_brain", "Reset brain", id="analysis.reset_brain"),
        # F5 still works; the footer keeps Export whole at 80 columns
        Binding("f5", "reload", "Reload", show=False, id="analysis.reload"),
        Binding("e", "export", "Export", id="analysis.export"),
    ]
    COMMANDS = {screen_commands(
        ("Copy brain", "Save the brain in play under a new name", "copy_brain"),
        ("Reset brain", "Make the brain in play forget everything (asks first)", "reset_brain"),
        ("Reload analysis", "Analyse the brain again", "reload"),
    )}

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Vertical(id="analysis-view"):
            with Horizontal(id="analysis-controls"):
                yield Label("Brain in play ")
                # Textual 8 raises EmptySelectError for an empty Select without a blank: start with
                # the current brain; _fill_brains adds the others on mount.
                name = self.app.session.brain_name
                yield Select([(name, name)], value=name, id="brain", allow_blank=False, compact=True, prompt="brain")
                yield Label("  Heap ")
                yield Input("", id="upto", compact=True, max_length=4)
                yield Label("", id="upto-error", classes="error")
            yield Static("", id="analysis-summary")
            yield DataTable(id="hats-table", cursor_type="row", zebra_stripes=True)
            yield Label("Learning curve of the last training run", id="analysis-curve-title", classes="section-title")
            yield LearningCurve(id="analysis-curve")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "what the AI learned"
        table = self.query_one("#hats-table", DataTable)
        table.add_columns("Hat", "Balls 1/2/3", "Chance of 1/2/3", "AI plays", "Perfect", "Right?")
        self.query_one("#upto", Input).value = str(min(self.setup_heap(), self.app.session.brain.size))
        self._fill_brains()
        self.action_reload()
        self.watch(self.app, "training", self._training_changed, init=False)
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def _class_changed(self, change) -> None:
        """The class's brain changed in another tab: analyse it again, and say whose game it was."""
        if change is None:
            return
        self._fill_brains()
        self.action_reload()
        if change.words:
            self.sub_title = f"what the AI learned · {change.words}"

    def setup_heap(self) -> int:
        """The heap of the game in play: the setup screen's (the last game started, else the one it
        opens with: the settings')."""
        game = self.app.session.main.game
        last = self.app.session.last_setup
        if last is not None and last.game == game and last.start is not None:
            return last.start
        settings = getattr(self.app, "settings", None)
        start = settings.of(game).start if settings is not None else None
        return start if start is not None else 20

    def _training_changed(self, progress) -> None:
        """A run that ends changes the brain (and its games trained): show it without F5."""
        if progress is not None and progress.finished:
            self.action_reload()

    def _fill_brains(self) -> None:
        from sticks_tui.store import StoreError

        try:
            # the brains of the game analysed here: the Nim AI's brain is not one the sticks AI can play
            names = [b.name for b in self.app.session.store.list_brains() if has_board(b.game) and board_of(b.game).analysed]
        except StoreError as exc:
            self.notify(str(exc), severity="error")
            names = []
        if self.app.session.brain_name not in names:
            names.insert(0, self.app.session.brain_name)
        select = self.query_one("#brain", Select)
        with self.prevent(Select.Changed):
            select.set_options([(n, n) for n in names])
            select.value = self.app.session.brain_name

    @on(Select.Changed, "#brain")
    def _brain_changed(self, event: Select.Changed) -> None:
        if event.value != self.app.session.brain_name and isinstance(event.value, str):
            if self.app.training_running:
                self.notify("The AI is training: switch brains when it has finished.", severity="warning")
                with self.prevent(Select.Changed):
                    event.select.value = self.app.session.brain_name
                return
            self.app.load_brain(event.value)
            self.notify(f"The learning AI now plays with the brain '{event.value}'.")
            self.action_reload()

    @on(Input.Submitted, "#upto")
    @on(Input.Changed, "#upto")
    def _upto_changed(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        brain = self.app.session.brain
        error = self.query_one("#upto-error", Label)
        text = self.query_one("#upto", Input).value.strip()
        if not text.isdigit() or not 2 <= int(text) <= brain.size:
            error.update(f" Please enter a number between 2 and {brain.size}.")
            return
        error.update("")
        upto = int(text)
        result = analyse(brain.counts, brain.max_take, heap=upto)
        wrong = ", ".join(map(str, result.disagreeing[:12])) + (" ..." if len(result.disagreeing) > 12 else "")
        lines = [
            f"[b]{result.rule.sentence}[/b]",
            result.rule.verdict,
            f"Over {result.scope}: right in {result.agreement:.0%} of the winning hats"
            + (f" (wrong: {wrong})." if result.disagreeing else ": it plays perfectly.")
            + f" Exact chance to win a game of {upto}: vs a perfect player {result.win_vs_perfect_first:.1%} "
              f"moving first, {result.win_vs_perfect_second:.1%} second ({PERFECT_PLAYER_WORDS}); vs a random "
              f"player {result.win_vs_random_first:.1%} first, {result.win_vs_random_second:.1%} second.",
        ]
        self.query_one("#analysis-summary", Static).update("\n".join(lines))
        table = self.query_one("#hats-table", DataTable)
        table.clear()
        for v in result.hats:
            counts = "/".join(map(str, v.counts))
            chances = " ".join(f"{p:.0%}" for p in v.probabilities)
            perfect = ("take " + " or ".join(map(str, v.optimal_moves))) if v.winning else "lost: any"
            right = "-" if v.agrees is None else ("yes" if v.agrees else "NO")
            table.add_row(str(v.hat), counts, chances, str(v.best_move), perfect, right)
        from sticks_tui.store import StoreError

        try:
            curve = self.app.session.store.last_training_curve(self.app.session.brain_name)
            heap = self.app.session.store.last_training_heap(self.app.session.brain_name)
        except StoreError:
            curve, heap = [], None
        # a curve kept without its heap was scored over every hat of the brain
        scope = heaps_words(heap if heap is not None else brain.size)
        self.query_one(LearningCurve).points = tuple(curve)
        self.query_one("#analysis-curve-title", Label).update(
            "Learning curve of the last training run" + (f", over {scope}" if curve else ""))

    def action_copy_brain(self) -> None:
        from sticks_tui.store import StoreError, name_key, validate_name

        existing: dict[str, str] = {}
        try:
            existing = {name_key(b.name): b.name for b in self.app.session.store.list_brains()}
        except StoreError:
            pass

        from sticks_tui.store.errors import validate_pupil_brain_name

        rule = validate_name if is_teacher(self.app) else validate_pupil_brain_name  # the store's own, said at once

        def check(name: str) -> str | None:
            try:
                rule(name)
            except ValueError as exc:
                return str(exc)
            if name_key(name) in existing:  # the store's name rule: "Ｄefault" is "default"
                return f"A brain called '{existing[name_key(name)]}' exists already."
            return None

        def done(name: str | None) -> None:
            if not name:
                return
            try:
                self.app.save_brain()
                self.app.session.store.copy_brain(self.app.session.brain_name, name)
            except StoreError as exc:
                self.notify(str(exc), severity="error")
                return
            self.notify(f"Copied '{self.app.session.brain_name}' to '{name}'.")
            self._fill_brains()

        self.app.push_screen(NameDialog(f"Copy the brain '{self.app.session.brain_name}' as:",
                                        f"{self.app.session.brain_name} copy", check), done)

    @teacher_only("reset a brain")
    def action_reset_brain(self) -> None:
        if self.app.training_running:
            self.notify("The AI is training: reset its brain when it has finished.", severity="warning")
            return

        def done(yes: bool | None) -> None:
            if not yes:
                return
            from sticks_tui.store import StoreError

            try:
                self.app.keeper.reset(self.app.session.brain_name)
            except (StoreError, ValueError) as exc:
                self.notify(str(exc), severity="error")
                return
            self.app.load_brain(self.app.session.brain_name)
            kept = self.app.session.store.last_backup
            self.notify(f"The brain '{self.app.session.brain_name}' has forgotten everything."
                        + (f" It is kept as it was in the back-up {kept.name}." if kept else ""))
            self.action_reload()

        self.app.push_screen(ConfirmDialog(f"Make the brain '{self.app.session.brain_name}' forget everything it "
                                           "learned?", yes="Reset brain"), done)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import analysis_exports, open_export

        open_export(self, analysis_exports(self.app))
