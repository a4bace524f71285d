"""Every snapshot is taken with settings of its own, never the user's (a settings file another run left in
~/.config/sticks-tui shows its notice in the picture): the tests that set their own still do."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def own_settings(monkeypatch, tmp_path):
    monkeypatch.setenv("STICKS_TUI_CONFIG_DIR", str(tmp_path / "own-config"))
