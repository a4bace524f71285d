"""A yes/no question before anything is thrown away."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.inputs import Input


class ConfirmDialog(StyledOnce, ModalScreen[bool]):
    """Yes by y, a click on the yes button (or Enter on it); no by n, Esc, or the Cancel button.

    The focus starts on Cancel (Enter says no) unless `default_yes`; `purpose` names the question
    (the app's quit asks with purpose "quit")."""

    BINDINGS = [Binding("escape,n", "no", "Cancel", id="confirm.no"),
                Binding("y", "yes", "Yes", id="confirm.yes")]
    AUTO_FOCUS = None

    def __init__(self, question: str, yes: str = "Yes", *, default_yes: bool = False, purpose: str = "") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.default_yes = default_yes
        self.purpose = purpose

    def on_mount(self) -> None:
        self.query_one("#yes" if self.default_yes else "#no", Button).focus()

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-title")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.yes_label, id="yes", variant="error")
                yield Button("Cancel", id="no")
        yield KeysFooter()  # this dialog's keys, over the screen's below

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)


class NameDialog(StyledOnce, ModalScreen[str | None]):
    """Ask for a name (a new brain's, say); `check` returns an error message or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="name_dialog.cancel")]
    AUTO_FOCUS = "#name"

    def __init__(self, question: str, value: str = "", check=None) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="dialog-title")
            yield Input(self.value, id="name", compact=True, max_length=40)
            yield Label("", id="name-error", classes="error")
            with Horizontal(classes="dialog-buttons"):
                yield Button("OK", id="ok", variant="primary")
                yield Button("Cancel", id="cancel")
        yield KeysFooter()

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def _ok(self) -> None:
        name = self.query_one("#name", Input).value.strip()
        problem = self.check(name) if self.check else (None if name else "Please enter a name.")
        if problem:
            self.query_one("#name-error", Label).update(problem)
            return
        self.dismiss(name)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
