"""Hostile inputs to the `sticks-tui` command (issue 13): empty hats, huge numbers, FIFOs.

Where a regression could hang or read without end (a FIFO, /dev/zero) the REAL command runs in a subprocess with
a temporary data directory and a timeout, so a hang fails the test; the rest run through `cli.main` in-process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from cli_here import run_here as cli_here

TIMEOUT = 60


def sticks_command() -> list[str]:
    script = Path(sys.executable).with_name("sticks-tui")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sticks_tui"]


def run(tmp_path: Path, *args: str, stdin: str = "", timeout: float = TIMEOUT):
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    return subprocess.run(sticks_command() + ["--data-dir", str(tmp_path / "data"), *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)


def run_here(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    """The same command line through `cli.main` in this process (what the real command runs), output captured."""
    return cli_here(tmp_path / "data", args, stdin, {"TEXTUAL_DRIVER": None})


def store_empty_hat_brain(data: Path, name: str) -> str:
    """Save a fresh brain, then empty every hat in the database itself (as a damaged or hostile DB would)."""
    with Store.open(data) as store:
        store.save_brain(name, Hats(10), 5)
        path = store.path
    empty = json.dumps([[]] + [[0] * min(3, n) for n in range(1, 11)])
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE brains SET counts = ?, floor = 'nonempty' WHERE name = ?", (empty, name))
    conn.close()
    return empty


def stored_counts(data: Path, name: str) -> str:
    with Store.open(data) as store:
        path = store.path
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT counts FROM brains WHERE name = ?", (name,)).fetchone()[0]
    finally:
        conn.close()


def test_classic_refuses_a_stored_brain_with_an_empty_hat_and_keeps_it(tmp_path):
    empty = store_empty_hat_brain(tmp_path / "data", "hollow")
    typed = "10\n" + "1\n" * 8 + "n\n"  # takes of 1 until the game ends, then the rest answer "play again"
    result = run_here(tmp_path, "classic", "--mode", "computer", "--brain", "hollow", "--seed", "2", "--no-hats",
                      stdin=typed)
    assert "randrange" not in result.stderr and "Traceback" not in result.stderr
    assert result.returncode == 0, result.stderr
    assert "'hollow'" in result.stderr and "holds no ball" in result.stderr
    assert result.stdout.count("lose.") == 1  # one whole game was played, by a fresh AI
    assert stored_counts(tmp_path / "data", "hollow") == empty  # the refused brain is not overwritten


def test_a_brain_file_with_a_5000_digit_count_gets_a_short_message(tmp_path):
    doc = {"format": "sticks-tui-brain", "version": 1, "name": "big", "size": 3, "max_take": 3,
           "rule": {"start_balls": 1, "win_reward": 1, "loss_penalty": 1, "floor": "each"},
           "hats": [[], [1], [1, 1], [1, 1, 1]]}
    for field, value in (("count", "9" * 5000), ("start_balls", "7" * 4000), ("games", "8" * 4200)):
        text = json.dumps(doc)
        if field == "count":
            text = text.replace("[1, 1, 1]", f"[1, {value}, 1]")
        elif field == "start_balls":
            text = text.replace('"start_balls": 1', f'"start_balls": {value}')
        else:
            text = text.replace('"version": 1', f'"version": 1, "games_trained": {value}')
        path = tmp_path / f"{field}.json"
        path.write_text(text)
        result = run_here(tmp_path, "brain", "import", str(path))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) == 1 and len(result.stderr) < 400, result.stderr
        assert value[:12] not in result.stderr


def import_watching_the_fifo(tmp_path: Path, fifo: Path):
    """Run `brain import FIFO`; return (result, whether it opened the FIFO).

    While it runs, try to open the FIFO's write end without blocking: that only succeeds when a
    reader holds it open, i.e. the command opened the FIFO and would wait there forever. Opening
    and closing the write end then ends its wait (it reads an empty file), so the test never hangs.
    """
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    proc = subprocess.Popen(sticks_command() + ["--data-dir", str(tmp_path / "data"), "brain", "import", str(fifo),
                                                "x"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    opened = False
    try:
        while proc.poll() is None:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                opened = True
            except OSError:  # ENXIO: no reader has it open (yet)
                pass
            try:
                proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), opened


def test_brain_import_of_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "brain.json"
    os.mkfifo(fifo)
    result, opened = import_watching_the_fifo(tmp_path, fifo)
    assert not opened, "the command opened the FIFO (and would have waited forever for a writer)"
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "named pipe" in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("kind", ["/dev/zero", "directory"])
def test_brain_import_refuses_a_device_or_a_directory(tmp_path, kind):
    if kind == "directory":
        path = tmp_path / "folder"
        path.mkdir()
        reason = "is a folder"
    else:
        path = Path(kind)
        reason = "device"
    # /dev/zero in a real process with a timeout (read, it would never end)
    result = (run if kind == "/dev/zero" else run_here)(tmp_path, "brain", "import", str(path), "x")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert reason in result.stderr and len(result.stderr.splitlines()) == 1
