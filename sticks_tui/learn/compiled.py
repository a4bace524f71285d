"""Loading the compiled kernel, and recovering from a damaged numba cache (issue 13): the one loader
(the trainer, MENACE's training and the lab all ask `load`, or `kernel` for the module itself).

numba keeps compiled kernels on disk (`cache=True`). A cache file cut short (a full disk, a killed
process) makes loading fail with an UnpicklingError or EOFError, and would do so on every run. Here
the first failure clears OUR kernel modules' cache files only and compiles once more; if that fails
too, `load` says why in words and the trainer falls back to the readable reference learner.

numba checks a cached kernel against its own source file only, but ours compile code from other
files too (the hat rule in `learn/hats.py`). A cache file older
than any of those sources is stale, so it is cleared before loading.

The first run after an install (or an upgrade) compiles the kernel: seconds of waiting, once (issue 33
item 7). `cold()` says whether the next `load` compiles; while it does, `preparing()` gives the seconds
so far and the seconds it is expected to take: the compile last measured on this machine (kept beside
numba's cache files, `record_path`), or, before any, an estimate from this machine's speed (a short
Python loop timed now, `estimate_seconds`). A load from a warm cache is never said to prepare anything.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
import threading
import time
from pathlib import Path

#: The modules whose numba cache files we may clear.
KERNEL_MODULES = ("sticks_tui.learn.kernel",)
#: Every source file compiled into the kernel.
KERNEL_SOURCES = ("sticks_tui.learn.hats", "sticks_tui.learn.kernel", "sticks_tui.learn.tables")
_ready: set[str] = set()
#: While `load` compiles: (time.monotonic() it began, the seconds expected); None otherwise.
_compiling: tuple[float, float] | None = None
_lock = threading.Lock()
#: The compile of every kernel in `warm_up` (numba's import included) against `_loop_seconds` scaled to
#: 10**7 steps, both in CPU seconds in one process: 19.2 s and 20.1 s against 0.51 s and 0.50 s on this
#: project's 2-core machine (Python 3.11; /tmp run of `compiled.load()` with an empty NUMBA_CACHE_DIR, twice, 2026-11-28:
#: ratios 38 and 40; the kernel before its helpers stopped being inlined by numba took 24.0 s and 23.3 s, 48 and 45). A
#: machine twice as slow at the loop (or twice as busy: the loop is timed on the clock) takes about twice as long.
COMPILE_PER_LOOP = 39.0


def cache_files(module_name: str) -> list[Path]:
    """The numba cache files (*.nbi index, *.nbc data) of every kernel in one of our modules, wherever
    numba keeps them (next to the source, or under NUMBA_CACHE_DIR). Imports the module (cheap:
    nothing is compiled or loaded until a kernel is first called)."""
    from numba.core.dispatcher import Dispatcher

    module = importlib.import_module(module_name)
    found: set[Path] = set()
    for value in vars(module).values():
        cache = getattr(value, "_cache", None) if isinstance(value, Dispatcher) else None
        index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
        if index is None:
            continue
        index = Path(index)
        prefix = index.name[: -len(".nbi")]
        if index.parent.is_dir():
            found |= {p for p in index.parent.iterdir()
                      if p.name.startswith(prefix + ".") and p.suffix in (".nbi", ".nbc")}
    return sorted(found)


def clear_cache(module_name: str) -> int:
    """Delete one kernel module's cache files; return how many went."""
    gone = 0
    for path in cache_files(module_name):
        try:
            path.unlink()
            gone += 1
        except OSError:
            pass
    return gone


def clear_stale() -> int:
    """Delete our cache files older than any source compiled into the kernels; return how many went."""
    newest = _newest_source()
    gone = 0
    for module in KERNEL_MODULES:
        for path in cache_files(module):
            try:
                if path.stat().st_mtime < newest:
                    path.unlink()
                    gone += 1
            except OSError:
                pass
    return gone


#: The kernels `kernel.warm_up` compiles: each keeps a cache index of its own (the helpers they call are
#: compiled into them and have none). The next load compiles when one of them has no fresh index.
ENTRY_POINTS = ("play_games", "play_values", "check_all", "chances", "chances_both", "agreement", "curve_point",
                "curve_chances")


def cold() -> bool:
    """Whether the next `load` in this process compiles the kernel (not only reads numba's cache)."""
    return KERNEL_MODULES[0] not in _ready and _cache_cold()


def _cache_cold(newest: float | None = None) -> bool:
    """Some kernel of `ENTRY_POINTS` has no cache index, or only one older than `newest` (default: the
    newest source compiled into the kernels): then it is stale, and cleared before loading."""
    newest = _newest_source() if newest is None else newest
    for name in ENTRY_POINTS:
        index = _index_path(name)
        try:
            if index is None or index.stat().st_mtime < newest:
                return True
        except OSError:
            return True
    return False


def _index_path(name: str) -> Path | None:
    """Where numba keeps the cache index of the kernel `name` (whether or not it exists yet)."""
    kernel_module = importlib.import_module(KERNEL_MODULES[0])
    cache = getattr(getattr(kernel_module, name, None), "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return None if index is None else Path(index)


def _newest_source() -> float:
    """When the newest source compiled into the kernels was last changed."""
    newest = 0.0
    for name in KERNEL_SOURCES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            newest = max(newest, Path(spec.origin).stat().st_mtime)
    return newest


def record_path() -> Path | None:
    """The file keeping the last compile's seconds on this machine: beside numba's cache of the kernel."""
    index = _index_path(ENTRY_POINTS[0])
    return None if index is None else index.parent / "sticks-tui-compile.json"


def measured_seconds() -> float | None:
    """The seconds the last compile took on this machine, or None if none was measured (or kept)."""
    path = record_path()
    try:
        seconds = float(json.loads(path.read_text())["seconds"]) if path is not None else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return seconds if seconds is not None and 0 < seconds < 3600 else None


def _record(seconds: float) -> None:
    path = record_path()
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"seconds": round(seconds, 2)}))
    except OSError:
        pass  # a read-only install: the estimate serves next time


def _loop_seconds(steps: int = 1_000_000, clock=time.perf_counter) -> float:
    """The seconds a plain Python loop of `steps` steps takes here now (in a function, as the estimate's)."""
    start = clock()
    total = 0
    for i in range(steps):
        total += i
    return clock() - start


def estimate_seconds() -> float:
    """The compile's expected seconds on this machine before one was measured: a 10**6-step Python loop
    timed now on the clock (about 0.05 s; a busy machine's loop is slow too), scaled by `COMPILE_PER_LOOP`."""
    return _loop_seconds() * 10 * COMPILE_PER_LOOP


def expected_seconds() -> float:
    """How long a compile is expected to take here: the last one measured, else the estimate."""
    measured = measured_seconds()
    return measured if measured is not None else estimate_seconds()


def preparing() -> tuple[float, float] | None:
    """While `load` compiles (in any thread): (seconds so far, seconds expected); None when it does not."""
    now = _compiling
    return None if now is None else (time.monotonic() - now[0], now[1])


def starting_words() -> str:
    """What a run about to start says while it waits: 'Preparing the fast trainer (once, about 7 s): 2 s so
    far' while the kernel compiles (never when its cache is warm), else 'Starting ...'."""
    now = preparing()
    if now is None:
        return "Starting ..."
    so_far, expected = now
    return (f"Preparing the fast trainer (once, about {max(1, round(expected))} s): {int(so_far)} s so far. "
            "Training starts as soon as it is ready.")


def _warm(module_name: str, fresh: bool) -> None:
    if fresh:
        # new dispatchers, so nothing of the damaged cache is remembered
        for name in reversed(KERNEL_MODULES):
            sys.modules.pop(name, None)
    importlib.import_module(module_name).warm_up()


def load() -> str | None:
    """Make the kernel ready. None when it is; else, in words, why it could not be compiled (the
    caller then trains with the reference learner)."""
    name = KERNEL_MODULES[0]
    if name in _ready:
        return None
    if not _ready:  # before numba has read any index in this process
        clear_stale()
    with _lock:  # two runs starting at once: one compiles, the other waits, and neither says it twice
        if name in _ready:
            return None
        return _load_now(name)


def _load_now(name: str) -> str | None:
    global _compiling
    compiling = cold()
    if compiling:
        _compiling = (time.monotonic(), expected_seconds())
    problem: str | None = "interrupted"  # until the compile returns: nothing measured from a half
    try:
        problem = _compile(name)
    finally:
        if compiling:
            if problem is None:
                _record(time.monotonic() - _compiling[0])
            _compiling = None
    return problem


def _compile(name: str) -> str | None:
    try:
        _warm(name, fresh=False)
    except Exception:  # noqa: BLE001 - any damage in numba's cache shows up as some exception here
        for module in KERNEL_MODULES:
            clear_cache(module)
        try:
            _warm(name, fresh=True)
        except Exception as exc:  # noqa: BLE001
            return (f"The compiled trainer could not be loaded ({type(exc).__name__}: {exc}); "
                    f"trained with the slower reference learner instead.")
    _ready.add(name)
    return None


def loaded() -> bool:
    """The kernel is ready in this process (asking never imports numba)."""
    return KERNEL_MODULES[0] in _ready


def kernel():
    """The compiled kernel's module, ready; RuntimeError saying why when it cannot be loaded."""
    problem = load()
    if problem is not None:
        raise RuntimeError(problem)
    return sys.modules[KERNEL_MODULES[0]]
