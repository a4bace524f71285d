"""Background training: start it, keep playing, watch its progress, cancel it; a short run to the end.

The long runs here are held by the `held_training` fixture after their first progress report with
games played (until the test releases them), so what the tests see does not depend on the machine's
speed, and Pilot's "wait until idle" is not fooled by a busy training thread.
"""

from __future__ import annotations

import numpy as np
from textual.widgets import Input

from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig
from sticks_tui.store import Store
from sticks_tui.ui.messages import TrainingFinished, TrainingProgressMsg
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
from sticks_tui.ui.widgets.training_badge import TrainingBadge
from ui_helpers import MessageLog, start_game, text_of, wait_until

BIG = 10_000_000


async def test_training_runs_while_playing_and_cancels(make_app, data_dir, held_training):
    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        game = await start_game(pilot, heap=20, opponent="learning")
        assert isinstance(game, GameScreen)
        badge = game.query_one(TrainingBadge)
        assert not badge.has_class("-running")
        app.start_training(TrainingConfig(sticks=100, games=BIG, seed=5))
        assert app.training_running
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done > 0,
                         what="the first progress report")
        # the game goes on meanwhile
        await pilot.press("3")
        await wait_until(pilot, lambda: game.game.state.position < 17 and game.game.waiting_for_human,
                         what="the move and the AI's reply")
        heap = game.game.state.position
        await pilot.press("1")
        await wait_until(pilot, lambda: game.game.state.position < heap - 1, what="the AI's second reply")
        assert text_of(game, "#count") == f"There are {game.game.state.position} sticks on the board."
        def badge_figures() -> bool:
            # the badge repaints at most every 0.25 s, on a new snapshot: the held run sends no more,
            # so hand it the newest one again, as the run's next report would
            app.training = app.training
            return "of 10,000,000 games" in text_of(game, "TrainingBadge")

        await wait_until(pilot, badge_figures, what="the badge's figures")
        assert badge.has_class("-running") and badge.display
        assert text_of(game, "TrainingBadge").startswith("Training:")
        assert app.training.games_done > 0 and app.training.games_total == BIG

        # t shows the training screen (it does not start a second run); its button cancels
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        training = app.screen
        await wait_until(pilot, lambda: text_of(training, "#training-status").startswith("Training: "),
                         what="the training status")
        assert text_of(training, "#training-status").endswith("of 10,000,000 games")
        assert training.query_one("#cancel-training").display
        await pilot.click("#cancel-training")
        # it asks first (a stray key must not end a long run); Enter would say no
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="the question")
        assert app.training_running
        await pilot.click("#yes")
        held_training.set()  # the trainer goes on from where it was held, and sees the cancel at once
        await wait_until(pilot, lambda: not app.training_running, what="the cancelled run to stop")
        await wait_until(pilot, lambda: text_of(training, "#training-status").startswith("Cancelled: "),
                         what="the status to say cancelled")
        result = app.session.training.last_result
        assert result.cancelled and 0 < result.games_played < BIG
        assert not np.array_equal(app.session.brain.counts, Hats(100).counts)
        assert not training.query_one("#cancel-training").display  # nothing left to cancel
        assert any(m.startswith("Cancelled after") for m in log.notifications())
        finished = log.of(TrainingFinished)
        assert len(finished) == 1 and finished[0].result is result  # one finish path
        # back to the game, which is where it was
        await pilot.press("escape")
        assert app.screen is game and not game.game.is_over
        assert not badge.has_class("-running")
    with Store.open(data_dir) as store:
        assert store.brain_info("default").games_trained == result.games_played
        assert store.load_brain("default") == app.session.brain


async def test_the_training_worker_yields_its_core_has_one_finish_path_and_cancels_on_the_first_report(
        make_app, data_dir):
    """The worker thread runs at idle priority (Linux), and reports progress then one TrainingFinished. Then, in the
    same app, a real, unheld run of 10 M games cancelled as soon as it reports games played: it stops early."""
    import os

    from sticks_tui.ui.training import start_training_worker

    linux = hasattr(os, "SCHED_IDLE")  # (SCHED_IDLE is Linux only: elsewhere the priorities are not checked)
    app = make_app()
    log = MessageLog()
    seen = {}

    def run(progress, cancel):
        seen["policy"] = os.sched_getscheduler(0) if linux else None
        progress("half")
        return "done"

    def hook(message) -> None:
        log(message)
        if isinstance(message, TrainingProgressMsg) and message.purpose == "background" \
                and message.progress.games_done > 0:
            app.action_cancel_training()

    async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
        job = start_training_worker(app, "test", run)  # idle=True, the default
        assert await job.wait() == "done"
        idle_policy = seen["policy"]
        await wait_until(pilot, lambda: log.of(TrainingFinished), what="the finish message")
        normal = start_training_worker(app, "test-normal", run, idle=False)
        await normal.wait()
        normal_policy = seen["policy"]
        # a real run, cancelled on its first report with games played
        app.start_training(TrainingConfig(sticks=100, games=BIG, seed=2))
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: not app.training_running, what="the run to be folded in")
        result = app.session.training.last_result
        assert result.cancelled and 0 < result.games_played < BIG
    assert [m.progress for m in log.of(TrainingProgressMsg) if m.purpose == "test"] == ["half"]
    finished = [m for m in log.of(TrainingFinished) if m.purpose == "test"]
    assert len(finished) == 1 and finished[0].result == "done" and finished[0].error is None
    if linux:
        assert idle_policy == os.SCHED_IDLE and normal_policy == os.SCHED_OTHER
    with Store.open(data_dir) as store:
        assert store.brain_info("default").games_trained == result.games_played


async def test_a_short_training_run_from_the_dialog(make_app, data_dir):
    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        await pilot.press("f2")
        dialog = app.screen
        assert isinstance(dialog, TrainDialog)
        games = dialog.query_one("#games", Input)
        assert games.value == "100000" and app.focused is games
        games.value = "lots"
        await pilot.press("enter")
        assert app.screen is dialog
        assert text_of(dialog, "#train-error") == ("Please enter a number of games between 1 and 10,000,000. "
                                                  "Nothing was started.")
        games.value = "20000"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        await wait_until(pilot, lambda: not app.training_running and app.session.training.last_result is not None,
                         what="the run to finish")
        result = app.session.training.last_result
        assert not result.cancelled and result.games_played == 20000
        await wait_until(pilot, lambda: text_of(app.screen, "#training-status") == (
            "Finished: 20,000 of 20,000 games. The AI keeps what it learned."), what="the finished status")
        assert any(m.startswith("Finished 20,000 games in") for m in log.notifications())
        assert not np.array_equal(app.session.brain.counts, Hats(100).counts)
        await pilot.press("escape")
        # escape in the dialog trains nothing
        await pilot.press("f2")
        assert isinstance(app.screen, TrainDialog)
        await pilot.press("escape")
        assert not app.training_running and app.session.training.last_result is result
    with Store.open(data_dir) as store:
        assert store.brain_info("default").games_trained == 20000
        assert store.load_brain("default") == app.session.brain
        assert len(store.last_training_curve("default")) >= 2


async def test_quitting_during_training_asks_and_keeps_what_it_learned(make_app, data_dir, held_training):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        with Store.open(data_dir) as store:
            before = store.brain_info("default").games_trained
        app.start_training(TrainingConfig(sticks=100, games=BIG, seed=3))
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done > 0, timeout=30,
                         what="training to start playing")
        await pilot.press("ctrl+q")
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        assert "The AI is training (it keeps what it learned so far). Quit anyway?" in text_of(dialog, ".dialog-title")
        await pilot.press("n")  # no: nothing stops
        assert not isinstance(app.screen, ConfirmDialog) and app.training_running and app.return_code is None
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmDialog)
        # yes by a second Ctrl+Q, as `sticks-tui serve` quits a tab's app (y: test_navigation's quit test);
        # not pilot.press: quitting waits for the held run, released just below
        app.simulate_key("ctrl+q")
        held_training.set()
        await wait_until(pilot, lambda: app.return_code is not None, what="the app to exit")
    with Store.open(data_dir) as store:
        info = store.brain_info("default")
        saved = store.load_brain("default")
    assert 0 < info.games_trained - before < BIG  # stopped early, and what it played was kept
    assert not np.array_equal(saved.counts, Hats(100).counts)


async def test_a_queued_report_gives_way_to_a_newer_one_but_a_told_game_is_never_dropped():
    """Textual asks the OLDER queued message whether the newer one may supersede it; a report with a
    game's story (or the final one) must reach the screen, plain reports may be skipped."""
    from types import SimpleNamespace

    from textual.app import App

    handled: list[tuple[str, str]] = []

    class Queue(App):
        def on_training_progress_msg(self, message: TrainingProgressMsg) -> None:
            handled.append((message.purpose, message.progress.name))

    def report(name, purpose="run", story=None, finished=False):
        return TrainingProgressMsg(purpose, SimpleNamespace(name=name, story=story, finished=finished))

    app = Queue()
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.pause()
        for message in (report("plain 1"), report("plain 2"), report("told 3", story="game 3"),
                        report("told 4", story="game 4"), report("plain 5"), report("other", purpose="other"),
                        report("plain 6"), report("plain 7"), report("final", finished=True),
                        report("next run", finished=True)):  # a run of the same purpose started at once
            app.post_message(message)  # all queued before the app handles any
        await pilot.pause()
    assert handled == [("run", "told 3"), ("run", "told 4"), ("run", "plain 5"), ("other", "other"),
                       ("run", "final"), ("run", "next run")]
