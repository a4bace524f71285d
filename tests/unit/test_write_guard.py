"""Issue 16 item 4: no unguarded write path. Every function in sticks_tui that writes a file is either the
export guard itself (`safefile`) or on a short list, each with its reason; everything else writes through
`safefile.write_file`, which refuses the live database, any SQLite file, devices and someone's file."""

from __future__ import annotations

import ast
import json
import sqlite3
from pathlib import Path

import pytest

from parsed import parsed
from sticks_tui.learn.hats import Hats
from sticks_tui.store import Store, StoreError

PACKAGE = Path(__file__).resolve().parents[2] / "sticks_tui"
#: Module-level calls that write or move a file whatever their arguments.
WRITING_CALLS = {("os", "replace"), ("os", "rename"), ("os", "renames"), ("os", "link"), ("os", "symlink"),
                 ("os", "truncate"), ("os", "write"), ("shutil", "copy"), ("shutil", "copy2"), ("shutil", "copyfile"),
                 ("shutil", "copyfileobj"), ("shutil", "move"), ("shutil", "copytree"), ("tempfile", "mkstemp"),
                 ("tempfile", "NamedTemporaryFile"), ("tempfile", "TemporaryFile"), ("tempfile", "SpooledTemporaryFile")}
WRITING_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}
#: The functions allowed to write without `write_file`, and why each one destroys nothing.
ALLOWED = {
    "store/safefile.py:atomic_write": "the guard's own write: a new temporary file renamed over a checked target",
    "store/connection.py:_create_private": "creates the database file itself, O_EXCL: never over an existing file",
    "store/paths.py:keep_aside": "renames a damaged database or a bad settings file beside itself, to a name "
                                 "that does not exist",
    "store/backups.py:folder_problem": "creates and removes a probe file named for this process in the back-up "
                                       "folder, to say at start whether back-ups can be written",
    "store/backups.py:make_backup": "SQLite's online backup into a new '.part' file, renamed to a back-up name "
                                    "that does not exist yet (_free_name)",
    "store/backups.py:staged": "a restore's private copy of a back-up, O_EXCL under a new random name beside it "
                               "(never over a file), removed when the restore ends",
    "store/backups.py:write_status": "serve's back-up status file, in a private folder of its own made with "
                                     "tempfile.mkdtemp (web/server.py: _share_backup_status)",
    "cli.py:_reserve_standard_fds": "opens streams on fds 0-2 (no path): a closed fd is given /dev/null",
    "cli.py:_discard": "opens /dev/null to point a failed output stream at it",
    "web/warm.py:attach": "opens the server's end of a tab's stdin pipe (an fd, no path) as an asyncio stream",
    "web/warm.py:fork_tab": "the middle process writes the tab's pid to a pipe (an fd, no path)",
    "learn/compiled.py:_record": "the first compile's seconds, a cache file of our own in numba's cache folder "
                                 "(never a user's path); a torn or missing one reads as not measured",
}


def _write_mode(call: ast.Call, position: int) -> bool:
    """open()/fdopen()/Path.open() with a mode that writes ('w', 'a', 'x' or '+'), or a mode not spelled out."""
    mode = call.args[position] if len(call.args) > position else \
        next((k.value for k in call.keywords if k.arg == "mode"), None)
    if mode is None:
        return False
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return any(c in mode.value for c in "wax+")
    return True  # a mode computed at run time: count it as a write


def writes_a_file(call: ast.Call) -> bool:
    f = call.func
    if isinstance(f, ast.Name) and f.id == "open":
        return _write_mode(call, 1)
    if not isinstance(f, ast.Attribute):
        return False
    if isinstance(f.value, ast.Name) and (f.value.id, f.attr) in WRITING_CALLS:
        return True
    if isinstance(f.value, ast.Name) and f.value.id == "os" and f.attr == "open":
        flags = {n.attr for a in call.args[1:2] for n in ast.walk(a) if isinstance(n, ast.Attribute)}
        flags |= {n.id for a in call.args[1:2] for n in ast.walk(a) if isinstance(n, ast.Name)}
        return bool(flags & WRITING_FLAGS)
    if isinstance(f.value, ast.Name) and f.value.id == "os" and f.attr == "fdopen":
        return _write_mode(call, 1)
    if f.attr in ("write_text", "write_bytes", "touch", "mkdir", "symlink_to", "hardlink_to"):
        return f.attr != "mkdir"  # a folder is not a file written over
    if f.attr == "open" and not (isinstance(f.value, ast.Name) and f.value.id in ("os", "io")):
        # Path.open(mode): a mode spelled as text (Store.open(data_dir) and the like take no mode)
        spelled = (call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)) \
            or any(k.arg == "mode" for k in call.keywords)
        return bool(spelled) and _write_mode(call, 0)
    return False


def scan(root: Path = PACKAGE) -> tuple[dict[str, list[int]], set[str]]:
    """One walk of every function in the package: ('module path:function' -> the lines where it writes a file;
    every 'module path:function' a call of the guard's own write `atomic_write` sits in, outermost first)."""
    found: dict[str, list[int]] = {}
    callers: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        # each node with the functions it sits in (all of them, outermost first; a def's own body in it too)
        stack: list[tuple[ast.AST, tuple[str, ...]]] = [(parsed(path), ())]
        while stack:
            node, funcs = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs = (*funcs, node.name)
            elif isinstance(node, ast.Call):
                if writes_a_file(node):
                    found.setdefault(f"{where}:{funcs[-1] if funcs else '<module>'}", []).append(node.lineno)
                if getattr(node.func, "id", getattr(node.func, "attr", None)) == "atomic_write":
                    callers.update(f"{where}:{name}" for name in funcs)
            stack.extend((child, funcs) for child in ast.iter_child_nodes(node))
    return found, callers


def writing_functions(root: Path = PACKAGE) -> dict[str, list[int]]:
    """'module path:function' -> the lines where it writes a file, for every function in the package."""
    return scan(root)[0]


@pytest.fixture(scope="module")
def package_scan():
    """The package walked once for both checks below (a walk of every syntax tree: about 0.5 CPU s)."""
    return scan(PACKAGE)


def test_every_function_that_writes_a_file_goes_through_the_guard(package_scan):
    found = package_scan[0]
    unguarded = {where: lines for where, lines in found.items() if where not in ALLOWED}
    assert unguarded == {}, "write through sticks_tui.store.safefile.write_file, or say in ALLOWED why not"
    assert set(found) == set(ALLOWED), "an ALLOWED entry no longer writes: take it off the list"


def test_the_guards_own_write_is_only_reached_through_the_guard(package_scan):
    assert package_scan[1] == {"store/safefile.py:write_file"}


def test_the_scan_sees_each_kind_of_write(tmp_path):
    source = tmp_path / "pkg"
    source.mkdir()
    (source / "m.py").write_text(
        "import os, tempfile\nfrom pathlib import Path\n"
        "def a(p):\n    open(p, 'w').write('x')\n"
        "def b(p):\n    Path(p).write_text('x')\n"
        "def c(p):\n    fd, t = tempfile.mkstemp()\n    os.replace(t, p)\n"
        "def d(p):\n    os.open(p, os.O_WRONLY | os.O_CREAT)\n"
        "def e(p):\n    with Path(p).open('ab') as fh: pass\n"
        "def f(p):\n    return open(p).read() + Path(p).read_text()\n"
        "def g(p):\n    os.open(p, os.O_RDONLY)\n", encoding="utf-8")
    assert sorted(writing_functions(source)) == ["m.py:a", "m.py:b", "m.py:c", "m.py:d", "m.py:e"]


def test_exporting_a_brain_over_the_live_database_is_refused(tmp_path):
    with Store.open(tmp_path / "data") as store:
        store.save_brain("default", Hats(10), 5)
        with pytest.raises(StoreError, match="sticks-tui's own database"):
            store.export_brain("default", store.path)
        with pytest.raises(StoreError, match="SQLite database"):
            sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.commit()
            store.export_brain("default", tmp_path / "other.db")
        notes = tmp_path / "notes.json"
        notes.write_text('{"mine": 1}', encoding="utf-8")
        with pytest.raises(StoreError, match="not an earlier brain file"):
            store.export_brain("default", notes)
        assert store.brain_info("default").games_trained == 5  # the database is whole
        assert json.loads(notes.read_text(encoding="utf-8")) == {"mine": 1}
        assert store.export_brain("default", tmp_path / "b.json") == "default"
        assert store.export_brain("default", tmp_path / "b.json") == "default"  # an earlier brain file is replaced
        assert store.export_brain("default", notes, force=True) == "default"
        assert json.loads(notes.read_text(encoding="utf-8"))["name"] == "default"
