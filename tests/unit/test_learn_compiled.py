"""A damaged numba cache (issue 13) never stops training: it is cleared and the kernel recompiled once;
if the kernel still cannot be had, training falls back to the reference learner and says so."""

from __future__ import annotations

import json
import os
import sys
import textwrap

import numpy as np
import pytest

from sticks_tui.learn import compiled
from sticks_tui.learn.trainer import TrainingConfig, train

# A kernel module of one small loop, loaded by `compiled.load` as the trainer's is (its name put in
# KERNEL_MODULES): the recovery is the loader's, whatever the kernel; compiling the trainer's whole kernel
# again here would cost a CPU minute on CI's machines for nothing more (tests/unit/test_kernel*.py hold
# the real kernel to the readable learner).
TINY = textwrap.dedent("""
    import numpy as np
    from numba import njit

    @njit(cache=True)
    def add_one(a):
        for i in range(a.shape[0]):
            a[i] += 1
        return a

    def warm_up():
        add_one(np.zeros(3, dtype=np.int64))
""")


def plant_cut_short_cache(kernel_dir, cache_dir, monkeypatch) -> str:
    """A cut-short cache file where numba looks for the kernel's index under NUMBA_CACHE_DIR=cache_dir (and a
    data file): the path found as a fresh interpreter would find it (numba's locator, given that cache folder),
    here in this process (a Python of its own cost 0.6 CPU s for a path). The module is forgotten after."""
    import importlib

    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache_dir))
    monkeypatch.syspath_prepend(str(kernel_dir))
    monkeypatch.delitem(sys.modules, "tiny_kernel", raising=False)
    tiny_kernel = importlib.import_module("tiny_kernel")
    monkeypatch.delitem(sys.modules, "tiny_kernel")
    index = tiny_kernel.add_one._cache._cache_file._index_path
    os.makedirs(os.path.dirname(index), exist_ok=True)
    with open(index, "wb") as cut:
        cut.write(b"\x80\x04\x95\x10")  # a pickle cut short after four bytes
    with open(index[:-4] + ".1.nbc", "wb") as data:
        data.write(b"\x80\x04")
    return index


def load_as_the_trainer_does(monkeypatch) -> dict:
    """`compiled.load()` with the tiny kernel as our kernel module, as the trainer calls it at its start, in this
    process (each Python of its own cost 0.6 CPU s to import numba), then the kernel used. The kernel module is
    imported afresh (new dispatchers, which read numba's cache files as a new process's would) and forgotten
    after, and `compiled` remembers nothing loaded before: this load is a first one, as a process's is."""
    monkeypatch.setattr(compiled, "KERNEL_MODULES", ("tiny_kernel",))
    monkeypatch.setattr(compiled, "KERNEL_SOURCES", ("tiny_kernel",))
    monkeypatch.setattr(compiled, "_ready", set())
    monkeypatch.delitem(sys.modules, "tiny_kernel", raising=False)
    try:
        problem = compiled.load()
        return {"problem": problem, "loaded": compiled.loaded(),
                "sum": int(sys.modules["tiny_kernel"].add_one(np.arange(4)).sum())}
    finally:
        sys.modules.pop("tiny_kernel", None)


def test_a_cut_short_cache_file_is_cleared_and_the_kernel_recompiled(tmp_path, monkeypatch):
    (tmp_path / "tiny_kernel.py").write_text(TINY)
    cache = tmp_path / "cache"
    index = plant_cut_short_cache(tmp_path, cache, monkeypatch)
    assert str(cache) in index and os.path.getsize(index) == 4
    assert load_as_the_trainer_does(monkeypatch) == {"problem": None, "loaded": True, "sum": 10}  # 1+2+3+4: right
    assert os.path.getsize(index) > 100  # a whole index written again
    written = os.path.getmtime(index)
    again = load_as_the_trainer_does(monkeypatch)  # and the next load reads it as usual, compiling nothing
    assert again["problem"] is None and again["sum"] == 10
    assert os.path.getmtime(index) == written


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
