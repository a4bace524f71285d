"""The lab a teacher opens (issue 33 item 4): it starts on the setup's game and size, shows results seed by
seed while it runs, explains itself on F1 in a teacher's words, and its chart fits 80x24 with the legend
outside the plot."""

from __future__ import annotations

import threading

import pytest
from textual.widgets import DataTable, Input, Select, Static

from sticks_tui.learn import lab as lab_module
from sticks_tui.learn.lab import LEARNERS
from sticks_tui.ui.screens.lab import TABLE_COLUMNS, LabHelpScreen, LabScreen
from tests.ui.ui_helpers import wait_until
from tests.unit.test_store_labs import made_lab


@pytest.mark.slow  # a real lab run with the kernel
async def test_the_lab_opens_on_the_setups_game_and_size_explains_itself_on_f1_and_its_chart_fits_80x24(
        make_app, monkeypatch):
    """One app session holding the promises:
    1. the lab opens on the game and size of the setup screen (F7; then a start and a game remembered);
    2. F1 explains every column, learner and figure in a teacher's words;
    3. the chart at 80x24 has 8 rows of plot and its legend outside;
    4. results show seed by seed while the lab runs: the first run's result is in the table while the second is
       still going (held here), not after all;
    and the app's work (styled_once.py, SticksApp.update_styles): F7 lays out the lab and not the setup screen
    below it (the lab's own Resize, at the size just laid out, laid out both again), and Escape styles none of
    the closed lab's widgets (its focused view's Blur restyled all 49 of them)."""
    from ui_helpers import watch_restyles, watch_screen_layouts

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. the setup's game and size
        await pilot.pause()
        setup = app.screen
        laid_out = watch_screen_layouts(monkeypatch)
        await pilot.press("f7")
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen), what="the lab screen")
        screen = app.screen
        await pilot.pause()
        assert screen in laid_out and setup not in laid_out, laid_out
        assert (screen.query_one("#lab-game", Select).value, screen.query_one("#lab-size", Input).value,
                screen.query_one("#lab-cap", Input).value) == ("sticks", "20", "100000")
        assert app.focused is screen.query_one("#lab-view")  # a view of 49 widgets has the focus
        lab_nodes = set(screen.walk_children(with_self=True))
        styled = watch_restyles(monkeypatch)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is setup and not lab_nodes.intersection(styled)
        app.remember_game("sticks", start=35)
        await app.push_screen(LabScreen())
        assert app.screen.query_one("#lab-size", Input).value == "35"
        await pilot.press("escape")
        app.remember(game="noughts")
        await app.push_screen(LabScreen())
        screen = app.screen
        assert (screen.query_one("#lab-game", Select).value, screen.query_one("#lab-size", Input).value,
                screen.query_one("#lab-cap", Input).value) == ("noughts", "3", "50000")
        await pilot.press("escape")

        # 2. F1
        await app.push_screen(LabScreen(workers=1))
        await pilot.press("f1")
        assert isinstance(app.screen, LabHelpScreen)
        text = "\n".join(str(s.content) for s in app.screen.query(Static))
        for column in filter(None, TABLE_COLUMNS):
            assert f"{column}:" in text or f"{column}," in text, column
        for learner in LEARNERS:
            assert f"{learner}:" in text, learner
        for words in ("Seeds:", "Cap:", "band", "50% over both seats", "likeliest", "one seat", "both seats"):
            assert words in text, words
        await pilot.press("escape")

        # 3. the chart at 80x24
        screen = LabScreen(workers=1)
        await app.push_screen(screen)
        screen.show_result(made_lab())
        await pilot.pause()
        lines = str(screen.query_one("#lab-chart").render()).splitlines()
        top = next(i for i, line in enumerate(lines) if "┌" in line)
        bottom = next(i for i, line in enumerate(lines) if "└" in line or "┴" in line)
        assert bottom - top - 1 >= 8
        legend = str(screen.query_one("#lab-legend", Static).content)
        for r in made_lab().as_json()["learners"]:
            assert r["spec"] in legend and r["spec"] not in "\n".join(lines)
        await pilot.press("escape")

        # 4. seed by seed: the second run held until the first's result is seen
        real, calls, gate = lab_module._run_task, [], threading.Event()

        def held(task, cancelled=None):
            out = real(task, cancelled)
            calls.append(task)
            if len(calls) == 2:
                gate.wait(30)
            return out

        monkeypatch.setattr(lab_module, "_run_task", held)
        app.remember(game="sticks")  # (noughts since promise 1) the lab of a fresh app: sticks
        try:
            screen = LabScreen(workers=1)
            await app.push_screen(screen)
            for field, value in (("#lab-size", "8"), ("#lab-seeds", "3"), ("#lab-cap", "300"),
                                 ("#lab-learners", "hats q")):
                screen.query_one(field, Input).value = value
            await pilot.pause()
            await pilot.press("ctrl+r")
            table = screen.query_one("#lab-table", DataTable)
            await wait_until(pilot, lambda: len(calls) == 2, timeout=60, what="the second run")
            await wait_until(pilot, lambda: table.row_count == 1, what="the first result")
            assert screen.running and table.get_row_at(0)[1] == "hats"
            assert table.get_row_at(0)[5] == "0/1"  # never: over the one seed done
            gate.set()
            await wait_until(pilot, lambda: not screen.running, timeout=60, what="the lab to finish")
            assert table.row_count == 2 and table.get_row_at(1)[5] == "0/3"
        finally:
            gate.set()
