"""Records: a leaderboard of players, each player's recent games (replay one, export them), the AI's record
per brain, and a curve of the learning AI's results in its real games against people."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Label, Static

from sticks_tui.engine import registry
from sticks_tui.ui.boards import has_board
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.roles import RoleChecks, hide_paths, teacher_only
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import CurveSeries, LearningCurve
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader

WINDOW = 10  # the moving window of the results curve, in games
RESULTS_TITLE = "Learning AI vs people: games won"
LABEL_SO_FAR = "so far (cumulative)"
LABEL_WINDOW = f"last {WINDOW} games"


def results_series(results) -> tuple[CurveSeries, ...]:
    """The learning AI's share of games won against people, after each of its games: cumulative, and over
    the last WINDOW games. `results` are (game id, won) oldest first."""
    so_far, window = [], []
    wins = 0
    won = [bool(w) for _, w in results]
    for i, w in enumerate(won, start=1):
        wins += w
        so_far.append((float(i), wins / i))
        recent = won[max(0, i - WINDOW): i]
        window.append((float(i), sum(recent) / len(recent)))
    return (CurveSeries(LABEL_SO_FAR, "●", tuple(so_far)), CurveSeries(LABEL_WINDOW, "▲", tuple(window)))


def leaderboard_columns(draws: bool) -> tuple[str, ...]:
    """The leaderboard's columns: Draws only once some game was drawn."""
    return ("Player", "Wins", *(("Draws",) if draws else ()), "Losses", "Rating", "Last played")


def when(dt) -> str:
    return dt.astimezone().strftime("%Y-%m-%d %H:%M") if dt is not None else "-"


class RecordsScreen(StyledOnce, RoleChecks, Screen):
    DEFAULT_CSS = """
    RecordsScreen #games-bar { height: 1; }
    RecordsScreen #games-bar Label { width: 1fr; }
    RecordsScreen #games-bar Button { margin-left: 1; min-width: 8; }
    RecordsScreen #records-bottom { height: 9; }
    RecordsScreen.-wide #records-bottom { height: 1fr; min-height: 9; max-height: 18; }
    RecordsScreen #records-brains { width: 43; }
    RecordsScreen.-wide #records-brains { width: 1fr; }
    RecordsScreen #records-results { width: 1fr; margin-left: 1; }
    RecordsScreen #records-view #brains { height: 1fr; }
    RecordsScreen #results-curve { height: 1fr; min-height: 5; }
    """
    BINDINGS = [
        Binding("escape", "back", "Back", id="records.back"),
        Binding("x", "reset", "Reset records", id="records.reset"),
        Binding("f5", "reload", "Reload", show=False, id="records.reload"),
        # the Replay button and Enter on a game show the way
        Binding("v", "replay", "Replay", show=False, id="records.replay"),
        Binding("e", "export", "Export", id="records.export"),
        # not in the footer (it keeps Export whole at 80 columns); F1 and the palette list it, for the teacher
        Binding("b", "backups", "Back-ups", id="records.backups", show=False,
                tooltip="The back-ups of the class's records and brains, and a restore (the teacher's only)"),
        Binding("delete", "delete_brain", "Delete brain", id="records.delete_brain", show=False,
                tooltip="Delete the brain chosen in the brains list (asks first; the teacher's only)"),
    ]
    COMMANDS = {screen_commands(
        ("Reset records", "Forget every player's wins and losses and every game (asks first)", "reset"),
        ("Reload records", "Read the records again", "reload"),
        ("Replay the game", "Replay the chosen game move by move, with the AI's hats as they were", "replay"),
        ("Export", "Write the game list or the chosen game's moves as CSV or JSON", "export"),
        ("Back-ups", "The back-ups of the class's records and brains; restore one (asks first)", "backups"),
        ("Delete brain", "Delete the brain chosen in the brains list: any brain, a pupil's copy too (asks first)",
         "delete_brain"),
    )}

    def compose(self) -> ComposeResult:
        yield AppHeader()
        with Vertical(id="records-view"):
            yield Static("", id="records-summary")
            yield Label("Players (rating = wins - losses)", classes="section-title")
            yield DataTable(id="leaderboard", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="games-bar"):
                yield Label("Recent games", id="games-title", classes="section-title")
                yield Button("Replay", id="replay-game", compact=True, action="screen.replay")
                yield Button("Export", id="export-games", compact=True, action="screen.export")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            with Horizontal(id="records-bottom"):
                with Vertical(id="records-brains"):
                    yield Label("The learning AI's record, per brain", classes="section-title")
                    yield DataTable(id="brains", cursor_type="row")
                with Vertical(id="records-results"):
                    yield Label(RESULTS_TITLE, classes="section-title", id="results-title")
                    yield LearningCurve(id="results-curve", x_scale="linear", x_label="games vs people",
                                        empty_text="no games against people yet")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "records"
        board = self.query_one("#leaderboard", DataTable)
        board.add_columns(*leaderboard_columns(False))
        games = self.query_one("#games", DataTable)
        games.add_columns("When", "Game", "Players", "Lost")
        brains = self.query_one("#brains", DataTable)
        brains.add_columns("Brain", "Won", "Lost", "Trained", "Updated")
        self.action_reload()
        self.watch(self.app, "training", self._training_changed, init=False)
        self.watch(self.app, "class_change", self._class_changed, init=False)

    def _class_changed(self, change) -> None:
        """Classmates' games: read the records again (the player chosen stays chosen), and say whose."""
        if change is None:
            return
        board = self.query_one("#leaderboard", DataTable)
        chosen = None
        if board.row_count:
            chosen = board.coordinate_to_cell_key(board.cursor_coordinate).row_key.value
        self.action_reload()
        if chosen is not None and chosen in board.rows:
            board.move_cursor(row=board.get_row_index(chosen))
            self._show_games(chosen)
        if change.news:
            self.sub_title = f"records · {change.news}"

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
            results = store.learning_results()
        except StoreError as exc:
            self.query_one("#records-summary", Static).update(hide_paths(self.app, str(exc)))
            return
        where = store.location if store.persistent else "memory only (nothing is saved this time)"
        why = "" if store.persistent else " " + " ".join(store.notices)
        self.query_one("#records-summary", Static).update(  # a pupil's tab never shows the server's paths
            hide_paths(self.app, f"{total:,} game{'' if total == 1 else 's'} kept in {where}.{why}"))
        board = self.query_one("#leaderboard", DataTable)
        draws = any(p.draws for p in players)  # a Draws column once a game was drawn (noughts and crosses)
        board.clear(columns=len(board.columns) != len(leaderboard_columns(draws)))
        if not board.columns:
            board.add_columns(*leaderboard_columns(draws))
        for p in players:
            name = p.name + (" (AI)" if p.is_ai else "")
            board.add_row(name, str(p.wins), *([str(p.draws)] if draws else []), str(p.losses), f"{p.rating:+d}",
                          when(p.last_played), key=p.name)
        table = self.query_one("#brains", DataTable)
        table.clear()
        for b, (wins, losses) in brains:
            table.add_row(b.name, str(wins), str(losses), f"{b.games_trained:,}", when(b.updated)[:10], key=b.name)
        self._show_games(players[0].name if players else None)
        self.query_one("#results-curve", LearningCurve).series = results_series(results)

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
            games.add_row(when(g.played_at), what, " vs ".join(g.players), g.loser_name or "(a draw)",
                          key=str(g.id))

    @teacher_only("reset the records")
    def action_reset(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                from sticks_tui.store import StoreError

                try:
                    self.app.session.store.reset_records()
                except StoreError as exc:
                    self.notify(str(exc), severity="error")
                    return
                kept = self.app.session.store.last_backup
                self.notify("All records and games are forgotten. The brains are kept."
                            + (f" The records as they were are kept as the back-up {kept.name}." if kept else ""))
                self.action_reload()

        self.app.push_screen(ConfirmDialog("Forget every player's wins and losses and every game? "
                                           "The AI's brains are kept.", yes="Reset records"), done)

    def chosen_brain(self) -> str | None:
        """The brain under the cursor in the brains list, or None."""
        brains = self.query_one("#brains", DataTable)
        if brains.row_count == 0:
            return None
        return brains.coordinate_to_cell_key(brains.cursor_coordinate).row_key.value

    @teacher_only("delete a brain")
    def action_delete_brain(self) -> None:
        name = self.chosen_brain()
        if name is None:
            self.notify("No brain to delete: choose one in the brains list.", severity="warning")
            return
        if name.casefold() == self.app.session.brain_name.casefold():
            self.notify(f"'{name}' is the brain the learning AI plays with in this tab: choose another on the "
                        "setup or analysis screen first.", severity="warning")
            return

        def done(yes: bool | None) -> None:
            if not yes:
                return
            from sticks_tui.store import StoreError

            try:
                self.app.session.store.delete_brain(name)  # the store makes a back-up first
            except StoreError as exc:
                self.notify(str(exc), severity="error")
                return
            kept = self.app.session.store.last_backup
            self.notify(f"Deleted the brain '{name}'. The games played with it stay in the records."
                        + (f" The brain as it was is kept in the back-up {kept.name}." if kept else ""))
            self.action_reload()

        self.app.push_screen(ConfirmDialog(f"Delete the brain '{name}', its hats and its training curve? The games "
                                           "played with it stay in the records.", yes="Delete brain"), done)

    def chosen_game(self):
        """The game under the cursor in the games list (read from the store), or None."""
        from sticks_tui.store import StoreError

        games = self.query_one("#games", DataTable)
        if games.row_count == 0:
            return None
        try:
            key = games.coordinate_to_cell_key(games.cursor_coordinate).row_key.value
            return self.app.session.store.game(int(key))
        except (StoreError, ValueError, TypeError) as exc:
            self.notify(f"Cannot read that game: {exc}", severity="error")
            return None

    @on(DataTable.RowSelected, "#leaderboard")
    def _player_selected(self) -> None:
        """Enter on a player goes to their games (where Enter replays one)."""
        games = self.query_one("#games", DataTable)
        if games.row_count:
            games.focus()

    @on(DataTable.RowSelected, "#games")
    def _game_selected(self) -> None:
        self.action_replay()

    def action_replay(self) -> None:
        from sticks_tui.ui.screens.replay import ReplayScreen

        game = self.chosen_game()
        if game is None:
            self.notify("No game to replay: pick a player with games, then a game in the list.", severity="warning")
            return
        if not has_board(game.game):  # a game this app cannot draw (its board is not here)
            self.notify(f"A game of {registry.entry(game.game).title} does not replay here: this app has no board "
                        "for it.", severity="warning")
            return
        self.app.push_screen(ReplayScreen(game))

    def action_export(self) -> None:
        from sticks_tui.ui.screens.export_dialog import open_export, records_exports

        game = self.chosen_game()
        open_export(self, records_exports(self.app, game), initial="game" if game is not None else "games")

    @teacher_only("restore a back-up")
    def action_backups(self) -> None:
        from sticks_tui.ui.screens.backups import BackupsScreen

        self.app.push_screen(BackupsScreen(), lambda restored: self.action_reload() if restored else None)

    def action_back(self) -> None:
        self.app.pop_screen()
