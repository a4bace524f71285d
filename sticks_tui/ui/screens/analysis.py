"""Analysis: what a learning AI learned, container by container, held against the exact solution, for every
game (issue 32 item 2), written once against the game API (`learn.analysis.analyse_brain`).

Per position the learner faces, as its brain encodes it (folded by the game's symmetries): its counts, the
chance of each move, its likeliest move, the perfect moves (the game's solver, through the registry) and
whether it is right; then the figures per seat: agreement and the exact chance against the perfect player
(the one worst for the learner), each saying what it is over. The words come from the game's entry (hats
and balls or boxes and beads, a heap or a board). A brain of numbered positions (sticks' hats) is analysed
up to a heap chosen here (it starts at the setup screen's): the hats of heaps 1..N, agreement over heaps
2..N, the chances in a game of N sticks."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Select, Static

from sticks_tui.engine import registry
from sticks_tui.learn.analysis import PERFECT_PLAYER_WORDS, analyse_brain, scope_words
from sticks_tui.ui import brains
from sticks_tui.ui.boards import board_of, square_rows
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.roles import RoleChecks, is_teacher, teacher_only
from sticks_tui.ui.screens.confirm import ConfirmDialog, NameDialog
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import FigureHeadings, LearningCurve
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.inputs import Input

#: Below this height the table and the learning curve share the screen by turns (g), so the table keeps
#: at least 8 rows at 80x24 (issue 33 item 3).
BOTH_FIT_HEIGHT = 40


def position_cell(rules, position, sides: tuple[str, str] | None = None) -> str:
    """A position in one short line for a table cell: a heap's number, a board's rows joined by '/' (with
    `sides`, the marks of the first and second mover: whose turn it is, where the rules say)."""
    mover = getattr(rules, "mover", None)
    turn = f" {sides[mover(position)]}" if sides is not None and mover is not None else ""
    square = square_rows(rules, position)
    if square is not None:
        rows, rest = square
        return "/".join(rows) + (turn or (f" {rest}" if rest else ""))
    encoded = rules.encode_position(position)
    if isinstance(encoded, list | tuple):
        return ",".join(map(str, encoded))
    return str(encoded)


def short_move(rules, move) -> str:
    """A move in a few characters, as the game writes it down: 3, a1-a2, 1,2 (Nim's pile and coins)."""
    encoded = rules.encode_move(move)
    return ",".join(map(str, encoded)) if isinstance(encoded, list | tuple) else str(encoded)


def wrong_list(rules, positions, sides=None, width: int = 60) -> str:
    """The positions whose likeliest move is wrong, as many as fit in about `width` characters."""
    shown: list[str] = []
    for position in positions:
        cell = position_cell(rules, position, sides)
        if shown and len(", ".join([*shown, cell])) > width:
            return ", ".join(shown) + f" and {len(positions) - len(shown):,} more"
        shown.append(cell)
    return ", ".join(shown)


def percent(p: float) -> str:
    return f"{p:.1%}"


def chances_words(chances: tuple[float, float, float], draws: bool) -> str:
    """(win, draw, loss) in words: '99.0%', or with draws 'wins 0.0%, draws 85.1%'."""
    win, draw, _ = chances
    return f"wins {percent(win)}, draws {percent(draw)}" if draws else percent(win)


class AnalysisScreen(StyledOnce, RoleChecks, Screen):
    """The analysis of `game`'s learning AI (default: the game in play, `App.game_in_play`)."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="analysis.back"),
        Binding("c", "copy_brain", "Copy brain", id="analysis.copy_brain"),
        Binding("x", "reset_brain", "Reset brain", id="analysis.reset_brain"),
        # F5 still works; the footer keeps Export whole at 80 columns
        Binding("f5", "reload", "Reload", show=False, id="analysis.reload"),
        Binding("e", "export", "Export", id="analysis.export"),
        Binding("g", "toggle_curve", "Curve", id="analysis.curve",
                tooltip="On a small screen: the learning curve in the table's place, or the table again"),
    ]
    COMMANDS = {screen_commands(
        ("Copy brain", "Save the brain in play under a new name", "copy_brain"),
        ("Reset brain", "Make the brain in play forget everything (asks first)", "reset_brain"),
        ("Reload analysis", "Analyse the brain again", "reload"),
        ("The curve or the table", "On a small screen: show the learning curve, or the table", "toggle_curve"),
    )}
    AUTO_FOCUS = "#hats-table"

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self._game = game
        self.side = 0  # the learner's side whose brain is shown (MENACE's X 0, its O 1)
        self.curve_shown = False  # on a small screen: the curve instead of the table

    @property
    def game(self) -> str:
        if self._game is None:
            self._game = self.app.game_in_play()
        return self._game

    @property
    def kept(self):
        """The kept brain analysed: the game's learning AI's for `side` (the first game's: the one in play)."""
        return self.app.keeper.learner(self.game, self.side)

    def _side_in_play(self) -> int:
        """The side whose brain the game in play uses (MENACE as O: 1), else the side the app's F2 would train
        (`brain_side_in_play`: the setup screen's game, else the game's own learner's side, HER's Black)."""
        sides = registry.entry(self.game).ai_brains
        for screen in reversed(self.app.screen_stack):
            held = getattr(screen, "brains", None)
            if isinstance(held, dict) and getattr(getattr(screen, "setup", None), "game", None) == self.game:
                return next((sides.index(k.name) for k in held.values() if k.kept and k.name in sides), 0)
        return self.app.brain_side_in_play(self.game)

    def compose(self) -> ComposeResult:
        self.side = self._side_in_play()
        yield AppHeader()
        with Vertical(id="analysis-view"):
            with Horizontal(id="analysis-controls"):
                yield Label("Brain in play ")
                # Textual 8 raises EmptySelectError for an empty Select without a blank: start with
                # the current brain; _fill_brains adds the others on mount.
                name = self.kept.name
                yield Select([(name, name)], value=name, id="brain", allow_blank=False, compact=True, prompt="brain")
                yield Label("  " + registry.entry(self.game).position_word.capitalize() + " ", id="upto-label")
                yield Input("", id="upto", compact=True, max_length=4)
                yield Label("", id="upto-error", classes="error")
            yield Static("", id="analysis-summary")
            yield DataTable(id="hats-table", cursor_type="row", zebra_stripes=True)
            yield Label("Learning curve of the last training run", id="analysis-curve-title", classes="section-title")
            yield LearningCurve(id="analysis-curve")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"what the AI learned: {registry.entry(self.game).title}"
        if self._sized():
            self.query_one("#upto", Input).value = str(min(self.setup_heap(), self.kept.brain.size))
        self._fill_brains()
        self.action_reload()
        self._fit()
        self.watch(self.app, "training", self._training_changed, init=False)
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Both the table and the curve on a tall screen; on a small one the table (at least 8 rows), or the
        curve in its place (g)."""
        both = self.size.height >= BOTH_FIT_HEIGHT
        self.query_one("#hats-table").display = both or not self.curve_shown
        curve = self.query_one("#analysis-curve")
        curve.display = both or self.curve_shown
        curve.styles.height = 8 if both else "1fr"  # alone, the curve has the table's room
        self.query_one("#analysis-curve-title").display = both or self.curve_shown
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_curve" and self.is_mounted and self.size.height >= BOTH_FIT_HEIGHT:
            return False  # both show: nothing to switch
        return super().check_action(action, parameters)

    def action_toggle_curve(self) -> None:
        self.curve_shown = not self.curve_shown
        self._fit()
        (self.query_one(LearningCurve) if self.curve_shown else self.query_one("#hats-table")).focus()

    def _sized(self) -> bool:
        """The brain is one of numbered positions (sticks' hats): it is analysed up to a size chosen here."""
        brain = self.kept.brain
        return brains.grid_fits(brain, 0)

    def _class_changed(self, change) -> None:
        """The class's brain changed in another tab: analyse it again, and say whose game it was."""
        if change is None:
            return
        self._fill_brains()
        self.action_reload()
        if change.words:
            self.sub_title = f"what the AI learned · {change.words}"

    def setup_heap(self) -> int:
        """The start of the game in play: the setup screen's (the last game started, else the one it
        opens with: the settings')."""
        game = self.game
        last = self.app.session.last_setup
        if last is not None and last.game == game and isinstance(last.start, int):
            return last.start
        settings = getattr(self.app, "settings", None)
        start = settings.of(game).start if settings is not None else None
        return start if isinstance(start, int) else 20

    def _training_changed(self, progress) -> None:
        """A run that ends changes the brain (and its games trained): show it without F5."""
        if progress is not None and progress.finished:
            self.action_reload()

    def _fill_brains(self) -> None:
        from sticks_tui.store import StoreError

        try:
            # the brains of the game analysed here: a Nim brain is not one the sticks AI can play
            names = [b.name for b in self.app.session.store.list_brains() if b.game == self.game]
        except StoreError as exc:
            self.notify(str(exc), severity="error")
            names = []
        name = self.kept.name
        # the brain in play, and each side's own (MENACE's O), even before the store has made them
        for own in reversed((name, *registry.entry(self.game).ai_brains)):
            if own not in names:
                names.insert(0, own)
        select = self.query_one("#brain", Select)
        with self.prevent(Select.Changed):
            select.set_options([(n, n) for n in names])
            select.value = name

    @on(Select.Changed, "#brain")
    def _brain_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.kept.name:
            if self.app.training_running:
                self.notify("The AI is training: switch brains when it has finished.", severity="warning")
                with self.prevent(Select.Changed):
                    event.select.value = self.kept.name
                return
            self.pick_brain(event.value)

    def pick_brain(self, name: str) -> None:
        """The learning AI of this game plays with the brain `name` from now on (a side's own brain, MENACE's
        X or O: that side's is shown)."""
        sides = registry.entry(self.game).ai_brains
        if name in sides[1:]:
            self.side = sides.index(name)
        elif self.game == self.app.session.main.game:
            self.side = 0
            self.app.load_brain(name)
        else:
            side, self.side = self.side, 0
            before = self.app.session.chosen.get(self.game)
            self.app.session.chosen[self.game] = name
            problem = self.kept.problem  # loaded now: a brain this side cannot play (another seat's boxes)
            if problem is not None:
                self.app.session.kept.pop((self.game, name), None)
                if before is None:
                    self.app.session.chosen.pop(self.game, None)
                else:
                    self.app.session.chosen[self.game] = before
                why = problem.split(" The AI plays with")[0]  # the store's reason; the AI does not change brain
                self.side = side
                self.notify(f"{why} The learning AI plays with the brains it had.", title="Brain not loaded",
                            severity="warning")
                self._fill_brains()
                return
        if name not in sides[1:]:  # the game's learning AI plays with it: saved, so the next start does too
            self.app.remember_game(self.game, brain=name)
        self.notify(f"The learning AI now plays with the brain '{name}'.")
        self.query_one("#upto-label").display = self.query_one("#upto").display = self._sized()
        self.action_reload()

    @on(Input.Submitted, "#upto")
    @on(Input.Changed, "#upto")
    def _upto_changed(self) -> None:
        self.action_reload()

    def analysed_rules(self):
        """The game the figures are about: for a brain of numbered positions the size typed (None: not a
        size it has), else the brain's whole game."""
        brain = self.kept.brain
        if not self._sized():
            return brain.rules
        text = self.query_one("#upto", Input).value.strip()
        if not text.isdigit() or not 2 <= int(text) <= brain.size:
            return None
        return registry.entry(self.game).make_rules(int(text), brain.max_take)

    def action_reload(self) -> None:
        kept = self.kept
        brain = kept.brain
        sized = self._sized()
        for widget in ("#upto-label", "#upto", "#upto-error"):
            self.query_one(widget).display = sized
        error = self.query_one("#upto-error", Label)
        rules = self.analysed_rules()
        if rules is None:
            error.update(f" Please enter a number between 2 and {brain.size}.")
            return
        error.update("")
        try:
            result = analyse_brain(brain, rules)
        except ValueError as exc:
            self.query_one("#analysis-summary", Static).update(f"This brain cannot be analysed: {exc}")
            self.query_one("#hats-table", DataTable).clear(columns=True)
            return
        self.query_one("#analysis-summary", Static).update(self.summary(result, brain))
        self._fill_table(result, brain)
        self._show_curve(kept.name, brain)

    def summary(self, result, brain) -> str:
        """The figures in words: the rule its hats show (sticks), its agreement over what, the chances per seat."""
        words = brains.words(brain)
        board = board_of(self.game)
        lines = []
        if result.rule is not None:
            lines += [f"[b]{result.rule.sentence}[/b]", result.rule.verdict]
        sides = board.sides if result.seat is None else None
        per_seat = [f"{self._seat_words(board, s.seat)} {s.agreement:.0%}" for s in result.seats
                    if s.agreement is not None]
        agreement = (f"Over {result.scope}: right in {result.agreement:.0%} of the "
                     f"{result.winning_positions:,} winning {words.containers}"
                     + (f" ({'; '.join(per_seat)})" if len(per_seat) > 1 else "")
                     + (f" (wrong: {wrong_list(result.rules, result.disagreeing, sides)})." if result.disagreeing
                        else ": it plays perfectly."))
        if result.drawn_kept is not None:
            agreement += (f" In the {result.drawn_positions:,} drawn {words.containers} its likeliest move keeps "
                          f"the draw in {result.drawn_kept:.0%}.")
        vs_perfect = "; ".join(f"{chances_words(s.vs_perfect, result.draws)} {self._seat_words(board, s.seat)}"
                               for s in result.seats)
        vs_random = "; ".join(f"{chances_words(s.vs_random, result.draws)} {self._seat_words(board, s.seat)}"
                              for s in result.seats)
        lines.append(agreement + f" Exact chance to win {result.game}: vs a perfect player {vs_perfect} "
                                 f"({PERFECT_PLAYER_WORDS}); vs a random player {vs_random}.")
        return "\n".join(lines)

    @staticmethod
    def _seat_words(board, seat: int) -> str:
        """'moving first', or with the game's marks 'as X (moving first)'."""
        order = "moving first" if seat == 0 else "moving second"
        return f"as {board.sides[seat]} ({order})" if board.sides is not None else order

    def _fill_table(self, result, brain) -> None:
        words = brains.words(brain)
        board = board_of(self.game)
        rules = result.rules
        table = self.query_one("#hats-table", DataTable)
        numbered = self._sized()
        table.clear(columns=True)
        table.add_columns(registry.entry(self.game).position_word.capitalize(), "AI plays", "Right?", "Perfect",
                          words.tokens.capitalize(), "Chance")
        for v in result.positions:
            def label(move, position=v.position):
                return board.label(rules, position, move)

            plays = "resigns" if v.likeliest is None else ("tie" if v.tie else label(v.likeliest))
            perfect = ("lost: any" if v.value < 0 else
                       ("draw: " if v.value == 0 else "") + " or ".join(map(label, v.perfect)))
            right = "-" if v.agrees is None else ("yes" if v.agrees else "NO")
            if numbered:  # a ball per take, in order: 1/2/3
                counts = "/".join(map(str, v.counts))
            else:  # each move's tokens beside it: 1:4 2:4 5:4 (square 1, 2, 5)
                counts = " ".join(f"{short_move(rules, m)}:{c}" for m, c in zip(v.moves, v.counts, strict=True))
            chances = " ".join(f"{p:.0%}" for p in v.probabilities)
            cell = position_cell(rules, v.position, board.sides if result.seat is None else None)
            table.add_row(cell, plays, right, perfect, counts, chances)

    def _show_curve(self, name: str, brain) -> None:
        from sticks_tui.store import StoreError

        try:
            curve = self.app.session.store.last_training_curve(name)
            size = self.app.session.store.last_training_heap(name)
        except StoreError:
            curve, size = [], None
        # a curve kept without its size was scored over the brain's whole game; the legend says what each figure
        # is about: over heaps 2..size, or in a game of `size` sticks (issue 33 item 6)
        rules = brain.rules
        if size is not None and self._sized():
            rules = registry.entry(self.game).make_rules(size, brain.max_take)
        chart = self.query_one(LearningCurve)
        chart.about = FigureHeadings.of(rules)
        chart.points = tuple(curve)
        self.query_one("#analysis-curve-title", Label).update(
            "Learning curve of the last training run" + (f", over {scope_words(rules)}" if curve else ""))

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

        kept = self.kept

        def done(name: str | None) -> None:
            if not name:
                return
            try:
                if kept is self.app.session.main:
                    self.app.save_brain()
                elif kept.kept and kept.base is not None:  # what it learned in this tab goes with the copy
                    self.app.keeper.save(kept.name, kept.brain, kept.base)
                self.app.session.store.copy_brain(kept.name, name)
            except StoreError as exc:
                self.notify(str(exc), severity="error")
                return
            self.notify(f"Copied '{kept.name}' to '{name}'.")
            self._fill_brains()

        self.app.push_screen(NameDialog(f"Copy the brain '{kept.name}' as:", f"{kept.name} copy", check), done)

    @teacher_only("reset a brain")
    def action_reset_brain(self) -> None:
        if self.app.training_running:
            self.notify("The AI is training: reset its brain when it has finished.", severity="warning")
            return

        kept = self.kept

        def done(yes: bool | None) -> None:
            if not yes:
                return
            from sticks_tui.store import StoreError

            try:
                stored = self.app.keeper.reset(kept.name)
            except (StoreError, ValueError) as exc:
                self.notify(str(exc), severity="error")
                return
            if kept is self.app.session.main:
                self.app.load_brain(kept.name)
            else:
                kept.adopt(stored.counts)
            backup = self.app.session.store.last_backup
            self.notify(f"The brain '{kept.name}' has forgotten everything."
                        + (f" It is kept as it was in the back-up {backup.name}." if backup else ""))
            self.action_reload()

        self.app.push_screen(ConfirmDialog(f"Make the brain '{kept.name}' forget everything it "
                                           "learned?", yes="Reset brain"), done)

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import analysis_exports, open_export

        open_export(self, analysis_exports(self.app, self.kept))
