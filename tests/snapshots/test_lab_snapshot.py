"""The lab screen at 80x24 and 160x48 with a finished lab (seeded runs in this process; the seconds set to 0, the
one figure that moves), under NO_COLOR as in a plain terminal: the chart's series differ by glyph.

Regenerate with `pytest tests/snapshots --snapshot-update`, then look at the SVG."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from sticks_tui.learn.lab import LabConfig, LabResult, parse_learner, run_lab
from sticks_tui.ui.app import SticksApp
from sticks_tui.ui.screens.lab import LabScreen

pytestmark = pytest.mark.slow  # the lab kernel runs


def frozen_lab() -> LabResult:
    config = LabConfig("sticks", 16, tuple(parse_learner(t) for t in ("hats", "hats:table=one", "q", "mc:vs=perfect")),
                       3, 5000, workers=1)
    result = run_lab(config)
    for learner in result.learners:
        learner.runs = [(seed, mastery, curve, 0.0, results, 0.0, held, every)
                        for seed, mastery, curve, _, results, _, held, every in learner.runs]
    result.seconds = 0.0
    return result


def _finished_lab_on_screen(snap_compare, tmp_path, monkeypatch, size) -> bool:
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("NO_COLOR", "1")
    result = frozen_lab()

    async def run_before(pilot) -> None:
        screen = LabScreen(workers=1)
        await pilot.app.push_screen(screen)
        for box in screen.query(Input):
            box.cursor_blink = False
        screen.query_one("#lab-size", Input).value = "16"
        screen.query_one("#lab-seeds", Input).value = "3"
        screen.query_one("#lab-cap", Input).value = "5000"
        screen.query_one("#lab-learners", Input).value = "hats hats:table=one q mc:vs=perfect"
        screen.show_result(result)
        await pilot.pause()

    app = SticksApp(data_dir=str(tmp_path / "data"), seed=11, ai_delay=0)
    return snap_compare(app, terminal_size=size, run_before=run_before)


def test_lab_screen_with_a_finished_lab(snap_compare, tmp_path, monkeypatch):
    assert _finished_lab_on_screen(snap_compare, tmp_path, monkeypatch, (80, 24))


def test_lab_screen_with_a_finished_lab_at_160x48(snap_compare, tmp_path, monkeypatch):
    assert _finished_lab_on_screen(snap_compare, tmp_path, monkeypatch, (160, 48))
