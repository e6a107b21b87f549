"""The package's structure: no import cycle, and a cache key that covers the write path."""

from __future__ import annotations

import ast
from pathlib import Path

from ramem_integrations.evaluation import importgraph
from ramem_integrations.evaluation.runner import write_path

#: Cycles still present, each fixed on its own branch: answering <-> memory is cut by moving
#: the request checks to their own module (issue 13). Once that is merged this list is empty,
#: and the test then fails on any new cycle.
KNOWN_CYCLES: list[list[str]] = []


def test_no_import_cycle() -> None:
    assert importgraph.cycles(importgraph.graph()) == KNOWN_CYCLES


def test_the_cycle_finder_finds_cycles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert importgraph.cycles(edges) == [["a", "b", "c"]]
    assert importgraph.cycles({"a": {"b"}, "b": set()}) == []


def test_cache_key_hashes_every_module_on_the_write_path() -> None:
    """The cache key reads the write path off the import graph: the writer, the loaders and
    all they import (anchoring, segmentation, embedding, the store), not the read path's own
    modules."""
    files = {str(p.relative_to(importgraph.ROOT)) for p in write_path()}
    for path in (
        "memory/writing.py",
        "core/conversation.py",
        "core/anchoring.py",
        "core/segmentation.py",
        "core/time/grounding.py",
        "memory/embedding.py",
        "models/embeddings.py",
        "stores/chroma.py",
        "memory/regrouping.py",
    ):
        assert path in files, path
    for path in ("memory/source.py", "memory/answering.py", "memory/ramem.py", "app/cli.py"):
        assert path not in files, path


def _private_attributes(path: Path) -> set[str]:
    """The names a class in ``path`` assigns as ``self._name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    }


def test_tests_reach_ramems_parts_only_through_the_testing_seam() -> None:
    """RaMem's private parts (the cache, the source, the writer, ...) are reached from tests
    only through ``ramem_integrations.testing.parts``, never by their private names."""
    private = _private_attributes(importgraph.ROOT / "memory" / "ramem.py")
    assert {"_cache", "_source", "_writer", "_freshness"} <= private
    tests = Path(__file__).resolve().parent
    reached = sorted(
        f"{path.relative_to(tests)}:{node.lineno} .{node.attr}"
        for path in tests.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr in private
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    )
    assert reached == []
