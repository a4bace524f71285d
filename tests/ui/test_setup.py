"""The setup screen: what it refuses (with the reason shown), what it starts, and watch mode."""

from __future__ import annotations

from textual.widgets import Input, Select, Switch

from sticks_tui.store import Store
from sticks_tui.ui.screens import game as game_module
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.setup import SetupScreen
from ui_helpers import log_text, start_game, text_of, wait_until

HEAP_ERROR = "Please enter a number between 10 and 100."


async def test_bad_heaps_are_refused_inline_and_a_good_one_starts(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        heap = setup.query_one("#heap", Input)
        assert heap.value == "20" and app.focused is heap  # Enter alone would start at once
        for typed in ("500", "abc"):
            heap.value = ""
            await pilot.press(*typed, "enter")
            assert heap.value == typed
            assert app.screen is setup, f"{typed!r} started a game"
            assert text_of(setup, "#heap-error") == HEAP_ERROR
        heap.value = "3"
        await pilot.press("enter")
        assert app.screen is setup and text_of(setup, "#heap-error") == HEAP_ERROR
        # typing again clears the message, and a heap in range starts the game
        heap.value = ""
        await pilot.press("1", "0")
        assert text_of(setup, "#heap-error") == ""
        await pilot.press("enter")
        game = app.screen
        assert isinstance(game, GameScreen)
        assert game.game.state.heap == 10 and game.setup.opponent == "learning"  # the defaults
        assert text_of(game, "#count") == "There are 10 sticks on the board."
        assert "Game 1: 10 sticks on the board. Player 1 moves first." in log_text(game)
        # escape goes back to setup, which remembers the last choices
        await pilot.press("escape")
        assert isinstance(app.screen, SetupScreen)


async def test_watch_mode_needs_an_ai_and_names_must_differ(make_app, data_dir):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await start_game(pilot, heap=12, opponent="friend", watch=True)
        assert isinstance(setup, SetupScreen)
        assert text_of(setup, "#heap-error") == "To watch AI vs AI, choose an AI opponent."
        assert app.focused is setup.query_one("#opponent", Select)

        setup = await start_game(pilot, heap=12, opponent="friend", name1="Sam", name2=" sam ")
        assert isinstance(setup, SetupScreen)
        assert text_of(setup, "#heap-error") == "The two players need different names."
        assert app.focused is setup.query_one("#name1", Input)
        with Store.open(data_dir) as store:
            assert store.game_count() == 0


async def test_watch_ai_vs_ai_plays_itself_and_pauses(make_app, data_dir, monkeypatch):
    monkeypatch.setattr(game_module, "WATCH_NEXT_GAME", 0.5)  # the pause between watched games
    due = []  # each time the "next watched game" timer fires
    original = GameScreen._next_watched_game

    def next_watched_game(self):
        due.append(self.round)
        original(self)

    monkeypatch.setattr(GameScreen, "_next_watched_game", next_watched_game)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        setup.query_one("#watch", Switch).value = True
        await pilot.pause()
        assert setup.query_one("#name1", Input).value == "Learning AI"
        assert setup.query_one("#name2", Input).value == "Learning AI 2"
        game = await start_game(pilot, heap=10, opponent="learning", watch=True)
        assert isinstance(game, GameScreen)
        await wait_until(pilot, lambda: game.game.is_over, what="the watched game to end")
        assert all(button.disabled for button in game.query(".take"))
        loser = game.game.state.loser
        names = [p.name for p in game.players]
        assert text_of(game, "#turn") == f"{names[loser]} took the last stick and loses. {names[1 - loser]} wins!"
        # space pauses before the next game; the game on screen stays over
        await pilot.press("space")
        assert game.paused
        await wait_until(pilot, lambda: due, what="the time for the next game")
        assert game.round == 1 and game.game.is_over  # it came, and no game started
        await pilot.press("space")  # going on starts the next game at once
        assert game.round == 2
    with Store.open(data_dir) as store:
        games = store.recent_games()
    assert games and games[-1].ai_seats == (0, 1) and games[-1].brain is None


async def test_a_person_cannot_take_an_ais_name_and_typed_names_survive_watch_mode(make_app, data_dir):
    from textual.widgets import Input, Label, Switch

    from sticks_tui.ui.screens.setup import SetupScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.query_one("#name1", Input).value = "Alice"
        screen.query_one("#watch", Switch).value = True
        await pilot.pause()
        assert screen.query_one("#name1", Input).value == "Learning AI"
        screen.query_one("#watch", Switch).value = False
        await pilot.pause()
        assert screen.query_one("#name1", Input).value == "Alice"
        screen.query_one("#name1", Input).value = "perfect ai"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        assert "is an AI's name in the records" in str(screen.query_one("#heap-error", Label).render())
