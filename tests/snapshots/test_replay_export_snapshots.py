"""Snapshots at 80x24 of the replay screen and the export dialog (with and without a refusal).

Frozen as in test_snapshots.py (its autouse `frozen` fixture: time zone, the store's clock, the
database's shown location); the export dialog proposes a fixed folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, Select

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from sticks_tui.ui.screens import export_dialog as export_module
from test_snapshots import SIZE, T0, frozen, make_app, no_blink, settle  # noqa: F401 - frozen is an autouse fixture

DOCUMENTS = Path("/home/ann/Documents")


@pytest.fixture
def data_dir(tmp_path):
    return str(tmp_path / "data")


@pytest.fixture(autouse=True)
def documents(monkeypatch):
    monkeypatch.setattr(export_module, "default_export_dir", lambda: DOCUMENTS)


@pytest.fixture
def recorded(data_dir) -> int:
    """A game of 20 sticks that the learning AI won, with its hats as they were (hat 7 and 14 learned)."""
    with Store.open(data_dir) as store:
        brain = Hats(100)
        brain.counts[7] = [5, 2, 1]
        brain.counts[14] = [1, 6, 2]
        brain.counts[18] = [2, 1, 4]
        store.save_brain("default", brain)
        gid = store.record_game(start=20, opponent="learning", players=("Ann", "Learning AI"),
                                moves=[2, 3, 3, 3, 2, 2, 2, 2, 1], loser=0, brain="default",
                                learning={1: ("default", [(18, 3), (12, 3), (7, 2), (3, 2)])}, played_at=T0)
    return int(gid)


async def to_records(pilot, gid: int) -> None:
    pilot.app.action_records()
    await pilot.pause()
    screen = pilot.app.screen
    games = screen.query_one("#games", DataTable)
    games.focus()
    games.move_cursor(row=games.get_row_index(str(gid)))
    await pilot.pause()


async def test_walk_through_a_replay_then_the_export_dialog_and_its_refusal(snap_walk, data_dir, recorded):
    """The snapshots test_replay_at_the_ais_draw, test_replay_after_the_game, test_export_dialog and
    test_export_dialog_refusal in one app session: each is the screen it was."""
    app = make_app(data_dir)
    async with app.run_test(size=SIZE, tooltips=True, notifications=True) as pilot:
        await to_records(pilot, recorded)
        records = app.screen
        await pilot.press("enter")
        for _ in range(6):  # Ann 2, AI 3 (hat 18), Ann 3, AI 3 (hat 12), Ann 2, then the AI's draw from hat 7
            await pilot.press("right")
        await pilot.pause()
        await snap_walk(pilot, "test_replay_at_the_ais_draw")
        await pilot.press("end")
        await pilot.pause()
        await snap_walk(pilot, "test_replay_after_the_game")
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is records

        await pilot.press("e")
        await no_blink(pilot)
        await snap_walk(pilot, "test_export_dialog")
        await settle(pilot, lambda: isinstance(pilot.app.screen, export_module.ExportDialog), "the dialog")
        dialog = pilot.app.screen
        dialog.query_one("#export-what", Select).value = "games"
        await pilot.pause()
        path = dialog.query_one("#export-path", Input)
        path.value = str(DOCUMENTS / "missing" / "games.csv")
        await settle(pilot, lambda: path.value.endswith("missing/games.csv"), "the path typed")
        await pilot.click("#export-go")
        await settle(pilot, lambda: dialog.query_one("#export-error").display, "the refusal")
        await no_blink(pilot)
        await snap_walk(pilot, "test_export_dialog_refusal")
