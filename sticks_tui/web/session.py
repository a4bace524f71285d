"""One browser tab's app process: `python -m sticks_tui.web.session [--data-dir PATH]`.

The server starts this with a fixed argument list (never through a shell) and the environment
textual-serve builds (TEXTUAL_DRIVER set to Textual's web driver, so the app talks over pipes,
not a terminal). Before the app starts, the process asks Linux to send it SIGTERM if the server
dies without stopping it (PR_SET_PDEATHSIG), so no session outlives its server: the web driver
turns SIGTERM into the app's normal exit, which closes the store cleanly.
"""

from __future__ import annotations

import os
import signal
import sys

#: The server's pid, passed in the environment so a session can tell whether its server is gone.
SERVER_PID_ENV = "STICKS_TUI_SERVE_PID"


def _end_with_server() -> bool:
    """Arrange SIGTERM when the server goes away; False if it is gone already."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the server's own stop still ends us
            pass
    expected = os.environ.get(SERVER_PID_ENV)
    return not (expected and expected.isdigit() and os.getppid() != int(expected))


def main(argv: list[str] | None = None) -> int:
    if not _end_with_server():
        return 0  # the server died while we started: nobody is there to play
    from sticks_tui.cli import main as cli_main

    return cli_main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
