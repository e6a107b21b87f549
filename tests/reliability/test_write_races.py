"""Two writers of one memory id at the same moment never lose a text silently: the second
writer's text is refused with a ``MemoryConflictError`` (or both are kept), whether the writers
are threads, processes on a Chroma server, or two exchanges a ``RaMemMemory`` saves in the same
instant (those are two memories)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.errors import WriteConflictError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder, parts
from tests.reliability.test_concurrency import chroma_server  # noqa: F401  (fixture)
from tests.reliability.write_races import (
    exchange_rounds,
    process_rounds,
    thread_rounds,
    unit,
    write,
)

pytestmark = pytest.mark.reliability

ROUNDS = 20


@pytest.mark.parametrize("objects", ["one RaMem", "two RaMem on one path"])
def test_threads_writing_one_id(tmp_path: Path, objects: str) -> None:
    first = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    second = (
        first
        if objects == "one RaMem"
        else RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    )
    tally = thread_rounds((first, second), ROUNDS)
    print(tally)
    assert tally.lost_silently == tally.torn == 0 and tally.rounds == ROUNDS, tally
    # every round kept exactly one text, once
    assert sorted(first.store.ids("race")) == sorted(f"t{n}" for n in range(ROUNDS))


def test_exchanges_saved_in_one_instant_are_two_memories(tmp_path: Path) -> None:
    pytest.importorskip("langchain_core")
    mem = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    tally = exchange_rounds(mem, 10)
    print(tally)
    assert tally.both_stored == tally.rounds == 10 and tally.torn == 0, tally


def test_processes_on_a_chroma_server_writing_one_id(chroma_server: str) -> None:  # noqa: F811
    tally = process_rounds(chroma_server, ROUNDS)
    print(tally)
    assert tally.lost_silently == tally.torn == 0 and tally.rounds == ROUNDS, tally


def test_a_write_that_lost_the_race_names_the_memories_and_keeps_theirs(tmp_path: Path) -> None:
    """The race decided by hand: a writer that checked before another's write landed finds
    the id taken when it writes. It raises, names the id, and the other's text stays."""
    mem = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    other = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    writer = parts(mem).writer
    checked = writer._changed

    def check_then_lose(namespace: str, units: list, replace: bool, *edits: Any) -> tuple:  # type: ignore[type-arg]
        found = checked(namespace, units, replace, *edits)
        write(other, unit("x", "Theirs: the dentist is on Monday."))  # lands in between
        return found

    writer._changed = check_then_lose  # type: ignore[method-assign]
    with pytest.raises(WriteConflictError, match="'x'") as caught:
        mem.add_memories([unit("x", "Mine: the dentist is on Friday."), unit("y", "Other words.")])
    assert caught.value.ids == ["x"]
    assert {u.id: u.content for u in other.memories("race")} == {
        "x": "Theirs: the dentist is on Monday.",
        "y": "Other words.",  # the rest of the write is stored
    }
    assert {u.id: u.content for u in mem.memories("race")}["x"].startswith("Theirs")


def test_an_id_free_in_one_namespace_is_still_updated_in_another(tmp_path: Path) -> None:
    """Whether an id was free is a fact of one namespace: in one call, the id is inserted
    where it is new and its stored memory updated (same words, new coordinates) where not."""
    mem = RaMem.from_path(tmp_path / "s", embedder=HashingEmbedder())
    mem.add_memories([unit("x", "Ann moved to Lyon.", "b")])
    moved = replace(unit("x", "Ann moved to Lyon.", "b"), source_ids=("x", "x2"))
    mem.add_memories([unit("x", "Ann moved to Lyon.", "a"), moved])
    assert mem.memories("a") == [unit("x", "Ann moved to Lyon.", "a")]
    assert mem.memories("b") == [moved]
