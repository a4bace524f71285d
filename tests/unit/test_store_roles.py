"""A pupil's store (`sticks-tui serve`'s pupils' tabs) refuses every wipe, replace and restore: the last wall
behind the app's own (ui/roles.py), in the core, so no screen can forget it."""

from __future__ import annotations

import pytest

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, StoreError, TeacherOnly


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "data") as store:
        store.save_brain("default", Hats(20), games_trained=5)
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
        store.export_brain("default", tmp_path / "default.brain.json")
        yield store


def wipes(tmp_path):
    return {
        "reset the records": lambda s: s.reset_records(),
        "reset 'Ann'": lambda s: s.reset_player("Ann"),
        "reset the brain 'default'": lambda s: s.reset_brain("default"),
        "delete the brain 'default'": lambda s: s.delete_brain("default"),
        "rename the brain 'default'": lambda s: s.rename_brain("default", "old"),
        "import a brain": lambda s: s.import_brain(tmp_path / "default.brain.json", "other"),
        "start the brain 'default' anew": lambda s: s.save_brain("default", Hats(20), replace=True),
    }


@pytest.mark.parametrize("what", list(wipes(None)))
def test_a_pupils_store_refuses_every_wipe_and_changes_nothing(store, tmp_path, what):
    before = (store.load_brain("default"), store.brain_info("default").games_trained, store.game_count(),
              [p.name for p in store.leaderboard()], [b.name for b in store.list_brains()])
    store.pupil = True
    with pytest.raises(TeacherOnly) as refused:
        wipes(tmp_path)[what](store)
    assert str(refused.value) == f"Only the teacher can {what}. Nothing was changed."
    assert isinstance(refused.value, StoreError)  # every caller's `except StoreError` says it in a line
    assert (store.load_brain("default"), store.brain_info("default").games_trained, store.game_count(),
            [p.name for p in store.leaderboard()], [b.name for b in store.list_brains()]) == before


def test_a_pupils_store_still_plays_learns_and_copies(store):
    store.pupil = True
    store.record_game(start=5, opponent="friend", players=("Cy", "Di"), moves=[3, 1, 1], loser=1)
    hats = store.load_brain("default")
    hats.counts[5, 1] += 3
    store.save_brain("default", hats, base=store.load_brain("default").counts)  # a merge, not a replace
    store.copy_brain("default", "mine")
    store.load_or_create_brain("fresh", 20)
    assert store.game_count() == 2
    assert store.load_brain("mine").counts[5, 1] == hats.counts[5, 1]
    assert {b.name for b in store.list_brains()} == {"default", "mine", "fresh"}


def test_the_teachers_store_wipes(store):
    assert store.pupil is False  # the default: the terminal app and the command line
    store.reset_records()
    store.reset_brain("default")
    assert store.game_count() == 0 and store.brain_info("default").games_trained == 0
