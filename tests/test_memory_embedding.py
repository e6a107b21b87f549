"""A memory's vector: its words as said plus its speaker line (memory/embedding.py)."""

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from ramem_integrations import RaMem
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.memory.embedding import (
    SPEAKER_WEIGHT,
    memory_embeddings,
    memory_vectors,
    speaker_line,
)
from ramem_integrations.models.embeddings import MiniLMEmbedder
from ramem_integrations.testing import CountingEmbedder, HashingEmbedder

SPAN = TimeSpan(datetime(2023, 5, 8, 10, tzinfo=UTC), datetime(2023, 5, 8, 11, tzinfo=UTC))


def unit(uid: str, content: str, speaker: str | None, restatement: str | None) -> MemoryUnit:
    context = EpisodicContext("s1", SPAN, speaker=speaker)
    return MemoryUnit(uid, content, context, "alice", (uid,), "c1", restatement)


@pytest.mark.parametrize(
    ("speaker", "restatement", "line"),
    [
        ("Melanie", "Melanie (to Caroline): I painted a lake.", "Melanie (to Caroline)"),
        ("Melanie", "Melanie: I painted a lake.", "Melanie"),
        ("Melanie", None, "Melanie"),
        # a restatement written by a model has no rule head: the speaker's name serves
        ("Melanie", "Melanie said she painted a lake: her first.", "Melanie"),
        ("Melanie", "Bob (to Al): I painted a lake.", "Melanie"),
        ("Dr. Li (Oslo)", "Dr. Li (Oslo) (to Ann): Hi.", "Dr. Li (Oslo) (to Ann)"),
        (None, "Melanie (to Caroline): I painted a lake.", None),
    ],
)
def test_speaker_line(speaker: str | None, restatement: str | None, line: str | None) -> None:
    assert speaker_line(unit("a", "I painted a lake.", speaker, restatement)) == line


def test_words_and_distinct_speaker_lines_in_one_call() -> None:
    units = [
        unit("a", "I painted a lake.", "Melanie", "Melanie (to Caroline): I painted a lake."),
        unit("b", "Lovely!", "Caroline", "Caroline (to Melanie): Lovely!"),
        unit("c", "Thanks, it took a week.", "Melanie", "Melanie (to Caroline): Thanks, ..."),
        unit("d", "No speaker here.", None, None),
    ]
    embedder = CountingEmbedder()
    vectors = memory_vectors(embedder, units)
    assert embedder.calls == [
        [
            "I painted a lake.",
            "Lovely!",
            "Thanks, it took a week.",
            "No speaker here.",
            "Melanie (to Caroline)",
            "Caroline (to Melanie)",
        ]
    ]
    plain = HashingEmbedder()
    expected = (
        plain.embed(["I painted a lake."])[0]
        + SPEAKER_WEIGHT * plain.embed(["Melanie (to Caroline)"])[0]
    )
    np.testing.assert_allclose(vectors[0], expected / np.linalg.norm(expected), rtol=1e-5)
    np.testing.assert_allclose(vectors[3], plain.embed(["No speaker here."])[0], rtol=1e-6)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)


def test_texts_embedded_ahead_are_not_embedded_again() -> None:
    units = [
        unit("a", "I painted a lake.", "Melanie", "Melanie (to Caroline): I painted a lake."),
        unit("b", "Lovely!", "Caroline", None),
    ]
    embedder = CountingEmbedder()
    made = memory_embeddings(embedder, units)
    assert embedder.calls == [["I painted a lake.", "Melanie (to Caroline)", "Lovely!", "Caroline"]]
    vectors = memory_vectors(embedder, units, made)
    assert len(embedder.calls) == 1  # words and speaker lines all made: no second call
    np.testing.assert_array_equal(vectors, memory_vectors(HashingEmbedder(), units))


def test_an_empty_batch_gives_no_rows() -> None:
    assert memory_vectors(HashingEmbedder(), []).shape[0] == 0


def test_dense_search_finds_the_named_speaker_among_equal_words(tmp_path: Path) -> None:
    """Two people say the same words; the question names one. With the packaged MiniLM, the
    speaker line makes dense search put her message first (the words alone tie)."""
    mem = RaMem.from_path(tmp_path / "store", embedder=MiniLMEmbedder())
    when = datetime(2023, 5, 8, 18, tzinfo=UTC)
    for speaker, other, session in (("Caroline", "Melanie", "s1"), ("Melanie", "Caroline", "s2")):
        mem.add_turns(
            [
                {"speaker": speaker, "text": "I went to a pottery class on Saturday."},
                {"speaker": other, "text": "Nice, how was it?"},
            ],
            "friends",
            session_time=when,
            session_id=session,
            conversation_id=session,
        )
    for name in ("Melanie", "Caroline"):
        hits = mem.retrieve(f"Did {name} go to a pottery class?", "friends", 2, mode="dense")
        assert hits[0].memory.context.speaker == name
        assert hits[0].memory.content == "I went to a pottery class on Saturday."
