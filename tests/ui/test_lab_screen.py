"""The lab screen (issue 20): reached from the command palette; a bad learner is said on its field and
runs nothing; a small lab runs in the background and fills the chart and the table."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable, Input, Static

from sticks_tui.learn import lab as lab_module
from sticks_tui.learn.lab import LabConfig, lab_game, parse_learner, run_learner
from sticks_tui.ui.screens.lab import LabScreen
from tests.ui.test_navigation import palette_first
from tests.ui.ui_helpers import wait_until


@pytest.mark.slow  # a real lab run (one process) with the lab kernel
async def test_the_lab_from_the_palette_refuses_a_bad_learner_then_races_two(make_app, monkeypatch):
    monkeypatch.setattr(lab_module, "default_workers", lambda: 1)  # in this process: no spawn in a Pilot test
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"learning lab")
        await wait_until(pilot, lambda: palette_first(app).startswith("Learning lab"), what="the lab command")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen), what="the lab screen")
        screen = app.screen
        for field, value in (("#lab-size", "12"), ("#lab-seeds", "2"), ("#lab-cap", "2000"),
                             ("#lab-learners", "hats sarsa")):
            screen.query_one(field, Input).value = value
        await pilot.pause()
        assert str(screen.query_one("#lab-error", Static).content) == \
            "Learners: there is no learner 'sarsa': choose hats, q, mc (e.g. hats:reward=3,penalty=1 or " \
            "q:alpha=1,epsilon=0.3)."
        assert screen.query_one("#lab-learners", Input).has_class("-invalid")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not screen.running and screen.result is None  # nothing ran
        screen.query_one("#lab-learners", Input).value = "hats q:vs=perfect"
        await pilot.pause()
        assert str(screen.query_one("#lab-error", Static).content) == ""
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not None, timeout=60, what="the lab to finish")
        table = screen.query_one("#lab-table", DataTable)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        g = lab_game("sticks", 12)
        for row, text, marker in zip(rows, ("hats", "q:vs=perfect"), ("•", "x"), strict=True):
            alone = sorted(run_learner(parse_learner(text), g, seed, 2000).mastery[2] for seed in (0, 1))
            assert row[:4] == [marker, text, f"{alone[0]:,}", f"{alone[1]:,}"]
        assert "hats (· its 10-90% band)" in screen_text(app)
        table.focus()
        await pilot.press("down")  # the band follows the learner highlighted in the table
        await pilot.pause()
        assert screen.band_learner == 1
        assert "q:vs=perfect (· its 10-90% band)" in screen_text(app) and "hats (·" not in screen_text(app)
        assert screen.result.config == LabConfig("sticks", 12, (parse_learner("hats"), parse_learner("q:vs=perfect")),
                                                 2, 2000)


def screen_text(app) -> str:
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


@pytest.mark.slow  # a real (small) lab run with the lab kernel
async def test_the_chart_of_a_finished_lab_renders_again_and_again(make_app):
    """plotext takes the log of the data it holds at each build: the chart's second render of a lab
    whose curve starts at game 1 ended the app with 'math domain error' (seen at 80x24 with tui-drive)."""
    from sticks_tui.learn.lab import run_lab

    result = run_lab(LabConfig("sticks", 8, (parse_learner("hats"),), seeds=2, cap=2000, workers=1))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = LabScreen(workers=1)
        await app.push_screen(screen)
        screen.show_result(result)
        chart = screen.query_one("#lab-chart")
        first, second = str(chart.render()), str(chart.render())
        assert first == second
        assert "games (log scale)" in first
        await pilot.pause()
