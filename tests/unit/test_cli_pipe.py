"""A reader that goes away early (`sticks-tui ... | head -1`) ends the command quietly, without a traceback.

One real process (the pipe is the process's own); `nim solve` with a reader gone before its first write is
held in-process by tests/unit/test_cli_streams.py::test_a_reader_gone_before_the_first_write_ends_quietly."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_closed_pipe_is_no_traceback(tmp_path):
    # the readable engine: the same output, and no compiled kernel to load (0.2 CPU s against 0.8); unbuffered, so
    # its lines go on being written after the reader has gone, whatever the runner's own PYTHONUNBUFFERED (buffered,
    # 1.6 kB would sit in the buffer until one write at exit, and a command that failed on the closed pipe passed)
    args = ["train", "--sticks", "30", "--games", "10", "--engine", "reference"]
    proc = subprocess.Popen([sys.executable, "-m", "sticks_tui", "--data-dir", str(tmp_path), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    proc.stdout.read(5)  # read a little, then hang up like `head -c 5`
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipeError" not in err
    assert proc.returncode == 0
