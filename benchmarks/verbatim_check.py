"""Check that every stored turn's text equals the input text (issue 13: texts changed 0).

Reads the input straight from the JSON (LoCoMo or chat sessions), not through the loader,
ingests the file into a fresh store with the packaged embedder, reads every memory back and
compares. Prints the counts as JSON; exits 1 if any text differs or any turn is missing::

    .venv/bin/python benchmarks/verbatim_check.py /work/shared/data/locomo-dev.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.memory import RaMem


def input_texts(data: Any) -> dict[tuple[str, str], str]:
    """(conversation id, turn id) -> text as written in the file (LoCoMo or chat sessions)."""
    texts: dict[tuple[str, str], str] = {}
    if isinstance(data, list) and data and "conversation" in data[0]:
        for index, sample in enumerate(data):
            sample_id = str(sample.get("sample_id", f"sample-{index}"))
            for key, turns in sample["conversation"].items():
                if key.startswith("session_") and isinstance(turns, list):
                    texts.update({(sample_id, t["dia_id"]): t["text"] for t in turns})
        return texts
    for index, session in enumerate(data):
        sid = session.get("session_id", f"session_{index + 1}")
        for j, turn in enumerate(session["turns"]):
            texts[("", turn.get("id") or f"{sid}:{j + 1}")] = turn["text"]
    return texts


def check(path: Path) -> dict[str, int]:
    expected = input_texts(json.loads(path.read_text(encoding="utf-8")))
    conversations = load_conversations(path)
    chat = not any(cid for cid, _ in expected)
    with tempfile.TemporaryDirectory() as tmp:
        mem = RaMem.from_path(tmp)
        mem.add_conversations(conversations, "check")
        stored = {
            ("" if chat else m.conversation_id, m.source_ids[0]): m.content
            for m in mem.memories("check")
        }
    differing = sum(1 for key, text in expected.items() if key in stored and stored[key] != text)
    return {
        "input turns": len(expected),
        "stored memories": len(stored),
        "missing": sum(1 for key in expected if key not in stored),
        "texts changed": differing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a LoCoMo or chat-sessions JSON file")
    counts = check(parser.parse_args().path)
    print(json.dumps(counts, indent=2))
    sys.exit(1 if counts["missing"] or counts["texts changed"] else 0)


if __name__ == "__main__":
    main()
