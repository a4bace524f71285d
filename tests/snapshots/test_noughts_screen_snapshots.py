"""Snapshots at 80x24 of the noughts screen after a game against MENACE (the board with each of MENACE's
beads before → after under its marks, the log of its lesson) and of MENACE's matchboxes at its 2nd move
(issue 18). Fixed: the app's seed (MENACE's draws), no AI delay, the squares played (the first empty one).
Regenerate with `pytest tests/snapshots --snapshot-update`, then look at the SVGs."""

from __future__ import annotations

import asyncio
import time

from sticks_tui.ui.app import SticksApp
from sticks_tui.ui.screens.noughts import NoughtsScreen

SIZE = (80, 24)


def make_app(tmp_path) -> SticksApp:
    return SticksApp(data_dir=str(tmp_path / "data"), seed=11, ai_delay=0, idle_training=False)


async def play_a_game_against_menace(pilot) -> NoughtsScreen:
    screen = NoughtsScreen("menace", x_first=False)  # MENACE X, you O
    pilot.app.push_screen(screen)
    await pilot.pause()
    deadline = time.monotonic() + 20
    while not screen.over:
        assert time.monotonic() < deadline, "the game did not end"
        if screen.human_to_move:
            await pilot.press(str(screen.state.board.index(".") + 1))
        await asyncio.sleep(0.01)
        await pilot.pause()
    await pilot.pause()
    return screen


def test_noughts_after_a_game_against_menace(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))
    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=play_a_game_against_menace)


def test_menaces_boxes_at_its_second_move(snap_compare, tmp_path, monkeypatch):
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "config"))

    async def run_before(pilot):
        await play_a_game_against_menace(pilot)
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)
