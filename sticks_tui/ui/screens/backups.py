"""Back-ups (the teacher's only): the copies of the class's database, newest first, with when and why each was
made; "Back up now" (n); a restore that asks first and keeps the database it replaces (store/backups.py). Under
`sticks-tui serve` it says the server's real interval and, in bold, when timed back-ups are failing and why (the
server's status file, `store.backups.read_status`), checked every STATUS_CHECK seconds."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from rich.markup import escape
from textual.widgets import DataTable, Label, Static

from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.roles import RoleChecks, is_teacher, teacher_only
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader


STATUS_CHECK = 2.0  # seconds between two looks at the server's back-up status


def when(dt) -> str:
    return dt.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def summary_lines(store_path, status, folder_problem: str | None) -> list[str]:
    """What the back-ups screen says above the list (Rich markup): where, when they are made (the serving
    server's real interval), what is kept, and what is wrong now."""
    from sticks_tui.store.backups import KEEP, backup_folder, interval_words

    timed = (f"{interval_words(status.every)} (this server's --backup-minutes)" if status is not None else
             "every --backup-minutes (10 unless the server is started with another)")
    lines = [escape(f"Kept in {backup_folder(store_path)}. `sticks-tui serve` makes one when it starts and {timed} "
                    "while games are played; one is made before every reset, delete, replace or restore; "
                    "n makes one now."),
             f"Kept: the newest {KEEP['start']} made at a start, {KEEP['timer']} timed, {KEEP['before']} made before "
             f"a change and {KEEP['by-hand']} made by hand."]
    if status is not None and status.failing_line:
        lines.append(f"[b]{escape(status.failing_line)}[/b] The class plays on; the newest back-up that worked is "
                     "listed below.")
    if folder_problem:
        lines.append(f"[b]{escape(folder_problem)}[/b] The class plays on, but no back-up is made until it is fixed.")
    return lines


class BackupsScreen(StyledOnce, RoleChecks, Screen[bool]):
    """Dismissed with whether a back-up was restored (the screen below then reads everything again)."""

    DEFAULT_CSS = """
    BackupsScreen #backups { height: 1fr; }
    BackupsScreen #backups-summary { height: auto; margin-bottom: 1; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back", id="backups.back"),
        Binding("enter,r", "restore", "Restore", key_display="Enter", id="backups.restore",
                tooltip="Restore the chosen back-up for every tab (asks first; what it replaces is kept)"),
        Binding("n", "backup_now", "Back up now", id="backups.backup_now",
                tooltip="Make a back-up of the class's records and brains now"),
        Binding("f5", "reload", "Reload", id="backups.reload"),
    ]
    COMMANDS = {screen_commands(
        ("Back up now", "Make a back-up of the class's records and brains now", "backup_now"),
        ("Restore this back-up", "Put the chosen back-up in place of the class's database (asks first)", "restore"),
        ("Reload back-ups", "List the back-ups again", "reload"),
    )}

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Vertical(id="backups-view"):
            yield Static("", id="backups-summary")
            yield Label("Back-ups, newest first", classes="section-title")
            yield DataTable(id="backups", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "back-ups"
        self.restored = False
        if not is_teacher(self.app):  # never pushed for a pupil; if it were, it shows nothing
            self.dismiss(False)
            return
        table = self.query_one("#backups", DataTable)
        # fixed widths: a DataTable cleared and filled again keeps its first widths
        for label, width in (("Made", 19), ("Why", 44), ("Games", 6), ("Brains", 6), ("File", 72)):
            table.add_column(label, width=width)
        self.action_reload()
        self.set_interval(STATUS_CHECK, self.show_summary)

    def show_summary(self) -> None:
        """Where, when, what is kept, and what is wrong now (the server's status is read again)."""
        from sticks_tui.store.backups import read_status

        store = self.app.session.store
        if store.path is None:
            text = "The records and brains live in memory only this time: there are no back-ups."
        else:
            lines = summary_lines(store.path, read_status(), getattr(self, "_folder_problem", None))
            if self.query_one("#backups", DataTable).row_count == 0:
                lines.append("There are no back-ups yet.")
            text = "\n".join(lines)
        summary = self.query_one("#backups-summary", Static)
        if getattr(self, "_summary", None) != text:
            self._summary = text
            summary.update(text)

    def action_reload(self) -> None:
        from sticks_tui.store.backups import folder_problem, list_backups

        store = self.app.session.store
        # a probe file written and removed: asked at each reload, not at each look at the server's status
        self._folder_problem = folder_problem(store.path) if store.path is not None else None
        table = self.query_one("#backups", DataTable)
        table.clear()
        for b in list_backups(store.path) if store.path is not None else []:
            games = "?" if b.games is None else str(b.games)
            brains = "?" if b.brains is None else str(b.brains)
            table.add_row(when(b.made_at), b.why_words, games, brains, b.name, key=b.name)
        self.show_summary()

    @teacher_only("make a back-up")
    def action_backup_now(self) -> None:
        if self.app.make_backup_now() is not None:
            self.action_reload()

    def chosen(self):
        from sticks_tui.store.backups import find_backup
        from sticks_tui.store import StoreError

        table = self.query_one("#backups", DataTable)
        if table.row_count == 0:
            return None
        name = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        try:
            return find_backup(self.app.session.store.path, name)
        except StoreError as exc:
            self.notify(str(exc), severity="error")
            return None

    @on(DataTable.RowSelected, "#backups")
    def _selected(self) -> None:
        self.action_restore()

    @teacher_only("restore a back-up")
    def action_restore(self) -> None:
        backup = self.chosen()
        if backup is None:
            self.notify("No back-up to restore.", severity="warning")
            return
        if backup.problem is not None:  # the listing's check is the restore's: say it now, ask nothing
            self.notify(f"{backup.name} cannot be restored: {backup.problem}. Nothing was changed.",
                        title="Not restored", severity="error", timeout=10)
            return
        if self.app.training_running:
            self.notify("The AI is training: restore when it has finished.", severity="warning")
            return

        def done(yes: bool | None) -> None:
            if not yes:
                return
            from sticks_tui.store import StoreError

            try:
                restored, kept = self.app.session.store.restore_backup(backup.name)
            except StoreError as exc:
                self.notify(str(exc), title="Not restored", severity="error", timeout=10)
                return
            self.restored = True
            self.app.load_brain(self.app.session.brain_name)  # play on with the brain as restored
            self.notify(f"Restored the back-up of {when(restored.made_at)}. What it replaced is kept as the "
                        f"back-up {kept.name}.", title="Restored", timeout=10)
            self.action_reload()

        what = "?" if backup.games is None else f"{backup.games} games, {backup.brains} brains"
        self.app.push_screen(ConfirmDialog(
            f"Restore the class's records and brains as they were at {when(backup.made_at)} ({what})? Every tab "
            "plays on with them; what was played since is replaced, and the database as it is now is kept as a "
            "back-up first.", yes="Restore"), done)

    def action_back(self) -> None:
        self.dismiss(self.restored)
