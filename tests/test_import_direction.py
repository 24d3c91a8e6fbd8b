"""The library's imports point one way, and no module imports itself back through others.

    cli -> stages -> (quality, research) -> store -> (autocat, text, reading) -> settings
    cli -> stages -> harvest (which touches nothing else of the package)
    review (the operators' page, loaded by an Airflow plugin) -> research, store

Every ``import`` counts, also one inside a function (that only delays it). A sub-package may import
its own modules and those of the layers below it; ``text``, ``reading`` and ``autocat`` never touch
the database (``store``); nothing imports ``cli``. SQL statements stand only in ``store`` and in
research's own ``research.store``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "include" / "warc2corpus"

# What each part may import besides itself (the package's own top: settings, records, __init__).
ALLOWED = {
    "cli": {"stages", "quality", "research", "store", "autocat", "text", "reading", "harvest"},
    "stages": {"quality", "research", "store", "autocat", "text", "reading", "harvest"},
    "harvest": set(),
    "quality": {"store", "autocat", "text", "reading"},
    "review": {"research", "store", "autocat", "text", "reading"},
    "research": {"store", "autocat", "text", "reading"},
    "store": {"autocat", "text", "reading"},
    "autocat": {"text", "reading"},
    "text": {"reading"},
    "reading": set(),
    "top": set(),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and (PACKAGE / parts[1]).is_dir() else "top"


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules this file imports (``from a import b`` counts as a.b when that is a module)."""
    found = set()
    this = module_name(path)
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in modules:  # warc2corpus.store.db.connect -> warc2corpus.store.db
                name = name.rpartition(".")[0]
            if name and name != this:
                found.add(name)
    return found


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: imports_of(path, set(files)) for name, path in files.items()}


GRAPH = import_graph()


def test_the_graph_holds_imports_of_every_form():
    """Module-level and function-level imports, ``from package import module`` and ``from module
    import name``: each is an edge (else the checks below would pass on an empty graph)."""
    edges = GRAPH["warc2corpus.stages.per_file"]
    assert {"warc2corpus.store.db",            # from warc2corpus.store import db (module level)
            "warc2corpus.store.staging",       # from warc2corpus.store.staging import Staging
            "warc2corpus.store.load"} <= edges  # inside a function, with "as"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_one_way(module):
    part = part_of(module)
    wrong = sorted(m for m in GRAPH[module] if part_of(m) not in ALLOWED[part] | {part, "top"})
    assert not wrong, f"{module} ({part}) imports {wrong}, against the direction {part} -> {sorted(ALLOWED[part])}"


def test_no_import_cycles():
    """No module reaches itself through the modules it imports (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in GRAPH[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert not cycles, f"import cycles: {cycles}"


# An SQL statement in a string: what the store modules hold and nothing else does.
SQL_STATEMENT = re.compile(r"\b(?:SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
                           r"CREATE\s+(?:TABLE|INDEX)|ALTER\s+TABLE|pg_advisory)", re.DOTALL)
SQL_MODULES = ("warc2corpus.store", "warc2corpus.research.store")  # the corpus's store, research's queries


def test_only_the_store_speaks_sql():
    """SQL lives in ``store`` (and research's own ``research.store``); the other modules call them."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        if module.startswith(SQL_MODULES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_STATEMENT.search(node.value):
                found.append(f"{module}:{node.lineno}")
    assert not found, f"SQL outside the store: {found}"


def test_the_sql_check_sees_sql():
    assert SQL_STATEMENT.search("SELECT id, name\n FROM api_tokens WHERE id = %s")
    assert SQL_STATEMENT.search("UPDATE api_tokens SET revoked_at = now()")
    assert not SQL_STATEMENT.search("Select the pages from the WARC and update the ledger")
