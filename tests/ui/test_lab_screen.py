"""The lab screen (issue 20): reached from the command palette and the setup screen (F7); a bad learner is
said on its field and runs nothing; a small lab runs in the background, fills the chart and the table and
is kept in the database; a lab kept before shows again and exports; a cancelled lab is not kept."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable, Input, Label, ProgressBar, Select, Static

from sticks_tui.learn import lab as lab_module
from sticks_tui.learn.lab import LabConfig, lab_game, parse_learner, run_learner
from sticks_tui.ui.screens.lab import LabScreen
from sticks_tui.store import Store
from sticks_tui.ui.screens import export_dialog as export_module
from sticks_tui.ui.screens.export_dialog import ExportDialog
from tests.ui.test_navigation import palette_first
from tests.ui.ui_helpers import wait_until
from tests.unit.test_store_labs import made_lab


@pytest.mark.slow  # a real lab run (one process) with the lab kernel, then one cancelled
async def test_the_lab_from_the_palette_refuses_a_bad_learner_races_two_and_a_cancelled_lab_is_not_kept(make_app,
                                                                                                       monkeypatch):
    """One app session holding the promises: the lab from the command palette refuses a bad learner (said on its
    field, nothing run), then races two (the table, the band following the highlighted learner, kept in the
    database, its status whole at 80x24); a cancelled lab is then neither shown nor kept."""
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
            "Learners: there is no learner 'sarsa': choose hats, q, qseat, mc (e.g. hats:reward=3,penalty=1 or " \
            "q:alpha=1,epsilon=0.3)."
        assert screen.query_one("#lab-learners", Input).has_class("-invalid")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not screen.running and screen.result is None  # nothing ran
        screen.query_one("#lab-learners", Input).value = "hats qseat:vs=perfect"
        await pilot.pause()
        assert str(screen.query_one("#lab-error", Static).content) == ""
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not None, timeout=60, what="the lab to finish")
        table = screen.query_one("#lab-table", DataTable)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        g = lab_game("sticks", 12)
        # 'perfect' as typed before: the perfect player choosing at random among its best moves, by its name
        for row, text, marker in zip(rows, ("hats", "qseat:vs=best-at-random"), ("•", "x"), strict=True):
            alone = sorted(run_learner(parse_learner(text), g, seed, 2000).mastery[2] for seed in (0, 1))
            assert row[:6] == [marker, text, "one seat", f"{alone[0]:,}", f"{alone[1]:,}", "0/2"]
        assert "· the 10-90% band of hats" in screen_text(app)
        table.focus()
        await pilot.press("down")  # the band follows the learner highlighted in the table
        await pilot.pause()
        assert screen.band_learner == 1
        assert "· the 10-90% band of qseat:vs=best-at-random" in screen_text(app)
        assert "band of hats" not in screen_text(app)
        assert screen.result.config == LabConfig("sticks", 12, (parse_learner("hats"),
                                                                parse_learner("qseat:vs=perfect")), 2, 2000)
        # kept in the database, and its status whole at 80x24 (its seconds were cut off)
        status = str(screen.query_one("#lab-status", Label).content)
        assert status.startswith("lab 1: 2 x 2 runs, ") and status.endswith(" s, cap 2.0k")
        assert status in screen_text(app)
        assert [k.id for k in app.session.store.list_labs()] == [1] and screen.shown_id == 1
        assert screen.query_one("#lab-kept", Select).value == 1

        # a cancelled lab is not kept: 100 runs of a tenth of a second or so each (to the cap: 200,000 games),
        # surely still going when the first is done
        await app.push_screen(LabScreen())
        screen = app.screen
        for field, value in (("#lab-size", "100"), ("#lab-seeds", "100"), ("#lab-cap", "200000"),
                             ("#lab-learners", "hats")):
            screen.query_one(field, Input).value = value
        await pilot.pause()
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.query_one(ProgressBar).progress >= 1, timeout=60,
                         what="a run to finish")
        await pilot.press("ctrl+t")
        await wait_until(pilot, lambda: not screen.running, timeout=60, what="the lab to stop")
        assert str(screen.query_one("#lab-status", Label).content) == "cancelled: nothing shown, nothing kept"
        assert screen.shown is None and app.session.store.lab_count() == 1  # lab 1 only


def screen_text(app) -> str:
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


class Plotted:
    """Stands in for plotext's figure: keeps what each plot() call drew, by its marker (the legend, under the
    chart, names each learner's marker)."""

    def __init__(self) -> None:
        self.lines: dict[str, list] = {}

    def plot(self, x, y, marker=None, label=None) -> None:
        self.lines[marker] = list(y)

    def series(self, marker: str) -> list:
        return self.lines[marker]

    def __getattr__(self, name):  # title, xscale, ticks, ...: the frame, not the figures
        return lambda *args, **kwargs: None


@pytest.mark.slow  # a real (small) lab run with the lab kernel
async def test_a_kept_lab_shows_again_and_exports_a_finished_labs_chart_renders_again_and_its_status_is_whole(
        make_app, data_dir, tmp_path, monkeypatch):
    """One app session holding the promises:
    1. a kept lab opened from the setup screen (F7, Ctrl+O) shows again and exports (never over the database);
    2. the chart of a finished lab renders again and again (plotext takes the log of the data it holds at each
       build: the chart's second render of a lab whose curve starts at game 1 ended the app with 'math domain
       error', seen at 80x24 with tui-drive), and Ctrl+G turns its figure in turn;
    3. at 80x24 the status of a finished lab is whole: the progress bar (30 columns, shown even after the lab)
       left the status 31: a lab at the default cap that took minutes lost its seconds ('2 x 3 runs, cap
       1,000,000: 21'); the lesson's kept lab ('lab 1: 4 x 20 runs, cap 100,000: 17.6 s') lost them beside the
       Agreement button."""
    from sticks_tui.learn.lab import run_lab

    monkeypatch.setattr(export_module, "default_export_dir", lambda: tmp_path)
    with Store.open(data_dir) as store:
        store.save_lab(made_lab().as_json())
        kept = store.save_lab(made_lab(cap=200).as_json())
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f7")  # the setup screen's key for the lab (its Lab button does the same)
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen), what="the lab screen")
        screen = app.screen
        assert screen.check_action("export_lab", ()) is False  # nothing shown yet
        await pilot.press("ctrl+o")  # the Kept list opens on the newest lab
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.shown_id == kept.id, what="the kept lab")
        table = screen.query_one("#lab-table", DataTable)
        assert [table.get_row_at(i)[:9] for i in range(table.row_count)] == [
            ["•", "hats:reward=3", "one seat", "60", "never", "1/3", "60", "60", "2/3"],
            ["x", "q", "both seats", "30", "50", "0/3", "30", "30", "3/3"]]
        assert "lab 2: 2 x 3 runs, 1.5 s, cap 200" in screen_text(app)
        await pilot.press("ctrl+s")
        dialog = app.screen
        assert isinstance(dialog, ExportDialog)
        path = dialog.query_one("#export-path", Input)
        assert path.value == str(tmp_path / "lab-2.csv")
        path.value = str(tmp_path / "data" / "sticks-tui.db")  # never over the database
        await pilot.pause()
        await pilot.click("#export-go")
        assert "sticks-tui's own database" in str(dialog.query_one("#export-error", Static).content)
        path.value = str(tmp_path / "lab-2.csv")
        await pilot.pause()
        await pilot.click("#export-go")
        await wait_until(pilot, lambda: app.screen is screen, what="the dialog to close")
        rows = (tmp_path / "lab-2.csv").read_text().splitlines()
        assert rows[0].startswith("learner,spec,games,") and len(rows) == 1 + 2 * 3
        assert rows[3].split(",")[:3] == ["1", "hats:reward=3", "200"]

        # 2. a finished lab's chart, rendered again and again
        result = run_lab(LabConfig("sticks", 8, (parse_learner("hats"),), seeds=2, cap=2000, workers=1))
        screen = LabScreen(workers=1)
        await app.push_screen(screen)
        screen.show_result(result)
        chart = screen.query_one("#lab-chart")
        first, second = str(chart.render()), str(chart.render())
        assert first == second
        assert "games (log scale)" in first
        await pilot.pause()
        # Ctrl+G: the chart's figure is the chance against the perfect player (issue 20, item 2), in turn
        doc, plotted = result.as_json(), Plotted()
        title = screen.query_one("#lab-chart-title", Static)
        await pilot.press("ctrl+g")
        assert "chance to win vs the perfect player" in str(title.content)
        screen._plot_into(plotted)
        assert plotted.series("•") == [100 * p["vs_perfect"]["median"] for p in doc["learners"][0]["curve"]]
        await pilot.press("ctrl+g")
        assert "agreement with perfect play" in str(title.content)
        screen._plot_into(plotted)
        assert plotted.series("•") == [100 * p["agreement"]["median"] for p in doc["learners"][0]["curve"]]

        # 3. the status of a finished lab, whole at 80x24
        result = made_lab(cap=1_000_000)
        result.seconds = 215.25
        screen = LabScreen(workers=1)
        await app.push_screen(screen)
        screen.show_result(result)
        await pilot.pause()
        assert "2 x 3 runs, 215.2 s, cap 1.0M" in screen_text(app)
        doc = dict(result.as_json(), seeds=20, cap=100_000, seconds=17.6)
        screen.show_doc(doc, lab_id=12)  # a kept lab, as the lesson's 20 seeds make it
        await pilot.pause()
        assert "lab 12: 2 x 20 runs, 17.6 s, cap 100k" in screen_text(app)
