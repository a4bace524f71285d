"""Several copies teaching one brain at once lose nothing: the brain is the sum of its games.

Real processes run `sticks-tui classic --mode computer --brain shared` (the line game), each
playing its own games against the shared brain. Afterwards a fresh brain with every recorded
game's learning applied in record order (computed here with `Hats.reinforce`) equals the stored
brain. Before the store applied each game to the brain as stored, the last copy to save won:
two copies of 150 games kept 481 of the 822 balls their games added.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes")

# "1" answers a take, "y" the play-again question; each wrong answer is asked again, so this
# stream plays game after game (the person always takes 1) until the input ends.
ANSWERS = "10\n" + "1\ny\n" * 120


def run_copies(data, n: int) -> None:
    env = dict(os.environ, STICKS_TUI_DATA_DIR=str(data))
    Store.open(data).close()
    procs = [subprocess.Popen([sys.executable, "-m", "sticks_tui", "classic", "--mode", "computer", "--brain",
                               "shared", "--no-hats", "--seed", str(seed)], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
             for seed in range(n)]
    for p in procs:
        p.stdin.write(ANSWERS)
        p.stdin.close()
    for p in procs:
        err = p.stderr.read()
        assert p.wait(timeout=300) == 0, err
        assert "Traceback" not in err and "sticks-tui:" not in err, err


def sum_of_games(store: Store) -> Hats:
    """A fresh brain with every recorded game's learning applied, in record order."""
    brain = Hats(10)
    for game in reversed(store.recent_games(limit=1_000_000)):
        for lesson in game.learning:
            assert lesson.brain == "shared"
            changes = brain.reinforce(list(lesson.drawn), lesson.won)
            assert tuple((c.hat, c.ball, c.before, c.after) for c in changes) == lesson.changes
    return brain


#: Four copies at once: every two of them race as two copies would (a run of two copies, beside this one, cost
#: two processes more, 0.6 CPU s, for no race four do not have).
@pytest.mark.parametrize("copies", [4])
def test_copies_playing_at_once_keep_every_games_learning(tmp_path, copies):
    run_copies(tmp_path, copies)
    with Store.open(tmp_path) as store:
        games = store.game_count()
        assert games >= copies * 10
        stored = store.load_brain("shared")
        expected = sum_of_games(store)
        assert np.array_equal(stored.counts, expected.counts), (stored.counts - expected.counts).tolist()
        assert store.brain_info("shared").games_trained == 0  # games against people teach it, train it not
        assert sum(bool(g.learning) for g in store.recent_games(limit=1_000_000)) == games  # every game taught it
        assert store.rebuild_brain("shared") == stored
        assert {g.learning[0].seat for g in store.recent_games(limit=10_000)} == {1}
