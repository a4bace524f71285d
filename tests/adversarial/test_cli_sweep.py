"""Sweep (b): any argument vector gives exit status 0, 1 or 2, never a traceback.

The vectors are drawn from the real sub-commands and options, with junk, huge numbers, unicode and
empty strings mixed in. Most run `cli.main` in-process (captured stdio, a temporary data directory
and working directory) for speed; a handful run the real `sticks-tui` command in a subprocess.
Training runs are kept short by putting a small `--games` first (argparse keeps the last one, and
the drawn values are small or invalid), and FIFOs are left to their own test (they would block).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from sticks_tui.learn.trainer import GAME_PROTOCOLS as NIM_PROTOCOLS
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store
from sticks_tui.store import brainfile
from sticks_tui.learn.trainer import PROTOCOLS as TRAIN_PROTOCOLS
from cli_here import run_here as cli_here

COMMANDS = [[], ["train"], ["nim"], ["nim", "solve"], ["nim", "train"], ["classic"], ["records"], ["brain"],
            ["brain", "list"], ["brain", "export"], ["brain", "import"], ["brain", "copy"], ["brain", "rename"],
            ["brain", "reset"], ["brain", "delete"], ["backups"], ["settings"], ["serve"], ["export"]]
OPTIONS = ["--json", "--games", "--sticks", "--seed", "--protocol", "--floor", "--start-balls", "--reward",
           "--penalty", "--engine", "--piles", "--mode", "--name", "--name2", "--brain", "--train-games",
           "--no-hats", "--echo", "--no-echo", "--player", "--replace", "--restore", "--help", "-h", "--version", "--",
           "-", "--gam", "--json=1", "--games=", "--sticks=20"]
NUMBERS = ["0", "1", "2", "3", "7", "10", "20", "100", "150", "1000", "-1", "-0", "007", "1_0", "1,0", " 3 ",
           "1e3", "1.5", "0x10", "9" * 30, "-" + "9" * 30, "9" * 5000, "١٢", "Ⅻ", "NaN", "inf", "+5"]
WORDS = ["", " ", "default", "trained", "Default", "DEFAULT", "Player 1", "Learning AI", "Zoë", "Straße",
         "STRASSE", "Émile", "x" * 41, "x" * 5000, "\t", "a\nb", "\u202e", "💥", "\udcff", "friend", "computer",
         "classic", "explore", "each", "nonempty", "kernel", "reference", "solve", "train", "list", "y", "n"]
STDINS = ["", "10\n", "10\n1\n1\n1\n1\n1\n1\n1\nn\n", "junk\n" * 5, "100\n3\n" * 3, "10\n2\n" + "3\n" * 6 + "y\n",
          "\x00\xff\n", "10\n" + "1\n" * 30]

# training-type commands get a short run first; a later drawn --games (small or invalid) wins
SHORT = {("train",): ["--games", "40"], ("nim", "train"): ["--games", "40"], ("classic",): ["--train-games", "40"]}
SMALL_GAMES = ["0", "1", "10", "40", "-5", "lots", "", "9" * 30, "10000001", "1e3"]
FILES = [f"FILE{i}" for i in range(11)]


def files(workdir: Path) -> list[str]:
    return [str(workdir / "good.json"), str(workdir / "junk.json"), str(workdir / "empty-hat.json"),
            str(workdir / "folder"), str(workdir / "missing.json"), str(workdir / "out.json"),
            str(workdir / "no" / "such" / "dir.json"), "/dev/null", "/dev/zero", "relative.json", "."]


def mostly(good: list[str], bad: list[str] = NUMBERS + WORDS):
    """Usually a value the option accepts, sometimes anything at all."""
    return st.one_of(st.sampled_from(good), st.sampled_from(good), st.sampled_from(good), st.sampled_from(bad))


numbers = mostly(["0", "1", "3", "10", "12", "20", "50", "100"])
names = mostly(["default", "Zoë", "zoë", "ZOË", "trained", "new one", "Player 1", "Émile", "Straße", "STRASSE"])
flag = st.none()
# each command's own options (None: a flag) and positional arguments, from the real parsers
GRAMMAR = {
    (): ({}, []),
    ("nim",): ({}, []),
    ("train",): ({"--sticks": numbers, "--games": st.sampled_from(SMALL_GAMES), "--seed": numbers,
                  "--protocol": mostly(list(TRAIN_PROTOCOLS)), "--floor": mostly(["each", "nonempty"]),
                  "--start-balls": numbers, "--reward": numbers, "--penalty": numbers,
                  "--engine": mostly(["kernel", "reference"]), "--json": flag}, []),
    ("nim", "solve"): ({"--json": flag}, [numbers, numbers, numbers]),
    ("nim", "train"): ({"--games": st.sampled_from(SMALL_GAMES), "--seed": numbers,
                        "--piles": st.tuples(numbers, numbers, numbers).map(" ".join),
                        "--protocol": mostly(list(NIM_PROTOCOLS)), "--engine": mostly(["kernel", "reference"]),
                        "--json": flag}, []),
    ("classic",): ({"--mode": mostly(["friend", "computer", "trained"]), "--name": names, "--name2": names,
                    "--brain": names, "--train-games": st.sampled_from(SMALL_GAMES), "--seed": numbers,
                    "--no-hats": flag, "--echo": flag, "--no-echo": flag}, []),
    ("records",): ({"--json": flag, "--player": names, "--games": numbers}, []),
    ("brain", "list"): ({"--json": flag}, []),
    ("brain", "export"): ({}, [names, st.sampled_from(FILES)]),
    ("brain", "import"): ({"--replace": flag}, [st.sampled_from(FILES), st.one_of(st.just(None), names)]),
    ("brain", "copy"): ({}, [names, names]),
    ("brain", "rename"): ({}, [names, names]),
    ("brain", "reset"): ({}, [names]),
    ("brain", "delete"): ({}, [names]),
}


@st.composite
def argvs(draw):
    """Mostly well-formed command lines for a real sub-command, with junk spliced in now and then."""
    command = draw(st.sampled_from(sorted(GRAMMAR)))
    options, positionals = GRAMMAR[command]
    argv = list(command) + SHORT.get(command, [])
    for name in draw(st.lists(st.sampled_from(sorted(options)), max_size=4)) if options else []:
        value = draw(options[name]) if options[name] is not None else None
        if value is None:
            argv.append(name)
        else:
            argv += [name, *value.split(" ")] if name == "--piles" else [name, value]
    for strategy in positionals:
        value = draw(strategy)
        if value is not None:
            argv.append(value)
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2, 5]))):  # junk: anything, anywhere
        junk = draw(st.one_of(st.sampled_from(OPTIONS + NUMBERS + WORDS + [c[-1] for c in COMMANDS if c]),
                              st.text(max_size=12), st.integers(-10**40, 10**40).map(str)))
        argv.insert(draw(st.integers(0, len(argv))), junk)
    return argv


def prepare(workdir: Path) -> Path:
    data = workdir / "data"
    with Store.open(data) as store:
        store.save_brain("default", Hats(12), 3)
        store.save_brain("Zoë", Hats(30), 0)
        store.record_game(game="sticks", start=10, opponent="friend", players=("Player 1", "Zoë"),
                          moves=[3, 3, 3, 1], loser=1)
        store.export_brain("default", workdir / "good.json")
    (workdir / "junk.json").write_bytes(b'{"format": "sticks-tui-brain", "version": 1, "size": "' + b"9" * 3000
                                        + b'"}')
    doc = json.loads((workdir / "good.json").read_text())
    doc["hats"][5] = [0, 0, 0]
    (workdir / "empty-hat.json").write_text(json.dumps(doc))
    (workdir / "folder").mkdir()
    return data


def resolve(argv: list[str], workdir: Path) -> list[str]:
    table = files(workdir)
    return [table[int(a[4:])] if a.startswith("FILE") and a[4:].isdigit() else a for a in argv]


def run_in_process(argv: list[str], data: Path, stdin: str) -> tuple[int, str, str]:
    done = cli_here(data, argv, stdin)  # argparse's exits: usage errors (2), --help and --version (0)
    return done.returncode, done.stdout, done.stderr


@contextlib.contextmanager
def sandbox():
    """A fresh working directory holding the data and the files; relative paths land there too."""
    old_cwd = os.getcwd()
    driver = os.environ.pop("TEXTUAL_DRIVER", None)
    with tempfile.TemporaryDirectory(prefix="sticks-sweep-") as tmp:
        workdir = Path(tmp)
        data = prepare(workdir)
        os.chdir(workdir)
        try:
            yield workdir, data
        finally:
            os.chdir(old_cwd)
            if driver is not None:
                os.environ["TEXTUAL_DRIVER"] = driver


def assert_clean(argv, code, out, err):
    event(f"exit {code}")  # shown by --hypothesis-show-statistics: the sweep must not be all usage errors
    assert code in (0, 1, 2), (argv, code, err[-2000:])
    assert "Traceback" not in err and "Traceback" not in out, (argv, err[-2000:])
    assert "unexpected error" not in err, (argv, err[-2000:])


NIGHTLY = os.environ.get("HYPOTHESIS_PROFILE") == "nightly"


@settings(max_examples=settings().max_examples if NIGHTLY else 12)
@given(argvs(), st.sampled_from(STDINS))
@pytest.mark.slow
def test_any_argument_vector_in_process(argv, stdin):
    with sandbox() as (workdir, data):
        argv = resolve(argv, workdir)
        code, out, err = run_in_process(argv, data, stdin)
        assert_clean(argv, code, out, err)


def sticks_command() -> list[str]:
    script = Path(sys.executable).with_name("sticks-tui")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sticks_tui"]


@settings(max_examples=100 if NIGHTLY else 3)
@given(argvs(), st.sampled_from(STDINS))
def test_any_argument_vector_in_a_real_process(argv, stdin):
    with sandbox() as (workdir, data):
        argv = [a for a in resolve(argv, workdir) if "\x00" not in a]  # exec() cannot pass a NUL byte
        env = {k: v for k, v in os.environ.items() if k != "TEXTUAL_DRIVER"}
        proc = subprocess.run(sticks_command() + ["--data-dir", str(data), *argv], input=stdin.encode(),
                              capture_output=True, timeout=120, env=env, cwd=workdir)
        out = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace")
        assert_clean(argv, proc.returncode, out, err)


def test_the_sweep_uses_files_that_exist_as_described(tmp_path):
    # the vocabulary is what it says: a good brain file, refused ones, a folder
    data = prepare(tmp_path)
    assert brainfile.read_brain_file(tmp_path / "good.json").name == "default"
    assert Store.open(data).list_brains()
