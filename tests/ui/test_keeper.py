"""The kept brain (issue 17 item 3, ui/keeper.py): one failure behaviour for every game. When the store
cannot take what a brain learned (here: another tab put a brain that does not fit under its name), the
app says why, the game is kept without its lesson, the stored brain is never written over and the app
says so, and the AI keeps what it learned in memory.

Before the keeper the games differed: a Nim game whose lesson failed was not kept at all, and a sticks
training run the store refused was saved whole without a word about why."""

from __future__ import annotations

import numpy as np

from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig, train
from sticks_tui.store import Store
from sticks_tui.vocabulary import nim_brain_name
from ui_helpers import MessageLog, play_out, set_up, wait_until

NIM = nim_brain_name()


def said(log, text: str) -> int:
    return sum(text in n for n in log.notifications())


async def test_a_store_failure_leaves_the_stored_brain_as_it_was_and_says_so(make_app, data_dir):
    app = make_app()
    log = MessageLog()
    async with app.run_test(size=(80, 24), message_hook=log) as pilot:
        # (1, 1, 1), the learning AI first: the brain is stored now
        screen = await set_up(pilot, "nim", opponent="learning", first="p2", start=(1, 1, 1))
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="the person's turn")
        store = app.session.store
        # another tab puts brains that do not fit these copies under both names meanwhile
        nim_squatter, sticks_squatter = Hats(10), Hats(30, 5)
        with Store.open(data_dir) as other:
            for name, squatter in ((NIM, nim_squatter), ("default", sticks_squatter)):
                other.delete_brain(name)
                other.save_brain(name, squatter, games_trained=5)
        hats = screen.brains[1].brain
        before = hats.counts.copy()

        # Nim: a game whose lesson the store cannot take
        await play_out(pilot, screen)
        await wait_until(pilot, lambda: log.notifications(), what="the app saying the lesson was not kept")
        await pilot.pause()
        assert store.game_count() == 1 and store.recent_games(limit=1)[0].game == "nim"  # the game is kept
        assert store.load_brain(NIM) == nim_squatter and store.brain_info(NIM).games_trained == 5
        assert said(log, "Not kept with the game") == 1  # why: the store's reason first
        assert said(log, "left as it is") == 1  # then that the stored brain is left as it is
        assert not np.array_equal(hats.counts, before)  # it learned, in memory

        # sticks: a training run the store cannot merge
        brain = app.session.brain
        app.session.training.start_counts = brain.counts.copy()
        result = train(TrainingConfig(sticks=12, games=300, seed=3), brain=brain.copy())
        app._keep_training(result)  # what the end of a background run does
        await wait_until(pilot, lambda: said(log, "left as it is") == 2, what="the app saying the brain is kept")
        assert said(log, "Not kept with the training run") == 1
        assert store.load_brain("default") == sticks_squatter and store.brain_info("default").games_trained == 5
        # nothing else taught the hats in play meanwhile: merged in memory, they are the trained copy
        assert np.array_equal(brain.counts, result.brain.counts)
