"""A screen does its work once: the footer is rebuilt when the keys it shows change and only then, and a
new screen is styled with its width class (-narrow, -wide) from the start, not styled again on its first
resize."""

from __future__ import annotations

from textual.widgets import Button
from textual.widgets._footer import FooterKey

from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.screens.help import HelpScreen
from sticks_tui.ui.widgets.footer import KeysFooter
from ui_helpers import start_game


def shown(footer: KeysFooter) -> dict[str, str]:
    """The keys the footer shows: action -> label, read from its FooterKey widgets."""
    return {key.action: key.description for key in footer.query(FooterKey)}


async def test_the_footer_is_rebuilt_when_a_label_changes_and_not_when_only_the_focus_moves(make_app):
    app = make_app(ai_delay=60)  # nothing moves by itself: only the steps
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_game(pilot, heap=10, opponent="learning", watch=True)
        assert isinstance(screen, GameScreen)
        footer = screen.query_one(KeysFooter)
        keys = list(footer.query(FooterKey))
        assert shown(footer)["pause"] == "Pause"
        buttons = [b for b in screen.query(Button) if b.focusable]
        for button in buttons[:2]:  # the focus moves; the keys stay as they were
            button.focus()
            await pilot.pause()
            assert screen.focused is button
            assert list(footer.query(FooterKey)) == keys, "the footer was rebuilt though its keys did not change"
        await pilot.press("s")  # the first step pauses: the label says what the key does now
        assert screen.paused
        assert shown(footer)["pause"] == "Resume"
        assert list(footer.query(FooterKey)) != keys


async def test_a_new_screen_has_its_width_class_before_it_is_mounted(make_app):
    app = make_app()
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-wide")
        screen = HelpScreen()
        app.push_screen(screen)
        assert screen.has_class("-wide") and not screen.has_class("-narrow")  # before its mount and first resize
        await pilot.pause()
        assert app.screen is screen and screen.has_class("-wide")
