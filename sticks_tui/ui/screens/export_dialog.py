"""One export dialog for the records, analysis, training, replay and lab screens (issue 10; the lab: issue 20).

What (the choices the screen offers), the format (CSV or JSON), and a path the user sees and can
change, prefilled in their Documents folder (else home). Export writes the file through the store's
safe-file rules (`store.exports.write_export`: the database, a SQLite file, anything that is not a
regular file, and an existing file that is not an earlier export of the same kind are refused, and
nothing is changed) and copies the same text to the clipboard. A refusal is shown whole in the
dialog, which stays open so the path can be changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select, Static

from sticks_tui.store.errors import StoreError
from sticks_tui.store.exports import (
    WHAT,
    ExportText,
    curve_export,
    default_export_dir,
    hats_export,
    recogniser,
    suggested_filename,
    write_export,
)
from sticks_tui.store.safefile import check_target
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.inputs import Input

FORMATS = (("CSV (for a spreadsheet)", "csv"), ("JSON (for a program)", "json"))


@dataclass(frozen=True)
class ExportChoice:
    """One thing a screen can export: its kind (hats, curve, games, game, lab), what the user reads, and how
    to make its text in a format (which may raise StoreError, e.g. no curve yet)."""

    kind: str
    label: str
    make: Callable[[str], ExportText]
    name: dict = field(default_factory=dict)  # for the proposed file name: brain=... or game_id=...


@dataclass(frozen=True)
class Exported:
    """What the dialog wrote: where, what, in which format (to_browser: handed to a pupil's browser as
    `path`'s name, never written on the server)."""

    path: Path
    kind: str
    format: str
    label: str
    to_browser: bool = False


def plain_message(text: str) -> str:
    """The safe-file messages, without the command line's --force (the dialog never forces)."""
    return (text.replace(", or use --force to replace it.", ".")
                .replace("; use --force to replace it.", "; choose another file name.")
                .replace(" (use --force to replace the link itself with the file).", "; choose another file name."))


class ExportDialog(StyledOnce, ModalScreen[Exported | None]):
    """Export one of `choices` as CSV or JSON to a file (and the clipboard)."""

    DEFAULT_CSS = """
    ExportDialog #export-error { margin: 0 0 1 0; height: auto; color: $error; text-style: bold; display: none; }
    ExportDialog #export-help { margin: 0 0 1 0; height: auto; color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export_dialog.cancel")]
    AUTO_FOCUS = "#export-path"

    def __init__(self, choices: Sequence[ExportChoice], *, initial: str | None = None,
                 directory: Path | None = None, protected: Sequence = ()) -> None:
        super().__init__()
        if not choices:
            raise ValueError("An export dialog needs something to export.")
        self.choices = {c.kind: c for c in choices}
        self.initial = initial if initial in self.choices else choices[0].kind
        self.directory = Path(directory) if directory is not None else default_export_dir()
        self.protected = [p for p in protected if p is not None]
        self._suggested = ""
        self._refused: str | None = None  # the path of the refusal shown
        self.to_browser = False  # a pupil's tab (sticks-tui serve): the browser downloads the file

    def compose(self) -> ComposeResult:
        from sticks_tui.ui.roles import is_teacher

        # a pupil never writes a file on the teacher's computer: the export goes to the pupil's browser
        self.to_browser = not is_teacher(self.app)
        with Vertical(id="export-dialog", classes="dialog"):
            yield Static("Export", classes="dialog-title")
            with Vertical(classes="form"):
                with Horizontal(classes="row"):
                    yield Label("What", classes="field")
                    yield Select([(c.label, c.kind) for c in self.choices.values()], value=self.initial,
                                 allow_blank=False, id="export-what", compact=True)
                with Horizontal(classes="row"):
                    yield Label("Format", classes="field")
                    yield Select(FORMATS, value="csv", allow_blank=False, id="export-format", compact=True)
                with Horizontal(classes="row"):
                    yield Label("File", classes="field")
                    yield Input(self._suggestion(self.initial, "csv"), id="export-path", compact=True)
                yield Static("", id="export-error")
                if self.to_browser:
                    yield Static("Your browser downloads the file, by this name. The text is copied to the "
                                 "clipboard too.", id="export-help")
                else:
                    yield Static("The text is copied to the clipboard too. An earlier export of the same kind is "
                                 "replaced; any other file is left alone.", id="export-help")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Export", id="export-go", variant="primary")
                yield Button("Cancel", id="export-cancel")

    def on_mount(self) -> None:
        self._suggested = self.query_one("#export-path", Input).value
        for label in self.query(".field"):  # short labels leave the path room (inline: the app's CSS wins)
            label.styles.width = 8

    def _suggestion(self, kind: str, fmt: str) -> str:
        name = suggested_filename(kind, fmt, **self.choices[kind].name)
        return name if self.to_browser else str(self.directory / name)

    @property
    def kind(self) -> str:
        return str(self.query_one("#export-what", Select).value)

    @property
    def format(self) -> str:
        return str(self.query_one("#export-format", Select).value)

    @on(Select.Changed)
    def _choice_changed(self) -> None:
        """A new choice proposes a new file name; a path the user typed keeps its folder and name."""
        path = self.query_one("#export-path", Input)
        new = self._suggestion(self.kind, self.format)
        if path.value == self._suggested:
            path.value = new
        else:
            stem, dot, ending = path.value.rpartition(".")
            if dot and ending.lower() in ("csv", "json"):
                path.value = f"{stem}.{self.format}"
        self._suggested = new
        self.show_error("")

    @on(Input.Changed, "#export-path")
    def _path_changed(self, event: Input.Changed) -> None:
        if event.value.strip() != self._refused:  # a new path: the old refusal no longer applies
            self.show_error("")

    def show_error(self, text: str) -> None:
        error = self.query_one("#export-error", Static)
        error.update(text)
        error.display = bool(text)

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export-go")
    def action_export(self) -> None:
        choice = self.choices[self.kind]
        fmt = self.format
        text = self.query_one("#export-path", Input).value.strip()
        what = f"{WHAT[choice.kind]} export"
        if self.to_browser:
            self._deliver(choice, fmt, text)
            return
        try:
            check_target(text, what=what, recognise=recogniser(choice.kind), protected=self.protected)
            export = choice.make(fmt)
            written = write_export(text, export.text, choice.kind, protected=self.protected)
        except (StoreError, ValueError, OSError) as exc:
            self._refused = text
            self.show_error(plain_message(str(exc)))
            self.query_one("#export-path", Input).focus()
            return
        self.app.copy_to_clipboard(export.text)
        self.dismiss(Exported(Path(written), choice.kind, fmt, choice.label))

    def _deliver(self, choice: ExportChoice, fmt: str, text: str) -> None:
        """A pupil's export: the text to the browser as a download (Textual's deliver_text), by the file
        name typed (its folders dropped); nothing is written on the server."""
        import io

        name = Path(text.replace("\\", "/")).name.strip()
        if not name or name.startswith("."):
            self._refused = text
            self.show_error("Please give the file a name, such as games.csv.")
            return
        try:
            export = choice.make(fmt)
        except (StoreError, ValueError) as exc:
            self._refused = text
            self.show_error(plain_message(str(exc)))
            return
        self.app.deliver_text(io.StringIO(export.text), save_filename=name,
                              mime_type="text/csv" if fmt == "csv" else "application/json")
        self.app.copy_to_clipboard(export.text)
        self.dismiss(Exported(Path(name), choice.kind, fmt, choice.label, to_browser=True))

    @on(Button.Pressed, "#export-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


# -- what each screen offers ------------------------------------------------------------------------------
def _protected(app) -> list:
    store = app.session.store
    return [store.path] if store is not None and store.path is not None else []


def open_export(screen, choices: Sequence[ExportChoice], initial: str | None = None) -> None:
    """Open the dialog from `screen`; say where the file went when it is written."""
    app = screen.app

    def done(result: Exported | None) -> None:
        if result is not None and result.to_browser:
            app.notify(f"Sent the {WHAT[result.kind]} ({result.format.upper()}) to your browser as "
                       f"{result.path.name}. The text is on the clipboard too.", title="Export", timeout=8)
        elif result is not None:
            app.notify(f"Exported the {WHAT[result.kind]} ({result.format.upper()}) to {result.path}. "
                       "The text is on the clipboard too.", title="Export", timeout=8)

    app.push_screen(ExportDialog(choices, initial=initial, protected=_protected(app)), done)


def _store_export(app, kind: str, **kwargs) -> Callable[[str], ExportText]:
    from sticks_tui.store.exports import build_export

    return lambda fmt: build_export(app.session.store, kind, fmt, **kwargs)


def records_exports(app, game=None, *, only_game: bool = False) -> list[ExportChoice]:
    """The records screen: the game list, and the moves of the chosen game (if one is chosen)."""
    choices = []
    if game is not None:
        choices.append(ExportChoice("game", f"the moves of game {game.id} ({' vs '.join(game.players)})",
                                    _store_export(app, "game", game_id=game.id), {"game_id": game.id}))
    if not only_game:
        choices.append(ExportChoice("games", "the game list (every recorded game)", _store_export(app, "games")))
    return choices


def _hats_choice(app, counts=None, what: str = "", kept=None) -> ExportChoice:
    """The table of a brain's containers: the main brain's (with `counts`: as a screen shows them), or `kept`'s."""
    from sticks_tui.learn.hats import Hats
    from sticks_tui.ui import brains

    session = app.session
    kept = session.main if kept is None else kept
    name = kept.name

    def make(fmt: str) -> ExportText:
        brain = kept.brain
        if counts is not None:
            brain = Hats(counts.shape[0] - 1, counts.shape[1], kept.brain.rule, counts.copy())
        return ExportText("hats", fmt, hats_export(name, brain, fmt), suggested_filename("hats", fmt, brain=name))

    words = brains.words(kept.brain)
    return ExportChoice("hats", f"the {words.containers} table of brain '{name}'{what}", make, {"brain": name})


def _curve_choice(app, points=None, what: str = "", name: str | None = None) -> ExportChoice:
    session = app.session
    name = session.brain_name if name is None else name

    def make(fmt: str) -> ExportText:
        curve = list(points) if points else session.store.last_training_curve(name)
        if not curve:
            raise StoreError(f"The brain {name!r} has no learning curve yet: train it first (press t).")
        # what its figures are over (sticks: the heaps), in its game's words: this run's, or the stored curve's
        from sticks_tui.engine import registry

        if points:
            game = registry.find(session.training.rules)
            heap, game = registry.curve_size(session.training.rules), game.name if game is not None else None
        else:
            info = session.store.brain_info(name)
            heap, game = session.store.last_training_heap(name), info.game if info is not None else None
        return ExportText("curve", fmt, curve_export(name, curve, fmt, heap, game),
                          suggested_filename("curve", fmt, brain=name))

    return ExportChoice("curve", f"the learning curve of brain '{name}'{what}", make, {"brain": name})


def analysis_exports(app, kept=None) -> list[ExportChoice]:
    """The analysis screen: the hats table of the brain in play, and its last learning curve; for another
    game's brain (`kept`, analysed there), its last learning curve (the hats table is a sticks brain's)."""
    if kept is not None and kept is not app.session.main:
        return [_hats_choice(app, kept=kept), _curve_choice(app, what=" (last training run)", name=kept.name)]
    return [_hats_choice(app), _curve_choice(app, what=" (last training run)")]


def training_exports(app) -> list[ExportChoice]:
    """The training screen: the learning curve and the hats as the screen shows them."""
    progress = app.training
    counts = getattr(progress, "hats", None)
    points = app.session.training.points
    return [_curve_choice(app, points, " (this run)" if points else " (last training run)"),
            _hats_choice(app, counts, " (as shown)" if counts is not None else "")]
