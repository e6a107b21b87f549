"""One Chroma store, several surfaces: a LangGraph store's namespaces never alias a LangChain or
LlamaIndex namespace of the same RaMem, and its items collection is never taken for a store."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph.store.base")

from ramem_integrations.errors import InvalidInputError, StoreError
from ramem_integrations.langchain import RaMemMemory
from ramem_integrations.langchain import RaMemRetriever as LangChainRetriever
from ramem_integrations.langgraph import RaMemStore
from ramem_integrations.langgraph.items import item_id
from ramem_integrations.llama_index import RaMemRetriever as LlamaRetriever
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.test_cli_newcomer import ENV, ramem

ALICE = ("memories", "alice")
SAID = "I saw the dentist today, she said the wisdom tooth must come out."
WHEN = datetime(2024, 3, 12, 18, tzinfo=UTC)


def _mem(path: Path, **options: Any) -> RaMem:
    return RaMem.from_path(path, embedder=HashingEmbedder(), **options)


def _put_alice(store: RaMemStore) -> None:
    store.put(ALICE, "m1", {"text": SAID, "time": WHEN.isoformat()})


def test_a_langchain_or_llama_index_namespace_never_reads_a_langgraph_one(
    tmp_path: Path,
) -> None:
    mem = _mem(tmp_path / "store")
    store = RaMemStore(mem, clock=lambda: WHEN)
    _put_alice(store)
    own = "Mallory here: what did the dentist say?"
    mem.add_turns([{"speaker": "Mallory", "text": own}], "memories.alice", session_time=WHEN)
    langchain = LangChainRetriever(memory=mem, namespace="memories.alice", reference=WHEN)
    llama = LlamaRetriever(mem, "memories.alice", reference=WHEN)
    question = "What did the dentist say about the wisdom tooth?"
    assert [d.page_content for d in langchain.invoke(question)] == [own]
    assert [n.node.get_content() for n in llama.retrieve(question)] == [own]
    assert mem.namespaces() == {"memories.alice": 1}
    assert [h.memory.content for h in store.recall(ALICE, "dentist")] == [SAID]


def test_a_langchain_namespace_never_writes_or_clears_a_langgraph_one(tmp_path: Path) -> None:
    mem = _mem(tmp_path / "store")
    store = RaMemStore(mem, clock=lambda: WHEN)
    _put_alice(store)
    chat = RaMemMemory(memory=mem, namespace="memories.alice", conversation_id="langgraph:m1")
    chat.save_context({"input": "Mallory's words."}, {"output": ""})
    chat.clear()
    mem.forget("memories.alice")
    (hit,) = store.search(ALICE, query="What did the dentist say?")
    assert (hit.key, hit.value["text"], hit.score is not None) == ("m1", SAID, True)
    assert [h.memory.content for h in store.recall(ALICE, "words dentist")] == [SAID]


def test_memories_of_an_older_langgraph_store_move_to_their_own(tmp_path: Path) -> None:
    """Before, a store's memories lived in the given RaMem's namespace ``memories.alice``
    and its items collection had no marker: opening it moves them, once, and nothing else."""
    mem = _mem(tmp_path / "store")
    mem.add_turns(
        [{"id": "item", "speaker": "user", "text": SAID, "time": WHEN}],
        "memories.alice",
        session_time=WHEN,
        session_id="m1",
        conversation_id="langgraph:m1",
    )
    mem.add_turns(
        [{"speaker": "Ann", "text": "Plain words of a LangChain user.", "time": WHEN}],
        "memories.alice",
        session_time=WHEN,
        conversation_id="chat",
    )
    old_items = mem.store.client.get_or_create_collection(
        "ramem_memories_langgraph_items", embedding_function=None
    )
    meta = {
        "namespace": "memories.alice",
        "prefixes": ["memories", "memories.alice"],
        "key": "m1",
        "created_at": WHEN.isoformat(),
        "updated_at": WHEN.isoformat(),
        "text": SAID,
        "time": WHEN.isoformat(),
        "speaker": "user",
    }
    old_items.upsert(
        ids=[item_id(ALICE, "m1")],
        documents=[json.dumps({"text": SAID, "time": WHEN.isoformat()})],
        metadatas=[meta],
        embeddings=[[1.0]],
    )
    store = RaMemStore(mem, clock=lambda: WHEN)
    assert [u.content for u in mem.memories("memories.alice")] == [
        "Plain words of a LangChain user."
    ]
    (hit,) = store.search(ALICE, query="What did the dentist say?")
    assert (hit.key, hit.score is not None) == ("m1", True)
    again = RaMemStore(mem, clock=lambda: WHEN)  # opened again: nothing more moves
    assert [u.content for u in again.memory.memories("memories.alice")] == [SAID]
    assert mem.count("memories.alice") == 1


# -- the items collection is no store ------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["ramem_memories", "ramem_memories.alice.0123456789abcdef", "ramem_memories.writes", "other"],
    ids=["the store itself", "a namespace collection", "the marks", "another store"],
)
def test_an_items_collection_cannot_be_a_stores_collection(tmp_path: Path, name: str) -> None:
    mem = _mem(tmp_path / "store")
    mem.add_turns([{"speaker": "Ann", "text": "Hello."}], "alice", session_time=WHEN)
    RaMem.from_client(mem.store.client, collection="other", embedder=HashingEmbedder())
    with pytest.raises(InvalidInputError, match="items_collection"):
        RaMemStore(mem, items_collection=name)
    assert [u.content for u in _mem(tmp_path / "store").memories("alice")] == ["Hello."]


def test_opening_the_items_collection_as_a_store_is_refused_without_advising_upgrade(
    tmp_path: Path,
) -> None:
    mem = _mem(tmp_path / "store")
    _put_alice(RaMemStore(mem, clock=lambda: WHEN))
    with pytest.raises(StoreError, match="items of a LangGraph RaMemStore") as caught:
        RaMem.from_client(mem.store.client, collection="ramem_memories_langgraph_items")
    assert "ramem upgrade" not in str(caught.value)


def test_ramem_upgrade_of_the_items_collection_changes_nothing(tmp_path: Path) -> None:
    """``ramem upgrade --collection <the items collection>``, run as a user runs it (a
    process of its own, after the process that wrote the items ended), is refused, and
    every item is still there."""
    path = tmp_path / "store"
    write = (
        "import sys\n"
        "from ramem_integrations.langgraph import RaMemStore\n"
        "from ramem_integrations.memory.ramem import RaMem\n"
        "from ramem_integrations.testing import HashingEmbedder\n"
        "store = RaMemStore(RaMem.from_path(sys.argv[1], embedder=HashingEmbedder()))\n"
        "for n in range(3):\n"
        "    store.put(('memories', f'u{n}'), 'm1', {'text': f'The dentist, visit {n}.'})\n"
    )
    wrote = subprocess.run(
        [sys.executable, "-c", write, str(path)], capture_output=True, text=True, env=ENV
    )
    assert wrote.returncode == 0, wrote.stderr
    done = ramem("upgrade", "--store", str(path), "--collection", "ramem_memories_langgraph_items")
    assert done.returncode != 0
    assert "items of a LangGraph RaMemStore" in done.stderr
    store = RaMemStore(_mem(path), clock=lambda: WHEN)
    assert store.list_namespaces() == [("memories", f"u{n}") for n in range(3)]
    assert len(store.search(("memories",), query="dentist")) == 3
