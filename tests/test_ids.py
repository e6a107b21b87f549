"""Ids made from several parts never collide: parts holding the old separator ``\\x1f`` can no
longer spell another memory's id, and ids of parts without it are the ids stores already hold."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.anchoring import memory_id
from ramem_integrations.core.ids import digest, part_key
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.test_cli_newcomer import ramem

#: Pairs of part lists that one ``"\x1f".join`` made into one key.
CLASHES: list[tuple[list[str], list[str]]] = [
    (["maya", "week1", "m1", "m2"], ["maya", "week1\x1fm1", "m2"]),
    (["maya", "week1", "m1", "m2"], ["maya\x1fweek1", "m1", "m2"]),
    (["a", "b\x1fc"], ["a\x1fb", "c"]),
    (["episode", "x"], ["episode\x1fx", ""]),
    (["session", "c", "s"], ["session", "c\x1fs", ""]),
]


@pytest.mark.parametrize(("one", "other"), CLASHES)
def test_lists_that_joined_alike_get_two_ids(one: list[str], other: list[str]) -> None:
    assert part_key(*one) != part_key(*other)
    assert digest(*one) != digest(*other)
    assert json.loads(part_key(*other)) == other  # the parts come back


@pytest.mark.parametrize(
    "parts", [["maya", "week1", "m1"], ["alice", "chat", "s1:1", "s1:2"], ["n", "", "t"]]
)
def test_ids_without_the_separator_are_the_ones_stores_hold(parts: list[str]) -> None:
    old = hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]
    assert memory_id(parts[0], parts[1], parts[2:]) == old


def test_a_langchain_document_of_another_conversation_is_another_document() -> None:
    from langchain_core.documents import Document

    from ramem_integrations.langchain import EpisodicDocumentTransformer

    when = "2024-03-12T18:00:00+00:00"
    docs = [
        Document(page_content="OK, see you then.", metadata={"conversation_id": c, "time": when})
        for c in ("with-ann", "with-bob")
    ]
    out = EpisodicDocumentTransformer("alice").transform_documents(docs)
    assert len({d.id for d in out}) == 2
    plain = [Document(page_content="OK.", metadata={"time": when})]
    (kept,) = EpisodicDocumentTransformer("alice").transform_documents(plain)
    old = "\x1f".join(["alice", "user", when, "OK."])  # the default conversation: as before
    assert kept.id == hashlib.sha1(old.encode()).hexdigest()[:32]


def _messages(path: Path, conversation: str, *said: tuple[str, str, str]) -> Path:
    messages = [{"id": i, "role": "user", "content": t, "timestamp": w} for i, t, w in said]
    path.write_text(json.dumps({"conversation_id": conversation, "messages": messages}))
    return path


def test_another_files_replace_never_overwrites_a_memory(tmp_path: Path) -> None:
    """Maya's two quick messages are one memory (turns m1 and m2 of 'week1'); a file whose
    conversation is 'week1\\x1fm1' with a message m2, ingested with --replace, is another
    memory beside it (``ramem ingest`` in processes of their own)."""
    store = tmp_path / "store"
    mine = _messages(
        tmp_path / "mine.json",
        "week1",
        ("m1", "I start at Brightwave on 16 June.", "2025-05-30T19:00:00Z"),
        ("m2", "My cat Miso had a vet visit.", "2025-05-30T19:00:20Z"),
    )
    theirs = _messages(
        tmp_path / "theirs.json", "week1\x1fm1", ("m2", "Nothing happened.", "2025-05-30T19:00:00Z")
    )
    for path, *extra in [(mine,), (theirs, "--replace")]:
        done = ramem("ingest", str(path), "--store", str(store), "--namespace", "maya", *extra)
        assert done.returncode == 0, done.stderr
    contents = sorted(
        u.content for u in RaMem.from_path(store, embedder=HashingEmbedder()).memories("maya")
    )
    assert contents == [
        "I start at Brightwave on 16 June.\nMy cat Miso had a vet visit.",
        "Nothing happened.",
    ]


def test_a_store_holding_old_ids_of_separator_parts_gets_no_duplicate(tmp_path: Path) -> None:
    """Memories stored under the old joined ids of a conversation id holding ``\\x1f`` get new
    ids when that file is ingested again; the stored ones, whose turns the new ones hold with
    the same words, are replaced, not kept beside them."""
    from dataclasses import replace

    from ramem_integrations.core.conversation import Conversation, Session, Turn

    when = datetime(2025, 5, 30, 19, tzinfo=UTC)
    turns = (Turn("t1", "Maya", "I start on 16 June."), Turn("t2", "Sam", "Congrats!"))
    chat = Conversation("week1\x1fcopy", (Session("s1", when, turns),))
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    units = mem.anchor(chat, "maya")

    def old_id(unit: MemoryUnit) -> str:
        key = "\x1f".join(["maya", unit.conversation_id, *unit.source_ids])
        return hashlib.sha1(key.encode("utf-8")).hexdigest()[:32]

    assert not {old_id(u) for u in units} & {u.id for u in units}
    mem.add_memories([replace(u, id=old_id(u)) for u in units])
    mem.add_conversation(chat, "maya")
    stored = mem.memories("maya")
    assert sorted(u.id for u in stored) == sorted(u.id for u in units)
    assert sorted(u.content for u in stored) == ["Congrats!", "I start on 16 June."]
