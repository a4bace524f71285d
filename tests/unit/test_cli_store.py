"""`sticks-tui records` and `sticks-tui brain ...`: output, --data-dir and the environment, exit statuses."""

from __future__ import annotations

import json

import pytest

from sticks_tui.cli import build_parser, main
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store


def nim_brain(box=(7, 7, 7), rule=None, counts=None):
    """A Nim learner's brain: the counts learner over piles up to `box` (the store knows no game's brain)."""
    from sticks_tui.engine.nim import NimRules
    from sticks_tui.learn.hats import Hats

    return Hats(NimRules(tuple(box)), rule=rule, counts=counts)


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.delenv("STICKS_TUI_DATA_DIR", raising=False)
    return tmp_path / "data"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def fill(data):
    with Store.open(data) as store:
        store.save_brain("default", Hats(10), 12)
        for loser in (1, 1, 0):
            store.record_game(game="sticks", start="10", opponent="learning", players=("Ann", "Learning AI"),
                              moves=[3, 3, 3, 1], loser=loser, brain="default")
        store.record_game(game="sticks", start="10", opponent="friend", players=("Bob", "Ann"),
                          moves=[3, 3, 3, 1], loser=1)


def test_help_lists_every_sub_command(capsys):
    text = build_parser().format_help()
    for command in ("classic", "records", "brain", "train"):
        assert command in text


def test_records_text_and_json(capsys, data):
    code, out, _ = cli(capsys, "--data-dir", str(data), "records")
    assert code == 0 and "No games recorded yet." in out
    fill(data)
    code, out, _ = cli(capsys, "--data-dir", str(data), "records")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["Player", "Wins", "Losses", "Rating", "Last", "played"]
    assert lines[1].split()[:4] == ["Bob", "1", "0", "+1"]
    assert lines[2].split()[:4] == ["Ann", "2", "2", "+0"]
    assert "default: 1 won, 2 lost" in out
    code, out, _ = cli(capsys, "--data-dir", str(data), "records", "--json", "--player", "Bob")
    doc = json.loads(out)
    assert [(p["name"], p["wins"], p["losses"], p["rating"]) for p in doc["players"]] == [
        ("Bob", 1, 0, 1), ("Ann", 2, 2, 0), ("Learning AI", 1, 2, -1)]
    assert doc["brains"] == [{"name": "default", "wins": 1, "losses": 2}]
    assert [g["players"] for g in doc["recent_games"]] == [["Bob", "Ann"]]
    assert doc["recent_games"][0]["loser_name"] == "Ann"


def test_brain_list_export_import_copy_rename_reset_delete(capsys, data, tmp_path):
    fill(data)
    code, out, _ = cli(capsys, "--data-dir", str(data), "brain", "list")
    assert code == 0 and out.splitlines()[1].split()[:7] == ["default", "sticks", "10", "3", "+1/-1", "each", "12"]
    path = tmp_path / "shared.json"
    assert cli(capsys, "--data-dir", str(data), "brain", "export", "default", str(path))[0] == 0
    assert json.loads(path.read_text())["format"] == "sticks-tui-brain"
    code, out, _ = cli(capsys, "--data-dir", str(data), "brain", "import", str(path), "from a friend")
    assert code == 0 and "'from a friend'" in out
    assert cli(capsys, "--data-dir", str(data), "brain", "copy", "default", "spare")[0] == 0
    assert cli(capsys, "--data-dir", str(data), "brain", "rename", "spare", "old")[0] == 0
    assert cli(capsys, "--data-dir", str(data), "brain", "reset", "old")[0] == 0
    assert cli(capsys, "--data-dir", str(data), "brain", "delete", "from a friend")[0] == 0
    code, out, _ = cli(capsys, "--data-dir", str(data), "brain", "list", "--json")
    brains = {b["name"]: b for b in json.loads(out)}
    assert set(brains) == {"default", "old"}
    assert brains["old"]["games_trained"] == 0 and brains["default"]["games_trained"] == 12
    assert brains["default"]["wins"] == 1 and brains["default"]["losses"] == 2


@pytest.mark.parametrize("argv, status, message", [
    (["brain", "export", "nope", "x.json"], 1, "no brain called 'nope'"),
    (["brain", "import", "missing.json"], 1, "Cannot read the brain file"),
    (["brain", "delete", "nope"], 1, "no brain called"),
    (["brain", "copy", "default", "default"], 1, "already exists"),
    (["brain", "copy", "default", "x" * 41], 2, "at most 40"),
    (["brain"], 2, "required: ACTION"),
    (["brain", "export", "default"], 2, "required: file"),
    (["records", "--games", "lots"], 2, "--games must be a whole number"),
])
def test_errors_are_one_clear_line_with_the_right_status(capsys, data, tmp_path, monkeypatch, argv, status, message):
    fill(data)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "--data-dir", str(data), *argv)
    assert code == status
    assert message in err and "Traceback" not in err


def test_a_refused_import_exits_1_and_changes_nothing(capsys, data, tmp_path):
    fill(data)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sticks-tui-brain", "version": 1, "size": 3, "max_take": 3, "rule": {}, '
                   '"hats": [[], [1], [1, -1], [1, 1, 1]]}')
    code, _, err = cli(capsys, "--data-dir", str(data), "brain", "import", str(bad), "x")
    assert code == 1 and "hat 2, ball 2: the count is -1" in err
    with Store.open(data) as store:
        assert [b.name for b in store.list_brains()] == ["default"]


def test_the_environment_variable_is_honoured_and_data_dir_beats_it(tmp_path, monkeypatch, capsys):
    """$STICKS_TUI_DATA_DIR is where the data is kept, and --data-dir before the sub-command beats it; here through
    `cli.main` in this process. In real processes: the variable alone by test_store_shared_brain.py (its copies are
    given the variable only, and their games are found there), both by test_classic.py's
    test_seed_example_1_through_a_pipe (--data-dir wins)."""
    fill(tmp_path / "env")
    monkeypatch.setenv("STICKS_TUI_DATA_DIR", str(tmp_path / "env"))
    code, out, err = cli(capsys, "records", "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["database"] == str(tmp_path / "env" / "sticks-tui.db")
    # --data-dir, before the sub-command, beats the environment
    code, out, err = cli(capsys, "--data-dir", str(tmp_path / "arg"), "brain", "export", "default", str(tmp_path / "x.json"))
    assert code == 1 and "no brain called 'default'" in err and "Traceback" not in err


def test_an_unusable_data_dir_is_explained_on_stderr(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    code, out, err = cli(capsys, "--data-dir", str(tmp_path / "file"), "records")
    assert code == 1 and "No games recorded yet." not in out and out == ""
    assert str(tmp_path / "file") in err and "not a directory" in err


def test_brain_list_says_which_game_each_brain_plays(capsys, data):

    with Store.open(str(data)) as store:
        store.save_brain("default", Hats(100))
        store.save_brain("nim-7x7x7", nim_brain((7, 7, 7)))
    code, out, _ = cli(capsys, "--data-dir", str(data), "brain", "list")
    assert code == 0
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:3]}
    assert rows["default"][1] == "sticks" and rows["nim-7x7x7"][1:3] == ["nim", "511"]
    assert "one hat per position" in out
    code, out, _ = cli(capsys, "--data-dir", str(data), "brain", "list", "--json")
    assert {b["name"]: b["game"] for b in json.loads(out)} == {"default": "sticks", "nim-7x7x7": "nim"}
