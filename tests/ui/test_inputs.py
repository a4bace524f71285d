"""Keys that arrive together take effect in the order they were pressed (Textual issue #6605): a pupil's
browser on a slow network, or a busy machine, hands the app several key presses at once."""

from __future__ import annotations

import ast
from pathlib import Path

from textual import events

from parsed import parsed
import sticks_tui
from sticks_tui.ui.screens.game import GameScreen
from sticks_tui.ui.widgets.inputs import Input

PACKAGE_DIR = Path(sticks_tui.__file__).parent


def burst(app, keys: list[str]) -> None:
    """Post the keys to the app as its terminal driver does, without waiting between them."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


async def test_edits_and_digits_posted_at_once_give_the_typed_heap_and_two_enters_in_one_burst_start_one_game(
        make_app):
    """One app session holding the promises:
    1. edits and digits posted at once give the typed heap (Enter came last: the game of '10' starts);
    2. two Enters in one burst start one game: the second reaches the setup screen's box after the game was
       pushed, and must not start another."""
    from sticks_tui.ui.screens.setup import SetupScreen

    app = make_app(ai_delay=60)
    async with app.run_test(size=(80, 24)) as pilot:
        # 1. edits and digits
        await pilot.pause()
        assert app.focused.id == "heap" and app.focused.value == "20"
        burst(app, ["end", *["backspace"] * 4, "1", "0", "0", "left", "left", "delete", "enter"])
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen), "Enter came last: the game of '10' starts"
        assert screen.setup.start == 10
        await pilot.press("escape")  # no move made yet: straight back
        assert isinstance(app.screen, SetupScreen) and app.focused.id == "heap"

        # 2. two Enters in one burst
        burst(app, ["enter", "enter"])
        await pilot.pause()
        await pilot.pause()
        assert [type(screen).__name__ for screen in app.screen_stack][1:] == ["SetupScreen", "GameScreen"]


def test_every_text_box_of_the_app_is_the_ordered_one():
    """No module builds Textual's own Input (its editing keys run late); only widgets/inputs.py imports it."""
    offenders = []
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        # a module that imports Input names it: the others' syntax trees need no walk (a third of the package)
        if path.name == "inputs.py" or "Input" not in path.read_text(encoding="utf-8"):
            continue
        for node in ast.walk(parsed(path)):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
                if any(alias.name == "Input" for alias in node.names):
                    offenders.append(f"{path.relative_to(PACKAGE_DIR)}:{node.lineno}")
    assert offenders == []
    assert issubclass(Input, __import__("textual.widgets", fromlist=["Input"]).Input)
