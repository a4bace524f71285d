"""One command line for every game (issue 32 item 3): `train --game G`, `solve --game G POSITION`, each
taking the game's own size options from its registry entry; `nim ...`, `noughts ...` and `train --sticks`
stay as thin aliases that print what the general command prints.

Training outputs hold the time a run took (JSON "seconds" and "games_per_second", the text's "time:"
line): the only parts two runs of the same seed may differ in, so they are left out of the comparisons.
"""

from __future__ import annotations

import json

import numpy as np

import pytest

from sticks_tui.cli import main
from sticks_tui.engine import registry
from test_toy_game import OnePile

TIMING_KEYS = ("seconds", "games_per_second")


def out_of(capsys, argv) -> str:
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def untimed_json(text: str) -> dict:
    doc = json.loads(text)
    assert all(doc.pop(key) >= 0 for key in TIMING_KEYS)
    return doc


def untimed_text(text: str) -> list[str]:
    lines = text.splitlines()
    assert sum(line.startswith("time: ") for line in lines) == 1
    return [line for line in lines if not line.startswith("time: ")]


def refused(capsys, argv) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    return captured.err


# -- the aliases print what the general commands print --------------------------------------------------

@pytest.mark.parametrize(("alias", "general"), [
    (["nim", "train", "--piles", "3", "2", "2", "--games", "3000", "--seed", "4"],
     ["train", "--game", "nim", "--piles", "3,2,2", "--games", "3000", "--seed", "4"]),
    (["noughts", "train", "--games", "300", "--seed", "5", "--opponent", "random", "--beads", "3,3,2,1"],
     ["train", "--game", "noughts", "--games", "300", "--seed", "5", "--opponent", "random", "--beads", "3,3,2,1"]),
    (["train", "--sticks", "9", "--games", "2000", "--seed", "6"],
     ["train", "--game", "sticks", "--sticks", "9", "--games", "2000", "--seed", "6"]),
])
def test_a_training_alias_prints_what_train_game_prints(capsys, alias, general):
    assert untimed_json(out_of(capsys, [*alias, "--json"])) == untimed_json(out_of(capsys, [*general, "--json"]))
    assert untimed_text(out_of(capsys, alias)) == untimed_text(out_of(capsys, general))


@pytest.mark.parametrize(("alias", "general"), [
    (["nim", "solve", "3", "4", "5"], ["solve", "--game", "nim", "3,4,5"]),
    (["nim", "solve", "0", "0", "0"], ["solve", "--game", "nim", "0,0,0"]),
    (["noughts", "solve", "X...O...."], ["solve", "--game", "noughts", "X...O...."]),
    (["noughts", "solve", "XXXOO...."], ["solve", "--game", "noughts", "xxx/oo./..."]),
])
def test_a_solving_alias_prints_what_solve_game_prints(capsys, alias, general):
    assert out_of(capsys, [*alias, "--json"]) == out_of(capsys, [*general, "--json"])
    assert out_of(capsys, alias) == out_of(capsys, general)


# -- each game's own size options, from its entry ----------------------------------------------------------

def test_train_takes_nims_piles_from_its_entry(capsys):
    doc = json.loads(out_of(capsys, ["train", "--game", "nim", "--piles", "2,2,1", "--games", "3000", "--seed", "1",
                                     "--json"]))
    assert doc["game"] == "nim" and doc["piles"] == [2, 2, 1] and doc["scope"] == "piles up to 2, 2, 1"
    assert doc["positions"] == 3 * 3 * 2 - 1 == len(doc["boxes"])
    # each box: its position (as the game encodes it), its moves and its counts, one a move
    box = next(b for b in doc["boxes"] if b["position"] == [2, 2, 1])
    assert box["text"] == "2 nickels, 2 dimes, 1 quarter"
    assert box["moves"] == [[0, 1], [0, 2], [1, 1], [1, 2], [2, 1]] and len(box["counts"]) == 5


def test_train_takes_the_max_take_of_sticks(capsys):
    doc = json.loads(out_of(capsys, ["train", "--sticks", "16", "--max-take", "4", "--games", "30000", "--seed", "2",
                                     "--json"]))
    assert (doc["sticks"], doc["max_take"]) == (16, 4)
    assert [len(row) for row in doc["hats"][1:6]] == [1, 2, 3, 4, 4]
    assert doc["rule_discovered"] == "You lose if you face 1, 6, 11, ... sticks: n = 1 mod 5."


@pytest.mark.parametrize(("argv", "message"), [
    (["train", "--game", "nim", "--sticks", "5"], "--sticks is not an option of three-pile Nim here (its options: "
                                                  "--piles)"),
    (["train", "--game", "noughts", "--piles", "1,2,3"], "--piles is not an option of noughts and crosses here "
                                                         "(its options: none)"),
    (["train", "--game", "nim", "--piles", "1,2"], "argument --piles: --piles is three whole numbers from 0 to 10"),
    (["train", "--game", "nim", "--piles", "0,0,0"], "argument --piles: --piles must hold at least one coin"),
    (["train", "--game", "sticks", "--max-take", "11"], "argument --max-take: --max-take must be between 1 and 10"),
    (["train", "--game", "noughts", "--reward", "3"], "--reward is not an option of training for noughts and crosses"),
    (["train", "--game", "nim", "--opponent", "random"], "--opponent is not an option of training for three-pile Nim"),
    (["train", "--game", "chess"], "argument --game: invalid choice: 'chess'"),
    (["solve", "--game", "nim", "1,2,x"], "argument POSITION: A game of Nim starts from piles like '3,4,5'"),
    (["solve", "--game", "noughts", "XX......."], "argument POSITION: X has 2 more marks than O"),
    (["solve", "--game", "nim", "--max-take", "2", "1,2,3"], "--max-take is not an option of three-pile Nim here"),
])
def test_an_option_the_game_does_not_have_or_refuses_exits_2_naming_it(capsys, argv, message):
    assert message in " ".join(refused(capsys, argv).split())


def test_train_without_a_game_trains_the_first_game_listed(capsys):
    doc = json.loads(out_of(capsys, ["train", "--games", "100", "--seed", "1", "--json"]))
    first = registry.entry(registry.names()[0])
    assert doc["scope"] == first.scope_words(first.rules_from())


def test_solve_answers_a_sticks_position_under_its_max_take(capsys):
    assert json.loads(out_of(capsys, ["solve", "21", "--json"])) == \
        {"position": 21, "over": False, "winning": False, "moves": []}  # 21 = 1 mod 4: lost
    assert json.loads(out_of(capsys, ["solve", "--game", "sticks", "20", "--max-take", "4", "--json"])) == \
        {"position": 20, "over": False, "winning": True, "moves": [4]}  # leave 16 = 1 mod 5
    text = out_of(capsys, ["solve", "20", "--max-take", "4"])
    assert text == "20 sticks\nYes: the player to move can force a win.\nWinning move: take 4 sticks.\n"


# -- a game registered from a test alone trains and solves from the command line ----------------------------

@pytest.fixture
def beans():
    registry.register(registry.GameEntry(
        name="beans", title="one-pile take-away", choice="Beans (last bean wins)", brain_words="a beans brain",
        rules_class=OnePile, layout=lambda rules: {"size": rules.size}, from_layout=lambda layout: OnePile(layout["size"]),
        make_rules=lambda start=None, max_take=None, moves=(): OnePile(start or 5),
        options=(registry.whole_number_option("size", "--beans", 1, 50, 5, "beans in the pile"),),
        rules_of=lambda values, start: OnePile(values["size"] if start is None else start),
        training_games=4000))
    yield
    registry.unregister("beans")


def test_a_game_registered_in_a_test_trains_and_solves_from_the_command_line(capsys, beans):
    doc = json.loads(out_of(capsys, ["train", "--game", "beans", "--beans", "7", "--seed", "3", "--json"]))
    assert (doc["game"], doc["size"], doc["games"]) == ("beans", 7, 4000)  # its own option and default games
    assert [b["position"] for b in doc["boxes"]] == [1, 2, 3, 4, 5, 6, 7]
    assert doc["agreement"] == 1.0  # lost at multiples of 3: every winning box's top move leaves one
    assert json.loads(out_of(capsys, ["solve", "--game", "beans", "7", "--json"]))["moves"] == [1]
    assert "beans: beans in the pile" in " ".join(out_of_help(capsys, "train").split())


def out_of_help(capsys, command: str) -> str:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    return capsys.readouterr().out


def test_brain_list_keeps_its_columns_for_a_game_with_a_long_name(capsys, tmp_path):
    from sticks_tui.store import Store

    registry.register(registry.GameEntry(
        name="beanstalks", title="one-pile take-away", choice="Beanstalks", brain_words="a beans brain",
        rules_class=OnePile, layout=lambda rules: {"size": rules.size}, from_layout=lambda layout: OnePile(layout["size"]),
        make_rules=lambda start=None, max_take=None, moves=(): OnePile(start or 5)))
    try:
        with Store.open(tmp_path) as store:
            store.load_or_create_brain("tall", game="beanstalks")
            store.load_or_create_brain("short", 10)
        header, *rows = out_of(capsys, ["--data-dir", str(tmp_path), "brain", "list"]).splitlines()[:3]
    finally:
        registry.unregister("beanstalks")
    end = header.index("Hats") + len("Hats")  # the hats column is right-aligned under its heading
    assert sorted(row[:end].split()[-2:][0] for row in rows) == ["beanstalks", "sticks"]
    assert all(row[:end].split()[-1].isdigit() and row[end] == " " for row in rows)


# -- `train --game G --brain NAME`: a stored brain of every game (issue 32 item 3) --------------------------

def test_train_brain_keeps_the_run_in_the_store_for_every_game_by_the_one_loop(capsys, tmp_path):
    """MENACE's stored boxes (made as the app makes them: X's, the game's own rule) trained against the perfect
    player: the store holds exactly what the one loop leaves from that brain and seed; Hexapawn's and Nim's too."""

    from sticks_tui.learn.hats import HatRule, Hats
    from sticks_tui.learn.trainer import TrainingConfig, train
    from sticks_tui.store import Store

    data = str(tmp_path / "data")
    doc = json.loads(out_of(capsys, ["--data-dir", data, "train", "--game", "noughts", "--brain", "m", "--games",
                                     "300", "--seed", "4", "--json"]))
    assert doc["brain"] == {"name": "m", "games_trained": 300, "boxes": 304, "seat": "X"}
    assert doc["opponent"] == "best-at-random"
    entry = registry.entry("noughts")
    fresh = Hats(entry.make_rules(), rule=HatRule(**entry.learner_settings), seat=0)
    expected = train(TrainingConfig(game=fresh.rules, games=300, seed=4, protocol="classic",
                                    opponent="best-at-random", seats="first", curve=False), brain=fresh)
    with Store.open(data) as store:
        assert np.array_equal(store.load_brain("m").counts, expected.brain.counts)
    for game, name, boxes, seat in (("hexapawn", "her", 19, "Black"), ("nim", "n", 511, None)):
        doc = json.loads(out_of(capsys, ["--data-dir", data, "train", "--game", game, "--brain", name, "--games",
                                         "200", "--seed", "1", "--json"]))
        assert (doc["game"], doc["brain"]["games_trained"], doc["brain"]["seat"], len(doc["boxes"])) == (
            game, 200, seat, boxes)
    # MENACE as O: a new brain of O's boxes, trained always second (the one loop's second seat)
    doc = json.loads(out_of(capsys, ["--data-dir", data, "train", "--game", "noughts", "--brain", "o", "--seat", "O",
                                     "--games", "300", "--seed", "4", "--json"]))
    fresh = Hats(entry.make_rules(), rule=HatRule(**entry.learner_settings), seat=1)
    expected = train(TrainingConfig(game=fresh.rules, games=300, seed=4, protocol="classic",
                                    opponent="best-at-random", seats="second", curve=False), brain=fresh)
    assert doc["brain"]["seat"] == "O" and doc["brain"]["boxes"] == len(fresh.positions)
    with Store.open(data) as store:
        assert np.array_equal(store.load_brain("o").counts, expected.brain.counts)


def test_train_brain_refuses_a_bad_combination_in_a_line_and_changes_nothing(capsys, tmp_path):
    from sticks_tui.store import Store

    data = str(tmp_path / "data")
    out_of(capsys, ["--data-dir", data, "train", "--game", "noughts", "--brain", "m", "--games", "50", "--seed", "2"])
    with Store.open(data) as store:
        before = store.load_brain("m").counts.copy()
    for argv, code, message in (
            (["--game", "nim", "--brain", "m"], 1,
             "sticks-tui train: The brain 'm' is a brain for noughts, not for nim; pick another name. Nothing was "
             "trained.\n"),
            (["--game", "noughts", "--brain", "m", "--seat", "o"], 2,
             "sticks-tui train: The brain 'm' plays X, moving first; --seat o would change it. Leave it out, or train "
             "a new brain. Nothing was trained.\n"),
            (["--game", "sticks", "--seat", "first"], 2,
             "sticks-tui train: --seat is not an option of training for the Game of Sticks: its AI keeps one brain "
             "for both seats. Nothing was trained.\n"),
            (["--game", "noughts", "--brain", "m", "--beads", "4,3,2,1"], 2,
             "sticks-tui train: The brain 'm' learns by its own rule (start 12,3,2,1, win +3, draw +1, loss -1, floor "
             "none, an empty one resigns); the rule options given would change it. Leave them out, or train a new "
             "brain. Nothing was trained.\n")):
        assert main(["--data-dir", data, "train", *argv, "--games", "50"]) == code
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", message)
    with Store.open(data) as store:
        assert np.array_equal(store.load_brain("m").counts, before) and store.brain_info("m").games_trained == 50
        assert [b.name for b in store.list_brains()] == ["m"]
