"""The class view, for a projector (the teacher's only): no keys needed, everything updates by itself.

The class's brain as a large heatmap (the hats of the setup screen's heap, each cell a classmate's game
changed marked ↑/↓), the class's leaderboard (people), the games played today and by whom, the learning
AI's results against the class as a curve, and the latest games as a ticker. It redraws when another tab
stores something (the app's `class_change`, ui/live.py) and every REFRESH seconds (today's figures).

`sticks-tui serve` opens it straight away at its projector's address (`/class/SECRET`, a secret of its own:
a projector shows its address bar, so that page has a pupil's powers); the teacher's tab also offers it in
the command palette ("Class view"). Escape goes back.
"""

from __future__ import annotations

from datetime import datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Label, Static

from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.roles import may_view_class
from sticks_tui.ui.screens.records import RESULTS_TITLE, results_series
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.header import AppHeader
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData

REFRESH = 5.0  # seconds: today's figures and the ticker, between changes
LEADERS = 10
TICKER = 6
CLASS_HEAP = 12  # the hats shown: a class plays small heaps, and 12 rows read from the back of a room


def today_words(games) -> str:
    """"Today: 7 games: Ann 3, Bob 2, Cy 2" (people only, most games first)."""
    counts: dict[str, int] = {}
    for g in games:
        for seat, name in enumerate(g.players):
            if seat not in g.ai_seats:
                counts[name] = counts.get(name, 0) + 1
    total = len(games)
    if not total:
        return "Today: no games yet."
    who = ", ".join(f"{n} {c}" for n, c in sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold())))
    return f"Today: {total} game{'s' if total != 1 else ''}" + (f": {who}" if who else "")


def ticker_line(game) -> str:
    when = game.played_at.astimezone().strftime("%H:%M")
    result = "a draw" if game.loser is None else f"{game.winner_name} won"
    return f"{when}  {' vs '.join(game.players)}: {result}"


class ClassScreen(StyledOnce, Screen):
    DEFAULT_CSS = """
    ClassScreen #class-view { height: 1fr; }
    ClassScreen #class-hats { width: 3fr; height: 1fr; }
    ClassScreen #class-side { width: 2fr; height: 1fr; padding-left: 1; }
    ClassScreen #class-leaders { height: 1fr; min-height: 5; }
    ClassScreen #class-today { height: auto; }
    ClassScreen #class-curve { height: 8; }
    ClassScreen #class-ticker { height: auto; }
    ClassScreen #class-news { height: 1; text-style: bold; }
    ClassScreen #class-backups { height: auto; text-style: bold; color: $error; display: none; }
    ClassScreen #class-backups.-failing { display: block; }
    ClassScreen .section-title { margin-top: 0; }
    """
    BINDINGS = [Binding("escape", "back", "Back", id="class_view.back")]
    AUTO_FOCUS = None

    def compose(self) -> ComposeResult:
        yield AppHeader()
        yield Static("", id="class-backups", markup=False)  # one line, only while `sticks-tui serve`'s back-ups fail
        with Horizontal(id="class-view"):
            with Vertical(id="class-hats"):
                yield Label("", id="class-hats-title", classes="section-title")
                yield Static("", id="class-news")
                yield HatHeatmap(id="class-heatmap")
            with Vertical(id="class-side"):
                yield Label("The class's leaderboard", classes="section-title")
                yield DataTable(id="class-leaders", cursor_type="none", zebra_stripes=True, show_cursor=False)
                yield Static("", id="class-today")
                yield Label(RESULTS_TITLE, classes="section-title")
                yield LearningCurve(id="class-curve", x_scale="linear", x_label="games",
                                    empty_text="no games against the class yet")
                yield Label("Latest games", classes="section-title")
                yield Static("", id="class-ticker")

    def on_mount(self) -> None:
        self.sub_title = "the class"
        if not may_view_class(self.app):
            self.dismiss()
            return
        self.query_one("#class-leaders", DataTable).add_columns("Player", "Won", "Lost", "Rating")
        self.refresh_all()
        self.watch(self.app, "class_change", self._class_changed, init=False)
        self.watch(self.app, "training", lambda progress: self.refresh_all()
                   if progress is not None and progress.finished else None, init=False)
        self.set_interval(REFRESH, self.refresh_all)

    def _class_changed(self, change) -> None:
        if change is None:
            return
        self.refresh_all(flash=change.cells)
        if change.words:
            self.query_one("#class-news", Static).update(change.words)

    def show_backups(self) -> None:
        """'Back-ups failing since 10:42: the disk is full.' while they fail (the server's status file)."""
        from sticks_tui.store.backups import read_status

        status = read_status()
        line = status.failing_line if status is not None else None
        shown = self.query_one("#class-backups", Static)
        shown.update(line or "")
        shown.set_class(line is not None, "-failing")

    def refresh_all(self, flash: tuple = ()) -> None:
        from sticks_tui.store import StoreError

        self.show_backups()

        session = self.app.session
        brain = session.brain
        heap = min(brain.size, CLASS_HEAP)
        heatmap = self.query_one("#class-heatmap", HatHeatmap)
        data = heatmap.data
        if data.hats != heap:
            solution = solve_sticks(heap)
            data = HeatmapData(hats=heap, max_take=brain.max_take,
                               perfect=tuple(solution.winning_moves(n) for n in range(heap + 1)))
        shown = tuple(c for c in flash if c[0] <= heap) or data.flash
        heatmap.data = data.with_(counts=brain.counts.copy(), flash=shown)
        self.query_one("#class-hats-title", Label).update(
            f"The class's brain '{session.brain_name}': hats 1-{heap}")
        store = session.store
        try:
            players = [p for p in store.leaderboard() if not p.is_ai][:LEADERS]
            recent = store.recent_games(limit=200)
            results = store.learning_results()
        except StoreError as exc:
            self.query_one("#class-today", Static).update(str(exc))
            return
        table = self.query_one("#class-leaders", DataTable)
        table.clear()
        for p in players:
            table.add_row(p.name, str(p.wins), str(p.losses), f"{p.rating:+d}")
        today = datetime.now().astimezone().date()
        todays = [g for g in recent if g.played_at.astimezone().date() == today]
        self.query_one("#class-today", Static).update(today_words(todays))
        self.query_one("#class-curve", LearningCurve).series = results_series(results)
        self.query_one("#class-ticker", Static).update(
            "\n".join(ticker_line(g) for g in recent[:TICKER]) or "No games yet.")

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
