"""Whole games on the game screen against every opponent, with keys and with the mouse."""

from __future__ import annotations

import pytest

from sticks_tui.store import Store
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.pretrain import PretrainScreen
from ui_helpers import (
    log_text,
    play_human_turns,
    start_game,
    text_of,
    wait_until,
)


def records(data_dir):
    with Store.open(data_dir) as store:
        return store.recent_games(), {p.name: p for p in store.leaderboard()}


def _screen_setup(app):
    from sticks_tui.ui.screens.setup import SetupScreen

    return isinstance(app.screen, SetupScreen)


@pytest.mark.slow
async def test_whole_games_against_every_opponent_by_keys_and_mouse_and_the_speed_saved(make_app, data_dir,
                                                                                        config_dir, monkeypatch):
    """One app session at 80x24, game after game from the setup screen, each kept in the records (read from
    the data folder after each game), holding the promises:
    1. the dumb AI always takes 1 and loses to keys;
    2. the random AI moving first from 13 sticks (a lost heap) loses to perfect play;
    3. the perfect AI wins from a lost heap (21), leaving 4k+1 after each of its moves;
    4. a game against the learning AI by mouse clicks: its words, its draws, a fresh brain's loss that takes
       no ball (and says so), Play again with the mouse; the brain's record;
    5. the trained AI trains first (the please-wait screen, 2,000 games), then plays a brain of its own that
       leaves 4k+1;
    6. a friends' game, both seats by keys: the turn and count lines, the log, the result, the take buttons
       hidden, Enter plays again; both people in the records, neither an AI;
    7. the AI speed changed in a game is saved at once;
    8. Esc while the trained AI trains (a run of 10,000,000 games) goes back to setup at once, the run stopped
       early and no game recorded."""
    from textual.widgets import Input, Select

    from sticks_tui.store.settings import load_settings
    from sticks_tui.ui.screens import pretrain
    from sticks_tui.ui.screens.setup import SetupScreen

    seen = []
    original = PretrainScreen.on_mount

    def on_mount(self):
        seen.append((text_of(self, "#pretrain-title"), self.games))
        original(self)

    monkeypatch.setattr(PretrainScreen, "on_mount", on_mount)
    app = make_app(trained_games=2000)
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. the dumb AI
        screen = await start_game(pilot, heap=10, opponent="dumb")
        await play_human_turns(pilot, screen)
        assert screen.game.state.history and all(m.move == 1 for m in screen.game.state.history[1::2])
        log = log_text(screen)
        assert "Dumb AI takes 1 stick, there are 8 sticks remaining." in log
        assert "Dumb AI has to take the final stick and loses." in log
        assert text_of(screen, "#turn") == "Dumb AI took the last stick and loses. Player 1 wins!"
        games, players = records(data_dir)
        assert [g.loser_name for g in games] == ["Dumb AI"]
        assert players["Dumb AI"].is_ai and players["Dumb AI"].losses == 1
        assert players["Player 1"].wins == 1
        await pilot.press("escape")
        assert _screen_setup(app)

        # 2. the random AI
        screen = await start_game(pilot, heap=13, opponent="random", first="p2")
        # 13 sticks is a lost heap for whoever moves first: perfect play from then on wins it
        await play_human_turns(pilot, screen)
        assert screen.game.state.history[0].player == 1  # the AI moved first
        assert screen.game.state.loser == 1
        assert "Random AI has to take the final stick and loses." in log_text(screen)
        assert text_of(screen, "#turn") == "Random AI took the last stick and loses. Player 1 wins!"
        games, _ = records(data_dir)
        assert len(games) == 2 and games[0].opponent == "random" and games[0].loser_name == "Random AI"
        await pilot.press("escape")
        assert _screen_setup(app)

        # 3. the perfect AI
        screen = await start_game(pilot, heap=21, opponent="perfect")  # 21 = 4k+1: Player 1 is lost

        def greedy(heap):  # takes as much as it can without taking the last stick
            return min(3, heap - 1) or 1

        await play_human_turns(pilot, screen, greedy)
        state = screen.game.state
        assert state.loser == 0
        # after every move of the perfect AI the heap is 4k+1
        assert all(m.after % 4 == 1 for m in state.history if m.player == 1)
        assert "Player 1 has to take the final stick and loses." in log_text(screen)
        assert text_of(screen, "#turn") == "Player 1 took the last stick and loses. Perfect AI wins!"
        games, players = records(data_dir)
        assert games[0].loser_name == "Player 1" and players["Perfect AI"].wins == 1
        await pilot.press("escape")
        assert _screen_setup(app)

        # 4. the learning AI, by mouse
        screen = await start_game(pilot, heap=10, opponent="learning", by="click")
        assert isinstance(screen, GameScreen)
        await play_human_turns(pilot, screen, click=True)
        state = screen.game.state
        assert state.loser == 1
        assert [m.player for m in state.history][::2] == [0] * len(state.history[::2])
        log = log_text(screen)
        assert "Learning AI says 'I, the AI, will hope to defeat you!'" in log
        assert "Player 1 takes 1 stick, there are 9 sticks remaining." in log
        assert "Learning AI draws ball" in log
        assert "Learning AI has to take the final stick and loses." in log
        # a fresh brain's balls are each the last of their number: the loss takes none, and says so
        assert ("Learning AI lost, but each ball it drew was the last of its number, and a hat always keeps "
                "at least one ball of each number: nothing is thrown away, and hat ") in log
        assert text_of(screen, "#turn") == "Learning AI took the last stick and loses. Player 1 wins!"
        # play again with the mouse
        await pilot.click("#again")
        await pilot.pause()
        assert screen.round == 2 and not screen.game.is_over
        assert screen.game.state.position == 10
        games, players = records(data_dir)
        assert len(games) == 4 and games[0].brain == "default" and games[0].opponent == "learning"
        assert players["Learning AI"].losses == 1
        with Store.open(data_dir) as store:
            assert store.brain_record("default") == (0, 1)
        await pilot.press("escape")  # Player 1 moves first: the new game has not begun
        assert _screen_setup(app)

        # 5. the trained AI
        await start_game(pilot, heap=10, opponent="trained", first="p2")
        # the screen is there before its game: it makes the game when mounted
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.game is not None,
                         what="the game after training")
        assert seen == [("Training AI, please wait...", 2000)]
        screen = app.screen
        trained = screen.players[1]
        assert trained.name == "Trained AI" and trained.hats is not app.session.brain
        assert trained.hats != app.session.brain  # it learned something in 2,000 games
        # the trained AI moving first from 10 sticks knows to leave 9 (= 4k+1)
        await wait_until(pilot, lambda: screen.game.waiting_for_human or screen.game.is_over)
        await play_human_turns(pilot, screen, lambda heap: 1)
        assert screen.game.state.loser == 0
        assert "Player 1 has to take the final stick and loses." in log_text(screen)
        assert text_of(screen, "#turn") == "Player 1 took the last stick and loses. Trained AI wins!"
        games, players = records(data_dir)
        assert games[0].opponent == "trained" and games[0].loser_name == "Player 1"
        assert players["Trained AI"].wins == 1
        await pilot.press("escape")
        assert _screen_setup(app)

        # 6. friends, both seats by keys
        screen = await start_game(pilot, heap=10, opponent="friend", name1="Ann", name2="Bob")
        assert isinstance(screen, GameScreen)
        assert text_of(screen, "#turn") == "Ann's turn: take 1, 2 or 3 (keys or buttons)."
        assert text_of(screen, "#count") == "There are 10 sticks on the board."
        await pilot.press("3")
        assert screen.game.state.position == 7
        assert text_of(screen, "#turn") == "Bob's turn: take 1, 2 or 3 (keys or buttons)."
        assert "Ann takes 3 sticks, there are 7 sticks remaining." in log_text(screen)
        await pilot.press("3")
        await pilot.press("3")
        assert text_of(screen, "#count") == "There is 1 stick on the board."
        assert text_of(screen, "#turn") == "Bob's turn: take 1 (keys or buttons)."
        await pilot.press("1")
        await pilot.pause()
        assert screen.game.is_over and screen.game.state.loser == 1
        log = log_text(screen)
        assert "Bob takes 3 sticks, there are 4 sticks remaining." in log
        assert "Ann takes 3 sticks, there is 1 stick remaining." in log
        assert "Bob has to take the final stick and loses." in log
        assert "Bob: You lose.  Ann: You win!" in log
        assert text_of(screen, "#turn") == "Bob took the last stick and loses. Ann wins!"
        # the take buttons are hidden, play again is shown, and Enter plays again (the keys stay with the board)
        assert not screen.query_one("#moves").display
        assert screen.query_one("#after").display
        assert app.focused is screen.query_one("#board")
        await pilot.press("enter")
        assert screen.round == 2
        games, players = records(data_dir)
        assert len(games) == 6
        assert games[0].players == ("Ann", "Bob") and games[0].loser_name == "Bob"
        assert games[0].moves == (3, 3, 3, 1) and games[0].opponent == "friend"
        assert (players["Ann"].wins, players["Ann"].losses) == (1, 0)
        assert (players["Bob"].wins, players["Bob"].losses) == (0, 1)
        assert not players["Ann"].is_ai and not players["Bob"].is_ai
        await pilot.press("escape")
        assert _screen_setup(app)

        # 7. the AI speed, saved at once
        await start_game(pilot, heap=12, opponent="dumb")
        await pilot.press("minus")
        assert load_settings(config_dir / "settings.toml")[0].ai_speed == "slow"
        await pilot.press("plus", "plus")
        assert load_settings(config_dir / "settings.toml")[0].ai_speed == "fast"
        await pilot.press("escape")  # no move made yet
        assert _screen_setup(app)

        # 8. Esc while the trained AI trains
        with Store.open(data_dir) as store:
            played = store.game_count()
        app.session.trained_games = 10_000_000  # as make_app(trained_games=10_000_000)
        # The run's own result, as the trainer returns it (the screen's worker is cancelled with the
        # screen, so the worker itself keeps no result): proof that the run really stopped early.
        results = []
        real_run = pretrain.sticks_run

        def recorded_run(config, brain=None):
            run = real_run(config, brain)

            def wrapped(progress, cancel):
                result = run(progress, cancel)
                results.append(result)
                return result

            return wrapped

        monkeypatch.setattr(pretrain, "sticks_run", recorded_run)

        def send(key):  # no waiting for idle: the training thread keeps the process busy
            app.simulate_key(key)

        setup = app.screen
        setup.query_one("#opponent", Select).value = "trained"
        setup.query_one("#heap", Input).value = "100"
        await pilot.pause()
        send("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PretrainScreen) and app.screen.query("#pretrain-bar"),
                         what="the pretrain screen, composed")
        screen = app.screen
        bar = screen.query_one("#pretrain-bar")
        await wait_until(pilot, lambda: bar.progress > 0, what="training progress")
        assert bar.total == 10_000_000 and bar.progress < 10_000_000
        send("escape")
        await wait_until(pilot, lambda: app.screen is setup, what="back to setup")
        assert screen.job.stop.is_set()  # told to stop
        await wait_until(pilot, lambda: results, what="the training run to end")
        result = results[0]
        assert result.cancelled and result.games_played < 10_000_000
        await pilot.pause()
        assert app.screen is setup and isinstance(setup, SetupScreen)
    with Store.open(data_dir) as store:
        assert store.game_count() == played  # no game recorded


async def test_at_every_size_the_end_of_a_game_is_whole_and_at_160x48_the_screens_use_the_room(make_app):
    """One app session, from 160x48 down to 122x33 and 80x24 (as a browser tab or a window is resized), holding
    the promises:
    1. at 160x48 the setup form sits in the middle (not in the top left corner above an empty screen);
    2. at 160x48 (a projector) the board and the hats grow into the room: tall matches and wide hat cells;
    3. at each size, the end of a game shows no "There are 0 sticks on the board.", the result line wraps whole
       in the board column, and the footer no longer offers 1-3 Take (a browser tab at 122 columns showed both
       wrong)."""
    from textual.geometry import Region
    from textual.widgets._footer import FooterKey

    from sticks_tui.ui.boards.sticks import SticksView
    from sticks_tui.ui.widgets.heatmap import CELL, HatHeatmap

    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        # 1. the setup form
        await pilot.pause()
        form = app.screen.query_one("#setup-form").region
        assert form.x > 30 and form.y > 8  # not in the top left corner above an empty screen
        assert abs((form.x + form.width / 2) - 80) <= 2

        # 2. the board and the hats
        screen = await start_game(pilot, heap=20, opponent="learning")
        sticks = screen.query_one(SticksView)
        w, h = sticks.size
        lines = [strip.text for strip in sticks.render_lines(Region(0, 0, w, h))]
        assert sum(1 for line in lines if "┃" in line) >= 6  # 3 lines of stick was the most
        heatmap = screen.query_one(HatHeatmap)
        assert heatmap.cell_width() > CELL and heatmap.hat_height() == 2
        assert heatmap.cell_text(20, 1).startswith("▃33% ━")
        await pilot.press("escape")  # no move made yet: straight back to setup
        assert _screen_setup(app)

        # 3. the end of a game, at each size
        for size in ((160, 48), (122, 33), (80, 24)):
            if tuple(app.size) != size:
                await pilot.resize_terminal(*size)
                await pilot.pause()
            assert tuple(app.size) == size and _screen_setup(app)
            screen = await start_game(pilot, heap=10, opponent="dumb", name1="Maximilian Oberhausen-Li")

            def footer():
                return [k.description for k in screen.query(FooterKey)]

            await wait_until(pilot, lambda: "Take" in footer(), what="the footer to offer Take")  # composed after the screen
            await play_human_turns(pilot, screen)
            await pilot.pause()
            assert screen.game.is_over
            assert text_of(screen, "#count") == ""  # never "There are 0 sticks on the board."
            turn = screen.query_one("#turn")
            result = "Dumb AI took the last stick and loses. Maximilian Oberhausen-Li wins!"
            assert text_of(screen, "#turn") == result
            lines = turn.render_lines(turn.region.reset_offset)
            shown = " ".join("".join(seg.text for seg in line).strip() for line in lines).strip()
            assert shown == result, (size, shown)  # every word on screen, none cut at the border
            await wait_until(pilot, lambda: "Play again" in footer(), what="the footer to offer Play again")
            assert "Take" not in footer(), footer()
            await pilot.press("escape")


def timers_run_faster(monkeypatch, factor: float) -> None:
    """Every Textual timer (set_timer, set_interval) fires `factor` times sooner in wall time: a test
    sees what several seconds of the app's timers do without waiting them. Textual's Timer sleeps with
    textual.timer.sleep (if that name goes, monkeypatch fails here); a test using this sets a timer of its
    own and waits for it, so it is seen that the timers did run that long."""
    import textual.timer

    real_sleep = textual.timer.sleep

    async def sleep(seconds: float) -> None:
        await real_sleep(seconds / factor)

    monkeypatch.setattr(textual.timer, "sleep", sleep)


async def test_the_marks_after_a_game_stay_until_the_next_game_starts(make_app, monkeypatch):
    """A class discusses a mark the teacher points at: the ↑/↓/= marks must not vanish after a few seconds.
    And the words that stay the same are not laid out again at every move: the brain panel's title (the same
    all game: it was set, and the whole screen laid out, at each move) and the result line once shown."""
    from sticks_tui.ui.widgets.heatmap import HatHeatmap
    from ui_helpers import perfect_take, watch_layouts

    timers_run_faster(monkeypatch, 20)  # 3.5 s of the app's timers in under 0.2 s
    laid_out = watch_layouts(monkeypatch)  # the widgets that asked for a layout of the screen
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning")
        title, turn = screen.query_one(".brain-title"), screen.query_one("#turn")
        laid_out.clear()
        await play_human_turns(pilot, screen, perfect_take)  # the AI loses its first game
        await pilot.pause()
        assert title not in laid_out, "the brain panel's title, the same words, was laid out again"
        assert str(title.render()) == "Learning AI's hats"
        over = len(laid_out) - laid_out[::-1].index(turn)  # the result line's last layout ...
        assert screen.game.is_over and text_of(screen, "#turn").endswith("Player 1 wins!")
        screen.show_state()  # ... and shown again, with the same words
        assert turn not in laid_out[over:]
        heatmap = screen.query_one(HatHeatmap)
        drawn = [(m.before, m.move) for m in screen.game.state.history if m.player == 1 and m.before > 1]  # 1: forced
        marks = heatmap.data.flash
        assert drawn and sorted((h, b) for h, b, _ in marks) == sorted(drawn)
        # (the marks used to be wiped by a 3 s timer set when the game ended): a 3.5 s timer set now fires
        # after any timer of 3.5 s or less set before it
        later: list[bool] = []
        screen.set_timer(3.5, lambda: later.append(True))
        await wait_until(pilot, lambda: later, what="3.5 s of the app's timers")
        assert heatmap.data.flash == marks
        # a fresh brain's balls are all last ones: the loss leaves them as they were, marked =
        assert all(delta == 0 and heatmap.cell_text(h, b).startswith("=") for h, b, delta in marks)
        await pilot.press("n")  # the next game starts: the marks go
        await pilot.pause()
        assert heatmap.data.flash == ()
