"""`sticks-tui export hats|curve|games|game`: stdout, files, refusals, and the real command in a subprocess."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pytest

from sticks_tui.cli import main
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from cli_here import run_here as cli_here


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.delenv("STICKS_TUI_DATA_DIR", raising=False)
    data = tmp_path / "data"
    with Store.open(data) as store:
        hats = Hats(10)
        hats.counts[6] = [5, 1, 1]
        store.save_brain("default", hats, 40)
        store.save_training_curve("default", [(0, 0.0, 0.3, 0.3), (100, 0.5, 0.7, 0.7)])
        store.record_game(game="sticks", start="10", opponent="learning", players=("Ann", "Learning AI"),
                          moves=[3, 3, 3, 1], loser=1, brain="default")
        store.record_game(game="sticks", start="10", opponent="friend", players=("Bob", "Ann"),
                          moves=[2, 3, 3, 2], loser=1)
    return data


def cli(capsys, data, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["--data-dir", str(data), "export", *argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_every_kind_to_stdout_in_both_formats(capsys, data):
    code, out, err = cli(capsys, data, "hats", "--format", "csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and err == "" and len(table) == 10
    assert table[5]["hat"] == "6" and table[5]["balls_1"] == "5" and table[5]["ai_move"] == "1"
    code, out, _ = cli(capsys, data, "curve", "--format", "json")
    doc = json.loads(out)
    assert code == 0 and doc["kind"] == "curve" and doc["points"][1]["win"] == pytest.approx(0.7)
    code, out, _ = cli(capsys, data, "games", "--format", "csv")
    table = list(csv.DictReader(io.StringIO(out)))
    assert [r["player1"] for r in table] == ["Ann", "Bob"] and [r["loser"] for r in table] == ["Learning AI", "Ann"]
    code, out, _ = cli(capsys, data, "game", "--id", table[1]["id"], "--format", "json")
    assert code == 0 and [m["left"] for m in json.loads(out)["moves"]] == [8, 5, 2, 0]
    code, out, _ = cli(capsys, data, "games")  # csv when nothing says otherwise
    assert out.startswith("id,played_at,")


def test_to_a_file_then_read_back(capsys, data, tmp_path):
    out_file = tmp_path / "hats.json"
    code, out, err = cli(capsys, data, "hats", "--output", str(out_file))  # format from the ending
    assert code == 0 and str(out_file) in out and "(JSON)" in out
    doc = json.loads(out_file.read_text())
    with Store.open(data) as store:
        counts = store.load_brain("default").counts
    assert [h["balls"] for h in doc["hats"]] == [counts[n, : min(3, n)].tolist() for n in range(1, 11)]
    # an earlier export of the same kind is replaced; another kind, or notes, are not
    assert cli(capsys, data, "hats", "--output", str(out_file), "--format", "csv")[0] == 0
    assert out_file.read_text().startswith("hat,balls_1")
    code, _, err = cli(capsys, data, "games", "--output", str(out_file))
    assert code == 1 and "not an earlier game list export" in err and "--force" in err
    assert cli(capsys, data, "games", "--output", str(out_file), "--force")[0] == 0
    assert json.loads(out_file.read_text())["kind"] == "games"  # JSON: the file name ends in .json


def test_usage_errors_change_nothing(capsys, data, tmp_path):
    code, _, err = cli(capsys, data, "game")
    assert code == 2 and "--id" in err
    code, _, err = cli(capsys, data, "game", "--id", "12x")
    assert code == 2 and "whole number" in err
    code, _, err = cli(capsys, data, "game", "--id", "999")
    assert code == 1 and "no game with id 999" in err
    code, _, err = cli(capsys, data, "hats", "--brain", "ghost", "--output", str(tmp_path / "x.csv"))
    assert code == 1 and "no brain called 'ghost'" in err and not (tmp_path / "x.csv").exists()
    code, _, err = cli(capsys, data, "pie")
    assert code == 2 and "invalid choice" in err
    code, _, err = cli(capsys, data, "hats", "--format", "xlsx")
    assert code == 2


def run_cli(data, *argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "STICKS_TUI_DATA_DIR"}
    return subprocess.run([sys.executable, "-m", "sticks_tui", "--data-dir", str(data), "export", *argv],
                          capture_output=True, text=True, env=env, timeout=120)


def run_main(data, *argv: str) -> subprocess.CompletedProcess:
    """`export ARGV` in this process, through `cli.main` (what the real command runs), its output captured."""
    done = cli_here(data, ["export", *argv])
    return subprocess.CompletedProcess(argv, done.returncode, done.stdout, done.stderr)


def test_the_real_command_never_destroys(data, tmp_path):
    """Every refusal through `cli.main`; the fifo in a real process (a regression opening it to write would block:
    the subprocess has a timeout)."""
    live = data / "sticks-tui.db"
    before = live.read_bytes()
    notes = tmp_path / "notes.csv"
    notes.write_text("name,mark\nAnn,9\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link.csv"
    link.symlink_to(live)
    for target, extra, why in ((live, "--force", "own database"), (link, "--force", "own database"),
                               (notes, "", "not an earlier game list export"), (fifo, "--force", "pipe"),
                               ("/dev/null", "", "device"), (tmp_path, "", "folder")):
        done = (run_cli if target == fifo else run_main)(data, "games", "--output", str(target),
                                                         *([extra] if extra else []))
        assert done.returncode == 1 and why in done.stderr, done
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert notes.read_text() == "name,mark\nAnn,9\n" and fifo.is_fifo() and link.is_symlink()
    with Store.open(data) as store:
        assert store.notices == [] and store.game_count() == 2
    assert live.read_bytes()[:16] == before[:16]
    done = run_main(data, "games", "--output", str(tmp_path / "games.csv"))
    assert done.returncode == 0
    assert len(list(csv.DictReader(open(tmp_path / "games.csv", newline="")))) == 2
