"""Fixtures for the Pilot tests: a fresh app on a temporary data directory; buttons without the click delay."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from sticks_tui.ui.app import SticksApp


@pytest.fixture(autouse=True)
def no_button_effect(monkeypatch):
    """Buttons ignore a second click within 0.2 s of the first; tests click faster than that."""
    original = Button.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.active_effect_duration = 0

    monkeypatch.setattr(Button, "__init__", init)


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
        return SticksApp(data_dir=data_dir, **kwargs)

    return make
