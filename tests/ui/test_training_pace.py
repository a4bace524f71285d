"""The training dialog's every option and the slow-motion training screen (issue 9 item 3, issue 10 item 4).

The dialog: every learning option reaches the `TrainingConfig`, a live sentence says what the run
will do, bad input gets a whole message and starts nothing, "reset the brain first" resets the
stored brain through the store and then trains. The screen: the pace chosen, changed as it runs,
pause, one game at a time, resume, each game's story in the log and on the hats; the end result
is the hats of an uninterrupted run with the same seed.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from textual.widgets import Checkbox, Input, Select

from sticks_tui.engine.events import HatChange
from sticks_tui.learn.control import BALL_BY_BALL, GameStory
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.learn.lesson_words import lesson_sentence
from sticks_tui.ui.screens.training import PLAYERS, TrainDialog, TrainingScreen, story_sentences, training_move_line
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.training_badge import TrainingBadge
from ui_helpers import footer_labels, text_of, wait_until


def record_configs(app) -> list[TrainingConfig]:
    """The configs the app is asked to train (the real start_training still runs)."""
    configs: list[TrainingConfig] = []
    real = app.start_training

    def start(config, kept=None):
        configs.append(config)
        return real(config, kept)

    app.start_training = start
    return configs


async def open_dialog(pilot) -> TrainDialog:
    await pilot.press("f2")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, TrainDialog), what="the training dialog")
    return pilot.app.screen


async def fill(pilot, dialog: TrainDialog, **fields) -> None:
    """Set the dialog's fields by id (underscores for dashes); strings into inputs and selects."""
    for name, value in fields.items():
        widget = dialog.query_one("#" + name.replace("_", "-"))
        if isinstance(widget, Checkbox):
            widget.value = bool(value)
        elif isinstance(widget, Select):
            widget.value = value
        else:
            assert isinstance(widget, Input)
            widget.value = str(value)
    await pilot.pause()


async def wait_finished(pilot, timeout: float = 30, after=None) -> None:
    """Until the run has finished (a run after `after`, the result of an earlier run in the same app)."""
    app = pilot.app
    await wait_until(pilot, lambda: not app.training_running and app.session.training.last_result not in (None, after),
                     timeout=timeout, what="the run to finish")


# -- the dialog --------------------------------------------------------------------------------------
BAD_INPUT = [
    ({"games": "lots"}, "Please enter a number of games between 1 and 10,000,000.", "games"),
    ({"games": "0"}, "Please enter a number of games between 1 and 10,000,000.", "games"),
    ({"heap": "101"}, "Please enter the heap as a whole number from 1 to 100.", "heap"),
    ({"heap": "ten"}, "Please enter the heap as a whole number from 1 to 100.", "heap"),
    ({"start_balls": "0", "reset_first": True}, "Please enter the start balls as a whole number from 1 to 1000.",
     "start-balls"),
    ({"reward": "1001"}, "Please enter the win reward as a whole number from 0 to 1000.", "reward"),
    ({"penalty": "-1"}, "Please enter the loss penalty as a whole number from 0 to 1000.", "penalty"),
    ({"penalty": "2"}, "The brain 'default' learns by its own rule (start 1, win +1, loss -1, floor: each "
                       "number). To train by another, tick \"Reset the brain first\".", "reset-first"),
    ({"floor": "nonempty"}, "The brain 'default' learns by its own rule (start 1, win +1, loss -1, floor: each "
                            "number). To train by another, tick \"Reset the brain first\".", "reset-first"),
]


async def test_bad_input_gets_a_whole_message_and_starts_nothing_then_every_option_reaches_the_training_config(
        make_app, data_dir):
    """Each bad input of BAD_INPUT in turn, in one dialog: refused with its whole message, the focus on the
    field to mend, nothing started or stored; mending it clears the message before the next one.

    Then, the dialog opened again: every option of the dialog reaches the run's config (the live sentence says
    them; "reset the brain first" reads without colour: blank until ticked, then ✓); then, back on the screen
    before, the badge on it says the run is paused, and its pace when it goes on."""
    app = make_app()
    configs = record_configs(app)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(pilot)
        with Store.open(data_dir) as store:
            before = store.load_brain("default")
        for fields, message, focus in BAD_INPUT:
            await fill(pilot, dialog, **fields)
            await pilot.click("#go")
            await pilot.pause()
            assert app.screen is dialog and not configs and not app.training_running, fields
            error = dialog.query_one("#train-error")
            assert text_of(dialog, "#train-error") == message + " Nothing was started."
            assert app.focused is dialog.query_one("#" + focus), fields
            # whole at 80 columns: every wrapped line of it is on screen, inside the dialog
            lines = textwrap.wrap(message + " Nothing was started.", error.content_region.width)
            assert error.content_region.height >= len(lines), fields
            assert error.region.bottom <= dialog.query_one("#train-dialog").region.bottom <= 24, fields
            with Store.open(data_dir) as store:
                assert store.load_brain("default") == before and store.brain_info("default").games_trained == 0
            # mending the input (to the dialog's own values) clears the message
            await fill(pilot, dialog, games="100000", heap="20", start_balls="1", reward="1", penalty="1",
                       floor="each", reset_first=False)
            assert text_of(dialog, "#train-error") == "", fields
        await pilot.press("escape")  # nothing started: the dialog, opened again, is as new
        await wait_until(pilot, lambda: not isinstance(app.screen, TrainDialog), what="the dialog to close")
        dialog = await open_dialog(pilot)
        # the live sentence starts with the brain's own rule and the defaults
        assert text_of(dialog, "#train-effect") == (
            "The brain 'default' keeps what it learned. A win adds 1 ball of each number drawn, a loss takes 1 "
            "away; a hat never has fewer than 1 ball of each number. 100,000 games from random heaps from 2 "
            "to 20, at full speed.")  # the Heap field starts at the setup's heap (20)
        # Textual's checkbox shows X ticked or not; ours is blank until ticked, then ✓
        box = dialog.query_one("#reset-first")
        assert box._button.plain.strip("▐▌") == " "
        await pilot.click("#reset-first")
        await pilot.pause()
        assert box.value and box._button.plain.strip("▐▌") == "✓"
        await fill(pilot, dialog, games="1,234", pace="5", protocol="classic", heap=30, floor="nonempty",
                   start_balls=3, reward=2, penalty=4, reset_first=True)
        assert text_of(dialog, "#train-effect") == (
            "First the brain 'default' forgets everything it learned (its games trained go back to 0). Each "
            "hat starts with 3 balls of each number. A win adds 2 balls of each number drawn, a loss takes 4 "
            "away; a hat may run out of a number, but never out of every number. With 3 balls of each number to "
            "start, a loss visibly takes balls away (3→0) from the first game on. 1,234 games from a heap of "
            "30, at 5 games a second. That takes about 4 minutes (the pace can be changed at any time).")
        await pilot.click("#go")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        (config,) = configs
        assert (config.games, config.pace, config.protocol, config.sticks) == (1234, 5, "classic", 30)
        assert config.seed is not None  # the seeded session gives every run a seed of its own
        # the brain was reset to learn by the new rule (the run learns by the brain's own rule)
        assert app.session.brain.rule == HatRule(start_balls=3, win_reward=2, loss_penalty=4, floor="nonempty")
        assert app.training_control.pace == 5
        # the badge on other screens says the pace, and paused
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done >= 1,
                         what="the first game")
        await pilot.press("space")  # pause, then back to the screen before
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, TrainingScreen), what="the screen before")
        badge = app.screen.query_one(TrainingBadge)
        await wait_until(pilot, lambda: "Training paused:" in str(badge.render()), what="the badge to say paused")
        app.training_control.resume()
        app.training = app.training
        await wait_until(pilot, lambda: "Training at 5 games a second:" in str(badge.render()),
                         what="the badge to say the pace")
        app.action_cancel_training()
        await wait_finished(pilot)


def stored_trained_brain(data_dir: str, games: int = 3000) -> Hats:
    """Give the data dir a brain 'default' that learned something (a seeded run), and return it."""
    brain = train(TrainingConfig(sticks=100, games=games, seed=99), brain=Hats(100)).brain
    with Store.open(data_dir) as store:
        store.save_brain("default", brain, games_trained=games)
    return brain


async def test_reset_first_is_refused_while_a_game_goes_on_and_when_the_store_fails_then_runs_add_or_reset(
        make_app, data_dir, monkeypatch):
    """One app on a brain that learned something: "reset the brain first" is refused while a game goes on, and when
    the store fails (nothing started, the brain as it was). Then a run without "reset first" adds onto what it
    learned; then a run with it, by the brain's own rule and then by a new rule, resets the stored brain and trains:
    the stored brain is exactly a fresh brain of that rule trained by that run, nothing of the old one."""
    from sticks_tui.store import StoreError
    from ui_helpers import start_game

    old = stored_trained_brain(data_dir)
    app = make_app()
    configs = record_configs(app)
    async with app.run_test(size=(80, 24)) as pilot:
        game = await start_game(pilot, heap=20, opponent="learning")
        await pilot.press("3")  # a game in progress
        await wait_until(pilot, lambda: game.game_in_progress, what="the game to be under way")
        dialog = await open_dialog(pilot)
        await fill(pilot, dialog, reset_first=True)
        await pilot.click("#go")
        assert text_of(dialog, "#train-error") == (
            "A game with the AI is in progress: finish it before resetting the brain, or train without "
            "resetting. Nothing was started.")
        await pilot.press("escape")
        await pilot.press("escape")  # leave the game (it asks)
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        await wait_until(pilot, lambda: not app.work_in_progress(training=False), what="the game to be left")

        def refuse(name):
            raise StoreError("The data directory is read-only.")

        reset_brain = app.session.store.reset_brain
        monkeypatch.setattr(app.session.store, "reset_brain", refuse)
        dialog = await open_dialog(pilot)
        await fill(pilot, dialog, reset_first=True)
        await pilot.click("#go")
        assert text_of(dialog, "#train-error") == (
            "The brain was not reset: The data directory is read-only. Nothing was started.")
        assert app.screen is dialog and not configs and not app.training_running
        with Store.open(data_dir) as store:
            assert store.brain_info("default").games_trained == 3000
        monkeypatch.setattr(app.session.store, "reset_brain", reset_brain)  # the store takes it again
        await pilot.press("escape")
        # without reset: onto what it learned
        dialog = await open_dialog(pilot)
        await fill(pilot, dialog, games=700, heap=40)
        await pilot.click("#go")
        await wait_finished(pilot)
        config = configs[-1]
        expected = train(config, brain=old.copy()).brain
        with Store.open(data_dir) as store:
            assert store.load_brain("default") == expected
            assert store.brain_info("default").games_trained == 3000 + 700
        await pilot.press("escape")
        # reset first, by the same rule and by a new one
        for rule in (HatRule(), HatRule(start_balls=3, win_reward=2, loss_penalty=1, floor="nonempty")):
            ran = app.session.training.last_result
            await pilot.pause()
            assert app.session.brain != Hats(100)  # it learned something
            dialog = await open_dialog(pilot)
            await fill(pilot, dialog, games=800, heap=20, reset_first=True, start_balls=rule.start_balls,
                       reward=rule.win_reward, penalty=rule.loss_penalty, floor=rule.floor)
            assert text_of(dialog, "#train-effect").startswith("First the brain 'default' forgets everything")
            await pilot.click("#go")
            await wait_finished(pilot, after=ran)
            config = configs[-1]
            # the stored brain is exactly a fresh brain of that rule trained by that run: nothing of the old one
            expected = train(config, brain=Hats(100, 3, rule)).brain
            with Store.open(data_dir) as store:
                assert store.load_brain("default") == expected, rule
                info = store.brain_info("default")
                assert info.rule == rule and info.games_trained == 800, rule
            await pilot.press("escape")
    assert len(configs) == 3


# -- the story in words ------------------------------------------------------------------------------
def test_a_games_story_in_the_seeds_words():
    story = GameStory(
        number=12, start=10, first=1,
        draws=((1, 10, 3), (0, 7, 2), (1, 5, 1), (0, 4, 3), (1, 1, 1)),
        winner=0,
        changes=((HatChange(7, 2, 1, 2), HatChange(4, 3, 1, 2)),
                 (HatChange(10, 3, 2, 1), HatChange(5, 1, 1, 1), HatChange(1, 1, 1, 1))))
    assert story_sentences(story, HatRule()) == [
        "Game 12: AI 2 draws ball 3 from hat 10, AI 1 draws ball 2 from hat 7, AI 2 ball 1 from hat 5, "
        "AI 1 ball 3 from hat 4, AI 2 ball 1 from hat 1. AI 2 has to take the last stick and loses.",
        "AI 1's hats get one more ball of each number it drew.",
        "AI 2 lost: each ball it drew is thrown away, except hats 5 and 1: they were the last of their number, "
        "and a hat always keeps at least one ball of each number, so they stay (=).",
    ]
    assert story_sentences(story, HatRule(win_reward=3, loss_penalty=2))[1:] == [
        "AI 1's hats get 3 more balls of each number it drew.",
        "AI 2 lost: up to 2 balls of each number it drew are thrown away, except hats 5 and 1: they were the last "
        "of their number, and a hat always keeps at least one ball of each number, so they stay (=)."]
    assert story_sentences(story, HatRule(win_reward=0, loss_penalty=0))[1:] == [
        "AI 1's hats stay as they were (a win adds no ball).",
        "AI 2 lost, but a loss takes no ball away: its hats stay as they were."]


# -- the slow run ------------------------------------------------------------------------------------
def changed_by(before: np.ndarray, story: GameStory) -> np.ndarray:
    after = before.copy()
    for change in story.changes[0]:
        assert after[change.hat, change.ball - 1] == change.before
        after[change.hat, change.ball - 1] = change.after
    return after


@pytest.mark.slow
async def test_pace_pause_step_resume_and_the_same_hats_at_the_end(make_app, data_dir):
    app = make_app()
    configs = record_configs(app)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_dialog(pilot)
        await fill(pilot, dialog, games=3000, heap=20, pace="20")
        await pilot.click("#go")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        screen = app.screen
        control = app.training_control
        assert control.pace == 20 and not control.paused
        log = screen.query_one(MoveLog)
        await wait_until(pilot, lambda: len(log.lines) >= 3, what="the first game's story in the log")
        assert screen.has_class("-told") and log.display
        assert text_of(screen, "#training-pace") == "Pace: 20 games a second"

        # Enter never cancels; the focus is on the hats, not on a button
        assert app.focused is screen.query_one(HatHeatmap)
        await pilot.press("enter")
        assert app.screen is screen and app.training_running and not control.cancelled
        # c asks first, and Enter there says no
        await pilot.press("c")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("enter")
        assert app.screen is screen and app.training_running and not control.cancelled

        # the pace, by keys and by the mouse
        await pilot.press("minus")
        assert control.pace == 5 and text_of(screen, "#training-pace") == "Pace: 5 games a second"
        await pilot.press("minus")
        assert control.pace == 2
        await pilot.press("minus")
        assert control.pace == 1
        await pilot.press("minus")
        assert control.pace == BALL_BY_BALL and text_of(screen, "#training-pace").startswith(
            "Pace: ball by ball. Next step: ")
        await pilot.press("minus")
        assert control.pace == BALL_BY_BALL  # the slowest stays
        await pilot.click("#faster")
        assert control.pace == 1
        await pilot.click("#faster")
        assert control.pace == 2

        # pause: the trainer waits with every game reported, and the keys say what they do now
        await pilot.press("space")
        assert control.paused and str(screen.query_one("#pause").label) == "Resume"
        assert footer_labels(screen)["training.toggle_pause"] == "Resume"
        await wait_until(pilot, lambda: control.waiting, what="the trainer to wait")
        await pilot.pause()
        assert text_of(screen, "#training-status").startswith("Paused: ")
        assert text_of(screen, "#training-pace").startswith("Pace: 2 games a second (paused). Next step: ")
        rule = app.session.brain.rule
        while screen._queue or (screen._current is not None and not screen._current.done):
            await pilot.press("s")  # a game in flight when the pause came: told to its end, ball by ball
        heatmaps = screen.heatmaps
        for how in ("key", "mouse"):
            done, hats = app.training.games_done, app.training.hats.copy()
            assert footer_labels(screen)["training.step"] == "Step: game"
            await (pilot.press("s") if how == "key" else pilot.click("#step"))
            await wait_until(pilot, lambda d=done: screen._current is not None and screen._current.story.number == d + 1,
                             what="the stepped game to come")
            await pilot.pause()
            story = app.training.story
            assert story.number == done + 1 and control.paused and control.steps_pending == 0
            # exactly that game's reinforcement, and nothing else
            assert np.array_equal(app.training.hats, changed_by(hats, story))
            # its first ball: the game's first line, the move, ► in the drawer's hats (before the lesson)
            player, hat, ball = story.draws[0]
            assert list(log.lines)[-2:] == [
                f"Game {story.number:,}: {story.start} sticks on the board. {PLAYERS[story.first]} moves first.",
                training_move_line(PLAYERS[player], hat, ball)]
            assert heatmaps[player].data.drawn == (hat, ball) and heatmaps[1 - player].data.drawn is None
            assert np.array_equal(heatmaps[0].data.counts, hats)
            # then one ball a step, each a line of its own, ► only on the ball drawn now
            for k, (player, hat, ball) in enumerate(story.draws[1:], start=1):
                assert footer_labels(screen)["training.step"] == "Step: draw"
                lines = len(log.lines)
                await pilot.press("s")
                # one line more (the log keeps its last maxlen lines: a loaded machine plays more games first)
                assert len(log.lines) == min(lines + 1, log.lines.maxlen)
                assert log.lines[-1].startswith(f"{PLAYERS[player]} draws ball {ball}")
                assert heatmaps[player].data.drawn == (hat, ball) and heatmaps[1 - player].data.drawn is None
                earlier = {(h, b) for p, h, b in story.draws[:k] if p == player}
                assert heatmaps[player].data.beside == earlier
            # then the lessons: both AIs', in words and on their hats (↑ ↓ =, every ball drawn)
            assert footer_labels(screen)["training.step"] == "Step: lessons"
            await pilot.press("s")
            assert list(log.lines)[-2:] == [
                lesson_sentence(PLAYERS[p], p == story.winner, story.changes[p], rule) for p in (story.winner, story.loser)]
            for p in (0, 1):
                assert heatmaps[p].data.flash == tuple((c.hat, c.ball, c.after - c.before) for c in story.changes[p])
                assert heatmaps[p].data.drawn is None and not heatmaps[p].data.beside
            assert np.array_equal(heatmaps[0].data.counts, app.training.hats)
            assert np.array_equal(heatmaps[1].data.counts, app.training.opponent_hats)
            assert app.training.games_done == done + 1  # no game more was played meanwhile
        # paused, nothing more is played: the trainer waits, the hats stay
        paused_at = app.training.games_done
        await pilot.pause()
        assert control.waiting and app.training.games_done == paused_at

        # resume by the mouse, at its pace
        await pilot.click("#pause")
        assert not control.paused and str(screen.query_one("#pause").label) == "Pause"
        await wait_until(pilot, lambda: app.training.games_done > paused_at, what="the run to go on")
        # full speed: the rest in batches
        await pilot.press("plus", "plus")
        assert control.pace == 20 and text_of(screen, "#training-pace") == "Pace: 20 games a second"
        await pilot.press("plus")
        assert control.pace is None  # (the run may already be over: 3,000 games at full speed are quick)
        await wait_finished(pilot)
        result = app.session.training.last_result
        assert not result.cancelled and result.games_played == 3000
        (config,) = configs
    # the same hats as one uninterrupted run of the same seed
    plain = train(TrainingConfig(sticks=config.sticks, games=config.games, seed=config.seed), brain=Hats(100))
    assert np.array_equal(result.brain.counts, plain.brain.counts)
    with Store.open(data_dir) as store:
        assert store.load_brain("default") == plain.brain


async def test_p_marks_the_perfect_move_of_every_winning_hat_and_full_speed_can_be_paused_and_stepped_too(make_app):
    """One app, two runs on the training screen: after a short run, p marks the perfect move of every winning hat
    (and p again hides them); then a run at full speed is paused (the batches stop) and stepped, one game told from
    its first ball."""
    from sticks_tui.solve.sticks import solve_sticks
    from sticks_tui.ui.widgets.heatmap import MARK_PERFECT

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_training(TrainingConfig(sticks=100, games=50, seed=4))
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        await wait_finished(pilot)
        await pilot.pause()
        heatmap = app.screen.query_one(HatHeatmap)
        assert heatmap.data.hats == 100 and not heatmap.show_perfect
        assert not any(MARK_PERFECT in heatmap.cell_text(n, b) for n in range(1, 101) for b in range(1, min(n, 3) + 1))
        await pilot.press("p")
        solution = solve_sticks(100)
        marked = {(n, b) for n in range(1, 101) for b in range(1, min(n, 3) + 1)
                  if heatmap.cell_text(n, b).startswith(MARK_PERFECT)}
        assert marked == {(n, b) for n in range(1, 101) for b in solution.winning_moves(n)}
        assert (10, 1) in marked and (100, 3) in marked and not any(n == 9 for n, _ in marked)  # 9 = 4k+1: none
        await pilot.press("p")
        assert not any(heatmap.cell_text(n, b).startswith(MARK_PERFECT) for n, b in marked)
        await pilot.press("escape")
        assert not isinstance(app.screen, TrainingScreen)
        # full speed can be paused and stepped too
        ran = app.session.training.last_result
        app.start_training(TrainingConfig(sticks=100, games=10_000_000, seed=4))
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        control = app.training_control
        await wait_until(pilot, lambda: app.training is not None and app.training.games_done > 0,
                         what="games played")
        await pilot.press("space")
        await wait_until(pilot, lambda: control.waiting, what="the batches to stop")
        await pilot.pause()
        done = app.training.games_done
        await pilot.press("s")
        await wait_until(pilot, lambda: app.training.games_done == done + 1 and control.waiting, what="a step")
        await pilot.pause()
        assert app.training.story is not None and app.training.story.number == done + 1
        # that game told from its first ball: its first line and its first draw (then ball by ball)
        lines = list(app.screen.query_one(MoveLog).lines)
        assert len(lines) == 2 and lines[0].startswith(f"Game {done + 1:,}: ")
        app.action_cancel_training()
        await wait_finished(pilot, after=ran)
        assert app.session.training.last_result.games_played == done + 1
