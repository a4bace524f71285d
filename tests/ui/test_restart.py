"""What a teacher left is what the next start shows (issue 33 item 2): every choice made on any screen is
saved at once, and a second app on the same data and config directories opens with each of them."""

from __future__ import annotations

from textual.widgets import Select, Switch

from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.widgets.inputs import Input
from ui_helpers import log_text, wait_until


def shown(select: Select) -> str:
    """The words a Select shows for its value."""
    return next(str(prompt) for prompt, value in select._options if value == select.value)


async def test_what_a_teacher_left_is_what_the_next_start_shows(make_app, config_dir):
    """... the theme chosen too: saved at once, used next time."""
    from sticks_tui.store.settings import load_settings

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        app.theme = "nord"  # what the command palette's theme picker does
        await pilot.pause()
        assert load_settings(config_dir / "settings.toml")[0].theme == "nord"  # saved at once
        app.session.store.copy_brain("default", "class 7b")  # a brain the class trained, kept in the store
        setup = app.screen
        setup.query_one("#game", Select).value = "noughts"  # noughts: MENACE moves first (it plays X)
        await pilot.pause()
        setup.query_one("#first", Select).value = "p2"
        await pilot.pause()
        assert shown(setup.query_one("#first", Select)) == "MENACE (X)"
        app.keeper.learner("noughts", 0)  # MENACE's X boxes, made in the store, copied for the class
        app.session.store.copy_brain("noughts MENACE", "7b MENACE")
        app.choose_brain("7b MENACE", game="noughts")  # (the analysis screen's pick, for any game)
        setup.query_one("#game", Select).value = "sticks"  # sticks: turns, watched, its heap
        await pilot.pause()
        assert setup.query_one("#first", Select).value == "p1"  # each game's own seats
        setup.query_one("#first", Select).value = "alternate"
        setup.query_one("#watch", Switch).value = True
        setup.query_one("#heap", Input).value = "17"
        await pilot.pause()

        await pilot.press("f4")  # the analysis screen: the class's brain put in play
        await wait_until(pilot, lambda: app.screen.query("#brain"), what="the analysis screen")
        app.screen.query_one("#brain", Select).value = "class 7b"
        await pilot.pause()
        assert app.session.brain_name == "class 7b"
        await pilot.press("escape")
        await pilot.pause()
        assert "class 7b" in shown(setup.query_one("#hats", Select))

        await pilot.press("f2")  # the train dialog's choices, kept without a run
        await wait_until(pilot, lambda: app.screen.query("#games"), what="the train dialog")
        dialog = app.screen
        dialog.query_one("#games", Input).value = "4321"
        dialog.query_one("#pace", Select).value = "20"
        dialog.query_one("#protocol", Select).value = "classic"
        dialog.query_one("#heap", Input).value = "15"
        await pilot.pause()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("f7")  # the lab's choices
        await wait_until(pilot, lambda: app.screen.query("#lab-seeds"), what="the lab")
        lab = app.screen
        lab.query_one("#lab-seeds", Input).value = "7"
        lab.query_one("#lab-cap", Input).value = "5000"
        lab.query_one("#lab-learners", Input).value = "hats  mc"
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()

        # the game screen's seats' switch: MENACE played X in the game; from the next game the person does
        setup.query_one("#game", Select).value = "noughts"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen), what="the noughts game")
        game = app.screen
        assert game.first == 1 and game.players[1].name == "MENACE"
        await pilot.press("f")
        await pilot.pause()
        assert "From the next game Player 1 moves first (X)." in log_text(game)
        game.action_back()  # (a game in progress: the screen asks first)
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is setup, what="the setup screen again")
        assert setup.query_one("#first", Select).value == "p1" and shown(setup.query_one("#first", Select)) == \
            "Player 1 (X)"
        setup.query_one("#game", Select).value = "sticks"
        await pilot.pause()

    again = make_app()  # the next start: a new app on the same data and config directories
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        setup = again.screen
        assert isinstance(setup, SetupScreen) and setup.game_kind == "sticks"
        assert again.theme == "nord"
        assert again.session.brain_name == "class 7b"  # the brain left in play plays
        assert "class 7b" in shown(setup.query_one("#hats", Select))
        assert setup.query_one("#heap", Input).value == "17"
        assert setup.query_one("#first", Select).value == "alternate"
        assert setup.query_one("#watch", Switch).value is True
        setup.query_one("#game", Select).value = "noughts"
        await pilot.pause()
        assert setup.query_one("#opponent", Select).value == "menace"
        assert setup.query_one("#first", Select).value == "p1" and shown(setup.query_one("#first", Select)) == \
            "Player 1 (X)"  # the seat switched on the game screen
        assert setup.query_one("#watch", Switch).value is False
        assert str(setup.query_one("#brain-in-play").render()) == "X: '7b MENACE', O: 'noughts MENACE O'"
        setup.query_one("#game", Select).value = "sticks"
        await pilot.pause()

        await pilot.press("f2")
        await wait_until(pilot, lambda: again.screen.query("#games"), what="the train dialog")
        dialog = again.screen
        assert [dialog.query_one(f"#{w}", Input).value for w in ("games", "heap")] == ["4321", "15"]
        assert (dialog.query_one("#pace", Select).value, dialog.query_one("#protocol", Select).value) == \
            ("20", "classic")
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("f7")
        await wait_until(pilot, lambda: again.screen.query("#lab-seeds"), what="the lab")
        lab = again.screen
        assert [lab.query_one(f"#{w}", Input).value for w in ("lab-seeds", "lab-cap", "lab-learners")] == \
            ["7", "5000", "hats mc"]


async def test_a_brain_left_in_play_that_is_gone_or_another_games_is_said_and_the_games_own_plays(make_app, config_dir):
    from sticks_tui.store.settings import Settings, save_settings

    save_settings(Settings().with_game("sticks", brain="gone 9a").with_game("nim", brain="default"),
                  config_dir / "settings.toml")  # (a file edited by hand: sticks' brain in Nim's table)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.session.brain_name == "default" and "nim" not in app.session.chosen
        notices = [n.message for n in app._notifications]
        assert "The brain 'gone 9a' left in play for sticks is not among the brains kept; the AI plays with " \
            "'default'." in notices
        assert any(n.startswith("The brain 'default' left in play for nim ") for n in notices), notices
        assert app.session.store.brain_info("gone 9a") is None  # never made again under the old name
