"""The first run after an install compiles the fast trainer: it says so, with the seconds measured on this
machine, and never when numba's cache is warm (issue 33 item 7).

Whether the cache is cold is read from numba's own index files (`compiled._cache_cold`); to see the cold path
without compiling for seconds, the tests below declare the cache cold and let the real (warm) load run."""

from __future__ import annotations

import time

import pytest

from sticks_tui.learn import compiled


@pytest.fixture
def record(tmp_path, monkeypatch):
    """The compile's record kept in a temp file, not beside the worktree's numba cache."""
    path = tmp_path / "sticks-tui-compile.json"
    monkeypatch.setattr(compiled, "record_path", lambda: path)
    return path


def test_the_cache_the_suite_warmed_is_warm_and_a_source_newer_than_it_makes_it_cold():
    assert compiled._cache_cold() is False  # tests/conftest.py compiled every kernel once
    assert compiled._cache_cold(newest=time.time() + 60) is True  # each index older than the sources: stale
    assert compiled.cold() is False and compiled.preparing() is None
    assert compiled.starting_words() == "Starting ..."


def test_a_compile_says_it_prepares_with_the_seconds_last_measured_here_and_measures_this_one(record, monkeypatch):
    record.write_text('{"seconds": 7.2}')
    assert compiled.measured_seconds() == 7.2 == compiled.expected_seconds()
    seen = []
    real_warm = compiled._warm

    def warm(name, fresh):
        seen.append(compiled.starting_words())  # what a training screen shows meanwhile
        real_warm(name, fresh)

    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.setattr(compiled, "_cache_cold", lambda newest=None: True)
    monkeypatch.setattr(compiled, "_warm", warm)
    assert compiled.load() is None
    assert seen == ["Preparing the fast trainer (once, about 7 s): 0 s so far. Training starts as soon as it is "
                    "ready."]
    assert compiled.preparing() is None and compiled.starting_words() == "Starting ..."
    assert compiled.measured_seconds() != 7.2  # this compile's own seconds, kept for the next one
    seen.clear()
    assert compiled.load() is None and seen == []  # loaded: nothing more to prepare


def test_a_warm_cache_never_says_it_prepares(record, monkeypatch):
    seen = []
    real_warm = compiled._warm

    def warm(name, fresh):
        seen.append(compiled.starting_words())
        real_warm(name, fresh)

    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.setattr(compiled, "_warm", warm)
    assert compiled.load() is None
    assert seen == ["Starting ..."] and not record.exists()  # nothing compiled: nothing measured


def test_before_any_compile_was_measured_the_estimate_comes_from_this_machines_speed(record):
    assert compiled.measured_seconds() is None
    record.write_text("not json")
    assert compiled.measured_seconds() is None  # a damaged record is no measurement
    assert compiled.expected_seconds() > 0  # a Python loop timed now, scaled (COMPILE_PER_LOOP)
    compiled._record(3.04)
    assert compiled.expected_seconds() == 3.04  # once measured, the measurement


def test_the_train_command_says_it_on_stderr_only_when_it_compiles(record, monkeypatch, capsys):
    from sticks_tui.cli import main

    record.write_text('{"seconds": 7.2}')
    assert main(["train", "--sticks", "10", "--games", "200", "--seed", "1"]) == 0
    assert capsys.readouterr().err == ""  # the cache is warm: nothing to say
    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.setattr(compiled, "_cache_cold", lambda newest=None: True)
    assert main(["train", "--sticks", "10", "--games", "200", "--seed", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "sticks-tui train: preparing the fast trainer (once, about 7 s) ...\n"
    assert captured.out.startswith("{")  # the JSON on stdout as ever
