"""Each source file parsed once per test process: several checks (layers, the registry, the write guard,
the rule's words, the text boxes) walk the syntax trees of the whole package, each tree read only; and, for
the checks that look at every node, each tree's nodes listed once (`walked`: walking the whole package's
trees takes ~0.26 CPU s, and the layer checks alone walked them four times)."""

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


@functools.lru_cache(maxsize=None)
def _walk(path: str, mtime_ns: int, size: int) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(_parse(path, mtime_ns, size)))


def walked(path: Path) -> tuple[ast.AST, ...]:
    """Every node of `parsed(path)`, in `ast.walk`'s order (walked again if the file changed); never change them."""
    stat = path.stat()
    return _walk(str(path), stat.st_mtime_ns, stat.st_size)
