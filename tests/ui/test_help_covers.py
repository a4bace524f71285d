"""F1 covers every registered game and the lab, on every screen that has help (issue 33 item 7): the games'
sections come from the registry (a board's own, or one made from the entry), the lab's from the help."""

from __future__ import annotations

from textual.widgets import Static

from sticks_tui.engine import registry
from sticks_tui.ui.screens.help import HelpScreen
from sticks_tui.ui.screens.lab import LabScreen
from ui_helpers import start_game, wait_until


def help_text(screen) -> str:
    return "\n".join(str(s.render()) for s in screen.query(Static)).lower()


def covers_every_game(text: str) -> list[str]:
    """The games whose name the help never says (empty: it covers them all)."""
    return [e.name for e in registry.entries() if e.title.lower() not in text]


async def open_help(pilot):
    await pilot.press("f1")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen), what="the help")
    await pilot.pause()
    return pilot.app.screen


async def test_help_on_setup_the_game_and_the_lab_covers_every_game_and_the_lab(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert {"sticks", "nim", "noughts", "hexapawn"} <= set(registry.names())
        text = help_text(await open_help(pilot))  # the setup screen's
        assert covers_every_game(text) == [] and "the learning lab (f7)" in text
        await pilot.press("escape")
        await start_game(pilot, heap=10, opponent="learning")
        text = help_text(await open_help(pilot))  # the game screen's
        assert covers_every_game(text) == [] and "the learning lab (f7)" in text
        await pilot.press("escape")
        await pilot.press("escape")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "SetupScreen", what="the setup screen")
        await pilot.press("f7")
        await wait_until(pilot, lambda: isinstance(app.screen, LabScreen), what="the lab")
        text = help_text(await open_help(pilot))  # the lab's own help, and the games it races learners on
        assert "the table's columns" in text and covers_every_game(text) == []
