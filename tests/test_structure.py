"""The package's structure: no import cycle, and a cache key that covers the write path."""

from __future__ import annotations

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
