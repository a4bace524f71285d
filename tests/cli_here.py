"""A `sticks-tui` command line run in the test's own process, through `cli.main` (what the real command runs):
for the promises that are not about a process (a real process is kept where they are: a closed stream, a
signal, a fifo)."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

from sticks_tui.cli import main


def run_here(data: Path, argv, stdin: str = "", env: dict | None = None) -> subprocess.CompletedProcess:
    """`sticks-tui --data-dir DATA ARGV...`: the typed lines `stdin` a stream that is not a terminal (as a pipe
    is), `env` set for the call (a value of None: the variable removed), stdout and stderr captured; argparse's
    exits (usage errors, --help) are the return code."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        for key, value in (env or {}).items():
            if value is None:
                patch.delenv(key, raising=False)
            else:
                patch.setenv(key, value)
        patch.setattr(sys, "stdin", io.StringIO(stdin))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["--data-dir", str(data), *argv])
            except SystemExit as exc:
                code = exc.code
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())
