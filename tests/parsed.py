"""Each source file parsed once per test process: several checks (layers, the registry, the write guard,
the rule's words, the text boxes) walk the syntax trees of the whole package, each tree read only."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.lru_cache(maxsize=None)
def _parse(path: str, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"), path)


def parsed(path: Path) -> ast.Module:
    """The syntax tree of `path` (parsed again if the file changed); walk it, never change it."""
    stat = path.stat()
    return _parse(str(path), stat.st_mtime_ns, stat.st_size)
