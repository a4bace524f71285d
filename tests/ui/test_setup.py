"""The setup screen: what it refuses (with the reason shown), what it starts, and watch mode."""

from __future__ import annotations

import pytest
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
        assert game.game.state.position == 10 and game.setup.opponent == "learning"  # the defaults
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
        assert text_of(setup, "#heap-error") == "'Sam' and 'sam' are the same name: change one."
        assert app.focused is setup.query_one("#name1", Input)
        with Store.open(data_dir) as store:
            assert store.game_count() == 0


async def test_watch_ai_vs_ai_plays_itself_and_pauses(make_app, data_dir, monkeypatch):
    monkeypatch.setattr(game_module, "WATCH_NEXT_GAME", 30)  # the pause between watched games: the test is faster
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        setup.query_one("#watch", Switch).value = True
        await pilot.pause()
        assert setup.query_one("#name1", Input).value == "Learning AI"
        assert setup.query_one("#name2", Input).value == "Learning AI 2"
        game = await start_game(pilot, heap=10, opponent="learning", watch=True)
        assert isinstance(game, GameScreen)
        # the game, then its lesson at a beat of its own
        await wait_until(pilot, lambda: game.game.is_over and not game.lessons, what="the watched game and its lesson")
        assert all(button.disabled for button in game.query(".take"))
        loser = game.game.state.loser
        names = [p.name for p in game.players]
        result = f"{names[loser]} took the last stick and loses. {names[1 - loser]} wins!"
        assert text_of(game, "#turn") == result
        assert game._beat_timer is not None  # the next game is due
        # space pauses before the next game, and the screen says so for as long as it lasts
        await pilot.press("space")
        assert game.paused and game._beat_timer is None
        assert text_of(game, "#turn") == result + " Paused: s starts the next game, space goes on."
        await pilot.pause()
        assert game.round == 1 and game.game.is_over
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
        assert str(screen.query_one("#heap-error", Label).render()) == \
            "'perfect ai' is the Perfect AI's name: choose another."


# -- settings that last (issue 10) ------------------------------------------------------------------
def saved(config_dir):
    from sticks_tui.store.settings import load_settings

    settings, notices = load_settings(config_dir / "settings.toml")
    assert notices == []
    return settings


async def test_the_setup_screen_opens_with_the_saved_choices(make_app, config_dir):
    from sticks_tui.store.settings import Settings, save_settings

    save_settings(Settings(games={"sticks": {"start": 33, "opponent": "friend"}}, name1="Ada", name2="Grace",
                           first="p2", ai_speed="fast"), config_dir / "settings.toml")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert setup.query_one("#heap", Input).value == "33"
        assert setup.query_one("#opponent", Select).value == "friend"
        assert setup.query_one("#name1", Input).value == "Ada"
        assert setup.query_one("#name2", Input).value == "Grace"
        assert setup.query_one("#first", Select).value == "p2"
        assert setup.query_one("#speed", Select).value == "fast"
        await pilot.press("enter")  # the heap box has the focus: the saved game starts
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.game.state.position == 33 and app.screen.game.current.name == "Grace"


async def test_every_change_on_the_setup_screen_is_saved_at_once(make_app, config_dir):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert not (config_dir / "settings.toml").exists()  # opening changes nothing
        setup.query_one("#heap", Input).value = "9"  # a bad heap is not kept
        await pilot.pause()
        assert not (config_dir / "settings.toml").exists()
        setup.query_one("#heap", Input).value = "42"
        setup.query_one("#opponent", Select).value = "friend"
        await pilot.pause()
        setup.query_one("#name1", Input).value = "Ada"
        setup.query_one("#name2", Input).value = "Grace"
        setup.query_one("#first", Select).value = "alternate"
        setup.query_one("#speed", Select).value = "slow"
        await pilot.pause()
        kept = saved(config_dir)  # read while the app still runs: saved at once, not at quitting
        sticks = kept.of("sticks")
        assert (sticks.start, sticks.opponent, kept.name1, kept.name2, kept.first, kept.ai_speed) == \
            (42, "friend", "Ada", "Grace", "alternate", "slow")
        setup.query_one("#opponent", Select).value = "perfect"  # an AI's name is not a person's to keep
        await pilot.pause()
        assert saved(config_dir).name2 == "Grace" and saved(config_dir).of("sticks").opponent == "perfect"
        setup.query_one("#game", Select).value = "nim"  # each game keeps its own start and opponent
        await pilot.pause()
        setup.query_one("#pile-2", Input).value = "6"
        setup.query_one("#opponent", Select).value = "random"
        await pilot.pause()
        kept = saved(config_dir)
        assert kept.game == "nim" and (kept.of("nim").start, kept.of("nim").opponent) == ((3, 4, 6), "random")
        assert (kept.of("sticks").start, kept.of("sticks").opponent) == (42, "perfect")
        setup.query_one("#game", Select).value = "sticks"  # back: the sticks game as it was left
        await pilot.pause()
        assert setup.query_one("#heap", Input).value == "42" and setup.query_one("#opponent", Select).value == "perfect"


async def test_a_broken_settings_file_is_told_in_one_line_kept_aside_and_the_defaults_used(make_app, config_dir):
    config_dir.mkdir(parents=True)
    (config_dir / "settings.toml").write_text("heap = [[[ not toml\n")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        notices = [n.message for n in app._notifications]
        assert len(notices) == 1 and "\n" not in notices[0] and "damaged" in notices[0], notices
        assert app.screen.query_one("#heap", Input).value == "20"
    kept = [p.name for p in config_dir.iterdir()]
    assert "settings.toml" not in kept and len(kept) == 1  # kept aside under another name, never deleted
    assert (config_dir / kept[0]).read_text() == "heap = [[[ not toml\n"


async def test_who_moves_first_lists_the_names_as_typed(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = app.screen
        setup.query_one("#opponent", Select).value = "friend"
        await pilot.pause()
        first = setup.query_one("#first", Select)
        first.value = "p2"
        setup.query_one("#name1", Input).value = "Ada"
        setup.query_one("#name2", Input).value = "Grace"
        await pilot.pause()
        labels = [str(prompt) for prompt, _ in first._options]
        assert "Ada" in labels and "Grace" in labels and "Player 1" not in labels, labels
        assert first.value == "p2"  # renaming keeps the choice
        setup.query_one("#opponent", Select).value = "dumb"
        await pilot.pause()
        assert "Dumb AI" in [str(prompt) for prompt, _ in first._options]


@pytest.mark.parametrize("game", ["sticks", "nim", "noughts"])
async def test_a_saved_opponent_the_game_does_not_offer_opens_the_setup_screen_on_the_games_default(make_app,
                                                                                                  config_dir, game):
    """A settings file (an old one, or edited by hand) may name, for a game, an opponent another game has: the
    setup screen opens on the game's default opponent, said in one line, never a crash."""
    from sticks_tui.engine import registry
    from sticks_tui.vocabulary import every_opponent

    offered = registry.entry(game).opponents
    other = next(kind for kind in every_opponent() if kind not in offered)
    config_dir.mkdir(parents=True)
    (config_dir / "settings.toml").write_text(f'version = 2\ngame = "{game}"\n[games.{game}]\nopponent = "{other}"\n')
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = app.screen
        assert setup.game_kind == game
        assert setup.query_one("#opponent", Select).value == registry.entry(game).default_opponent
        assert any(f"games.{game}.opponent" in n.message for n in app._notifications)


async def test_a_browser_tab_never_writes_the_shared_settings_file(make_app, config_dir, monkeypatch):
    """`sticks-tui serve`: every tab of a class shares one config directory; a student's name stays in the tab."""
    from sticks_tui.ui.app import SticksApp

    monkeypatch.setattr(SticksApp, "is_web", property(lambda self: True))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()  # the setup screen has read the settings (after its first refresh): typing is kept now
        app.screen.query_one("#name1", Input).value = "Ada"
        app.screen.query_one("#heap", Input).value = "31"
        await pilot.pause()
        assert app.settings.name1 == "Ada" and app.settings.of("sticks").start == 31  # held for the tab
    assert not (config_dir / "settings.toml").exists()


# -- one name rule (issue 16 item 3): the store's, asked before the game -----------------------------------
REFUSED_NAMES = [
    ("friend", "Ａnn", "ann", "'Ａnn' and 'ann' are the same name: change one.", "#name1"),
    ("dumb", "Ｄumb AI", "Player 2", "'Ｄumb AI' is the Dumb AI's name: choose another.", "#name1"),
    ("friend", "Ann", "Ｐerfect AI", "'Ｐerfect AI' is the Perfect AI's name: choose another.", "#name2"),
    ("friend", "ﬁona", "Nim Ｌearning AI", "'Nim Ｌearning AI' is an AI's name: choose another.", "#name2"),
]


async def test_names_the_store_would_refuse_are_refused_before_the_game(make_app, data_dir):
    """Each pair of REFUSED_NAMES in turn on one setup screen: refused with the reason, the focus on the
    name to change, no game started or recorded."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for opponent, name1, name2, message, box in REFUSED_NAMES:
            setup = await start_game(pilot, heap=10, opponent=opponent, name1=name1, name2=name2)
            assert isinstance(setup, SetupScreen), name1  # no game was started
            assert text_of(setup, "#heap-error") == message
            assert app.focused is setup.query_one(box, Input), name1
    with Store.open(data_dir) as store:
        assert store.game_count() == 0


async def test_a_name_an_ai_has_in_the_records_is_refused_before_the_game(make_app, data_dir):
    with Store.open(data_dir) as store:  # an AI of another program, kept in these records
        store.record_game(start=10, opponent="bot", players=("Ann", "Robo"), moves=[3, 3, 3, 1], loser=1)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await start_game(pilot, heap=10, opponent="friend", name1="ROBO", name2="Bea")
        assert isinstance(setup, SetupScreen)
        assert text_of(setup, "#heap-error") == "'ROBO' is an AI's name in the records: choose another."
    with Store.open(data_dir) as store:
        assert store.game_count() == 1
