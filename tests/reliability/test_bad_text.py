"""Text that is not valid Unicode: a lone surrogate (issue 31, case 13).

``"\\ud800"`` is valid JSON but no character; stored, it broke Chroma's write with an
``unexpected TypeError`` naming no turn. It is refused by the loader and by the API, naming
the conversation, session and turn and how to fix it, before anything is written; the user's
words are stored verbatim or not at all.
"""

from __future__ import annotations

import asyncio
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.errors import InvalidInputError, RamemError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

pytestmark = pytest.mark.reliability

LONE = "\ud800"


def memory(path: Path) -> RaMem:
    return RaMem.from_path(path, embedder=HashingEmbedder())


def test_a_lone_surrogate_in_a_long_chat_file_names_its_turn(tmp_path: Path) -> None:
    turns = [
        {"id": f"t{i}", "speaker": "Ann" if i % 2 else "Ben", "text": f"message number {i}"}
        for i in range(1_200)
    ]
    turns[700]["text"] = f"a broken emoji {LONE} here"
    session = {"session_id": "s1", "session_time": "2023-05-08", "turns": turns}
    source = tmp_path / "chat.json"
    source.write_text(json.dumps({"conversation_id": "c1", "sessions": [session]}))
    assert "\\ud800" in source.read_text()  # valid JSON: the escape of a half pair
    mem = memory(tmp_path / "store")
    with pytest.raises(InvalidInputError) as refused:
        mem.add_conversations(load_conversations(source), "ns")
    message = str(refused.value)
    assert "conversation 'c1' session 's1' turn 't700'" in message
    assert "U+D800 at character 15" in message and "Fix or remove it" in message
    assert mem.namespaces() == {}
    source.write_text(source.read_text().replace("\\ud800", "\\ud83d\\ude00"))  # the whole pair
    mem.add_conversations(load_conversations(source), "ns")
    assert mem.count("ns") == 1_200


@pytest.mark.parametrize("field", ["text", "speaker"])
def test_add_turns_refuses_a_lone_surrogate_naming_the_turn(tmp_path: Path, field: str) -> None:
    mem = memory(tmp_path / "store")
    turns = [{"speaker": "Ann", "text": "hello"}, {"speaker": "Ben", "text": "hi there"}]
    turns[1][field] += LONE
    when = datetime(2023, 5, 8, tzinfo=UTC)
    with pytest.raises(InvalidInputError, match=r"session '.*' turn '.*:2'( speaker)?: .*U\+D800"):
        mem.add_turns(turns, "ns", session_time=when, session_id="s1", conversation_id="c")
    assert mem.namespaces() == {}


def test_exports_refuse_text_that_is_not_unicode(tmp_path: Path) -> None:
    message = {"id": 5, "type": "message", "date": "2024-03-15T00:13:02", "from": "Bea",
               "text": ["ugh ", {"type": "bold", "text": "no" + LONE}]}  # fmt: skip
    telegram = tmp_path / "result.json"
    telegram.write_text(json.dumps({"id": 7, "messages": [message]}))
    with pytest.raises(InvalidInputError, match=r"'telegram-7' session .* turn '5': .*U\+D800"):
        load_conversations(telegram)
    whatsapp = tmp_path / "chat.txt"  # a surrogate written as UTF-8 bytes: not UTF-8
    whatsapp.write_bytes(b"[14/03/2024, 22:48:19] Bea: ugh \xed\xa0\x80\n")
    with pytest.raises(RamemError, match=r"not UTF-8 text \(byte 32"):
        load_conversations(whatsapp)


def test_a_namespace_that_is_not_unicode_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    from ramem_integrations.errors import NamespaceError

    mem = memory(tmp_path / "store")
    turn = {"speaker": "Ann", "text": "hello"}
    when = datetime(2024, 5, 1, tzinfo=UTC)
    with pytest.raises(NamespaceError, match="not valid Unicode"):
        mem.add_turns([turn], "n\ud800", session_time=when)
    with pytest.raises(NamespaceError, match="not valid Unicode"):
        mem.retrieve("hello", "n\ud800")
    assert mem.namespaces() == {}


# -- every other way text comes in: ids, Documents, chat messages, LangGraph items --------------
WHEN = datetime(2024, 5, 1, tzinfo=UTC)


def test_forget_refuses_an_id_that_is_not_unicode(tmp_path: Path) -> None:
    mem = memory(tmp_path / "store")
    (kept,) = mem.add_turns([{"speaker": "Ann", "text": "hello"}], "ns", session_time=WHEN)
    for call in (
        lambda: mem.forget("ns", ids=[kept, "m" + LONE]),
        lambda: mem.forget("ns", conversation_id="c" + LONE),
    ):
        with pytest.raises(InvalidInputError, match=r"'(m|c)\\ud800': .*U\+D800 at character 1"):
            call()
    assert [u.id for u in mem.memories("ns")] == [kept]  # nothing of the call was done


def test_ramem_forget_refuses_an_id_that_is_not_utf8(tmp_path: Path) -> None:
    from tests.reliability.test_cli_newcomer import chat, ramem

    store = str(tmp_path / "store")
    ingest = ramem("ingest", str(chat(tmp_path / "c.json", "hello")), "--store", store,
                   "--namespace", "maya")  # fmt: skip
    assert ingest.returncode == 0, ingest.stderr
    bad_id = os.fsdecode(b"m\xff")  # a byte that is not UTF-8, as the shell passes it
    done = ramem("forget", "--store", store, "--namespace", "maya", "--id", bad_id)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: The memory id 'm\\udcff': the text holds U+DCFF")
    assert (
        "1 memories forgotten, 0 left"
        in ramem("forget", "--store", store, "--namespace", "maya", "--all").stdout
    )


@pytest.mark.parametrize(
    ("text", "metadata"),
    [
        ("hello" + LONE, {}),
        ("hello", {"speaker": "Ann" + LONE}),
        ("hello", {"session_id": "s" + LONE}),
        ("hello", {"conversation_id": "c" + LONE}),
    ],
    ids=["text", "speaker", "session", "conversation"],
)
def test_the_langchain_transformer_refuses_text_that_is_not_unicode(
    text: str, metadata: dict[str, str]
) -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.documents import Document

    from ramem_integrations.langchain import EpisodicDocumentTransformer

    docs = [Document(page_content="fine", metadata={"time": "2024-05-01"}),
            Document(page_content=text, metadata={"time": "2024-05-01", **metadata})]  # fmt: skip
    with pytest.raises(InvalidInputError, match=r"Record 2: its .*U\+D800"):
        EpisodicDocumentTransformer(namespace="ns").transform_documents(docs)


@pytest.mark.parametrize("where", ["text", "speaker"])
def test_the_llama_index_memory_block_refuses_a_message_that_is_not_unicode(
    tmp_path: Path, where: str
) -> None:
    pytest.importorskip("llama_index.core")
    from llama_index.core.llms import ChatMessage

    from ramem_integrations.llama_index import RaMemMemoryBlock

    mem = memory(tmp_path / "store")
    speakers = {"assistant": "Bot" + LONE} if where == "speaker" else {}
    block = RaMemMemoryBlock(memory=mem, namespace="ns", clock=lambda: WHEN, speakers=speakers)
    reply = "See you then." + (LONE if where == "text" else "")
    said = [("user", "My dentist is on Friday.", "2024-05-01T10:00:00+00:00"),
            ("assistant", reply, "2024-05-02T10:00:00+00:00")]  # fmt: skip
    messages = [ChatMessage(role=r, content=t, additional_kwargs={"time": w}) for r, t, w in said]
    with pytest.raises(InvalidInputError, match=r"U\+D800"):
        asyncio.run(block.aput(messages))
    assert mem.namespaces() == {}  # the day before it is not written either


@pytest.mark.parametrize(
    ("namespace", "key", "value"),
    [
        (("memories", "ann"), "k" + LONE, {"text": "hello"}),
        (("memories", "ann" + LONE), "k", {"text": "hello"}),
        (("memories", "ann"), "k", {"text": "hello" + LONE}),
        (("memories", "ann"), "k", {"text": "hello", "kind": "note" + LONE}),
        (("memories", "ann"), "k", {"text": "hello", "tags": [{"n" + LONE: 1}]}),
    ],
    ids=["key", "label", "text", "other field", "field name"],
)
def test_langgraph_refuses_an_item_that_is_not_unicode_before_writing(
    tmp_path: Path, namespace: tuple[str, ...], key: str, value: dict[str, object]
) -> None:
    pytest.importorskip("langgraph")
    from langgraph.store.base import PutOp

    from ramem_integrations.langgraph import RaMemStore

    mem = memory(tmp_path / "store")
    store = RaMemStore(mem)
    with pytest.raises(InvalidInputError, match=r"U\+D800"):
        store.put(namespace, key, value)
    with pytest.raises(InvalidInputError, match=r"U\+D800"):  # a batch: its good put neither
        store.batch([PutOp(("memories", "ann"), "good", {"text": "fine"}),
                     PutOp(namespace, key, value)])  # fmt: skip
    assert mem.namespaces() == {}  # no memory without its item
    assert store.search(("memories",)) == []
