"""Layers without circles (issue 8): every import in sticks_tui goes down the layers, never up or round.

Bottom to top: rules -> solvers -> players and learners -> store -> top (commands, ui, web, cli, ...).
An AST walk reads every import of every module, at any depth (inside functions too), so a lazy
import cannot hide an upward dependency or a circle.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

from parsed import parsed, walked
import sticks_tui
from sticks_tui.engine import registry

PACKAGE_DIR = Path(sticks_tui.__file__).parent
ROOT = "sticks_tui"

LAYERS = ("rules", "solvers", "players and learners", "store", "top")
#: Module (or package prefix) -> layer. The longest matching prefix wins; anything else is `top`.
ASSIGNED = {
    "sticks_tui": "rules",  # the package's own __init__: a version string, imports nothing
    "sticks_tui.engine": "rules",  # the whole folder: the rules, the protocol, the registry, the events
    "sticks_tui.vocabulary": "rules",
    "sticks_tui.solve": "solvers",
    "sticks_tui.play": "players and learners",  # the players (a perfect one asks a solver) and the driver
    "sticks_tui.learn": "players and learners",
    "sticks_tui.store": "store",
}
EXACT = {"sticks_tui"}  # these names assign only the module itself, not sub-modules


def layer_of(module: str) -> int:
    best = None
    for prefix, layer in ASSIGNED.items():
        if module == prefix or (prefix not in EXACT and module.startswith(prefix + ".")):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, layer)
    return LAYERS.index(best[1]) if best else LAYERS.index("top")


def module_name(path: Path, package_dir: Path = PACKAGE_DIR, root: str = ROOT) -> str:
    parts = list(path.relative_to(package_dir).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([root, *parts])


def all_modules(package_dir: Path = PACKAGE_DIR, root: str = ROOT) -> dict[str, Path]:
    return {module_name(p, package_dir, root): p for p in sorted(package_dir.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Every sticks_tui module `name` imports, anywhere in its source."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in walked(path):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join(here + ([base] if base else []))
            targets = []
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
        else:
            continue
        for target in targets:
            if target == ROOT or target.startswith(ROOT + "."):
                while target not in known and "." in target:  # `import a.b.c` of a name inside a module
                    target = target.rsplit(".", 1)[0]
                found.add(target)
    found.discard(name)
    return found


def import_graph(package_dir: Path = PACKAGE_DIR, root: str = ROOT) -> dict[str, set[str]]:
    modules = all_modules(package_dir, root)
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


@functools.cache
def package_graph() -> dict[str, set[str]]:
    """The package's own import graph, walked once per test process (read only)."""
    return import_graph()


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} ({LAYERS[layer_of(a)]}) imports {b} ({LAYERS[layer_of(b)]})"
                  for a, targets in graph.items() for b in targets if layer_of(b) > layer_of(a))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_is_read():
    graph = package_graph()
    assert {"sticks_tui.engine.rules", "sticks_tui.learn.trainer", "sticks_tui.cli"} <= set(graph)
    trainer = graph["sticks_tui.learn.trainer"]
    assert "sticks_tui.engine.registry" in trainer  # from sticks_tui.engine import registry: a module of a package
    assert "sticks_tui.learn.compiled" in trainer  # from sticks_tui.learn import compiled: the module itself


def test_no_module_imports_from_a_higher_layer():
    assert upward_imports(package_graph()) == []


def test_no_import_circles():
    assert cycles(package_graph()) == []


def test_the_layers_are_as_documented():
    assert layer_of("sticks_tui.engine.nim") < layer_of("sticks_tui.solve.nim") < layer_of("sticks_tui.learn.hats")
    assert layer_of("sticks_tui.play.players") == layer_of("sticks_tui.learn.trainer")
    # folders follow the layers: every module in engine/ is a rule (a new one too), none a player
    assert layer_of("sticks_tui.engine.anything_new") == layer_of("sticks_tui.engine.registry") == 0
    assert layer_of("sticks_tui.learn.trainer") < layer_of("sticks_tui.store.db") < layer_of("sticks_tui.cli")
    assert layer_of("sticks_tui.web.server") == layer_of("sticks_tui.something_new") == LAYERS.index("top")


# -- the checker itself can fail: a small package with an upward import and a circle ------------------

@pytest.fixture
def bad_package(tmp_path):
    pkg = tmp_path / "sticks_tui"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "solve").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "solve" / "__init__.py").write_text("")
    # rules reaching up to a solver, hidden inside a function
    (pkg / "engine" / "rules.py").write_text("def f():\n    from sticks_tui.solve.a import x\n")
    (pkg / "solve" / "a.py").write_text("from . import b\nx = 1\n")
    (pkg / "solve" / "b.py").write_text("import sticks_tui.solve.a\n")
    return pkg


def test_the_checker_finds_an_upward_import_and_a_circle(bad_package):
    graph = import_graph(bad_package, ROOT)
    assert upward_imports(graph) == ["sticks_tui.engine.rules (rules) imports sticks_tui.solve.a (solvers)"]
    assert cycles(graph) == [["sticks_tui.solve.a", "sticks_tui.solve.b"]]


# -- nothing above the rules asks which game it is (issue 17 item 1) ---------------------------------
#: Every module but the registry's is checked, the games' own too: a game's module registers its entry and
#: its rules class compares itself in its own `__eq__`, and no more. Tables (below) are allowed in engine/.
REGISTRY = "sticks_tui.engine.registry"
ENGINE = "sticks_tui.engine"
GAME_NAMES = registry.names()
RULES_CLASSES = tuple(registry.entry(name).rules_class.__name__ for name in GAME_NAMES)
#: Places not moved to the registry or the protocol yet, by module and function: each must go, never grow.
#: None is left (issue 17): the trainer asks the registry and the brains, the brain file reader the registry.
NOT_YET: set[str] = set()


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def _is_game_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in GAME_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_game_name(e) for e in node.elts)
    return False


def game_checks(package_dir: Path = PACKAGE_DIR, root: str = ROOT) -> list[str]:
    """Every `isinstance(..., <rules class>)` (or `type(...) is <rules class>`) outside an `__eq__`, and
    every comparison with a game's name, in any module but the registry: 'module:function: source'."""
    found = []
    for name, path in all_modules(package_dir, root).items():
        if name == REGISTRY:
            continue
        source = path.read_text()
        # every node with its innermost function (a function's own node is in it), in one walk
        stack: list[tuple[ast.AST, str | None]] = [(parsed(path), None)]
        while stack:
            node, fn = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                fn = node.name
            stack.extend((child, fn) for child in ast.iter_child_nodes(node))
            hit = False
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                    and len(node.args) == 2 and _names_in(node.args[1]) & set(RULES_CLASSES):
                hit = fn != "__eq__"
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(_is_game_name(side) for side in sides):
                    hit = True
                if any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops) \
                        and any(_names_in(side) & set(RULES_CLASSES) for side in sides):
                    hit = True
            if hit:
                where = f"{name}:{fn or '<module>'}"
                found.append(f"{where}: {ast.get_source_segment(source, node)}")
    return sorted(found)


@functools.cache
def package_game_checks() -> tuple[str, ...]:
    """`game_checks` of the package itself, walked once per test process."""
    return tuple(game_checks())


def test_nothing_outside_the_registry_asks_which_game_it_is():
    left = [f for f in package_game_checks() if f.split(": ", 1)[0] not in NOT_YET]
    assert left == []


def test_the_places_not_moved_yet_are_still_there():
    """NOT_YET only shrinks: a place fixed must leave the list."""
    places = {f.split(": ", 1)[0] for f in package_game_checks()}
    assert NOT_YET <= places, NOT_YET - places


def test_the_game_check_finds_a_rules_isinstance_and_a_game_name(tmp_path):
    pkg = tmp_path / "sticks_tui"
    (pkg / "store").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "__init__.py").write_text("")
    (pkg / "store" / "a.py").write_text(
        "from sticks_tui.engine.rules import SticksRules\n"
        "class R:\n"
        "    def __eq__(self, other):\n"
        "        return isinstance(other, SticksRules)\n"  # allowed: equality of rules
        "def f(brain, game):\n"
        "    if isinstance(brain.rules, (SticksRules, int)):\n"
        "        return 1\n"
        "    return game != 'nim' or game in ('sticks', 'x')\n")
    assert game_checks(pkg, ROOT) == [
        "sticks_tui.store.a:f: game != 'nim'",
        "sticks_tui.store.a:f: game in ('sticks', 'x')",
        "sticks_tui.store.a:f: isinstance(brain.rules, (SticksRules, int))",
    ]


# -- a game registers itself from its own module (issue 32 item 5) -----------------------------------

def test_the_registry_names_no_game_and_imports_no_game_module():
    """engine/registry.py holds the list of modules to load, the entry type and the look-ups: not one
    game's name, rules class or module import (each game's entry lives beside its rules)."""
    path = PACKAGE_DIR / "engine" / "registry.py"
    tree = parsed(path)
    imported = imports_of(registry.__name__, path, set(all_modules()))
    assert imported == {"sticks_tui.engine.protocol"}
    names = {n.value for n in walked(path) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert not names & set(GAME_NAMES)
    assert not _names_in(tree) & set(RULES_CLASSES)
    # the modules it loads are given as text, in the order the games are listed
    assert registry.GAME_MODULES == tuple(registry.entry(name).rules_class.__module__ for name in GAME_NAMES)


def test_each_game_registers_its_entry_from_its_own_module():
    for game in map(registry.entry, GAME_NAMES):
        module = game.rules_class.__module__
        registered = [kw.value.value for node in walked(all_modules()[module])
                      if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "GameEntry"
                      for kw in node.keywords if kw.arg == "name" and isinstance(kw.value, ast.Constant)]
        assert registered == [game.name], module


def test_a_game_registered_from_elsewhere_is_listed_after_the_modules_games():
    class Toy:
        pass

    entry = registry.GameEntry(name="toy", title="a toy", choice="Toy", brain_words="a toy brain", rules_class=Toy,
                               make_rules=Toy, layout=lambda rules: {}, from_layout=lambda layout: Toy())
    # what the store and the learner ask of a game has a default a new game keeps (issue 31 item 5)
    assert (entry.learner_name, entry.v1_settings, entry.max_hats, entry.curve_scope_words(20)) == ("", {}, None, None)
    before = registry.names()
    registry.register(entry)
    try:
        assert registry.names() == (*before, "toy") and registry.entry("toy") is entry
    finally:
        registry.unregister("toy")
    assert registry.names() == before


# -- no table of the games outside engine/ (issue 32 item 5): the lab, the CLI and the UI ask the registry --
#: Tables not moved to the registry yet, as 'module: owner' (the name it is assigned to, or its function): each
#: must go, never grow.
#: (learn/lab.py's moved to each game's entry: `lab_rules`, `lab_size`, `lab_size_words`, issue 31.)
TABLES_NOT_YET: set[str] = set()


def game_tables(package_dir: Path = PACKAGE_DIR, root: str = ROOT, games=GAME_NAMES) -> list[str]:
    """Every dict keyed by a game's name, and every tuple, list or set made of two or more games' names and
    nothing else (a list of the games of its own), outside engine/: 'module: where', where is the name the
    table is assigned to at the top level, or the function it sits in."""
    found = []
    for name, path in all_modules(package_dir, root).items():
        if name == ENGINE or name.startswith(ENGINE + "."):
            continue
        for top in parsed(path).body:
            label = None
            if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                label = top.name
            elif isinstance(top, (ast.Assign, ast.AnnAssign)):
                targets = top.targets if isinstance(top, ast.Assign) else [top.target]
                label = ", ".join(t.id for t in targets if isinstance(t, ast.Name)) or None
            for node in ast.walk(top):  # every node of the module sits under one top-level statement
                if isinstance(node, ast.Dict):
                    hit = any(isinstance(k, ast.Constant) and k.value in games for k in node.keys)
                elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
                    hit = len(node.elts) >= 2 and all(isinstance(e, ast.Constant) and e.value in games
                                                      for e in node.elts)
                else:
                    continue
                if hit:
                    found.append(f"{name}: {label or '<module>'}")
    return sorted(set(found))


@functools.cache
def package_game_tables() -> tuple[str, ...]:
    """`game_tables` of the package itself, walked once per test process."""
    return tuple(game_tables())


def test_no_table_keyed_by_a_games_name_outside_the_engine():
    assert [t for t in package_game_tables() if t not in TABLES_NOT_YET] == []


def test_the_tables_not_moved_yet_are_still_there():
    """TABLES_NOT_YET only shrinks: a table moved must leave the list."""
    assert TABLES_NOT_YET <= set(package_game_tables()), TABLES_NOT_YET - set(package_game_tables())


def test_the_table_check_finds_a_dict_keyed_by_a_game_and_a_list_of_games(tmp_path):
    pkg = tmp_path / "sticks_tui"
    (pkg / "ui").mkdir(parents=True)
    (pkg / "engine").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "ui" / "__init__.py").write_text("")
    (pkg / "engine" / "__init__.py").write_text("")
    (pkg / "engine" / "beans.py").write_text("SIZES = {'beans': 3}\n")  # a game's own module: allowed
    (pkg / "ui" / "a.py").write_text(
        "MODULES = ['train', 'beans', 'peas']\n"  # not only games' names: allowed
        "ORDER = ('beans', 'peas')\n"
        "def words(game):\n"
        "    return {'beans': 'a bean', 'x': 1}.get(game)\n")
    assert game_tables(pkg, ROOT, ("beans", "peas")) == ["sticks_tui.ui.a: ORDER", "sticks_tui.ui.a: words"]


# -- the learner and the store know no game (issue 31 item 5) -------------------------------------------------
#: A game's own modules: its rules (the registry's `GAME_MODULES`) and its own solver.
def game_modules(known: set[str]) -> set[str]:
    from sticks_tui.engine.registry import GAME_MODULES

    solvers = {m for m in known if m.startswith("sticks_tui.solve.") and m != "sticks_tui.solve.generic"}
    return set(GAME_MODULES) | solvers


#: Modules of learn/ and store/ that still import a game's own module, as 'module: game module': each must go,
#: never grow.
GAME_IMPORTS_NOT_YET: set[str] = set()
# (none left, issue 31 item 5: MENACE's module asks the registry for the game its learner plays
# (`learner_game`); the sticks hats table asks `solve.hat_analysis` and the curve's words the game's entry
# (`curve_scope`); what a brain file may hold is each game's `file_rules`, and a brain's most hats its
# entry's `max_hats`)


def learner_and_store_game_imports(package_dir: Path = PACKAGE_DIR, root: str = ROOT, games=None) -> set[str]:
    modules = all_modules(package_dir, root)
    known = set(modules)
    games = game_modules(known) if games is None else games
    found = set()
    for name, path in modules.items():
        if name.startswith((f"{root}.learn", f"{root}.store")):
            found |= {f"{name}: {target}" for target in imports_of(name, path, known) & games}
    return found


@functools.cache
def package_game_imports() -> frozenset[str]:
    """`learner_and_store_game_imports` of the package itself, walked once per test process."""
    return frozenset(learner_and_store_game_imports())


def test_the_learner_and_the_store_import_no_games_module():
    """The trainer, the one counts learner, the compiled loop, the tables, the lab and the store take a game's
    rules object and ask it (and the registry) what they need: no `SticksRules` for a shortcut, no Nim brain
    of its own, no table of games."""
    assert sorted(package_game_imports() - GAME_IMPORTS_NOT_YET) == []


def test_the_game_imports_not_moved_yet_are_still_there():
    """GAME_IMPORTS_NOT_YET only shrinks: an import removed must leave the list."""
    assert GAME_IMPORTS_NOT_YET <= package_game_imports(), GAME_IMPORTS_NOT_YET - package_game_imports()


def test_the_import_check_finds_a_rules_class_imported_in_the_learner(tmp_path):
    pkg = tmp_path / "sticks_tui"
    for folder in ("engine", "learn", "store"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "registry.py").write_text("")
    (pkg / "engine" / "beans.py").write_text("class BeansRules: pass\n")
    (pkg / "learn" / "trainer.py").write_text("def rules(n):\n    from sticks_tui.engine.beans import BeansRules\n"
                                               "    return BeansRules()\n")  # a lazy import is found too
    (pkg / "store" / "brains.py").write_text("from sticks_tui.engine import registry\n")  # the registry: allowed
    assert learner_and_store_game_imports(pkg, ROOT, {"sticks_tui.engine.beans"}) == \
        {"sticks_tui.learn.trainer: sticks_tui.engine.beans"}


# -- no game's name in the learner or the store (issue 31 item 5): a default is the registry's first game --
#: Places that still name a game, as 'module: the name', each with its reason; the list only shrinks.
GAME_NAMES_NOT_YET: set[str] = set()
# (none left: the version-1 settings migration reads each game's old keys from its entry, `v1_settings`)


def game_names_in_core(package_dir: Path = PACKAGE_DIR, root: str = ROOT, games=GAME_NAMES) -> set[str]:
    """Every string constant equal to a game's name in learn/ and store/, docstrings aside: 'module: name'."""
    found = set()
    for name, path in all_modules(package_dir, root).items():
        if not name.startswith((f"{root}.learn", f"{root}.store")):
            continue
        nodes = walked(path)
        docstrings = {id(node.body[0].value) for node in nodes
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        found |= {f"{name}: {node.value!r}" for node in nodes
                  if isinstance(node, ast.Constant) and node.value in games and id(node) not in docstrings}
    return found


@functools.cache
def package_core_game_names() -> frozenset[str]:
    return frozenset(game_names_in_core())


def test_the_learner_and_the_store_name_no_game():
    """A default game (a record, a brain, a lab without one) is `registry.first_name()`, not 'sticks'."""
    assert sorted(package_core_game_names() - GAME_NAMES_NOT_YET) == []
    assert GAME_NAMES_NOT_YET <= package_core_game_names(), GAME_NAMES_NOT_YET - package_core_game_names()


def test_the_name_check_finds_a_default_game_but_not_a_docstring(tmp_path):
    pkg = tmp_path / "sticks_tui"
    (pkg / "store").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "__init__.py").write_text("")
    (pkg / "store" / "records.py").write_text('"""Records of sticks games."""\n'
                                              'def keep(game="beans"):\n    """Keep a beans game."""\n')
    assert game_names_in_core(pkg, ROOT, {"beans", "sticks"}) == {"sticks_tui.store.records: 'beans'"}


# -- no attribute of one game's rules read in the learner or the store (issue 31 item 5) -----------------------
def one_game_attributes(entries=None) -> dict[str, str]:
    """Attribute name -> game, for the names only one game's rules define (its class or an instance of its
    default rules), the protocol's own (`GameRules`, its optional hooks) aside: sticks' `max_take` and `size`,
    Nim's `box`. The learner and the store may not read them off a rules object: they ask the protocol or the
    game's entry (`GameEntry.move_columns`, `columns_of`, `curve_size`, ...)."""
    from sticks_tui.engine.protocol import GameRules

    entries = [e for e in registry.entries() if e.rules_class.__module__ in registry.GAME_MODULES] \
        if entries is None else entries
    shared = set(dir(GameRules)) | {"symmetries", "mover", "move_number"}
    owners: dict[str, set[str]] = {}
    for entry in entries:
        names = {n for n in dir(entry.rules_class)} | set(vars(entry.make_rules()))
        for attr in names - shared:
            if not attr.startswith("_"):
                owners.setdefault(attr, set()).add(entry.name)
    return {attr: next(iter(games)) for attr, games in owners.items() if len(games) == 1}


def _reads_a_rules_object(node: ast.expr) -> bool:
    """`rules`, `x_rules`, `x.rules`: an expression that names a rules object."""
    if isinstance(node, ast.Name):
        return node.id == "rules" or node.id.endswith("_rules")
    return isinstance(node, ast.Attribute) and (node.attr == "rules" or node.attr.endswith("_rules"))


def one_game_attribute_reads(package_dir: Path = PACKAGE_DIR, root: str = ROOT, attributes=None) -> set[str]:
    """Every read in learn/ and store/ of an attribute only one game's rules define: `getattr(x, 'max_take')`
    or `hasattr(x, 'box')` on anything, `rules.size` / `self.rules.box` on a rules object: 'module: attr'."""
    attributes = one_game_attributes() if attributes is None else attributes
    found = set()
    for name, path in all_modules(package_dir, root).items():
        if not name.startswith((f"{root}.learn", f"{root}.store")):
            continue
        for node in walked(path):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                    and node.args[1].value in attributes):
                found.add(f"{name}: {node.args[1].value}")
            elif isinstance(node, ast.Attribute) and node.attr in attributes and _reads_a_rules_object(node.value):
                found.add(f"{name}: {node.attr}")
    return found


#: Reads of one game's rules' attribute left in learn/ and store/, as 'module: attr'; the list only shrinks.
ONE_GAME_ATTRIBUTES_NOT_YET: set[str] = set()


@functools.cache
def package_one_game_attribute_reads() -> frozenset[str]:
    return frozenset(one_game_attribute_reads())


def test_the_learner_and_the_store_read_no_attribute_of_one_games_rules():
    """A brain's columns are its entry's `move_columns`, not `getattr(rules, 'max_take')`; the lab's sizes are
    its entry's, not `rules.size`."""
    assert sorted(package_one_game_attribute_reads() - ONE_GAME_ATTRIBUTES_NOT_YET) == []
    assert ONE_GAME_ATTRIBUTES_NOT_YET <= package_one_game_attribute_reads()


def test_the_one_game_attributes_are_sticks_and_nims_own():
    attributes = one_game_attributes()
    assert {attr: attributes.get(attr) for attr in ("max_take", "size", "box", "legal_moves", "symmetries")} == \
        {"max_take": "sticks", "size": "sticks", "box": "nim", "legal_moves": None, "symmetries": None}


def test_the_attribute_check_finds_a_getattr_and_a_rules_read_but_not_an_arrays(tmp_path):
    pkg = tmp_path / "sticks_tui"
    (pkg / "learn").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "learn" / "__init__.py").write_text("")
    (pkg / "learn" / "hats.py").write_text(
        "def width(rules, n_moves, brain):\n"
        "    a = getattr(rules, 'max_take', 0)\n"  # found: a sticks attribute by its name
        "    b = brain.rules.box\n"  # found: Nim's piles off a rules object
        "    return a, b, n_moves.size, brain.size, rules.legal_moves(1)\n")  # an array's, a brain's, the protocol's
    assert one_game_attribute_reads(pkg, ROOT, {"max_take": "sticks", "size": "sticks", "box": "nim"}) == \
        {"sticks_tui.learn.hats: max_take", "sticks_tui.learn.hats: box"}
