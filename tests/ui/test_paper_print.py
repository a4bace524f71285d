"""The app's side of issue 36: Print in the brain view writes the PDF `brain print` writes (read back with pypdf,
box by box the brain's), refuses what would destroy something or leave half a file, and sends it to a browser
instead of the server's disk; the paper game typed in on its screen teaches the brain exactly what the same moves
typed into `PaperGame` do, refuses a bead the box cannot hold, and shows the boxes it changed."""

from __future__ import annotations

import errno
import io

import numpy as np
from machine_pdf_text import expected, printed_boxes
from textual.widgets import Select
from ui_helpers import wait_until

from sticks_tui.play.paper import PaperGame
from sticks_tui.store import Store
from sticks_tui.ui.screens.brain import BrainScreen
from sticks_tui.ui.screens.confirm import ConfirmDialog
from sticks_tui.ui.screens.paper import PaperScreen
from sticks_tui.ui.screens.print_dialog import PrintDialog
from sticks_tui.ui.widgets.container_view import ContainerView
from sticks_tui.ui.widgets.inputs import Input


def last_notice(app) -> str:
    return str(list(app._notifications)[-1].message)


def text(screen, selector: str) -> str:
    return str(screen.query_one(selector).render())


async def type_in(pilot, screen, selector: str, value: str) -> None:
    box = screen.query_one(selector, Input)
    box.value = value
    box.focus()
    await pilot.press("enter")
    await pilot.pause()


async def open_print(pilot, app, game: str, side: int = 0) -> PrintDialog:
    app.push_screen(BrainScreen(game, side))
    await pilot.pause()
    await pilot.press("p")
    await pilot.pause()
    assert isinstance(app.screen, PrintDialog)
    return app.screen


async def print_to(pilot, app, dialog, path) -> str:
    """Type `path` and press Enter; the dialog's error once the print is done (or '' when it closed)."""
    await type_in(pilot, dialog, "#print-path", str(path))
    await wait_until(pilot, lambda: not dialog._busy, what="the print")
    await pilot.pause()
    return "" if app.screen is not dialog else text(dialog, "#print-error")


async def test_a_paper_game_teaches_what_paper_game_does_and_print_writes_the_brains_labels_and_refuses(
        make_app, data_dir, tmp_path, monkeypatch):
    """One app session holding the promises:
    1. a paper game typed on its screen teaches the brain exactly what the same moves typed into `PaperGame` do,
       refuses a bead the box cannot hold, shows the boxes it changed; one left half typed is asked first and not
       recorded;
    2. Print writes the brain's labels (read back box by box), refuses what would destroy something or leave half
       a file (an earlier file, a missing folder, the database, a full disk), and replaces an earlier print only
       when Print is pressed a second time."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(BrainScreen("noughts"))
        await pilot.pause()
        await pilot.press("g")
        screen = app.screen
        assert isinstance(screen, PaperScreen)
        kept, store = screen.kept, app.session.store
        before = store.load_brain(kept.name).counts.copy()
        assert "take box 1, draw a bead" in text(screen, "#paper-prompt")
        # a bead box 1 cannot hold: refused with the reason, nothing changed
        await type_in(pilot, screen, "#paper-input", "1 green")
        assert "Refused: Box 1 holds no green bead: its colours are red, orange, blue." in text(screen, "#paper-error")
        assert screen.paper.moves == [] and (store.load_brain(kept.name).counts == before).all()
        typed = []  # the game as the class types it: the box the prompt names, its first colour; the first square
        while not screen.paper.over:
            paper = screen.paper
            if paper.machine_to_move:
                box = paper.box_now()
                typed.append(f"{box.number} {box.colours[0].name}")
            else:
                typed.append(str(paper.rules.legal_moves(paper.position)[0]))
            await type_in(pilot, screen, "#paper-input", typed[-1])
            assert text(screen, "#paper-error").strip() == ""
        on_screen = store.load_brain(kept.name)
        (game,) = store.recent_games()
        assert game.opponent == "paper" and game.moves == tuple(screen.paper.moves)
        assert (kept.brain.counts == on_screen.counts).all()  # the app plays on with the brain as stored
        # the boxes it changed, with their marks
        changed = list(screen.query(".paper-changed").results(ContainerView))
        assert changed and len(changed) == len({c.box for c in screen.changes})
        assert all(any("→" in line for line in view.screen_lines()) for view in changed)
        assert "The game is recorded" in text(screen, "#paper-prompt")
        # another game, left half typed: asked first, and not recorded
        await pilot.press("ctrl+n")
        assert screen.paper.moves == [] and not screen.query(".paper-changed")
        await type_in(pilot, screen, "#paper-input", typed[0])
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, BrainScreen) and len(store.recent_games()) == 1

        # 2. print
        her = app.keeper.learner("hexapawn", 1)  # HER as Black
        her.brain.counts[her.brain.legal_mask] = np.random.default_rng(3).integers(
            1, 9, int(her.brain.legal_mask.sum()))  # as if it had learned
        dialog = await open_print(pilot, app, "hexapawn", 1)
        assert dialog.query_one("#print-path", Input).value.endswith("HER-machine.pdf")
        notes = tmp_path / "notes.pdf"
        notes.write_text("my own notes")
        refusals = {notes: "already exists and is not an earlier PDF; choose another file name.",
                    tmp_path / "no such folder" / "m.pdf": "does not exist",
                    tmp_path / "data" / "sticks-tui.db": "sticks-tui's own database"}
        for path, reason in refusals.items():
            assert reason in await print_to(pilot, app, dialog, path)
        assert notes.read_text() == "my own notes" and app.screen is dialog
        # a full disk: said, and nothing left behind (no PDF, no half-written temporary file)
        out = tmp_path / "out"
        out.mkdir()

        def full(fd, data):
            raise OSError(errno.ENOSPC, "No space left on device")
        with monkeypatch.context() as patch:
            patch.setattr("sticks_tui.store.safefile.os.write", full)
            assert "the disk is full. Nothing was changed." in await print_to(pilot, app, dialog, out / "her.pdf")
        assert list(out.iterdir()) == []
        # the beads it holds now
        dialog.query_one("#print-beads", Select).value = "as-is"
        assert await print_to(pilot, app, dialog, out / "her.pdf") == ""
        boxes, cover = printed_boxes(out / "her.pdf")
        assert boxes == expected(her.brain, True)
        assert "g in the brain view; or sticks-tui play --paper --game hexapawn --brain HER" in " ".join(cover.split())
        assert "Printed brain 'HER' as a machine of paper: 19 hats" in last_notice(app)
        assert str(out / "her.pdf") in last_notice(app)
        # an earlier print: replaced only when Print is pressed a second time
        dialog = await open_print(pilot, app, "hexapawn", 1)
        printed = (out / "her.pdf").read_bytes()
        assert "is an earlier print: press Print again to replace it." in await print_to(pilot, app, dialog,
                                                                                         out / "her.pdf")
        assert (out / "her.pdf").read_bytes() == printed
        assert await print_to(pilot, app, dialog, out / "her.pdf") == ""
        assert printed_boxes(out / "her.pdf")[0] == expected(her.brain, False)  # its start beads
    # the same typing straight into PaperGame, on a store of its own
    with Store.open(tmp_path / "direct") as direct:
        paper = PaperGame(direct, kept.name, game="noughts")
        for line in typed:
            if paper.machine_to_move:
                paper.typed_machine_move(line)
            else:
                paper.other_move(line)
            while paper.machine_forced() is not None:  # a forced move is made without a box, as the screen does
                paper.forced_move()
        paper.finish()
        assert direct.load_brain(kept.name) == on_screen
    assert not np.array_equal(on_screen.counts, before)


async def test_a_pupils_tab_gets_the_pdf_as_a_download_and_no_paper_game(make_app, tmp_path, monkeypatch):
    app = make_app(role="pupil")
    sent = []
    async with app.run_test(size=(80, 24)) as pilot:
        monkeypatch.setattr(app, "deliver_binary", lambda file, **how: sent.append((file.read(), how)))
        await pilot.pause()
        dialog = await open_print(pilot, app, "sticks")
        assert dialog.to_browser and dialog.query_one("#print-path", Input).value == "default-machine.pdf"
        assert await print_to(pilot, app, dialog, tmp_path / "hats.pdf") == ""  # its folders dropped: a name only
        assert not (tmp_path / "hats.pdf").exists()  # nothing written on the server
        (data, how), = sent
        assert how == {"save_filename": "hats.pdf", "mime_type": "application/pdf"}
        (tmp_path / "sent.pdf").write_bytes(data)
        # the app's 100 hats, for games of 20 sticks (the setup's start): the 20 hats such a game reaches
        whole = expected(app.keeper.learner("sticks").brain, False)
        assert len(whole) == 100 and printed_boxes(tmp_path / "sent.pdf")[0] == {n: whole[n] for n in range(1, 21)}
        assert "Sent brain 'default' as a machine of paper: 20 hats, 57 balls" in last_notice(app)
        brain_view = app.screen
        assert brain_view.check_action("paper_game", ()) is False
        assert "Paper game" not in [c.title for c in app.get_system_commands(brain_view)]
        app.action_paper_game()
        await pilot.pause()
        assert app.screen is brain_view and "Only the teacher" in last_notice(app)
