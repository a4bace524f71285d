"""The README and docs/ stay true: the screenshot is the app's own, every module has its line in the
architecture page, every figure the README quotes is a benchmark's recorded figure, and every link
resolves. All of it reads text, except the screenshot, which runs the app once under Pilot.

The README quotes a figure only as a link whose text is the figure and whose target is the section of
docs/performance.md where the benchmark that measured it records it:
`[12.1 M games/s](docs/performance.md#bench_trainpy)`. Every number of the link's text must be
written in that section, the section must be a benchmark's (a heading naming a script in
benchmarks/, or a heading under one), and no speed, time or size may stand in the README outside
such a link.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PACKAGE = ROOT / "sticks_tui"
BENCHMARKS = ROOT / "benchmarks"
ARCHITECTURE = DOCS / "architecture.md"
PERFORMANCE = DOCS / "performance.md"
SCREENSHOT = DOCS / "screenshots" / "game.svg"

LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
NUMBER = re.compile(r"\d(?:[\d,.]*\d)?")
#: A figure of speed, time or size: what only a benchmark may say.
MEASURE = re.compile(r"\d(?:[\d,.]*\d)?\s*(?:M |k |million )?"
                     r"(?:games/s|games a second|games per second|ms\b|MB\b|GB\b|s\b|seconds?\b|CPU\b|"
                     r"x faster|times faster|pupils\b|tabs\b)")


def pages() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where a link or a heading is only an example."""
    text = re.sub(r"^```.*?^```[^\n]*$", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(path: Path) -> list[tuple[int, str, str]]:
    """(level, text, anchor) of every heading, anchors made unique as GitHub makes them."""
    out, seen = [], {}
    text = re.sub(r"^```.*?^```[^\n]*$", "", path.read_text(), flags=re.MULTILINE | re.DOTALL)
    for line in text.splitlines():
        match = HEADING.match(line)
        if match:
            anchor = slug(match.group(2))
            n = seen.get(anchor, 0)
            seen[anchor] = n + 1
            out.append((len(match.group(1)), match.group(2), anchor if n == 0 else f"{anchor}-{n}"))
    return out


def links(path: Path) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in LINK.finditer(prose(path.read_text()))]


def section(path: Path, anchor: str) -> tuple[list[str], str]:
    """The headings above the heading `anchor` (outermost first, itself last) and its section's text:
    from it to the next heading of its level or higher."""
    lines = re.sub(r"^```.*?^```[^\n]*$", "", path.read_text(), flags=re.MULTILINE | re.DOTALL).splitlines()
    marks = [(len(m.group(1)), m.group(2), i) for i, line in enumerate(lines) if (m := HEADING.match(line))]
    index = next((k for k, (_, _, a) in enumerate(headings(path)) if a == anchor), None)
    assert index is not None, f"{path.name} has no heading #{anchor}"
    above: list[tuple[int, str]] = []
    for level, text, _ in marks[:index + 1]:
        while above and above[-1][0] >= level:
            above.pop()
        above.append((level, text))
    level, _, start = marks[index]
    end = next((i for lv, _, i in marks[index + 1:] if lv <= level), len(lines))
    return [text for _, text in above], "\n".join(lines[start:end])


def benchmark_scripts() -> list[str]:
    return sorted(p.name for p in BENCHMARKS.glob("*.py") if "__main__" in p.read_text())


# -- the screenshot ------------------------------------------------------------------------------

def test_the_readme_shows_the_screenshot_and_it_is_current(tmp_path):
    """docs/screenshots/make.py, run again, makes the same file as the one committed: a change to the
    game screen that was not followed by `python docs/screenshots/make.py` fails here."""
    assert "](docs/screenshots/game.svg)" in README.read_text()
    spec = importlib.util.spec_from_file_location("make_screenshots", DOCS / "screenshots" / "make.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    fresh = make.make(tmp_path / "game.svg")
    assert SCREENSHOT.exists(), "run: python docs/screenshots/make.py"
    assert fresh.read_bytes() == SCREENSHOT.read_bytes(), (
        "the game screen changed: run `python docs/screenshots/make.py`, look at docs/screenshots/game.svg "
        "and commit it")


# -- the architecture page -----------------------------------------------------------------------

def named_modules() -> set[str]:
    """The modules the architecture page maps: the first cell of its tables' rows."""
    return set(re.findall(r"^\|\s*`([\w/]+\.py)`\s*\|", ARCHITECTURE.read_text(), flags=re.MULTILINE))


def test_every_module_has_its_line_in_the_architecture_page():
    modules = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}
    packages = {m.rsplit("/", 1)[0] for m in modules if m.endswith("/__init__.py")}
    wanted = {m for m in modules if not m.endswith("/__init__.py")}
    missing = sorted(wanted - named_modules())
    assert missing == [], f"docs/architecture.md has no line for {missing}"
    text = ARCHITECTURE.read_text()
    assert [p for p in sorted(packages) if f"{p}/" not in text] == []


def test_every_module_the_architecture_page_names_exists():
    gone = sorted(m for m in named_modules() if not (PACKAGE / m).is_file())
    assert gone == [], f"docs/architecture.md names modules that are not in sticks_tui/: {gone}"


# -- the figures ---------------------------------------------------------------------------------

def test_every_benchmark_has_its_section_in_the_performance_page():
    titled = {text.strip("`") for _, text, _ in headings(PERFORMANCE)}
    assert [s for s in benchmark_scripts() if s not in titled] == []


def test_every_figure_the_readme_quotes_is_a_benchmarks_recorded_figure():
    quoted = [(text, target.split("#", 1)[1]) for text, target in links(README)
              if target.startswith("docs/performance.md#")]
    assert quoted, "the README quotes no measured figure (expected at least the training speed)"
    scripts = set(benchmark_scripts())
    for text, anchor in quoted:
        titles, body = section(PERFORMANCE, anchor)
        assert any(t.strip("`") in scripts for t in titles), (
            f"[{text}] links to #{anchor}, which is not a benchmark's section of docs/performance.md")
        numbers = NUMBER.findall(text)
        assert numbers, f"[{text}] links to the figures but quotes none"
        for number in numbers:
            assert re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", body), (
                f"the README quotes {number} ([{text}]) but docs/performance.md#{anchor} does not record it")


def test_the_readme_states_no_measured_figure_outside_a_benchmark_link():
    text = LINK.sub(lambda m: "" if m.group(2).startswith("docs/performance.md#") else m.group(0),
                    README.read_text())
    stray = [m.group(0) for m in MEASURE.finditer(text)]
    assert stray == [], f"the README states figures without their benchmark (link them to docs/performance.md): {stray}"


# -- the links -----------------------------------------------------------------------------------

def test_every_relative_link_and_anchor_resolves():
    broken = []
    for page in pages():
        for text, target in links(page):
            if re.match(r"[a-z]+:", target):
                continue  # a web address: not checked here (no network)
            path, _, anchor = target.partition("#")
            goal = (page.parent / path).resolve() if path else page
            if not goal.exists():
                broken.append(f"{page.name}: [{text}]({target}): no {path}")
            elif anchor and anchor not in {a for _, _, a in headings(goal)}:
                broken.append(f"{page.name}: [{text}]({target}): {goal.name} has no heading #{anchor}")
    assert broken == []


def test_every_page_of_the_docs_is_linked_from_the_readme():
    targets = {(ROOT / t.partition("#")[0]).resolve() for _, t in links(README) if not re.match(r"[a-z]+:", t)}
    assert [p.name for p in sorted(DOCS.glob("*.md")) if p.resolve() not in targets] == []


def test_the_readme_is_short_and_for_teachers():
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    assert re.findall(r"\bissues? #?\d+|\(#\d+\)", text, flags=re.IGNORECASE) == []  # no issue numbers
    assert re.findall(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b", text) == []  # no commit hashes


@pytest.mark.parametrize("heading, anchor", [("bench_train.py", "bench_trainpy"),
                                             ("How many pupils a laptop holds", "how-many-pupils-a-laptop-holds"),
                                             ("`engine/`: the rules [rules]", "engine-the-rules-rules"),
                                             ("What is promised, and the tests that hold it",
                                              "what-is-promised-and-the-tests-that-hold-it")])
def test_anchors_are_made_as_github_makes_them(heading, anchor):
    assert slug(heading) == anchor
