"""Make the README's screenshot from the app itself: `python docs/screenshots/make.py`.

The game screen against the learning AI with the MENACE-like hats (3 balls each, a win adds 3, a loss
takes 1), after two games at 20 sticks, so its hats show what the games changed. Everything that
could differ between runs is fixed: the app's seed, a fresh temporary data and config folder, the
moves played, the timer that fades the sticks just taken. So running it again gives the same file
byte for byte when the screen has not changed; `tests/unit/test_docs.py` checks that it does.
Run it again (and commit the SVG) whenever the game screen changes on purpose.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAME_SVG = HERE / "game.svg"
SIZE = (100, 30)
SEED = 3


def perfect(heap: int) -> int:
    """Leave the AI 1, 5, 9, ... sticks (where that cannot be done, take 1)."""
    return (heap - 1) % 4 or 1


def one(heap: int) -> int:
    return 1


#: How the person (Player 1, "Ann", who moves first) plays each game, one after the other: with this
#: seed the AI loses the first (its hats lose balls) and wins the second (↑: 3 more balls each).
GAMES = (perfect, one)


async def _until(pilot, condition, what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the screenshot script timed out waiting for {what}")
        await asyncio.sleep(0.01)
    await pilot.pause()


async def _game_screen(path: Path) -> None:
    from sticks_tui.ui.app import SticksApp
    from sticks_tui.ui.boards import sticks as sticks_board

    leave, sticks_board.LEAVE_SECONDS = sticks_board.LEAVE_SECONDS, 10_000  # the sticks just taken stay faded
    try:
        with tempfile.TemporaryDirectory() as tmp:
            await _play_and_shoot(SticksApp, Path(tmp), path)
    finally:
        sticks_board.LEAVE_SECONDS = leave  # as it was (the tests run this in a process that goes on)


async def _play_and_shoot(app_class, tmp: Path, path: Path) -> None:
    from sticks_tui.store.settings import Settings, save_settings, settings_path

    data, config = tmp / "data", tmp / "config"
    config.mkdir()
    save_settings(Settings(hats="menace", name1="Ann"), settings_path(config))
    app = app_class(data_dir=str(data), config_dir=str(config), seed=SEED, ai_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+s")
        await _until(pilot, lambda: hasattr(app.screen, "game"), "the game screen")
        for number, strategy in enumerate(GAMES):
            if number:
                await pilot.press("n")
                await _until(pilot, lambda: not app.screen.game.is_over, "a new game")
            game = app.screen.game
            while not game.is_over:
                await _until(pilot, lambda: game.waiting_for_human or game.is_over, "Ann's turn")
                if not game.is_over:
                    await pilot.press(str(strategy(game.state.position)))
        await pilot.pause()
        app.save_screenshot(filename=path.name, path=str(path.parent))


def make(path: Path = GAME_SVG) -> Path:
    """Write the game screen's screenshot to `path` (an SVG) and return it."""
    asyncio.run(_game_screen(path))
    return path


if __name__ == "__main__":
    out = make(Path(sys.argv[1]) if len(sys.argv) > 1 else GAME_SVG)
    print(f"wrote {out}")
