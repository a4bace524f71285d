"""The core never loads the UI: import it in a fresh interpreter and look at sys.modules."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

CORE = ["sticks_tui.engine", "sticks_tui.play", "sticks_tui.learn", "sticks_tui.solve", "sticks_tui.store", "sticks_tui.commands"]

PROBE = textwrap.dedent("""
    import importlib, json, os, pkgutil, sys
    def ui_modules():
        return sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich") or m.startswith("sticks_tui.ui"))
    packages = json.loads(sys.argv[1])
    loaded = []
    for name in packages:
        package = importlib.import_module(name)
        loaded.append(name)
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            importlib.import_module(info.name)
            loaded.append(info.name)
    import sticks_tui.cli
    sticks_tui.cli.build_parser()  # every sub-command registers itself
    loaded.append("sticks_tui.cli")
    ui = ui_modules()
    # the process's threads: numpy's OpenBLAS would have started a pool of them (sticks_tui/__init__.py)
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
    # names a module's __all__ promises that it does not have (a star import would fail on them)
    unlisted = sorted(f"{m}.{n}" for m in loaded for n in getattr(sys.modules[m], "__all__", ())
                      if not hasattr(sys.modules[m], n))
    print(json.dumps({"loaded": loaded, "ui": ui, "threads": threads, "asyncio": "asyncio" in sys.modules,
                      "unlisted": unlisted, "modules": sorted(m for m in sys.modules if m.startswith("sticks_tui"))}))
""")
#: Thread counts a user may set for numpy's OpenBLAS: the probe runs without them, as a person's shell would.
BLAS_THREAD_SETTINGS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


#: Then, in the same fresh interpreter, the headless trainer runs (its own output set aside) and Nim's table is solved,
#: and the UI is looked for again; last, textual is imported and looked for the same way (the probe must be able to
#: fail): one interpreter's start-up for the three tests below.
TRAIN_AFTER = textwrap.dedent("""
    import contextlib, io
    import sticks_tui.solve.nim
    from sticks_tui.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(['train', '--sticks', '8', '--games', '100', '--seed', '1', '--json'])
    sticks_tui.solve.nim.nim_table()
    print(json.dumps({"rc": rc, "ui": ui_modules()}))
    try:
        import textual  # the package alone: 0.13 CPU s less than textual.app, and as much textual as the probe needs
    except ImportError:
        print(json.dumps(None))
    else:
        print(json.dumps({"ui": ui_modules()}))
""")


def probe(packages, then: str = ""):
    """What the probe printed (and what `then`, run after it in the same interpreter, printed), line by line."""
    env = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_SETTINGS}
    proc = subprocess.run([sys.executable, "-c", PROBE + then, json.dumps(packages)], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module")
def fresh_interpreter():
    # the store may not exist yet in every checkout: import it when it is there
    packages = [p for p in CORE if p != "sticks_tui.store" or importlib.util.find_spec(p) is not None]
    return probe(packages, TRAIN_AFTER)


def test_the_core_and_the_cli_never_import_textual_or_rich(fresh_interpreter):
    result = fresh_interpreter[0]
    assert result["ui"] == []
    assert result["unlisted"] == []  # store/brains.py once listed a nim_brain it no longer had
    assert result["asyncio"] is False  # only `serve` needs it, when it runs: ~40 ms of CPU every command paid
    if result["threads"] is not None:  # Linux: one thread, numpy imported and no pool of BLAS threads spinning
        assert result["threads"] == 1
    for required in ("sticks_tui.engine.rules", "sticks_tui.learn.kernel", "sticks_tui.learn.trainer",
                     "sticks_tui.solve.sticks", "sticks_tui.commands.train", "sticks_tui.cli"):
        assert required in result["loaded"]
    # the classic mode too (the parser's `classic` loads it): this held tests/unit/test_store.py's
    # test_the_store_and_the_classic_mode_never_import_the_ui, with the store and the records and brain commands
    assert {"sticks_tui.classic", "sticks_tui.store", "sticks_tui.commands.classic", "sticks_tui.commands.records",
            "sticks_tui.commands.brain"} <= set(result["modules"])


def test_the_headless_trainer_runs_without_textual(fresh_interpreter):
    """And Nim's table is solved without it (this held tests/unit/test_nim_engine.py's
    test_nim_core_never_imports_the_ui, whose modules the probe imports)."""
    assert fresh_interpreter[1] == {"rc": 0, "ui": []}


def test_the_probe_can_see_textual_when_it_is_loaded(fresh_interpreter):
    """The probe itself must be able to fail: importing the UI shows up (in the same interpreter, last)."""
    if fresh_interpreter[2] is None:
        pytest.skip("textual not installed")
    assert "textual" in fresh_interpreter[2]["ui"]
