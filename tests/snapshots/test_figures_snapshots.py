"""The figures after a run at 20 sticks on the app's brain of 100 hats (issue 16 item 1), on the game
screen: the run ends while a game at 20 sticks is on, and its notification gives the agreement over
heaps 2-20, and the hats in play show what the run taught them. (The training and analysis screens after the same kind of run: test_snapshots.py.)

The run is a seeded one handed to the app as the worker would (`_training_finished`), with its
seconds fixed, so the notification's speed does not move."""

from __future__ import annotations

from sticks_tui.engine.events import TrainingProgress
from sticks_tui.engine.rules import SticksRules
from sticks_tui.learn.trainer import TrainingResult
from test_snapshots import SIZE, data_dir, frozen, make_app, play, seeded_training  # noqa: F401 - fixtures


def test_game_screen_when_a_run_at_20_sticks_ends(snap_compare, data_dir):  # noqa: F811
    brain, points = seeded_training()
    games = points[-1].games

    async def run_before(pilot):
        await play(pilot, moves=1)
        app = pilot.app
        state = app.session.training
        state.start_counts = app.session.brain.counts.copy()
        state.rules = SticksRules(20)
        state.running = True
        # as the worker reports a run's end: its last progress, then its result
        app.training = TrainingProgress(games, games, 2.0, 0, brain.counts.copy(), points[-1].agreement,
                                        points[-1].win_vs_perfect, finished=True)
        await pilot.pause()
        app._training_finished(TrainingResult(
            brain=brain, opponent=brain, games_played=games, games_requested=games, seconds=2.0, wins_first=0,
            wins_brain=0, cancelled=False, curve=list(points), rules=SticksRules(20)))
        await pilot.pause()
        assert app.session.brain == brain  # the app plays on with the brain as stored, the run merged on

    assert snap_compare(make_app(data_dir), terminal_size=SIZE, run_before=run_before)
