"""Time at the command line, through real subprocesses: the README's "now" question, the
relative times a question leaves ungrounded, ``answer --asked-on``, zone abbreviations."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ramem_integrations

pytestmark = pytest.mark.slow

ROOT = Path(ramem_integrations.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}

#: The README's chat.json ("Use it").
README_CHAT = [
    {"session_time": "2023-08-20 19:00", "turns": [
        {"speaker": "Bob",
         "text": "The trip to Lisbon was great, the trams were my favourite part."},
        {"speaker": "Alice", "text": "I still work at Contoso Coffee."}]},
    {"session_time": "2023-09-28 18:00", "turns": [
        {"speaker": "Bob", "text": "We are planning a trip to Rome with the kids."},
        {"speaker": "Alice", "text": "I started a new job at Northwind this week."}]},
]  # fmt: skip


def ramem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", *args],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=300,
    )


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("cli-time")
    chat = where / "chat.json"
    chat.write_text(json.dumps(README_CHAT), encoding="utf-8")
    done = ramem("ingest", str(chat), "--store", str(where / "memory"), "--namespace", "alice")
    assert done.returncode == 0, done.stderr
    return where / "memory"


def test_the_readme_now_question_returns_northwind_first(store: Path) -> None:
    asked = ["--store", str(store), "--namespace", "alice", "--asked-on", "2023-10-02"]
    done = ramem("query", "Where does Alice work now?", *asked, "--json")
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)
    assert hits[0]["content"] == "I started a new job at Northwind this week."
    assert "not grounded" not in done.stderr


@pytest.mark.parametrize("command", ["query", "answer"])
def test_a_relative_time_without_asked_on_is_reported(store: Path, command: str) -> None:
    where = ["--store", str(store), "--namespace", "alice"]
    done = ramem(command, "What did Alice say about work last week?", *where)
    assert done.returncode == 0, done.stderr
    assert "note: 'last week': not grounded, no --asked-on given; pass --asked-on " in done.stderr
    dated = ramem(command, "What did Alice say about work last week?", *where,
                  "--asked-on", "2023-10-02")  # fmt: skip
    assert dated.returncode == 0, dated.stderr
    assert "not grounded" not in dated.stderr


def test_answer_json_names_the_times_not_grounded(store: Path) -> None:
    where = ["--store", str(store), "--namespace", "alice", "--json"]
    undated = json.loads(ramem("answer", "What did Bob plan last week?", *where).stdout)
    (missed,) = undated["not_grounded"]
    assert missed["text"] == "last week" and "--asked-on" in missed["reason"]
    dated = ramem("answer", "What did Bob plan last week?", *where, "--asked-on", "2023-10-02")
    assert json.loads(dated.stdout)["not_grounded"] == []


@pytest.mark.parametrize(
    ("written", "start"),
    [
        ("2023-05-08T13:56:00 PST", "2023-05-08T13:56:00-08:00"),
        ("2023-05-08T13:56:00 CEST", "2023-05-08T13:56:00+02:00"),
        ("2023-05-08T13:56:00-08:00", "2023-05-08T13:56:00-08:00"),
    ],
)
def test_a_zone_abbreviation_is_read(tmp_path: Path, written: str, start: str) -> None:
    chat = tmp_path / "chat.json"
    turns = [{"speaker": "Ann", "text": "I went hiking yesterday."}]
    chat.write_text(json.dumps([{"session_time": written, "turns": turns}]), encoding="utf-8")
    done = ramem("ingest", str(chat), "--store", str(tmp_path / "m"))
    assert done.returncode == 0 and "warn" not in done.stderr.lower(), done.stderr
    hits = json.loads(ramem("query", "hiking", "--store", str(tmp_path / "m"),
                            "--namespace", "default", "--json").stdout)  # fmt: skip
    assert hits[0]["context"]["session_span"]["start"] == start


def test_an_ambiguous_zone_abbreviation_is_refused(tmp_path: Path) -> None:
    chat = tmp_path / "chat.json"
    turns = [{"speaker": "Ann", "text": "I went hiking yesterday."}]
    session = {"session_time": "2023-05-08T13:56:00 CST", "turns": turns}
    chat.write_text(json.dumps([session]), encoding="utf-8")
    done = ramem("ingest", str(chat), "--store", str(tmp_path / "m"))
    assert done.returncode == 2
    assert "'CST' cannot be read" in done.stderr and "-06:00" in done.stderr
    assert not (tmp_path / "m" / "chroma.sqlite3").exists() or "stored" not in done.stdout
