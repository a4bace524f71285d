"""One line that shows a background training run from any screen, and the run's figures in words
(shared with the training screen): games, rates and times, singular and plural right."""

from __future__ import annotations

import time

from textual.widgets import Static

from sticks_tui.learn.control import pace_words


def format_seconds(seconds: float) -> str:
    """'under 0.1 s', '0.4 s', '12 s', '1:05', '2:03:20', '3 d 4 h'; '--' when not known. Under a second
    with one decimal: a short run took 0.4 s, not '0 s'."""
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return "--"
    if 0 < seconds < 0.05:
        return "under 0.1 s"
    if seconds < 0.95:
        return f"{seconds:.1f} s" if seconds else "0 s"
    seconds = int(round(seconds))
    if seconds >= 2 * 86400:
        return f"{seconds // 86400} d {seconds % 86400 // 3600} h"
    if seconds >= 3600:
        return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


def duration_words(seconds: float) -> str:
    """A duration as a person says it: 'about 50 seconds', 'about 14 minutes', 'about 28 hours', 'about 12 days'."""
    for unit, size, limit in (("second", 1, 90), ("minute", 60, 90 * 60), ("hour", 3600, 48 * 3600),
                              ("day", 86400, float("inf"))):
        if seconds < limit:
            n = max(1, round(seconds / size))
            return f"about {n} {unit}" + ("" if n == 1 else "s")
    raise AssertionError("unreachable")  # pragma: no cover


def games_words(n: int) -> str:
    """'1 game', '1,000 games'."""
    return f"{n:,} game" if n == 1 else f"{n:,} games"


def rate_words(rate: float) -> str:
    """'1 game a second', '2.5 games a second', '1,234 games a second', '3.12M games a second'."""
    if rate >= 1e6:
        return f"{rate / 1e6:.2f}M games a second"
    shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.1f}".removesuffix(".0")
    return f"{shown} game a second" if shown == "1" else f"{shown} games a second"


def run_figures(progress, control, rate: float | None) -> tuple[str, float | None]:
    """(how fast, seconds left) for a running run: at a pace, the pace and what is left at it; at full
    speed, the rate measured over the last seconds of play (`rate`; None: not known yet); ball by ball,
    no time left can be told (it goes at the pace of the steps)."""
    left_games = progress.games_total - progress.games_done
    pace = control.pace if control is not None else None
    if control is not None and control.by_ball:
        return "ball by ball", None
    if pace is not None:
        return pace_words(pace), left_games / pace
    if rate is None or rate <= 0:
        return "measuring the rate", None
    return rate_words(rate), left_games / rate


class TrainingBadge(Static):
    DEFAULT_CSS = """
    TrainingBadge { height: 1; background: $accent 30%; padding: 0 1; display: none; }
    TrainingBadge.-running { display: block; }
    """

    #: Seconds between repaints while a run goes on: each repaint of the line costs the screen a
    #: frame, and 20 a second (the rate progress arrives at) doubled the key-press tail.
    REPAINT_EVERY = 0.25

    def on_mount(self) -> None:
        self._last_paint = 0.0
        self.watch(self.app, "training", self._show, init=True)

    def _show(self, progress) -> None:
        running = getattr(self.app, "training_running", False)
        self.set_class(running, "-running")
        control = getattr(self.app, "training_control", None)
        mode = (control.paused, control.pace) if control is not None else None
        now = time.monotonic()
        if running and progress is not None and now - self._last_paint < self.REPAINT_EVERY \
                and mode == getattr(self, "_mode", None):
            return
        self._last_paint, self._mode = now, mode
        # One line of fixed height and full width: new text needs no layout of the whole screen
        # (that ran ~20 times a second during training and slowed key presses down).
        if running and progress is not None and control is not None and (control.paused or control.pace is not None):
            how = "paused" if control.paused else (
                "ball by ball (on the training screen)" if control.by_ball else f"at {pace_words(control.pace)}")
            self.update(f"Training {how}: {progress.games_done:,} of {games_words(progress.games_total)} "
                        "(t: watch)", layout=False)
        elif running and progress is not None:
            how, left = run_figures(progress, control, getattr(self.app, "training_rate", None))
            self.update(f"Training: {progress.fraction:.0%} of {games_words(progress.games_total)}, {how}, "
                        f"{format_seconds(left)} left (t: watch)", layout=False)
        elif running:
            self.update("Training: starting ... (t: watch)", layout=False)
