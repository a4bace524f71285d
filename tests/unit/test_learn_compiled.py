"""A damaged numba cache (issue 13) never stops training: it is cleared and the kernel recompiled once;
if the kernel still cannot be had, training falls back to the reference learner and says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from sticks_tui.learn import compiled
from sticks_tui.learn.trainer import TrainingConfig, train

# In a fresh interpreter whose NUMBA_CACHE_DIR is a temp dir: plant a cut-short cache file where
# numba looks for the sticks kernel's index (and a data file), then train through the CLI.
PLANT = textwrap.dedent("""
    import pathlib
    from sticks_tui.learn import kernel
    index = pathlib.Path(kernel.play_games._cache._cache_file._index_path)
    index.parent.mkdir(parents=True, exist_ok=True)
    index.write_bytes(b"\\x80\\x04\\x95\\x10")  # a pickle cut short after four bytes
    (index.parent / (index.name[:-4] + ".1.nbc")).write_bytes(b"\\x80\\x04")
    print(index)
""")


def run(code_or_args, cache_dir, module=False):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    cmd = [sys.executable, "-m", "sticks_tui", *code_or_args] if module else [sys.executable, "-c", code_or_args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.slow
def test_a_cut_short_cache_file_is_cleared_and_the_kernel_recompiled(tmp_path, capsys):
    planted = run(PLANT, tmp_path)
    assert planted.returncode == 0, planted.stderr
    index = planted.stdout.strip()
    assert str(tmp_path) in index and os.path.getsize(index) == 4
    args = ["train", "--sticks", "12", "--games", "3000", "--seed", "4", "--json"]
    out = run(args, tmp_path, module=True)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "could not be loaded" not in out.stderr
    result = json.loads(out.stdout)
    assert result["engine"] == "kernel" and result["games"] == 3000
    assert os.path.getsize(index) > 100  # a whole index written again
    from sticks_tui.cli import main

    assert main(args + ["--engine", "reference"]) == 0  # the readable learner needs no kernel: here, no process
    assert json.loads(capsys.readouterr().out)["hats"] == result["hats"]  # the recompiled kernel is right
    again = run(args, tmp_path, module=True)  # and the next run loads it as usual
    assert again.returncode == 0 and json.loads(again.stdout)["engine"] == "kernel"


def test_if_compiling_still_fails_training_falls_back_to_the_reference_learner(monkeypatch, capsys):
    def broken(module_name, fresh):
        raise EOFError("Ran out of input")

    monkeypatch.setattr(compiled, "_warm", broken)
    monkeypatch.setattr(compiled, "_ready", set())
    cleared = []
    monkeypatch.setattr(compiled, "clear_cache", cleared.append)
    config = TrainingConfig(sticks=10, games=500, seed=3)
    result = train(config)
    assert result.engine == "reference" and "reference learner" in result.notice and "EOFError" in result.notice
    assert cleared == list(compiled.KERNEL_MODULES)  # only our kernel modules' caches were cleared
    monkeypatch.undo()
    expected = train(TrainingConfig(sticks=10, games=500, seed=3, engine="reference"))
    assert np.array_equal(result.brain.counts, expected.brain.counts)


def test_the_cli_says_when_it_fell_back(monkeypatch, capsys):
    from sticks_tui.cli import main

    monkeypatch.setattr(compiled, "_warm", lambda name, fresh: (_ for _ in ()).throw(EOFError("cut short")))
    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.setattr(compiled, "clear_cache", lambda name: 0)
    code = main(["train", "--sticks", "10", "--games", "200", "--seed", "1", "--json"])
    captured = capsys.readouterr()
    assert code == 0
    assert "reference learner" in captured.err
    assert json.loads(captured.out)["engine"] == "reference"
