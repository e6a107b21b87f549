"""A file never chooses whose memories it changes: an export whose header, or a LoCoMo file
whose ``sample_id``, names a namespace the store holds is refused unless the caller names it;
and what a stored memory says (words, speaker, time) changes only with ``--replace``, counted
in the report. Real ``ramem`` processes, as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.test_cli_newcomer import ramem

pytestmark = pytest.mark.reliability

YEAR = 365 * 24 * 3600


def _export(store: str, namespace: str, out: Path) -> bytes:
    """The namespace's export (through standard output), also written to ``out``."""
    done = ramem("export", "--store", store, "--namespace", namespace, "--out", "-")
    assert done.returncode == 0, done.stderr
    out.write_text(done.stdout)
    return done.stdout.encode()


def _forged(export: Path, out: Path) -> Path:
    """Bob's export with its first memory said by Mallory a year earlier, and one memory more."""
    header, *rows = [json.loads(line) for line in export.read_text().splitlines()]
    meta = rows[0]["metadata"]
    meta["speaker"] = "Mallory"
    for key, value in list(meta.items()):
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and key.endswith(("start", "end"))
        ):
            meta[key] = value - YEAR
    injected = json.loads(json.dumps(rows[1]))
    injected["id"], injected["content"] = "f" * 32, "Bob owes Mallory 500."
    injected["metadata"]["source_ids"] = ["forged:1"]
    injected["metadata"].pop("restatement", None)
    rows.append(injected)
    header["count"] = len(rows)
    out.write_text("".join(json.dumps(line) + "\n" for line in [header, *rows]))
    return out


@pytest.fixture
def bob(tmp_path: Path) -> tuple[str, Path]:
    store, chat = str(tmp_path / "store"), tmp_path / "chat.json"
    turns = ["I start at Brightwave on 16 June.", "My cat Miso saw the vet.", "We fly to Lisbon."]
    chat.write_text(
        json.dumps(
            [
                {
                    "session_time": "2025-05-30 19:00",
                    "turns": [{"speaker": "Bob", "text": t} for t in turns],
                }
            ]
        )
    )
    done = ramem("ingest", str(chat), "--store", store, "--namespace", "bob")
    assert done.returncode == 0, done.stderr
    return store, tmp_path


def test_an_export_naming_a_stored_namespace_needs_the_caller_to_name_it(
    bob: tuple[str, Path],
) -> None:
    store, tmp = bob
    before = _export(store, "bob", tmp / "bob.jsonl")
    forged = _forged(tmp / "bob.jsonl", tmp / "forged.jsonl")

    done = ramem("import", str(forged), "--store", store)
    assert done.returncode != 0
    assert "--namespace bob" in done.stderr and "nothing was written" in done.stderr
    assert _export(store, "bob", tmp / "after.jsonl") == before

    named = ramem("import", str(forged), "--store", store, "--namespace", "bob")
    assert named.returncode != 0
    assert "would be overwritten with different speaker and time" in named.stderr
    assert _export(store, "bob", tmp / "after.jsonl") == before

    replaced = ramem("import", str(forged), "--store", store, "--namespace", "bob", "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert replaced.stdout.strip() == (
        "4 memories read into namespace 'bob': 1 added, 1 changed, 2 already stored"
    )


def _locomo(path: Path, sample: str, speaker: str, year: int, extra: bool = False) -> Path:
    first = [
        {"speaker": speaker, "dia_id": "D1:1", "text": "I went to my first pottery class."},
        {"speaker": "Ben", "dia_id": "D1:2", "text": "I have been training for a marathon."},
    ]
    if extra:
        first.append({"speaker": "Anna", "dia_id": "D1:3", "text": "I owe Ben 500 dollars."})
    conversation: dict[str, Any] = {
        "speaker_a": "Anna",
        "speaker_b": "Ben",
        "session_1_date_time": f"1:00 pm on 8 May, {year}",
        "session_1": first,
    }
    path.write_text(json.dumps([{"sample_id": sample, "conversation": conversation, "qa": []}]))
    return path


def _memories(store: str, namespace: str, tmp: Path) -> list[tuple[str, str, int]]:
    rows = [json.loads(line) for line in _export(store, namespace, tmp / "x.jsonl").splitlines()]
    return sorted(
        (r["content"], r["metadata"]["speaker"], r["metadata"]["session_start"]) for r in rows[1:]
    )


def test_a_locomo_sample_id_naming_a_stored_namespace_needs_the_caller_to_name_it(
    tmp_path: Path,
) -> None:
    store = str(tmp_path / "store")
    mine = _locomo(tmp_path / "mine.json", "anna-ben", "Anna", 2023)
    first = ramem("ingest", str(mine), "--store", store, "--json")  # a new namespace: fine
    assert first.returncode == 0, first.stderr
    again = ramem("ingest", str(mine), "--store", store, "--json")  # the same file: a no-op
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["changed"] == {"anna-ben": 0}
    before = _memories(store, "anna-ben", tmp_path)
    theirs = _locomo(tmp_path / "theirs.json", "anna-ben", "Mallory", 2022, extra=True)

    done = ramem("ingest", str(theirs), "--store", store)
    assert done.returncode != 0
    assert "'anna-ben' (2 memories)" in done.stderr and "--namespace anna-ben" in done.stderr
    assert _memories(store, "anna-ben", tmp_path) == before

    named = ramem("ingest", str(theirs), "--store", store, "--namespace", "anna-ben")
    assert named.returncode != 0
    assert "would be overwritten with different speaker and time" in named.stderr
    assert _memories(store, "anna-ben", tmp_path) == before

    replaced = ramem(
        "ingest", str(theirs), "--store", store, "--namespace", "anna-ben", "--replace", "--json"
    )
    assert replaced.returncode == 0, replaced.stderr
    report = json.loads(replaced.stdout)
    assert (report["added"], report["changed"]) == ({"anna-ben": 1}, {"anna-ben": 2})
