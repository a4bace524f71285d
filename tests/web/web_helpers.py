"""Helpers for the browser tests (used by conftest.py and the tests): a real `sticks-tui serve`, a real Chromium (Debian's), bounded waits.

Chromium comes from Debian (`apt-get install -y chromium`); playwright drives it through
`executable_path` (its own browser download is not used). Without Chromium, playwright or the
'web' extra the browser tests are skipped with the reason, except in CI (CI=true), where that is
a failure: CI must run them.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("STICKS_TUI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Every page of one site (every test server: http://127.0.0.1, whatever its port) in one renderer process
#: of a browser context. A new renderer process costs Chromium about 0.45 CPU s to start, and a page that
#: loads the app in a fresh one about 1.45 s against 0.75 s in one already running (measured on this
#: 2-core machine); see SharedBrowser.
SHARED_RENDERER_ARGS = ["--process-per-site"]
#: A site's name that Chromium resolves to this computer (a DNS rebinding, by its resolver rules): the one
#: browser of a module has the rule, which changes nothing for any other name.
REBOUND_HOST = "evil.example"
REBINDING_RULE = f"--host-resolver-rules=MAP {REBOUND_HOST} 127.0.0.1"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(reason: str) -> None:
    """Skip, with the reason; in CI, fail instead: CI must run the browser tests."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: the browser tests must run here, not be skipped)", pytrace=False)
    pytest.skip(reason)


def need_web_extra() -> None:
    try:
        import aiohttp  # noqa: F401
        import jinja2  # noqa: F401
        import textual_serve  # noqa: F401
    except ImportError as exc:
        unavailable(f"the 'web' extra is not installed ({exc}); pip install -e '.[test]'")


class ServedClass:
    """`sticks-tui serve` in a subprocess on a free loopback port, with a temporary data directory."""

    def __init__(self, data_dir: Path, max_sessions: int = 4, extra: list[str] | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        command = [sys.executable, "-m", "sticks_tui", "serve", "--port", "0", "--data-dir", str(data_dir),
                   "--max-sessions", str(max_sessions), *(extra or [])]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1",
                                          "STICKS_TUI_CONFIG_DIR": str(data_dir) + "-config", **(env or {})})
        self.lines: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._wait_for_url(timeout=30)
        match = re.match(r"http://([^/]+)/", self.url)
        assert match
        self.netloc = match.group(1)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))
            self._queue.put(line)
        self._queue.put(None)

    def _wait_for_url(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                break
            if line is None:
                break
            found = re.search(r"http://\S+/", line)
            if found:
                return found.group(0)
        self.kill()
        raise AssertionError("sticks-tui serve did not print its URL:\n" + "\n".join(self.lines))

    def teacher_url(self, timeout: float = 10) -> str:
        """The teacher's address, as the server printed it for the teacher (after the pupils' one)."""
        def probe():
            return next((m.group(0) for line in self.lines if (m := re.search(r"http://\S+/teacher/\S+", line))),
                        None)

        return wait_until(probe, timeout, "the teacher's address")

    def class_view_url(self, timeout: float = 10) -> str:
        """The projector's address (the class view), as the server printed it for the teacher."""
        def probe():
            return next((m.group(0) for line in self.lines if (m := re.search(r"http://\S+/class/\S+", line))),
                        None)

        return wait_until(probe, timeout, "the class view's address")

    @property
    def pid(self) -> int:
        return self.proc.pid

    def app_pids(self) -> set[int]:
        """The app processes (one per tab) the server is running now: started cold
        (`python -m sticks_tui.web.session`) or forked from the warm process (named sticks-tab)."""
        import psutil

        from sticks_tui.web.warm import TAB_NAME

        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return set()
        pids = set()
        for child in children:
            try:
                if (child.name() == TAB_NAME or "sticks_tui.web.session" in " ".join(child.cmdline())) \
                        and child.status() != "zombie":
                    pids.add(child.pid)
            except psutil.NoSuchProcess:
                continue
        return pids

    def wait_for_app_count(self, count: int, timeout: float = 20) -> set[int]:
        def probe():
            pids = self.app_pids()
            return (pids,) if len(pids) == count else None

        return wait_until(probe, timeout, f"{count} app process(es) (have {self.app_pids()})")[0]

    def stop(self, sig: int = signal.SIGINT, timeout: float = 30) -> int:
        """Send the signal (Ctrl+C by default) and wait for the server to end."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError("the server did not stop within %s s:\n%s" % (timeout, "\n".join(self.lines)))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def class_settings(directory: Path, **settings) -> dict[str, str]:
    """A class's config directory whose settings file says `settings` (as a teacher's app saved them; the
    tabs read it): the environment for `served(env=...)`."""
    from sticks_tui.store.settings import Settings, save_settings, settings_path

    save_settings(Settings(**settings), settings_path(directory))
    return {"STICKS_TUI_CONFIG_DIR": str(directory)}


def wait_until(probe, timeout: float, what: str, interval: float = 0.05):
    """Poll probe() until it returns something truthy; fail with `what` after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def pid_alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


class Tab:
    """One browser tab on the served app, read as text from the xterm.js buffer."""

    def __init__(self, page) -> None:
        self.page = page

    def text(self) -> str:
        return self.page.evaluate("() => window.sticksScreenText ? window.sticksScreenText() : null") or ""

    def lines(self) -> list[str]:
        return self.text().split("\n")

    def wait_text(self, needle: str, timeout: float = 20) -> str:
        try:
            self.page.wait_for_function(
                "needle => window.sticksScreenText && (window.sticksScreenText() || '').includes(needle)",
                arg=needle, timeout=timeout * 1000, polling=50)
        except Exception as exc:  # noqa: BLE001 - say what the screen showed instead
            raise AssertionError(f"{needle!r} did not appear within {timeout} s; the screen:\n{self.text()}") from exc
        return self.text()

    def find(self, label: str, nth: int = 0) -> tuple[int, int]:
        """(col, row) of the first cell of the nth (from 0) label on the screen, reading order."""
        seen = 0
        for row, line in enumerate(self.lines()):
            col = line.find(label)
            while col >= 0:
                if seen == nth:
                    return col, row
                seen += 1
                col = line.find(label, col + 1)
        raise AssertionError(f"{label!r} (#{nth}) is not on the screen:\n{self.text()}")

    def click_text(self, label: str, offset: int = 0, nth: int = 0) -> None:
        """Click with the mouse in the middle of label (or `offset` cells into it), once it is shown."""
        self.wait_text(label, timeout=10)
        col, row = self.find(label, nth)
        col += offset if offset else len(label) // 2
        point = self.page.evaluate("([c, r]) => window.sticksCellCentre(c, r)", [col, row])
        assert point, "the page has no terminal"
        self.page.mouse.click(point["x"], point["y"])

    def activate(self) -> None:
        """Bring this tab to the front, as a student does by clicking it (its terminal gets the keys)."""
        self.page.bring_to_front()
        self.page.evaluate("() => (window.sticksClients || []).forEach(c => c.terminal && c.terminal.focus())")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)


class SharedBrowser:
    """One Chromium for a test module, with one browser context whose pages on this computer all run in one
    renderer process (--process-per-site; a blank page on 127.0.0.1 keeps that process alive between
    tests). `new_context()` gives a test a context of its own in the ways the tests use one: its pages
    (at its viewport), its event handlers, and close(), which closes them. Before, each test's context
    started renderer processes of its own: a page loading the app cost Chromium about 1.45 CPU s in a
    fresh one, 0.75 s in one already running (test_browser.py: about 43 -> 37 CPU s, Chromium's
    renderers counted; /usr/bin/time does not see them, they end as orphans). What a page does, and what
    the server and the apps see, is the same: a tab is a page, each with its own websocket and its own app."""

    def __init__(self, browser, viewport: dict[str, int]) -> None:
        self.browser = browser
        self.context = browser.new_context(viewport=viewport)
        self.keeper = self.context.new_page()
        blank = _blank_server()
        try:
            self.keeper.goto(f"http://127.0.0.1:{blank.server_address[1]}/", timeout=20_000)
        finally:
            blank.shutdown()
            blank.server_close()

    def new_context(self, viewport: dict[str, int] | None = None) -> Pages:
        return Pages(self, viewport)

    def close(self) -> None:
        self.context.close()


class Pages:
    """A test's pages in the shared context (SharedBrowser), used as a browser context: new_page(), on(), close()."""

    def __init__(self, shared: SharedBrowser, viewport: dict[str, int] | None) -> None:
        self.shared = shared
        self.viewport = viewport
        self.handlers: list[tuple[str, object]] = []

    def new_page(self, viewport: dict[str, int] | None = None):
        """A new page, at `viewport` (as Browser.new_page(viewport=...) opens one), else at this test's size."""
        page = self.shared.context.new_page()
        if (viewport or self.viewport) is not None:
            page.set_viewport_size(viewport or self.viewport)
        return page

    def on(self, event: str, handler) -> None:
        """The shared context's event (e.g. "page", "request"), for this test only: removed by close()."""
        self.shared.context.on(event, handler)
        self.handlers.append((event, handler))

    def close(self) -> None:
        """Close every page opened since (a popup too), as closing a context does; the keeper stays."""
        for event, handler in self.handlers:
            self.shared.context.remove_listener(event, handler)
        self.handlers.clear()
        for page in self.shared.context.pages:
            if page is not self.shared.keeper:
                page.close()


def _blank_server():
    """A server of one blank page on http://127.0.0.1 (the site of every test server), serving in a thread
    until shutdown(); the keeper's page stays loaded after it stops."""
    from http.server import BaseHTTPRequestHandler, HTTPServer

    class Blank(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = b'<!DOCTYPE html><link rel="icon" href="data:,"><title>keeper</title>'
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Blank)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server
