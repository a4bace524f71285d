"""Pilot tests for three-pile Nim in the app: setup, a whole game, the hint, the table view, the learner."""

from __future__ import annotations

import numpy as np
from textual.widgets import Input, Label, Select, Static

from sticks_tui.solve.nim import is_winning
from sticks_tui.ui.screens.nim import NimGameScreen, NimTableScreen
from sticks_tui.ui.widgets.move_log import MoveLog
from sticks_tui.ui.widgets.nim_piles import NimPilesView
from sticks_tui.ui.widgets.nim_table import NimTableView
from tests.ui.ui_helpers import wait_until


async def choose_nim(pilot, piles=(3, 4, 5), opponent="perfect"):
    screen = pilot.app.screen
    screen.query_one("#game", Select).value = "nim"
    await pilot.pause()
    screen.query_one("#opponent", Select).value = opponent
    for i, n in enumerate(piles):
        screen.query_one(f"#pile-{i}", Input).value = str(n)
    await pilot.pause()


def log_text(screen) -> str:
    return "\n".join(screen.query_one("#nim-log", MoveLog).lines)


async def test_setup_offers_nim_opponents_and_refuses_bad_piles(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_nim(pilot, piles=("0", "4", "5"))
        options = [value for _, value in app.screen.query_one("#opponent", Select)._options]
        assert set(options) == {"friend", "random", "perfect", "learning"}
        await pilot.click("#start")
        await pilot.pause()
        assert "Please enter piles of 1 to 100 coins." in str(app.screen.query_one("#heap-error", Label).render())
        assert not isinstance(app.screen, NimGameScreen)
        await choose_nim(pilot, piles=(3, 8, 5), opponent="learning")
        await pilot.click("#start")
        await pilot.pause()
        assert "up to 7 coins" in str(app.screen.query_one("#heap-error", Label).render())
        assert not isinstance(app.screen, NimGameScreen)


async def test_a_whole_game_against_the_perfect_ai_is_lost_and_recorded(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_nim(pilot, piles=(3, 4, 5))
        await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
        screen = app.screen
        assert screen.query_one(NimPilesView).piles == (3, 4, 5)
        # the person always takes one coin from the chosen pile: the perfect AI must win
        for _ in range(40):
            if screen.game.is_over:
                break
            await wait_until(pilot, lambda: screen.game.is_over or screen.game.waiting_for_human,
                             what="the person's turn")
            if not screen.game.is_over:
                await pilot.press("enter")
                await pilot.pause()
        assert screen.game.is_over
        assert screen.game.state.winner == 1
        assert "Perfect AI took the last coin and wins" in str(screen.query_one("#nim-turn", Static).render())
        assert "the last coins, and wins." in log_text(screen)
        games = app.session.store.recent_games()
        assert games[0].game == "nim" and games[0].start == "3,4,5" and games[0].loser_name == "Player 1"


async def test_pile_and_count_controls_and_the_hint(make_app):
    app = make_app(ai_delay=30)  # the AI waits, so the person's controls can be read
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_nim(pilot, piles=(2, 2, 1), opponent="friend")
        await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
        screen = app.screen
        await pilot.press("right", "right")  # to the quarters
        assert screen.chosen == 2
        await pilot.press("up", "up")  # only one quarter: the count stays 1
        assert screen.coins == 1
        assert "take 1 quarter" in str(screen.query_one("#nim-move", Label).render())
        await pilot.press("h")
        hint = str(screen.query_one("#nim-hint", Static).render())
        assert "U(2, 2, 1) = 1" in hint and "take 1 quarter" in hint
        await pilot.press("enter")
        await pilot.pause()
        assert screen.game.state.position == (2, 2, 0)
        assert not is_winning(2, 2, 0)
        assert "U(2, 2, 0) = 0" in str(screen.query_one("#nim-hint", Static).render())
        # a click on the first pile chooses it
        await pilot.click(NimPilesView, offset=(2, 1))
        assert screen.chosen == 0


async def test_table_view_shows_the_slice_and_follows_q(make_app):
    app = make_app(ai_delay=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await choose_nim(pilot, piles=(3, 3, 7), opponent="friend")
        await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, NimTableScreen), what="the table view")
        view = app.screen.query_one(NimTableView)
        assert view.q == 7 and view.here == (3, 3, 7)
        # row n = 3 (line 4 of the view): 'L' exactly where 3 xor d == 7, i.e. d == 4
        line = "".join(seg.text for seg in view.render_line(4))
        cells = line[4:].split(" ")
        assert cells[4] == "L" and cells.count("L") == 1
        await pilot.press("plus")
        assert view.q == 8
        app.screen.query_one("#q", Input).value = "abc"
        await pilot.pause()
        assert "between 0 and 100" in str(app.screen.query_one("#q-error", Label).render())
        assert view.q == 8  # bad input changes nothing
        await pilot.press("escape")
        assert isinstance(app.screen, NimGameScreen)


async def test_the_learning_ai_for_nim_trains_from_the_screen(make_app):
    from sticks_tui.ui.messages import TrainingFinished, TrainingProgressMsg
    from tests.ui.ui_helpers import MessageLog

    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        await choose_nim(pilot, piles=(2, 3, 4), opponent="learning")
        await pilot.click("#start")
        await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
        screen = app.screen
        for _ in range(40):
            await wait_until(pilot, lambda: screen.game.is_over or screen.game.waiting_for_human,
                             what="the person's turn")
            if screen.game.is_over:
                break
            await pilot.press("enter")
            await pilot.pause()
        before = app.session.nim_brain.counts.copy()
        screen.action_train_nim()  # what F2 does; called directly, so the line is read before a fast run ends
        line = screen.query_one("#nim-training", Static)
        assert line.display and "Training the Nim AI" in str(line.render())
        await wait_until(pilot, lambda: log.of(TrainingFinished), timeout=60, what="the Nim AI to finish training")
        # the hook sees the message before the screen handles it: wait for what the handler says
        await wait_until(pilot, lambda: any("The Nim AI played" in t for t in log.notifications()),
                         what="the training's result")
        assert not np.array_equal(app.session.nim_brain.counts, before)
        assert not line.display  # the progress line goes when the run ends
        progress = [m.progress for m in log.of(TrainingProgressMsg) if m.purpose == "nim"]
        assert progress and progress[-1].games_done == progress[-1].games_total == 500_000
        assert any("The Nim AI played 500,000 games" in text for text in log.notifications())
        # the figure says what it is about: the positions the run trained
        assert any(text.endswith("winning positions, over piles up to 7, 7, 7.") for text in log.notifications())
        from sticks_tui.learn.analysis import agreement

        assert agreement(app.session.nim_brain).agreement > 0.99
