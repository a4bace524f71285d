"""The projector's class view at the sizes its page gives the terminal (web/static/sticks.js, measured in
Chromium): 1280x720 at 24 px is 91x22 cells, 1920x1080 at 31 px is 106x27. Everything on it fits: the sticks
hats with the last game's marks, the leaderboard's first ten of fourteen, the curve, the latest games.

Frozen: the store's clock and the timezone (every game at 12:30 UTC on 2024-05-01), the app's seed."""

from __future__ import annotations

import os
import time

import pytest

from sticks_tui import vocabulary
from sticks_tui.store import Store
from sticks_tui.store import connection as store_connection
from sticks_tui.ui.app import SticksApp

PROJECTOR_720P = (91, 22)
PROJECTOR_1080P = (106, 27)
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned"]


@pytest.fixture(autouse=True)
def frozen(monkeypatch, tmp_path):
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))
    old_tz = os.environ.get("TZ")
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(store_connection, "clock", lambda: "2024-05-01T12:30:00.000000+00:00")
    yield
    if old_tz is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old_tz
    time.tzset()


def class_at_7_sticks(data_dir: str) -> SticksApp:
    """Fourteen pupils' games against the learning AI at 7 sticks (it wins one in two), then the projector."""
    with Store.open(data_dir) as store:
        store.load_or_create_brain("default", vocabulary.APP_BRAIN_SIZE)
        for i, name in enumerate(NAMES):
            for k in range(i % 3 + 1):
                if (i + k) % 2:  # the AI wins, drawing 1 from hat 6 then from hat 2
                    store.record_game(start=7, opponent="learning", players=(name, "Learning AI"),
                                      moves=[1, 1, 3, 1, 1], loser=0, brain="default",
                                      learning={1: ("default", [(6, 1), (2, 1)])})
                else:  # the AI loses, drawing 1 from hat 5 then from hat 1
                    store.record_game(start=7, opponent="learning", players=(name, "Learning AI"),
                                      moves=[2, 1, 3, 1], loser=1, brain="default",
                                      learning={1: ("default", [(5, 1), (1, 1)])})
    return SticksApp(data_dir=data_dir, seed=7, ai_delay=0, trained_games=2000, idle_training=False,
                     role="projector", view="class")


async def test_walk_the_projector_at_1280x720_then_at_1920x1080(snap_walk, tmp_path):
    """The snapshots test_the_projector_at_1280x720 and test_the_projector_at_1920x1080 in one app session, the
    page resized between them (as a projector's browser window is): each is the screen it was."""
    app = class_at_7_sticks(str(tmp_path / "data"))
    async with app.run_test(size=PROJECTOR_720P, tooltips=True, notifications=True) as pilot:
        await snap_walk(pilot, "test_the_projector_at_1280x720")
        await pilot.resize_terminal(*PROJECTOR_1080P)
        await pilot.pause()
        await snap_walk(pilot, "test_the_projector_at_1920x1080")
