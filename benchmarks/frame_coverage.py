"""How often the rule frame inducer finds grounded conditions in LoCoMo questions, and whether its
time ranges point at the sessions that hold the evidence.

For each conversation: memories from ``RuleAnchorer`` give the :class:`KnownContext` (speakers,
places, entities, dates); each question is read by :class:`RuleFrameInducer` with the end of the
conversation as the reference (LoCoMo questions carry no date). Reported per category:

- grounded: the frame has at least one grounded condition; beyond speakers: one other than a
  participant condition on one of the conversation's speakers (weak in a two-person chat, where
  both speakers are in every session);
- time: it has a grounded time range (``RecallFrame.time_range``);
- session hit: of the questions with a time range and resolvable evidence, the fraction whose
  range overlaps the session span of at least one evidence turn;
- session/event hit: the same, counting also an evidence turn whose event time (as the rule
  anchorer read it) falls in the range: what the retriever checks;
- the session hit again, split by whether the question's time words are all absolute
  ("May 2023", "7 July, 2023") or include a relative one ("recently", "last year").

Usage::

    python benchmarks/frame_coverage.py /work/shared/data/locomo-dev.json [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, load_conversations
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.time.grounding import find_times
from ramem_integrations.core.types import MemoryUnit, RecallFrame, TimeSpan

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
_EVIDENCE_ID = re.compile(r"D(\d+):(\d+)")
_NOW = datetime(2000, 1, 1, tzinfo=UTC)  # never used: frames here always carry a reference


@dataclass
class Tally:
    questions: int = 0
    grounded: int = 0
    beyond_speakers: int = 0
    timed: int = 0
    checkable: int = 0
    session_hits: int = 0
    event_hits: int = 0
    absolute: Counter[bool] = field(default_factory=Counter)  # session hit -> count
    relative: Counter[bool] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)

    def row(self) -> dict[str, Any]:
        return {
            "questions": self.questions,
            "grounded": _share(self.grounded, self.questions),
            "grounded_beyond_speakers": _share(self.beyond_speakers, self.questions),
            "time": _share(self.timed, self.questions),
            "time_questions": self.timed,
            "checkable": self.checkable,
            "session_hit": _share(self.session_hits, self.checkable),
            "session_or_event_hit": _share(self.event_hits, self.checkable),
            "absolute_checkable": self.absolute.total(),
            "absolute_session_hit": _share(self.absolute[True], self.absolute.total()),
            "relative_checkable": self.relative.total(),
            "relative_session_hit": _share(self.relative[True], self.relative.total()),
            "grounded_kinds": dict(sorted(self.kinds.items())),
        }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def evidence_units(qa: dict[str, Any], by_turn: dict[str, MemoryUnit]) -> list[MemoryUnit]:
    """The memories of the question's evidence turns; messy ids are split, unknown ones skipped."""
    ids = [f"D{s}:{t}" for item in qa.get("evidence", []) for s, t in _EVIDENCE_ID.findall(item)]
    return [by_turn[i] for i in ids if i in by_turn]


def hits(span: TimeSpan, units: list[MemoryUnit]) -> tuple[bool, bool]:
    """(a session span overlaps, a session span or an event time overlaps)."""
    session = any(u.context.session_span.overlaps(span) for u in units)
    event = any(u.context.event_time and u.context.event_time.overlaps(span) for u in units)
    return session, session or event


def count(
    tally: Tally, frame: RecallFrame, units: list[MemoryUnit], speakers: tuple[str, ...]
) -> None:
    tally.questions += 1
    tally.grounded += frame.is_grounded
    tally.beyond_speakers += any(
        c.kind != "participant" or c.value not in speakers for c in frame.grounded
    )
    tally.kinds.update({c.kind for c in frame.grounded})
    span = frame.time_range
    if span is None:
        return
    tally.timed += 1
    if units:
        tally.checkable += 1
        session, either = hits(span, units)
        tally.session_hits += session
        tally.event_hits += either
        relative = any(f.relative for f in find_times(frame.query, frame.reference or _NOW))
        (tally.relative if relative else tally.absolute)[session] += 1


def measure(path: Path) -> dict[str, Any]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    conversations = {c.id: c for c in load_conversations(path)}
    inducer = RuleFrameInducer()
    tallies: dict[int, Tally] = defaultdict(Tally)
    for sample in raw:
        conversation: Conversation = conversations[str(sample["sample_id"])]
        units = RuleAnchorer().anchor(conversation, "x")
        known = KnownContext.from_memories(units)
        by_turn = {u.source_ids[0]: u for u in units}
        reference = conversation.date_range.end
        for qa in sample["qa"]:
            frame = inducer.induce(qa["question"], reference=reference, known=known)
            for key in (int(qa["category"]), 0):
                count(tallies[key], frame, evidence_units(qa, by_turn), conversation.speakers)
    return {str(k or "all"): tallies[k].row() for k in sorted(tallies, key=lambda k: k or 9)}


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def table(rows: dict[str, Any]) -> str:
    lines = [
        "| category | questions | grounded | beyond speakers | time range | checkable "
        "| session hit | session or event hit | absolute words: hit | relative words: hit |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key, row in rows.items():
        name = f"{key} {CATEGORIES[int(key)]}" if key != "all" else "all"
        lines.append(
            f"| {name} | {row['questions']} | {_pct(row['grounded'])} "
            f"| {_pct(row['grounded_beyond_speakers'])} | {_pct(row['time'])} "
            f"| {row['checkable']} | {_pct(row['session_hit'])} "
            f"| {_pct(row['session_or_event_hit'])} "
            f"| {_pct(row['absolute_session_hit'])} of {row['absolute_checkable']} "
            f"| {_pct(row['relative_session_hit'])} of {row['relative_checkable']} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a LoCoMo JSON file")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    rows = measure(args.path)
    print(table(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
