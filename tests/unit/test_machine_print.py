"""`sticks-tui brain print`: the PDF's labels and counts are the brain's, box by box, for every game
(read back from the PDF's text operators, `drawn_boxes`, and each game's first page of labels with pypdf's
extract_text too, which reads the same); a fresh MENACE is Michie's 304 boxes; refusals change nothing."""

from __future__ import annotations

import numpy as np
import pytest
from machine_pdf_text import drawn_boxes, expected, printed_boxes

from sticks_tui.cli import main
from sticks_tui.learn.machine import fresh_brain
from sticks_tui.engine import registry
from sticks_tui.engine.nim import NimRules
from sticks_tui.engine.pictures import Grid, Piles, Sticks, picture_of
from sticks_tui.learn.hats import HatRule, Hats
from sticks_tui.learn.machine import Machine
from sticks_tui.store import Store


def cli(capsys, data, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["--data-dir", str(data), "brain", "print", *argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def box_pages(path) -> list[bytes]:
    """The PDF's pages of labels (all but the cover), as drawn: the same bytes print the same labels."""
    from pypdf import PdfReader

    return [page.get_contents().get_data() for page in PdfReader(str(path)).pages[1:]]


def small_brain(game: str) -> Hats:
    """A kept brain of `game`, small where the game lets it be (the PDF of 511 Nim hats is slow to read)."""
    kind = registry.entry(game)
    if kind.rules_class is NimRules:
        return Hats(NimRules((2, 2, 1)), rule=HatRule(**kind.learner_settings))
    return fresh_brain(kind)


@pytest.mark.parametrize("game", registry.names())
def test_every_games_labels_are_its_brains_counts_box_by_box(capsys, tmp_path, game):
    brain = small_brain(game)
    rng = np.random.default_rng(7)
    brain.counts[brain.legal_mask] = rng.integers(0, 30, int(brain.legal_mask.sum()))  # as if it had learned
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.save_brain("learned", brain, 12)
    out_file = tmp_path / f"{game}.pdf"  # its start beads: the fresh machines' test below
    code, out, err = cli(capsys, data, "learned", str(out_file), "--as-is")
    assert (code, err) == (0, ""), err
    boxes, cover = drawn_boxes(out_file)
    assert boxes == expected(brain, True)
    first = printed_boxes(out_file, label_pages=1)  # what a PDF reader finds on the page is what it draws
    assert first == ({n: box for n, box in boxes.items() if n in first[0]}, cover) and len(first[0]) >= 15
    assert f"{len(brain.positions)} " in out
    for colour, beads in Machine(brain, as_is=True).totals().items():  # what to buy: each colour's beads in all
        assert f"{colour}: {beads}" in cover


def test_a_fresh_menace_prints_its_own_start_beads_and_michies_are_a_brain_made_with_them(capsys, tmp_path):
    data = tmp_path / "data"
    code, out, err = cli(capsys, data, "menace", str(tmp_path / "m.pdf"), "--game", "noughts")
    assert (code, err) == (0, "")
    assert "304 boxes" in out and "not kept" in out
    boxes, cover = drawn_boxes(tmp_path / "m.pdf")
    assert len(boxes) == 304 == len(fresh_brain(registry.entry("noughts")).positions)
    # a fresh MENACE's start beads, the app's (issue 33): 12, 3, 2, 1 of each colour at its 1st to 4th move
    starts = [set(box.values()) for _, box in sorted(boxes.items())]
    assert starts == [{12}] + [{3}] * 12 + [{2}] * 108 + [{1}] * 183
    # Michie's 4, 3, 2, 1: a brain made with them (0 games trained) prints them
    assert main(["--data-dir", str(data), "train", "--game", "noughts", "--brain", "michie", "--beads", "4,3,2,1",
                 "--games", "0"]) == 0
    capsys.readouterr()
    code, out, err = cli(capsys, data, "michie", str(tmp_path / "michie.pdf"))
    assert (code, err) == (0, "") and "brain 'michie'" in out
    # its first page of labels read; its other pages are the fresh MENACE's (read above), byte for byte (4,3,2,1
    # and 12,3,2,1 differ in box 1 only; reading its 20 other pages again with pypdf cost 1 CPU s)
    first = drawn_boxes(tmp_path / "michie.pdf", label_pages=1)[0]
    michie_pages = box_pages(tmp_path / "michie.pdf")
    assert len(first) == 15 and michie_pages[1:] == box_pages(tmp_path / "m.pdf")[1:]
    michie = {**{n: box for n, box in boxes.items() if n not in first}, **first}
    michie = [set(box.values()) for _, box in sorted(michie.items())]
    assert michie == [{4}] + [{3}] * 12 + [{2}] * 108 + [{1}] * 183
    assert "1 for its 1st move, 12 for its 2nd move, 108 for its 3rd move, 183 for its 4th move" in cover
    # ... or printed straight away for a new name, --beads as Michie's (issue 36: his 304 boxes, nothing saved)
    code, out, err = cli(capsys, data, "michie2", str(tmp_path / "michie2.pdf"), "--game", "noughts", "--beads", "4,3,2,1")
    assert (code, err) == (0, "") and "not kept" in out
    # its labels are michie's: its box pages are michie's, byte for byte (read above; reading 21 pages of
    # labels again with pypdf cost 1 CPU s)
    assert box_pages(tmp_path / "michie2.pdf") == michie_pages
    code, out, err = cli(capsys, data, "michie", str(tmp_path / "again.pdf"), "--beads", "8,3,2,1")
    assert code == 1 and "--beads is for a new brain" in err and not (tmp_path / "again.pdf").exists()
    # the cover names the command that types a paper game back in (it once named one that does not exist)
    assert "sticks-tui play --paper --game noughts --brain menace" in " ".join(cover.split())
    assert sum(sum(b.values()) for b in boxes.values()) == int(fresh_brain(registry.entry("noughts")).start.sum())
    code, out, err = cli(capsys, data, "hats", str(tmp_path / "s.pdf"), "--game", "sticks")
    assert code == 0 and "20 hats" in out
    assert sorted(drawn_boxes(tmp_path / "s.pdf")[0]) == list(range(1, 21))
    with Store.open(data) as store:
        assert [b.name for b in store.list_brains()] == ["michie"]  # printing a new brain saves nothing


def test_refusals_say_why_and_write_nothing(capsys, tmp_path):
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.save_brain("sticks", Hats(5), 0)
    target = tmp_path / "notes.pdf"
    code, _, err = cli(capsys, data, "nobody", str(target))
    assert code == 1 and "no brain called 'nobody'" in err and "--game" in err and not target.exists()
    code, _, err = cli(capsys, data, "sticks", str(target), "--game", "noughts")
    assert code == 1 and "brain for sticks, not for noughts" in err and not target.exists()
    target.write_text("my own notes")
    code, _, err = cli(capsys, data, "sticks", str(target))
    assert code == 1 and "not an earlier PDF" in err and target.read_text() == "my own notes"
    code, _, err = cli(capsys, data, "sticks", str(data / "sticks-tui.db"))
    assert code == 1 and "Refused" in err
    # an earlier print is replaced without --force
    assert cli(capsys, data, "sticks", str(tmp_path / "a.pdf"))[0] == 0
    assert cli(capsys, data, "sticks", str(tmp_path / "a.pdf"), "--as-is")[0] == 0


def test_each_game_draws_its_position_from_its_rules_picture():
    assert picture_of(registry.entry("sticks").make_rules(), 7) == Sticks(7)
    assert picture_of(NimRules((3, 4, 5)), (1, 0, 5)) == Piles((1, 0, 5))
    board = picture_of(registry.entry("noughts").make_rules(), "X...O...X")
    assert board == Grid((("X", "", ""), ("", "O", ""), ("", "", "X")))
    assert board.cells[5] == (1, 1) and board.cells[3] == (0, 2)


def test_past_sixteen_moves_the_colours_come_round_numbered_and_each_names_one_move():
    machine = Machine(Hats(NimRules((7, 7, 7))))  # 21 moves: (pile, coins) for piles of up to 7
    names = [machine.colour_of[m].name for m in machine.moves]
    assert len(names) == len(set(names)) == 21 and machine.numbered_beads
    assert names[:2] == ["red 1", "orange 1"] and names[16:18] == ["red 2", "orange 2"]
    assert [machine.move_of_colour(n) for n in names] == list(machine.moves)
    assert Machine(fresh_brain(registry.entry("noughts"))).numbered_beads is False
