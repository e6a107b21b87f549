"""A user's day at the command line, each step as a fresh ``ramem`` process: ``--asked-on
today``, listing a namespace's conversations before forgetting one (and a wrong id refused),
``ingest -``, ``--server`` given as a URL, a failing model said once with a non-zero exit,
``ingest --quiet``, an ingest that replaced memories saying so, and a read-only store read."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.reliability.helpers import ChromaServer, free_port
from tests.reliability.test_cli_newcomer import ENV, chat, ramem, two_weeks

pytestmark = [pytest.mark.slow, pytest.mark.reliability]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with two conversations in namespace 'maya' (only read by the tests here)."""
    return two_weeks(tmp_path_factory.mktemp("user-day"))


@pytest.mark.parametrize("day", ["today", "now", "Today"])
def test_asked_on_today_grounds_a_relative_time_against_today(store: Path, day: str) -> None:
    where = ("--store", str(store), "--namespace", "maya")
    done = ramem("query", "What did Maya book last week?", *where, "--asked-on", day)
    assert done.returncode == 0, done.stderr
    today = datetime.now().astimezone().date()
    monday = today - timedelta(days=today.weekday() + 7)  # last week, grounded, lies past 2025
    assert f"'last week': not grounded, {monday.day} {monday:%B %Y} to" in done.stderr


def test_conversations_lists_the_ids_forget_takes(store: Path) -> None:
    where = ("--store", str(store), "--namespace", "maya")
    listed = ramem("conversations", *where)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == ["week1\t2", "week2\t2"]
    assert json.loads(ramem("conversations", *where, "--json").stdout) == {"week1": 2, "week2": 2}


@pytest.mark.parametrize(("asked", "says"), [("NOSUCH", "'week1', 'week2'"), ("week3", "'week")])
def test_forgetting_a_conversation_that_is_not_there_is_refused(
    store: Path, asked: str, says: str
) -> None:
    where = ("--store", str(store), "--namespace", "maya")
    done = ramem("forget", *where, "--conversation", asked)
    assert done.returncode == 2
    assert "0 memories forgotten" not in done.stdout
    assert f"holds no conversation {asked!r}" in done.stderr and says in done.stderr
    assert "ramem conversations" in done.stderr
    assert json.loads(ramem("namespaces", "--store", str(store), "--json", "--counts").stdout) == {
        "maya": 4
    }


def test_ingest_reads_standard_input_quietly(tmp_path: Path) -> None:
    text = chat(tmp_path / "c.json", "I booked a dentist cleaning.").read_text(encoding="utf-8")
    where = ("--store", str(tmp_path / "s"), "--namespace", "maya")
    done = ramem("ingest", "-", *where, "--json", "--quiet", stdin=text)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["added"] == {"maya": 1}
    assert done.stderr == ""  # no progress bar
    again = ramem("ingest", "-", *where, "--json", stdin=text)  # the same words: same ids
    assert json.loads(again.stdout)["added"] == {"maya": 0}
    assert "ingesting" in again.stderr  # without --quiet, the bar


BURST = "[14/03/2024, 22:48:19] Bea: the van cancelled\n"
GROWN = BURST + "[14/03/2024, 22:48:40] Bea: so moving is off\n"


def test_an_ingest_that_replaced_memories_says_so(tmp_path: Path) -> None:
    """A later export where a burst grew: the old memory is replaced by the longer one."""
    where = ("--store", str(tmp_path / "s"))
    for n, text in enumerate((BURST, GROWN)):
        path = tmp_path / f"WhatsApp Chat {n}.txt"
        path.write_text(text, encoding="utf-8")
        done = ramem("ingest", str(path), *where)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "default: 1 memories read, 1 new, 0 changed, 1 replaced by others, 1 stored"
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ChromaServer]:
    started = ChromaServer(tmp_path / "served")
    yield started
    started.kill()


@pytest.mark.parametrize("url", ["http://localhost:{port}", "http://127.0.0.1:{port}/"])
def test_server_given_as_the_url_chroma_prints(
    server: ChromaServer, tmp_path: Path, url: str
) -> None:
    at = ("--server", url.format(port=server.port), "--namespace", "maya")
    path = chat(tmp_path / "w.json", "I booked a dentist cleaning.")
    done = ramem("ingest", str(path), *at)
    assert done.returncode == 0, done.stderr
    hits = json.loads(ramem("query", "dentist", *at, "--json").stdout)
    assert [h["content"] for h in hits] == ["I booked a dentist cleaning."]


def test_a_failing_model_is_said_once_and_the_answer_exits_non_zero(store: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    env = {**ENV, "RAMEM_LLM_MODEL": "m", "RAMEM_LLM_BASE_URL": dead, "RAMEM_LLM_API_KEY": "k"}
    done = subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", "answer", "Where does Maya work?",
         "--store", str(store), "--namespace", "maya"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1
    said = done.stdout + done.stderr
    assert said.count("fell back to the evidence alone") == 1
    assert done.stderr.count("error: ") == 1 and dead in done.stderr
    assert "I start at Brightwave on 16 June." in done.stdout  # the evidence is still shown


def test_a_store_on_a_read_only_mount_is_read_from_a_copy(store: Path, tmp_path: Path) -> None:
    """Query and export work on a read-only mount (a copy is read, and removed); forgetting,
    which would write, is refused with the way out."""
    mounted = tmp_path / "ro"
    mounted.mkdir()
    bind = subprocess.run(["mount", "--bind", str(store), str(mounted)], capture_output=True)
    if bind.returncode != 0:
        pytest.skip(f"no bind mount here: {bind.stderr!r}")
    try:
        remount = subprocess.run(
            ["mount", "-o", "remount,ro,bind", str(mounted)], capture_output=True
        )
        if remount.returncode != 0:
            pytest.skip(f"no read-only remount here: {remount.stderr!r}")
        where = ("--store", str(mounted), "--namespace", "maya")
        query = ramem("query", "dentist", *where, "--json")
        export = ramem("export", *where, "--out", "-")
        forget = ramem("forget", *where, "--all")
    finally:
        subprocess.run(["umount", str(mounted)], check=True)
    assert query.returncode == 0, query.stderr
    assert json.loads(query.stdout)[0]["content"] == "I booked a dentist cleaning."
    assert f"the store at {mounted} is read-only; reading a copy" in query.stderr
    assert export.returncode == 0, export.stderr
    assert json.loads(export.stdout.splitlines()[0])["count"] == 4
    assert forget.returncode == 2 and "cp -r" in forget.stderr
    copies = [p for p in Path(os.environ.get("TMPDIR", "/tmp")).glob("ramem-read-only-*")]
    assert not any((p / "store").exists() for p in copies)  # removed when the command ended
