"""A pupil's tab's start (`sticks-tui serve`): no needless work, the same screen.

Focus: a tab (web/driver.py) keeps its focus until the page says it has lost it.

Textual's web driver tells the app, as it starts, that it has lost focus (an AppBlur of its own); the page gives
the terminal the keyboard once connected, and says so. Acting on both restyled the whole screen twice at every
tab's start (and took the focus away and back) for a screen that ends as it began. The app now acts only on the
focus and blur the page reports (marked by web/driver.py's PageDriver); a blur from the page still takes the
focus away, and the page's focus puts it back where it was.

Work done ahead: a tab forked from the warm process (web/warm.py) finds the command line's parser built
(cli.cached_parser) and the CSS of the app and every widget parsed (ui/shared_css.py): it parses none at start.

In-process: the warm process's preload, then Pilot's headless driver, starting as the web driver does (its own
AppBlur at start), and the page's focus and blur posted as PageDriver posts them (web/driver.py's page_event).
"""

from __future__ import annotations

from textual import events
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import Button

from sticks_tui.web.driver import PageDriver, page_event
from tests.ui.ui_helpers import wait_until, watch_restyles


class TabDriver(HeadlessDriver):
    """Pilot's headless driver starting as a tab's does: like Textual's web driver (start_application_mode's
    last line), it posts an AppBlur of its own as it starts, not the page's."""

    page_tells_focus = PageDriver.page_tells_focus

    def start_application_mode(self) -> None:
        super().start_application_mode()
        self._app.call_later(self._app.post_message, events.AppBlur())


def test_page_driver_marks_the_pages_focus_and_blur():
    focus, blur = page_event("focus"), page_event("blur")
    assert isinstance(focus, events.AppFocus) and focus.from_page is True
    assert isinstance(blur, events.AppBlur) and blur.from_page is True
    assert PageDriver.page_tells_focus is True


async def test_a_tab_started_after_the_warm_preload_keeps_its_focus_parses_no_css_and_follows_the_page(
        make_app, monkeypatch):
    """Promises, in one app session as a tab starts from the warm process: (0) the preload built the parser
    every tab uses, and parsed the CSS: the app's start parses no CSS source (every one it reads was parsed
    ahead), and the app's rules are the ones parsed ahead; (1) the driver's own blur at start is not acted on:
    the app keeps its focus, the setup screen's focused widget stays focused, and no node is restyled for it;
    (2) the page's focus then restyles nothing (nothing changed); (3) the page's blur takes the focus away
    (app_focus False, no widget focused) and restyles the screen, as Textual does; (4) the page's focus puts
    the focus back on the widget that had it."""
    from sticks_tui import cli
    from sticks_tui.ui.shared_css import SharedStylesheet
    from sticks_tui.web import warm

    # as in a fresh warm process: no parser built, no CSS parsed (the class's cache, for this test only)
    monkeypatch.setattr(cli, "_parser_built", None)
    monkeypatch.setattr(SharedStylesheet, "_parsed", {})
    warm.preload()
    assert cli._parser_built is not None and cli.cached_parser() is cli._parser_built[1]
    ahead = dict(SharedStylesheet._parsed)
    assert len(ahead) > 50
    app = make_app(role="pupil")
    app.driver_class = TabDriver
    async with app.run_test(headless=False, size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.screen.query(Button) and (app.screen.focused or not app.app_focus),
                         what="the setup screen, focused or blurred")
        # (0) nothing parsed at start; the rules of styles.tcss are the very ones parsed ahead
        assert isinstance(app.stylesheet, SharedStylesheet)
        assert SharedStylesheet._parsed == ahead
        (tcss,) = [rules for key, rules in ahead.items() if key[1][0].endswith("styles.tcss")]
        in_use = {id(rule) for rule in app.stylesheet.rules}
        assert all(id(rule) in in_use for rule in tcss)
        # (1) the driver's blur was posted as the app started, and handled before the setup screen was up
        assert app.app_focus is True
        focused = app.screen.focused
        assert focused is not None and focused.id == "heap"
        restyled = watch_restyles(monkeypatch)
        await pilot.pause()
        await pilot.pause()
        assert app.app_focus is True and app.screen.focused is focused
        assert restyled == []
        # (2) the page says it has focus: nothing to change
        app.post_message(page_event("focus"))
        await pilot.pause()
        assert app.app_focus is True and app.screen.focused is focused
        assert restyled == []
        # (3) the page really loses focus
        app.post_message(page_event("blur"))
        await wait_until(pilot, lambda: app.app_focus is False, what="the app blurred")
        assert app.screen.focused is None
        assert app.screen in restyled
        # (4) and gets it back
        app.post_message(page_event("focus"))
        await wait_until(pilot, lambda: app.app_focus is True, what="the app focused")
        assert app.screen.focused is focused
