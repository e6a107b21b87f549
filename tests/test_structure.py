"""The package's structure: no import cycle, and a cache key that covers the write path."""

from __future__ import annotations

from pathlib import Path

from ramem_integrations.evaluation.runner import WRITE_PATH
from tests import importgraph

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


def _module(path: str) -> str:
    return "ramem_integrations." + path.removesuffix(".py").replace("/", ".")


def test_cache_key_hashes_every_module_on_the_write_path() -> None:
    """Everything the anchorer and the loaders import decides what is stored: all of it must
    be in the cache key's list, or a changed rule would reuse a stale evaluation store."""
    listed = {_module(p) for p in WRITE_PATH}
    roots = ["ramem_integrations.core.anchoring", "ramem_integrations.core.conversation"]
    needed = importgraph.reachable(roots, importgraph.graph())
    packages = {m for m in needed if (importgraph.ROOT.parent / m.replace(".", "/")).is_dir()}
    assert needed - packages <= listed
    for path in WRITE_PATH:
        assert (importgraph.ROOT / Path(path)).is_file(), path
