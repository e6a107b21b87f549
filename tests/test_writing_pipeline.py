"""The write path's pipeline: each batch's upsert overlaps the next batch's embedding.

Real Chroma, the hashing embedder, small batches (writing.EMBED_BATCH = 7) so that one
conversation makes many batches. A failure in the writing thread or in the embedder raises
its own error in the caller; the store then holds whole batches only, the caches and the
progress count agree with it, and re-running completes the store without duplicates.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ramem_integrations.core.conversation import Conversation
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import EmbeddingError, StoreError
from ramem_integrations.memory import writing
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder, parts
from tests.reliability.helpers import synthetic_conversation

BATCH = 7


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writing, "EMBED_BATCH", BATCH)


def overlapped(path: Path, **options: Any) -> RaMem:
    """The pipeline as it runs against a Chroma server: upserts in the background thread."""
    mem = RaMem.from_path(path, **options)
    parts(mem).writer.overlap_writes = True
    return mem


@pytest.fixture
def conversation():  # type: ignore[no-untyped-def]
    return synthetic_conversation("c", 4, 10, seed=1)  # 40 turns: 6 batches


class FailingEmbedder(HashingEmbedder):
    """The hashing embedder, failing on its ``fail_on``-th call."""

    def __init__(self, fail_on: int) -> None:
        self.calls, self.fail_on = 0, fail_on

    def embed(self, texts: Sequence[str]) -> Any:
        self.calls += 1
        if self.calls == self.fail_on:
            raise EmbeddingError("the embedding service is down")
        return super().embed(texts)


def fail_insert_on(mem: RaMem, call: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the store's ``call``-th insert (a write of new memories) raise; returns the sizes
    of the inserts made."""
    real: Callable[..., list[MemoryUnit]] = mem.store.insert
    sizes: list[int] = []

    def insert(memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> list[MemoryUnit]:
        if len(sizes) + 1 == call:
            sizes.append(0)
            raise StoreError("Chroma refused the write: disk full")
        sizes.append(len(memories))
        return real(memories, embeddings)

    monkeypatch.setattr(mem.store, "insert", insert)
    return sizes


def test_every_batch_is_stored_once_with_its_own_vectors(tmp_path, conversation) -> None:  # type: ignore[no-untyped-def]
    mem = overlapped(tmp_path, embedder=HashingEmbedder())
    seen: list[tuple[list[str], np.ndarray]] = []
    added = parts(mem).cache.added

    def spy(namespace: str, batch: list[MemoryUnit], vectors: Any = None) -> None:
        seen.append(([u.id for u in batch], np.asarray(vectors)))
        added(namespace, batch, vectors)

    parts(mem).cache.added = spy  # type: ignore[method-assign]
    counts: list[int] = []
    ids = mem.add_conversation(conversation, "ann", progress=counts.append)
    assert counts == [0, 7, 7, 7, 7, 7, 5]  # nothing stored before, then batch by batch
    assert [len(i) for i, _ in seen] == [7, 7, 7, 7, 7, 5]
    assert [i for batch, _ in seen for i in batch] == ids
    units, stored = mem.store.get_with_vectors("ann")
    by_id = dict(zip([u.id for u in units], stored, strict=True))
    for batch, vectors in seen:
        written = [next(u for u in units if u.id == i) for i in batch]
        assert np.array_equal(vectors, memory_vectors(HashingEmbedder(), written))
        assert np.allclose(np.stack([by_id[i] for i in batch]), vectors, atol=1e-6)
    assert mem.store.ids("ann") == ids  # stored in the order given


@pytest.mark.parametrize(
    ("batch", "sizes"),
    [(40, [35, 5]), (16, [16, 16, 7, 1]), (7, [7, 7, 7, 7, 7, 5])],
)
def test_the_last_write_is_the_end_of_the_last_batch(
    tmp_path, conversation, monkeypatch: pytest.MonkeyPatch, batch: int, sizes: list[int]
) -> None:  # type: ignore[no-untyped-def]
    # No embedding overlaps the last upsert, so the last batch's end is written alone.
    monkeypatch.setattr(writing, "EMBED_BATCH", batch)
    mem = overlapped(tmp_path, embedder=HashingEmbedder())
    written = fail_insert_on(mem, 0, monkeypatch)  # the 0th call never comes: a spy
    ids = mem.add_conversation(conversation, "ann")
    assert written == sizes
    assert mem.store.ids("ann") == ids and len(ids) == 40


@pytest.mark.parametrize("failing", [1, 3, 6])
def test_a_failed_write_raises_its_error_and_leaves_whole_batches(
    tmp_path, conversation, monkeypatch: pytest.MonkeyPatch, failing: int
) -> None:  # type: ignore[no-untyped-def]
    mem = overlapped(tmp_path, embedder=HashingEmbedder())
    parts(mem).cache.index("ann")  # loaded (empty): kept current by each batch written
    sizes = fail_insert_on(mem, failing, monkeypatch)
    counts: list[int] = []
    with pytest.raises(StoreError, match=r"^Chroma refused the write: disk full$"):
        mem.add_conversation(conversation, "ann", progress=counts.append)
    assert sizes == [BATCH] * (failing - 1) + [0]  # no write after the failed one
    stored = mem.store.ids("ann")
    assert len(stored) == sum(sizes) == sum(counts)
    # the failed batch's part stored is unknown: the cache is dropped, and loads what is
    assert set(parts(mem).cache.memories("ann")) == set(stored)
    monkeypatch.undo()
    monkeypatch.setattr(writing, "EMBED_BATCH", BATCH)
    again: list[int] = []
    ids = mem.add_conversation(conversation, "ann", progress=again.append)
    assert again[0] == len(stored) and sum(again) == 40
    assert sorted(mem.store.ids("ann")) == sorted(ids) and len(ids) == 40


@pytest.mark.parametrize("failing", [1, 2, 6])
def test_a_failed_embedding_raises_its_error_after_the_write_in_flight(
    tmp_path, conversation, failing: int
) -> None:  # type: ignore[no-untyped-def]
    mem = overlapped(tmp_path, embedder=FailingEmbedder(failing))
    parts(mem).cache.index("ann")  # loaded (empty): kept current by each batch written
    counts: list[int] = []
    with pytest.raises(EmbeddingError, match=r"^the embedding service is down$"):
        mem.add_conversation(conversation, "ann", progress=counts.append)
    stored = mem.store.ids("ann")
    assert len(stored) == BATCH * (failing - 1) == sum(counts)
    # the failed batch's part stored is unknown: the cache is dropped, and loads what is
    assert set(parts(mem).cache.memories("ann")) == set(stored)
    ids = mem.add_conversation(conversation, "ann")
    assert sorted(mem.store.ids("ann")) == sorted(ids) and len(ids) == 40


def test_many_conversations_store_the_vectors_one_would_alone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The first conversation is embedded while the others are anchored: its vectors must be
    # the ones the write path makes, and every memory is stored once.
    conversations = [synthetic_conversation(f"c{i}", 2, 5, seed=i) for i in range(3)]
    mem = overlapped(tmp_path, embedder=HashingEmbedder())
    counts = mem.add_conversations(conversations)
    assert counts == {"c0": 10, "c1": 10, "c2": 10}
    for name in counts:
        units, stored = mem.store.get_with_vectors(name)
        assert len({u.id for u in units}) == 10
        assert np.allclose(stored, memory_vectors(HashingEmbedder(), units), atol=1e-6)
    again = mem.add_conversations(conversations)  # nothing new: nothing embedded ahead either
    assert again == counts and sum(len(mem.memories(n)) for n in counts) == 30


def test_a_conflict_in_a_later_conversation_writes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace as changed

    from ramem_integrations.errors import MemoryConflictError

    first, second = (synthetic_conversation(f"c{i}", 2, 5, seed=i) for i in range(2))
    mem = overlapped(tmp_path, embedder=HashingEmbedder())
    mem.add_conversation(second, "c1")
    session = second.sessions[0]
    turn = changed(session.turns[0], text="Words the first ingestion never stored.")
    edited = changed(second, sessions=(changed(session, turns=(turn, *session.turns[1:])),))
    with pytest.raises(MemoryConflictError):
        mem.add_conversations([first, edited])
    assert mem.memories("c0", missing_ok=True) == []  # the first was embedded, never written


def test_an_anchoring_failure_in_a_later_conversation_writes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ramem_integrations.core.anchoring import RuleAnchorer
    from ramem_integrations.errors import LLMError

    class FailsOnSecond(RuleAnchorer):
        """The rule anchorer, failing on c1 (as an LLM anchorer whose model is down)."""

        def anchor(self, conversation, namespace):  # type: ignore[no-untyped-def]
            if conversation.id == "c1":
                raise LLMError("the anchoring model is down")
            return super().anchor(conversation, namespace)

    conversations = [synthetic_conversation(f"c{i}", 2, 5, seed=i) for i in range(3)]
    mem = overlapped(tmp_path, embedder=HashingEmbedder(), anchorer=FailsOnSecond())
    with pytest.raises(LLMError, match="model is down"):
        mem.add_conversations(conversations)
    assert mem.store.namespaces() == {}  # c0 was embedded while c1 failed; nothing was written
    assert mem.add_conversations(conversations[:1]) == {"c0": 10}


class RecordingEmbedder(HashingEmbedder):
    """The hashing embedder, keeping the texts of every call."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> Any:
        self.calls.append(list(texts))
        return super().embed(texts)


def test_a_new_conversation_is_embedded_as_said_while_it_is_anchored(  # type: ignore[no-untyped-def]
    tmp_path, conversation
) -> None:
    """The first call embeds the first batch of turns as said, before anchoring has made a
    speaker line; every turn's words are embedded once; a re-run embeds nothing."""
    embedder = RecordingEmbedder()
    mem = overlapped(tmp_path, embedder=embedder)
    mem.add_conversations([conversation])
    said = [turn.text for session in conversation.sessions for turn in session.turns]
    assert embedder.calls[0] == said[:BATCH]
    words = [text for call in embedder.calls for text in call if text in said]
    assert sorted(words) == sorted(said)
    stored = {u.id: u for u in mem.store.get("c")}
    vectors = parts(mem).cache.memories("c")
    assert len(stored) == len(said)
    embedder.calls.clear()
    mem.add_conversations([conversation])
    assert embedder.calls == []
    assert parts(mem).cache.memories("c").keys() == vectors.keys()


def test_messages_with_their_own_times_are_embedded_once_anchored(  # type: ignore[no-untyped-def]
    tmp_path, conversation
) -> None:
    """Timed messages may be grouped into one memory, so nothing is embedded before
    anchoring: every call holds speaker lines, and no message is embedded on its own twice."""
    timed = Conversation(
        conversation.id,
        tuple(
            replace(
                session,
                turns=tuple(
                    replace(turn, time=session.start + timedelta(minutes=index))
                    for index, turn in enumerate(session.turns)
                ),
            )
            for session in conversation.sessions
        ),
    )
    embedder = RecordingEmbedder()
    overlapped(tmp_path, embedder=embedder).add_conversations([timed])
    speakers = {turn.speaker for session in timed.sessions for turn in session.turns}
    assert all(
        any(text.startswith(tuple(speakers)) and len(text) < 40 for text in call)
        for call in embedder.calls
    )
    words = [text for call in embedder.calls for text in call if " (to " not in text]
    assert len(words) == len(set(words)) == 40


@pytest.mark.parametrize(
    ("overlap", "writer"), [(None, "caller"), (False, "caller"), (True, "ramem-write")]
)
def test_the_writers_own_setting_says_which_thread_writes(  # type: ignore[no-untyped-def]
    tmp_path, conversation, monkeypatch, overlap, writer
) -> None:
    """Embedded Chroma holds the GIL while it writes: by default (None) its batches are
    written in turn, from the caller's thread; a writer set to overlap (as for a Chroma
    server) writes them from its background thread, beside the next batch's embedding.
    The setting is the writer's own: another memory's writer keeps its default."""
    mem = RaMem.from_path(tmp_path / "one", embedder=HashingEmbedder())
    parts(mem).writer.overlap_writes = overlap
    assert (
        parts(RaMem.from_path(tmp_path / "two", embedder=HashingEmbedder())).writer.overlap_writes
        is None
    )
    threads: list[str] = []
    real = mem.store.insert

    def insert(memories: Sequence[MemoryUnit], embeddings: np.ndarray) -> list[MemoryUnit]:
        threads.append(threading.current_thread().name)
        return real(memories, embeddings)

    monkeypatch.setattr(mem.store, "insert", insert)
    mem.add_conversations([conversation])
    assert not mem.store.remote
    caller = threading.current_thread().name
    assert len(threads) > 2
    assert {"caller" if t == caller else t.rsplit("_", 1)[0] for t in threads} == {writer}
    assert mem.store.count("c") == 40
