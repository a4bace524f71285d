"""The class view (the teacher's projector page): opened with no key, it shows the brain of the game the class
plays with the last game's marks, the whole leaderboard ten at a time, that brain's results and the latest
games, follows a classmate's game by itself, and fits the terminal the projector's page gives it (91x22 at
1280x720 with a 24 px font); a pupil never gets it."""

from __future__ import annotations

import random

from sticks_tui import vocabulary
from sticks_tui.learn.menace import MenaceBrain
from sticks_tui.store import Store
from sticks_tui.ui.app import TooSmallScreen
from sticks_tui.ui.screens.class_view import ClassScreen
from sticks_tui.ui.screens.setup import SetupScreen
from sticks_tui.ui.widgets.heatmap import HatHeatmap
from ui_helpers import text_of, wait_until

PROJECTOR_720P = (91, 22)  # what sticks.js gives the projector's page at 1280x720: 24 px, 91x22 cells
MENACE_X = vocabulary.NOUGHTS_BRAINS["X"]


def sticks_win(name: str) -> dict:
    """A game the learning AI won against `name` at 7 sticks, drawing 1 from hat 6 then from hat 2."""
    return dict(start=7, opponent="learning", players=(name, "Learning AI"), moves=[1, 1, 3, 1, 1], loser=0,
                brain="default", learning={1: ("default", [(6, 1), (2, 1)])})


def lines_of(screen, selector: str) -> list[str]:
    return text_of(screen, selector).splitlines()


async def test_the_projectors_class_view_follows_the_class_with_no_key_to_menaces_boxes_and_nims_hats(
        make_app, data_dir, monkeypatch):
    """One projector, the class's games recorded by classmates as it shows: it follows the class with no key (a
    game of sticks: the hats it taught, the ticker), and its redraw every REFRESH seconds, with nothing new, lays
    out nothing (each line said again was a layout of the whole screen).

    Then a game of noughts against MENACE: the class plays noughts, and the view shows MENACE's boxes with the last
    game's marks. Before, the projector showed the sticks hats whatever the class played; then its own drawing of
    the boxes, with '·' both for a mirror image's square and an emptied one, other numbers than the brain view's
    and 'sq 5: 11k→11k'. Now the brain view's drawing (`container_lines`) with the game's marks in full.

    Then a game of Nim against its learner: the hats its last game drew from, each move drawn with its change in
    full. Last, Esc: back to the setup screen, which needs 80x24: the app says so over it."""
    from ui_helpers import watch_layouts

    from sticks_tui.ui import brains
    from sticks_tui.ui.boards import board_of
    from sticks_tui.ui.screens.brain import container_lines

    with Store.open(data_dir) as store:
        store.record_game(start=5, opponent="friend", players=("Ann", "Bob"), moves=[3, 1, 1], loser=0)
    app = make_app(role="projector", view="class")  # serve's projector page: the view, and a pupil's powers
    async with app.run_test(size=PROJECTOR_720P) as pilot:
        await pilot.pause()
        assert app.session.store.pupil is True
        screen = app.screen
        assert isinstance(screen, ClassScreen)  # laid out for 80x22: no "make the terminal bigger" over it
        assert not any(isinstance(s, TooSmallScreen) for s in app.screen_stack)
        assert [line.split()[:2] for line in lines_of(screen, "#class-leaders")[1:]] == [["1.", "Bob"], ["2.", "Ann"]]
        assert lines_of(screen, "#class-ticker")[0].endswith("Bob beat Ann")
        with Store.open(data_dir) as classmate:
            classmate.record_game(**sticks_win("Cy"))
        heatmap = screen.query_one("#class-heatmap", HatHeatmap)
        await wait_until(pilot, lambda: set(heatmap.data.flash) == {(2, 1, 1), (6, 1, 1)}, timeout=5,
                         what="the classmate's lesson on the class's heatmap")
        assert text_of(screen, "#class-news") == "Cy's game: hat 6, ball 1 ↑; hat 2, ball 1 ↑"
        assert text_of(screen, "#class-brain-title") == "The class plays the Game of Sticks: brain 'default', hats 1-7 (a game of 7)"
        ticker = lines_of(screen, "#class-ticker")  # the newest game enters at the top, the others move down
        assert ticker[0].endswith("Learning AI beat Cy") and ticker[1].endswith("Bob beat Ann")
        laid_out = watch_layouts(monkeypatch)
        screen.refresh_all()  # what its timer does every REFRESH seconds: nothing new
        await pilot.pause()
        assert laid_out == [] and lines_of(screen, "#class-ticker") == ticker

        # a classmate's game of noughts against MENACE (its first box: 11,006 beads on the centre, the corner emptied
        # by losses)
        drawn = [(".........", 5), ("O...X....", 9), ("O.O.X...X", 2), ("OXOOX...X", 8)]
        with Store.open(data_dir) as store:
            menace = store.load_or_create_brain(MENACE_X, game="noughts", seat=0)  # MENACE plays X
            row = menace.row(".........")
            menace.counts[row, menace.column(".........", 5)] = 11_006
            menace.counts[row, menace.column(".........", 1)] = 0
            store.save_brain(MENACE_X, menace, replace=True)
            store.record_game(game="noughts", start=".........", opponent="menace", players=("Ann", "MENACE"),
                              moves=[5, 1, 9, 3, 2, 4, 8], loser=0, first=1, ai_seats=[1], brain=MENACE_X,
                              learning={1: (MENACE_X, drawn)})
            lesson = store.recent_games(limit=1)[0].learning[0]
            brain = store.load_brain(MENACE_X, "noughts")
        screen.refresh_all()  # (its timer's redraw, or the live check's)
        await wait_until(pilot, lambda: screen.query_one("#class-boxes").display, what="MENACE's boxes")
        await pilot.pause()
        assert not screen.query_one("#class-heatmap").display and screen.query_one("#class-boxes").display
        assert text_of(screen, "#class-brain-title").startswith(
            "The class plays noughts and crosses: MENACE (X)'s boxes, brain")
        assert text_of(screen, "#class-news") == "Ann's game: Ann lost"
        boxes = text_of(screen, "#class-boxes")
        changes = {(hat, ball): (before, after) for hat, ball, before, after in lesson.changes}
        assert changes[".........", 5] == (11_006, 11_009)  # MENACE won: +3
        every = {p: (p, moves, counts) for p, moves, counts in brains.containers(brain, brain.rules)}
        cells = [brains.container_move(brain, board, square) for board, square in drawn]  # the boxes' own boards
        shown = [every[position] for position, _ in cells]
        changes.update({cell: changes[pair] for cell, pair in zip(cells, drawn, strict=True) if pair in changes})
        width = screen.query_one("#class-boxes").size.width
        drawing = container_lines(board_of("noughts"), brain.rules, brain, shown, width, changes=changes)
        first_row = [line for line in drawing[:drawing.index("")]]  # the boxes that fit the projector's first row
        assert first_row and all(line in boxes.splitlines() for line in first_row)  # the brain view's own drawing
        number = brains.numbers(brain)["........."]
        assert f"#{number}: " in boxes  # numbered as the brain view and the printed machine number it
        assert "11,006→11,009 ↑" in boxes and "11k→11k" not in boxes  # the change in full
        first = board_of("noughts").small(number, ".........", dict(zip(*every["........."][1:], strict=True)),
                                          mirrored=brains.mirrored_moves(brain, ".........", every["........."][1]),
                                          changes={5: (11_006, 11_009)})
        assert first[1].split() == ["0", str(brain.rule.start_for(1)), "⇋"] and first[2].split() == ["⇋", "↑11k", "⇋"]  # a mirror image
        assert all(line.rstrip() in boxes.splitlines()[1] + "\n" + boxes for line in first)
        assert "·" not in boxes  # and an emptied square told apart, as on the game screen and the boxes screen
        assert boxes.splitlines()[0] == ("Its last game's boxes (won): ↑ beads added, ↓ taken, = kept; ⇋ mirror image; "
                                         "0 emptied.")

        # a classmate's game of Nim against its learner: the hats its last game drew from
        name = vocabulary.nim_brain_name()
        with Store.open(data_dir) as store:
            hats = store.load_or_create_brain(name, game="nim", box=vocabulary.NIM_LEARNER_BOX)
            rng, piles, moves, drawn, seat = random.Random(3), (3, 4, 5), [], [], 0
            while sum(piles):  # the learner (seat 1) draws; seat 0 plays the first legal move
                move = hats.draw(piles, rng) if seat == 1 else hats.moves_of(piles)[0]
                if seat == 1 and len(hats.rules.legal_moves(piles)) > 1:  # a forced move teaches nothing
                    drawn.append((piles, move))
                moves.append(f"{move[0] + 1}:{move[1]}")
                piles = tuple(p - move[1] if i == move[0] else p for i, p in enumerate(piles))
                seat = 1 - seat
            store.record_game(game="nim", start=(3, 4, 5), opponent="learning", players=("Ann", "Nim AI"),
                              moves=moves, loser=seat, brain=name, learning={1: (name, drawn)})
            lesson = store.recent_games(limit=1)[0].learning[0]
        screen.refresh_all()
        await wait_until(pilot, lambda: screen.shown.game == "nim", what="the Nim game")
        await pilot.pause()
        assert screen.query_one("#class-boxes").display and not screen.query_one("#class-heatmap").display
        shown = lines_of(screen, "#class-boxes")[1:]  # under the key
        taught = [(position, move) for position, move in drawn if len(hats.moves_of(position)) > 1]  # a forced
        assert len(taught) >= 2  # move teaches nothing (one rule for every game): its hat is not among them
        number = brains.numbers(screen.brain)
        assert [line.split(" ")[0] for line in shown] == [f"#{number[position]}" for position, _ in taught]
        changes = {(tuple(h), tuple(b)): (x, y) for h, b, x, y in lesson.changes}
        for line, (position, move) in zip(shown, taught, strict=True):  # the move drawn, its change in full
            before, after = changes[position, move]
            arrow = "↑" if after > before else "↓" if after < before else "="
            label = board_of("nim").label(hats.rules, position, move)
            assert f"{label}: {after} ({before:,} → {after:,} {arrow})" in line

        await pilot.press("escape")  # back to the setup screen, which needs 80x24: the app says so over it
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and isinstance(app.screen_stack[-2], SetupScreen)


async def test_the_leaderboard_shows_the_top_ten_then_the_rest_in_turn_and_at_20_sticks_the_hats_that_fit(
        make_app, data_dir):
    """Before, a projector showed the first four rows of the leaderboard with a scrollbar nobody could use: now the
    top ten, then the rest in turn.

    Then a classmate's game at 20 sticks: at 1280x720 it has more hats than the room can read at 24 px: as many as
    fit show, with no scrollbar (before, the view scrolled rows nobody could scroll), and the title says which; at
    1920x1080 (106x27 cells) all 20 show."""
    names = [f"Pupil{i:02d}" for i in range(14)]
    with Store.open(data_dir) as store:
        for i, name in enumerate(names):  # Pupil00 wins most, Pupil13 least: the places are known
            for _ in range(14 - i):
                store.record_game(start=5, opponent="friend", players=(name, "Zed"), moves=[3, 1, 1], loser=1)
    app = make_app(role="projector", view="class")
    async with app.run_test(size=PROJECTOR_720P) as pilot:
        await pilot.pause()
        screen = app.screen
        first = lines_of(screen, "#class-leaders")
        assert first[0].startswith("Top 1-10 of 15")  # Zed is the 15th
        assert [line.split()[1] for line in first[1:]] == names[:10]
        screen.rotate()  # what its timer does every ROTATE seconds
        await pilot.pause()
        second = lines_of(screen, "#class-leaders")
        assert second[0].startswith("11-15 of 15")
        assert [line.split()[:2] for line in second[1:]] == [[f"{p}.", n] for p, n in
                                                             zip(range(11, 16), [*names[10:], "Zed"])]
        screen.rotate()
        await pilot.pause()
        assert lines_of(screen, "#class-leaders") == first  # back to the top
        assert all(len(line) <= screen.query_one("#class-leaders").size.width for line in first + second)

        win = dict(start=20, opponent="learning", players=("Ann", "Learning AI"),
                   moves=[3, 1, 3, 1, 3, 1, 3, 1, 3, 1], loser=1, brain="default",
                   learning={1: ("default", [(17, 1), (13, 1), (9, 1), (5, 1), (1, 1)])})
        with Store.open(data_dir) as classmate:
            classmate.record_game(**win)
        for size, hats, title in ((PROJECTOR_720P, 12, "hats 1-12 of 20 (a game of 20)"),
                                  ((106, 27), 20, "hats 1-20 (a game of 20)")):  # the page resized, as a window is
            if tuple(app.size) != size:
                await pilot.resize_terminal(*size)
                await pilot.pause()
            app.screen.refresh_all()
            await pilot.pause()
            heatmap = app.screen.query_one("#class-heatmap", HatHeatmap)
            assert heatmap.data.hats == hats and heatmap.grid()[2]  # every hat shown fits: no scrolling
            assert heatmap.virtual_size.height <= heatmap.size.height
            assert text_of(app.screen, "#class-brain-title").endswith(title)
            # hat 1 holds one forced move: it teaches nothing (one rule for every game)
            assert {(h, b) for h, b, _ in heatmap.data.flash} == {(h, 1) for h in (5, 9, 13, 17) if h <= hats}


# (a pupil never gets the class view: tests/ui/test_roles.py, in the pupil's tab there)
