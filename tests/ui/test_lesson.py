"""A lesson you can follow: step ball by ball (watch mode and training), both learners' hats, marks
that stay, losses that show (the MENACE-like preset), a tally, and a train dialog that stays still."""

from __future__ import annotations

from sticks_tui.learn.lesson_words import MARK_KEPT
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.widgets.heatmap import MARK_BESIDE, MARK_DRAWN, HatHeatmap
from ui_helpers import footer_labels, log_lines, start_game, text_of


async def test_watch_mode_steps_one_ball_at_a_time_then_the_lesson_then_the_next_game(make_app):
    """F1's help lists each key of the watch screen once (AI slower too) and none of Textual's; then the steps: one
    ball at a time, the lesson, the next game."""
    from sticks_tui.ui.screens.help import HelpScreen

    app = make_app(ai_delay=60)  # nothing moves by itself: only the steps
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning", watch=True)
        assert isinstance(screen, GameScreen)
        # the help: each key of the screen once, slower too, and none of Textual's
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        keys = dict(app.screen.keys)
        assert len(keys) == len(app.screen.keys)  # each key once
        assert keys["-"] == "AI slower: a longer pause before each of its moves"
        assert keys["+, ="] == "AI faster: a shorter pause before each of its moves"
        assert keys["s"].startswith("Step (AI vs AI): one move") and keys["Space"] == "Pause the AI, or let it go on"
        assert not {"Tab", "Shift+Tab", "^c", "-/+"} & set(keys)
        descriptions = list(keys.values())
        assert len(descriptions) == len(set(descriptions))  # no action told twice
        await pilot.press("escape")
        assert app.screen is screen and not screen.game.state.history
        heatmap = screen.query_one(HatHeatmap)
        assert footer_labels(screen)["game.step"] == "Step: draw"
        await pilot.press("s")  # the first step pauses, and plays one move
        game = screen.game
        assert screen.paused and len(game.state.history) == 1
        assert footer_labels(screen)["game.pause"] == "Paused"
        first = game.state.history[0]
        mover = screen.players[first.player].name
        assert log_lines(screen)[-1].startswith(f"{mover} draws ball {first.move} from hat 10. {mover} takes")
        assert text_of(screen, "#turn").endswith("s steps one move, space goes on.")
        moves = 1
        learner_seat = 0  # the learning AI (the saved brain) plays Player 1's seat in watch mode
        while not game.is_over:
            lines = len(log_lines(screen))
            await pilot.press("s")
            moves += 1
            assert len(game.state.history) == moves and len(log_lines(screen)) >= lines + 1
            last = game.state.history[-1]
            mine = [(m.before, m.move) for m in game.state.history if m.player == learner_seat]
            if not game.is_over:
                # ► only on the ball drawn at this move, the learner's earlier balls beside their hats (•)
                drawn = [(h, b) for h in range(1, 11) for b in range(1, 4) if heatmap.cell_text(h, b)[0] == MARK_DRAWN]
                assert drawn == ([(last.before, last.move)] if last.player == learner_seat else [])
                for hat, ball in mine:
                    if (hat, ball) != (last.before, last.move):
                        assert heatmap.cell_text(hat, ball)[0] == MARK_BESIDE
        # the game is over: the lesson is a step of its own, still to come
        assert footer_labels(screen)["game.step"] == "Step: lesson"
        assert not heatmap.data.flash and screen.lessons
        assert text_of(screen, "#turn").endswith("Paused: s shows the lesson, space goes on.")
        before = len(log_lines(screen))
        await pilot.press("s")
        lessons = log_lines(screen)[before:]
        won = game.state.loser != learner_seat
        assert len(lessons) == 2
        assert lessons[0].startswith("Learning AI won: " if won else "Learning AI lost")
        assert lessons[1].startswith("Learning AI 2 lost" if won else "Learning AI 2 won: ")
        mine = {(m.before, m.move) for m in game.state.history if m.player == learner_seat}
        assert {(h, b) for h, b, _ in heatmap.data.flash} == mine
        assert footer_labels(screen)["game.step"] == "Step: new game"
        # the marks stay until the next game starts; its first step starts it and plays its first move
        await pilot.press("s")
        assert screen.round == 2 and len(screen.game.state.history) == 1 and not heatmap.data.flash
        # space lets it go on by itself
        await pilot.press("space")
        assert not screen.paused and footer_labels(screen)["game.pause"] == "Pause"


def told_games(games: int = 3):
    """A seeded run's own reports, one game at a time (its stories, both AIs' hats)."""
    from sticks_tui.learn.hats import Hats
    from sticks_tui.learn.trainer import TrainingConfig, train

    snapshots = []
    train(TrainingConfig(sticks=12, games=games, seed=21, pace=1000, curve=False), brain=Hats(100),
          progress=snapshots.append)
    return [p for p in snapshots if p.story is not None]


async def show_run(pilot, told, *, pace=5, paused=False):
    """The training screen for a run that sends `told` (no thread: the reports are given by hand)."""
    from sticks_tui.engine.events import TrainingProgress
    from sticks_tui.learn.control import TrainingControl
    from sticks_tui.learn.trainer import TrainingConfig
    from sticks_tui.ui.screens.training import TrainingScreen
    from sticks_tui.ui.training import TrainingJob
    from ui_helpers import wait_until

    app = pilot.app
    job = TrainingJob("background", app)
    job.control = TrainingControl(pace)
    if paused:
        job.control.pause()
    app._training_job = job
    app.session.training.running = True
    app.session.training.config = TrainingConfig(sticks=12, games=1000)
    app.action_show_training()
    await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
    for p in told:
        app.training = TrainingProgress(p.games_done, 1000, p.games_done / 5, p.wins_first, p.hats, story=p.story,
                                        opponent_hats=p.opponent_hats)
        await pilot.pause()
    return app.screen


async def test_both_learners_hats_side_by_side_when_wide_and_one_at_a_time_at_80x24_and_the_curve_by_v(make_app):
    """A told run's training screen at 160x48, then with the terminal made 80x24: each AI's hats with its own
    marks (its own lesson, on its own balls); wide, both at once side by side and no toggle; at 80x24 one at a
    time (o the other, the whole footer shown). And at 80x24 the curve shows during the told run by a toggle (v,
    in the log's place) and after it by itself."""
    from textual.widgets._footer import FooterKey

    from sticks_tui.ui.widgets.move_log import MoveLog
    from ui_helpers import wait_until

    told = told_games()
    last = told[-1].story
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await show_run(pilot, told)
        for size in ((160, 48), (80, 24)):
            if size != app.size:
                await pilot.resize_terminal(*size)
                await wait_until(pilot, lambda: screen.has_class("-narrow"), what="the 80-column layout")
                await pilot.pause()
            ai1, ai2 = screen.heatmaps
            # each AI's hats with its own marks: its own lesson, on its own balls
            for player, heatmap in ((0, ai1), (1, ai2)):
                flash = tuple((c.hat, c.ball, c.after - c.before) for c in last.changes[player])
                await wait_until(pilot, lambda h=heatmap, f=flash: h.data.flash == f, what=f"AI {player + 1}'s lesson")
            assert (ai1.data.counts == told[-1].hats[: ai1.data.counts.shape[0]]).all()
            assert (ai2.data.counts == told[-1].opponent_hats).all() and ai1.data.hats == ai2.data.hats == 12
            titles = (text_of(screen, "#training-hats-title"), text_of(screen, "#training-hats-title-2"))
            assert titles == ("AI 1's hats: the brain trained", "AI 2's hats: its sparring partner")
            if size == (160, 48):  # wide: both at once, side by side, no toggle
                assert ai1.region.width > 0 and ai2.region.width > 0 and ai2.region.x > ai1.region.right
                assert "training.other_hats" not in footer_labels(screen)
                continue
            # 80x24: one at a time; o shows the other AI's, and the footer says which o shows next
            assert ai1.region.width > 0 and not screen.query_one("#hats-ai2").display
            assert footer_labels(screen)["training.other_hats"] == "AI 2"
            await pilot.press("space")  # paused: the longest labels (Resume, Step: ...)
            assert footer_labels(screen)["training.toggle_pause"] == "Resume"
            assert max(key.region.right for key in screen.query(FooterKey)) <= 80  # the whole footer shows (F1 Help)
            await pilot.press("space")
            await pilot.press("o")
            assert screen.query_one("#hats-ai2").display and not screen.query_one("#hats-ai1").display
            assert ai2.region.width > 0 and app.focused is ai2
            assert footer_labels(screen)["training.other_hats"] == "AI 1"
            await pilot.press("o")
            assert screen.query_one("#hats-ai1").display and not screen.query_one("#hats-ai2").display
        # at 80x24 the curve: during the told run by a toggle, in the log's place
        curve, log = screen.query_one("#curve"), screen.query_one(MoveLog)
        assert screen.has_class("-told") and log.region.height > 0 and curve.region.height == 0
        assert footer_labels(screen)["training.curve_or_log"] == "Curve"
        await pilot.press("v")
        assert curve.region.height >= 6 and log.region.height == 0
        assert footer_labels(screen)["training.curve_or_log"] == "Log"
        await pilot.press("v")
        assert log.region.height > 0 and curve.region.height == 0
        # the run ends: the curve comes back by itself
        app.session.training.running = False
        app.training = app.training
        await pilot.pause()
        assert curve.region.height >= 6 and log.region.height == 0


# (a replayed loss marks the balls kept and says nothing was thrown away: tests/ui/test_replay_export.py)


async def test_rates_and_time_left_are_right_at_the_edges_and_stand_still_while_paused_and_a_step_asks_for_a_game(
        make_app):
    """The training screen's rates and time left, at the edges and paused. Then, in the same app, a step asks for
    the game a pause held back ball by ball: ball by ball the screen lets a game through, then the person pauses
    before it is played: Step must ask for that game (it asked nothing, and the run sat still until resumed)."""
    from sticks_tui.learn.control import BALL_BY_BALL
    from sticks_tui.engine.events import TrainingProgress
    from sticks_tui.learn.control import TrainingControl
    from sticks_tui.ui.messages import TrainingProgressMsg
    from sticks_tui.ui.screens.training import TrainingScreen
    from sticks_tui.ui.training import TrainingJob
    from ui_helpers import wait_until

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        job = TrainingJob("background", app)
        app._training_job = job
        app.session.training.running = True
        app.action_show_training()
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        screen = app.screen

        async def report(seconds, done, total):
            app.post_message(TrainingProgressMsg("background", TrainingProgress(done, total, seconds, 0, app.session.brain.counts)))
            await wait_until(pilot, lambda: app.training is not None and app.training.seconds == seconds, what="the report")
            await pilot.pause()
            return text_of(screen, "#training-figures")

        # a run at 1 game a second: game 1 comes at once, and is no rate of 1,000 games a second
        job.control = TrainingControl(1)
        await report(0.0, 0, 1000)
        assert await report(0.001, 1, 1000) == "1 game a second, under 0.1 s gone, 16:39 left"  # (0.001 s: not "0 s")
        # full speed: the rate over the last seconds of play
        job.control = TrainingControl(None)
        await report(1.0, 1000, 10_000)
        await report(2.0, 2000, 10_000)
        assert await report(3.0, 3000, 10_000) == "1,000 games a second, 3 s gone, 7 s left"
        # paused: the time goes on, the time left stands still
        job.control.pause()
        assert await report(10.0, 3000, 10_000) == "1,000 games a second, 10 s gone, 7 s left (paused)"
        assert await report(30.0, 3000, 10_000) == "1,000 games a second, 30 s gone, 7 s left (paused)"
        job.control.resume()
        assert await report(30.5, 3500, 10_000) == "1,000 games a second, 30 s gone, 6 s left"
        assert await report(31.5, 5500, 10_000) == "2,000 games a second, 32 s gone, 2 s left"
        # the end, in the singular when it is one game
        app.session.training.running = False
        assert await report(32.0, 1, 1) == "1 game in 32 s"
        assert text_of(screen, "#training-status") == "Finished: 1 of 1 game. The AI keeps what it learned."

        await pilot.press("escape")  # the run is over: back to the setup screen
        await wait_until(pilot, lambda: not isinstance(app.screen, TrainingScreen), what="the screen before")
        # ball by ball: a step asks for the game a pause held back
        screen = await show_run(pilot, [], pace=BALL_BY_BALL)
        await pilot.pause()
        control = app.training_control
        screen._ball_tick()  # nothing to tell: the next game is let through ...
        assert control.released_pending == 1 and screen._asked
        await pilot.press("space")  # ... and the pause holds it back
        assert control.paused and control.released_pending == 1
        await pilot.press("s")
        assert control.steps_pending == 1 and control.released_pending == 0  # that game, played on a step
        assert control.paused


async def test_the_train_dialog_says_how_long_fills_in_presets_stays_still_says_why_as_you_type_and_remembers(
        make_app, config_dir):
    """The train dialog, in one app: its sentence says how long a paced run takes; then its rule presets fill in
    the rule and say why losses show (another rule needs a fresh brain: said at once), and a rule typed picks the
    preset it is, or "your own". Opened again: it stays still, says why as you type, and remembers the run's values
    (the next app's dialog opens with them)."""
    from textual.widgets import Select

    from ui_helpers import wait_until

    from sticks_tui.store.settings import load_settings
    from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the dialog")
        dialog = app.screen
        fields = lambda: tuple(dialog.query_one(f"#{i}").value for i in ("start-balls", "reward", "penalty", "floor"))  # noqa: E731
        assert dialog.query_one("#preset", Select).value == "seeds" and fields() == ("1", "1", "1", "each")
        dialog.query_one("#games").value = "100000"
        dialog.query_one("#pace").value = "1"
        await pilot.pause()
        assert "100,000 games from random heaps from 2 to 20, at 1 game a second. That takes about 28 hours (" \
            in text_of(dialog, "#train-effect")
        dialog.query_one("#games").value = "1"
        dialog.query_one("#pace").value = "full"
        await pilot.pause()
        assert text_of(dialog, "#train-effect").endswith("1 game from random heaps from 2 to 20, at full speed.")
        dialog.query_one("#games").value = "3"
        dialog.query_one("#pace").value = "ball"
        await pilot.pause()
        assert text_of(dialog, "#train-effect").endswith(
            "3 games from random heaps from 2 to 20, ball by ball. Each draw and each game's lessons take a second "
            "(or a step of yours), so that takes more than 6 seconds: for watching a few games (the pace can be "
            "changed at any time).")
        # the rule presets
        assert dialog.query_one("#preset", Select).value == "seeds" and fields() == ("1", "1", "1", "each")
        dialog.query_one("#preset", Select).value = "menace"
        await wait_until(pilot, lambda: fields() == ("3", "3", "1", "each"), what="the preset's rule in the fields")
        # another rule needs a fresh brain: said at once, on the box to tick
        await wait_until(pilot, lambda: text_of(dialog, "#train-error") != "", what="the fresh-brain notice")
        assert text_of(dialog, "#train-error").startswith("The brain 'default' learns by its own rule")
        dialog.query_one("#reset-first").value = True
        await wait_until(pilot, lambda: text_of(dialog, "#train-error") == "", what="the notice to go")
        assert "With 3 balls of each number to start, a loss visibly takes balls away (3→2) from the first game on." \
            in text_of(dialog, "#train-effect")
        # typing a rule picks the preset it is, or "your own"
        dialog.query_one("#reward").value = "2"
        await wait_until(pilot, lambda: dialog.query_one("#preset", Select).value != "menace", what="the preset to follow")
        assert dialog.query_one("#preset", Select).value == "own"
        for wid, value in (("start-balls", "1"), ("reward", "1")):
            dialog.query_one(f"#{wid}").value = value
        await wait_until(pilot, lambda: dialog.query_one("#preset", Select).value != "own", what="the preset to follow")
        assert dialog.query_one("#preset", Select).value == "seeds"
        await pilot.press("escape")  # nothing started: the dialog, opened again, is as new
        await wait_until(pilot, lambda: not isinstance(app.screen, TrainDialog), what="the dialog to close")
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the dialog")
        dialog = app.screen
        ids = ("train-dialog", "games", "pace", "protocol", "heap", "floor", "start-balls", "reward", "penalty",
               "reset-first", "go", "cancel")
        where = {i: dialog.query_one(f"#{i}").region for i in ids}
        # a field refused as you type: the reason at once, on that field, and nothing moves
        await pilot.click("#heap")
        await pilot.press("end", "0")  # 100 -> 1000
        assert text_of(dialog, "#train-error") == "Please enter the heap as a whole number from 1 to 100."
        assert dialog.query_one("#heap").has_class("-refused")
        assert {i: dialog.query_one(f"#{i}").region for i in ids} == where
        # refused again as you type on, and on Train: the field keeps its mark, not taken off and put back (each
        # styled the field and its label again)
        restyled: list = []
        styles = app.update_styles

        def counting(node, animate: bool = True) -> None:
            restyled.append(node)
            styles(node, animate)

        app.update_styles = counting
        await pilot.press("0")  # 10000
        await pilot.pause()
        dialog._go()
        await pilot.pause()
        del app.update_styles
        heap = dialog.query_one("#heap")
        assert text_of(dialog, "#train-error") == ("Please enter the heap as a whole number from 1 to 100. "
                                                   "Nothing was started.")
        assert heap.has_class("-refused") and heap.parent.query_one("Label").has_class("-refused")
        assert not [n for n in restyled if n is heap or n is heap.parent.query_one("Label")], restyled
        await pilot.press("backspace")
        await pilot.press("backspace")
        assert text_of(dialog, "#train-error") == "" and not dialog.query(".-refused")
        assert {i: dialog.query_one(f"#{i}").region for i in ids} == where
        # the run's values are remembered when it starts
        dialog.query_one("#games").value = "500"
        dialog.query_one("#pace").value = "2"
        dialog.query_one("#protocol").value = "classic"
        dialog.query_one("#heap").value = "30"
        await pilot.pause()
        await pilot.click("#go")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        app.action_cancel_training()
        await wait_until(pilot, lambda: not app.training_running, what="the run to stop")
        await pilot.press("escape")
    saved, _ = load_settings(config_dir / "settings.toml")
    assert (saved.train_games, saved.train_pace, saved.train_protocol, saved.of("sticks").train_start) == \
        (500, "2", "classic", 30)
    app = make_app()  # the next time the app starts, the dialog opens with them
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the dialog")
        dialog = app.screen
        assert (dialog.query_one("#games").value, dialog.query_one("#pace").value,
                dialog.query_one("#protocol").value, dialog.query_one("#heap").value) == ("500", "2", "classic", "30")


async def test_the_menace_like_hats_show_a_loss_from_the_first_game_and_the_game_screen_keeps_a_tally(
        make_app, data_dir, config_dir):
    """The MENACE-like hats, chosen on the setup screen, show a loss from the first game and leave the seeds' brain
    alone. The game screen keeps a tally this session and in all, with the AI's results game by game: a new game
    screen goes on with the session's tally, and another session shows only the records' tally."""
    from textual.widgets import Select

    from sticks_tui.learn.hats import MENACE_RULE, SEEDS_RULE, Hats
    from sticks_tui.store import Store
    from sticks_tui.store.settings import load_settings
    from sticks_tui.ui.widgets.heatmap import MARK_DOWN
    from ui_helpers import perfect_take, play_human_turns, wait_until

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        assert app.session.brain_name == "default" and app.session.brain.rule == SEEDS_RULE
        assert "A new AI's losses change nothing (=) until it first wins" in text_of(setup, "#setup-intro")
        setup.query_one("#hats", Select).value = "menace"
        await wait_until(pilot, lambda: app.session.brain_name == "menace", what="the MENACE-like brain")
        await pilot.pause()
        assert app.session.brain.rule == MENACE_RULE
        assert (app.session.brain.counts[1:, :] == Hats(100, 3, MENACE_RULE).counts[1:, :]).all()
        assert "With 3 balls of each number to start, a loss visibly takes balls away (3→2) from the first game on." \
            in text_of(setup, "#setup-intro")
        screen = await start_game(pilot, heap=10, opponent="learning")
        assert text_of(screen, "#tally") == "This session: no game finished yet."
        await play_human_turns(pilot, screen, perfect_take)  # from 10, moving first, perfect play wins
        assert screen.game.state.loser == 1  # the AI lost its first game ...
        drawn = [(m.before, m.move) for m in screen.game.state.history if m.player == 1 and m.before > 1]  # 1: forced
        heatmap = screen.query_one(HatHeatmap)
        # ... and every ball it drew went down, 3 -> 2: the loss shows
        assert sorted(heatmap.data.flash) == sorted((h, b, -1) for h, b in drawn)
        assert all(heatmap.cell_text(h, b).startswith(MARK_DOWN) and heatmap.cell_text(h, b).endswith(" 2")
                   for h, b in drawn)
        changes = ", ".join(f"hat {h} ball {b}: 3→2" for h, b in drawn)
        assert log_lines(screen)[-3] == f"Learning AI lost: each ball it drew is thrown away ({changes})."
        # the tally, game by game
        assert text_of(screen, "#tally") == ("This session: Player 1 1, Learning AI 0 (in all: 1, 0).\n"
                                             "Learning AI vs Player 1: ○ (● won 0, ○ lost 1)")
        await pilot.press("n")
        await play_human_turns(pilot, screen, perfect_take)
        assert text_of(screen, "#tally").endswith("Learning AI vs Player 1: ○○ (● won 0, ○ lost 2)")
        await pilot.press("escape")  # a new game screen: the session's tally goes on
        screen = await start_game(pilot, heap=10, opponent="learning")
        assert text_of(screen, "#tally") == ("This session: Player 1 2, Learning AI 0 (in all: 2, 0).\n"
                                             "Learning AI vs Player 1: ○○ (● won 0, ○ lost 2)")
    saved, _ = load_settings(config_dir / "settings.toml")
    assert saved.of("sticks").brain == "menace"
    with Store.open(data_dir) as store:
        assert store.load_brain("default") == Hats(100)  # the seeds' brain is as it was
        assert store.brain_info("menace").rule == MENACE_RULE
    # (the next start plays with it again: tests/ui/test_restart.py)
    app = make_app()  # another session: only the records' tally
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning")
        await wait_until(pilot, lambda: "in all" in text_of(screen, "#tally"), what="the tally")
        assert text_of(screen, "#tally") == "This session: no game finished yet (in all: Player 1 2, Learning AI 0)."


def _look(app, step: str) -> None:
    """Where the lesson's screens can be looked at (a plugin replaces it to save each as an SVG)."""


async def test_the_readmes_lesson_plan_runs_start_to_end_at_80x24_in_one_session(make_app, config_dir):
    """README.md's "A 45-minute lesson", steps 1-6, with the keys it names, in one app at 80x24."""
    from rich.text import Text
    from textual.command import CommandPalette
    from textual.widgets import Select

    from sticks_tui.learn.hats import MENACE_RULE
    from sticks_tui.ui.screens.analysis import AnalysisScreen
    from sticks_tui.ui.screens.brain import BrainScreen
    from sticks_tui.ui.screens.lab import LabScreen
    from sticks_tui.ui.screens.setup import SetupScreen
    from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
    from sticks_tui.ui.boards import GameBoard
    from ui_helpers import log_text, perfect_take, play_human_turns, play_out, wait_until

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        async def palette(words: str, then):
            await pilot.press("ctrl+p")
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*words)
            await pilot.pause(0.3)
            await pilot.press("enter")
            await wait_until(pilot, then, what=f"the palette's '{words}'")

        # 1. F8: the MENACE-like hats; Ctrl+S: 20 sticks against the learning AI; 1 2 3; p; n
        await pilot.press("f8")
        await wait_until(pilot, lambda: app.session.brain_name == "menace", what="the MENACE-like hats")
        assert app.session.brain.rule == MENACE_RULE
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen), what="the game")
        screen = app.screen
        assert screen.game.state.position == 20
        heatmap = screen.query_one(HatHeatmap)
        await play_human_turns(pilot, screen, perfect_take)  # from 20, moving first, perfect play wins
        drawn = [(m.before, m.move) for m in screen.game.state.history if m.player == 1 and m.before > 1]
        assert drawn and all(heatmap.cell_text(h, b).startswith("↓") for h, b in drawn)  # its loss shows
        await pilot.press("p")
        assert heatmap.show_perfect
        _look(app, "1-game")
        await pilot.press("n")
        await wait_until(pilot, lambda: screen.round == 2, what="the next game")

        # 2. F2; Tab, Enter, Home, Enter: ball by ball; Shift+Tab, Enter starts; space, s, o
        await pilot.press("f2")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
        dialog = app.screen
        await pilot.press("tab", "enter", "home", "enter")
        assert dialog.query_one("#pace", Select).value == "ball"
        await pilot.press("shift+tab", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
        training = app.screen
        await pilot.press("space")
        assert app.training_control.paused
        told = lambda: len(training.query_one("#training-log").lines)  # noqa: E731
        before = told()
        await pilot.press("s")
        await wait_until(pilot, lambda: told() > before, what="one step told")
        assert app.training.games_done <= 1 and app.training_control.paused
        await pilot.press("o")
        assert training.query_one("#hats-ai2").display and not training.query_one("#hats-ai1").display
        _look(app, "2-ball-by-ball")

        # 3. + five times (and space: it is paused): full speed, to the end of the 100,000 games
        await pilot.press(*"+++++")
        await pilot.press("space")
        assert not app.training_control.paused
        await wait_until(pilot, lambda: not app.training_running, timeout=60, what="the run to end")
        await pilot.pause()
        assert app.training.games_done == 100_000
        assert text_of(training, "#training-status").startswith("Finished: 100,000 of 100,000 games.")
        _look(app, "3-trained")
        await pilot.press("escape")
        assert app.screen is screen

        # 4. F4: the rule it found, from its hats; Esc, the game in play finished, then n
        await pilot.press("f4")
        await wait_until(pilot, lambda: isinstance(app.screen, AnalysisScreen), what="the analysis")
        await wait_until(pilot, lambda: "You lose if you face 1, 5, 9, ... sticks" in str(
            app.screen.query_one("#analysis-summary").render()), what="the rule found")
        _look(app, "4-analysis")
        await pilot.press("escape")
        assert app.screen is screen
        await play_human_turns(pilot, screen, perfect_take)
        await pilot.press("n")
        await wait_until(pilot, lambda: screen.round == 3, what="the next game")

        # 5. Ctrl+P noughts, Enter, Ctrl+S: the person plays X; MENACE O learns; b; f then n: MENACE is X
        await palette("noughts", lambda: isinstance(app.screen, SetupScreen))
        assert app.screen.query_one("#game", Select).value == "noughts"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen is not screen,
                         what="the noughts game")
        noughts = app.screen
        assert noughts.query_one("#board", GameBoard).__module__.endswith("boards.noughts")
        assert noughts.game.waiting_for_human  # the person is X and moves first
        await play_out(pilot, noughts, lambda state: state.legal_moves[0])
        assert "→" in log_text(noughts)
        _look(app, "5-noughts")
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, BrainScreen), what="MENACE's boxes")
        _look(app, "5-boxes")
        await pilot.press("escape")
        await pilot.press("f", "n")
        await wait_until(pilot, lambda: noughts.round == 2 and noughts.game.state.history, what="MENACE's move")
        assert noughts.game.state.history[0].player == 1  # MENACE moved first, as X
        await wait_until(pilot, lambda: noughts.game.waiting_for_human, what="the person's turn")
        await pilot.pause()
        turn = noughts.query_one("#turn")  # the whole sentence, "... or the arrows and Enter." (it was cut)
        said = str(turn.render())
        assert said.endswith("and Enter.") and turn.region.height == len(Text(said).wrap(app.console, turn.region.width))

        # 6. Esc, y: the setup; Ctrl+P sticks, Enter; F7: the lab on 20 sticks
        await pilot.press("escape", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup")
        await palette("sticks", lambda: app.screen.query_one("#game", Select).value == "sticks")
        await pilot.press("f7")
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen), what="the lab")
        lab = app.screen
        assert (lab.query_one("#lab-game", Select).value, lab.query_one("#lab-size").value) == ("sticks", "20")
