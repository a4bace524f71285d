"""Snapshots of the training dialog (with and without an error) and of a paused slow run, at 80x24.

Frozen: the app's seed; the slow run is shown from a seeded run's own snapshots (its stories,
hats and games), fed to the screen with a paused control, so no figure depends on the machine.
Regenerate with `pytest tests/snapshots/test_training_snapshots.py --snapshot-update`, then look.
"""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, Input

from sticks_tui.engine.events import TrainingProgress
from sticks_tui.learn.control import TrainingControl
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.ui.app import SticksApp
from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
from sticks_tui.ui.training import TrainingJob
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from test_snapshots import settle

SIZE = (80, 24)


@pytest.fixture
def data_dir(tmp_path):
    return str(tmp_path / "data")


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    """Settings of their own: a settings file in the user's config dir changed the dialog's heap (100, not 20)
    or put a notification over the screen."""
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))


def make_app(data_dir) -> SticksApp:
    return SticksApp(data_dir=data_dir, seed=11, ai_delay=0)


async def open_dialog(pilot) -> TrainDialog:
    await pilot.press("f2")
    await settle(pilot, lambda: isinstance(pilot.app.screen, TrainDialog), "the dialog")
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    await pilot.pause()
    return pilot.app.screen


def test_a_run_at_full_speed_with_its_curve(snap_compare, data_dir):
    """At 80x24, a run at full speed: the learning curve under the figures with 8 rows of plot, its legend above
    the plot (issue 33 item 3). The curve is a fixed one, handed to the screen as the worker would."""
    points = [(1, 0.0, 0.0, 0.0), (10, 0.13, 0.0, 0.0), (100, 0.4, 0.25, 0.0), (1000, 0.8, 0.9, 0.0),
              (10000, 1.0, 1.0, 0.0)]

    async def run_before(pilot):
        app = pilot.app
        job = TrainingJob("background", app)
        job.control = TrainingControl(None)
        app._training_job = job
        state = app.session.training
        state.running = True
        state.config = TrainingConfig(sticks=20, games=20000)
        state.rules = state.config.rules  # the figures are over heaps 2-20
        state.points = points
        app.action_show_training()
        await settle(pilot, lambda: isinstance(app.screen, TrainingScreen), "the training screen")
        hats = app.session.brain.counts.copy()
        app.training = TrainingProgress(10000, 20000, 2.0, 0, hats, opponent_hats=hats.copy())
        await pilot.pause()

    assert snap_compare(make_app(data_dir), terminal_size=SIZE, run_before=run_before)


async def test_walk_the_train_dialog_its_error_and_a_paused_slow_run(snap_walk, data_dir):
    """The snapshots test_train_dialog, test_train_dialog_with_an_error (another rule, without "reset the brain
    first") and test_a_paused_slow_run in one app session: each is the screen it was."""
    snapshots: list[TrainingProgress] = []
    train(TrainingConfig(sticks=20, games=12, seed=21, pace=1000, curve=False), brain=Hats(100),
          progress=snapshots.append)
    told = [p for p in snapshots if p.story is not None]
    assert [p.story.number for p in told] == list(range(1, 13))
    app = make_app(data_dir)
    async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
        dialog = await open_dialog(pilot)
        await snap_walk(pilot, "test_train_dialog")
        dialog.query_one("#penalty", Input).value = "2"  # another rule, without "reset the brain first"
        dialog.query_one("#reset-first", Checkbox).value = False
        await pilot.pause()
        await pilot.click("#go")
        await settle(pilot, lambda: dialog.query_one("#train-error").display, "the message")
        await snap_walk(pilot, "test_train_dialog_with_an_error")
        await pilot.press("escape")
        await settle(pilot, lambda: not isinstance(app.screen, TrainDialog), "the dialog closed")

        job = TrainingJob("background", app)
        job.control = TrainingControl(5)  # paused once every game is told (paused before, none would be)
        app._training_job = job
        app.session.training.running = True
        app.action_show_training()
        await settle(pilot, lambda: isinstance(app.screen, TrainingScreen), "the training screen")
        for p in told:  # the run's own reports, as a run of 1,000 games at 5 a second would send them
            app.training = TrainingProgress(p.games_done, 1000, p.games_done / 5, p.wins_first, p.hats,
                                            story=p.story)
            await pilot.pause()
        last = told[-1].story
        flash = tuple((c.hat, c.ball, c.after - c.before) for c in last.changes[0])  # = marks a ball kept too
        heatmap = app.screen.query_one(HatHeatmap)
        screen = app.screen
        await settle(pilot, lambda: not screen._queue and screen._current is not None and screen._current.done
                     and heatmap.data.flash == flash and heatmap.data.beside is not None,
                     "the last game's changes on the hats")
        await pilot.press("space")
        await settle(pilot, lambda: job.control.paused, "the pause")
        await snap_walk(pilot, "test_a_paused_slow_run")
