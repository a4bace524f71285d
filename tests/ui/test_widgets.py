"""The visual widgets on their own, in small Pilot apps: the hat heatmap, the learning curve, the help
screen and the Nim hats. Each test asserts on what the widget shows (its rendered lines)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from textual.app import App
from textual.binding import Binding
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from sticks_tui.engine.nim import NimRules
from sticks_tui.learn.hats import Hats
from sticks_tui.solve.nim import winning_moves as nim_winning_moves
from sticks_tui.solve.sticks import solve_sticks
from sticks_tui.ui.screens.help import HelpScreen, keys_of, nice_key
from sticks_tui.ui.widgets.curve import (LABEL_AGREEMENT, LABEL_WIN, LABEL_WIN_FIRST, LABEL_WIN_SECOND,
                                         CurveSeries, LearningCurve, tick_text)
from sticks_tui.ui.widgets.heatmap import (BARS, CELL, MARK_BESIDE, MARK_DOWN, MARK_DRAWN, MARK_PERFECT, MARK_UP,
                                           HatHeatmap, HeatmapData, chance_bar, chance_hbar, short_chance, short_count)
from sticks_tui.ui.widgets.container_view import ContainerData, ContainerView

from ui_helpers import wait_until


def lines_of(widget) -> list[str]:
    """What the widget shows, line by line (no colour: exactly what NO_COLOR shows)."""
    w, h = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, w, h))]


class One(App):
    """An app that only shows one widget."""

    def __init__(self, widget, **kwargs) -> None:
        super().__init__(**kwargs)
        self.widget = widget

    def compose(self):
        yield self.widget


# -- short forms ------------------------------------------------------------------------------

@pytest.mark.parametrize("n, text", [
    (0, "0"), (9, "9"), (99, "99"), (999, "999"), (1000, "1.0k"), (1099, "1.0k"), (1100, "1.1k"),
    (9999, "9.9k"), (10_000, "10k"), (99_999, "99k"), (100_000, "100k"), (999_999, "999k"),
    (1_000_000, "1.0M"), (9_999_999, "9.9M"), (10_000_000, "10M"), (999_999_999, "999M"),
    (10**9, "1.0G"), (10**12, "1.0T"), (10**15, "1.0P"), (10**18, "1.0E"),
    (2**62, "4.6E"), (2**63 - 1, "9.2E"), (np.int64(2**62), "4.6E"),
])
def test_short_count_boundaries(n, text):
    assert short_count(n) == text


def test_short_count_never_takes_more_than_four_characters():
    edges = {0}
    for p in range(0, 64):
        for d in (-1, 0, 1):
            edges.add(max(0, 2**p + d))
    for p in range(0, 28):
        for m in (1, 5, 9.95, 9.99):
            for d in (-1, 0, 1):
                edges.add(max(0, int(m * 10**p) + d))
    for n in edges:
        text = short_count(n)
        assert 1 <= len(text) <= 4, (n, text)
        assert " " not in text, (n, text)


def test_short_count_never_claims_more_than_there_is():
    units = {"k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12, "P": 10**15, "E": 10**18}
    for n in (1999, 19_999, 2**40 - 1, 2**62, 10**18 - 1):
        text = short_count(n)
        assert float(text[:-1]) * units[text[-1]] <= n


@pytest.mark.parametrize("count, total, text", [
    (1, 1, "all"), (0, 5, " 0%"), (1, 3, "33%"), (2, 3, "67%"), (1, 201, "<1%"), (1, 200, " 1%"),
    (2**62, 2**62 + 2, "99%"), (2**62 - 1, 2**62, "99%"), (0, 0, " 0%"),
])
def test_short_chance(count, total, text):
    assert short_chance(count, total) == text


def test_chance_bar_grows_with_the_chance():
    assert chance_bar(0, 10) == " " and chance_bar(1, 10**9) == BARS[1] and chance_bar(10, 10) == BARS[8]
    heights = [BARS.index(chance_bar(c, 100)) for c in range(0, 101)]
    assert heights == sorted(heights)


# -- the heatmap ------------------------------------------------------------------------------

def trained_counts(hats: int = 100, big: bool = True) -> tuple[np.ndarray, tuple]:
    """Counts as after a long run: winning balls in the millions, the rest small; one 2**62."""
    solution = solve_sticks(hats)
    perfect = tuple(solution.winning_moves(n) for n in range(hats + 1))
    counts = np.ones((hats + 1, 3), dtype=np.int64)
    for n in range(1, hats + 1):
        for ball in range(1, min(3, n) + 1):
            if ball in perfect[n]:
                counts[n, ball - 1] = 10**7 + 123_456 * n if big else 40 + n
            else:
                counts[n, ball - 1] = 1 + (n * 37 + ball * 11) % 900
    counts[7] = (1, 2**62, 1)
    return counts, perfect


CELL_RE = re.compile(r"([ ✓].)(all|<1%|[ \d]\d%) ([━╸]*) *([ \d.kMGTPE]{4})$")  # ✓►: perfect and drawn


def parse_row(text: str, max_take: int = 3, cell: int = CELL) -> list[tuple[int, list[tuple[str, str, str]]]]:
    """A heatmap row as [(hat, [(mark, chance, count) per ball])], each cell `cell` characters wide (wider
    cells hold a bar across, as long as the chance, before the count): fails if cells run together."""
    out = []
    rest = text.rstrip()
    while rest:
        m = re.match(r"\s*(\d{1,3})", rest)
        assert m, f"no hat number at {rest!r}"
        hat, rest = int(m.group(1)), rest[m.end():]
        cells = []
        for _ in range(max_take):
            one, rest = rest[:cell].ljust(cell), rest[cell:]
            c = CELL_RE.match(one)
            if c is None:
                assert one == "    -".ljust(cell), f"hat {hat}: cell unreadable at {one!r}"
                cells.append(("", "-", ""))
                continue
            cells.append((c.group(1).strip(), c.group(2), c.group(4).strip()))
        out.append((hat, cells))
    return out


def hat_rows(heatmap: HatHeatmap) -> dict[int, list[tuple[str, str, str]]]:
    """Every hat row on screen (between the header and the legend), parsed."""
    lines = lines_of(heatmap)
    shown = {}
    for line in lines[1:]:
        if re.match(r"\s*\d{1,3}[ ✓]", line):  # a hat row (legend lines start with a mark or '19k')
            for hat, cells in parse_row(line, heatmap.data.max_take, heatmap.cell_width()):
                shown[hat] = cells
    return shown


async def test_heatmap_cells_are_separated_and_show_chance_then_count_up_to_2_62():
    counts, perfect = trained_counts()
    heatmap = HatHeatmap()
    app = One(heatmap)
    async with app.run_test(size=(160, 48)) as pilot:
        heatmap.data = HeatmapData(counts=counts, hats=100, max_take=3, perfect=perfect)
        await pilot.pause()
        shown = hat_rows(heatmap)
        assert sorted(shown) == list(range(1, 101))  # every hat of a 100-stick game, at once
        assert heatmap.max_scroll_y == 0
        assert shown[7] == [(BARS[1], "<1%", "1"), (BARS[8], "99%", "4.6E"), (BARS[1], "<1%", "1")]
        assert shown[1][0][1] == "all" and shown[1][1][1] == "-" and shown[2][2][1] == "-"
        for hat, cells in shown.items():
            for ball, (_, chance, count) in enumerate(cells, 1):
                if chance != "-":
                    assert count == short_count(counts[hat, ball - 1]), (hat, ball)
        header = lines_of(heatmap)[0]
        assert header.count("hat") == 3 and header.count("ball 1") == 3
        legend = "\n".join(lines_of(heatmap))
        for words in ("chance this ball is drawn", "k thousand, M million", MARK_DRAWN, MARK_BESIDE,
                      MARK_UP, MARK_DOWN, "after a game"):
            assert words in legend


async def test_heatmap_at_160x48_leaves_no_large_empty_area():
    counts, perfect = trained_counts()
    heatmap = HatHeatmap()
    async with One(heatmap).run_test(size=(160, 48)) as pilot:
        heatmap.data = HeatmapData(counts=counts, hats=100, max_take=3, perfect=perfect)
        await pilot.pause()
        cols, rows, column_major = heatmap.grid()
        assert column_major and cols == 3 and rows == 34
        lines = lines_of(heatmap)
        # the legend follows the hats (no gap in the middle of the panel) ...
        assert min(i for i, line in enumerate(lines) if "chance this ball is drawn" in line) == rows + 2
        # ... and the hats fill the height: 3 columns of 34, not 4 short ones; spare rows explain
        assert rows >= 0.7 * heatmap.body_height()
        assert all(len(line.rstrip()) >= 3 * 33 for line in lines[1:rows + 1][:rows - 2])
        assert "a ball waiting beside its hat until the game ends" in "\n".join(lines)
        assert sum(1 for line in lines if not line.strip()) <= 8
    # the columns come from the width: narrower, fewer columns (and it scrolls)
    heatmap = HatHeatmap()
    async with One(heatmap).run_test(size=(80, 48)) as pilot:
        heatmap.data = HeatmapData(counts=counts, hats=100, max_take=3, perfect=perfect)
        await pilot.pause()
        assert heatmap.grid()[0] == 2


def test_chance_hbar_is_as_long_as_the_chance():
    assert chance_hbar(0, 5, 10) == " " * 10 and chance_hbar(1, 1, 10) == "━" * 10
    assert chance_hbar(1, 2, 10) == "━" * 5 + " " * 5 and chance_hbar(1, 4, 10) == "━━╸" + " " * 7
    assert chance_hbar(1, 10**9, 10) == "╸" + " " * 9  # a ball that can come out always shows


async def test_heatmap_with_room_to_spare_grows_its_cells_and_spaces_its_hats():
    """A few hats on a big screen (a projector): wider cells with a bar across as long as the chance, and a
    blank line under each hat, rather than a small table in the top left corner of an empty panel."""
    counts = np.ones((21, 3), dtype=np.int64)
    counts[4] = (6, 3, 1)
    heatmap = HatHeatmap()
    async with One(heatmap).run_test(size=(160, 48)) as pilot:
        heatmap.data = HeatmapData(counts=counts, hats=20, max_take=3)
        await pilot.pause()
        lines = lines_of(heatmap)
        assert [line.split()[0] for line in lines[1:8:2]] == ["1", "2", "3", "4"]
        assert all(not line.strip() for line in lines[2:9:2])  # a blank line under each hat
        assert heatmap.cell_width() > 2 * CELL
        assert len(lines[7].rstrip()) > 2.5 * (3 + 3 * CELL)  # far wider than the narrow table ...
        assert len([line for line in lines if not line.strip()]) <= 26  # ... and, spaced, most of its height
        assert sorted(hat_rows(heatmap)) == list(range(1, 21))
        bars = [heatmap.cell_text(4, ball).count("━") for ball in (1, 2, 3)]
        assert bars[0] > bars[1] > bars[2] > 0  # 60%, 30%, 10%
        assert hat_rows(heatmap)[4] == [(BARS[5], "60%", "6"), (BARS[3], "30%", "3"), (BARS[1], "10%", "1")]


async def test_heatmap_at_80x24_reaches_every_hat_and_shows_the_hat_in_play():
    counts, perfect = trained_counts()
    heatmap = HatHeatmap()
    async with One(heatmap).run_test(size=(40, 22)) as pilot:  # the game screen's panel at 80x24
        heatmap.data = HeatmapData(counts=counts, hats=100, max_take=3, perfect=perfect)
        await pilot.pause()
        assert heatmap.grid()[0] == 1 and heatmap.max_scroll_y > 0
        seen: set[int] = set()
        for y in range(0, int(heatmap.max_scroll_y) + 1):
            heatmap.scroll_to(y=y, animate=False, immediate=True)
            await pilot.pause()
            seen |= set(hat_rows(heatmap))
        assert seen == set(range(1, 101))  # all reachable by scrolling
        heatmap.scroll_to(y=0, animate=False, immediate=True)
        await pilot.pause()
        assert 100 not in hat_rows(heatmap)
        heatmap.data = heatmap.data.with_(current=100)  # the game is at 100 sticks: scroll to it
        await pilot.pause()
        assert 100 in hat_rows(heatmap)
        heatmap.data = heatmap.data.with_(current=None, drawn=(3, 2))  # a draw from hat 3
        await pilot.pause()
        rows = hat_rows(heatmap)
        assert rows[3][1][0] == MARK_DRAWN and heatmap.cell_text(3, 2).startswith(MARK_DRAWN)


async def test_heatmap_marks_read_without_colour(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    counts, perfect = trained_counts(20, big=False)
    heatmap = HatHeatmap()
    app = One(heatmap)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        heatmap.data = HeatmapData(counts=counts, hats=20, max_take=3, perfect=perfect, drawn=(20, 3),
                                   beside=frozenset({(18, 2)}), flash=((15, 1, 1), (14, 2, -1)))
        heatmap.show_perfect = True
        await pilot.pause()
        rows = hat_rows(heatmap)
        assert rows[20][2][0] == MARK_PERFECT + MARK_DRAWN  # 20: take 3 wins, and the AI drew it
        assert rows[18][1][0] == MARK_BESIDE
        assert rows[15][0][0] == MARK_UP and rows[14][1][0] == MARK_DOWN
        assert rows[10][0][0] == MARK_PERFECT  # from 10, take 1 wins
        assert all(cells[b][0] != MARK_PERFECT for b in range(3) for cells in [rows[9]])  # 9 is lost
        assert rows[4][2][0] == MARK_PERFECT and rows[4][0][0] in BARS
        svg = app.export_screenshot()
        for mark in (MARK_DRAWN, MARK_BESIDE, MARK_UP, MARK_DOWN, MARK_PERFECT, "perfect"):
            assert mark in svg
        # in 16 colours too
        app.theme = "ansi-dark"
        await pilot.pause()
        assert hat_rows(heatmap) == rows


async def test_heatmap_without_hats_and_without_legend():
    heatmap = HatHeatmap(legend=False)
    async with One(heatmap).run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert lines_of(heatmap)[0].startswith("no hats to show")
        heatmap.data = HeatmapData(counts=np.ones((11, 3), dtype=np.int64), hats=10)
        await pilot.pause()
        assert not any("chance" in line for line in lines_of(heatmap))
        assert sorted(hat_rows(heatmap)) == list(range(1, 10))  # 10 rows: the header and 9 hats
        assert heatmap.max_scroll_y == 1


# -- the learning curve -----------------------------------------------------------------------

def log_points(end: int = 2_000_000) -> list[tuple[int, float, float, float]]:
    out, k = [], 0
    while (g := (1, 2, 5)[k % 3] * 10 ** (k // 3)) <= end:
        a = min(1.0, k / 15)
        out.append((g, a, min(1.0, 2 * a), max(0.0, 2 * a - 1)))
        k += 1
    return out


async def test_curve_has_labelled_axes_and_series_told_apart_without_colour():
    curve = LearningCurve(id="c")
    async with One(curve).run_test(size=(80, 9)) as pilot:
        curve.points = log_points()
        await pilot.pause()
        lines = lines_of(curve)
        text = "\n".join(lines)
        assert [s.label for s in curve.series] == [LABEL_AGREEMENT, LABEL_WIN_FIRST, LABEL_WIN_SECOND]
        glyphs = [s.glyph for s in curve.series]
        assert len(set(glyphs)) == 3
        assert f"{glyphs[0]} {LABEL_AGREEMENT} 100%" in text and f"{glyphs[2]} {LABEL_WIN_SECOND} 100%" in text
        plot = [line[5:] for line in lines if line[4:5] in "┤│┼"]
        assert lines[-3 + 1].startswith("    └") and "games" in lines[-2] + lines[-1]
        for label in ("100%┤", "  0%┼", " 50%┤"):
            assert any(line.startswith(label) for line in lines)
        ticks = lines[-1].split()
        assert ticks == ["1", "10", "100", "1k", "10k", "100k", "1M", "2M"]
        for g in glyphs:
            assert any(g in row for row in plot)
        # the rise: at the first game all three are at 0%, side by side at the left of the bottom row,
        # agreement first; at the last game all three are at 100%, side by side at the right of the top row
        assert plot[-1].startswith(glyphs[0] + glyphs[1] + glyphs[2])
        assert plot[0].rstrip().endswith(glyphs[0] + glyphs[1] + glyphs[2])


@pytest.mark.parametrize("n", [0, 1, 2, 200])
async def test_curve_draws_0_1_2_and_200_points(n):
    curve = LearningCurve()
    async with One(curve).run_test(size=(80, 24)) as pilot:
        curve.points = [(1 + i * 5000, i / max(1, n - 1), 0.5) for i in range(n)]
        await pilot.pause()
        lines = lines_of(curve)
        text = "\n".join(lines)
        assert any(line.startswith("100%┤") for line in lines) and "└" in text
        if n == 0:
            assert "no games yet" in text and curve.series == ()
        else:
            assert [s.label for s in curve.series] == [LABEL_AGREEMENT, LABEL_WIN]
            assert text.count("●") >= min(n, 2) and "▲" in text
            assert "no games yet" not in text


async def test_curve_linear_scale_for_games_against_people():
    series = [CurveSeries("learning AI's share of wins", "●", tuple((i, i / 40) for i in range(1, 41)))]
    curve = LearningCurve(series, x_scale="linear", x_label="games recorded")
    async with One(curve).run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        lines = lines_of(curve)
        ticks = lines[-1].split()
        assert ticks[0] == "0" and "40" in ticks
        assert "x: games recorded" in lines[0] + lines[1]  # no room under the axis: the legend names it
        assert "learning AI's share of wins 100%" in lines[0]
    with pytest.raises(ValueError):
        LearningCurve(x_scale="cubic")


def test_tick_text():
    assert [tick_text(x) for x in (1, 10, 1000, 10**6, 2_500_000, 0.5)] == ["1", "10", "1k", "1M", "2.5M", "0.5"]


# -- help ---------------------------------------------------------------------------------

class KeysScreen(Screen):
    BINDINGS = [
        Binding("1", "take(1)", "Take 1", id="keys.take1"),
        Binding("f2,t", "train", "Train", key_display="F2", id="keys.train"),
        Binding("p", "perfect", "Perfect", show=False, id="keys.perfect", tooltip="Show the perfect moves"),
        Binding("x", "reset", "Reset", id="keys.reset"),
        Binding("z", "", "", id="keys.z"),  # no description: not a key to tell people about
        Binding("y", "reset", "Generic"),  # no id: not one of the app's own keys (Textual's Tab, Ctrl+C ...)
    ]

    def compose(self):
        yield Static("a screen")
        yield Input(id="box")
        yield Footer()

    def check_action(self, action, parameters):
        return None if action == "reset" else True  # reset is greyed out now

    def action_train(self) -> None:
        pass


class HelpApp(App):
    BINDINGS = [Binding("f1", "help", "Help", id="help")]

    def on_mount(self) -> None:
        self.push_screen(KeysScreen())

    def action_help(self) -> None:
        self.push_screen(HelpScreen.of(self.screen))


async def test_keys_of_lists_the_screens_active_bindings():
    app = HelpApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.set_focus(None)
        await pilot.pause()
        keys = keys_of(app.screen)
        assert ("1", "Take 1") in keys
        assert ("F2, t", "Train") in keys
        assert ("p", "Show the perfect moves") in keys  # hidden from the footer, still a key; its tooltip in full
        assert ("x", "Reset (not now)") in keys
        assert ("F1", "Help") in keys  # the app's keys work here too
        assert not any(k in ("z", "y", "Tab", "Shift+Tab", "^c") for k, _ in keys)  # Textual's generic keys are not ours
        assert keys[-1] == ("^p", "Command palette: every command, by name")
        assert [k for k, _ in keys].index("1") < [k for k, _ in keys].index("F1")  # the screen's first
        # a focused text box adds nothing of its own that the footer would not show
        app.screen.query_one("#box", Input).focus()
        await pilot.pause()
        assert not any("cursor" in what.lower() for _, what in keys_of(app.screen))


def test_screen_title():
    from sticks_tui.ui.screens.help import screen_title

    class GameScreen(Screen):
        pass

    class TrainDialog(Screen):
        pass

    assert screen_title(GameScreen()) == "the game screen" and screen_title(TrainDialog()) == "the train dialog"


def test_nice_key():
    assert [nice_key(k) for k in ("f1", "shift+tab", "escape", "^q", "t", "enter")] == \
        ["F1", "Shift+Tab", "Esc", "^q", "t", "Enter"]


async def test_help_screen_explains_fits_80x24_and_closes():
    """Opened three times in one app session, closed each time by another key: Escape, F1, q."""
    app = HelpApp()
    app.animation_level = "none"  # End scrolls at once: a key waits for the app's animations (a second here)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for close in ("escape", "f1", "q"):
            app.screen.set_focus(None)
            await pilot.press("f1")
            await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), what="the help screen")
            help_screen = app.screen
            await pilot.pause()
            text = "\n".join(str(s.render()) for s in help_screen.query(Static))
            for words in ("one hat for every number of sticks", "draws a ball at random",
                          "one more of the same number", "thrown away", "at least one ball of each number",
                          "1, 5, 9, 13", "n mod 4 = 1", "Take 1", "F2, t", MARK_DRAWN, MARK_BESIDE,
                          MARK_PERFECT, "chance this ball is drawn"):
                assert words in text, words
            box = help_screen.query_one("#help").region
            assert box.width <= 80 and box.height <= 24
            body = help_screen.query_one("#help-body")
            assert body.max_scroll_y > 0 and body.scroll_y == 0  # more than fits: it scrolls (opened at its top)
            await pilot.press("end")
            await wait_until(pilot, lambda: body.scroll_y > 0, what="End to scroll the help")
            await pilot.press(close)
            await wait_until(pilot, lambda: isinstance(app.screen, KeysScreen), what="the help to close")
            assert not isinstance(app.screen, HelpScreen), close


# -- one container (a hat, a box) ---------------------------------------------------------------

def nim_data(position=(2, 3, 5), drawn=None, favourite=None, perfect=True) -> ContainerData:
    from sticks_tui.engine.nim import coins_word

    brain = Hats(NimRules((7, 7, 7)))
    moves = brain.moves_of(position)
    counts = list(brain.hat(position))
    if favourite is not None:
        counts[moves.index(favourite)] = 1500
    return ContainerData.of(f"Hat for {position}", moves, (coins_word(*m) for m in moves), counts,
                            perfect=nim_winning_moves(position) if perfect else (), drawn=drawn)


async def test_a_container_shows_each_move_chance_count_marks_and_summary():
    data = nim_data((2, 3, 5), drawn=(0, 1), favourite=(2, 4))
    assert set(data.perfect) == {(2, 4)}  # 2 xor 3 xor 1 = 0: take 4 quarters
    widget = ContainerView()
    async with One(widget).run_test(size=(80, 24)) as pilot:
        widget.data = data
        await pilot.pause()
        lines = widget.screen_lines()
        text = "\n".join(lines)
        summary = " ".join(line.strip() for line in lines[:3])
        assert "Hat for (2, 3, 5): 1.5k balls for 10 moves." in text
        assert "Likeliest: 4 quarters (99%), a perfect move ✓." in summary
        assert "drawn is a perfect move" not in summary  # its one perfect move is the likeliest: said above
        assert "Drawn: ► 1 nickel." in summary
        assert widget.entry_text((2, 4)) == "4 quarters █99% 1.5k ✓"
        assert widget.entry_text((0, 1)) == "1 nickel   ►<1%    1"
        assert not widget.entry_text((1, 1)).endswith(MARK_PERFECT)
        for move in data.moves:
            assert any(widget.entry_text(move) in line for line in lines)
        # after a game: the token's count before → after beside it
        widget.data = ContainerData.of(data.title, data.moves, data.labels, data.counts, drawn=(0, 1),
                                       changes={(0, 1): (1, 2)})
        await pilot.pause()
        assert widget.entry_text((0, 1)).endswith("1 → 2 ↑")


async def test_a_container_with_ties_says_so_and_narrow_it_is_one_list():
    data = nim_data((1, 2, 3))
    assert not data.perfect
    assert "No favourite yet (6 moves tie at 17%)." in data.summary()
    tied = nim_data((2, 3, 5))  # a fresh hat: one ball each, one of its 10 moves perfect
    assert "No favourite yet (10 moves tie at 10%). A ball drawn is a perfect move 10% of the time." in tied.summary()
    assert "Likeliest: 1 nickel" in nim_data((1, 2, 3), favourite=(0, 1)).summary()
    # the likeliest not perfect: how often a draw still is (1 ball of 1,505: take 2 nickels)
    assert nim_data((4, 2, 0), favourite=(0, 1)).summary().endswith(
        "Likeliest: 1 nickel (99%), not a perfect move. A ball drawn is a perfect move 0.1% of the time.")
    widget = ContainerView()
    async with One(widget).run_test(size=(30, 24)) as pilot:  # too narrow for columns: one list
        widget.data = data
        await pilot.pause()
        lines = widget.screen_lines()
        assert sum(1 for line in lines if "%" in line and ("nickel" in line or "dime" in line or "quarter" in line)) == 6
    with pytest.raises(ValueError):
        ContainerData("Hat", ("1 nickel",), ((0, 1),), (1, 2))


async def test_heatmap_given_data_before_layout_still_shows_the_hat_in_play():
    counts, perfect = trained_counts()
    heatmap = HatHeatmap()

    class Early(One):
        def on_mount(self) -> None:  # before the first layout: the widget has no size yet
            heatmap.data = HeatmapData(counts=counts, hats=100, max_take=3, perfect=perfect, current=90)

    async with Early(heatmap).run_test(size=(40, 22)) as pilot:
        await pilot.pause()
        assert 90 in hat_rows(heatmap) and 1 not in hat_rows(heatmap)


async def test_heatmap_shows_the_perfect_mark_beside_the_mark_after_a_game():
    """With `p` after a game, a ball the AI just learned (↑) that is the perfect move keeps its ✓ (issue 33
    item 7): the ✓ takes the space before the cell, so both show, on screen as in `cell_text`."""
    counts, perfect = trained_counts(20, big=False)
    heatmap = HatHeatmap()
    app = One(heatmap)
    async with app.run_test(size=(80, 24)) as pilot:
        heatmap.data = HeatmapData(counts=counts, hats=20, max_take=3, perfect=perfect,
                                   flash=((10, 1, 1), (11, 1, -1), (9, 1, 1)))  # 10: take 1 wins; 11: take 2; 9 lost
        heatmap.show_perfect = True
        await pilot.pause()
        assert heatmap.cell_text(10, 1).startswith(MARK_PERFECT + MARK_UP)
        assert heatmap.cell_text(11, 1).startswith(MARK_DOWN) and heatmap.cell_text(11, 2).startswith(MARK_PERFECT)
        assert heatmap.cell_text(9, 1).startswith(MARK_UP)  # no winning move from 9: no ✓
        assert hat_rows(heatmap)[10][0][0] == MARK_PERFECT + MARK_UP  # on screen, both
        heatmap.show_perfect = False
        await pilot.pause()
        assert heatmap.cell_text(10, 1).startswith(MARK_UP) and MARK_PERFECT not in heatmap.cell_text(10, 1)


def test_a_game_with_draws_shows_the_chance_not_to_lose_to_the_perfect_player_and_sticks_does_not():
    """MENACE's figure against a perfect player is not losing (a draw at best): its curve and legend show it as
    the trainer measured it; a game without draws (sticks: NaN, never computed) shows no such line."""
    from sticks_tui.engine.noughts import NoughtsRules
    from sticks_tui.engine.rules import SticksRules
    from sticks_tui.learn.analysis import CurvePoint
    from sticks_tui.ui.widgets.curve import FigureHeadings, legend_items, points_of, series_from_points

    nan = float("nan")
    menace = [CurvePoint(1, 0.0, 0.0, nan, keep_first=0.25, draw_wins=0.5),
              CurvePoint(500, 0.0, 0.0, nan, keep_first=0.996, draw_wins=0.51)]
    series = series_from_points(points_of(menace))
    keep = [s for s in series if s.glyph == "■"]
    assert len(keep) == 1 and keep[0].points == ((1.0, 0.25), (500.0, 0.996))
    items = legend_items(series, about=FigureHeadings.of(NoughtsRules()))
    assert "■ not losing, first 99.6%" in items
    sticks = series_from_points(points_of([CurvePoint(1, 0.5, 0.2, 0.0, draw_wins=0.4)]))
    assert "■" not in {s.glyph for s in sticks}
    assert not any("not losing" in i for i in legend_items(sticks, about=FigureHeadings.of(SticksRules(20))))
