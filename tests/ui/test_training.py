"""Background training: start it, keep playing, watch its progress, cancel it; a short run to the end.

While a training thread runs, Pilot's "wait until idle" cannot tell the app is idle (the thread's CPU
counts, so `pilot.press` waits up to a second a key): these tests send keys with `press_busy` and pause
for fixed short times instead.
"""

from __future__ import annotations

import numpy as np
from textual import events
from textual.widgets import Input

from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.store import Store
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
from sticks_tui.ui.widgets.training_badge import TrainingBadge
from ui_helpers import start_game, text_of, wait_until

BIG = 10_000_000


async def press_busy(pilot, *keys: str) -> None:
    """Like `pilot.press`, but without waiting for the process to go idle."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(pilot.app)
        pilot.app._driver.send_message(event)
        await pilot.pause(0.05)


def notifications(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_training_runs_while_playing_and_cancels(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        game = await start_game(pilot, heap=20, opponent="learning")
        assert isinstance(game, GameScreen)
        badge = game.query_one(TrainingBadge)
        assert not badge.has_class("-running")
        app.start_training(TrainingConfig(sticks=100, games=BIG, seed=5, rule=app.brain.rule))
        assert app.training_running
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done > 0,
                         what="the first progress report")
        # the game goes on meanwhile
        await press_busy(pilot, "3")
        await wait_until(pilot, lambda: game.game.state.heap < 17 and game.game.waiting_for_human,
                         what="the move and the AI's reply")
        heap = game.game.state.heap
        await press_busy(pilot, "1")
        await wait_until(pilot, lambda: game.game.state.heap < heap - 1, what="the AI's second reply")
        assert text_of(game, "#count") == f"There are {game.game.state.heap} sticks on the board."
        await pilot.pause(0.1)
        assert badge.has_class("-running") and badge.display
        assert "Training:" in text_of(game, "TrainingBadge")
        assert "of 10,000,000 games" in text_of(game, "TrainingBadge")
        assert app.training.games_done > 0 and app.training.games_total == BIG

        # t shows the training screen (it does not start a second run); its button cancels
        await press_busy(pilot, "t")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        await pilot.pause(0.1)
        training = app.screen
        assert text_of(training, "#training-status").startswith("Training: ")
        assert text_of(training, "#training-status").endswith("of 10,000,000 games")
        assert training.query_one("#cancel-training").display
        await pilot.click("#cancel-training")
        await wait_until(pilot, lambda: not app.training_running, what="the cancelled run to stop")
        await pilot.pause(0.1)
        result = app.last_training_result
        assert result.cancelled and 0 < result.games_played < BIG
        assert not np.array_equal(app.brain.counts, Hats(100).counts)
        assert text_of(training, "#training-status").startswith("Cancelled: ")
        assert not training.query_one("#cancel-training").display  # nothing left to cancel
        assert any(m.startswith("Cancelled after") for m in notifications(app))
        # back to the game, which is where it was
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert app.screen is game and not game.game.is_over
        assert not badge.has_class("-running")
    with Store.open(data_dir) as store:
        assert store.brain_info("default").games_trained == result.games_played
        assert store.load_brain("default") == app.brain


async def test_a_short_training_run_from_the_dialog(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        dialog = app.screen
        assert isinstance(dialog, TrainDialog)
        games = dialog.query_one("#games", Input)
        assert games.value == "100000" and app.focused is games
        games.value = "lots"
        await pilot.press("enter")
        assert app.screen is dialog
        assert text_of(dialog, "#games-error") == "Please enter a number of games between 1 and 10,000,000."
        games.value = "20000"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        await wait_until(pilot, lambda: not app.training_running and app.last_training_result is not None,
                         what="the run to finish")
        await pilot.pause(0.1)
        result = app.last_training_result
        assert not result.cancelled and result.games_played == 20000
        assert text_of(app.screen, "#training-status") == ("Finished: 20,000 of 20,000 games. "
                                                           "The AI keeps what it learned.")
        assert any(m.startswith("Finished 20,000 games in") for m in notifications(app))
        assert not np.array_equal(app.brain.counts, Hats(100).counts)
        await pilot.press("escape")
        await pilot.pause(0.1)
        # escape in the dialog trains nothing
        await pilot.press("f2")
        assert isinstance(app.screen, TrainDialog)
        await pilot.press("escape")
        assert not app.training_running and app.last_training_result is result
    with Store.open(data_dir) as store:
        assert store.brain_info("default").games_trained == 20000
        assert store.load_brain("default") == app.brain
        assert len(store.last_training_curve("default")) >= 2


async def test_quitting_during_training_keeps_what_it_learned(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        with Store.open(data_dir) as store:
            before = store.brain_info("default").games_trained
        app.start_training(TrainingConfig(sticks=100, games=10_000_000, seed=3))
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done > 0, timeout=30,
                         what="training to start playing")
        await app.action_quit()
        await pilot.pause()
    with Store.open(data_dir) as store:
        info = store.brain_info("default")
        saved = store.load_brain("default")
    assert 0 < info.games_trained - before < 10_000_000  # stopped early, and what it played was kept
    assert not np.array_equal(saved.counts, Hats(100).counts)
