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


async def test_walk_the_finished_lab_at_80x24_then_at_160x48(snap_walk, tmp_path, monkeypatch):
    """The snapshots test_lab_screen_with_a_finished_lab and test_lab_screen_with_a_finished_lab_at_160x48 in one
    app session, the terminal resized between them: each is the screen it was."""
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("NO_COLOR", "1")
    result = frozen_lab()
    app = SticksApp(data_dir=str(tmp_path / "data"), seed=11, ai_delay=0)
    async with app.run_test(size=(80, 24), tooltips=True, notifications=True) as pilot:
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
        await snap_walk(pilot, "test_lab_screen_with_a_finished_lab")
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        await snap_walk(pilot, "test_lab_screen_with_a_finished_lab_at_160x48")
