"""The learning-quality figures are measured on seeds the code was not tuned on, and say which: every
passage of the README and of docs/performance.md (where every benchmark's figures are recorded) that
cites a learning-quality benchmark names its seed block(s) ("seeds 10001-10200"), each block held out
(the regression tests and the measurements the code was tuned on used seeds below 1,000), and the
script's own default block is held out too, so the command the docs give measures a held-out block.
The benchmarks themselves run in test_benchmarks_smoke.py; this test reads text only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUALITY_SCRIPTS = ("bench_quality.py", "bench_nim_quality.py", "bench_lab.py")
TUNED_BELOW = 1_000  # seeds the code and its tests were tuned on
BLOCK = re.compile(r"seeds (\d[\d,]*)-(\d[\d,]*)")


#: Where figures are stated: the README, and the page that records every benchmark's figures.
PAGES = (ROOT / "README.md", ROOT / "docs" / "performance.md")


def passages(text: str) -> list[str]:
    """A page cut into what one figure is said in: a table row, a list item or a paragraph. A heading
    (a benchmark's name over its section) is a title, not a figure: it is left out."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            out.append("")
            continue
        starts = line.startswith(("|", "- ", "* ")) or not line.strip() or not out
        if starts:
            out.append(line)
        else:
            out[-1] += " " + line.strip()
    return [p for p in out if p.strip()]


def citing(script: str) -> list[str]:
    return [p for page in PAGES for p in passages(page.read_text()) if script in p]


def blocks(passage: str) -> list[tuple[int, int]]:
    return [(int(a.replace(",", "")), int(b.replace(",", ""))) for a, b in BLOCK.findall(passage)]


@pytest.mark.parametrize("script", QUALITY_SCRIPTS)
def test_every_figure_of_a_quality_benchmark_names_its_held_out_seeds(script):
    found = citing(script)
    assert found, f"neither the README nor docs/performance.md cites {script}"
    for passage in found:
        named = blocks(passage)
        assert named, f"a figure from {script} does not say its seeds ('seeds A-B'):\n{passage}"
        tuned = [(a, b) for a, b in named if a < TUNED_BELOW or b < a]
        assert tuned == [], f"a figure from {script} is measured on seeds the code was tuned on:\n{passage}"


@pytest.mark.parametrize("script", QUALITY_SCRIPTS)
def test_each_quality_benchmarks_section_of_the_performance_page_names_held_out_seeds_only(script):
    """docs/performance.md records each benchmark under a heading of its name: every seed block in that
    section (its tables' rows too, which need not repeat the script's name) is held out."""
    text = (ROOT / "docs" / "performance.md").read_text()
    found = re.search(rf"^(#+) {re.escape(script)}\n(.*?)(?=^#{{1,3}} |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert found, f"docs/performance.md has no section '{script}'"
    named = blocks(found.group(2))
    assert named, f"docs/performance.md's section {script} names no block of seeds"
    assert [(a, b) for a, b in named if a < TUNED_BELOW or b < a] == []


@pytest.mark.parametrize("script", QUALITY_SCRIPTS)
def test_the_quality_benchmarks_measure_a_held_out_block_by_default(script):
    source = (ROOT / "benchmarks" / script).read_text()
    first = re.search(r'"--first-seed", type=int, default=(\d+)', source)
    assert first is not None, f"{script} has no --first-seed (it measures seeds from 0)"
    assert int(first.group(1)) >= TUNED_BELOW
