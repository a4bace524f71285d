"""Paper games (issue 36): a game played with the printed machine and typed in teaches the brain exactly
what the same game recorded through the store (as the screen records it) does; a mistyped box or bead
is refused with the reason and changes nothing; the line mode shows the boxes changed."""

from __future__ import annotations

import io

import numpy as np
import pytest

from sticks_tui.cli import main
from sticks_tui.learn.machine import fresh_brain
from sticks_tui.engine import registry
from sticks_tui.learn.hats import Hats, forced
from sticks_tui.play.paper import PaperGame, PaperRefusal
from sticks_tui.store import Store


def menace_store(path):
    store = Store.open(path)
    store.save_brain("menace", fresh_brain(registry.entry("noughts")))
    return store


def play_out(game: PaperGame) -> None:
    """Play to the end: the machine draws its box's first colour; the class takes its first legal move."""
    rules = game.rules
    while not game.over:
        if game.machine_to_move:
            if game.machine_forced() is not None:
                game.forced_move()
                continue
            box, before = game.box_now(), game.position
            real = game.machine_move(box.number, box.colours[0].name)
            canon = box.moves[0]
            # the bead's move on the board as it is: the box's board and move, turned as the board is turned
            assert any(s.position(box.position) == before
                       and s.position(rules.apply(box.position, canon)) == rules.apply(before, real)
                       for s in rules.symmetries())
        else:
            game.other_move(str(rules.legal_moves(game.position)[0]))


def test_a_paper_game_teaches_the_brain_what_the_same_game_through_the_store_does(tmp_path):
    with Store.open(tmp_path / "paper") as paper:  # no brain yet: the new one `brain print` printed, kept now
        game = PaperGame(paper, "menace", game="noughts")
        play_out(game)
        game_id, changes = game.finish()
        on_paper = paper.load_brain("menace")
        (kept,) = paper.recent_games()
        assert (kept.id, kept.game, kept.moves, kept.brain, kept.ai_seats) == \
            (game_id, "noughts", tuple(game.moves), "menace", (0,))
    # the same moves recorded through the store, as the game screen records MENACE's games: its drawn beads
    # worked out here from the moves alone (X's turns with a choice)
    rules = registry.entry("noughts").make_rules()
    position, drawn = rules.start_positions()[0], []
    for i, move in enumerate(game.moves):
        if i % 2 == 0 and not forced(rules, position):
            drawn.append((position, move))
        position = rules.apply(position, move)
    with menace_store(tmp_path / "screen") as screen:
        recorded = screen.record_game(game="noughts", start=".........", opponent="menace",
                                      players=("MENACE", "Class"), moves=list(game.moves), loser=game.loser,
                                      brain="menace", ai_seats=(0,), first=0, learning={0: ("menace", drawn)})
        on_screen = screen.load_brain("menace")
    assert on_paper == on_screen
    assert not np.array_equal(on_paper.counts, fresh_brain(registry.entry("noughts")).counts)
    # the boxes shown are the store's changes, as box numbers and colours
    assert [(c.before, c.after) for c in changes] == [(c.before, c.after) for c in recorded.changes[0]]
    assert changes[0].box == 1 and changes[0].colour == "red"


def test_a_mistyped_box_or_bead_is_refused_with_the_reason_and_changes_nothing(tmp_path):
    with menace_store(tmp_path / "d") as store:
        brain = store.load_brain("menace")
        brain.counts[0, 0] = 0  # box 1 (the empty board) on screen has run out of red beads
        store.save_brain("menace", brain, replace=True)
        game = PaperGame(store, "menace", game="noughts")
        refusals = {
            (7, "red"): "Box 7 is the box for",
            (1, "green"): "Box 1 holds no green bead: its colours are red, orange, blue",
            (1, "mauve"): "There is no 'mauve' bead in this machine",
            (1, "red"): "Box 1 on screen has no red bead left",
            (305, "red"): "There is no box 305: the boxes are numbered 1 to 304",
        }
        for (number, colour), reason in refusals.items():
            with pytest.raises(PaperRefusal, match=reason):
                game.machine_move(number, colour)
        with pytest.raises(PaperRefusal, match="only when its box is empty"):
            game.resign()
        with pytest.raises(PaperRefusal, match="machine's turn"):
            game.other_move("5")
        assert (game.position, game.moves, game.drawn) == (".........", [], [])
        assert game.machine_move(1, "Blue") == 5
        with pytest.raises(PaperRefusal, match="Square 5 .centre. is taken"):
            game.other_move("5")  # taken
        assert game.moves == [5]
        assert store.load_brain("menace") == brain and store.recent_games() == []


def cli(monkeypatch, capsys, data, lines: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    try:
        code = main(["--data-dir", str(data), "play", "--paper", *argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_the_line_mode_types_a_sticks_game_in_and_shows_the_hats_it_changed(monkeypatch, capsys, tmp_path):
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.save_brain("hats", Hats(20), 0)
    # the machine takes 3, 3, 3, 3 and 1 (hats 20, 16, 12, 8, 2); a mistyped hat and colour on the way
    lines = "19 yellow\n20 green\n20 yellow\n1\n16 yellow\n1\n12 yellow\n1\n8 yellow\n3\n2 red\n1\n"
    code, out, err = cli(monkeypatch, capsys, data, lines, "--brain", "hats", "--ai-first")
    assert (code, err) == (0, "")
    assert "Refused: Hat 19 is the hat for 19 sticks; this game needs hat 20. Nothing was changed." in out
    assert "Refused: There is no 'green' ball in this machine: its colours are red, orange, yellow." in out
    assert "The machine wins." in out
    for hat, colour in ((20, "yellow"), (16, "yellow"), (12, "yellow"), (8, "yellow"), (2, "red")):
        assert f"hat {hat} {colour} " in out and "1→2" in out
    with Store.open(data) as store:
        brain = store.load_brain("hats")
        assert [brain.hat(n) for n in (20, 16, 12, 8, 2)] == [(1, 1, 2)] * 4 + [(2, 1)]
        assert store.brain_record("hats") == (1, 0)
    # a brain of another game: said, status 1
    code, _, err = cli(monkeypatch, capsys, data, "", "--brain", "hats", "--game", "noughts")
    assert code == 1 and "brain for sticks, not for noughts" in err
    # a new name plays the new brain `brain print` printed, kept with its first game only
    code, out, _ = cli(monkeypatch, capsys, data, "", "--brain", "menace", "--game", "noughts")
    assert code == 0 and "this is a new one" in out
    with Store.open(data) as store:
        assert store.load_brain("menace") is None
    code, out, _ = cli(monkeypatch, capsys, data, "1 blue\n1\n", "--brain", "menace", "--game", "noughts")
    assert "The machine plays: X in square 5 (centre)." in out and "The unfinished game was not recorded." in out
    code, out, _ = cli(monkeypatch, capsys, data, "1 blue\n1\n", "--brain", "menace", "--game", "noughts",
                       "--opponent", "random")
    assert code == 2
