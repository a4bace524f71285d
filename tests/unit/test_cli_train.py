"""`sticks-tui train`: the headless trainer for scripts and benchmarks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sticks_tui.cli import main
from sticks_tui.solve.sticks_hats import analyse
from sticks_tui.learn.hats import Hats
from sticks_tui.learn.trainer import TrainingConfig, train


def run_json(capsys, *args):
    assert main(["train", *args, "--json"]) == 0
    out = capsys.readouterr().out
    return json.loads(out)


def test_json_has_the_documented_keys(capsys):
    data = run_json(capsys, "--sticks", "12", "--games", "12345", "--seed", "3")
    for key in ("games", "seconds", "games_per_second", "hats", "agreement", "win_probability_vs_perfect"):
        assert key in data
    assert data["games"] == 12345
    assert data["seconds"] > 0
    assert data["games_per_second"] == pytest.approx(12345 / data["seconds"])
    hats = data["hats"]
    assert len(hats) == 13 and hats[0] == []
    assert [len(row) for row in hats[1:4]] == [1, 2, 3]
    assert all(len(row) == 3 for row in hats[3:])
    assert all(isinstance(c, int) and c >= 1 for row in hats for c in row)
    assert 0.0 <= data["agreement"] <= 1.0 and 0.0 <= data["win_probability_vs_perfect"] <= 1.0


def test_json_hats_are_the_brain_the_trainer_made(capsys):
    data = run_json(capsys, "--sticks", "15", "--games", "5000", "--seed", "9", "--protocol", "classic")
    result = train(TrainingConfig(sticks=15, games=5000, seed=9, protocol="classic"))
    assert data["hats"] == result.brain.as_lists()
    a = analyse(result.brain.counts)
    assert data["agreement"] == pytest.approx(a.agreement)
    assert data["win_probability_vs_perfect"] == pytest.approx(a.win_probability_vs_perfect)


@pytest.mark.parametrize("seed", ["0", "1"])
def test_train_20_sticks_100000_games_plays_perfectly(capsys, seed):
    data = run_json(capsys, "--sticks", "20", "--games", "100000", "--seed", seed)
    assert data["games"] == 100_000
    assert data["agreement"] == 1.0
    assert data["rule_matches_solution"] is True
    assert data["rule_discovered"] == "You lose if you face 1, 5, 9, ... sticks: n = 1 mod 4."
    brain = Hats.from_lists(data["hats"])
    assert analyse(brain.counts).plays_perfectly


def test_rule_options_reach_the_trainer(capsys):
    data = run_json(capsys, "--sticks", "10", "--games", "3000", "--seed", "1", "--floor", "nonempty",
                    "--start-balls", "2", "--reward", "3", "--penalty", "2", "--engine", "reference")
    assert data["rule"] == {"floor": "nonempty", "start_balls": 2, "win_reward": 3, "loss_penalty": 2}
    assert data["engine"] == "reference"
    assert any(c == 0 for row in data["hats"] for c in row)  # only 'nonempty' lets a count reach 0


def test_text_output_shows_the_hats_the_speed_and_the_analysis(capsys):
    assert main(["train", "--sticks", "12", "--games", "20000", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "20,000 training games at 12 sticks" in out
    assert "12 | {1: " in out and " 1 | {1: 1}" in out
    assert "games/s" in out
    # what each figure counts and what it is over (issue 33 item 6): the likeliest move and a ball drawn, over
    # the heaps; the chances in a game of 12 sticks, with why moving second never wins it
    assert "Over heaps 2-12, its likeliest move is a winning move in " in out
    assert "; a ball drawn at random is one " in out
    assert ("In a game of 12 sticks it beats a perfect player " in out
            and "(moving second at 12 sticks the perfect player wins every game: 0% is the rule, not the learner)" in out)
    assert "n = 1 mod 4" in out


@pytest.mark.parametrize(("args", "message"), [
    (["--sticks", "abc"], "--sticks must be a whole number, not 'abc'"),
    (["--sticks", "0"], "--sticks must be between 1 and 1,000, not 0"),
    (["--sticks", "5000"], "--sticks must be between 1 and 1,000"),
    (["--games", "-5"], "--games must be between 0 and 10,000,000, not -5"),
    (["--games", "lots"], "--games must be a whole number"),
    (["--games", "20000000"], "--games must be between 0 and 10,000,000"),
    (["--protocol", "bogus"], "invalid choice: 'bogus'"),
    (["--floor", "zero"], "invalid choice: 'zero'"),
    (["--seed", "-1"], "--seed must be between 0"),
    (["--penalty", "1.5"], "--penalty must be a whole number"),
])
def test_bad_arguments_exit_2_with_a_clear_message(capsys, args, message):
    with pytest.raises(SystemExit) as exited:
        main(["train", *args])
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "Traceback" not in captured.err + captured.out
    assert captured.out == ""


def test_bad_arguments_in_a_real_process_exit_2_without_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "sticks_tui", "train", "--sticks", "ten", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--sticks must be a whole number, not 'ten'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


# A real `sticks-tui train ... --json` process (the compiled engine) exits 0 and prints one JSON object, of the games
# asked: held by tests/unit/test_benchmarks_smoke.py's smoke runs of bench_cli.py and bench_vs_python.py, which run
# that very process and read its whole output as one JSON object (a test of its own here started a third).


def test_json_has_the_learning_curve(capsys):
    from sticks_tui.learn.batches import checkpoints

    data = run_json(capsys, "--sticks", "12", "--games", "5000", "--seed", "3")
    curve = data["curve"]
    assert [p["games"] for p in curve] == checkpoints(5000)
    assert set(curve[0]) == {"games", "agreement", "win_vs_perfect_first", "win_vs_perfect_second"}
    last = curve[-1]
    assert last["agreement"] == data["agreement"]
    assert last["win_vs_perfect_first"] == data["win_probability_vs_perfect_moving_first"]
    assert last["win_vs_perfect_second"] == data["win_probability_vs_perfect_moving_second"]
    assert curve[0]["agreement"] < last["agreement"]


def test_heaps_outside_the_apps_range_are_allowed_on_purpose_and_the_help_says_so(capsys):
    """The app offers 10-100 sticks (seed 000); the command line takes 1-1000 for experiments, and says so."""
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "deliberately takes 1-1000" in " ".join(capsys.readouterr().out.split())
    assert run_json(capsys, "--sticks", "5", "--games", "100", "--seed", "1")["games"] == 100
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--sticks", "1001", "--games", "10"])
    assert exit_.value.code == 2 and "between 1 and 1,000" in capsys.readouterr().err
