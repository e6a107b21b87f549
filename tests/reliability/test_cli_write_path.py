"""The write path through the ``ramem`` command (issue 13, items 1, 5, 8 and 9).

Two chat files never overwrite each other; changed text is refused unless replaced on purpose;
``--out -`` and pipes are written in place, never renamed over; a misspelled namespace, a
missing store, an unknown namespace on export, a directory as input, a closed pipe and Ctrl-C
each end with one line and a non-zero exit, never a traceback; the chat formats people have
are read.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ramem_integrations.app import cli
from ramem_integrations.app.demo import sample_path
from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.errors import DataFormatError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import conversation_json, synthetic_conversation
from tests.test_cli import fake_embedder, run  # noqa: F401  (the hashing embedder, autouse)

pytestmark = pytest.mark.reliability

RAMEM = Path(sys.executable).with_name("ramem")


def chat(path: Path, *turns: str, **extra: object) -> Path:
    sessions = [
        {
            "session_time": "2025-05-30 19:00",
            "turns": [{"speaker": "Maya", "text": t} for t in turns],
            **extra,
        }
    ]
    path.write_text(json.dumps(sessions), encoding="utf-8")
    return path


WEEK1 = ("I start at Brightwave as a designer on 16 June.", "My cat Miso had a vet visit.")
WEEK2 = ("We fly to Lisbon from 18 to 24 August.", "I booked a dentist cleaning.")


# -- 1. ids never collide silently --------------------------------------------------------
def test_a_second_chat_file_does_not_replace_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "st")
    week1, week2 = chat(tmp_path / "week1.json", *WEEK1), chat(tmp_path / "week2.json", *WEEK2)
    for path in (week1, week2, week1):  # the third is a re-ingest: idempotent
        code, _, err = run(capsys, "ingest", str(path), "--store", store, "--namespace", "maya")
        assert code == 0, err
    texts = {m.content for m in RaMem.from_path(store).memories("maya")}
    assert texts == {*WEEK1, *WEEK2}  # writes lost: 0


def test_conversation_id_from_the_file_or_the_flag(tmp_path: Path) -> None:
    own = chat(tmp_path / "own.json", *WEEK1, conversation_id="maya-chat")
    assert [c.id for c in load_conversations(own)] == ["maya-chat"]
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(
        json.dumps({"conversation_id": "w", "sessions": json.loads(own.read_text())})
    )
    assert [c.id for c in load_conversations(wrapped)] == ["maya-chat"]  # the session's own wins
    plain = chat(tmp_path / "plain.json", *WEEK1)
    assert load_conversations(plain, conversation_id="given")[0].id == "given"
    digest = load_conversations(plain)[0].id
    assert digest.startswith("chat-") and digest == load_conversations(plain)[0].id
    assert digest != load_conversations(chat(tmp_path / "other.json", *WEEK2))[0].id


def test_changed_text_is_refused_until_replaced_on_purpose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "st")
    first = chat(tmp_path / "a.json", *WEEK1)
    edited = chat(tmp_path / "b.json", WEEK1[0], "My cat Miso had a vet visit on Monday.")
    args = ["--store", store, "--namespace", "maya", "--conversation", "maya"]
    assert run(capsys, "ingest", str(first), *args)[0] == 0
    code, _, err = run(capsys, "ingest", str(edited), *args)
    assert code == 2 and "--replace" in err and "Nothing was written" in err
    assert err.rstrip().splitlines()[-1].startswith("error: ") and "Traceback" not in err
    assert sum(line.startswith("error") for line in err.splitlines()) == 1
    assert {m.content for m in RaMem.from_path(store).memories("maya")} == set(WEEK1)
    assert run(capsys, "ingest", str(edited), *args, "--replace")[0] == 0
    stored = {m.content for m in RaMem.from_path(store).memories("maya")}
    assert stored == {WEEK1[0], "My cat Miso had a vet visit on Monday."}


def test_add_turns_refuses_other_text_under_the_same_ids(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from ramem_integrations.errors import MemoryConflictError

    mem = RaMem.from_path(tmp_path / "st", embedder=HashingEmbedder())
    when = datetime(2025, 5, 30, 19, tzinfo=UTC)
    mem.add_turns([{"speaker": "Maya", "text": WEEK1[0]}], "maya", session_time=when)
    again = [{"speaker": "Maya", "text": WEEK2[0]}]
    with pytest.raises(MemoryConflictError, match="replace=True"):
        mem.add_turns(again, "maya", session_time=when)
    assert [m.content for m in mem.memories("maya")] == [WEEK1[0]]
    mem.add_turns(again, "maya", session_time=when, replace=True)
    assert [m.content for m in mem.memories("maya")] == [WEEK2[0]]


# -- 5. export never renames over what is not a regular file ---------------------------------
@pytest.fixture
def store_with_memories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    store = str(tmp_path / "st")
    run(capsys, "ingest", str(chat(tmp_path / "w.json", *WEEK1)), "--store", store)
    return store


def test_export_to_standard_output(store_with_memories: str, capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(
        capsys, "export", "--store", store_with_memories, "--namespace", "default", "--out", "-"
    )
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and rows[0]["count"] == 2 and {r["content"] for r in rows[1:]} == set(WEEK1)


def test_export_into_a_pipe_writes_in_place(
    store_with_memories: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    code, _, err = run(
        capsys,
        "export",
        "--store",
        store_with_memories,
        "--namespace",
        "default",
        "--out",
        str(fifo),
    )
    reader.join(30)
    assert code == 0, err
    assert stat.S_ISFIFO(fifo.stat().st_mode)  # still a pipe, not replaced by a file
    assert len(got[0].splitlines()) == 3
    link = tmp_path / "link.jsonl"
    target = tmp_path / "real.jsonl"
    target.write_text("old")
    link.symlink_to(target)
    assert run(capsys, "export", "--store", store_with_memories, "--namespace", "default",
               "--out", str(link), "--overwrite")[0] == 0  # fmt: skip
    assert link.is_symlink() and len(target.read_text().splitlines()) == 3
    code, _, err = run(
        capsys, "export", "--store", store_with_memories, "--namespace", "default",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert code == 2 and "is a directory" in err


# -- 8. silent empties and tracebacks -----------------------------------------------------
def test_misspelled_namespace_missing_store_and_unknown_export(
    store_with_memories: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "query", "cat", "--store", store_with_memories,
                         "--namespace", "defualt")  # fmt: skip
    assert code == 2 and "'defualt'" in err and "Did you mean 'default'" in err and not out
    missing = tmp_path / "nowhere"
    code, _, err = run(capsys, "query", "cat", "--store", str(missing), "--namespace", "default")
    assert code == 2 and "does not exist" in err and not missing.exists()  # nothing created
    out_file = tmp_path / "x.jsonl"
    code, _, err = run(capsys, "export", "--store", store_with_memories, "--namespace", "nobody",
                       "--out", str(out_file))  # fmt: skip
    assert code == 2 and "'nobody'" in err and not out_file.exists()
    code, _, err = run(capsys, "ingest", str(tmp_path), "--store", str(tmp_path / "s2"))
    assert code == 2 and "is a directory" in err
    for message in (err,):
        assert "Traceback" not in message and message.count("\n") == 1


def test_closed_pipe_is_quiet(tmp_path: Path) -> None:
    store = tmp_path / "st"  # written by the real command, with the packaged embedder
    ingest = [str(RAMEM), "ingest", str(sample_path()), "--store", str(store)]
    subprocess.run([*ingest, "--namespace", "default"], check=True, capture_output=True)
    command = (
        f"'{RAMEM}' query dentist --store '{store}' --namespace default --json "
        '| head -1; echo "status ${PIPESTATUS[0]}"'
    )
    done = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert done.stdout.splitlines()[0] == "["
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.stdout.splitlines()[-1] in ("status 0", "status 141")
    # a reader that is gone before the first write: the write always meets a closed pipe
    closed = command.replace("| head -1", "| true")
    done = subprocess.run(["bash", "-c", closed], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "status 141" and done.stderr == "", done.stderr


def test_ctrl_c_during_ingest_then_a_rerun_finishes(tmp_path: Path) -> None:
    conversation = synthetic_conversation("big", sessions=40, turns=60, seed=3)
    source = tmp_path / "big.json"
    source.write_text(json.dumps(conversation_json(conversation)))
    store = tmp_path / "st"
    args = [str(RAMEM), "ingest", str(source), "--store", str(store), "--namespace", "n"]
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a background job inherits SIGINT ignored; a user's terminal delivers it
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None
    seen = ""
    deadline = time.monotonic() + 120
    while "mem/s" not in seen and "mem]" not in seen and time.monotonic() < deadline:
        seen += proc.stderr.read(1)  # the progress bar has started: a write is under way
    proc.send_signal(signal.SIGINT)
    _, rest = proc.communicate(timeout=120)
    err = (seen + rest).replace("\r", "\n")
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("interrupted:")
    done = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert RaMem.from_path(store, embedder=HashingEmbedder()).count("n") == 40 * 60


# -- 9. the chat formats people have ---------------------------------------------------------
MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant."},
    {"role": "user", "name": "Maya", "content": WEEK1[0], "timestamp": "2025-05-30T19:00:00Z"},
    {"role": "assistant", "content": "Congratulations!", "created_at": 1748631660},
    {"role": "user", "name": "Maya", "content": WEEK2[0], "created_at": "2025-06-02 08:00"},
]


@pytest.mark.parametrize(
    "shape",
    ["json-list", "json-object", "jsonl"],
)
def test_openai_messages(tmp_path: Path, shape: str) -> None:
    path = tmp_path / ("m.jsonl" if shape == "jsonl" else "m.json")
    if shape == "json-list":
        path.write_text(json.dumps(MESSAGES))
    elif shape == "json-object":
        path.write_text(json.dumps({"conversation_id": "maya", "messages": MESSAGES}))
    else:
        path.write_text("\n".join(json.dumps(m) for m in MESSAGES) + "\n")
    (conversation,) = load_conversations(path)
    turns = [(t.speaker, t.text, t.time) for s in conversation.sessions for t in s.turns]
    assert [t[:2] for t in turns] == [
        ("Maya", WEEK1[0]),
        ("assistant", "Congratulations!"),
        ("Maya", WEEK2[0]),
    ]  # the system message is not anyone's words
    assert turns[1][2] is not None and turns[1][2].isoformat() == "2025-05-30T19:01:00+00:00"
    assert len(conversation.sessions) == 2  # three days apart: two sessions
    assert conversation.id == ("maya" if shape == "json-object" else conversation.id)


def test_chat_turns_as_messages_with_epoch_times(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps([{"session_time": 1748631600, "turns": [
        {"role": "user", "content": "Hello  there ", "timestamp": 1748631601},
    ]}]))  # fmt: skip
    (conversation,) = load_conversations(path)
    (turn,) = conversation.sessions[0].turns
    assert (turn.speaker, turn.text, turn.time.isoformat() if turn.time else None) == (
        "user",
        "Hello  there ",
        "2025-05-30T19:00:01+00:00",
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"hello": 1}', "The formats read are locomo"),
        ("[1, 2]", "messages: OpenAI-style messages"),
        ('[{"role": "user", "content": "hi"}]', "Give the first message a 'timestamp'"),
        ('[{"role": "user", "content": "hi", "timestamp": 1748631601000}]', "milliseconds"),
        ("not json\nat all", "neither JSON"),
    ],
)
def test_unreadable_files_name_the_formats(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(content)
    with pytest.raises(DataFormatError, match=message):
        load_conversations(path)


def test_version_and_help_for_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("ramem ")
    parser = cli.build_parser()
    missing = []
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, sub in [("ramem", parser), *subparsers.choices.items()]:  # type: ignore[union-attr]
        for action in sub._actions:
            if action.dest not in ("help", "command") and not action.help:
                missing.append(f"{name} {action.option_strings or action.dest}")
    assert missing == []


def test_query_text_says_why_and_which_conditions(
    store_with_memories: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "query", "What did Maya say about Miso in May 2025?",
                       "--store", store_with_memories, "--namespace", "default")  # fmt: skip
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("conditions read: time = May 2025")
    assert any(line.strip().startswith("why: meets") for line in lines)
