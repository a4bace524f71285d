"""MENACE as a class sees it (issue 33 item 5) and the learner in either seat (issue 32 item 1), on the one game
screen: the box in play stays on the board until the next move and is marked on the boxes screen with its bead; a
game against an AI pauses; a mirror image's square and an emptied square look different and say so; counts in
full after a game; the tally follows the brain in play and its opponent; Hexapawn's HER plays Black (its default)
or White, in the words of boxes and beads."""

from __future__ import annotations

from sticks_tui.ui.boards import BoardView
from sticks_tui.ui.boards.hexapawn import HexapawnBoard
from sticks_tui.ui.boards.noughts import NoughtsBoard, NoughtsBoardData
from sticks_tui.ui.widgets.container_view import ContainerData, ContainerView
from ui_helpers import play_out, set_up, text_of, wait_until

NBSP = "\u00a0"


def plain(text: str) -> str:
    return text.replace(NBSP, " ")


async def test_menaces_box_stays_marked_until_the_next_move_a_game_against_it_pauses_and_b_marks_box_and_bead_the_tally_and_her(
        make_app):
    """One app session, game after game from the setup screen, holding the promises:
    1. MENACE's box stays marked until the next move; a game against it pauses; b shows the box and bead in play;
    2. the tally counts the learner by the brain in play and the opponent;
    3. HER plays Black when the pupil moves first, the default, with Black's boxes (folded by the mirror), or White
       with White's ('HER White'); her brain beside the board and her draws in the log are boxes and beads."""
    from sticks_tui.ui.screens.game import BrainPanel
    from sticks_tui.ui.screens.setup import SetupScreen
    from ui_helpers import log_text

    from sticks_tui.ui import brains
    from sticks_tui.ui.screens.brain import BrainScreen

    app = make_app()  # the AI moves at once: only a pause holds it
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await set_up(pilot, "noughts", opponent="menace", first="p1", name1="Ann")
        board = screen.query_one("#board", NoughtsBoard)
        brain = screen.brains[1].brain  # MENACE's boxes for O
        row, pairs = brain.find("X........")
        emptied = pairs[0][1]
        brain.counts[row, 0] = 0  # lost games took every bead of one square of that box

        assert screen.check_action("pause", ()) and not screen.paused  # a person's game pauses too
        await pilot.press("space")
        assert screen.paused and screen.active_bindings["space"].binding.description == "Paused"
        board.pick(1)  # Ann (X) takes the corner; MENACE waits
        await pilot.pause()
        await pilot.pause()
        assert len(screen.game.state.history) == 1 and not screen.game.waiting_for_human
        assert text_of(screen, "#turn") == "Paused before MENACE (O)'s move: space goes on."
        data = board.data  # its box for the board now: the mirror images' squares apart from the emptied one
        mirrored = set(brains.mirrored_moves(brain, "X........", range(2, 10)))
        assert data.box_of is None and data.drawn is None and set(data.mirrored) == mirrored != set()
        cells = {s: " ".join("".join(t for t, _ in line) for line in board.cell_lines(s - 1)) for s in range(2, 10)}
        assert all("mirror" in cells[s] and "beads" not in cells[s].replace("no beads", "") for s in mirrored)
        assert "emptied" in cells[emptied] and "0 beads" in cells[emptied] and "mirror" not in cells[emptied]
        assert "⇋ mirror: a twin, counted there." in data.summary() and "0: emptied by losses." in data.summary()

        await pilot.press("space")  # on: MENACE draws and moves
        await wait_until(pilot, lambda: screen.game.waiting_for_human, what="MENACE's move")
        position, move = screen.draws[1][-1]
        data = board.data  # the box it drew from stays, the bead drawn marked, while Ann thinks
        assert (data.box_of, data.drawn, data.board[move - 1]) == ("X........", move, "O") and data.beads is not None
        assert f"drawn: ► square {move}" in data.summary()

        await pilot.press("b")  # the boxes screen: the box in play and its bead
        view = app.screen
        assert isinstance(view, BrainScreen)
        counted = brains.container_move(brain, position, move)
        assert counted in [(p, m) for p, moves, _ in view.groups()[view.group][1] for m in moves]
        number = brains.numbers(brain)[counted[0]]  # as the printed machine numbers it
        assert f"► In play: box #{number}, its bead for square {counted[1]} drawn" in str(
            view.query_one("#brain-title").render())
        assert f"► in play: sq {counted[1]}" in str(view.query_one("#brain-body").render())
        await pilot.press("escape")

        await pilot.press("space")  # paused again, Ann moves: the next move clears the box drawn from
        board.pick(next(m for m in screen.game.state.legal_moves))
        await pilot.pause()
        assert board.data.box_of is None and board.data.drawn is None and board.data.beads is not None
        await pilot.press("escape")  # the game in progress: leave it (not recorded)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup screen")

        # 2. the tally
        screen = await set_up(pilot, "noughts", opponent="menace", first="alternate", name1="Ann")
        await play_out(pilot, screen)  # Ann plays X: MENACE with its boxes for O
        assert text_of(screen, "#tally").split("\n")[1].startswith("MENACE (O) vs Ann: ")
        await pilot.press("n")  # MENACE moves first: its boxes for X, which have played no game yet
        await pilot.pause()
        assert screen.brains[1].name == "noughts MENACE" and "\n" not in text_of(screen, "#tally")
        await play_out(pilot, screen)
        line = text_of(screen, "#tally").split("\n")[1]
        result = {"": "drawn", "MENACE": "won", "Ann": "lost"}[app.session.results[-1][2]]
        marks = line.rsplit(" (", 1)[0].rsplit(": ", 1)[1]  # its games with its boxes for X only: this one
        assert line.count(" 1") == 1 and " 0" in line  # its counts: this game's result once, the others none
        assert line.startswith("MENACE (X) vs Ann: ") and f"{result} 1" in line and len(marks) == 1
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen), what="the setup screen")

        # 3. HER
        for first, mark, name, boxes in (("p1", "Black", "HER", 19), ("p2", "White", "HER White", 18)):
            screen = await set_up(pilot, "hexapawn", opponent="learning", first=first, name1="Ann")
            await play_out(pilot, screen)
            assert screen.brains[1].name == name and screen.seat_name(1) == f"HER ({mark})"
            assert len(screen.brains[1].brain.positions) == boxes
            title = str(screen.query_one(BrainPanel).query_one(".brain-title").render())
            assert title == f"HER ({mark})'s boxes"
            assert "HER draws the bead for " in log_text(screen) and " from its box." in log_text(screen)
            await pilot.press("escape")


def test_marks_after_a_game_show_the_change_in_full():
    board = NoughtsBoard()
    board.data = NoughtsBoardData("X...O....", changes=((1, 11_006, 11_007), (5, 3, 2)), note="A draw.")
    cell = [" ".join("".join(t for t, _ in line) for line in board.cell_lines(s)) for s in (0, 4)]
    assert "11,006→11,007" in cell[0] and "↑" in cell[0] and "3 → 2" in cell[1] and "↓" in cell[1]
    assert board.data.summary() == "A draw."  # every change shows whole in its cell
    board.data = NoughtsBoardData("X...O....", changes=((1, 1_020_000, 1_020_003),), note="A draw.")
    assert "+3" in " ".join("".join(t for t, _ in line) for line in board.cell_lines(0))  # the cell: what fits
    assert "1,020,000 → 1,020,003" in plain(board.data.summary())  # under the board: in full

    view = ContainerView()
    view.data = ContainerData.of("Box", (1, 2), ("square 1", "square 2"), (11_007, 5), changes={1: (11_006, 11_007)},
                                 token="bead")
    assert view.entry_text(1).endswith("11,006 → 11,007 ↑")

    from sticks_tui.engine.hexapawn import START, HexapawnRules

    hexapawn = HexapawnBoard()
    hexapawn.view = BoardView(HexapawnRules(), START, changes=((START, "b1-b2", 11_006, 11_007),))
    assert ("b1-b2: 11,006 → 11,007 ↑", "") in hexapawn.move_lines()
