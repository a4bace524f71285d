"""Snapshots of the visual widgets on their own: the hat heatmap (80x24 and 160x48, mid-training with
big counts), the learning curve (log-spaced samples, and a linear one), the help screen, the Nim hats.

Every figure is made here from fixed numbers (no training, no clock), so nothing moves.
Regenerate with `pytest tests/snapshots --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

import numpy as np
from textual.app import App
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label

from sticks_tui.engine.nim import NimRules
from sticks_tui.learn.hats import Hats
from sticks_tui.solve.nim import winning_moves as nim_winning_moves
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.screens.help import HelpScreen
from sticks_tui.ui.widgets.curve import CurveSeries, LearningCurve
from sticks_tui.ui.widgets.heatmap import HatHeatmap, HeatmapData
from sticks_tui.ui.widgets.container_view import ContainerData, ContainerView


def mid_training(hats: int = 100) -> HeatmapData:
    """Hats part-way through a long run: big counts on most winning balls, a few not there yet."""
    solution = solve_sticks(hats)
    perfect = tuple(solution.winning_moves(n) for n in range(hats + 1))
    counts = np.ones((hats + 1, 3), dtype=np.int64)
    for n in range(1, hats + 1):
        for ball in range(1, min(3, n) + 1):
            if ball in perfect[n] and n % 7:
                counts[n, ball - 1] = (n * 7_919_113) % 90_000_000 + 150_000
            else:
                counts[n, ball - 1] = 1 + (n * 613 + ball * 97) % 40_000
    counts[7] = (2, 2**62, 3)
    return HeatmapData(counts=counts, hats=hats, max_take=3, perfect=perfect, current=57, drawn=(57, 3),
                       beside=frozenset({(61, 1), (65, 2)}), flash=((70, 1, 1), (66, 3, -1)))


class HeatmapApp(App):
    def compose(self):
        with Horizontal():
            yield Label("the board would be here", id="board")
            with Vertical(id="panel"):
                yield Label("Learning AI's hats", id="title")
                yield HatHeatmap(id="heatmap")

    CSS = """
    #board { width: 1fr; min-width: 36; }
    #panel { width: 42; border-left: tall $panel; }
    #title { text-style: bold; }
    .-wide #panel { width: 2fr; max-width: 120; }
    """
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    def on_mount(self) -> None:
        heatmap = self.query_one(HatHeatmap)
        heatmap.data = mid_training()
        heatmap.show_perfect = True


def log_samples(end: int = 1_000_000) -> list[tuple[int, float, float, float]]:
    """(games, agreement, win first, win second) at 1, 2, 5, 10, 20, 50 ... games: a learning run."""
    out, k = [], 0
    while (games := (1, 2, 5)[k % 3] * 10 ** (k // 3)) <= end:
        x = k / 3  # log10(games), roughly
        agreement = min(1.0, max(0.0, (x - 1.0) / 3.5))
        first = min(1.0, max(0.0, (x - 1.5) / 2.5))
        second = 0.0 if x < 3 else min(1.0, (x - 3) / 4)
        out.append((games, round(agreement, 3), round(first, 3), round(second, 3)))
        k += 1
    return out


class CurveApp(App):
    def compose(self):
        yield Label("Learning curve of the last training run")
        yield LearningCurve(id="training-curve")
        yield Label("The learning AI against people (from the records)")
        yield LearningCurve([CurveSeries("learning AI's share of wins", "●",
                                         tuple((i, min(1.0, 0.15 + i / 90)) for i in range(1, 61)))],
                            x_scale="linear", x_label="games recorded", id="people-curve")

    def on_mount(self) -> None:
        self.query_one("#training-curve", LearningCurve).points = log_samples()


class GameLike(Screen):
    BINDINGS = [
        Binding("1,2,3", "take", "Take", key_display="1-3"),
        Binding("p", "perfect", "Perfect"),
        Binding("n,enter", "again", "Play again", show=False),
        Binding("escape", "back", "Setup"),
    ]

    def compose(self):
        yield Label("a game screen")
        yield Footer()

    def action_take(self) -> None:
        pass


class HelpApp(App):
    BINDINGS = [Binding("f2,t", "train", "Train", key_display="F2"), Binding("f1", "help", "Help")]

    def on_mount(self) -> None:
        self.push_screen(GameLike())
        self.call_after_refresh(lambda: self.push_screen(HelpScreen.of(self.screen)))

    def action_train(self) -> None:
        pass


class ContainerApp(App):
    def compose(self):
        yield Label("three-pile Nim: the learning AI's hat for this position")
        yield ContainerView(id="container")

    def on_mount(self) -> None:
        from sticks_tui.engine.nim import coins_word

        brain = Hats(NimRules((7, 7, 7)))
        position = (2, 3, 5)
        moves = brain.moves_of(position)
        counts = [1 + (i * 37) % 50 for i in range(len(moves))]
        counts[moves.index((2, 4))] = 2_340
        self.query_one(ContainerView).data = ContainerData.of(
            "Hat for 2 nickels, 3 dimes, 5 quarters", moves, (coins_word(*m) for m in moves), counts,
            perfect=nim_winning_moves(position), drawn=(2, 4))


def test_heatmap_80x24(snap_compare):
    assert snap_compare(HeatmapApp(), terminal_size=(80, 24))


def test_heatmap_160x48(snap_compare):
    assert snap_compare(HeatmapApp(), terminal_size=(160, 48))


def test_learning_curves_80x24(snap_compare):
    assert snap_compare(CurveApp(), terminal_size=(80, 24))


def test_help_screen_80x24(snap_compare):
    async def settle(pilot):
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(HelpApp(), terminal_size=(80, 24), run_before=settle)


def test_a_container_80x24(snap_compare):
    assert snap_compare(ContainerApp(), terminal_size=(80, 24))
