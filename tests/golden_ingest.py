"""What the write path stores for the fixture conversations, as a golden file.

``tests/fixtures/ingest_golden.json`` holds, for every memory stored when
``tests/fixtures/locomo-dev-standin.json`` is ingested with the packaged embedder, its text,
its metadata and its vector (float32, base64). It was written by the write path before its
performance work (issue 16); ``tests/test_writing_golden.py`` holds the current code to it.

    python -m tests.golden_ingest   # rewrite the golden file from the current code
"""

from __future__ import annotations

import base64
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.embeddings import Embedder
from ramem_integrations.stores.chroma import ChromaEpisodicStore

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = FIXTURES / "locomo-dev-standin.json"
GOLDEN = FIXTURES / "ingest_golden.json"


def stored(store: ChromaEpisodicStore) -> dict[str, dict[str, Any]]:
    """Every memory of every namespace in ``store``, by id: text, metadata, vector."""
    out: dict[str, dict[str, Any]] = {}
    for namespace in store.namespaces():
        units, vectors = store.get_with_vectors(namespace)
        for unit, vector in zip(units, vectors, strict=True):
            out[unit.id] = {
                "document": unit.content,
                "metadata": unit.to_metadata(),
                "vector": encode(vector),
            }
    return dict(sorted(out.items()))


def ingest(root: Path, embedder: Embedder | None = None) -> RaMem:
    """A store under ``root`` holding the fixture conversations, one namespace each, written
    the two ways users write: one batched call, and one conversation at a time (namespace
    ``all``)."""
    conversations = load_conversations(SOURCE)
    mem = RaMem.from_path(root, embedder=embedder)
    mem.add_conversations(conversations)
    for conversation in conversations:
        mem.add_conversation(conversation, "all")
    return mem


def encode(vector: np.ndarray) -> str:
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype="<f4")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        golden = stored(ingest(Path(tmp)).store)
    GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(golden)} memories to {GOLDEN}")


if __name__ == "__main__":
    main()
