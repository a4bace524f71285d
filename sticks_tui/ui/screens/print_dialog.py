"""Print the brain in play as a machine of paper (issue 36), from the brain view: the PDF `sticks-tui brain print`
writes (`store.machine_pdf.print_brain`, the same code), with the brain's start beads or the beads it holds now.

In a terminal the dialog proposes a path in the user's Documents folder (else home) and writes there through the
export guard (`store.safefile`): the database, a SQLite file, a folder or a device, and any existing file that is
not an earlier print are refused with the reason; an earlier print is replaced only when Print is pressed a second
time for it (the dialog says so first); a full disk leaves nothing half-written (the PDF is written beside the
target and renamed over it). In a browser (`sticks-tui serve`, or any pupil's tab) nothing is written on the
server: the PDF goes to the browser as a download (Textual's `App.deliver_binary`), by the file name typed.

A brain with more boxes than a game from the setup's start can reach (the app's sticks brain: 100 hats, for
games of 20 sticks) prints those boxes by default (hats 1 to 20), numbered as in the whole machine, or every one.

The PDF is made in a thread (Nim's 511 hats take about a second), then written; the dialog closes with what went
where, and the brain view says it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.inputs import Input
from sticks_tui.ui.widgets.select import Select

def bead_choices(tokens: str) -> list[tuple[str, str]]:
    """The Select's choice of beads (or balls): the start ones, or those held now."""
    return [(f"its start {tokens} (a new machine)", "start"), (f"the {tokens} it holds now (to restock)", "as-is")]


@dataclass(frozen=True)
class Printed:
    """What the dialog printed: where (a path on this computer, or the name the browser saves it by), how many
    boxes and beads, and in which words."""

    path: Path
    boxes: int
    beads: int
    words: tuple[str, str]  # ("box", "bead") or ("hat", "ball")
    as_is: bool
    to_browser: bool = False

    def sentence(self, name: str) -> str:
        from sticks_tui.learn.machine import plural

        box, bead = self.words
        what = (f"brain '{name}' as a machine of paper: {self.boxes} {plural(box)}, {self.beads} {plural(bead)} "
                f"({'as it is now' if self.as_is else 'its start ' + plural(bead)})")
        if self.to_browser:
            return f"Sent {what} to your browser as {self.path.name}."
        return f"Printed {what} to {self.path}."


def safe_name(name: str) -> str:
    """A file name made of the brain's name: 'noughts MENACE' -> 'noughts-MENACE-machine.pdf'."""
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-") or "brain"
    return f"{stem}-machine.pdf"


def without_force(text: str) -> str:
    """The guard's messages as the dialog says them (it has no --force)."""
    from sticks_tui.ui.screens.export_dialog import plain_message

    return plain_message(text)


class PrintDialog(StyledOnce, ModalScreen[Printed | None]):
    """Print `kept` (a `ui.session.KeptBrain`) as a PDF of box labels (see the module docstring)."""

    DEFAULT_CSS = """
    PrintDialog #print-error { margin: 0 0 1 0; height: auto; color: $error; text-style: bold; display: none; }
    PrintDialog #print-help, PrintDialog #print-about { margin: 0 0 1 0; height: auto; color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="print_dialog.cancel")]
    AUTO_FOCUS = "#print-path"

    def __init__(self, kept, *, directory: Path | None = None, protected=()) -> None:
        super().__init__()
        from sticks_tui.store.exports import default_export_dir

        self.kept = kept
        self.directory = Path(directory) if directory is not None else default_export_dir()
        self.protected = [p for p in protected if p is not None]
        self.to_browser = False
        self._confirm: str | None = None  # the path of an earlier print that a second Print replaces
        self._busy = False

    def compose(self) -> ComposeResult:
        from sticks_tui.learn.machine import plural
        from sticks_tui.ui import brains
        from sticks_tui.ui.roles import is_teacher

        # a browser's tab never writes on the server's disk: the PDF is the browser's download
        self.to_browser = self.app.is_web or not is_teacher(self.app)
        from sticks_tui.learn.machine import rows_from
        from sticks_tui.ui.session import setup_start

        brain = self.kept.brain
        words = brains.words(brain)
        name = safe_name(self.kept.name)
        # a brain with more boxes than a game from the setup's start needs (sticks' 100 hats for a game of 20):
        # those boxes by default, the whole brain on request
        start = setup_start(self.app, self.kept.game)
        self.needed = rows_from(brain, start) if start is not None else None
        if self.needed is not None and len(self.needed) >= len(brain.positions):
            self.needed = None
        with Vertical(id="print-dialog", classes="dialog"):
            yield Static("Print the machine", classes="dialog-title")
            yield Static(f"A PDF of the brain '{self.kept.name}' as a machine of paper: a cover saying what to buy, "
                         f"then one label to cut out per {words.container}, with its {plural(words.token)} by "
                         "colour.", id="print-about")
            with Vertical(classes="form"):
                with Horizontal(classes="row"):
                    yield Label(words.tokens.capitalize(), classes="field")
                    yield Select(bead_choices(words.tokens), value="start", allow_blank=False, id="print-beads",
                                 compact=True)
                if self.needed is not None:
                    with Horizontal(classes="row"):
                        yield Label(words.containers.capitalize(), classes="field")
                        yield Select([(f"{len(self.needed)} for games from {brain.rules.position_text(start)}",
                                       "start"),
                                      (f"all {len(brain.positions)} of the brain", "all")],
                                     value="start", allow_blank=False, id="print-boxes", compact=True)
                with Horizontal(classes="row"):
                    yield Label("File", classes="field")
                    yield Input(name if self.to_browser else str(self.directory / name), id="print-path",
                                compact=True)
                yield Static("", id="print-error")
                yield Static("Your browser downloads the PDF, by this name." if self.to_browser else
                             "An earlier print is replaced only if you press Print again; any other file is left "
                             "alone.", id="print-help")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Print", id="print-go", variant="primary")
                yield Button("Cancel", id="print-cancel")

    def on_mount(self) -> None:
        for label in self.query(".field"):
            label.styles.width = 8

    @property
    def as_is(self) -> bool:
        return self.query_one("#print-beads", Select).value == "as-is"

    def show_error(self, text: str) -> None:
        error = self.query_one("#print-error", Static)
        error.update(text)
        error.display = bool(text)

    @on(Input.Changed, "#print-path")
    def _path_changed(self, event: Input.Changed) -> None:
        if event.value.strip() != self._confirm:
            self._confirm = None
            self.show_error("")

    @on(Input.Submitted, "#print-path")
    @on(Button.Pressed, "#print-go")
    def action_print(self) -> None:
        if self._busy:
            return
        text = self.query_one("#print-path", Input).value.strip()
        if self.to_browser:
            name = Path(text.replace("\\", "/")).name.strip()
            if not name or name.startswith("."):
                self.show_error("Please give the PDF a name, such as machine.pdf.")
                return
            self._make(text, name)
            return
        from sticks_tui.store import StoreError
        from sticks_tui.store.machine_pdf import recognise
        from sticks_tui.store.safefile import check_target

        try:
            target = check_target(text, what="PDF", recognise=recognise, protected=self.protected)
        except StoreError as exc:
            self.show_error(without_force(str(exc)))
            return
        if target.exists() and self._confirm != text:  # an earlier print (anything else was refused)
            self._confirm = text
            self.show_error(f"{target} is an earlier print: press Print again to replace it.")
            return
        self._make(text, None)

    def _make(self, path: str, browser_name: str | None) -> None:
        self._busy = True
        self.show_error("")
        self.query_one("#print-go", Button).disabled = True
        only = self.needed if self.needed is not None and \
            self.query_one("#print-boxes", Select).value == "start" else None
        self._print(self.kept.brain.copy(), self.kept.name, self.as_is, path, browser_name, only)

    @work(thread=True, exclusive=True, group="print", exit_on_error=False)
    def _print(self, brain, name: str, as_is: bool, path: str, browser_name: str | None, only) -> None:
        """Make the PDF (and write it, in a terminal) away from the screen; the result comes back to `_done`."""
        from sticks_tui.store import StoreError
        from sticks_tui.store.machine_pdf import paper_command, print_brain, write_machine_pdf

        try:
            machine, data = print_brain(brain, name, as_is=as_is,
                                        type_back="the app's paper game: g in the brain view; or "
                                                  + paper_command(brain, name), only=only)
            if browser_name is None:
                write_machine_pdf(path, data, protected=self.protected)
        except (StoreError, ValueError, OSError) as exc:
            self.app.call_from_thread(self._failed, without_force(str(exc)))
            return
        printed = Printed(Path(browser_name or path).expanduser(), len(machine.boxes), sum(machine.totals().values()),
                          machine.words, as_is, to_browser=browser_name is not None)
        self.app.call_from_thread(self._done, printed, data)

    def _failed(self, text: str) -> None:
        self._busy = False
        self.query_one("#print-go", Button).disabled = False
        self.show_error(text)
        self.query_one("#print-path", Input).focus()

    def _done(self, printed: Printed, data: bytes) -> None:
        self._busy = False
        if printed.to_browser:
            import io

            self.app.deliver_binary(io.BytesIO(data), save_filename=printed.path.name, mime_type="application/pdf")
        self.dismiss(printed)

    @on(Button.Pressed, "#print-cancel")
    def action_cancel(self) -> None:
        if not self._busy:
            self.dismiss(None)


def open_print(screen, kept) -> None:
    """Open the dialog from `screen` for the kept brain `kept`; say where the PDF went."""
    from sticks_tui.ui.screens.export_dialog import _protected

    app = screen.app

    def done(result: Printed | None) -> None:
        if result is not None:
            app.notify(result.sentence(kept.name), title="Print", timeout=10)

    app.push_screen(PrintDialog(kept, protected=_protected(app)), done)
