"""The class view, for a projector (the teacher's only): no keys needed, everything updates by itself.

Laid out for the back row of a classroom: `sticks-tui serve`'s projector page gives the terminal a font of
at least 24 px, which is about 91x22 cells at 1280x720 and 106x26 at 1920x1080 (web/static/sticks.js), so
this screen fits everything into 80x22 and up, with nothing cut and no scrollbar:

- the brain of the game the class plays (the game of the newest game a learning AI played; sticks before
  any), drawn with the existing brain widgets and the last game's marks: the sticks hats as a heatmap (as
  many hats as fit, the title says which), MENACE's boxes it drew from in that game (noughts), the Nim
  learner's hats it drew from (Nim); a line above it says whose game taught it what (ui/live.py);
- the leaderboard (people), ten at a time: the top ten, then every ROTATE seconds the next ten, back to
  the top (the header says which places show);
- that brain's results against the class as a curve (at least 10 rows);
- the latest games, newest at the top: a new game enters there and pushes the oldest shown out.

It redraws when another tab stores something (the app's `class_change`, ui/live.py) and every REFRESH
seconds. `sticks-tui serve` opens it straight away at its projector's address (`/class/SECRET`, a secret of
its own: a projector shows its address bar, so that page has a pupil's powers); the teacher's tab also
offers it in the command palette ("Class view"). Escape goes back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Label, Static

from sticks_tui.engine import registry
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.roles import may_view_class
from sticks_tui.ui.screens.records import results_series
from sticks_tui.ui.styled_once import StyledOnce
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.heatmap import (CELL, COLUMN_GAP, HAT_LABEL, LEGEND_ITEMS, MARK_DOWN, MARK_MIRROR, MARK_UP,
                                           HatHeatmap, HeatmapData, pack_legend)

REFRESH = 5.0  # seconds: today's figures and the ticker, between changes
ROTATE = 8.0  # seconds each ten places of the leaderboard show, when there are more than ten
LEADERS = 10
RECENT = 30  # the latest games read (the ticker shows as many as fit)
#: The smallest terminal this screen is laid out for: a projector's page at 1280x720 with a 24 px font
#: gives about 91x22 (the app's other screens need 80x24; the app checks this screen's own size).
MIN_SIZE = (80, 22)
NAME_WIDTH = 11  # a player's name in the leaderboard (a longer one ends in …)


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
    """"08:48 Ann beat Learning AI", "08:48 Ann and Bob drew", "08:48 MENACE beat Ann (Ann resigned)"."""
    when = game.played_at.astimezone().strftime("%H:%M")
    if game.loser is None:
        return f"{when} {' and '.join(game.players)} drew"
    return f"{when} {game.winner_name} beat {game.loser_name}" + (" (resigned)" if game.resigned else "")


def ticker_lines(games, width: int, height: int) -> list[str]:
    """The newest games that fit `height` lines of `width`, newest first, each whole: a game too long for a
    line goes on two (`HH:MM Ann vs Bob:` and its result under it, indented); never a cut game."""
    lines: list[str] = []
    for game in games:
        line = ticker_line(game)
        if len(line) <= width:
            parts = [line]
        else:  # on two lines, broken at the last space that fits
            cut = line.rfind(" ", 0, width + 1)
            cut = cut if cut > 6 else width
            parts = [line[:cut].rstrip(), _fit("      " + line[cut:].strip(), width)]
        if len(lines) + len(parts) > height:
            break
        lines.extend(parts)
    return lines


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def leaderboard_lines(players, page: int, per_page: int, width: int) -> list[str]:
    """A header naming the places shown ("Leaderboard 11-14 of 14") and one line a player: place, name, games
    won and lost, rating (won - lost); every line at most `width`."""
    total = len(players)
    start = page * per_page
    shown = players[start:start + per_page]
    name_w = max(4, min(NAME_WIDTH, width - 17))  # place 4, won 4, lost 5, rating 4
    places = f"{start + 1}-{start + len(shown)} of {total}"
    title = "Leaderboard" if total <= per_page else f"Top {places}" if page == 0 else places
    header = f"{title:<{name_w + 4}}{'Won':>4}{'Lost':>5}{'+/-':>4}"
    lines = [header[:width]]
    for place, p in enumerate(shown, start=start + 1):
        name = p.name if len(p.name) <= name_w else p.name[: name_w - 1] + "…"
        lines.append(f"{f'{place}.':<4}{name:<{name_w}}{p.wins:>4}{p.losses:>5}{p.rating:>+4d}"[:width])
    if not players:
        lines.append("No games against people yet.")
    return lines


def hats_that_fit(width: int, height: int, max_take: int) -> int:
    """How many sticks hats a HatHeatmap of `width` x `height` shows without scrolling (its pinned header and
    short legend included): as many columns as the width holds, as many rows as the height."""
    legend = pack_legend(max(1, width), LEGEND_ITEMS)
    body = height - 1 - len(legend)
    columns = (width + COLUMN_GAP) // (HAT_LABEL + CELL * max_take + COLUMN_GAP)
    return max(0, body) * max(0, columns)


@dataclass(frozen=True)
class ClassGame:
    """The game the class plays, as the projector shows it: the newest game a learning AI played in (its game,
    start, the brain it taught and what it drew), or, before any, the game of the newest game (sticks if none)."""

    game: str = ""
    start: str = ""
    brain: str = ""
    record: object | None = None  # the GameRecord whose lesson is marked (None: none yet)

    @property
    def lesson(self):
        """The learning seat of `record` that taught `brain` (a SeatLearning), or None."""
        if self.record is None:
            return None
        return next((s for s in self.record.learning if s.brain.casefold() == self.brain.casefold()), None)


def class_game(recent, default_game: str, default_brain: str) -> ClassGame:
    """Which game the class plays, from its latest games (newest first): that of the newest a learning AI
    played in; before any, the brain in play on this tab (`default_game`, `default_brain`)."""
    for game in recent:
        if game.learning:
            return ClassGame(game.game, game.start, game.learning[0].brain, game)
    return ClassGame(default_game, "", default_brain, None)


class ClassScreen(StyledOnce, Screen):
    DEFAULT_CSS = """
    ClassScreen { overflow: hidden hidden; }
    ClassScreen #class-backups { height: auto; text-style: bold; color: $error; display: none; }
    ClassScreen #class-backups.-failing { display: block; }
    ClassScreen #class-top { height: 1fr; min-height: 9; }
    ClassScreen #class-brain-title { height: 1; width: 1fr; text-style: bold; }
    ClassScreen #class-news { height: 1; width: 1fr; text-style: bold; color: $accent; }
    ClassScreen #class-heatmap { height: 1fr; overflow: hidden hidden; scrollbar-size: 0 0; }
    ClassScreen #class-boxes { height: 1fr; }
    ClassScreen #class-bottom { height: 11; }
    ClassScreen #class-leaders { width: 28; height: 11; }
    ClassScreen #class-results { width: 1fr; height: 11; padding: 0 1; }
    ClassScreen #class-results-title { height: 1; width: 1fr; text-style: bold; }
    ClassScreen #class-curve { height: 10; min-height: 10; }
    ClassScreen #class-latest { width: 30; height: 11; }
    ClassScreen #class-latest-title { height: 1; width: 1fr; text-style: bold; }
    ClassScreen #class-ticker { height: 10; }
    ClassScreen.-wide #class-bottom { height: 12; }
    ClassScreen.-wide #class-leaders, ClassScreen.-wide #class-results, ClassScreen.-wide #class-latest { height: 12; }
    ClassScreen.-wide #class-curve { height: 11; }
    ClassScreen.-wide #class-ticker { height: 11; }
    ClassScreen.-wide #class-latest { width: 36; }
    ClassScreen.-tall #class-bottom { height: 1fr; }
    ClassScreen.-tall #class-leaders, ClassScreen.-tall #class-results, ClassScreen.-tall #class-latest { height: 1fr; }
    ClassScreen.-tall #class-curve, ClassScreen.-tall #class-ticker { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "back", "Back", id="class_view.back")]
    AUTO_FOCUS = None
    MIN_SIZE = MIN_SIZE

    def __init__(self) -> None:
        super().__init__()
        self.page = 0  # which ten places of the leaderboard show
        self.players: list = []
        self.recent: list = []
        self.shown = ClassGame()
        self.results: list = []
        self.brain = None
        self._news = ""  # whose game taught what, from the live check (ui/live.py); else the last lesson's words

    def compose(self) -> ComposeResult:
        yield Static("", id="class-backups", markup=False)  # one line, only while `sticks-tui serve`'s back-ups fail
        with Vertical(id="class-top"):
            yield Label("", id="class-brain-title")
            yield Static("", id="class-news")
            yield HatHeatmap(id="class-heatmap")
            yield Static("", id="class-boxes")
        with Horizontal(id="class-bottom"):
            yield Static("", id="class-leaders")
            with Vertical(id="class-results"):
                yield Label("", id="class-results-title")
                yield LearningCurve(id="class-curve", x_scale="linear", x_label="games",
                                    empty_text="no games against the class yet")
            with Vertical(id="class-latest"):
                yield Label("Latest games", id="class-latest-title")
                yield Static("", id="class-ticker")

    def on_mount(self) -> None:
        self.sub_title = "the class"
        if not may_view_class(self.app):
            self.dismiss()
            return
        self.refresh_all()
        self.watch(self.app, "class_change", self._class_changed, init=False)
        self.watch(self.app, "training", lambda progress: self.refresh_all()
                   if progress is not None and progress.finished else None, init=False)
        self.set_interval(REFRESH, self.refresh_all)
        self.set_interval(ROTATE, self.rotate)

    def on_resize(self) -> None:
        self.set_class(self.size.height >= 26, "-wide")
        self.set_class(self.size.height >= 34, "-tall")  # a terminal's big window: half for the curve and the games
        self.call_after_refresh(self.draw)

    def _class_changed(self, change) -> None:
        if change is None:
            return
        # a restore, or the brain changed with no game (another tab's training run), is said as the live
        # check says it; a game is said from the game the view shows (whose game, and what it taught that brain)
        self._news = change.restored or ("" if change.games else change.words)
        self.refresh_all()

    # -- the leaderboard's pages ----------------------------------------------------------------------
    @property
    def pages(self) -> int:
        return max(1, -(-len(self.players) // LEADERS))

    def rotate(self) -> None:
        """The next ten places of the leaderboard (back to the top after the last)."""
        self.page = (self.page + 1) % self.pages
        self.draw_leaders()

    # -- reading and drawing ----------------------------------------------------------------------------
    def show_backups(self) -> None:
        """'Back-ups failing since 10:42: the disk is full.' while they fail (the server's status file)."""
        from sticks_tui.store.backups import read_status

        status = read_status()
        line = status.failing_line if status is not None else None
        shown = self.query_one("#class-backups", Static)
        _say(shown, line or "")
        shown.set_class(line is not None, "-failing")

    def refresh_all(self) -> None:
        from sticks_tui.store import StoreError

        self.show_backups()

        store = self.app.session.store
        try:
            self.players = [p for p in store.leaderboard(include_ai=False)]
            self.recent = store.recent_games(limit=RECENT)
            session = self.app.session
            self.shown = class_game(self.recent, registry.name_of(session.brain.rules), session.brain_name)
            learner = self.shown.record.opponent if self.shown.record is not None else "learning"
            self.results = store.learning_outcomes(self.shown.brain, learner) if self.shown.brain else []
            self.brain = self._load_brain(store)
        except StoreError as exc:
            _say(self.query_one("#class-news", Static), str(exc))
            return
        if self.page >= self.pages:
            self.page = 0
        self.draw()

    def _load_brain(self, store):
        session = self.app.session
        if self.shown.brain == session.brain_name and self.shown.game == registry.name_of(session.brain.rules):
            return session.brain  # the tab's brain in play (the live check keeps it as stored)
        return store.load_brain(self.shown.brain, self.shown.game) if self.shown.brain else None

    def draw(self) -> None:
        if not self.is_mounted:
            return
        self.draw_brain()
        self.draw_leaders()
        results = self.query_one("#class-results-title", Label)
        record, lesson = self.shown.record, self.shown.lesson
        ai = record.players[lesson.seat] if record is not None and lesson is not None else "The learning AI"
        _say(results, _fit(f"{ai} vs people: won", results.size.width or 30))
        self.query_one("#class-curve", LearningCurve).series = results_series(self.results)
        ticker = self.query_one("#class-ticker", Static)
        today = datetime.now().astimezone().date()
        todays = sum(1 for g in self.recent if g.played_at.astimezone().date() == today)
        _say(self.query_one("#class-latest-title", Label),
            "Latest games" + (f" ({todays}{'+' if todays == len(self.recent) else ''} today)" if todays else ""))
        width = ticker.size.width or 40
        lines = ticker_lines(self.recent, width, ticker.size.height or 10)
        _say(ticker, "\n".join(lines) or "No games yet.")

    def draw_leaders(self) -> None:
        leaders = self.query_one("#class-leaders", Static)
        width = leaders.size.width or 30
        _say(leaders, "\n".join(leaderboard_lines(self.players, self.page, LEADERS, width)))

    def draw_brain(self) -> None:
        # how the game's brain is drawn (the registry's entry says, not the game's name): every hat a game can
        # reach (sticks: the heatmap); else the containers the last game drew from, as the brain view draws them
        game, brain = self.shown.game, self.brain
        entry = registry.entry(game)
        heatmap = self.query_one("#class-heatmap", HatHeatmap)
        boxes = self.query_one("#class-boxes", Static)
        was = heatmap.display, boxes.display
        heatmap.display = entry.brains == "hats" and entry.replay_every_hat
        boxes.display = not heatmap.display
        if (heatmap.display and not was[0]) or (boxes.display and not was[1]):
            # the class changed game: the drawing just shown has no size until laid out (it was drawn for a width of
            # 80, its key cut with "…", until the next redraw): drawn again at its size
            self.call_after_refresh(self.draw_brain)
        title = _Fitted(self.query_one("#class-brain-title", Label))
        _say(self.query_one("#class-news", Static), self._news or self._lesson_words())
        if brain is None:
            title.update(f"The class plays {entry.title}: no brain called '{self.shown.brain}' is kept yet.")
            return
        if heatmap.display:
            self._draw_hats(heatmap, brain, title)
        else:
            self._draw_containers(boxes, brain, title, entry)

    def _lesson_words(self) -> str:
        """Whose game last taught the brain shown, and what: "Eve's game: hat 6, ball 1 ↑" (sticks, as the live
        check says it over the hats), "Dee's game: a draw" (the boxes and hats mark what it taught)."""
        from sticks_tui.ui.live import change_words, whose

        record, lesson = self.shown.record, self.shown.lesson
        if record is None or lesson is None:
            return "No game has taught it yet."
        heatmap = self.query_one("#class-heatmap", HatHeatmap)  # its hats are named as the heatmap numbers them
        if heatmap.display and any(after != before for _, _, before, after in lesson.changes):
            return change_words([record], self.shown.brain, ())
        return f"{whose(record)}: {record.result_words}"

    def _draw_hats(self, heatmap: HatHeatmap, brain, title) -> None:
        try:
            heap = int(self.shown.start)
        except ValueError:
            heap = 0
        heap = min(brain.size, heap or self.app.settings.of(self.shown.game).start or 20)
        width, height = heatmap.size
        fit = hats_that_fit(width, height, brain.max_take) if width and height else heap
        hats = max(1, min(heap, fit))
        data = heatmap.data
        if data.hats != hats or data.max_take != brain.max_take:
            solution = solve_sticks(hats)
            data = HeatmapData(hats=hats, max_take=brain.max_take,
                               perfect=tuple(solution.winning_moves(n) for n in range(hats + 1)))
        lesson = self.shown.lesson
        flash = tuple((int(h), int(b), int(after) - int(before)) for h, b, before, after in lesson.changes) \
            if lesson is not None else ()
        heatmap.data = data.with_(counts=brain.counts.copy(), flash=tuple(c for c in flash if c[0] <= hats))
        which = f"hats 1-{hats}" + (f" of {heap}" if hats < heap else "") + f" (a game of {heap})"
        title.update(f"The class plays {registry.entry(self.shown.game).title}: brain '{self.shown.brain}', {which}")

    def _draw_containers(self, boxes: Static, brain, title, entry) -> None:
        """The containers the last game drew from, drawn by the brain view's own drawing (`container_lines`: the
        board's small boxes for noughts, a line each for any other game) with that game's marks: each token drawn
        with its change in full ('11,006 → 11,007 ↑'), a mirror image (⇋) apart from an emptied move (0)."""
        from sticks_tui.ui.boards import board_of
        from sticks_tui.ui import brains
        from sticks_tui.ui.brains import container_move, containers, entry_words
        from sticks_tui.ui.screens.brain import container_lines

        w = entry_words(entry)
        board, rules, lesson = board_of(self.shown.game), brain.rules, self.shown.lesson
        seat, record = getattr(brain, "seat", None), self.shown.record
        who = record.players[lesson.seat] if record is not None and lesson is not None else \
            entry.ai_names.get(entry.default_opponent, "The learning AI")
        who += f" ({board.sides[seat]})" if seat is not None and board.sides else ""
        title.update(f"The class plays {entry.title}: {who}'s {w.containers}, brain '{self.shown.brain}'")
        width, height = boxes.size
        width = width or 80
        every = {p: (p, moves, counts) for p, moves, counts in containers(brain, rules)}
        if lesson is None:
            first = [every[p] for p in every][:1]
            lines = [*container_lines(board, rules, brain, first, width)]
            lines.append(_fit(f"Its first {w.container}. After a game, the {w.containers} it drew from show here.",
                              width))
            _say(boxes, "\n".join(lines))
            return
        changes, shown = {}, []
        for hat, ball, was, now in lesson.changes:
            changes[_key(hat), _key(ball)] = (int(was), int(now))
        for position, move in lesson.drawn:
            cell = container_move(brain, _key(position), _key(move))
            if cell is None or cell[0] not in every:
                continue
            change = changes.get((_key(position), _key(move)), changes.get(cell))
            if change is not None:
                changes[cell] = change
            if every[cell[0]] not in shown:
                shown.append(every[cell[0]])
        lines = [line for line in container_lines(board, rules, brain, shown, width, changes=changes)]
        while lines and not lines[-1]:
            lines.pop()
        outcome = {1: "won", 0: "drew", -1: "lost"}.get(lesson.outcome if lesson.outcome is not None
                                                        else (1 if lesson.won else -1), "played")
        key = f"{MARK_UP} {w.tokens} added, {MARK_DOWN} taken, = kept"
        mirrored = {p: brains.mirrored_moves(brain, p, moves) for p, moves, _ in shown}
        if any(mirrored.values()):  # the marks shown, and only those, are told apart (as the brain view does)
            key += f"; {MARK_MIRROR} mirror image"
        if any(c == 0 and m not in mirrored[p]
               for p, moves, counts in shown for m, c in zip(moves, counts, strict=True)):
            key += "; 0 emptied"
        legend = _fit(f"Its last game's {w.containers} ({outcome}): {key}.", width)
        if not shown:
            lines = [f"No {w.container} of this brain was drawn from."]
        rows, kept = 1, []  # the key on top, then the drawings as the room holds them (a long line wraps)
        for line in lines:
            need = max(1, -(-len(line) // width))
            if height and rows + need > height - (1 if line is not lines[-1] else 0):
                kept.append(_fit(f"… and more: {len(shown)} {w.containers} in all", width))
                break
            kept.append(line)
            rows += need
        _say(boxes, "\n".join([legend, *kept]))

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
            self.app.call_after_refresh(self.app.check_size)  # the screen under it needs 80x24


def _say(static: Static, text: str) -> None:
    """Show `text`, unless it is shown already: an update lays the whole screen out again, and the view redraws
    every line each REFRESH seconds, and at each class change, with mostly the same words (a projector shows
    it all lesson long)."""
    if static.content != text:
        static.update(text)


class _Fitted:
    """A one-line label whose text is cut to its width (… at the end) rather than past the screen's edge."""

    def __init__(self, label: Label) -> None:
        self.label = label

    def update(self, text: str) -> None:
        _say(self.label, _fit(text, self.label.size.width or len(text)))



def _key(value):
    """A position or move as the brain keys it (the store's JSON gives lists where the game has tuples)."""
    return tuple(_key(v) for v in value) if isinstance(value, list | tuple) else value
