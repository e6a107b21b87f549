"""The ``ramem`` command as a newcomer uses it (issue 34, items 1-7), through real subprocesses.

Forget from the command line; import from standard input; a start-up that loads neither
chromadb nor numpy for ``--help``; errors that advise what the command can do, and ``--server``;
counts and progress in memories, not messages;
query output whose order and layout can be read.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import ramem_integrations
from tests.reliability.helpers import ChromaServer

pytestmark = pytest.mark.reliability

#: The subprocesses run the package this test imports (a worktree, or another checkout).
ROOT = Path(ramem_integrations.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def ramem(
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``ramem ARGS`` in a fresh interpreter, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "ramem_integrations.app.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=ENV if env is None else env,
        cwd=cwd,
        timeout=300,
    )


def chat(path: Path, *turns: str, conversation: str = "week1") -> Path:
    sessions = [
        {
            "conversation_id": conversation,
            "session_time": "2025-05-30 19:00",
            "turns": [{"speaker": "Maya", "text": t} for t in turns],
        }
    ]
    path.write_text(json.dumps(sessions), encoding="utf-8")
    return path


def two_weeks(tmp: Path) -> Path:
    """A store under ``tmp`` with two conversations, week1 and week2, in namespace 'maya'."""
    where = tmp / "store"
    for name, turns in {
        "week1": ("I start at Brightwave on 16 June.", "My cat Miso had a vet visit."),
        "week2": ("We fly to Lisbon in August.", "I booked a dentist cleaning."),
    }.items():
        path = chat(tmp / f"{name}.json", *turns, conversation=name)
        done = ramem("ingest", str(path), "--store", str(where), "--namespace", "maya")
        assert done.returncode == 0, done.stderr
    return where


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A store with two conversations in namespace 'maya'."""
    return two_weeks(tmp_path)


# -- 1. ramem forget ---------------------------------------------------------------------
def test_forget_deletes_from_the_command_line_and_an_emptied_namespace_says_so(
    store: Path,
) -> None:
    where = ("--store", str(store), "--namespace", "maya")
    done = ramem("forget", *where, "--conversation", "week1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"namespace": "maya", "forgotten": 2}
    assert json.loads(ramem("namespaces", "--store", str(store), "--json", "--counts").stdout) == {
        "maya": 2
    }
    typo = ramem("forget", "--store", str(store), "--namespace", "mya", "--all")
    assert typo.returncode == 2 and "Did you mean 'maya'?" in typo.stderr
    assert ramem("forget", *where, "--all").returncode == 0
    empty = ramem("query", "dentist", *where)
    assert empty.returncode == 0 and "namespace 'maya' is empty" in empty.stdout
    unsaid = ramem("forget", *where)  # what to forget must be said: nothing by default
    assert unsaid.returncode == 2 and "--conversation" in unsaid.stderr


# -- 2. import - ---------------------------------------------------------------------------
def test_import_reads_a_backup_from_standard_input(store: Path, tmp_path: Path) -> None:
    backup = ramem("export", "--store", str(store), "--namespace", "maya", "--out", "-")
    assert backup.returncode == 0, backup.stderr
    other = tmp_path / "other"
    done = ramem(
        "import", "-", "--store", str(other), "--namespace", "copy", "--json", stdin=backup.stdout
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["added"] == 4
    assert json.loads(ramem("namespaces", "--store", str(other), "--json", "--counts").stdout) == {
        "copy": 4
    }


# -- 3. start-up ---------------------------------------------------------------------------
@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_load_neither_chromadb_nor_numpy(flag: str) -> None:
    probe = (
        "import sys\nfrom ramem_integrations.app.cli import main\n"
        f"try:\n    main([{flag!r}])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('chromadb', 'numpy', 'onnxruntime') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=ENV, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_eval_still_parses_its_own_arguments() -> None:
    done = ramem("eval", "--help")
    assert done.returncode == 0 and "--systems" in done.stdout and "--budgets" in done.stdout


# -- 4. advice the command can follow; --server ---------------------------------------------
def test_errors_advise_command_options_not_api_arguments(store: Path) -> None:
    typo = ramem("query", "dentist", "--store", str(store), "--namespace", "nobody")
    assert typo.returncode == 2 and "missing_ok" not in typo.stderr
    assert f"'ramem namespaces --store {store}'" in typo.stderr
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom ramem_integrations.stores.process_lock import "
         f"hold\nhold({str(store)!r})\nprint('held', flush=True)\nsys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        busy = ramem("query", "dentist", "--store", str(store), "--namespace", "maya")
    finally:
        holder.communicate("", timeout=60)
    assert busy.returncode == 2 and "open in another process" in busy.stderr
    assert "--server localhost:8000" in busy.stderr and "from_client" not in busy.stderr


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ChromaServer]:
    started = ChromaServer(tmp_path / "served")
    yield started
    started.kill()


def test_ingest_query_and_export_work_against_a_server(
    server: ChromaServer, tmp_path: Path
) -> None:
    at = ("--server", f"127.0.0.1:{server.port}")
    path = chat(tmp_path / "w.json", "I booked a dentist cleaning.", "We fly to Lisbon.")
    assert ramem("ingest", str(path), *at, "--namespace", "maya").returncode == 0
    hits = json.loads(ramem("query", "dentist", *at, "--namespace", "maya", "--json").stdout)
    assert hits[0]["content"] == "I booked a dentist cleaning."
    backup = ramem("export", *at, "--namespace", "maya", "--out", "-").stdout.splitlines()
    assert json.loads(backup[0])["count"] == 2 and len(backup) == 3


# -- 5. a read-only store: tests/reliability/test_cli_user_day.py ---------------------------


# -- 6. counts and progress in memories -----------------------------------------------------
def whatsapp(path: Path, messages: int) -> Path:
    """An export where each person sends two lines a few seconds apart (one memory each)."""
    start, lines = datetime(2024, 3, 14, 9, tzinfo=UTC), []
    for n in range(messages):
        when = start + timedelta(minutes=5 * (n // 2), seconds=10 * (n % 2))
        who = ("Bea", "Marcus")[(n // 2) % 2]
        lines.append(f"[{when:%d/%m/%Y, %H:%M:%S}] {who}: message {n} about the garden")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_progress_and_counts_are_in_memories_and_a_re_ingest_adds_nothing(
    tmp_path: Path,
) -> None:
    path, where = whatsapp(tmp_path / "chat.txt", 60), str(tmp_path / "s")
    first = ramem("ingest", str(path), "--store", where, "--json")
    assert first.returncode == 0, first.stderr
    counts = json.loads(first.stdout)
    memories = counts["stored"]["default"]
    done, total = re.findall(r"(\d+)/(\d+)", first.stderr)[-1]
    assert int(done) == int(total) == memories < 60  # the bar counts memories, to the end
    assert counts["read"] == {"default": memories}
    again = json.loads(ramem("ingest", str(path), "--store", where, "--json").stdout)
    assert again == {
        "read": {"default": memories},
        "added": {"default": 0},
        "changed": {"default": 0},
        "replaced": {"default": 0},
        "stored": {"default": memories},
    }


# -- 7. query output -------------------------------------------------------------------------
def test_query_output_says_how_it_is_ordered_and_keeps_lines_under_their_rank(
    tmp_path: Path,
) -> None:
    path = chat(tmp_path / "w.json", "Shopping list:\nmilk\neggs", "I booked a dentist cleaning.")
    where = ("--store", str(tmp_path / "s"), "--namespace", "maya")
    assert ramem("ingest", str(path), *where).returncode == 0
    out = ramem("query", "shopping list milk", *where).stdout
    assert "ranked by content" not in out and "order: memories meeting the conditions" in out
    assert " 1. Shopping list:\n    milk\n    eggs\n" in out
    assert re.findall(r"content score \d\.\d{3}", out)
    usage = ramem("--help").stdout
    assert "``" not in usage and "reembed" in usage and "forget" in usage
