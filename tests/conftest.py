"""The whole suite: the tests marked `slow` run first.

`slow` marks a test that takes seconds of its own on an idle machine: a real Chromium, a real
server, a numba compile, a hypothesis sweep, a Pilot test that walks many screens. CI runs them
all (`pytest`, as the README says); `pytest -m "not slow"` is the quick run while you work.

Run first, the long tests start while the xdist workers are fresh, and the last minutes are
made of short tests that the workers share out (`--dist worksteal`: a worker that runs dry
takes half of what the other has left). Run last, one long test would keep one core busy
while the other waits.

Pilot tests (tests/ui, tests/snapshots) wait no longer than the app needs (_quicker_pilot_waits) and
skip rendering screen updates that a headless app throws away (_no_screen_output_when_headless);
`benchmarks/bench_suite.py` measures the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

#: The Nim solver's flags, compiled by the warm-up's second half (the whole table: small piles are solved without
#: the compiled loop). The two halves compile every kernel the suite's commands meet: checked by running after them,
#: with NUMBA_DEBUG_CACHE=1, `train --games 20`, `nim train --games 20`, `noughts train --games 5` against random,
#: perfect and menace, and `lab --game G` with hats, hats:table=one, q, qseat and mc on each game (cap 50): no
#: cache file saved (2026-11-28, 22:15 UTC).
NIM_SOLVE = ["nim", "solve", "100", "100", "100"]


_warming: list = []  # the controller's thread running the warm-up's processes (joined at session start)
_warm_failures: list[str] = []


def pytest_configure(config):
    """In a fresh clone numba's cache is empty, and every process that meets a kernel before its cache
    file is written compiles it again: every xdist worker, and each `sticks-tui` a test starts (a CLI
    run, a served tab, a lab's pool of workers, a benchmark's smoke run). Measured on this suite, cold
    against warm: 281 against 209 CPU seconds. So the controller compiles every kernel once (the two
    halves of `kernel.warm_up` side by side) while the workers start and collect (pytest_sessionstart waits for it
    before any test runs); a second run finds the cache and only loads it (about a second)."""
    if hasattr(config, "workerinput") or config.getoption("numprocesses", None) in (None, 0):
        return  # an xdist worker (the controller warmed up), or one process: it compiles what it meets
    # The package's bytecode, written once as pip writes an installed package's: an editable install
    # writes none, and where PYTHONDONTWRITEBYTECODE is set (as on CI's machines) each of the suite's
    # few hundred Python processes would compile the modules it imports again (about 0.08 CPU s each)
    import compileall
    from pathlib import Path

    compileall.compile_dir(Path(__file__).resolve().parents[1] / "sticks_tui", quiet=2, workers=0)
    # The compile itself in two processes side by side, each compiling loops the other does not meet (each
    # loop keeps cache files of its own): the counts learners' loop, and the value learners' loop with the
    # checks and the Nim solver's flags. Between them they compile everything the suite's commands meet
    # (`NIM_SOLVE`), so the commands are no longer run after them (one process, ~2 s before the first test, one
    # core idle).
    data = tempfile.TemporaryDirectory()
    env = {**os.environ, "STICKS_TUI_DATA_DIR": data.name, "STICKS_TUI_CONFIG_DIR": data.name}
    halves = ["from sticks_tui.learn import kernel\nkernel.warm_up_counts()\n",
              "from sticks_tui.learn import kernel\nkernel.warm_up_values()\n"
              f"from sticks_tui.cli import main\nmain({['--data-dir', data.name, *NIM_SOLVE]!r})\n"]

    def run(code: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)

    def warm() -> None:
        try:
            for started in [run(half) for half in halves]:
                _, err = started.communicate(timeout=600)
                if started.returncode != 0:
                    _warm_failures.append(f"exit {started.returncode}:\n{err[-2000:]}")
        finally:
            data.cleanup()

    import threading

    _warming.append(threading.Thread(target=warm, daemon=True))
    _warming[-1].start()

    _rewriting.append(threading.Thread(target=_rewrite_tests_once, args=(config,), daemon=True))
    _rewriting[-1].start()


_rewriting: list = []  # the controller's one thread writing the rewritten-assert cache (joined at session start)


def _rewrite_tests_once(config) -> None:
    """pytest rewrites the asserts of every test module (and of its plugins) in each process that collects
    them, and caches the result beside the file, unless PYTHONDONTWRITEBYTECODE is set, as on CI's
    machines: then every worker rewrote all of them, 2.4 CPU s each of their 3.8 s of collection. The
    controller writes that cache once, in the order the workers collect, while they start; a worker finds
    a module's cache (pytest reads it whatever the setting) or, if it got there first, rewrites it itself
    as before. The same code either way: pytest's own rewriting, cached where pytest caches it."""
    try:
        from _pytest.assertion.rewrite import (PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key,
                                               get_cache_dir, try_makedirs)
        from pathlib import Path

        state = config.stash.get(assertstate_key, None)
        if state is None or state.mode != "rewrite":
            return  # --assert=plain: nothing is rewritten
        root = Path(__file__).resolve().parent
        plugins = list(getattr(state.hook, "_rewritten_names", {}).values())  # as the controller loaded them
        tests = sorted(root.rglob("conftest.py"), key=lambda f: len(f.parts)) + sorted(root.rglob("test_*.py"))
        for fn in [*plugins, *tests]:
            pyc = get_cache_dir(fn) / (fn.name[:-3] + PYC_TAIL)
            if _read_pyc(fn, pyc) is not None or not try_makedirs(pyc.parent):
                continue
            source_stat, co = _rewrite_test(fn, config)
            _write_pyc(state, co, source_stat, pyc)
    except Exception:  # noqa: BLE001 - only a saving: each worker rewrites what it finds uncached
        return


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session):
    for thread in _rewriting:
        thread.join(timeout=60)
    for thread in _warming:
        thread.join(timeout=1200)
    for failure in _warm_failures:  # said, not fatal: the tests that meet a kernel will say what is wrong
        print(f"conftest: warming up the kernels failed ({failure}", file=sys.stderr)


def pytest_collection_modifyitems(config, items):
    # a stable sort: the slow tests first, each group in its usual order (a module's tests stay together); the
    # tests with a Chromium first of all. xdist's worksteal hands each worker a run of the list in order and
    # steals from the end of a worker's queue, so they stay together at the head of the first worker's: one
    # Chromium (and one module server) for them all, not one on each worker a steal took some of them to
    # (each launch ~1.5-2 CPU s with playwright's driver)
    items.sort(key=lambda item: (item.get_closest_marker("slow") is None, "chromium" not in item.fixturenames))


def pytest_collection_finish(session):
    """The modules and tests collected are kept for the whole run: frozen out of the collector's sight,
    and the youngest generation collected every 10,000 allocations rather than 700 (Textual apps make
    many short-lived objects). As the app does for its own start (ui/app.py _freeze_heap). Measured on
    57 Pilot and snapshot tests, one process, alternating: 22.3 against 23.2 CPU s (0.96x)."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, *gc.get_threshold()[1:])


def _quicker_pilot_waits() -> None:
    """Pilot's `pause()` and `press()` wait until the app is idle (textual._wait.wait_for_idle): they
    sleep in steps of 20 ms and stop at the first step in which the process used under 1 ms of CPU. That
    step is the floor of every wait, however little the app has to do (20 ms a pause, 40 ms a key, 80 ms
    a click): over the Pilot tests about a third of their time, spent asleep.

    Here the step is 2 ms, with the same ratio (idle: under 5% of the step in CPU), and a wait also lasts
    until the screen has no refresh pending and no `call_after_refresh` callback waiting. The screen
    refreshes on its own timer (60 a second), which the 20 ms step used to cover; the app is not hurried
    (it refreshes when it would have), only the test stops waiting as soon as nothing is left to do. The
    messages queued before a wait are still all handled first (Pilot._wait_for_screen), and a test that
    needs a later event (a timer, a thread) waits for it (ui_helpers.wait_until), as before."""
    import asyncio

    import textual._wait as textual_wait
    from textual.pilot import Pilot

    textual_wait.SLEEP_GRANULARITY = 0.002
    textual_wait.SLEEP_IDLE = textual_wait.SLEEP_GRANULARITY / 20

    def refresh_pending(app) -> bool:
        try:
            screen = app.screen
        except Exception:  # noqa: BLE001 - no screen (the app is ending): nothing to wait for
            return False
        timer = screen._update_timer
        return bool(screen._callbacks) or timer._active.is_set()

    async def settle(pilot) -> None:
        for _ in range(25):  # at most 50 ms: one refresh period is 17 ms; an app that keeps refreshing is let be
            if not refresh_pending(pilot.app):
                return
            await asyncio.sleep(textual_wait.SLEEP_GRANULARITY)
            await pilot._wait_for_screen()

    original_pause, original_press = Pilot.pause, Pilot.press

    async def pause(self, delay: float | None = None) -> None:
        await original_pause(self, delay)
        if delay is None:
            await settle(self)

    async def press(self, *keys: str) -> None:
        await original_press(self, *keys)
        if keys:
            await settle(self)

    Pilot.pause, Pilot.press = pause, press


_quicker_pilot_waits()


@pytest.fixture(autouse=True)
def no_button_effect(monkeypatch):
    """Buttons ignore a second click within 0.2 s of the first, and show as pressed for 0.2 s; tests
    click faster than that, and a snapshot must not depend on how soon after a click it is taken."""
    from textual.widgets import Button

    original = Button.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.active_effect_duration = 0

    monkeypatch.setattr(Button, "__init__", init)


def _no_screen_output_when_headless() -> None:
    """A Pilot app is headless: Textual renders each screen update to strips and then throws them
    away (App._display writes nothing when headless). Here the update is not rendered at all; the
    layout, the widgets' state and every node's styles are as before, and what a test reads from
    the screen it renders itself (render_lines, render, export_screenshot, a snapshot)."""
    from textual.screen import Screen

    original = Screen._compositor_refresh

    def compositor_refresh(self) -> None:
        app = self.app
        if app.is_headless and not app.is_inline and self is app.screen:
            self._compositor._dirty_regions.clear()
            self._dirty_widgets.clear()
            app._update_mouse_over(self)
            return
        original(self)

    Screen._compositor_refresh = compositor_refresh


_no_screen_output_when_headless()


def _one_css_parse_per_process() -> None:
    """Every Pilot test starts a new app, and each app parses the same CSS again (its stylesheet's
    parse cache is its own, and a reparse builds a fresh stylesheet with an empty cache): about a
    quarter of a short Pilot test's processor time. Here the rules parsed from one CSS text under
    one set of variables are parsed once per process; the parse is a pure function of those, and
    the rule sets are only read afterwards, so every app gets the rules it would have parsed."""
    from textual.css.stylesheet import Stylesheet

    cache: dict[tuple, list] = {}
    original = Stylesheet._parse_rules

    def parse_rules(self, css, read_from, is_default_rules=False, tie_breaker=0, scope=""):
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(sorted(self._variables.items())))
        rules = cache.get(key)
        if rules is None:
            rules = cache[key] = original(self, css, read_from, is_default_rules, tie_breaker, scope)
        return rules

    Stylesheet._parse_rules = parse_rules


_one_css_parse_per_process()


@pytest.fixture(autouse=True)
def _own_settings_folder(monkeypatch, tmp_path_factory):
    """No test reads or writes the user's settings (a settings file another run left in ~/.config/sticks-tui
    showed its notice in snapshots and changed the train dialog's defaults): each test gets a settings folder
    of its own unless it sets one (a test's own `setenv` comes later and wins)."""
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path_factory.mktemp("own-config")))
