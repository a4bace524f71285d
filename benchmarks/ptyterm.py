"""Run the real `sticks-tui` in a pseudo-terminal and watch its output stream (used by the UI benchmarks).

The app gets a pty of a fixed size, TERM=xterm-256color and a fresh temporary data directory; we
write key bytes to the master side and read everything the app draws. Text is found in the stream
with the escape sequences taken out: Textual writes each changed line of a widget as runs of
plain text between cursor moves and colour codes, so a label's sentence arrives in one piece.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from pathlib import Path

# CSI (cursor moves, colours, modes), OSC (titles, clipboard), other two-byte escapes.
_ESCAPES = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]"
                      rb"|\x1b[()][0-9A-Za-z]")

KEYS = {
    "enter": b"\r", "escape": b"\x1b", "tab": b"\t", "shift+tab": b"\x1b[Z", "backspace": b"\x7f",
    "up": b"\x1b[A", "down": b"\x1b[B", "home": b"\x1b[H", "end": b"\x1b[F",
    "f2": b"\x1bOQ", "f7": b"\x1b[18~", "ctrl+q": b"\x11", "ctrl+r": b"\x12",
}


def plain(data: bytes) -> bytes:
    """The stream with escape sequences removed (the drawn text runs, joined)."""
    return _ESCAPES.sub(b"", data)


def sticks_tui_command() -> list[str]:
    beside = Path(sys.executable).parent / "sticks-tui"  # the console script of this environment
    exe = str(beside) if beside.exists() else shutil.which("sticks-tui")
    return [exe] if exe else [sys.executable, "-m", "sticks_tui"]


class PtyApp:
    """`sticks-tui` in a pty of cols x rows, with its own temporary data and config directories."""

    def __init__(self, cols: int = 100, rows: int = 32, argv: list[str] | None = None) -> None:
        self.data_dir = tempfile.mkdtemp(prefix="sticks-bench-")
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TEXTUAL", "TMUX")}
        env.update(TERM="xterm-256color", COLORTERM="truecolor", STICKS_TUI_DATA_DIR=self.data_dir,
                   STICKS_TUI_CONFIG_DIR=os.path.join(self.data_dir, "config"),  # the user's settings untouched
                   COLUMNS=str(cols), LINES=str(rows))
        argv = argv or sticks_tui_command()
        self.spawned = time.perf_counter()
        pid, fd = os.forkpty()
        if pid == 0:  # the child: the pty is its controlling terminal and stdin/stdout/stderr
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid = pid
        self.fd = fd
        self.log = bytearray()  # everything the app wrote
        self.stamps: list[tuple[float, int]] = []  # (time read, length of log after the read)
        self.exit_status: int | None = None

    # -- reading -------------------------------------------------------------------------------
    def pump(self, timeout: float) -> bool:
        """Read what is there (waiting up to `timeout` for the first bytes). False when the app closed."""
        try:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        except InterruptedError:
            return True
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError:  # EIO: the child closed the pty
            return False
        if not chunk:
            return False
        self.log += chunk
        self.stamps.append((time.perf_counter(), len(self.log)))
        return True

    def wait_for(self, text: str | bytes, timeout: float, since: int = 0) -> float | None:
        """The time the text first showed in the output after byte `since`, or None on time-out."""
        needle = text.encode() if isinstance(text, str) else text
        end = time.perf_counter() + timeout
        scanned = since
        while True:
            if len(self.log) > scanned:
                # rescan from a little before the new bytes, in case the text straddles two reads
                start = max(since, scanned - 4096)
                if needle in plain(bytes(self.log[start:])):
                    return self.stamps[-1][0]
                scanned = len(self.log)
            left = end - time.perf_counter()
            if left <= 0:
                return None
            if not self.pump(min(left, 0.05)):
                # closed: one last look, then give up
                if needle in plain(bytes(self.log[since:])):
                    return self.stamps[-1][0]
                return None

    def drain(self, seconds: float) -> None:
        """Keep reading for a while (the app must never block on a full pty)."""
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            if not self.pump(left):
                return

    def quiet(self, seconds: float, timeout: float = 10.0) -> None:
        """Keep reading until the app has written nothing for `seconds` (it has drawn what it had to: a screen
        that fills itself in after it is first drawn), or for at most `timeout` seconds."""
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            size = len(self.log)
            self.drain(seconds)
            if len(self.log) == size:
                return

    def screen_text(self, last: int = 6000) -> str:
        return plain(bytes(self.log[-last:])).decode("utf-8", "replace")

    # -- writing -------------------------------------------------------------------------------
    def send(self, *keys: str | bytes, gap: float = 0.05) -> None:
        for key in keys:
            data = KEYS.get(key, key.encode()) if isinstance(key, str) else key
            os.write(self.fd, data)
            self.drain(gap)

    def write(self, data: bytes) -> float:
        """Write bytes at once; the time just after the write."""
        os.write(self.fd, data)
        return time.perf_counter()

    # -- ending --------------------------------------------------------------------------------
    def close(self, timeout: float = 3.0) -> None:
        """Ask the app to quit (Ctrl+Q; with a game or a training run in progress it asks first, and
        a second Ctrl+Q says yes: sent once the question is drawn, or after 0.5 s), then end it for sure;
        remove the data directory."""
        try:
            if self.exit_status is None:
                end = time.perf_counter() + timeout
                again = time.perf_counter() + 0.5
                asked = 0
                mark = len(self.log)
                try:
                    os.write(self.fd, KEYS["ctrl+q"])
                except OSError:
                    pass
                while time.perf_counter() < end:
                    if not asked and (time.perf_counter() > again
                                      or b"Quit anyway?" in plain(bytes(self.log[max(0, mark - 64):]))):
                        asked = 1
                        try:
                            os.write(self.fd, KEYS["ctrl+q"])
                        except OSError:
                            pass
                    if not self.pump(0.05):
                        break
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid:
                        self.exit_status = status
                        break
                if self.exit_status is None:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                    if pid:
                        self.exit_status = status
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    if self.exit_status is not None:
                        break
                    try:
                        os.kill(self.pid, sig)
                    except ProcessLookupError:
                        pass
                    for _ in range(40):
                        pid, status = os.waitpid(self.pid, os.WNOHANG)
                        if pid:
                            self.exit_status = status
                            break
                        time.sleep(0.05)
        finally:
            try:
                os.close(self.fd)
            except OSError:
                pass
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self) -> PtyApp:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), linear between the nearest ranks."""
    s = sorted(values)
    if not s:
        return float("nan")
    k = (len(s) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)
