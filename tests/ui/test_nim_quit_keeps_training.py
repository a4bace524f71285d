"""Quitting while the Nim AI trains keeps what the run learned so far (issue 17 item 3), as quitting
during the sticks AI's background run does."""

from __future__ import annotations

import numpy as np

from sticks_tui.store import Store
from sticks_tui.ui.session import nim_brain_name

from test_nim_hats_screen import open_nim
from ui_helpers import wait_until


async def test_quitting_mid_nim_run_keeps_what_it_learned(make_app, data_dir, monkeypatch):
    from sticks_tui.ui.screens import nim as nim_module

    real = nim_module.nim_run

    def paced(*args, **kwargs):  # the real run at 400 games a second, so that quitting finds it mid-way
        run = real(*args, **kwargs)

        def wrapped(progress, control):
            control.set_pace(400)
            return run(progress, control)

        return wrapped

    monkeypatch.setattr(nim_module, "nim_run", paced)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_nim(pilot)
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.game.is_over, what="the end of the game")
        stored = Store.open(data_dir)
        before = stored.load_brain(nim_brain_name()).counts.copy()
        trained_before = stored.brain_info(nim_brain_name()).games_trained
        stored.close()
        screen.action_train_nim()
        await wait_until(pilot, lambda: "Training the Nim AI: " in str(screen.query_one("#nim-training").render())
                         and " of 500,000" in str(screen.query_one("#nim-training").render()), timeout=60,
                         what="the run under way")
        await wait_until(pilot, lambda: app.session.nim_brain is not None and screen._nim_job.running
                         and screen._nim_job.control is not None, what="the job")
        await pilot.pause(0.3)  # a few dozen games at the pace
        await app.quit_now()
    with Store.open(data_dir) as store:
        info = store.brain_info(nim_brain_name())
        after = store.load_brain(nim_brain_name()).counts
    assert 0 < info.games_trained - trained_before < 500_000  # part of the run, kept
    assert not np.array_equal(after, before)
