"""Chat files as a newcomer ingests and queries them (issue 34, items 9 and 10), through real
``ramem`` subprocesses and the packaged model.

A reaction inside another person's burst stays its sender's words; nicknames ("Sammy", "Jo",
"Trixie") ground as the participant they name, learned over everything in the namespace and
seen by a fresh process; docs/chat-format.md's own example puts the laptop message first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ramem_integrations

pytestmark = pytest.mark.reliability

#: The subprocesses run the package this test imports (a worktree, or another checkout).
ROOT = Path(ramem_integrations.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

#: The chat of docs/chat-format.md's example: "trixie" is said once.
DOCS_CHAT = (
    "[14/03/2024, 22:48:19] Bea: ugh\n"
    "[14/03/2024, 22:49:02] Marcus: hey trixie what happened\n"
    "[14/03/2024, 22:50:11] Bea: the van cancelled\n"
    "so moving is off\n"
    "[15/03/2024, 00:13:02] Bea: memphis threw up on my laptop yesterday\n"
)


def ramem(*args: str) -> subprocess.CompletedProcess[str]:
    """``ramem ARGS`` in a fresh interpreter, as a user runs it; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done


def stored(store: Path, namespace: str) -> list[tuple[str, str]]:
    """(speaker, verbatim text) of every memory, read back with ``ramem export``."""
    out = ramem("export", "--store", str(store), "--namespace", namespace, "--out", "-").stdout
    rows = [json.loads(line) for line in out.splitlines()[1:]]
    return sorted((row["metadata"]["speaker"], row["content"]) for row in rows)


def query(store: Path, namespace: str, question: str, k: int = 1) -> list[dict[str, object]]:
    where = ("--store", str(store), "--namespace", namespace)
    hits: list[dict[str, object]] = json.loads(
        ramem("query", question, *where, "--k", str(k), "--json").stdout
    )
    return hits


def conditions(store: Path, namespace: str, question: str) -> str:
    """The line of ``ramem query``'s text output that says which conditions it read."""
    out = ramem("query", question, "--store", str(store), "--namespace", namespace, "--k", "1")
    return out.stdout.splitlines()[0]


@pytest.fixture(scope="module")
def friends(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two WhatsApp exports ingested into namespace 'friends': Sam and Alice, Joanna and Alice."""
    store = tmp_path_factory.mktemp("chat") / "store"
    for name in ("whatsapp_sam.txt", "whatsapp_joanna.txt"):
        ramem("ingest", str(FIXTURES / name), "--store", str(store), "--namespace", "friends")
    return store


# -- 9. a reaction inside a burst is its sender's -----------------------------------------
def test_a_reaction_inside_a_burst_is_stored_as_its_senders_words(friends: Path) -> None:
    memories = stored(friends, "friends")
    sam = [text for speaker, text in memories if speaker == "Sam"]
    # Alice's "🎉" came 20 s into Sam's burst: the burst goes on, without her reaction ...
    assert "got the job!!\nI start at the bakery in July\nsourdough shift, 5am starts" in sam
    assert not any("🎉" in text or "lol" in text.split("\n") for text in sam)
    # ... and it is Alice's own memory, verbatim, as is her "lol" inside Sam's next burst
    assert ("Alice", "🎉") in memories
    assert ("Alice", "lol") in memories
    assert ("Sam", "burnt two loaves but the owner laughed it off\n"
            "she said everyone burns the first batch") in memories  # fmt: skip
    # a reaction and what its sender writes straight after are one memory of theirs
    assert ("Alice", "noooo\nare you still flying to Lisbon on friday") in memories
    # every message is stored once, under the person who sent it
    lines = [line for _, text in memories for line in text.split("\n")]
    assert len(lines) == len(set(lines)) == 16  # the messages of both files


# -- 10. nicknames ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "read", "top"),
    [
        (
            "What did Sammy say about the bakery?",
            "participant = Sam (from 'Sammy')",
            "got the job!!\nI start at the bakery in July\nsourdough shift, 5am starts",
        ),
        (
            "What happened to Jo's passport?",
            "participant = Joanna (from 'Jo')",
            "the dog ate my passport\nthe actual passport",
        ),
        (
            "Where is Ali flying?",
            "participant = Alice (from 'Ali')",
            "noooo\nare you still flying to Lisbon on friday",
        ),
    ],
)
def test_a_nickname_grounds_as_the_participant(
    friends: Path, question: str, read: str, top: str
) -> None:
    assert read in conditions(friends, "friends", question)
    assert query(friends, "friends", question)[0]["content"] == top


def test_aliases_add_up_over_the_chats_of_a_namespace(tmp_path: Path) -> None:
    """Each export says "trixie" once; the namespace has heard it twice, so even a question
    in lower case means Bea, in a process that ingested neither."""
    store = str(tmp_path / "store")
    week1 = tmp_path / "week1.txt"
    week1.write_text(DOCS_CHAT, encoding="utf-8")
    week2 = tmp_path / "week2.txt"
    week2.write_text(
        "[21/03/2024, 21:02:00] Marcus: night trixie\n"
        "[21/03/2024, 21:03:10] Bea: van booked for sunday, moving is on\n",
        encoding="utf-8",
    )
    for path in (week1, week2):
        ramem("ingest", str(path), "--store", store, "--namespace", "bea")
    read = conditions(Path(store), "bea", "what did trixie say about moving?")
    assert "participant = Bea (from 'trixie')" in read


def test_the_docs_example_puts_the_laptop_message_first(tmp_path: Path) -> None:
    """docs/chat-format.md, "WhatsApp and Telegram exports": its file and its two commands."""
    docs = (ROOT / "docs" / "chat-format.md").read_text(encoding="utf-8")
    for line in DOCS_CHAT.splitlines():
        assert f'"{line}\\n"' in docs  # the file the docs write
    chat = tmp_path / "WhatsApp Chat with Bea.txt"
    chat.write_text(DOCS_CHAT, encoding="utf-8")
    store = tmp_path / "memories"
    ramem("ingest", str(chat), "--store", str(store))
    question = "What happened to Trixie's laptop?"
    assert "participant = Bea (from 'Trixie')" in conditions(store, "default", question)
    (hit,) = query(store, "default", question)
    assert hit["content"] == "memphis threw up on my laptop yesterday"


@pytest.mark.parametrize(
    "question",
    [
        "what did sammy say about the bakery?",  # lower case: no name
        "Sammy said what about the bakery?",  # opening the question: capitalised as any word
    ],
)
def test_a_short_form_not_written_as_a_name_grounds_nothing(friends: Path, question: str) -> None:
    assert "names no time, person, place or event" in conditions(friends, "friends", question)
