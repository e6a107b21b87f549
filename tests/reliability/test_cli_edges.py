"""The ``ramem`` command at its edges, through real subprocesses: a Telegram time that is not a
number, folders that are symbolic link loops, an empty ``--store``, and memory text holding
terminal escape sequences (shown escaped; ``--json`` keeps it exact)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.reliability.test_cli_newcomer import ENV, chat
from tests.reliability.test_cli_newcomer import ramem as run_ramem

pytestmark = pytest.mark.reliability

#: No model configured: ``ramem answer`` shows its evidence without calling one.
QUIET = {k: v for k, v in ENV.items() if not k.startswith(("RAMEM_LLM", "OPENAI"))}


def ramem(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``ramem ARGS`` in a fresh interpreter, with no model configured."""
    return run_ramem(*args, cwd=cwd, env=QUIET)


def refused(done: subprocess.CompletedProcess[str], *says: str) -> None:
    """Exit 2 with one error line saying what was wrong, not an unexpected failure."""
    assert done.returncode == 2, done.stderr
    assert "unexpected" not in done.stderr and "Traceback" not in done.stderr
    for words in says:
        assert words in done.stderr


def test_a_telegram_time_that_is_a_list_is_refused(tmp_path: Path) -> None:
    message = {"id": 11, "type": "message", "date": "2024-03-15T00:13:02",
               "date_unixtime": [1710450782], "from": "Bea", "text": "hello"}  # fmt: skip
    export = tmp_path / "result.json"
    export.write_text(json.dumps({"id": 7, "messages": [message]}))
    store = tmp_path / "store"
    done = ramem("ingest", str(export), "--store", str(store), "--format", "telegram")
    refused(done, "message 0: 'date_unixtime' [1710450782] is not epoch seconds")
    assert not store.exists()


@pytest.fixture
def loop(tmp_path: Path) -> Path:
    """A symbolic link ``a`` to ``b``, and ``b`` to ``a``."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    return tmp_path / "a"


def test_a_symlink_loop_as_store_is_refused(tmp_path: Path, loop: Path) -> None:
    source = str(chat(tmp_path / "c.json", "I booked a dentist cleaning."))
    for store in (loop, loop / "store"):
        done = ramem("ingest", source, "--store", str(store), "--namespace", "maya")
        refused(done, f"error: Could not open a store at {store}")


def test_a_symlink_loop_as_out_is_refused(tmp_path: Path, loop: Path) -> None:
    source = str(chat(tmp_path / "c.json", "I booked a dentist cleaning."))
    store = tmp_path / "store"
    assert ramem("ingest", source, "--store", str(store), "--namespace", "maya").returncode == 0
    for out in (loop, loop / "backup.jsonl"):
        done = ramem("export", "--store", str(store), "--namespace", "maya", "--out", str(out))
        refused(done, f"error: Could not write the backup {out}")


def test_an_empty_store_is_refused_not_the_current_folder(tmp_path: Path) -> None:
    source = str(chat(tmp_path / "c.json", "I booked a dentist cleaning."))
    here = tmp_path / "here"
    here.mkdir()
    commands = [["ingest", source, "--namespace", "m"], ["query", "dentist", "--namespace", "m"],
                ["namespaces"], ["demo"]]  # fmt: skip
    for command in commands:
        refused(
            ramem(*command, "--store", "", cwd=here), "argument --store: the store path is empty"
        )
    assert list(here.iterdir()) == []


def test_an_empty_store_path_is_refused_before_chroma_opens_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``RaMem.from_path("")`` takes the path through ``hold`` first; Chroma itself would write
    ``/chroma.sqlite3`` for an empty path, so this checks ``hold``, not Chroma."""
    from ramem_integrations.errors import StoreError
    from ramem_integrations.stores.process_lock import hold

    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match="The store path is empty"):
        hold("")
    assert list(tmp_path.iterdir()) == []


#: Memory text a terminal would act on: colour, a window title, a bell, a cursor move.
ESCAPES = "the dentist \x1b[31mcancelled\x1b[0m\x1b]0;pwned\x07 \x9b2J done\r"


def test_query_and_answer_show_terminal_escapes_escaped(tmp_path: Path) -> None:
    source = str(chat(tmp_path / "c.json", ESCAPES))
    store = str(tmp_path / "store")
    assert ramem("ingest", source, "--store", store, "--namespace", "maya").returncode == 0
    where = ("--store", store, "--namespace", "maya")
    for command in ("query", "answer"):
        done = ramem(command, "What did the dentist do?", *where)
        assert done.returncode == 0, done.stderr
        controls = [c for c in done.stdout if (ord(c) < 32 and c != "\n") or 127 <= ord(c) <= 159]
        assert controls == [], command
        shown = r"the dentist \x1b[31mcancelled\x1b[0m\x1b]0;pwned\x07 \x9b2J done\r"
        assert f" 1. {shown}\n" in done.stdout, command
    exact = json.loads(ramem("query", "What did the dentist do?", *where, "--json").stdout)
    assert exact[0]["content"] == ESCAPES  # --json: the words as stored
