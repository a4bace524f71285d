"""One line that shows a background training run from any screen."""

from __future__ import annotations

import time

from textual.widgets import Static

from sticks_tui.learn.control import pace_words


def format_seconds(seconds: float) -> str:
    if seconds != seconds or seconds == float("inf"):
        return "--"
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds >= 60 else f"{seconds} s"


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
            self.update(f"Training {how}: {progress.games_done:,} of {progress.games_total:,} games "
                        "(t: watch)", layout=False)
        elif running and progress is not None:
            rate = progress.games_per_second
            rate_text = f"{rate / 1e6:.1f}M" if rate >= 1e6 else f"{rate:,.0f}"
            self.update(f"Training: {progress.fraction:.0%} of {progress.games_total:,} games, {rate_text} a second, "
                        f"{format_seconds(progress.seconds_left)} left (t: watch)", layout=False)
        elif running:
            self.update("Training: starting ... (t: watch)", layout=False)
