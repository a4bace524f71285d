"""Fixtures for the browser tests: `served` starts real servers, `chromium` is Debian's Chromium."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from web_helpers import (CHROMIUM, CHROMIUM_ARGS, REBINDING_RULE, SHARED_RENDERER_ARGS, ServedClass, SharedBrowser,
                         need_web_extra, unavailable)


@pytest.fixture
def served(tmp_path):
    """Start servers with start(**kw); every one still running at the end is killed (never left behind)."""
    need_web_extra()
    started: list[ServedClass] = []

    def start(**kwargs) -> ServedClass:
        server = ServedClass(tmp_path / f"class{len(started)}", **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        pids = server.app_pids()
        server.kill()
        for pid in pids:  # a failed test must not leave app processes behind either
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, driven by playwright: one browser per test module, stopped after it (the
    sync API keeps an event loop running meanwhile, which asyncio tests elsewhere must not meet). A
    SharedBrowser: each test's `chromium.new_context()` opens its pages in one shared context, whose pages
    on the test servers share one renderer process (web_helpers.SharedBrowser says why)."""
    need_web_extra()
    if not Path(CHROMIUM).exists():
        unavailable(f"Chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
    try:
        import psutil  # noqa: F401
    except ImportError:
        unavailable("psutil is not installed (pip install -e '.[test]')")
    manager = sync_playwright().start()
    try:
        browser = manager.chromium.launch(executable_path=CHROMIUM, headless=True, timeout=60_000,
                                          args=[*CHROMIUM_ARGS, *SHARED_RENDERER_ARGS, REBINDING_RULE])
    except Exception as exc:  # noqa: BLE001 - a browser that will not start is reported, not a traceback
        manager.stop()
        unavailable(f"Chromium at {CHROMIUM} did not start: {exc}")
    try:
        shared = SharedBrowser(browser, viewport={"width": 1100, "height": 700})
    except Exception:
        browser.close()
        manager.stop()
        raise
    yield shared
    shared.close()
    browser.close()
    manager.stop()


