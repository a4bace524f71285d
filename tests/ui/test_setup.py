"""The setup screen: what it refuses (with the reason shown), what it starts, and watch mode."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Label, Select, Switch

from sticks_tui.store import Store
from sticks_tui.ui.screens import game as game_module
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.setup import SetupScreen
from ui_helpers import log_text, start_game, text_of, wait_until

HEAP_ERROR = "Please enter a number between 10 and 100."


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


# -- walks: the setup screen's refusals and savings; the seeds' rule and the Watch switch in words (issue 33 item 7)


async def test_what_the_setup_screen_saves_and_refuses_in_one_walk(make_app, data_dir, config_dir):
    """One app session on a fresh settings folder and records holding one game of an AI of another program
    ("Robo"), holding the promises:
    1. every change on the setup screen is saved at once (opening changes nothing; a bad heap is not kept; an
       AI's name is not a person's to keep; each game keeps its own start and opponent);
    2. who moves first lists the names as typed (renaming keeps the choice);
    3. names the store would refuse (REFUSED_NAMES) are refused before the game, the focus on the name to change;
    4. a name an AI has in the records is refused before the game;
    5. watch mode needs an AI, and names must differ;
    6. a person cannot take an AI's name, and typed names survive watch mode;
    and no game was recorded by any of it (the records still hold Robo's one game)."""
    with Store.open(data_dir) as store:  # an AI of another program, kept in these records
        store.record_game(start=10, opponent="bot", players=("Ann", "Robo"), moves=[3, 3, 3, 1], loser=1)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. every change saved at once
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
        assert (sticks.start, sticks.opponent, kept.name1, kept.name2, sticks.first, kept.ai_speed) == \
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

        # 2. who moves first, in the names typed
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

        # 3. each pair of REFUSED_NAMES in turn
        for opponent, name1, name2, message, box in REFUSED_NAMES:
            setup = await start_game(pilot, heap=10, opponent=opponent, name1=name1, name2=name2)
            assert isinstance(setup, SetupScreen), name1  # no game was started
            assert text_of(setup, "#heap-error") == message
            assert app.focused is setup.query_one(box, Input), name1

        # 4. a name an AI has in the records
        setup = await start_game(pilot, heap=10, opponent="friend", name1="ROBO", name2="Bea")
        assert isinstance(setup, SetupScreen)
        assert text_of(setup, "#heap-error") == "'ROBO' is an AI's name in the records: choose another."

        # 5. watch mode needs an AI; names must differ
        setup = await start_game(pilot, heap=12, opponent="friend", watch=True)
        assert isinstance(setup, SetupScreen)
        assert text_of(setup, "#heap-error") == "To watch AI vs AI, choose an AI opponent."
        assert app.focused is setup.query_one("#opponent", Select)

        setup = await start_game(pilot, heap=12, opponent="friend", name1="Sam", name2=" sam ")
        assert isinstance(setup, SetupScreen)
        assert text_of(setup, "#heap-error") == "'Sam' and 'sam' are the same name: change one."
        assert app.focused is setup.query_one("#name1", Input)

        # 6. a person cannot take an AI's name; typed names survive watch mode
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
    with Store.open(data_dir) as store:
        assert store.game_count() == 1  # Robo's game only: nothing refused was started or recorded


async def test_from_the_defaults_a_heap_the_seeds_warning_and_watching_the_ai_play_itself(make_app, data_dir,
                                                                                          config_dir, monkeypatch):
    """One app session from the defaults, holding the promises:
    1. bad heaps are refused inline (the reason shown), typing clears it, and a good one starts; Escape goes back;
    2. a new seeds' brain says why a loss shows no change, F8 gives MENACE-like hats (saved), and the Watch switch
       says on or off in words;
    3. watching AI vs AI: it plays itself, its lesson at a beat of its own, space pauses before the next game
       and says so, space goes on; the game is kept with both seats the AI's."""
    monkeypatch.setattr(game_module, "WATCH_NEXT_GAME", 30)  # the pause between watched games: the test is faster
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. bad heaps, then a good one
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

        # 2. the seeds' warning and F8 (and the Watch switch in words)
        assert text_of(setup, "#watch-help") == "off: a person plays Player 1's seat"
        setup.query_one("#watch", Switch).value = True
        await pilot.pause()
        assert text_of(setup, "#watch-help") == "on: the learning AI plays Player 1's seat"
        # who moves first shows the watching seats' names (the choice kept: Player 1's seat, its words anew)
        assert str(setup.query_one("#first").query_one("SelectCurrent #label").render()) == "Learning AI"
        setup.query_one("#watch", Switch).value = False
        await pilot.pause()
        setup.query_one("#heap", Input).focus()
        intro = text_of(setup, "#setup-intro")
        assert "A new AI's losses change nothing (=) until it first wins: each hat starts with one ball of each " \
               "number and never loses the last. Press F8 for MENACE-like hats (3 balls each), where every loss " \
               "shows." in " ".join(intro.split()), intro
        await pilot.press("f8")  # the heap box has the focus: the key still works
        await pilot.pause()
        assert app.session.brain_name == "menace" and app.session.brain.rule.start_balls == 3
        assert setup.query_one("#hats", Select).value == "menace" and saved(config_dir).of("sticks").brain == "menace"
        assert "F8" not in text_of(setup, "#setup-intro")
        setup.query_one("#hats", Select).value = "seeds"  # back to the seeds' brain: once it has won, no warning
        await pilot.pause()
        app.session.brain.counts[20, 0] = 2
        setup.query_one("#game", Select).value = "nim"
        await pilot.pause()
        setup.query_one("#game", Select).value = "sticks"
        await pilot.pause()
        assert app.session.brain_name == "default" and "F8" not in text_of(setup, "#setup-intro")

        # 3. watching AI vs AI
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
