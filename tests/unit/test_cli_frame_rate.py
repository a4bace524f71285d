"""The app repaints at up to 120 frames a second (Textual's default is 60): a key press waits less for
its frame (issue 9 item 8, bench_keypress.py). Textual reads TEXTUAL_FPS once, when it is first
imported, so `run_app` must set it before anything imports Textual; a user's own value wins.

Each check runs in a fresh interpreter with a stand-in for the app module, which reports the frame
rate Textual took.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

PROBE = textwrap.dedent("""
    import sys, types
    fake = types.ModuleType("sticks_tui.ui.app")

    class SticksApp:
        return_code = 0

        def __init__(self, **kwargs):
            pass

        def run(self):
            from textual import constants
            from textual import screen
            print(constants.MAX_FPS, round(1 / screen.UPDATE_PERIOD))

    fake.SticksApp = SticksApp
    sys.modules["sticks_tui.ui.app"] = fake
    import argparse
    from sticks_tui import cli
    assert "textual" not in sys.modules, "something imported Textual before run_app"
    cli.run_app(argparse.Namespace(data_dir=None))
""")


@pytest.mark.parametrize(("given", "expected"), [(None, "120 120"), ("30", "30 30")])
def test_run_app_sets_the_frame_rate_before_textual_loads(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    if given is not None:
        env["TEXTUAL_FPS"] = given
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == expected
