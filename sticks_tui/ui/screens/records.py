"""Records: a leaderboard of players, each player's recent games (replay one, export them), the AI's record
per brain, and a curve of the learning AI's results in its real games against people."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Label, Static

from sticks_tui.engine import registry
from sticks_tui.engine.state import GameState
from sticks_tui.ui.boards import has_board, square_rows
from sticks_tui.ui.commands import screen_commands
from sticks_tui.ui.roles import RoleChecks, hide_paths, teacher_only
from sticks_tui.ui.session import LEARNER_KINDS
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import CurveSeries, LearningCurve
from sticks_tui.ui.widgets.footer import KeysFooter
from sticks_tui.ui.widgets.header import AppHeader

WINDOW = 10  # the moving window of the results curve, in games
#: The opponents that are a learning AI playing people as it learns, in every game (MENACE in noughts); the
#: trained AI learns first, then plays: not its curve.
LEARNING_KINDS = tuple(kind for kind in LEARNER_KINDS if kind != "trained")
RESULTS_TITLE = "Learning AI vs people: games won"  # before a brain is chosen: then "'default' vs people: games won"
LABEL_SO_FAR = "so far (cumulative)"
LABEL_WINDOW = f"last {WINDOW} games"
LABEL_NOT_LOST = "not lost, so far"


def results_series(outcomes) -> tuple[CurveSeries, ...]:
    """A learning AI's share of games won against people, after each of its games: cumulative, and over the last
    WINDOW games; in a game with draws (once one was drawn) also its share of games not lost, cumulative.
    `outcomes` are (game id, +1 won / 0 drawn / -1 lost) oldest first (`Store.learning_outcomes`)."""
    so_far, window, kept = [], [], []
    results = [int(o) for _, o in outcomes]
    wins = not_lost = 0
    for i, o in enumerate(results, start=1):
        wins += o > 0
        not_lost += o >= 0
        so_far.append((float(i), wins / i))
        kept.append((float(i), not_lost / i))
        recent = results[max(0, i - WINDOW): i]
        window.append((float(i), sum(r > 0 for r in recent) / len(recent)))
    series = (CurveSeries(LABEL_SO_FAR, "●", tuple(so_far)), CurveSeries(LABEL_WINDOW, "▲", tuple(window)))
    return series + ((CurveSeries(LABEL_NOT_LOST, "◆", tuple(kept)),) if 0 in results else ())


def leaderboard_columns(draws: bool) -> tuple[str, ...]:
    """The leaderboard's columns: Draws only once some game was drawn."""
    return ("Player", "Wins", *(("Draws",) if draws else ()), "Losses", "Rating", "Last played")


def game_cell(record) -> tuple[str, int]:
    """A game in the games list and the lines it takes: its name and start ('sticks 10', 'nim 3,4,5'), or, for
    a game on a square board, the board as the game ended, small (noughts and crosses, Hexapawn)."""
    plain = f"{record.game} {record.start}", 1
    try:
        kind = registry.entry(record.game)
        start = kind.parse_start(record.start)
        moves = [kind.parse_move(m) for m in record.moves]
        rules = kind.make_rules(start, None, moves)
        state = GameState(rules, start)
        for move in moves:
            state = state.play(move)  # the rules' own check: an illegal move raises IllegalMove (a ValueError)
        square = square_rows(rules, state.position)
    except (ValueError, TypeError, KeyError, IndexError):  # a record this app cannot replay: said as kept
        return plain
    if square is None:
        return plain
    rows = [" ".join(row) for row in square[0]]
    pad = len(record.game)
    return "\n".join(f"{record.game if i == 0 else '':<{pad}} {row}" for i, row in enumerate(rows)), len(rows)


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
        brains.add_columns("Brain", "Game", "Won", "Drawn", "Lost", "Trained", "Updated")
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
            brains = [(b, store.brain_results(b.name)) for b in store.list_brains()]
            total = store.game_count()
            chosen = self.chosen_brain()
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
        for b, (wins, draws, losses) in brains:
            table.add_row(b.name, b.game, str(wins), str(draws), str(losses), f"{b.games_trained:,}",
                          when(b.updated)[:10], key=b.name)
        chosen = chosen if chosen is not None else self.app.session.brain_name  # first: this tab's brain in play
        if chosen in table.rows:
            table.move_cursor(row=table.get_row_index(chosen))
        self._show_games(players[0].name if players else None)
        self._show_results()

    def _show_results(self) -> None:
        """The results curve of the brain chosen in the brains list (a learner's brain plays one game from one
        seat: its curve never mixes MENACE's noughts with the sticks hats), against people."""
        from sticks_tui.store import StoreError

        name = self.chosen_brain()
        if name is None:
            return
        store = self.app.session.store
        try:
            outcomes = store.learning_outcomes(name, opponent=LEARNING_KINDS)
        except StoreError as exc:
            self.notify(hide_paths(self.app, str(exc)), severity="warning")
            return
        self.query_one("#results-title", Label).update(f"'{name}' vs people: games won")
        self.query_one("#results-curve", LearningCurve).series = results_series(outcomes)

    @on(DataTable.RowHighlighted, "#brains")
    def _brain_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_results()

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
            what, lines = game_cell(g)
            games.add_row(when(g.played_at), Text(what, no_wrap=True), " vs ".join(g.players), g.loser_name or "(a draw)",
                          key=str(g.id), height=lines)

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
        session = self.app.session
        in_play = {session.brain_name.casefold()} | {k.name.casefold() for k in session.kept.values() if k.kept}
        if name.casefold() in in_play:  # any game's learning AI in this tab (MENACE's boxes too)
            self.notify(f"'{name}' is a brain a learning AI plays with in this tab: choose another on the "
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
