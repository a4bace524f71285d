"""How long the heatmap and the learning curve take to draw: a full 100-hat repaint at 160x48 and
at 80x24 (what the training screen does up to 20 times a second), and a 200-point curve.

    python benchmarks/bench_widgets.py [--smoke]

Prints milliseconds per full repaint (every visible line through render_line), median of many.
--smoke: three repaints each; it proves the script works (CI runs it), its figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import numpy as np
from textual.app import App
from textual.geometry import Region

from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.widgets.curve import LearningCurve
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData

REPEATS = 200
_repeats = [REPEATS]


class One(App):
    def __init__(self, widget) -> None:
        super().__init__()
        self.widget = widget

    def compose(self):
        yield self.widget


def repaint_ms(widget, change) -> float:
    """Median milliseconds for: new data, then every visible line drawn."""
    w, h = widget.size
    times = []
    for i in range(_repeats[0]):
        start = time.perf_counter()
        change(i)
        for y in range(h):
            widget.render_line(y)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


async def heatmap(size: tuple[int, int]) -> float:
    solution = solve_sticks(100)
    rng = np.random.default_rng(1)
    counts = rng.integers(1, 2**40, size=(101, 3), dtype=np.int64)
    widget = HatHeatmap()
    async with One(widget).run_test(size=size) as pilot:
        widget.data = HeatmapData(counts=counts, hats=100, max_take=3,
                                  perfect=tuple(solution.winning_moves(n) for n in range(101)))
        await pilot.pause()

        def change(i: int) -> None:
            counts[1 + i % 100, i % 3] += 1
            widget.data = widget.data.with_(counts=counts)

        return repaint_ms(widget, change)


async def curve() -> float:
    widget = LearningCurve()
    points = [(1 + i * 5000, i / 200, min(1, i / 100), max(0, i / 100 - 1)) for i in range(200)]
    async with One(widget).run_test(size=(80, 10)) as pilot:
        widget.points = points
        await pilot.pause()

        def change(i: int) -> None:
            widget.points = points[: 100 + i % 100]

        return repaint_ms(widget, change)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a tiny run that proves the script works (CI)")
    if parser.parse_args().smoke:
        _repeats[0] = 3
    for size in ((160, 48), (80, 24)):
        print(f"heatmap, 100 hats, {size[0]}x{size[1]}: {asyncio.run(heatmap(size)):.2f} ms per full repaint")
    print(f"learning curve, 200 points x 3 series, 80x10: {asyncio.run(curve()):.2f} ms per full repaint")


if __name__ == "__main__":
    main()
