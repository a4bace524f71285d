"""Records: a leaderboard of players, each player's recent games, and the AI's record per brain."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Static

from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.screens.confirm import ConfirmDialog


def when(dt) -> str:
    return dt.astimezone().strftime("%Y-%m-%d %H:%M") if dt is not None else "-"


class RecordsScreen(Screen):
    BINDINGS = [
        Binding("escape", "back", "Back", id="records.back"),
        Binding("x", "reset", "Reset records", id="records.reset"),
        Binding("f5", "reload", "Reload", id="records.reload"),
    ]
    COMMANDS = {screen_commands(
        ("Reset records", "Forget every player's wins and losses and every game (asks first)", "reset"),
        ("Reload records", "Read the records again", "reload"),
    )}

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="records-view"):
            yield Static("", id="records-summary")
            yield Label("Players (rating = wins - losses)", classes="section-title")
            yield DataTable(id="leaderboard", cursor_type="row", zebra_stripes=True)
            yield Label("Recent games", id="games-title", classes="section-title")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Label("The learning AI's own record, per brain", classes="section-title")
            yield DataTable(id="brains", cursor_type="row")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.sub_title = "records"
        board = self.query_one("#leaderboard", DataTable)
        board.add_columns("Player", "Wins", "Losses", "Rating", "Last played")
        games = self.query_one("#games", DataTable)
        games.add_columns("When", "Game", "Players", "Lost")
        brains = self.query_one("#brains", DataTable)
        brains.add_columns("Brain", "Wins", "Losses", "Games trained", "Updated")
        self.action_reload()
        self.watch(self.app, "training", self._training_changed, init=False)

    def _training_changed(self, progress) -> None:
        """A run that ends changes the brain (and its games trained): show it without F5."""
        if progress is not None and progress.finished:
            self.action_reload()

    def action_reload(self) -> None:
        from sticks_tui.store import StoreError

        store = self.app.session.store
        try:
            players = store.leaderboard()
            brains = [(b, store.brain_record(b.name)) for b in store.list_brains()]
            total = store.game_count()
        except StoreError as exc:
            self.query_one("#records-summary", Static).update(str(exc))
            return
        where = store.location if store.persistent else "memory only (nothing is saved this time)"
        self.query_one("#records-summary", Static).update(f"{total:,} games kept in {where}.")
        board = self.query_one("#leaderboard", DataTable)
        board.clear()
        for p in players:
            name = p.name + (" (AI)" if p.is_ai else "")
            board.add_row(name, str(p.wins), str(p.losses), f"{p.rating:+d}", when(p.last_played), key=p.name)
        table = self.query_one("#brains", DataTable)
        table.clear()
        for b, (wins, losses) in brains:
            table.add_row(b.name, str(wins), str(losses), f"{b.games_trained:,}", when(b.updated), key=b.name)
        self._show_games(players[0].name if players else None)

    @on(DataTable.RowHighlighted, "#leaderboard")
    def _player_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.row_key is not None and event.row_key.value is not None:
            self._show_games(event.row_key.value)

    def _show_games(self, player: str | None) -> None:
        from sticks_tui.store import StoreError

        games = self.query_one("#games", DataTable)
        games.clear()
        self.query_one("#games-title", Label).update(f"Recent games of {player}" if player else "Recent games")
        if player is None:
            return
        try:
            records = self.app.session.store.recent_games(player, limit=30)
        except StoreError as exc:
            self.notify(str(exc), severity="error")
            return
        for g in records:
            what = f"{g.game} {g.start}"
            games.add_row(when(g.played_at), what, " vs ".join(g.players), g.loser_name, key=str(g.id))

    def action_reset(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                from sticks_tui.store import StoreError

                try:
                    self.app.session.store.reset_records()
                except StoreError as exc:
                    self.notify(str(exc), severity="error")
                    return
                self.notify("All records and games are forgotten. The brains are kept.")
                self.action_reload()

        self.app.push_screen(ConfirmDialog("Forget every player's wins and losses and every game? "
                                           "The AI's brains are kept.", yes="Reset records"), done)

    def action_back(self) -> None:
        self.app.pop_screen()
