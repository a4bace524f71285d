"""The whole suite: the tests marked `slow` run first.

`slow` marks a test that takes seconds of its own on an idle machine: a real Chromium, a real
server, a numba compile, a hypothesis sweep, a Pilot test that walks many screens. CI runs them
all (`pytest`, as the README says); `pytest -m "not slow"` is the quick run while you work.

Run first, the long tests start while both xdist workers are fresh, and the last minutes are
made of short tests that the workers share out (`--dist worksteal`: a worker that runs dry
takes half of what the other has left). Run last, one long test would keep one core busy
while the other waits.

Pilot tests (tests/ui, tests/snapshots) wait no longer than the app needs (_quicker_pilot_waits) and
skip rendering screen updates that a headless app throws away (_no_screen_output_when_headless);
`benchmarks/bench_suite.py` measures the suite.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config, items):
    # a stable sort: the slow tests first, each group in its usual order (a module's tests stay together)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)



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
