"""Every sub-command on a data folder it cannot use (issue 30 item 6): a database written by a newer
sticks-tui, a data "folder" that is a file, and a folder it may not read. Each says why and ends with a
status of its own (never 70, "unexpected error ... this is a bug"), never a traceback, and leaves the
database as it was.

The sub-commands are listed from the real argparse parser (`cli.build_parser`), so a new one is swept
without a change here; each runs in-process (`cli.main`), with its required arguments filled in, and
again with each option below that leads it to the store. Training options are kept short.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

import pytest

from sticks_tui.cli import build_parser, main
from sticks_tui.learn.hats import Hats
from sticks_tui.store import DB_FILENAME, SCHEMA_VERSION, Store, StoreError

#: Options that lead a command to the store (each run as a variant when the command has it), and values
#: that keep a run short (given whenever the command has the option). The compiled engine: the readable one
#: scores a MENACE's or a Nim brain's checkpoints in plain Python (about 0.25 CPU s a run, 1.6 s of the sweep),
#: and the kernel is loaded once per test process anyway.
STORE_OPTIONS = {"--brain": ["default"], "--json": [], "--list": [], "--show": ["1"], "--restore": ["x"],
                 "--id": ["1"], "--player": ["Ann"]}
SHORT = {"--games": "2", "--train-games": "2", "--seeds": "1", "--cap": "10", "--engine": "kernel"}
#: Tried in turn for a positional argument whose type checks it (a number, a board).
TYPED_VALUES = ["1", "........."]
NOBODY = 65534


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(the words of a sub-command, its parser) for every sub-command that runs (has a handler)."""
    if path and parser.get_default("handler") is not None:
        yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from leaves(sub, (*path, name))


def positional_values(parser: argparse.ArgumentParser, brain_file: Path) -> list[list[str]]:
    """Argument lists for the command's required positional arguments: one per choice of a choosing one."""
    runs: list[list[str]] = [[]]
    for action in parser._actions:
        if action.option_strings or isinstance(action, argparse._SubParsersAction) or action.nargs in ("?", "*"):
            continue
        if action.choices:
            values = [str(c) for c in action.choices]
        elif action.type is None:
            values = [str(brain_file) if action.dest == "file" else "default"]
        else:
            values = [next(v for v in TYPED_VALUES if _accepts(action.type, v))]
        runs = [[*run, value] for run in runs for value in values]
    return runs


def _accepts(check, value: str) -> bool:
    try:
        check(value)
    except (ValueError, TypeError, argparse.ArgumentTypeError):
        return False
    return True


def command_lines(brain_file: Path) -> list[list[str]]:
    """Every sub-command with its arguments, bare and with each store option it has."""
    lines = []
    for words, parser in leaves(build_parser()):
        options = {s for a in parser._actions for s in a.option_strings}
        short = [x for option, value in SHORT.items() if option in options for x in (option, value)]
        variants = [[]] + [[option, *values] for option, values in STORE_OPTIONS.items() if option in options]
        for args in positional_values(parser, brain_file):
            lines += [[*words, *args, *short, *variant] for variant in variants]
    return lines


@contextlib.contextmanager
def cannot_read(folder: Path):
    """`folder` unreadable for the duration: mode 000, and if this runs as root (which reads any folder
    whatever its mode), with the effective user `nobody`, as `seteuid` allows root to take and give back."""
    folder.chmod(0)
    try:
        if os.geteuid() != 0:
            yield
            return
        try:
            os.seteuid(NOBODY)
        except OSError as exc:
            pytest.skip(f"running as root without the right to become another user ({exc}): root reads any folder")
        try:
            yield
        finally:
            os.seteuid(0)
    finally:
        folder.chmod(0o700)


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def sweep(capsys, data: Path, config: Path, lines: list[list[str]]) -> list[str]:
    """What went wrong, for every command line run on `data`."""
    with pytest.raises(StoreError):  # the folder is really unusable (or `serve` would serve it)
        Store.open(data)
    problems = []
    for line in lines:
        code, out, err = run(capsys, ["--data-dir", str(data), "--config-dir", str(config), *line])
        said = out + err
        if code == 70 or "Traceback" in said or "unexpected error" in said:
            problems.append(f"{' '.join(line)}: exit {code}: {said.strip()[-300:]}")
        elif code not in (0, 1, 2) or (code != 0 and not err.strip()):
            problems.append(f"{' '.join(line)}: exit {code} without saying why: {said.strip()[-300:]}")
    return problems


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def places(tmp_path, monkeypatch):
    """(a folder whose database is from a newer sticks-tui, a file, a folder with a database; a brain file)."""
    monkeypatch.delenv("STICKS_TUI_DATA_DIR", raising=False)
    monkeypatch.delenv("STICKS_TUI_CONFIG_DIR", raising=False)
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # `classic` and the like read no moves
    newer, readable = tmp_path / "newer", tmp_path / "unreadable"
    for folder in (newer, readable):
        with Store.open(folder) as store:
            store.save_brain("default", Hats(10), 5)
            if folder == newer:
                store.export_brain("default", tmp_path / "brain.json")
    conn = sqlite3.connect(newer / DB_FILENAME)
    with conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    conn.close()
    a_file = tmp_path / "a file"
    a_file.write_text("not a folder\n")
    return newer, a_file, readable, tmp_path / "brain.json"


@pytest.mark.slow  # about 3 s: 50-odd command lines on each of three places
def test_every_sub_command_on_an_unusable_data_folder_says_why_and_never_ends_as_a_bug(capsys, places, tmp_path):
    newer, a_file, unreadable, brain_file = places
    lines = command_lines(brain_file)
    swept = {words for words, _ in leaves(build_parser()) if any(line[:len(words)] == list(words) for line in lines)}
    assert swept >= {("export",), ("brain", "import"), ("serve",), ("records",), ("settings", "reset")}
    kept = digest(newer / DB_FILENAME), digest(unreadable / DB_FILENAME)
    problems = sweep(capsys, newer, tmp_path / "config", lines)
    problems += sweep(capsys, a_file, a_file, lines)
    # last: as `nobody`, the commands' modules must already be imported (a root-only Python cannot be read)
    with tempfile.TemporaryDirectory(prefix="sticks-unreadable-") as parent:
        Path(parent).chmod(0o755)  # `nobody` may pass through to the folder it may not read
        folder = Path(parent) / "data"
        unreadable.rename(folder)
        with cannot_read(folder):
            problems += sweep(capsys, folder, folder, lines)
        folder.rename(unreadable)
    assert problems == []
    assert (digest(newer / DB_FILENAME), digest(unreadable / DB_FILENAME)) == kept
    assert a_file.read_text() == "not a folder\n"


@pytest.mark.parametrize("what", ["hats", "curve", "games", "game", "lab"])
def test_export_on_a_database_it_cannot_open_says_why_in_one_line(capsys, places, what):
    newer, a_file, _, _ = places
    for data, why in [(newer, f"The database {newer / DB_FILENAME} was written by a newer sticks-tui (schema version "
                              f"{SCHEMA_VERSION + 1}; this one knows up to {SCHEMA_VERSION}). It was left untouched. "
                              "Nothing was changed."),
                      (a_file, f"Cannot use the data directory {a_file} ({a_file} is not a directory). Nothing was "
                               "changed.")]:
        code, out, err = run(capsys, ["--data-dir", str(data), "export", what, "--id", "1"])
        assert (code, out, err) == (1, "", f"sticks-tui export: {why}\n")
