"""The training screen's chart and hats fit the screen (issue 33 item 3).

At 80x24 the learning curve keeps at least 8 rows of plot while a run goes on (at full speed, and at a
pace with v) and after it, and a value is drawn on its true row (a 13% agreement was drawn on the 0% row).
At 160x48 every hat of a 100-stick run is on screen for the learner shown: both AIs side by side when they
fit, else one, with o switching and its footer label saying which comes next.

No run: the screen is given a run's reports by hand (as the worker sends them), so nothing trains here.
The chart is read off the screen as drawn (the composed lines), not from the widget's own account."""

from __future__ import annotations

import numpy as np

from sticks_tui.engine.events import TrainingProgress
from sticks_tui.learn.control import TrainingControl
from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.ui.screens.training import TrainingScreen
from sticks_tui.ui.training import TrainingJob
from ui_helpers import footer_labels, wait_until

#: A run's curve: (games, agreement, beats a perfect player moving first, moving second).
POINTS = [(1, 0.0, 0.0, 0.0), (10, 0.2, 0.0, 0.0), (100, 0.5, 0.3, 0.0), (1000, 0.9, 1.0, 0.0),
          (10000, 1.0, 1.0, 0.0)]


def screen_lines(app) -> list[str]:
    return ["".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips()]


def chart_rows(app) -> dict[str, int]:
    """The screen rows of the curve's y labels (100%, 50%, 0%) as drawn, inside the curve's region."""
    region = app.screen.query_one("#curve").region
    rows = {}
    lines = screen_lines(app)  # the screen drawn once, read row by row
    for y in range(region.y, region.bottom):
        text = lines[y][region.x: region.right].strip()
        for label in ("100%", "50%", "0%"):
            if text.startswith(label) and label not in rows:
                rows[label] = y
    return rows


def plot_rows(app) -> int:
    """Rows of plot from the 100% row to the 0% row, both counted (0 when the chart is not drawn)."""
    rows = chart_rows(app)
    return rows["0%"] - rows["100%"] + 1 if "0%" in rows and "100%" in rows else 0


async def show(pilot, *, running: bool, points=POINTS, sticks: int = 20, told: bool = False, games: int = 10000):
    """The training screen of a run (running, or finished) on the app's 100-hat brain, with `points`."""
    app = pilot.app
    state = app.session.training
    job = TrainingJob("background", app)
    job.control = TrainingControl(5 if told else None)
    app._training_job = job
    state.running = running
    state.config = TrainingConfig(sticks=sticks, games=games)
    state.points = list(points)
    app.action_show_training()
    await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
    hats = app.session.brain.counts.copy()
    app.training = TrainingProgress(games // 2 if running else games, games, 2.0, 0, hats, opponent_hats=hats.copy(),
                                    finished=not running)
    await pilot.pause()
    return app.screen


async def test_at_80x24_the_lab_table_scrolls_to_every_column_and_the_curve_has_8_rows_of_plot(make_app):
    """One app at 80x24. The lab's table is wider than 80 columns: each column's heading is on screen at some point
    as the table scrolls right (arrow keys, once it has the focus), the last one (secs) included.

    Then two runs' screens: a flat line of agreement at 13% (beside the chances moving first, 100%, and second, 0%)
    is drawn above the 0% row, as high as 13% of the way to the 100% row (to within half a row); then a run's curve
    keeps 8 rows of plot at full speed, at a pace on v, and after the run."""
    from textual.widgets import DataTable

    from sticks_tui.ui.screens.lab import TABLE_COLUMNS, LabScreen
    from tests.unit.test_store_labs import made_lab

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = LabScreen(workers=1)
        await app.push_screen(screen)
        screen.show_result(made_lab())
        table = screen.query_one("#lab-table", DataTable)
        table.focus()
        await pilot.pause()
        seen = set()
        read_at = None
        for _ in range(40):
            region = table.region
            if table.scroll_x != read_at:  # the headings drawn again only where the table scrolled
                read_at = table.scroll_x
                heading = screen_lines(app)[region.y][region.x: region.right]
                seen |= {c for c in TABLE_COLUMNS if c and f" {c} " in f" {heading} "}
            if table.scroll_x >= table.max_scroll_x:
                break
            await pilot.press("right")
            await pilot.pause()
        assert seen == {c for c in TABLE_COLUMNS if c}
        await pilot.press("escape")
        assert not isinstance(app.screen, LabScreen)
        # a 13% agreement is drawn on its true row
        await show(pilot, running=False, points=[(g, 0.13, 1.0, 0.0) for g in (1, 100, 10000)])
        rows = chart_rows(app)
        region = app.screen.query_one("#curve").region
        lines = screen_lines(app)
        drawn = [y for y in range(rows["100%"], rows["0%"] + 1) if "●" in lines[y][region.x: region.right]]
        assert len(drawn) == 1, drawn
        span = rows["0%"] - rows["100%"]
        assert abs((rows["0%"] - drawn[0]) / span - 0.13) <= 0.5 / span
        assert drawn[0] < rows["0%"]
        await pilot.press("escape")
        assert not isinstance(app.screen, TrainingScreen)
        # 8 rows of plot
        screen = await show(pilot, running=True)  # full speed: no game told, the curve under the figures
        assert plot_rows(app) >= 8
        assert app.screen.query_one("#curve").region.bottom <= 23  # above the footer, not under it
        app.training_control.set_pace(5)
        screen.add_class("-told")  # a game was told: the log takes the room, v shows the curve instead
        await pilot.pause()
        assert plot_rows(app) == 0
        await pilot.press("v")
        assert plot_rows(app) >= 8
        await pilot.press("v")
        app.session.training.running = False  # the run ends: the curve comes back by itself
        app.training = TrainingProgress(10000, 10000, 2.0, 0, app.session.brain.counts.copy(), finished=True)
        await pilot.pause()
        assert screen.has_class("-curve") and plot_rows(app) >= 8


async def test_at_160x48_every_hat_of_100_sticks_is_on_screen_for_the_learner_shown_and_o_switches(make_app):
    """One app at 160x48. The game screen's AI vs AI: at 100 sticks the two grids side by side would scroll (hats
    42-100 off screen), so one learner's hats show, all of them, and o (in the footer, named after the other)
    switches; at 20 sticks both side by side: nothing to switch.

    Then two runs' training screens: at 100 sticks one AI's hats at a time, every hat on screen, o switching (its
    footer label says which comes next); at 20 sticks both AIs side by side, nothing to switch."""
    from sticks_tui.ui.screens.game import BrainPanel
    from sticks_tui.ui.screens.setup import SetupScreen
    from sticks_tui.ui.widgets.heatmap import HatHeatmap
    from ui_helpers import set_up

    app = make_app(ai_delay=60)  # nothing moves by itself
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await set_up(pilot, "sticks", opponent="learning", watch=True, start=100)
        await pilot.pause()
        panels = list(screen.query(BrainPanel))
        assert len(panels) == 2 and screen.has_class("-wide")
        names = [p.name for p in screen.players]
        for shown, hidden in ((0, 1), (1, 0)):
            assert panels[shown].region.height > 0 and panels[hidden].region.height == 0
            heatmap = panels[shown].query_one(HatHeatmap)
            assert heatmap.data.hats == 100 and heatmap.grid()[2]  # every hat on screen, none to scroll to
            assert names[shown] in str(panels[shown].query_one(".brain-title").render())
            assert footer_labels(screen)["game.other_brain"] == f"{names[hidden]}'s hats"
            await pilot.press("o")
            await pilot.pause()
        await pilot.press("escape")  # no person plays: back at once
        assert isinstance(app.screen, SetupScreen)
        # both side by side when their hats fit
        screen = await set_up(pilot, "sticks", opponent="learning", watch=True, start=20)
        await pilot.pause()
        assert all(p.region.height > 0 for p in screen.query(BrainPanel))
        assert "game.other_brain" not in footer_labels(screen)
        await pilot.press("escape")  # no person plays: back at once
        assert isinstance(app.screen, SetupScreen)
        screen = await show(pilot, running=False, sticks=100)
        first, second = screen.heatmaps
        assert first.data.hats == 100
        shown = [h for h in (first, second) if h.region.height > 0]
        assert shown == [first]  # side by side, 100 hats do not fit: one AI at a time
        cols, rows, fits = first.grid()
        assert fits and first.virtual_size.height <= first.scrollable_content_region.height
        assert "AI 1's hats" in str(screen.query_one("#training-hats-title").content)
        assert footer_labels(screen)["training.other_hats"] == "AI 2"
        await pilot.press("o")
        assert [h for h in (first, second) if h.region.height > 0] == [second]
        assert second.grid()[2]
        assert footer_labels(screen)["training.other_hats"] == "AI 1"
        await pilot.press("escape")
        assert not isinstance(app.screen, TrainingScreen)
        # both AIs side by side when their hats fit
        screen = await show(pilot, running=False, sticks=20)
        first, second = screen.heatmaps
        assert first.region.height > 0 and second.region.height > 0
        assert first.grid()[2] and second.grid()[2]
        assert "training.other_hats" not in footer_labels(screen)  # nothing to switch
        assert np.array_equal(first.data.counts, app.session.brain.counts)


def test_the_charts_ticks_are_in_order_whatever_the_hash_seed():
    """plotext keeps ticks in the order of a set of (tick, label) pairs, so crowded labels moved a column
    from one run to the next (snapshots failed one run in three); ordered_ticks puts them back in order."""
    from textual_plotext.plot import Plot

    from sticks_tui.ui.widgets.plot_curve import ordered_ticks

    plt = Plot()
    plt.xticks([1, 10, 100, 1000, 10000], ["1", "10", "100", "1,000", "10,000"])
    plt.yticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
    ordered_ticks(plt)
    assert (plt.monitor.xticks[0], plt.monitor.xlabels[0]) == ([1, 10, 100, 1000, 10000],
                                                               ["1", "10", "100", "1,000", "10,000"])
    assert plt.monitor.ylabels[0] == ["0%", "25%", "50%", "75%", "100%"]
