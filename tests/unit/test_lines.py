"""`sticks-tui play --game G` (issue 32 item 3): every game line by line. The Game of Sticks plays its own
line mode (the seeds' console game, as `sticks-tui classic`); any other game the line mode of every
game (`sticks_tui.lines`), in its own words, its games recorded and its learning AI's brain kept."""

from __future__ import annotations

import io
import sys

import pytest

from sticks_tui.cli import main
from sticks_tui.engine import registry
from sticks_tui.store import Store
from test_cli_games import OnePile


def play(capsys, monkeypatch, data, stdin: str, *argv) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["--data-dir", str(data), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_nim_from_the_piles_its_option_gives_against_the_perfect_ai(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "1\n1\nn\n", "play", "--game", "nim", "--piles", "1,1,1",
                        "--opponent", "perfect")
    assert code == 0
    assert out.splitlines()[:3] == ["Welcome to three-pile Nim!", "", "1 nickel, 1 dime, 1 quarter"]
    assert "Nim Perfect AI plays take 1 dime." in out and "You win." in out  # (1, 1, 1) is won for the first mover


def test_play_game_sticks_is_the_seeds_console_game(capsys, monkeypatch, tmp_path):
    stdin = "10\n3\n3\n2\n1\nn\n"
    general = play(capsys, monkeypatch, tmp_path / "a", stdin, "play", "--game", "sticks", "--opponent", "friend")
    classic = play(capsys, monkeypatch, tmp_path / "b", stdin, "classic", "--mode", "friend")
    assert general == classic and general[1].startswith("Welcome to the Game of Sticks!\nHow many sticks")


def test_the_ai_moves_first_when_asked(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "1\n1\n1\nn\n", "play", "--game", "nim", "--piles", "2,2,2",
                        "--opponent", "random", "--ai-first", "--seed", "4")
    assert code == 0 and out.splitlines()[3].startswith("Nim Random AI plays take ")


@pytest.mark.parametrize(("argv", "message"), [
    (["--game", "noughts", "--opponent", "trained"], "noughts and crosses is played here against learning, perfect, "
                                                      "random, friend, not 'trained'"),
    (["--game", "sticks", "--max-take", "2"], "leave out --max-take"),
    (["--game", "sticks", "--ai-first"], "--ai-first is not an option of the line mode of the Game of Sticks"),
    (["--game", "nim", "--train-games", "5"], "--train-games is not an option of the line mode of three-pile Nim"),
    (["--game", "nim", "--opponent", "trained"], "three-pile Nim is played here against friend, random, perfect, "
                                                 "learning, not 'trained'"),
])
def test_an_option_the_games_line_mode_does_not_have_exits_2_naming_it(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main(["play", *argv])
    captured = capsys.readouterr()
    assert exc.value.code == 2 and captured.out == ""
    assert message in " ".join(captured.err.split())


def test_a_game_registered_in_a_test_plays_in_the_line_mode(capsys, monkeypatch, tmp_path):
    registry.register(registry.GameEntry(
        name="beans", title="one-pile take-away", choice="Beans", brain_words="a beans brain", rules_class=OnePile,
        layout=lambda rules: {"size": rules.size}, from_layout=lambda layout: OnePile(layout["size"]),
        make_rules=lambda start=None, max_take=None, moves=(): OnePile(start or 5),
        opponents={"friend": "a friend", "learning": "the beans AI"}, ai_names={"learning": "Beans AI"}))
    try:
        # the AI's draws seeded: a game it loses can leave its 1-ball hats as they were (a hat keeps a ball of
        # each move), so "it learned" below holds for a game it wins, which this seed gives
        code, out, err = play(capsys, monkeypatch, tmp_path, "2\n1\n1\n1\n1\nn\n", "play", "--game", "beans",
                              "--seed", "4")
        with Store.open(tmp_path) as store:
            (game,) = store.recent_games()
            brain = store.load_brain("beans")
            assert store.rebuild_brain("beans") == brain != brain.__class__(brain.rules)  # it learned, as stored
    finally:
        registry.unregister("beans")
    assert (code, err) == (0, "")
    assert out.splitlines()[:4] == ["Welcome to one-pile take-away!", "Options:", " Play against a friend (1)",
                                    " Play against the beans AI (2)"]
    assert "Beans AI plays take " in out and "Beans AI's hats drawn from this game (balls per move" in out
    assert (game.game, game.start, game.players, game.opponent) == ("beans", "5", ("Player 1", "Beans AI"), "learning")
    assert game.loser == 0 and "Beans AI wins." in out


@pytest.mark.parametrize("ai_first", [False, True])
def test_the_learning_ai_plays_and_teaches_the_apps_brain_of_its_side(capsys, monkeypatch, tmp_path, ai_first):
    """A class teaches one brain: with no --brain, Hexapawn's learning AI in the line mode plays the brain the
    app's learning AI plays the same side with (`ui.keeper.brain_name`: HER, Black's 19 boxes; HER White, White's
    18, when it moves first), made as the app makes it, and the game teaches that brain; no other brain is made.
    (Before, it played and made a brain named after the game, of both sides' 37 boxes, which the app never
    plays.)"""
    from types import SimpleNamespace

    from sticks_tui.ui.keeper import brain_name

    seat = 0 if ai_first else 1
    app_brain = brain_name(SimpleNamespace(chosen={}), "hexapawn", seat)
    assert app_brain == ("HER White" if ai_first else "HER")
    code, out, _ = play(capsys, monkeypatch, tmp_path, "1\n" * 5 + "n\n", "play", "--game", "hexapawn",
                        "--opponent", "learning", "--seed", "3", *(["--ai-first"] if ai_first else []))
    assert code == 0
    store = Store.open(str(tmp_path))
    try:
        assert [b.name for b in store.list_brains()] == [app_brain]
        info = store.brain_info(app_brain)
        assert (info.game, info.seat) == ("hexapawn", seat)
        assert len(store.load_brain(app_brain).positions) == (18 if ai_first else 19)  # one side's boxes
        (game,) = store.recent_games(limit=5)
        assert (game.brain, game.ai_seats) == (app_brain, (seat,))  # its lesson went to that brain
    finally:
        store.close()


def test_menace_plays_in_the_line_mode_with_the_apps_boxes_and_an_empty_box_resigns(capsys, monkeypatch, tmp_path):
    """Noughts' learning AI is MENACE (its entry's kind "menace"): `--opponent learning` plays it, with the boxes the
    app's MENACE plays O with (`noughts MENACE O`, made as the app makes them: 12 beads a square in its first box),
    and the game is recorded as the app records a game against MENACE. A box with no beads left resigns the game
    (MENACE's rule): said, recorded as resigned and lost by MENACE, and its lesson taken. (Before, the line mode
    offered no MENACE: "played here against perfect, random, friend".)"""
    code, out, _ = play(capsys, monkeypatch, tmp_path, "1\n1\n1\nn\n", "play", "--game", "noughts",
                        "--opponent", "learning", "--seed", "3")
    assert code == 0 and "MENACE plays O in square " in out
    assert "MENACE's boxes drawn from this game (beads per move, after its lesson):" in out
    with Store.open(str(tmp_path)) as store:
        assert [b.name for b in store.list_brains()] == ["noughts MENACE O"]
        (game,) = store.recent_games(limit=5)
        assert (game.opponent, game.brain, game.ai_seats, game.players) == (
            "menace", "noughts MENACE O", (1,), ("Player 1", "MENACE"))
        boxes = store.load_brain("noughts MENACE O")
        assert boxes.seat == 1 and boxes.rule.empty == "resign"
        boxes.counts[:] = 0  # every box empty
        store.save_brain("noughts MENACE O", boxes, replace=True)
    code, out, _ = play(capsys, monkeypatch, tmp_path, "5\nn\n", "play", "--game", "noughts", "--opponent", "learning")
    assert code == 0
    assert "MENACE resigns: its box for this board is empty.\nYou win." in out
    with Store.open(str(tmp_path)) as store:
        game = store.recent_games(limit=5)[0]
        assert (game.resigned, game.loser, game.moves) == (True, 1, (5,))  # X in the centre, then O resigned
