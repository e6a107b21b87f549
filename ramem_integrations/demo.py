"""``ramem demo``: ingest the shipped sample conversation and answer episode-dependent questions.

Runs offline: the packaged embedding model and an embedded Chroma store in a temporary folder.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ramem_integrations.core.conversation import load_conversations

NAMESPACE = "alice"


@dataclass(frozen=True)
class DemoQuestion:
    question: str
    expected_source: str  # the turn id whose episode answers it
    why: str


QUESTIONS = (
    DemoQuestion(
        "What did the dentist say last March?",
        "s2-dentist-march:2",
        "two dentist visits; only the March one is valid",
    ),
    DemoQuestion(
        "What did Alice eat on the trip with Bob?",
        "s3-lisbon:2",
        "two trips; only the one with Bob is valid",
    ),
    DemoQuestion(
        "What did Alice have for her birthday in 2023?",
        "s1-birthday-2023:2",
        "two birthdays; only the 2023 one is valid",
    ),
    DemoQuestion(
        "Where does Alice work now?",
        "s6-birthday-2024:4",
        "the job changed; the latest episode is valid",
    ),
)


def sample_path() -> Path:
    """The shipped sample conversation (plain chat format)."""
    return Path(str(resources.files("ramem_integrations") / "data" / "demo_conversation.json"))


def run_demo(store: Path | None = None, k: int = 3) -> int:
    """Ingest the sample and print, for each question, what retrieval finds."""
    from ramem_integrations.cli import coordinates_line
    from ramem_integrations.memory import RaMem

    with tempfile.TemporaryDirectory(prefix="ramem-demo-") as tmp:
        mem = RaMem.from_path(store or Path(tmp))
        (conversation,) = load_conversations(sample_path())
        mem.add_conversation(conversation, NAMESPACE)
        print(f"Ingested {mem.count(NAMESPACE)} memories from {len(conversation.sessions)} sessions.\n")
        for item in QUESTIONS:
            print(f"Q: {item.question}    ({item.why})")
            for rank, hit in enumerate(mem.retrieve(item.question, NAMESPACE, k=k), 1):
                mark = "*" if item.expected_source in hit.memory.source_ids else " "
                print(f" {mark}{rank}. {hit.memory.content}")
                print(f"     {coordinates_line(hit.memory)}")
            print()
    return 0
