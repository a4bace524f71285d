"""`sticks-tui nim solve` and `nim train`: answers, JSON, and exit status 2 on bad piles."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sticks_tui.cli import main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_221(capsys):
    code, out, _ = run(["nim", "solve", "2", "2", "1"], capsys)
    assert code == 0
    assert out.startswith("Yes") and "take 1 quarter, leaving (2, 2, 0)" in out


def test_solve_337_json(capsys):
    code, out, _ = run(["nim", "solve", "3", "3", "7", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["piles"] == [3, 3, 7]
    assert data["winning"] is True
    assert data["moves"] == [[2, 7]]
    assert "take 7 quarters" in data["reason"]


def test_solve_lost_position_json(capsys):
    code, out, _ = run(["nim", "solve", "1", "2", "3", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["winning"] is False and data["moves"] == [] and data["reason"].startswith("No")


@pytest.mark.parametrize("argv, message", [
    (["101", "2", "3"], "between 0 and 100"),
    (["-1", "2", "3"], "between 0 and 100"),
    (["x", "2", "3"], "whole number"),
    (["1.5", "2", "3"], "whole number"),
    (["1", "2"], "required"),
])
def test_solve_bad_piles_exit_2_with_a_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["nim", "solve", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_nim_without_an_action_exits_2(capsys):
    code, _, err = run(["nim"], capsys)
    assert code == 2 and "solve or train" in err


def test_solve_in_a_real_process_has_no_traceback():
    bad = subprocess.run([sys.executable, "-m", "sticks_tui", "nim", "solve", "200", "0", "0"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "between 0 and 100" in bad.stderr
    good = subprocess.run([sys.executable, "-m", "sticks_tui", "nim", "solve", "2", "2", "1", "--json"],
                          capture_output=True, text=True)
    assert good.returncode == 0 and json.loads(good.stdout)["moves"] == [[2, 1]]


def test_train_json_reports_agreement(capsys):
    code, out, _ = run(["nim", "train", "--games", "300000", "--piles", "5", "6", "7", "--seed", "1", "--json"],
                       capsys)
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 300_000 and data["piles"] == [5, 6, 7]
    assert data["positions"] == 6 * 7 * 8 - 1
    assert data["agreement"] == 1.0 and data["disagreeing"] == []


def test_train_text(capsys):
    code, out, _ = run(["nim", "train", "--games", "1000", "--piles", "2", "2", "1", "--seed", "1"], capsys)
    assert code == 0 and "agreement with the table" in out


@pytest.mark.parametrize("argv", [["--piles", "8", "11", "1"], ["--games", "-5"], ["--piles", "1", "2"]])
def test_train_bad_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["nim", "train", *argv])
    assert exc.value.code == 2


def test_train_empty_piles_exit_2(capsys):
    code, _, err = run(["nim", "train", "--piles", "0", "0", "0"], capsys)
    assert code == 2 and "at least one coin" in err


def test_train_json_has_the_learning_curve(capsys):
    from sticks_tui.learn.batches import checkpoints

    code, out, _ = run(["nim", "train", "--games", "3000", "--piles", "3", "3", "3", "--seed", "2", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert [p["games"] for p in data["curve"]] == checkpoints(3000)
    assert data["curve"][-1]["agreement"] == data["agreement"]
    assert data["curve"][-1]["win_vs_perfect_first"] is None  # not computed for Nim
