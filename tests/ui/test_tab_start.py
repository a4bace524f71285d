"""A pupil's tab's start (`sticks-tui serve`): work done once in the warm process, not in every tab.

A tab forked from the warm process (web/warm.py) finds the command line's parser built (cli.cached_parser) and
the CSS of the app and every widget parsed (ui/shared_css.py): it parses no CSS at start.

In-process: the warm process's preload, then the app started under Pilot as a tab's (a pupil, 100x30).
"""

from __future__ import annotations

from textual.widgets import Button

from tests.ui.ui_helpers import wait_until


async def test_a_tab_started_after_the_warm_preload_parses_no_css(make_app, monkeypatch):
    """Promises: the preload built the parser every tab uses; the app's stylesheet keeps its parses for the
    process; the app's start, to its setup screen, parses no CSS source (every one it reads was parsed ahead);
    the rules the app uses are the very ones parsed ahead (styles.tcss's)."""
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
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.screen.query(Button), what="the setup screen")
        await pilot.pause()
        assert isinstance(app.stylesheet, SharedStylesheet)
        assert SharedStylesheet._parsed == ahead
        (tcss,) = [rules for key, rules in ahead.items() if key[1][0].endswith("styles.tcss")]
        in_use = {id(rule) for rule in app.stylesheet.rules}
        assert all(id(rule) in in_use for rule in tcss)
