"""What the app keeps (issue 13): a stored brain it cannot use is never written over, the app plays on with
the brain as stored after each game, and a store in memory shows a banner on every screen."""

from __future__ import annotations

import numpy as np

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from sticks_tui.ui.app import MEMORY_ONLY_TITLE
from ui_helpers import start_game, wait_until


async def _play_to_the_end(pilot):
    app = pilot.app
    screen = await start_game(pilot, heap=10, opponent="learning")
    while not screen.game.state.is_over:
        await wait_until(pilot, lambda: screen.game.state.is_over or screen.game.waiting_for_human,
                         what="the human's turn")
        if screen.game.state.is_over:
            break
        await pilot.press("1")
    await pilot.pause()
    return screen


# (a stored brain that does not fit is never written over, after a game nor by a training run's end:
# tests/ui/test_game_screen.py)


async def test_a_store_in_memory_shows_a_banner_on_every_screen(tmp_path):
    from sticks_tui.ui.app import SticksApp

    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    app = SticksApp(data_dir=str(blocked / "data"), seed=7, ai_delay=0, idle_training=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert not app.session.store.persistent
        assert app.title == MEMORY_ONLY_TITLE and app.has_class("-memory-only")
        await pilot.press("f3")
        await pilot.pause()
        summary = str(app.screen.query_one("#records-summary").render())
        assert "memory only" in summary and "a-file" in summary


async def test_after_a_game_a_copy_and_a_training_run_the_app_plays_with_the_brain_as_stored(make_app, data_dir,
                                                                                            held_training):
    """One app session while another copy of the app (another tab) teaches the stored brain, holding the promises:
    1. after a game the app plays with the brain as stored;
    2. issue 23: copying a stale brain (Analysis -> Copy brain, c) saves this copy first: merged onto the brain as
       stored, never written over it, and the tab plays on with the class's brain;
    3. a training run is merged onto the brain as stored: both lessons are kept."""
    from textual.widgets import DataTable, Input

    from sticks_tui.learn.trainer import TrainingConfig

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        # 1. another copy of the app teaches the stored brain meanwhile: hat 10 gets 50 more balls of 2
        with Store.open(data_dir) as other:
            hats = other.load_brain("default")
            hats.counts[10, 1] += 50
            other.save_brain("default", hats)
        await _play_to_the_end(pilot)
        with Store.open(data_dir) as store:
            stored = store.load_brain("default")
        assert app.session.brain.counts[10, 1] >= 50
        assert np.array_equal(app.session.brain.counts, stored.counts)
        await pilot.press("escape")

        # 2. copying a stale brain
        mine = app.session.brain.counts.copy()
        with Store.open(data_dir) as other:  # another tab's games: hat 10 gets 50 balls of 2, hat 40 30 of 3
            hats = other.load_brain("default")
            hats.counts[10, 1] += 50
            hats.counts[40, 2] += 30
            other.save_brain("default", hats)
        app.session.brain.counts[12, 0] += 7  # and this tab learned something it has not saved yet
        await pilot.press("f4")
        app.screen.query_one("#hats-table", DataTable).focus()
        await pilot.press("c")
        app.screen.query_one("#name", Input).value = "mine"
        await pilot.press("enter")
        await pilot.pause()
        with Store.open(data_dir) as store:
            default = store.load_brain("default").counts
            copy = store.load_brain("mine").counts
        assert default[10, 1] == mine[10, 1] + 50 and default[40, 2] == mine[40, 2] + 30  # the class's lessons
        assert default[12, 0] == mine[12, 0] + 7  # and this tab's
        assert np.array_equal(copy, default)
        assert np.array_equal(app.session.brain.counts, default)  # the tab plays on with the class's brain
        await pilot.press("escape")

        # 3. a training run while another copy teaches the stored brain
        start = app.session.brain.counts.copy()
        app.start_training(TrainingConfig(sticks=20, games=10_000_000, seed=5))
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done >= 1000,
                         what="the run held past 1,000 games")
        with Store.open(data_dir) as other:  # meanwhile: hat 60 (beyond the run's heap) gets 40 balls of 3
            hats = other.load_brain("default")
            hats.counts[60, 2] += 40
            other.save_brain("default", hats)
        app.action_cancel_training()  # the run keeps what it learned so far
        held_training.set()
        await wait_until(pilot, lambda: not app.training_running, what="the run to end")
        await pilot.pause()
        with Store.open(data_dir) as store:
            stored = store.load_brain("default")
            trained = store.brain_info("default").games_trained
    assert stored.counts[60, 2] == start[60, 2] + 40  # the other copy's lesson is kept
    assert not np.array_equal(stored.counts[:21], start[:21])  # and so is the run's
    assert 1000 <= trained < 10_000_000
    assert np.array_equal(app.session.brain.counts, stored.counts)  # the app plays with the brain as stored
