"""The package's own import graph, read from the source with ``ast`` (nothing is imported).

Imports under ``if TYPE_CHECKING:`` are left out (they never run); imports inside functions
count, since they are dependencies all the same.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "ramem_integrations"
ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node: ast.AST, here: str, known: Iterable[str]) -> set[str]:
    names: set[str] = set()
    package = (
        here
        if (ROOT / Path(*here.split(".")[1:]) / "__init__.py").exists()
        else here.rpartition(".")[0]
    )
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking(child):
            names |= (
                set().union(*(_imported(n, here, known) for n in child.orelse))
                if child.orelse
                else set()
            )
            continue
        if isinstance(child, ast.Import):
            names.update(a.name for a in child.names)
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (child.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{a.name}" for a in child.names)
        names |= _imported(child, here, known)
    return names


def graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports."""
    known = modules()
    out: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out[name] = {m for m in _imported(tree, name, known) if m in known and m != name}
    return out


def reachable(roots: Iterable[str], edges: dict[str, set[str]]) -> set[str]:
    """The modules ``roots`` import, directly or not, roots included."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(edges.get(current, ()))
    return seen


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                group.append(item)
                if item == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)
