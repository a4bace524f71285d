"""The kept brain (issue 17 item 3, ui/keeper.py): one failure behaviour for every game. When the store
cannot take what a brain learned (here: another tab deleted the brain meanwhile), the stored brain is
never written (not saved whole, not made anew), the game is kept without its lesson, the AI keeps what
it learned in memory, and the app says why.

Before the keeper the games differed: a Nim game whose lesson failed was not kept at all, and a sticks
training run whose merge failed was saved whole, silently, making the deleted brain anew."""

from __future__ import annotations

import numpy as np

from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store
from sticks_tui.ui.session import nim_brain_name
from sticks_tui.ui.screens.nim import NimGameScreen
from sticks_tui.ui.session import MatchSetup
from ui_helpers import MessageLog, wait_until

NIM = nim_brain_name()


async def open_nim(pilot) -> NimGameScreen:
    """(1, 1, 1) against the learning AI, which moves first (as tests/ui/test_nim_hats_screen.py)."""
    app = pilot.app
    await pilot.pause()
    setup = MatchSetup(game="nim", piles=(1, 1, 1), opponent="learning", name2="Nim Learning AI", first="p2")
    app.call_later(lambda: app.push_screen(NimGameScreen(setup, (1, 1, 1))))
    await wait_until(pilot, lambda: isinstance(app.screen, NimGameScreen), what="the Nim screen")
    await pilot.pause()
    return app.screen


async def test_a_store_failure_leaves_the_stored_brain_as_it_was_and_says_so(make_app, data_dir):
    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        screen = await open_nim(pilot)  # (1, 1, 1), the learning AI first: the brain is stored now
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        store = app.session.store
        assert NIM in [b.name for b in store.list_brains()]
        with Store.open(data_dir) as other:  # another tab deletes both brains meanwhile
            other.delete_brain(NIM)
            other.delete_brain("default")
        before = app.session.nim_brain.counts.copy()

        # Nim: a game whose lesson the store cannot take
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.game.is_over, what="the end of the game")
        await wait_until(pilot, lambda: any(f"no brain called {NIM!r}" in n for n in log.notifications()),
                         what="the app saying why the Nim lesson was not kept")
        assert NIM not in [b.name for b in store.list_brains()]  # not made anew
        assert store.game_count() == 1 and store.recent_games(limit=1)[0].game == "nim"  # the game is kept
        assert not np.array_equal(app.session.nim_brain.counts, before)  # it learned, in memory

        # sticks: a training run the store cannot merge
        brain = app.session.brain
        app.session.training.start_counts = brain.counts.copy()
        result = train(TrainingConfig(sticks=12, games=300, seed=3), brain=brain.copy())
        app._keep_training(result)  # what the end of a background run does
        await wait_until(pilot, lambda: any("no brain called 'default'" in n for n in log.notifications()),
                         what="the app saying why the run was not kept")
        assert "default" not in [b.name for b in store.list_brains()]  # not made anew
        # nothing else taught the hats in play meanwhile: merged in memory, they are the trained copy
        assert np.array_equal(brain.counts, result.brain.counts)
