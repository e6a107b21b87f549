"""``ramem demo``: ingest the shipped sample conversation and answer episode-dependent questions.

Runs offline: the packaged embedding model and an embedded Chroma store in a temporary folder.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from ramem_integrations.core.conversation import load_conversations

NAMESPACE = "alice"
#: When the demo's questions are asked: the day after the last session.
ASKED_ON = datetime(2024, 9, 3, 9, 0, tzinfo=UTC)


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
        "What did Alice eat on the trip in May?",
        "s3-lisbon:2",
        "two trips; only the May one is valid",
    ),
    DemoQuestion(
        "What did Alice have for her birthday dinner last year?",
        "s1-birthday-2023:2",
        "two birthdays; only last year's is valid",
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


def run_demo(store: Path | None = None, k: int = 3, *, show_prompt: bool = True) -> int:
    """Ingest the sample; for each question show content-only retrieval beside RaMem."""
    from ramem_integrations.memory.ramem import RaMem

    with tempfile.TemporaryDirectory(prefix="ramem-demo-") as tmp:
        mem = RaMem.from_path(store or Path(tmp))
        (conversation,) = load_conversations(sample_path())
        mem.add_conversation(conversation, NAMESPACE)
        print(
            f"Ingested {mem.count(NAMESPACE)} memories from {len(conversation.sessions)} "
            f"sessions ({conversation.date_range.label()}); questions asked on "
            f"{ASKED_ON:%d %B %Y}.\n"
        )
        wins = 0
        for item in QUESTIONS:
            wins += _show(mem, item, k)
        print(f"RaMem put the right episode first on {wins} of {len(QUESTIONS)} questions.")
        if show_prompt:
            question = QUESTIONS[0].question
            hits = mem.retrieve(question, NAMESPACE, k=k, reference=ASKED_ON)
            print("\nThe context-preserving prompt for the first question:\n")
            print(mem.render(question, hits, namespace=NAMESPACE, reference=ASKED_ON))
    return 0


def _show(mem: Any, item: DemoQuestion, k: int) -> int:
    """Print one question's frame and both rankings; 1 if RaMem's first hit is right."""
    from ramem_integrations.core.prompts import describe_frame

    frame = mem.frame(item.question, NAMESPACE, reference=ASKED_ON)
    print(f"Q: {item.question}   ({item.why})")
    print(f"   frame: {describe_frame(frame) if frame.is_grounded else 'no grounded condition'}")
    firsts = []
    for mode in ("content", "ramem"):
        hits = mem.retrieve(item.question, NAMESPACE, k=k, mode=mode, reference=ASKED_ON)
        print(f"   {mode}:")
        for rank, hit in enumerate(hits, 1):
            mark = "right" if item.expected_source in hit.memory.source_ids else "     "
            print(f"     {rank}. [{mark}] {hit.memory.content}")
            print(
                f"        {hit.memory.context.session_span.label()}; {hit.reason}"
                + (f" ({', '.join(hit.matched)})" if hit.matched else "")
            )
        firsts.append(bool(hits) and item.expected_source in hits[0].memory.source_ids)
    print()
    return int(firsts[1])
