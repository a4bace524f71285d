"""Snapshots of every screen at 80x24, with everything that moves frozen.

Frozen here:
- randomness: the app's seed, seeded training runs (the numba kernel is deterministic for a seed);
- time: the store's clock (`store.connection.clock`) and the timezone (UTC), so "last played" and "updated" never move;
- the data directory's path (a fresh tmp_path each run) in the records summary;
- the game screen's timer: the sticks just taken stay "leaving";
- cursor blink in Inputs;
- training figures: the training screen is shown for a hand-made `TrainingProgress` (fixed games,
  seconds and hats; training_running False) rather than for a live run, whose games/s and elapsed
  time differ on every run. Its hats and learning curve come from seeded runs in fixed chunks
  (the trainer's own curve is sampled on a timer, so it is not repeatable).

Regenerate with `pytest tests/snapshots --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

import asyncio
import os
import time
from datetime import datetime, timezone

import pytest
from textual.widgets import Input

from sticks_tui.engine.events import TrainingProgress
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn.analysis import CurveScorer
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig, TrainingResult, train
from sticks_tui.store import Store
from sticks_tui.store import connection as store_connection
from sticks_tui.ui.app import SticksApp
from sticks_tui.ui.boards import sticks as sticks_board


def nim_brain(box=(7, 7, 7), rule=None, counts=None):
    """A Nim learner's brain: the counts learner over piles up to `box` (the store knows no game's brain)."""
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.hats import Hats

    return Hats(NimRules(tuple(box)), rule=rule, counts=counts)

SIZE = (80, 24)
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def data_dir(tmp_path):
    return str(tmp_path / "data")


@pytest.fixture(autouse=True)
def frozen(monkeypatch, tmp_path):
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))  # never the user's settings
    old_tz = os.environ.get("TZ")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(store_connection, "clock", lambda: "2024-05-01T12:30:00.000000+00:00")
    monkeypatch.setattr(Store, "location", property(lambda self: "~/.local/share/sticks-tui/sticks.db"))
    monkeypatch.setattr(sticks_board, "LEAVE_SECONDS", 10_000)
    yield
    if old_tz is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old_tz
    time.tzset()


def make_app(data_dir, **kwargs) -> SticksApp:
    kwargs.setdefault("seed", 11)
    kwargs.setdefault("ai_delay", 0)
    return SticksApp(data_dir=data_dir, **kwargs)


def seeded_training(sticks: int = 20, chunks: int = 8, games: int = 2500):
    """The app's brain of 100 hats trained at heap `sticks` in fixed chunks with fixed seeds, and its
    curve at the end of each chunk, scored as the trainer scores it: over heaps 2..sticks."""
    brain, opponent = Hats(100), Hats(100)
    scorer = CurveScorer.for_rules(SticksRules(sticks))
    points = [scorer.score(0, brain.counts)]
    for i in range(chunks):
        train(TrainingConfig(sticks=sticks, games=games, seed=1000 + i), brain=brain, opponent=opponent)
        points.append(scorer.score((i + 1) * games, brain.counts))
    return brain, points


async def settle(pilot, condition, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)
    await pilot.pause()


async def no_blink(pilot) -> None:
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    await pilot.pause()


def perfect_take(heap: int) -> int:
    return (heap - 1) % 4 or 1


async def play(pilot, moves: int | None) -> None:
    """Start a game against the learning AI at 20 sticks; make `moves` moves (None: to the end)."""
    app = pilot.app
    await no_blink(pilot)
    await pilot.press("enter")
    await settle(pilot, lambda: hasattr(app.screen, "game"), "the game screen")
    screen = app.screen
    made = 0
    while not screen.game.is_over and (moves is None or made < moves):
        await settle(pilot, lambda: screen.game.waiting_for_human or screen.game.is_over, "a human turn")
        if screen.game.is_over:
            break
        await pilot.press(str(perfect_take(screen.game.state.position)))
        made += 1
    await settle(pilot, lambda: screen.game.waiting_for_human or screen.game.is_over, "the AI's reply")


def test_records_screen(snap_compare, data_dir):
    with Store.open(data_dir) as store:
        store.save_brain("default", Hats(100))
        games = [  # (players, start, moves, loser): the last move's player loses
            (("Ann", "Bob"), 10, [3, 3, 3, 1], 1),
            (("Bob", "Ann"), 11, [3, 3, 3, 2], 1),
            (("Ann", "Cleo"), 12, [3, 3, 3, 2, 1], 0),
            (("Ann", "Bob"), 13, [3, 3, 3, 3, 1], 0),
        ]
        for hour, (players, start, moves, loser) in enumerate(games, start=9):
            store.record_game(start=start, opponent="friend", players=players, moves=moves, loser=loser,
                              played_at=T0.replace(hour=hour))
        store.record_game(start=20, opponent="learning", players=("Ann", "Learning AI"),
                          moves=[3, 1] * 5, loser=1, brain="default", played_at=T0.replace(hour=15))

    async def run_before(pilot):
        pilot.app.action_records()
        await pilot.pause()

    assert snap_compare(make_app(data_dir), terminal_size=SIZE, run_before=run_before)


async def start(pilot, game: str, opponent: str, first: str = "p1") -> None:
    """The setup screen's game, opponent and who moves first chosen, then Start (the game's start as it opens)."""
    from textual.widgets import Select

    await no_blink(pilot)
    setup = pilot.app.screen
    setup.query_one("#game", Select).value = game
    await pilot.pause()
    setup.query_one("#opponent", Select).value = opponent
    setup.query_one("#first", Select).value = first
    await pilot.pause()
    await pilot.click("#start")
    await pilot.pause()


async def start_nim_with_a_friend(pilot) -> None:
    await start(pilot, "nim", "friend")


# -- walks: screens that follow each other, snapshotted in one app session; error states, dialogs, and the
# -- screens not shown elsewhere among them (issue 10: every screen fits 80x24) ----------------------------
async def test_walk_from_setup_through_a_game_and_its_dialogs(snap_walk, data_dir):
    """The snapshots test_setup_screen, test_train_dialog_with_a_bad_number_of_games, test_setup_screen_with_a_bad_heap,
    test_help_on_the_game_screen, test_leaving_a_game_asked, test_quit_asked_mid_game (each after the game's first
    move), test_game_mid_game (after two), test_game_over and, the terminal made smaller than 80x24,
    test_terminal_below_80x24, in one app session: each is the screen it was."""
    from sticks_tui.ui.screens.game import GameScreen
    from sticks_tui.ui.screens.setup import SetupScreen

    app = make_app(data_dir)
    async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
        await no_blink(pilot)
        await snap_walk(pilot, "test_setup_screen")

        await pilot.press("f2")
        await pilot.pause()
        box = pilot.app.screen.query_one("#games", Input)
        box.value = "0"
        await no_blink(pilot)
        await pilot.press("enter")
        await pilot.pause()
        await snap_walk(pilot, "test_train_dialog_with_a_bad_number_of_games")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)

        heap = app.screen.query_one("#heap", Input)
        heap.value = "500"
        await pilot.press("enter")
        await pilot.pause()
        await snap_walk(pilot, "test_setup_screen_with_a_bad_heap")
        heap.value = "20"
        await pilot.pause()

        await play(pilot, moves=1)
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("f1")
        await pilot.pause()
        await snap_walk(pilot, "test_help_on_the_game_screen")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game
        await pilot.press("escape")
        await pilot.pause()
        await snap_walk(pilot, "test_leaving_a_game_asked")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game
        await pilot.press("ctrl+q")
        await pilot.pause()
        await snap_walk(pilot, "test_quit_asked_mid_game")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game

        await settle(pilot, lambda: game.game.waiting_for_human or game.game.is_over, "a human turn")
        await pilot.press(str(perfect_take(game.game.state.position)))
        await settle(pilot, lambda: game.game.waiting_for_human or game.game.is_over, "the AI's reply")
        assert game.game.state.position < 20 and not game.game.is_over
        await snap_walk(pilot, "test_game_mid_game")

        while not game.game.is_over:
            await settle(pilot, lambda: game.game.waiting_for_human or game.game.is_over, "a human turn")
            if game.game.is_over:
                break
            await pilot.press(str(perfect_take(game.game.state.position)))
        await settle(pilot, lambda: game.game.waiting_for_human or game.game.is_over, "the AI's reply")
        assert game.game.is_over
        await snap_walk(pilot, "test_game_over")
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")

        from sticks_tui.ui.app import TooSmallScreen

        await pilot.resize_terminal(60, 18)  # the terminal made smaller than 80x24
        await settle(pilot, lambda: isinstance(pilot.app.screen, TooSmallScreen), "the notice")
        await snap_walk(pilot, "test_terminal_below_80x24")


async def test_walk_from_nim_with_a_friend_and_its_table_to_noughts_against_menace_and_nim_against_its_learner(
        snap_walk, data_dir):
    """The snapshots test_nim_game_screen, test_nim_table_screen (u), test_noughts_after_a_game_against_menace
    (MENACE moved first (X) and won or drew; under each of its marks its beads before → after, the lesson in the
    log; the person plays the first empty square) and test_nim_screen_with_the_learning_ais_hats (the learner's
    hat beside the piles, a brain taught by a short seeded run; the AI moved first), in one app session: each is
    the screen it was."""
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.ui.screens.game import GameScreen
    from sticks_tui.ui.screens.setup import SetupScreen
    from sticks_tui.vocabulary import nim_brain_name

    brain = nim_brain()
    train(TrainingConfig(game=NimRules((7, 7, 7)), games=20_000, seed=5, protocol="explore"), brain=brain)
    with Store.open(data_dir) as store:
        store.save_brain(nim_brain_name(), brain, games_trained=20_000)
    app = make_app(data_dir)
    async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
        await start_nim_with_a_friend(pilot)
        await pilot.pause()
        await snap_walk(pilot, "test_nim_game_screen")
        await pilot.press("u")
        await pilot.pause()
        await no_blink(pilot)
        await snap_walk(pilot, "test_nim_table_screen")
        while not isinstance(app.screen, SetupScreen):
            await pilot.press("escape")
            await pilot.pause()

        await start(pilot, "noughts", "menace", first="p2")
        screen = app.screen
        deadline = time.monotonic() + 20
        while not screen.game.is_over:
            assert time.monotonic() < deadline, "the game did not end"
            if screen.game.waiting_for_human:
                await pilot.press(str(screen.game.state.position.index(".") + 1))
            await pilot.pause(0.01)
        await pilot.pause()
        await snap_walk(pilot, "test_noughts_after_a_game_against_menace")
        await pilot.press("escape")
        await settle(pilot, lambda: isinstance(app.screen, SetupScreen), "the setup screen")

        await start(pilot, "nim", "learning", first="p2")
        await settle(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.game.waiting_for_human
                     and "draws the ball" in " ".join(app.screen.query_one("#log").lines), "the AI's first draw")
        await snap_walk(pilot, "test_nim_screen_with_the_learning_ais_hats")


async def test_walk_from_the_analysis_of_a_trained_brain_to_the_training_screen_after_a_finished_run(snap_walk,
                                                                                                     data_dir):
    """The snapshots test_analysis_screen_of_a_trained_brain and test_training_screen_after_a_finished_run (the
    brain and curve of one seeded run) in one app session: each is the screen it was."""
    brain, points = seeded_training()
    games = points[-1].games
    with Store.open(data_dir) as store:
        store.save_brain("default", brain, games_trained=points[-1].games)
        store.save_training_curve("default", points, 20)
    app = make_app(data_dir)
    async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
        await pilot.pause()
        app.action_analysis()
        await pilot.pause()
        await no_blink(pilot)
        await snap_walk(pilot, "test_analysis_screen_of_a_trained_brain")
        await pilot.press("escape")
        await pilot.pause()

        app.session.brain.counts[:] = brain.counts
        app.session.training.points = list(points)
        app.session.training.last_result = TrainingResult(
            brain=brain, opponent=brain, games_played=games, games_requested=games, seconds=2.0,
            wins_first=0, wins_brain=0, cancelled=False, curve=list(points), rules=SticksRules(20))
        app.session.training.running = False
        app.action_show_training()
        await pilot.pause()
        app.training = TrainingProgress(games, games, 2.0, 0, brain.counts.copy(), points[-1].agreement,
                                        points[-1].win_vs_perfect, finished=True)
        await pilot.pause()
        await snap_walk(pilot, "test_training_screen_after_a_finished_run")
