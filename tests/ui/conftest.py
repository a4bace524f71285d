"""Fixtures for the Pilot tests: a fresh app on a temporary data directory (buttons without the click delay: tests/conftest.py)."""

from __future__ import annotations

import pytest

from sticks_tui.ui.app import SticksApp


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    """Every test keeps its settings file here, never in the user's config directory."""
    path = tmp_path / "config"
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(path))
    return path


@pytest.fixture
def data_dir(tmp_path):
    """Every test keeps its records and brains here, never in the user's data directory."""
    return str(tmp_path / "data")


@pytest.fixture
def make_app(data_dir):
    def make(**kwargs) -> SticksApp:
        kwargs.setdefault("seed", 7)
        kwargs.setdefault("ai_delay", 0)
        kwargs.setdefault("trained_games", 2000)
        # at normal priority: on the shared, loaded test machine an idle-priority (SCHED_IDLE) training
        # thread gets almost no time; test_training.py checks the idle priority on its own
        kwargs.setdefault("idle_training", False)
        return SticksApp(data_dir=data_dir, **kwargs)

    return make


@pytest.fixture
def held_training(monkeypatch):
    """Hold the app's background training run after its first progress report past 1,000 games, until
    the test sets the returned event: the run is surely still going while the test looks, however fast
    the machine. The trainer itself is the real one; only its progress callback waits."""
    import threading

    from sticks_tui.ui import app as app_module

    gate = threading.Event()
    real = app_module.sticks_run

    def held_run(config, brain=None):
        run = real(config, brain)

        def wrapped(progress, cancel):
            def report(snapshot):
                progress(snapshot)
                if snapshot.games_done >= 1000 and not snapshot.finished:  # enough games that the hats surely changed
                    while not gate.wait(0.05) and not cancel():  # a cancel (the app quitting) lets it go
                        pass

            return run(report, cancel)

        return wrapped

    monkeypatch.setattr(app_module, "sticks_run", held_run)
    yield gate
    gate.set()  # never leave a training thread waiting
