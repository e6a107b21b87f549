"""Shared fixtures: real Chroma in a temporary folder, a deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder
from tests.openai_server import openai_server  # noqa: F401  (fixture)

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def store(tmp_path: Path) -> ChromaEpisodicStore:
    """A real embedded Chroma store in a fresh temporary folder."""
    return ChromaEpisodicStore.from_path(tmp_path / "store")


@pytest.fixture
def fake_mem(store: ChromaEpisodicStore) -> RaMem:
    """RaMem over real Chroma with the hashing embedder (for ranking-logic tests)."""
    return RaMem(store, embedder=HashingEmbedder())


def fixture_memory(folder: Path, fixture: str, namespace: str) -> RaMem:
    """RaMem with the packaged model over a new store in ``folder``, holding the one
    conversation of ``tests/fixtures/<fixture>`` in ``namespace``."""
    memory = RaMem.from_path(folder / "store")
    (conversation,) = load_conversations(FIXTURES / fixture)
    memory.add_conversation(conversation, namespace)
    return memory
