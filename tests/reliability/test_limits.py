"""Input limits: a message, a query, a file and its JSON nesting (issue 31, case 14).

Each limit is checked before anything is written (or the store created), refused with a
``LimitError`` that names the limit, the value found and the option raising it, and raising
the limit lets the same input through. Files that are not text (``/dev/urandom``,
``/dev/zero``) are refused within seconds, and a UTF-8 byte-order mark is read everywhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

import ramem_integrations.memory.answering  # noqa: F401  (loaded before the timed calls: it loads openai)
from ramem_integrations.app.backup import export_namespace, import_file, read_export
from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.core.limits import Limits
from ramem_integrations.errors import LimitError, RamemError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import within

pytestmark = pytest.mark.reliability

WHEN = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
BIG = 10 * 1024 * 1024  # 10 MB of text: took 97 s and 1.6 GB before it was refused


def memory(path: Path, **kwargs: object) -> RaMem:
    return RaMem.from_path(path, embedder=HashingEmbedder(), **kwargs)  # type: ignore[arg-type]


def ramem(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The ``ramem`` command in a fresh process (this checkout's code)."""
    return subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", *args],
        capture_output=True, text=True, timeout=60, cwd=cwd, env=os.environ,
    )  # fmt: skip


def test_a_10mb_message_is_refused_at_once_naming_the_limit(tmp_path: Path) -> None:
    mem = memory(tmp_path / "store")
    turns = [{"speaker": "Ann", "text": "hello"}, {"speaker": "Ben", "text": "x " * (BIG // 2)}]
    with pytest.raises(LimitError) as refused:
        within(1.0, lambda: mem.add_turns(turns, "ns", session_time=WHEN))
    message = str(refused.value)
    assert "turn 'ns" not in message and "turn '" in message  # names the turn
    assert f"{BIG:,} characters" in message and "100,000" in message
    assert "message_chars" in message and "--max-message-chars" in message
    assert mem.namespaces() == {}


def test_a_raised_message_limit_lets_a_long_message_in(tmp_path: Path) -> None:
    text = "the pottery class was fun " * 5_000  # 130,000 characters
    turns = [{"speaker": "Ann", "text": text}]
    with pytest.raises(LimitError):
        memory(tmp_path / "a").add_turns(turns, "ns", session_time=WHEN)
    mem = memory(tmp_path / "b", limits=Limits(message_chars=200_000))
    mem.add_turns(turns, "ns", session_time=WHEN)
    assert [m.content for m in mem.memories("ns")] == [text]


def test_a_10mb_query_is_refused_at_once_naming_the_limit(tmp_path: Path) -> None:
    mem = memory(tmp_path / "store")
    mem.add_turns([{"speaker": "Ann", "text": "I took a pottery class"}], "ns", session_time=WHEN)
    query = "pottery " * (BIG // 8)
    for call in (
        lambda: mem.retrieve(query, "ns"),
        lambda: mem.retrieve(query, "ns", mode="bm25"),
        lambda: mem.frame(query, "ns"),
        lambda: mem.answer(query, "ns"),
    ):
        with pytest.raises(LimitError, match=r"10,485,760 characters.*10,000.*--max-query-chars"):
            within(1.0, call)
    long_query = "pottery " * 2_000  # 16,000 characters: in with a raised limit
    mem.limits = Limits(query_chars=20_000)
    assert [h.memory.content for h in mem.retrieve(long_query, "ns")] == ["I took a pottery class"]


def test_a_file_over_the_size_limit_is_refused_before_the_store_exists(tmp_path: Path) -> None:
    turns = [{"speaker": "Ann", "text": f"message {i}"} for i in range(100)]
    source = tmp_path / "chat.json"
    source.write_text(json.dumps([{"session_time": "2023-05-08", "turns": turns}]))
    store = tmp_path / "store"
    done = ramem("ingest", str(source), "--store", str(store), "--max-file-bytes", "1000",
                 cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and "unexpected" not in done.stderr
    assert "over 1,000 bytes" in done.stderr and "--max-file-bytes" in done.stderr
    assert not store.exists()
    with pytest.raises(LimitError, match="file_bytes"):
        load_conversations(source, limits=Limits(file_bytes=1000))
    assert len(load_conversations(source)[0].sessions[0].turns) == 100


@pytest.mark.parametrize("command", ["ingest", "import"])
@pytest.mark.parametrize("device", ["/dev/urandom", "/dev/zero"])
def test_a_device_that_is_not_text_is_refused_within_seconds(
    tmp_path: Path, command: str, device: str
) -> None:
    store = tmp_path / "store"
    started = time.monotonic()
    done = ramem(command, device, "--store", str(store), cwd=tmp_path)
    took = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and "unexpected" not in done.stderr
    assert ("not UTF-8" in done.stderr) or ("NUL byte" in done.stderr)
    assert took < 30 and not store.exists()


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [150, 100_000])
def test_deep_json_is_refused_naming_the_depth_limit(tmp_path: Path, levels: int) -> None:
    source = tmp_path / "deep.json"
    source.write_text(deep(levels))
    with pytest.raises(LimitError, match=r"nested .*over the limit of 100.*--max-json-depth"):
        within(5.0, lambda: load_conversations(source, "chat"))
    backup = tmp_path / "deep.jsonl"
    header = {"format": "ramem-export", "version": 1, "namespace": "ns", "count": 1}
    backup.write_text(json.dumps(header) + "\n" + deep(levels) + "\n")
    with pytest.raises(LimitError, match=r"line 2: the JSON is nested .*--max-json-depth"):
        within(5.0, lambda: read_export(backup))
    done = ramem("import", str(backup), "--store", str(tmp_path / "store"), cwd=tmp_path)
    assert done.returncode == 2 and "json_depth" in done.stderr
    assert "unexpected" not in done.stderr and not (tmp_path / "store").exists()


def test_a_utf8_byte_order_mark_is_read_everywhere(tmp_path: Path) -> None:
    bom = "\ufeff"
    chat = tmp_path / "chat.json"
    turns = [{"speaker": "Ann", "text": "I took a pottery class"}]
    chat.write_text(bom + json.dumps([{"session_time": "2023-05-08", "turns": turns}]))
    whatsapp = tmp_path / "chat.txt"
    whatsapp.write_text(bom + "[14/03/2024, 22:48:19] Bea: ugh\n[14/03/2024, 22:49:02] Al: why\n")
    telegram = tmp_path / "result.json"
    message = {"id": 1, "type": "message", "date": "2024-03-15T00:13:02", "from": "Bea",
               "text": "ugh"}  # fmt: skip
    telegram.write_text(bom + json.dumps({"id": 7, "messages": [message]}))
    for path, words in ((chat, "pottery"), (whatsapp, "ugh"), (telegram, "ugh")):
        loaded = load_conversations(path)
        assert words in loaded[0].sessions[0].turns[0].text, path.name
    mem = memory(tmp_path / "store")
    mem.add_conversations(load_conversations(chat), "ns")
    backup = tmp_path / "ns.jsonl"
    export_namespace(mem, "ns", backup)
    backup.write_text(bom + backup.read_text(encoding="utf-8"), encoding="utf-8")
    other = memory(tmp_path / "other")
    counts = import_file(other, backup)
    assert (counts["read"], counts["added"], counts["written"]) == (1, 1, 1)
    assert [m.content for m in other.memories("ns")] == ["I took a pottery class"]
    done = ramem("ingest", str(chat), "--store", str(tmp_path / "cli"), "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stored"] == {"default": 1}


def test_limits_are_checked_for_sense(tmp_path: Path) -> None:
    for bad in ({"message_chars": 0}, {"query_chars": -1}, {"file_bytes": 1.5},
                {"json_depth": True}):  # fmt: skip
        with pytest.raises(RamemError, match="must be a positive integer"):
            Limits(**bad)  # type: ignore[arg-type]
    done = ramem("query", "x " * 6_000, "--store", str(tmp_path), "--namespace", "ns",
                 cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2  # the store does not exist: refused either way


LONG = "N" * 200_000  # a name of 200,000 characters (a 10 MiB speaker took 14.7 s and 1.2 GB)


def _unit_with(mem: RaMem, **context: object) -> list[object]:
    from dataclasses import replace

    (unit,) = mem.anchor_turns([{"speaker": "Ann", "text": "hi"}], "ns", session_time=WHEN)
    return [replace(unit, context=replace(unit.context, **context))]


#: (the field the error names, a write giving it a 200,000-character value)
NAMED_FIELDS = [
    ("speaker", lambda m: m.add_turns([{"speaker": LONG, "text": "hi"}], "ns", session_time=WHEN)),
    ("session id", lambda m: m.add_turns([{"speaker": "A", "text": "hi"}], "ns",
                                         session_time=WHEN, session_id=LONG)),
    ("conversation id", lambda m: m.add_turns([{"speaker": "A", "text": "hi"}], "ns",
                                              session_time=WHEN, conversation_id=LONG)),
    ("namespace", lambda m: m.add_turns([{"speaker": "A", "text": "hi"}], LONG,
                                        session_time=WHEN)),
    ("participants", lambda m: m.add_memories(_unit_with(m, participants=("Ann", LONG)))),
    ("location", lambda m: m.add_memories(_unit_with(m, location=LONG))),
    ("entities", lambda m: m.add_memories(_unit_with(m, entities=(LONG,)))),
    ("topic", lambda m: m.add_memories(_unit_with(m, topic=LONG))),
]  # fmt: skip


@pytest.mark.parametrize(("field", "write"), NAMED_FIELDS, ids=[f for f, _ in NAMED_FIELDS])
def test_every_name_a_caller_gives_is_limited(tmp_path: Path, field: str, write: object) -> None:
    mem = memory(tmp_path / "store")
    with pytest.raises(LimitError) as refused:
        write(mem)  # type: ignore[operator]
    message = str(refused.value)
    assert field in message and "200,000 characters" in message
    assert "over the limit of 1,000" in message and "--max-name-chars" in message
    assert len(message) < 1_000  # the name is cut, not repeated whole
    assert mem.namespaces() == {}  # nothing was written
    mem.limits = Limits(name_chars=300_000)  # a raised limit lets it in
    write(mem)  # type: ignore[operator]
    assert sum(mem.namespaces().values()) == 1


@pytest.mark.parametrize("part", ["key", "label", "value"])
def test_a_langgraph_key_label_or_value_over_its_limit_writes_nothing(
    tmp_path: Path, part: str
) -> None:
    """A 32 MiB LangGraph key left 370 MB on disk."""
    from ramem_integrations.langgraph import RaMemStore

    store = RaMemStore(memory(tmp_path / "store"), clock=lambda: WHEN)
    namespace, key, value = ("memories", "alice"), "m1", {"text": "I took a pottery class"}
    if part == "key":
        key = LONG
    elif part == "label":
        namespace = ("memories", LONG)
    else:
        value = {"text": "I took a pottery class", "notes": "x" * 200_000}  # not indexed
    with pytest.raises(LimitError, match=r"over the limit of .*(name|message)_chars") as refused:
        store.put(namespace, key, value)
    assert isinstance(refused.value, ValueError)
    assert store.memory.namespaces() == {} and list(store.search(("memories",))) == []
