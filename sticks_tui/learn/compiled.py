"""Loading the compiled kernel, and recovering from a damaged numba cache (issue 13): the one loader
(the trainer, MENACE's training and the lab all ask `load`, or `kernel` for the module itself).

numba keeps compiled kernels on disk (`cache=True`). A cache file cut short (a full disk, a killed
process) makes loading fail with an UnpicklingError or EOFError, and would do so on every run. Here
the first failure clears OUR kernel modules' cache files only and compiles once more; if that fails
too, `load` says why in words and the trainer falls back to the readable reference learner.

numba checks a cached kernel against its own source file only, but ours compile code from other
files too (the hat rule in `learn/hats.py`). A cache file older
than any of those sources is stale, so it is cleared before loading.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path

#: The modules whose numba cache files we may clear.
KERNEL_MODULES = ("sticks_tui.learn.kernel",)
#: Every source file compiled into the kernel.
KERNEL_SOURCES = ("sticks_tui.learn.hats", "sticks_tui.learn.kernel", "sticks_tui.learn.tables")
_ready: set[str] = set()


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
    newest = 0.0
    for name in KERNEL_SOURCES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            newest = max(newest, Path(spec.origin).stat().st_mtime)
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
