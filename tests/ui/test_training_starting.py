"""While the first run after an install compiles the fast trainer, the training screen says so, with the seconds
measured on this machine and those gone, instead of a bare "Starting ..." (issue 33 item 7). The cache is
declared cold and the real (warm) load held until the screen is read: no seconds of compiling in the suite."""

from __future__ import annotations

import threading

from textual.widgets import Static

from sticks_tui.learn import compiled
from sticks_tui.ui.screens.training import TrainDialog, TrainingScreen
from ui_helpers import wait_until


async def test_the_training_screen_says_it_prepares_the_fast_trainer_once(make_app, monkeypatch, tmp_path):
    path = tmp_path / "sticks-tui-compile.json"
    path.write_text('{"seconds": 7.2}')
    monkeypatch.setattr(compiled, "record_path", lambda: path)
    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.setattr(compiled, "_cache_cold", lambda newest=None: True)
    gate = threading.Event()
    real_warm = compiled._warm

    def held(name, fresh):
        gate.wait(30)
        real_warm(name, fresh)

    monkeypatch.setattr(compiled, "_warm", held)
    app = make_app()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("f2")
            await wait_until(pilot, lambda: isinstance(app.screen, TrainDialog), what="the train dialog")
            await pilot.click("#go")
            await wait_until(pilot, lambda: isinstance(app.screen, TrainingScreen), what="the training screen")
            status = app.screen.query_one("#training-status", Static)
            await wait_until(pilot, lambda: "Preparing" in str(status.render()), what="the compile's notice")
            assert str(status.render()).startswith("Preparing the fast trainer (once, about 7 s): ")
            gate.set()
            await wait_until(pilot, lambda: app.session.training.last_result is not None, timeout=60,
                             what="the run to end")
            assert "Preparing" not in str(status.render())
    finally:
        gate.set()
