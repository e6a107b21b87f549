"""The package's structure: no import cycle, and a cache key that covers the write path."""

from __future__ import annotations

import ast
import subprocess
import sys
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


#: What reaches a Chroma client or collection directly; only ``stores/`` may.
_RAW_CHROMA = {"client", "get_collection", "get_or_create_collection", "create_collection"}
_ADAPTERS = ("adapters_common", "langchain", "llama_index", "langgraph")


def test_the_adapters_reach_chroma_only_through_the_store() -> None:
    """No adapter opens a Chroma collection or client itself, nor wraps one in the guard: they
    ask the store (``ChromaEpisodicStore.side_collection``, ``beside``), so every collection
    they use has its errors translated and its writes locked as the memories' are."""
    found = []
    for folder in _ADAPTERS:
        for path in (importgraph.ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                name = (
                    node.attr
                    if isinstance(node, ast.Attribute)
                    else node.func.id
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    else None
                )
                if name in _RAW_CHROMA or (
                    name in ("Guarded", "GuardedCollection") and isinstance(node, ast.Call)
                ):
                    found.append(f"{path.relative_to(importgraph.ROOT)}:{node.lineno} {name}")
    assert found == []


def test_the_adapters_share_one_framework_free_home() -> None:
    """``adapters_common`` loads no framework and imports no adapter: each adapter builds on
    it, never the reverse."""
    package = "ramem_integrations."
    common = sorted(m for m in importgraph.graph() if m.startswith(package + "adapters_common."))
    assert {package + f"adapters_common.{m}" for m in ("hits", "asked", "opening")} <= set(common)
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in common)
        + "print(sorted({m.split('.')[0] for m in sys.modules} & "
        + "{'langchain_core', 'llama_index', 'langgraph'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
