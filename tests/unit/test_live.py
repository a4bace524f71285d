"""The class, live (ui/live.py): a tab's one cheap check sees what another connection stored, says whose
game it was and which cells of the class's brain it changed, and plays on with the brain as stored."""

from __future__ import annotations

import numpy as np

from sticks_tui.store import Store
from sticks_tui.ui.live import ClassWatch
from sticks_tui.ui.session import Session


def tab(data_dir):
    """A tab's session as the app holds it: its store open and the class's brain read."""
    session = Session.create(str(data_dir), seed=1)
    session.store = Store.open(data_dir)
    session.brain = session.store.load_or_create_brain("default", 20)
    session.brain_name, session.brain_kept, session.brain_base = "default", True, session.brain.counts.copy()
    def adopt(counts) -> None:  # the app's adopt_stored_counts
        session.brain.counts[:] = counts
        session.brain_base = counts.copy()

    return session, adopt


def test_a_classmates_game_is_seen_marked_and_adopted(tmp_path):
    me, adopt = tab(tmp_path)
    watch = ClassWatch()
    watch.start(me.store)
    assert watch.check(me, adopt=adopt) is None  # nothing written by anyone: one PRAGMA, nothing read
    with Store.open(tmp_path) as classmate:
        # the learning AI beats Ann at 7 sticks: it drew 1 from hat 6, then 1 from hat 2 (a win: +1 each)
        classmate.record_game(start=7, opponent="learning", players=("Ann", "Learning AI"), moves=[1, 1, 3, 1, 1],
                              loser=0, brain="default", learning={1: ("default", [(6, 1), (2, 1)])})
    change = watch.check(me, adopt=adopt)
    assert change is not None
    assert [g.players for g in change.games] == [("Ann", "Learning AI")]
    assert change.cells == ((2, 1, 1), (6, 1, 1))
    assert change.words == "Ann's game: hat 6, ball 1 ↑; hat 2, ball 1 ↑"
    with Store.open(tmp_path) as store:
        assert np.array_equal(me.brain.counts, store.load_brain("default").counts)
    assert watch.check(me, adopt=adopt) is None  # seen once


def test_this_tabs_own_game_is_not_a_classmates_and_a_training_run_is_said(tmp_path):
    me, adopt = tab(tmp_path)
    watch = ClassWatch()
    watch.start(me.store)
    me.store.record_game(start=5, opponent="friend", players=("Me", "You"), moves=[3, 1, 1], loser=0)
    with Store.open(tmp_path) as classmate:
        classmate.record_game(start=5, opponent="friend", players=("Bo", "Cy"), moves=[3, 1, 1], loser=0)
        trained = classmate.load_brain("default")
        start = trained.counts.copy()
        trained.counts[9, 0] += 4
        classmate.apply_training("default", start, trained.counts)
    change = watch.check(me, adopt=adopt)
    assert [g.players for g in change.games] == [("Bo", "Cy")]  # not this tab's own game
    assert change.cells == ((9, 1, 4),)
    assert change.news == "Bo and Cy's game"  # the records say it; over the hats, only what changed them
    assert change.words == "the class's brain changed: hat 9, ball 1 ↑"
    with Store.open(tmp_path) as classmate:  # a run alone is nobody's game
        trained = classmate.load_brain("default")
        start = trained.counts.copy()
        trained.counts[4, 1] += 2
        classmate.apply_training("default", start, trained.counts)
    change = watch.check(me, adopt=adopt)
    assert change.games == () and change.words == "the class's brain changed: hat 4, ball 2 ↑"


def test_after_an_older_backup_is_restored_a_new_game_is_still_seen(tmp_path):
    from sticks_tui.store.backups import make_backup

    me, adopt = tab(tmp_path)
    with Store.open(tmp_path) as classmate:
        classmate.record_game(start=5, opponent="friend", players=("Ann", "Di"), moves=[3, 1, 1], loser=0)
        older = make_backup(classmate.path, "start")
        for name in ("Bo", "Cy"):
            classmate.record_game(start=5, opponent="friend", players=(name, "Di"), moves=[3, 1, 1], loser=0)
    watch = ClassWatch()
    watch.start(me.store)  # has seen game 3
    with Store.open(tmp_path) as teacher:
        teacher.restore_backup(older.name)  # game ids go on from 1 again: the next game is 2
    change = watch.check(me, adopt=adopt)  # the restore is said as one, never its games as just played
    said = f"the teacher restored the back-up of {older.made_at.astimezone():%H:%M}"
    assert change.games == () and change.words == change.news == change.restored == said
    with Store.open(tmp_path) as classmate:
        classmate.record_game(start=5, opponent="friend", players=("Eve", "Di"), moves=[3, 1, 1], loser=0)
    assert watch.check(me, adopt=adopt).news == "Eve and Di's game"


def test_a_tab_with_its_own_unsaved_change_is_not_overwritten(tmp_path):
    me, adopt = tab(tmp_path)
    watch = ClassWatch()
    watch.start(me.store)
    me.brain.counts[3, 0] += 1  # learned here, not saved yet: the next save merges it; never thrown away now
    mine = me.brain.counts.copy()
    with Store.open(tmp_path) as classmate:
        classmate.record_game(start=5, opponent="friend", players=("Bo", "Cy"), moves=[3, 1, 1], loser=0)
    change = watch.check(me, adopt=adopt)
    assert change.news == "Bo and Cy's game" and change.words == "" and change.cells == ()
    assert np.array_equal(me.brain.counts, mine)
