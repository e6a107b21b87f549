"""One set of behaviours, run against all three frameworks with their real objects.

LangChain's ``RaMemRetriever`` (Documents), LlamaIndex's ``RaMemRetriever`` (NodeWithScore) and
LangGraph's ``RaMemStore.search`` (SearchItems) read the same memories: items put into a
``RaMemStore`` (real Chroma in a temporary folder), whose RaMem the two retrievers are given.
Each must honour ``k``, carry the vocabulary of :mod:`ramem_integrations.adapters_common.hits`
with the values the core's own retrieval gives, refuse a bad namespace with a
:class:`NamespaceError`, and ground (or, undated, warn about) relative times alike.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("llama_index.core")
pytest.importorskip("langgraph.store.base")

from ramem_integrations.adapters_common.asked import UNDATED, Reference, asked_at
from ramem_integrations.adapters_common.hits import (
    COORDINATE_KEYS,
    HIT_KEYS,
    IDENTITY_KEYS,
    coordinate_metadata,
    hit_metadata,
)
from ramem_integrations.errors import InvalidInputError, NamespaceError
from ramem_integrations.langchain import RaMemRetriever as LangChainRetriever
from ramem_integrations.langgraph import RaMemStore
from ramem_integrations.llama_index import RaMemRetriever as LlamaIndexRetriever
from ramem_integrations.memory.questions import UngroundedTimeWarning
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import persistent_client
from ramem_integrations.testing import HashingEmbedder

ASKED_ON = datetime(2024, 9, 3, 12, tzinfo=UTC)
QUESTION = "What did the dentist say last March?"
NAMESPACE = ("memories", "alice")
RAMEM_NAMESPACE = "memories.alice"
ITEMS = {
    "march": {
        "text": "The dentist said my wisdom tooth must come out.",
        "time": "2024-03-12T18:00:00+00:00",
        "speaker": "Alice",
    },
    "paris": {
        "text": "We booked the flights to Paris for the autumn.",
        "time": "2024-05-02T09:00:00+00:00",
        "speaker": "Sam",
    },
    "july": {
        "text": "The dentist said the extraction healed well.",
        "time": "2024-07-20T10:00:00+00:00",
        "speaker": "Alice",
    },
}
SHARED_KEYS = (*COORDINATE_KEYS, *HIT_KEYS)

#: A hit as a surface gives it: its text and its metadata.
Hit = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class Surface:
    """How one framework is asked: ``search(store, question, namespace, k, reference)``."""

    search: Callable[[RaMemStore, str, Any, int, Reference], list[Hit]]
    #: The namespace the framework names ``memories.alice`` by, and a bad one.
    namespace: Any
    bad_namespace: Any


def _langchain(store: RaMemStore, question: str, ns: Any, k: int, ref: Reference) -> list[Hit]:
    retriever = LangChainRetriever(memory=store.memory, namespace=ns, k=k, reference=ref)
    return [(d.page_content, dict(d.metadata)) for d in retriever.invoke(question)]


def _llama_index(store: RaMemStore, question: str, ns: Any, k: int, ref: Reference) -> list[Hit]:
    retriever = LlamaIndexRetriever(store.memory, ns, similarity_top_k=k, reference=ref)
    return [(n.node.get_content(), dict(n.node.metadata)) for n in retriever.retrieve(question)]


def _langgraph(store: RaMemStore, question: str, ns: Any, k: int, ref: Reference) -> list[Hit]:
    found = store.search(ns, query=question, limit=k, reference=ref)
    return [(item.value["text"], dict(item.value["episode"])) for item in found]


SURFACES = {
    "langchain": Surface(_langchain, RAMEM_NAMESPACE, ""),
    "llama_index": Surface(_llama_index, RAMEM_NAMESPACE, "  "),
    "langgraph": Surface(_langgraph, NAMESPACE, ("memories", "")),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> RaMemStore:
    """Three items in a RaMemStore; its RaMem holds their memories for the retrievers too."""
    folder: Path = tmp_path_factory.mktemp("shared")
    store = RaMemStore(
        RaMem.from_path(folder / "store", embedder=HashingEmbedder()), clock=lambda: ASKED_ON
    )
    for key, value in ITEMS.items():
        store.put(NAMESPACE, key, value)
    return store


def _expected(store: RaMemStore, k: int, reference: Reference) -> list[Hit]:
    """What the core's own retrieval gives, in the shared vocabulary."""
    hits = store.memory.retrieve(QUESTION, RAMEM_NAMESPACE, k, reference=asked_at(reference))
    return [(h.memory.content, {**coordinate_metadata(h.memory), **hit_metadata(h)}) for h in hits]


def _shared(hits: list[Hit]) -> list[Hit]:
    return [(text, {key: meta.get(key) for key in SHARED_KEYS}) for text, meta in hits]


@pytest.mark.parametrize("name", SURFACES)
@pytest.mark.parametrize("k", [1, 2, 3])
def test_k_is_honoured(store: RaMemStore, name: str, k: int) -> None:
    surface = SURFACES[name]
    assert len(surface.search(store, QUESTION, surface.namespace, k, ASKED_ON)) == k


@pytest.mark.parametrize("name", SURFACES)
def test_hits_carry_the_one_vocabulary_with_the_cores_values(store: RaMemStore, name: str) -> None:
    surface = SURFACES[name]
    hits = surface.search(store, QUESTION, surface.namespace, 3, ASKED_ON)
    assert _shared(hits) == _expected(store, 3, ASKED_ON)
    text, top = hits[0]
    assert text == ITEMS["march"]["text"]
    assert (top["reason"], top["matched"]) == ("context", ["time March 2024"])
    assert top["who"] == "Alice (speaker)" and top["place"] == "not stated"
    assert top["said"].startswith("12 March 2024")
    assert [meta["reason"] for _, meta in hits[1:]] == ["content", "content"]


def test_every_surface_shows_the_same_hits_under_the_same_keys(store: RaMemStore) -> None:
    """The three surfaces side by side: the shared keys and the identity keys agree."""
    keys = (*SHARED_KEYS, *IDENTITY_KEYS)
    seen = {
        name: [
            (text, {key: meta.get(key) for key in keys})
            for text, meta in surface.search(store, QUESTION, surface.namespace, 3, ASKED_ON)
        ]
        for name, surface in SURFACES.items()
    }
    assert seen["llama_index"] == seen["langchain"]
    assert seen["langgraph"] == seen["langchain"]
    assert seen["langchain"][0][1]["namespace"] == RAMEM_NAMESPACE


@pytest.mark.parametrize("name", SURFACES)
def test_a_bad_namespace_is_refused_with_a_namespace_error(store: RaMemStore, name: str) -> None:
    surface = SURFACES[name]
    with pytest.raises(NamespaceError, match="alice"):  # the message shows a namespace to give
        surface.search(store, QUESTION, surface.bad_namespace, 2, ASKED_ON)


@pytest.mark.parametrize("name", SURFACES)
def test_an_undated_question_warns_and_grounds_nothing(store: RaMemStore, name: str) -> None:
    surface = SURFACES[name]
    with pytest.warns(UngroundedTimeWarning, match="last March"):
        hits = surface.search(store, QUESTION, surface.namespace, 3, UNDATED)
    assert [meta["reason"] for _, meta in hits] == ["content"] * 3
    assert _shared(hits) == _expected(store, 3, UNDATED)


@pytest.mark.parametrize("name", SURFACES)
def test_a_reference_clock_grounds_relative_times(store: RaMemStore, name: str) -> None:
    """``reference`` may be a callable (as ``TimeWeightedPostprocessor``'s ``now``)."""
    surface = SURFACES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UngroundedTimeWarning)
        (top,) = surface.search(store, QUESTION, surface.namespace, 1, lambda: ASKED_ON)
    assert top[0] == ITEMS["march"]["text"] and top[1]["reason"] == "context"


# -- from_defaults: the two retrievers open a memory the same way -------------------------

RETRIEVERS: dict[str, Callable[..., Any]] = {
    "langchain": lambda namespace, **kw: LangChainRetriever.from_defaults(namespace, k=2, **kw),
    "llama_index": lambda namespace, **kw: LlamaIndexRetriever.from_defaults(
        namespace, similarity_top_k=2, **kw
    ),
}


def _texts(retriever: Any) -> list[str]:
    found = retriever.invoke(QUESTION) if hasattr(retriever, "invoke") else None
    if found is None:
        return [n.node.get_content() for n in retriever.retrieve(QUESTION)]
    return [d.page_content for d in found]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store at a path, holding the three items' words as turns of namespace 'alice'."""
    path: Path = tmp_path_factory.mktemp("opened")
    mem = RaMem.from_path(path, embedder=HashingEmbedder())
    for value in ITEMS.values():
        when = datetime.fromisoformat(value["time"])
        turn = {"speaker": value["speaker"], "text": value["text"]}
        mem.add_turns([turn], "alice", session_time=when)
    return path


@pytest.mark.parametrize("name", RETRIEVERS)
@pytest.mark.parametrize("way", ["path", "client", "memory"])
def test_from_defaults_opens_a_memory_by_path_client_or_memory(
    folder: Path, name: str, way: str
) -> None:
    opened = {
        "path": lambda: {"path": folder, "embed_model": HashingEmbedder()},
        "client": lambda: {
            "client": persistent_client(folder),  # a chromadb PersistentClient
            "embed_model": HashingEmbedder(),
        },
        "memory": lambda: {"memory": RaMem.from_path(folder, embedder=HashingEmbedder())},
    }[way]()
    retriever = RETRIEVERS[name]("alice", reference=ASKED_ON, **opened)
    assert _texts(retriever) == [ITEMS["march"]["text"], ITEMS["july"]["text"]]


#: Mistakes in what to open, each refused alike by both retrievers, before anything is opened.
OPEN_MISTAKES: dict[str, Callable[[Path], dict[str, Any]]] = {
    "nothing": lambda _: {},
    "path and client": lambda p: {"path": p, "client": object()},
    "memory and path": lambda p: {"memory": object(), "path": p},
    "memory and embed_model": lambda p: {
        "memory": RaMem.from_path(p, embedder=HashingEmbedder()),
        "embed_model": HashingEmbedder(),
    },
    "memory that is not a RaMem": lambda _: {"memory": "./memory"},
}


@pytest.mark.parametrize("mistake", OPEN_MISTAKES)
def test_from_defaults_refuses_the_same_mistakes_with_the_same_error(
    folder: Path, mistake: str
) -> None:
    messages = set()
    for make in RETRIEVERS.values():
        with pytest.raises(InvalidInputError) as caught:
            make("alice", **OPEN_MISTAKES[mistake](folder))
        messages.add(str(caught.value))
    (message,) = messages  # the same words from both
    assert "memory=" in message or "RaMem" in message


@pytest.mark.parametrize("name", RETRIEVERS)
def test_from_defaults_refuses_a_bad_namespace(folder: Path, name: str) -> None:
    with pytest.raises(NamespaceError, match="namespace is required"):
        RETRIEVERS[name]("", path=folder, embed_model=HashingEmbedder())
