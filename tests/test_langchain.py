"""LangChain integration: the standard retriever suite, a real LCEL chain, agent memory, the
document transformer (and a langchain-chroma collection RaMem searches), the prompt."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_tests.integration_tests import RetrieversIntegrationTests

import ramem_integrations.langchain as lc
from ramem_integrations import MemoryUnit, RaMem, load_conversations
from ramem_integrations.adapters_common.asked import UNDATED
from ramem_integrations.app.demo import ASKED_ON, sample_path
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.langchain import (
    EpisodicDocumentTransformer,
    RaMemMemory,
    RaMemRetriever,
    context_prompt,
    format_documents,
)
from ramem_integrations.memory.questions import UngroundedTimeWarning
from ramem_integrations.testing import HashingEmbedder

QUESTION = "What did the dentist say last March?"
MARCH_DENTIST = "s2-dentist-march:2"


def _demo(path: Path, embedder: Any = None) -> RaMem:
    mem = RaMem.from_path(path, embedder=embedder)
    (conversation,) = load_conversations(sample_path())
    mem.add_conversation(conversation, "alice")
    return mem


@pytest.fixture(scope="module")
def demo_mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    """The sample conversation with the packaged embedder: what a user sees."""
    return _demo(tmp_path_factory.mktemp("demo"))


def test_public_names_are_pinned() -> None:
    assert sorted(lc.__all__) == [
        "EpisodicDocumentTransformer",
        "RaMemEmbeddings",
        "RaMemMemory",
        "RaMemRetriever",
        "context_prompt",
        "format_documents",
    ]


# -- the standard LangChain retriever suite ------------------------------------------------


# The suite's one async test runs under pytest-asyncio; marking the function itself keeps
# the suite's "no test overridden" check meaningful (a subclass override would fail it).
pytest.mark.asyncio(RetrieversIntegrationTests.test_ainvoke_returns_documents)


class TestRaMemRetrieverStandard(RetrieversIntegrationTests):
    _mem: RaMem

    @pytest.fixture(autouse=True, scope="class")
    @classmethod
    def _memory(cls, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
        cls._mem = _demo(tmp_path_factory.mktemp("standard"), HashingEmbedder())
        yield

    @property
    def retriever_constructor(self) -> type[RaMemRetriever]:
        return RaMemRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"memory": self._mem, "namespace": "alice"}

    @property
    def retriever_query_example(self) -> str:
        return "What did the dentist say?"


# -- the retriever ----------------------------------------------------------------------------


def test_documents_carry_the_episode(demo_mem: RaMem) -> None:
    retriever = RaMemRetriever(memory=demo_mem, namespace="alice", k=3, reference=ASKED_ON)
    docs = retriever.invoke(QUESTION)
    first = docs[0]
    assert first.metadata["source_ids"] == [MARCH_DENTIST]
    assert first.id == first.metadata["id"]
    assert first.metadata["session_start"] == "2024-03-12T18:00:00+00:00"
    assert first.metadata["reason"] == "context"
    assert first.metadata["matched"] == ["time March 2024"]
    assert first.metadata["event_time"] == "11 March 2024"
    assert {"Alice", "Sam"} <= set(first.metadata["participants"])
    assert "Dr. Patel" in first.page_content


def test_call_arguments_override_the_fields(demo_mem: RaMem) -> None:
    retriever = RaMemRetriever(memory=demo_mem, namespace="alice")
    with pytest.warns(UngroundedTimeWarning, match="'last March'"):
        plain = retriever.invoke(QUESTION, k=2, reference=UNDATED)
    assert len(plain) == 2
    assert plain[0].metadata["reason"] == "content"  # undated: "last March" not grounded
    dated = retriever.invoke(QUESTION, k=2, reference=ASKED_ON)
    assert dated[0].metadata["source_ids"] == [MARCH_DENTIST]
    clocked = RaMemRetriever(memory=demo_mem, namespace="alice", reference=lambda: ASKED_ON)
    assert clocked.invoke(QUESTION, k=1)[0].metadata["source_ids"] == [MARCH_DENTIST]
    with pytest.raises(InvalidInputError, match="top_k"):
        retriever.invoke(QUESTION, top_k=2)


@pytest.mark.parametrize(
    ("options", "call", "count"),
    [
        ({"search_kwargs": {"k": 2}}, {}, 2),  # as a VectorStoreRetriever's
        ({"k": 5, "search_kwargs": {"k": 2}}, {}, 2),  # search_kwargs over the field
        ({"search_kwargs": {"k": 2}}, {"k": 3}, 3),  # the call over both
        ({"k": 4}, {}, 4),
    ],
)
def test_search_kwargs_are_honoured(
    demo_mem: RaMem, options: dict[str, Any], call: dict[str, Any], count: int
) -> None:
    retriever = RaMemRetriever(memory=demo_mem, namespace="alice", reference=ASKED_ON, **options)
    assert len(retriever.invoke(QUESTION, **call)) == count


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"namespce": "alice"}, "'namespce' \\(did you mean 'namespace'\\?\\)"),
        ({"top_k": 3}, "'top_k'"),
        ({"search_type": "mmr"}, "'search_type'"),
        ({"search_kwargs": {"filter": {"speaker": "Alice"}}}, "search_kwargs key.*'filter'"),
        ({"search_kwargs": {"top_k": 3}}, "search_kwargs key.*'top_k'"),
        ({"search_kwargs": 3}, "search_kwargs must be a dict"),
    ],
)
def test_unknown_fields_are_refused(demo_mem: RaMem, options: dict[str, Any], message: str) -> None:
    data = {"memory": demo_mem, "namespace": "alice", **options}
    with pytest.raises(InvalidInputError, match=message):
        RaMemRetriever(**data)


async def test_async_matches_sync(demo_mem: RaMem) -> None:
    retriever = RaMemRetriever(memory=demo_mem, namespace="alice", k=3, reference=ASKED_ON)
    sync = retriever.invoke(QUESTION)
    other = await retriever.ainvoke(QUESTION)
    assert [d.id for d in sync] == [d.id for d in other]


test_async_matches_sync = pytest.mark.asyncio(test_async_matches_sync)


# -- a real LCEL chain ------------------------------------------------------------------------


def test_lcel_chain_sends_situated_evidence_to_the_model(demo_mem: RaMem) -> None:
    retriever = RaMemRetriever(memory=demo_mem, namespace="alice", k=3, reference=ASKED_ON)
    seen: list[str] = []

    def record(prompt: Any) -> Any:
        seen.append(prompt.to_string())
        return prompt

    model = FakeListChatModel(responses=["Within two months."])
    chain = (
        {
            "memories": retriever | format_documents,
            "question": RunnablePassthrough(),
            "conditions": RunnableLambda(retriever.conditions),
        }
        | context_prompt()
        | RunnableLambda(record)
        | model
        | StrOutputParser()
    )
    assert chain.invoke(QUESTION) == "Within two months."
    prompt = seen[0]
    first_block = prompt.split("\n[1] said ")[1].split("\n[2] said ")[0]
    assert first_block.startswith("12 March 2024")
    assert "; happened 11 March 2024" in first_block
    assert "; with Sam, Alice" in first_block
    assert MARCH_DENTIST not in prompt  # no dataset id reaches the model
    assert "Question: What did the dentist say last March?" in prompt
    assert "Conditions read from the question: time = March 2024" in prompt


def test_context_prompt_keeps_values_as_data() -> None:
    prompt = context_prompt()
    assert set(prompt.input_variables) == {"question", "memories"}
    text = prompt.invoke({"question": "What is {memories}?", "memories": "{question} }{"})
    rendered = text.to_string()
    assert "What is {memories}?" in rendered
    assert "{question} }{" in rendered
    assert "Conditions read from the question: none" in rendered


def test_format_documents_without_episode_says_so() -> None:
    text = format_documents([Document(page_content='He said "hi"\nthen left.')])
    assert text == '[1] said not stated\n"He said \\"hi\\"\\nthen left."'  # verbatim, one line
    assert format_documents([]) == "(no memories)"


def test_format_documents_marks_who_spoke() -> None:
    doc = Document(
        page_content="I'll bring the cake.",
        metadata={"participants": ["Sam", "Alice", "Bob"], "speaker": "Alice"},
    )
    assert format_documents([doc]).splitlines() == [
        "[1] said not stated; with Sam, Alice, Bob",
        'Alice: "I\'ll bring the cake."',
    ]
    outsider = Document(page_content="hi", metadata={"participants": ["Sam"], "speaker": "Jo"})
    assert format_documents([outsider]).splitlines()[1] == 'Jo: "hi"'


# -- agent memory -----------------------------------------------------------------------------


def _chat_memory(fake_mem: RaMem, clock: dict[str, datetime]) -> RaMemMemory:
    return RaMemMemory(
        memory=fake_mem, namespace="bob", k=2, human_name="Bob", clock=lambda: clock["now"]
    )


def test_memory_saves_and_loads_across_sessions(fake_mem: RaMem) -> None:
    clock = {"now": datetime(2024, 3, 4, 10, tzinfo=UTC)}
    memory = _chat_memory(fake_mem, clock)
    assert memory.memory_variables == ["history"]
    assert memory.load_memory_variables({"input": "anything"}) == {"history": "(no memories)"}
    memory.save_context({"input": "My knee hurts after the run."}, {"output": "Rest it."})
    clock["now"] = datetime(2024, 5, 6, 10, tzinfo=UTC)
    memory.save_context(
        {"input": "My knee feels great after the run."}, {"output": "Good, keep stretching."}
    )
    clock["now"] = datetime(2024, 6, 1, 10, tzinfo=UTC)

    history = memory.load_memory_variables({"input": "How was my knee in March?"})["history"]
    first = history.split("\n\n[2]")[0]
    assert "said 4 March 2024" in first
    assert "My knee hurts" in first
    assert "with Bob, Assistant" in first
    sessions = {u.context.session_id for u in fake_mem.memories("bob")}
    assert sessions == {"chat-2024-03-04", "chat-2024-05-06"}
    assert fake_mem.count("bob") == 4


def test_memory_now_argument_and_clear(fake_mem: RaMem) -> None:
    clock = {"now": datetime(2024, 1, 1, tzinfo=UTC)}
    memory = _chat_memory(fake_mem, clock)
    when = datetime(2023, 7, 9, 8, tzinfo=UTC)
    memory.save_context({"input": "I adopted a cat named Miso."}, {"output": ""}, now=when)
    (unit,) = fake_mem.memories("bob")
    assert unit.context.session_span.start == when
    fake_mem.add_turns(
        [{"speaker": "Bob", "text": "Ingested elsewhere."}],
        "bob",
        session_time=when,
        conversation_id="import",
    )
    memory.clear()
    (left,) = fake_mem.memories("bob")
    assert left.conversation_id == "import"


def test_memory_needs_to_know_its_input(fake_mem: RaMem) -> None:
    memory = _chat_memory(fake_mem, {"now": datetime(2024, 1, 1, tzinfo=UTC)})
    with pytest.raises(InvalidInputError, match="input_key"):
        memory.load_memory_variables({"a": "x", "b": "y"})
    keyed = memory.model_copy(update={"input_key": "a"})
    assert keyed.load_memory_variables({"a": "x", "b": "y"}) == {"history": "(no memories)"}


def test_memory_as_runnable_and_tool(fake_mem: RaMem) -> None:
    memory = _chat_memory(fake_mem, {"now": datetime(2024, 2, 1, tzinfo=UTC)})
    memory.save_context({"input": "The plumber comes on Friday."}, {"output": "Noted."})
    out = memory.as_runnable().invoke({"input": "When does the plumber come?"})
    assert out["input"] == "When does the plumber come?"
    assert 'Bob: "The plumber comes on Friday."' in out["history"]
    tool = memory.as_tool()
    assert tool.name == "search_memory"
    message = tool.invoke(
        {"type": "tool_call", "id": "1", "name": tool.name, "args": {"query": "plumber"}}
    )
    assert "said 1 February 2024" in message.content
    assert all(isinstance(d, Document) for d in message.artifact)


def test_memory_is_a_classic_memory_when_classic_is_installed(fake_mem: RaMem) -> None:
    base_memory = pytest.importorskip("langchain_classic.base_memory")
    memory = _chat_memory(fake_mem, {"now": datetime(2024, 2, 1, tzinfo=UTC)})
    assert isinstance(memory, base_memory.BaseMemory)


# -- the document transformer -----------------------------------------------------------------


def _notes() -> list[Document]:
    return [
        Document(
            page_content="I saw the dentist yesterday; the filling went fine.",
            metadata={"timestamp": "2024-03-12 18:00", "speaker": "Alice"},
        ),
        Document(
            page_content="Good luck with it!",
            id="reply-1",
            metadata={"timestamp": 1710266460, "author": "Sam", "source": "chat.txt"},
        ),
        Document(page_content="No time here.", metadata={}),
    ]


def test_transformer_metadata_round_trips() -> None:
    docs = _notes()
    before = copy.deepcopy(docs)
    default = datetime(2024, 3, 13, tzinfo=UTC)
    out = EpisodicDocumentTransformer("alice", default_time=default).transform_documents(docs)
    assert docs == before  # inputs untouched
    for doc in out:
        unit = MemoryUnit.from_metadata(doc.id, doc.page_content, doc.metadata)
        assert unit.to_metadata().items() <= doc.metadata.items()
        assert unit.namespace == "alice"
    first, reply, undated = (
        MemoryUnit.from_metadata(d.id, d.page_content, d.metadata) for d in out
    )
    assert first.context.event_time is not None
    assert first.context.event_time.label() == "11 March 2024"
    assert first.content == docs[0].page_content  # the user's words stay the text ...
    assert "11 March 2024" in (first.restatement or "")  # ... the restatement beside them
    assert "original_content" not in out[0].metadata
    restated = EpisodicDocumentTransformer("alice", default_time=default, restate=True)
    moved = restated.transform_documents(docs)[0]
    assert "11 March 2024" in moved.page_content
    assert moved.metadata["original_content"] == docs[0].page_content
    assert reply.id == "reply-1"
    assert reply.context.speaker == "Sam"
    assert out[1].metadata["source"] == "chat.txt"
    assert {"Alice", "Sam"} <= set(first.context.participants)  # same day, same session
    assert undated.context.session_span.start == default
    assert undated.context.speaker == "user"


def test_transformer_needs_a_time() -> None:
    with pytest.raises(InvalidInputError, match="timestamp"):
        EpisodicDocumentTransformer("alice").transform_documents(_notes())


def test_langchain_chroma_collection_is_searched_by_ramem(tmp_path: Path) -> None:
    langchain_chroma = pytest.importorskip("langchain_chroma")
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(str(tmp_path), settings=Settings(anonymized_telemetry=False))
    embedder = HashingEmbedder()
    mem = RaMem.from_client(client, collection="notes", embedder=embedder)
    name, metadata = mem.store.namespace_collection("alice")  # where RaMem reads alice
    store = langchain_chroma.Chroma(
        collection_name=name,
        collection_metadata=metadata,
        client=client,
        embedding_function=lc.RaMemEmbeddings(embedder),
        collection_configuration={"hnsw": {"space": "cosine"}},
    )
    docs = [
        Document(
            page_content="The dentist said the tooth must come out.",
            metadata={"timestamp": "2024-03-12 18:00", "speaker": "Alice"},
        ),
        Document(
            page_content="The dentist said the tooth healed well.",
            metadata={"timestamp": "2024-07-09 12:15", "speaker": "Alice"},
        ),
    ]
    store.add_documents(list(EpisodicDocumentTransformer("alice").transform_documents(docs)))

    assert mem.namespaces() == {"alice": 2}
    hits = mem.retrieve("What did the dentist say in March 2024?", "alice", k=2)
    assert hits[0].memory.context.session_span.start.month == 3
    assert hits[0].reason == "context"


def test_a_retriever_without_a_namespace_says_what_to_pass(fake_mem: RaMem) -> None:
    from ramem_integrations.errors import NamespaceError

    with pytest.raises(NamespaceError, match="namespace is required"):
        RaMemRetriever(memory=fake_mem)
    with pytest.raises(NamespaceError, match="namespace is required"):
        RaMemRetriever(memory=fake_mem, namespace="  ")
