"""`sticks-tui noughts solve` and `noughts train` (issue 18): answers, JSON, and exit status 2 with a
one-line reason on bad input."""

from __future__ import annotations

import io
import json
import os
import sys

import numpy as np
import pytest

from sticks_tui.cli import main
from sticks_tui.learn.batches import checkpoints


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("board, value, best", [
    (".........", "draw", list(range(1, 10))),
    ("X........", "draw", [5]),
    ("XX.OO....", "win", [3]),
    ("XX.OOX...", "draw", [3]),  # O to move: only the block at 3 holds
    ("....X..OX", "loss", [1, 2, 3, 4, 6, 7]),  # O to move and lost whatever it does: every square
    ("XXXOO....", "loss", []),
    ("XOXXOOOXX", "draw", []),
])
def test_solve_json(board, value, best, capsys):
    code, out, _ = run(["noughts", "solve", board, "--json"], capsys)
    data = json.loads(out)
    assert code == 0
    assert data["board"] == board and data["value"] == value and data["best"] == best


def test_solve_text(capsys):
    code, out, _ = run(["noughts", "solve", "XX.OO...."], capsys)
    assert code == 0
    assert out == "X X .\nO O .\n. . .\nX to move: X wins with best play on both sides.\nBest: square 3 (top right).\n"


@pytest.mark.parametrize("board, message", [
    ("XXO", "9 characters"),
    ("XX0OO....", "'0'"),
    ("OO.......", "O has more marks than X"),
    ("XXXOOO...", "Both X and O have three in a row"),
])
def test_solve_a_bad_board_exits_2_with_the_reason(board, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["noughts", "solve", board])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert message in err.splitlines()[-1] and "Traceback" not in err


def test_train_json(capsys):
    code, out, _ = run(["noughts", "train", "--games", "2000", "--opponent", "random", "--seed", "3", "--json"],
                       capsys)
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 2000 and data["engine"] == "kernel" and data["seed"] == 3
    assert sum(data["results"].values()) == 2000 and set(data["results"]) == {"win", "draw", "loss"}
    assert len(data["boxes"]) == 304
    assert data["boxes"][0]["board"] == "........." and len(data["boxes"][0]["counts"]) == 9
    assert [b["move"] for b in data["boxes"]].count(4) == 183
    assert [p["games"] for p in data["curve"]] == checkpoints(2000)
    last = data["curve"][-1]
    assert [last["win"], last["draw"], last["loss"]] == [data["results"][k] for k in ("win", "draw", "loss")]
    assert data["games_per_second"] > 0
    assert data["rule"] == {"beads": [12, 3, 2, 1], "incentives": [3, 1, -1], "empty": "resign"}  # the app's default


def test_train_options_reach_the_rule_and_the_reference_engine_agrees(capsys):
    argv = ["noughts", "train", "--games", "150", "--opponent", "menace", "--seed", "8", "--beads", "8,3,2,1",
            "--incentives=2,0,-2", "--empty", "refill", "--json"]
    _, out, _ = run(argv, capsys)
    fast = json.loads(out)
    _, out, _ = run(argv + ["--engine", "reference"], capsys)
    slow = json.loads(out)
    assert fast["rule"] == {"beads": [8, 3, 2, 1], "incentives": [2, 0, -2], "empty": "refill"}
    assert slow["engine"] == "reference"
    assert fast["boxes"] == slow["boxes"] and fast["results"] == slow["results"]
    start = np.array(fast["boxes"][0]["counts"])
    assert start.sum() != 24  # the first box (8 beads of 3 squares at the start) has learned


def test_train_text(capsys):
    code, out, _ = run(["noughts", "train", "--games", "100", "--seed", "1"], capsys)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "MENACE (X) against the perfect player: 100 games (kernel engine, seed 1)"
    assert lines[1].startswith("Start beads 12, 3, 2, 1 at MENACE's 1st to 4th move")
    assert "304 boxes" in out
    assert lines[-1].startswith(" 304  move 4  ")


@pytest.mark.parametrize("argv, message", [
    (["--beads", "4,3,2"], "--beads must be 4 whole numbers"),
    (["--beads", "4,3,0,1"], "between 1 and 1,000"),
    (["--beads", "four"], "whole numbers separated by commas"),
    (["--incentives", "3,1"], "--incentives must be 3 whole numbers"),
    (["--games", "-5"], "between 0"),
    (["--empty", "shrug"], "invalid choice"),
    (["--opponent", "nobody"], "invalid choice"),
])
def test_train_bad_arguments_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["noughts", "train", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err.splitlines()[-1]


def test_noughts_without_an_action_exits_2(capsys):
    code, _, err = run(["noughts"], capsys)
    assert code == 2 and "solve or train" in err


def test_a_closed_stdout_and_a_closed_pipe(monkeypatch):
    """`noughts train` writing to a closed stdout (as `main` leaves it on a closed fd 1: /dev/null read-only, so
    every write fails with EBADF) and to a pipe nobody reads. In-process: the real process's side of both (a
    closed fd 1, a pipe closed by its reader) is held by tests/unit/test_cli_streams.py and test_cli_pipe.py."""
    argv = ["noughts", "train", "--games", "10", "--seed", "1"]
    read_end, write_end = os.pipe()
    os.close(read_end)
    for stdout, status, said in ((open(os.open(os.devnull, os.O_RDONLY), "w", encoding="utf-8"), 1,
                                  "sticks-tui: cannot write the output: standard output is closed.\n"),
                                 (open(write_end, "w", encoding="utf-8"), 0, "")):
        err = io.StringIO()
        with monkeypatch.context() as patch:
            patch.setattr(sys, "stdout", stdout)
            patch.setattr(sys, "stderr", err)
            code = main(argv)
        stdout.close()
        assert (code, err.getvalue()) == (status, said)
