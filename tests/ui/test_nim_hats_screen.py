"""Pilot tests: the Nim learner's hats on the Nim screen (the hat in play, its draw, the lesson of a
game, training), and the Nim brain kept in the store between runs."""

from __future__ import annotations

import numpy as np
import pytest
from textual.widgets import Static

from sticks_tui.engine.nim import coins_word
from sticks_tui.store import Store
from sticks_tui.ui.screens.nim import NimGameScreen
from sticks_tui.ui.session import MatchSetup, nim_brain_name
from sticks_tui.ui.widgets.nim_hats import NimHats
from ui_helpers import MessageLog, wait_until


def nim_brain(box=(7, 7, 7), rule=None, counts=None):
    """A Nim learner's brain: the counts learner over piles up to `box` (the store knows no game's brain)."""
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.hats import Hats

    return Hats(NimRules(tuple(box)), rule=rule, counts=counts)

NAME = nim_brain_name()
AI = "Nim Learning AI"


def nim_setup(piles=(1, 1, 1), first="p2") -> MatchSetup:
    return MatchSetup(game="nim", piles=piles, opponent="learning", name2=AI, first=first)


async def open_nim(pilot, piles=(1, 1, 1), first="p2") -> NimGameScreen:
    app = pilot.app
    await pilot.pause()
    # pushed from the app's own loop (as the setup screen does), so the test's message hook sees its messages
    app.call_later(lambda: app.push_screen(NimGameScreen(nim_setup(piles, first), piles)))
    await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
    await pilot.pause()
    return app.screen


def title(screen) -> str:
    return str(screen.query_one("#nim-hats-title", Static).render())


def hats_lines(screen) -> list[str]:
    view = screen.query_one(NimHats)
    return [view.render_line(y).text.rstrip() for y in range(view.size.height)]


async def test_the_hats_show_the_hat_in_play_the_ball_drawn_and_what_the_game_taught(make_app, data_dir):
    app = make_app(ai_delay=30)  # the AI waits: the hat it is about to draw from can be read
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_nim(pilot)  # (1, 1, 1) and the AI moves first: whatever it draws, it wins
        view = screen.query_one(NimHats)
        assert view.display and view.region.height >= 6  # on screen at 80x24, under the piles
        data = view.data
        assert (data.position, data.drawn, data.counts) == ((1, 1, 1), None, (1, 1, 1))
        assert data.winning == frozenset({(0, 1), (1, 1), (2, 1)})
        assert "draws a ball from its hat" in title(screen)
        assert any("1 nickel" in line and "33%" in line and "✓" in line for line in hats_lines(screen))

        app.session.ai_delay_override = 0
        screen._ai_move()  # what the timer does when the AI's pause is over
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        first = screen.game.state.history[0]
        data = view.data
        assert (data.position, data.drawn) == ((1, 1, 1), first.move)  # the hat it drew from, ball marked
        assert "drew the ball marked ►" in title(screen)
        assert f"Drawn: ► {coins_word(*first.move)}." in data.summary()
        assert any("Drawn: ►" in line for line in hats_lines(screen))
        assert view.entry_text(first.move).split()[2].startswith("►")

        await pilot.press("enter")  # the person takes one of the two coins left; the AI takes the last
        await wait_until(pilot, lambda: screen.game.is_over, what="the end of the game")
        await wait_until(pilot, lambda: "won" in title(screen), what="the lesson over the hats")
        await wait_until(pilot, lambda: app.session.store.game_count() == 1, what="the game kept")
        last = screen.game.state.history[-1]
        assert last.player == 1 and screen.game.state.winner == 1
        data = view.data
        assert (data.position, data.drawn) == (last.before, last.move)
        assert data.counts == (1,)  # its only move there was forced: it teaches nothing (issue 31)
        assert "1 balls for 1 move." in " ".join(hats_lines(screen))
        assert np.array_equal(app.session.nim_brain.counts, app.session.store.load_brain(NAME).counts)
        assert app.session.nim_brain.hat((1, 1, 1))[first.move[0]] == 2
        assert app.session.store.brain_record(NAME) == (1, 0)
        game = app.session.store.recent_games(limit=1)[0]
        assert (game.game, game.start, game.brain) == ("nim", "1,1,1", NAME)

        app.session.ai_delay_override = 30
        await pilot.press("n")  # the next game starts on the hat of its position, as learned
        await wait_until(pilot, lambda: not screen.game.is_over, what="the next game")
        assert view.data.position == (1, 1, 1) and view.data.drawn is None
        assert sorted(view.data.counts) == [1, 1, 2]

    again = make_app()  # the next run of the program: the hats were kept
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.session.nim_hats().hat((1, 1, 1))[first.move[0]] == 2
        assert again.session.nim_stored_as == NAME


async def test_training_shows_on_the_hat_and_is_merged_with_a_game_played_meanwhile(make_app, data_dir):
    from sticks_tui.learn.merge import merge_net_change
    from sticks_tui.store.brains import legal_of
    from sticks_tui.ui.messages import TrainingFinished, TrainingProgressMsg

    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        screen = await open_nim(pilot)
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.game.is_over, what="the end of the game")
        await wait_until(pilot, lambda: app.session.store.game_count() == 1, what="the game kept")
        start = app.session.nim_brain.counts.copy()
        screen.action_train_nim()  # what F2 does
        # meanwhile another copy of the program teaches the stored brain: its AI wins from (2, 0, 0)
        with Store.open(data_dir) as other:
            other.record_game(game="nim", start="2,0,0", opponent="learning", players=("Ann", AI),
                              moves=["1:1", "1:1"], loser=0, brain=NAME, learning={1: (NAME, [((1, 0, 0), (0, 1))])})
            lesson = other.load_brain(NAME).counts.copy()
        await wait_until(pilot, lambda: log.of(TrainingFinished), timeout=60, what="the end of training")
        # the hook sees the message before the screen handles it: wait for the handler's work
        await wait_until(pilot, lambda: "After 500,000 games of training" in title(screen), what="the merge")
        progress = [m.progress for m in log.of(TrainingProgressMsg) if m.purpose == "nim"]
        assert progress and progress[-1].games_done == 500_000  # training reports its progress
        result = log.of(TrainingFinished)[-1].result  # a TrainingResult, as every run ends with
        hats = app.session.nim_brain
        want = merge_net_change(lesson, start, result.brain.counts, hats.rule, legal_of(hats))
        assert np.array_equal(hats.counts, want)
        assert np.array_equal(app.session.store.load_brain(NAME).counts, want)
        assert app.session.store.brain_info(NAME).games_trained == 2 + 500_000
        view = screen.query_one(NimHats)
        assert "After 500,000 games of training" in title(screen)
        assert view.data.counts == hats.hat(view.data.position)
        assert max(hats.hat((1, 1, 1))) > 100  # the trained hats, not the one game's


@pytest.mark.parametrize("squatter", ["sticks", "another box"])
async def test_a_stored_brain_that_does_not_fit_is_never_written_over(make_app, data_dir, squatter):
    from sticks_tui.learn.hats import Hats

    brain = Hats(10) if squatter == "sticks" else nim_brain((3, 3, 3))
    with Store.open(data_dir) as store:
        store.save_brain(NAME, brain, games_trained=5)
    log = MessageLog()
    app = make_app()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        screen = await open_nim(pilot)
        await wait_until(pilot, lambda: any("left as it is" in n for n in log.notifications()),
                         what="the message about the brain")
        assert any("not saved" in n for n in log.notifications())
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.game.is_over, what="the end of the game")
        await wait_until(pilot, lambda: app.session.store.game_count() == 1, what="the game kept")
        assert sorted(app.session.nim_brain.hat((1, 1, 1))) == [1, 1, 2]  # it learned, in memory
        store = app.session.store
        assert store.load_brain(NAME) == brain and store.brain_info(NAME).games_trained == 5
        assert store.game_count() == 1 and store.recent_games(limit=1)[0].brain is None


async def test_no_hats_panel_without_the_learning_ai(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(NimGameScreen(MatchSetup(game="nim", piles=(3, 4, 5), opponent="perfect"), (3, 4, 5)))
        await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
        await pilot.pause()
        assert not app.screen.query_one("#nim-hats-panel").display
        assert app.session.nim_brain is None  # no brain loaded, none made in the store
        assert app.session.store.brain_info(NAME) is None


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_hats_fit_beside_or_under_the_piles_and_the_footer_is_whole(make_app, size):
    from textual.widgets import Footer

    app = make_app(ai_delay=30)
    async with app.run_test(size=size) as pilot:
        screen = await open_nim(pilot, piles=(7, 7, 7), first="p1")  # the biggest hat: 21 moves
        view, piles = screen.query_one(NimHats), screen.query_one("#piles")
        lines = [line for line in hats_lines(screen) if line]
        assert any(line.startswith("7 nickels") for line in lines)  # every move's line is on screen
        assert view.region.bottom <= screen.query_one("#nim-log").region.y
        if size[0] >= 120:
            assert view.region.x >= piles.region.right  # beside the piles
        else:
            assert view.region.y >= piles.region.bottom  # under them
        footer = screen.query_one(Footer)
        keys = [k for k in footer.query("FooterKey") if k.display]
        assert keys and max(k.region.right for k in keys) <= size[0]
        assert all(k.region.width >= len(k.description) + 1 for k in keys)


async def test_the_analysis_screen_offers_no_nim_brain_to_the_sticks_ai(make_app, data_dir):
    """Picking the Nim brain for the sticks AI would end with a sticks brain saved over it."""
    from textual.widgets import Select

    with Store.open(data_dir) as store:
        store.load_or_create_brain(NAME, game="nim")
        store.load_or_create_brain("clever", 100)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_analysis()
        await pilot.pause()
        options = [value for _, value in app.screen.query_one("#brain", Select)._options]
        assert "clever" in options and NAME not in options


async def test_on_a_wide_screen_every_draw_of_the_game_and_its_lesson_is_listed(make_app):
    app = make_app()
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_nim(pilot, piles=(1, 1, 1), first="p2")
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        lessons = screen.query_one("#nim-lessons", Static)
        await wait_until(pilot, lambda: "draws this game" in str(lessons.render()), what="the draws listed")
        first = screen.game.state.history[0]
        assert lessons.display and lessons.region.height >= 2
        assert "(1, 1, 1): ► 1" in str(lessons.render()) and "1 of 3 balls (33%), ✓ a winning move" in str(lessons.render())
        await pilot.press("enter")
        await wait_until(pilot, lambda: "taught it" in str(lessons.render()), what="the lesson listed")
        text = str(lessons.render())
        last = screen.game.state.history[-1]
        assert f"{first.before}: ► " in text and f"{last.before}: ► " in text
        assert text.count("1 → 2") == 1  # it won: the ball it drew went back with one more; its last move was forced
    narrow = make_app()
    async with narrow.run_test(size=(80, 24)) as pilot:
        screen = await open_nim(pilot, piles=(1, 1, 1), first="p2")
        assert not screen.query_one("#nim-lessons").display  # no room: the log tells the same story


async def test_no_way_out_of_the_nim_screen_throws_its_training_away(make_app, monkeypatch):
    """Esc and the palette's New game both wait while the Nim AI trains (the run belongs to the screen)."""
    import threading

    from sticks_tui.ui.screens import nim as nim_module

    release = threading.Event()
    real = nim_module.nim_run

    def held(*args, **kwargs):
        run = real(*args, **kwargs)

        def wrapped(progress, cancel):
            while not release.wait(0.02) and not cancel():
                pass
            return run(progress, cancel)

        return wrapped

    monkeypatch.setattr(nim_module, "nim_run", held)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_nim(pilot)
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.game.is_over, what="the end of the game")
        screen.action_train_nim()
        assert screen.cannot_leave_now()
        await pilot.press("escape")
        app.action_new_game()  # what the palette's New game does
        await pilot.pause()
        assert app.screen is screen
        release.set()
        await wait_until(pilot, lambda: screen.cannot_leave_now() is None, timeout=60, what="the end of training")
        app.action_new_game()
        await pilot.pause()
        assert app.screen is not screen


async def test_a_classmates_nim_game_shows_on_the_nim_hats_live(make_app, data_dir):
    """Issue 19, live: while this tab's Nim AI waits, a classmate's Nim game teaches the class's Nim hats;
    within a check the hat in view shows the stored counts and says whose game it was and what it changed."""
    app = make_app(ai_delay=30)  # the AI never moves here: the hats change only by the class
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_nim(pilot, piles=(2, 0, 0), first="p2")  # the AI to move, from (2, 0, 0)
        view = screen.query_one(NimHats)
        assert (view.data.position, view.data.counts) == ((2, 0, 0), (1, 1))
        with Store.open(data_dir) as classmate:  # Ann's game: Ann took a coin from (3, 0, 0), the AI the last two
            classmate.record_game(game="nim", start="3,0,0", opponent="learning", players=("Ann", AI),
                                  moves=["1:1", "1:2"], loser=0, brain=NAME,
                                  learning={1: (NAME, [((2, 0, 0), (0, 2))])})
            stored = classmate.load_brain(NAME).hat((2, 0, 0))
        assert stored != (1, 1)
        await wait_until(pilot, lambda: view.data.counts == stored, timeout=5, what="the classmate's lesson on the hat")
        assert app.session.nim_brain.hat((2, 0, 0)) == stored
        assert title(screen).startswith(f"Ann's game: hat (2, 0, 0), {coins_word(0, 2)} ↑")
