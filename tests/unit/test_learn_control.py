"""Steering a training run (`learn.control.TrainingControl`): pace, pause, step, cancel.

A run whose pace changes as it goes (slow games told one by one with the readable learner, fast
ones in compiled batches) leaves exactly the hats of a run that never changed pace.
"""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

from sticks_tui.learn import batches
from sticks_tui.learn import control as control_module
from sticks_tui.learn.control import BALL_BY_BALL, GameStory, TrainingControl, check_pace, pace_words
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.trainer import TrainingConfig, train


def _switching_run(config: TrainingConfig, monkeypatch, windows=((0, 40), (900, 1100), (1500, 1501)),
                   rule: HatRule = HatRule()):
    """Train with the pace switched between slow (1000 games/s) and full speed: slow inside each
    [start, end) window of game counts. Returns the result, the stories and every snapshot."""
    monkeypatch.setattr(batches, "PROGRESS_INTERVAL", 0.0)  # a report after every batch: the switch points are seen
    control = TrainingControl(pace=1000 if windows[0][0] == 0 else None)
    stories: list[GameStory] = []
    snapshots = []

    def progress(p) -> None:
        snapshots.append(p)
        done = p.games_done
        slow = any(start <= done < end for start, end in windows)
        control.set_pace(1000 if slow else None)

    result = train(config, Hats(config.rules, rule=rule), progress=progress, cancel=control, story=stories.append)
    return result, stories, snapshots


@pytest.mark.parametrize("protocol", ["explore", "classic"])
@pytest.mark.parametrize("rule", [HatRule(), HatRule(start_balls=3, win_reward=2, loss_penalty=1, floor="nonempty")],
                         ids=["seeds' rule", "start 3, +2/-1, nonempty"])
def test_changing_pace_leaves_the_hats_of_an_uninterrupted_run(monkeypatch, protocol, rule):
    # 1,600 games: past the last slow window (1500-1501); the readable engine's run is most of this test's time
    config = TrainingConfig(sticks=30, games=1600, seed=11, protocol=protocol)
    plain = train(config, Hats(30, rule=rule))
    reference = train(TrainingConfig(sticks=30, games=1600, seed=11, protocol=protocol, engine="reference"),
                      Hats(30, rule=rule))
    switched, stories, _ = _switching_run(config, monkeypatch, rule=rule)
    assert plain.engine == "kernel" and switched.engine == "kernel"
    assert np.array_equal(plain.brain.counts, reference.brain.counts)  # the two engines agree ...
    assert np.array_equal(switched.brain.counts, plain.brain.counts)  # ... and so does a run that switched
    assert np.array_equal(switched.opponent.counts, plain.opponent.counts)
    assert (switched.wins_first, switched.wins_brain, switched.games_played) == \
        (plain.wins_first, plain.wins_brain, plain.games_played)
    assert [p.games for p in switched.curve] == [p.games for p in plain.curve]
    assert [p.agreement for p in switched.curve] == [p.agreement for p in plain.curve]
    # the slow windows were really played one at a time, and told
    numbers = [s.number for s in stories]
    assert numbers[:40] == list(range(1, 41))
    assert any(900 < n <= 1101 for n in numbers) and len(numbers) < 1600


def test_the_reference_engine_honours_the_control_too(monkeypatch):
    config = TrainingConfig(sticks=15, games=600, seed=3, engine="reference")
    plain = train(config)
    switched, stories, _ = _switching_run(config, monkeypatch, windows=((0, 10), (300, 320)))
    assert switched.engine == "reference"
    assert np.array_equal(switched.brain.counts, plain.brain.counts)
    assert len(stories) >= 30


def test_each_story_is_exactly_the_change_between_two_snapshots(monkeypatch):
    config = TrainingConfig(sticks=20, games=60, seed=5, pace=1000)
    snapshots, stories = [], []
    result = train(config, progress=snapshots.append, story=stories.append)
    assert [s.number for s in stories] == list(range(1, 61))
    told = {p.story.number: p for p in snapshots if p.story is not None}
    assert sorted(told) == list(range(1, 61))  # every game rides on its own snapshot, the last on the final one
    assert told[60].finished and told[60].hats.tolist() == result.brain.counts.tolist()
    previous = snapshots[0].hats  # the report before any game
    for n in range(1, 61):
        snap, story = told[n], stories[n - 1]
        assert snap.games_done == n and snap.story is story
        expected = previous.copy()
        for change in story.changes[0]:
            assert expected[change.hat, change.ball - 1] == change.before
            expected[change.hat, change.ball - 1] = change.after
        assert np.array_equal(snap.hats, expected)
        previous = snap.hats
        # the story holds together: the draws alternate, start at the heap and end on the last stick
        assert story.draws[0][0] == story.first and story.draws[0][1] == story.start
        assert all(a[0] != b[0] for a, b in zip(story.draws, story.draws[1:], strict=False))
        assert story.draws[-1][1] == story.draws[-1][2]  # the last draw takes the last stick ...
        assert story.loser == story.draws[-1][0]  # ... and its taker loses
        # every move is told; a forced one (one stick left) draws nothing and teaches nothing
        assert {(c.hat, c.ball) for c in story.changes[0]} == {(h, b) for p, h, b in story.draws if p == 0 and h > 1}
        won = story.winner == 0
        assert all(c.after == c.before + 1 for c in story.changes[0 if won else 1])
        assert all(c.after == max(1, c.before - 1) for c in story.changes[1 if won else 0])


def _in_thread(config, control, **kwargs):
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("result", train(config, cancel=control, **kwargs)),
                              daemon=True)  # a failed test never leaves the process waiting on it
    thread.start()
    return thread, out


def _wait(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_paused_it_plays_only_the_games_stepped():
    control = TrainingControl()
    control.pause()
    stories = []
    thread, out = _in_thread(TrainingConfig(sticks=20, games=1_000_000, seed=1), control, story=stories.append)
    for n in range(1, 4):
        _wait(lambda: control.waiting)
        assert len(stories) == n - 1
        control.step()
        _wait(lambda n=n: len(stories) == n and control.waiting)
        assert control.paused and control.steps_pending == 0
    control.cancel()
    thread.join(10)
    assert not thread.is_alive()
    result = out["result"]
    assert result.cancelled and result.games_played == 3 and [s.number for s in stories] == [1, 2, 3]


def test_a_step_pauses_a_running_run_after_one_more_game():
    control = TrainingControl(pace=200)
    stories = []
    thread, out = _in_thread(TrainingConfig(sticks=20, games=1_000_000, seed=1), control, story=stories.append)
    _wait(lambda: len(stories) >= 2)
    control.step()
    _wait(lambda: control.waiting and control.steps_pending == 0)
    told = len(stories)
    control.resume()
    _wait(lambda: len(stories) > told + 2)  # resumed at its pace
    control.set_pace(None)  # full speed: the rest in batches
    thread.join(30)
    assert not thread.is_alive() and out["result"].games_played == 1_000_000 and not out["result"].cancelled


def test_a_cancel_wakes_a_paused_run_at_once(monkeypatch):
    # a waiting trainer would look again only in an hour: only the cancel itself can wake it
    monkeypatch.setattr(control_module, "WAIT_SLICE", 3600.0)
    control = TrainingControl(pace=1)
    control.pause()
    thread, out = _in_thread(TrainingConfig(sticks=20, games=100, seed=1), control)
    _wait(lambda: control.waiting)
    control.cancel()
    thread.join(10)  # a guard against hanging, not a measure: woken, it ends at once
    assert not thread.is_alive()
    assert out["result"].cancelled and out["result"].games_played == 0


def test_an_outside_cancel_check_stops_it_too():
    stop = threading.Event()
    control = TrainingControl(pace=1, cancelled_when=stop.is_set)
    thread, out = _in_thread(TrainingConfig(sticks=20, games=100, seed=1), control)
    _wait(lambda: control.waiting)  # between its games, a second apart
    stop.set()
    thread.join(5)
    assert not thread.is_alive() and out["result"].cancelled and out["result"].games_played == 1


class _Clock:
    """A clock that moves only when the trainer waits: a wait of t seconds moves it t at once."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def condition(self):
        clock = self

        class Condition:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def notify_all(self):
                pass

            def wait(self, timeout):
                clock.waits.append(timeout)
                clock.now += timeout
                return False

        return Condition()


def test_a_pace_is_kept(monkeypatch):
    """At 50 games a second each game starts 1/50 s after the one before, on the trainer's clock."""
    clock = _Clock()
    monkeypatch.setattr(control_module, "time", SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(control_module, "threading", SimpleNamespace(Condition=clock.condition))
    monkeypatch.setattr(batches, "time", SimpleNamespace(monotonic=clock.monotonic, perf_counter=time.perf_counter))
    started: list[float] = []
    result = train(TrainingConfig(sticks=10, games=6, seed=2, pace=50), story=lambda s: started.append(clock.now))
    assert result.games_played == 6 and not result.cancelled
    assert started == pytest.approx([0.0, 0.02, 0.04, 0.06, 0.08, 0.10])  # the first at once, then one per 1/50 s
    assert sum(clock.waits) == pytest.approx(0.10) and len(clock.waits) == 5  # and no wait after the last


def test_a_pace_set_in_the_config_alone_is_honoured_with_a_plain_cancel_check():
    stop = threading.Event()
    stories = []

    def story(s):
        stories.append(s)
        if s.number == 4:
            stop.set()

    result = train(TrainingConfig(sticks=10, games=100, seed=2, pace=1000), cancel=stop, story=story)
    assert result.cancelled and result.games_played == 4 and len(stories) == 4


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), 10_000, "5", True])
def test_a_bad_pace_is_refused_in_words(bad):
    with pytest.raises(ValueError, match="The pace is a number of games a second"):
        check_pace(bad)
    with pytest.raises(ValueError, match="The pace is a number of games a second"):
        TrainingConfig(pace=bad)
    with pytest.raises(ValueError, match="The pace"):
        TrainingControl().set_pace(bad)


def test_pace_words():
    assert pace_words(None) == "full speed"
    assert pace_words(1) == "1 game a second"
    assert pace_words(20) == "20 games a second"
    assert pace_words(0.5) == "0.5 games a second"


def test_toggle_and_resume_drop_pending_steps():
    control = TrainingControl(pace=5)
    control.step()
    control.step()
    assert control.paused and control.steps_pending == 2 and not control.full_speed
    assert control.toggle_pause() is False and control.steps_pending == 0
    control.set_pace(None)
    assert control.full_speed
    assert control.toggle_pause() is True and not control.full_speed
    control.resume()
    assert control.full_speed and not control() and not control.cancelled
    control.cancel()
    assert control() and control.cancelled


def test_leaving_full_speed_reports_every_game_before_it_waits():
    control = TrainingControl()
    snapshots, stories = [], []

    thread, out = _in_thread(TrainingConfig(sticks=50, games=10_000_000, seed=8), control,
                             progress=snapshots.append, story=stories.append)
    _wait(lambda: snapshots and snapshots[-1].games_done > 0)
    control.pause()  # from outside, between two reports (they come at most every 50 ms)
    _wait(lambda: control.waiting)
    done = snapshots[-1].games_done
    assert done > 0 and snapshots[-1].story is None
    control.step()
    _wait(lambda: len(stories) == 1 and control.waiting)
    assert stories[0].number == done + 1 and snapshots[-1].games_done == done + 1
    control.cancel()
    thread.join(10)
    assert out["result"].games_played == done + 1


def test_ball_by_ball_plays_a_game_only_when_the_watcher_lets_one_through():
    control = TrainingControl(pace=BALL_BY_BALL)
    assert control.by_ball and not control.full_speed and pace_words(BALL_BY_BALL) == "ball by ball"
    stories = []
    thread, out = _in_thread(TrainingConfig(sticks=20, games=100, seed=4, pace=BALL_BY_BALL), control,
                             story=stories.append)
    _wait(lambda: control.waiting)
    assert stories == []  # nothing is played until a game is let through
    control.release()
    _wait(lambda: len(stories) == 1 and control.waiting)
    # a game let through is never lost to a pause (a step's is: pausing drops pending steps)
    control.pause()
    control.release()
    _wait(lambda: control.waiting)
    assert control.paused and control.released_pending == 1 and len(stories) == 1  # paused: it waits
    control.toggle_pause()  # going on keeps it (toggling drops pending steps)
    _wait(lambda: len(stories) == 2 and control.waiting)
    assert [s.number for s in stories] == [1, 2] and control.released_pending == 0
    # leaving the pace drops what was let through for it
    control.pause()
    control.release()
    control.set_pace(5)
    assert control.released_pending == 0
    control.cancel()
    thread.join(10)
    assert out["result"].games_played == 2


def test_the_rate_is_measured_over_the_last_seconds_of_play():
    from sticks_tui.learn.control import RateWindow

    window = RateWindow()
    window.add(0.0, 0)  # the report before any game
    window.add(0.001, 1)  # a paced run's first game comes at once: no rate from it
    assert window.rate is None
    window.add(1.001, 2)
    window.add(2.001, 3)
    assert window.rate == pytest.approx(1.0)
    for g in range(4, 40):
        window.add(g - 0.999, g)
    assert window.rate == pytest.approx(1.0)
    window.restart()  # a pause: the time paused is not play
    window.add(100.0, 40)
    assert window.rate is None
    window.add(100.5, 1040)
    assert window.rate is None  # half a second of play is not enough to tell
    window.add(101.0, 2040)
    assert window.rate == pytest.approx(2000.0)


def test_a_step_while_a_released_game_waits_for_the_resume_plays_that_game_and_only_it():
    """Ball by ball, the watcher let game 1 through, then paused before the trainer took it: a step must
    play it (it used to wait for the resume, the step asking nothing), and no second game comes after."""
    control = TrainingControl(pace=BALL_BY_BALL)
    stories = []
    thread, out = _in_thread(TrainingConfig(sticks=20, games=100, seed=4, pace=BALL_BY_BALL), control,
                             story=stories.append)
    control.pause()
    control.release()
    _wait(lambda: control.waiting)
    assert stories == [] and control.released_pending == 1
    control.step()
    assert control.released_pending == 0 and control.steps_pending == 1
    _wait(lambda: len(stories) == 1 and control.waiting)
    assert control.paused and control.steps_pending == 0 and control.released_pending == 0
    control.cancel()
    thread.join(10)
    assert out["result"].games_played == 1
