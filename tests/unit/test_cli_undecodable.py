"""Issue 16 item 5: a name or a file name that is not valid UTF-8 (a shell passes any bytes; Python keeps the
bad ones as lone surrogates) gets one line and exit 2 from every command, and changes nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sticks_tui.learn.hats import Hats
from sticks_tui.store import InvalidName, Store
from cli_here import run_here as cli_here

BAD = "\udcff"  # b"\xff" as os.fsdecode gives it
VECTORS = [
    ["brain", "reset", BAD], ["brain", "delete", BAD], ["brain", "copy", BAD, "x"], ["brain", "copy", "default", BAD],
    ["brain", "rename", "default", BAD], ["brain", "export", BAD, "out.json"], ["brain", "export", "default", BAD],
    ["brain", "import", BAD], ["records", "--player", BAD], ["export", "games", "--output", BAD + ".csv"],
    ["classic", "--name", BAD], ["settings", BAD], ["train", "--games", "10", "--seed", BAD],
]


def run(argv, data: Path) -> tuple[int, str, str]:
    done = cli_here(data, argv)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("argv", VECTORS, ids=lambda v: " ".join(a.replace(BAD, "xff") for a in v))
def test_an_undecodable_argument_gets_one_line_and_changes_nothing(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = tmp_path / "data"
    with Store.open(data) as store:
        store.save_brain("default", Hats(10), 5)
    code, out, err = run(argv, data)
    assert (code, out) == (2, "")
    assert err == ("sticks-tui: error: the argument '" + [a for a in argv if BAD in a][0].replace(BAD, "\\xff")
                   + "' is not valid UTF-8 text; names and file names must be UTF-8. Nothing was done.\n")
    with Store.open(data) as store:
        assert [b.name for b in store.list_brains()] == ["default"]
        assert store.brain_info("default").games_trained == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]


def test_the_real_command_with_a_byte_that_is_not_utf8(tmp_path):
    script = Path(sys.executable).with_name("sticks-tui")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "sticks_tui"]
    env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
    proc = subprocess.run([os.fsencode(a) for a in command] + [b"--data-dir", os.fsencode(tmp_path / "data"),
                                                               b"brain", b"reset", b"\xff"],
                          capture_output=True, timeout=60, env=env)
    assert proc.returncode == 2
    assert proc.stderr == (b"sticks-tui: error: the argument '\\xff' is not valid UTF-8 text; names and file names "
                           b"must be UTF-8. Nothing was done.\n")


@pytest.mark.parametrize("call", ["reset_brain", "delete_brain", "brain_info", "player", "load_brain"])
def test_the_store_refuses_a_name_that_is_not_text(call, tmp_path):
    with Store.open(tmp_path / "data") as store:
        with pytest.raises(InvalidName, match="valid UTF-8 text"):
            getattr(store, call)(BAD)
