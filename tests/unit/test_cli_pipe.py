"""A reader that goes away early (`sticks-tui ... | head -1`) ends the command quietly, without a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("args", [["nim", "solve", "3", "3", "7"], ["train", "--sticks", "30", "--games", "10"]])
def test_a_closed_pipe_is_no_traceback(tmp_path, args):
    proc = subprocess.Popen([sys.executable, "-m", "sticks_tui", "--data-dir", str(tmp_path), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.read(5)  # read a little, then hang up like `head -c 5`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode == 0
