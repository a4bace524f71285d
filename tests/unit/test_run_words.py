"""A run's figures in words: games and rates singular or plural, times from seconds to days."""

from __future__ import annotations

from sticks_tui.ui.widgets.training_badge import duration_words, format_seconds, games_words, rate_words


def test_singular_and_plural():
    assert games_words(1) == "1 game" and games_words(0) == "0 games" and games_words(100_000) == "100,000 games"
    assert rate_words(1.0) == "1 game a second" and rate_words(0.96) == "1 game a second"
    assert rate_words(2.5) == "2.5 games a second" and rate_words(1234.4) == "1,234 games a second"
    assert rate_words(3_120_000) == "3.12M games a second"


def test_times_a_person_reads():
    assert format_seconds(12) == "12 s" and format_seconds(65) == "1:05" and format_seconds(7400) == "2:03:20"
    assert format_seconds(100_000) == "27:46:40" and format_seconds(300_000) == "3 d 11 h"
    assert format_seconds(float("inf")) == "--" and format_seconds(None) == "--"
    # a short run: "20,000 games in 0.4 s", never "in 0 s"
    assert format_seconds(0.4) == "0.4 s" and format_seconds(0.02) == "under 0.1 s" and format_seconds(0) == "0 s"
    assert format_seconds(0.94) == "0.9 s" and format_seconds(0.96) == "1 s" and format_seconds(2.4) == "2 s"
    assert duration_words(50) == "about 50 seconds" and duration_words(840) == "about 14 minutes"
    assert duration_words(100_000) == "about 28 hours" and duration_words(10_000_000 / 20) == "about 6 days"
    assert duration_words(60) == "about 60 seconds" and duration_words(3600) == "about 60 minutes"
    assert duration_words(1) == "about 1 second"
