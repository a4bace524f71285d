"""The screens' header survives a title change while its screen is being taken down."""
from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Header
from textual.widgets._header import HeaderTitle

from sticks_tui.ui.widgets.header import AppHeader


def header_app(header_class):
    class TitleApp(App):
        def compose(self) -> ComposeResult:
            yield header_class()

    return TitleApp()


@pytest.mark.parametrize("header_class", [AppHeader])
async def test_a_title_change_after_the_title_is_gone_is_skipped(header_class):
    app = header_app(header_class)
    async with app.run_test() as pilot:
        await app.query_one(HeaderTitle).remove()  # as when the screen is taken down
        app.title = "a new title"  # its watcher runs with no HeaderTitle left
        await pilot.pause()
        assert app.query_one(header_class).is_mounted


async def test_textuals_own_header_ends_the_app_there():
    """The reason for AppHeader: the same steps end an app that uses Textual's Header."""
    app = header_app(Header)
    with pytest.raises(Exception, match="HeaderTitle"):
        async with app.run_test() as pilot:
            await app.query_one(HeaderTitle).remove()
            app.title = "a new title"
            await pilot.pause()


def test_every_screen_uses_the_safe_header():
    import re
    from pathlib import Path

    screens = Path(__file__).parents[2] / "sticks_tui" / "ui" / "screens"
    users = [p.name for p in screens.glob("*.py") if re.search(r"(?<!App)Header\(\)", p.read_text(encoding="utf-8"))]
    assert users == []
