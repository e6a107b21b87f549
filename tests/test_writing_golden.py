"""The write path stores exactly what it stored before its performance work (issue 16).

``tests/fixtures/ingest_golden.json`` was written by ``tests/golden_ingest.py`` from the write
path as it was; every stored memory must match it: same ids, same text, same metadata, and a
vector within float rounding of the golden one (another CPU's int8 kernels may round
differently). On this machine, every stored vector must also be bit for bit what one plain
upsert of the same memories with their embeddings stores.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.memory import writing
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.models.embeddings import default_embedder
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from tests.golden_ingest import GOLDEN, decode, stored
from tests.golden_ingest import ingest as ingest_fixture


@pytest.mark.parametrize("batch", [writing.EMBED_BATCH, 5])
def test_stored_memories_match_the_golden_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    monkeypatch.setattr(writing, "EMBED_BATCH", batch)  # 5: many batches per namespace
    golden = json.loads(GOLDEN.read_text())
    now = stored(ingest_fixture(tmp_path / "store").store)
    assert list(now) == list(golden)
    for memory_id, want in golden.items():
        got = now[memory_id]
        assert (got["document"], got["metadata"]) == (want["document"], want["metadata"])
        assert np.allclose(decode(got["vector"]), decode(want["vector"]), atol=1e-5)

    units = [MemoryUnit.from_metadata(i, m["document"], m["metadata"]) for i, m in now.items()]
    reference = ChromaEpisodicStore.from_path(tmp_path / "reference")
    reference.upsert(units, memory_vectors(default_embedder(), units))
    assert stored(reference) == now
