"""Check the recurring-episodes data set: structure, dates, dia_ids, evidence and counts.

Run from the repository root: ``python benchmarks/data/episodes/check.py``. It prints the counts
(the README's table) and exits non-zero, listing every problem, if a file breaks a rule. It also
loads each file through the package's LoCoMo loader and checks that no evidence id needed repair.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from dateutil import parser as date_parser

HERE = Path(__file__).resolve().parent
FILES = {"dev": HERE / "episodes-dev.json", "held": HERE / "episodes-held.json"}
#: Minimum counts the design promises (README, issue 12 item 6).
MIN_CONVERSATIONS = {"dev": 3, "held": 1}
MIN_QUESTIONS = {"dev": 60, "held": 20}
MIN_SESSIONS_ALL = 30
MIN_QUESTIONS_ALL = 80
TURNS_PER_SESSION = (8, 20)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
SESSION_KEY = re.compile(r"session_(\d+)")


def parse_date(text: str) -> datetime:
    """Read '7:20 pm on 15 March, 2022' strictly: the pattern, then dateutil."""
    if not re.fullmatch(r"\d{1,2}:\d{2} [ap]m on \d{1,2} [A-Z][a-z]+, \d{4}", text):
        raise ValueError(f"date {text!r} is not written like '7:20 pm on 15 March, 2022'")
    parsed: datetime = date_parser.parse(text.replace(" on ", " "))
    return parsed


def check_sample(sample: Mapping[str, Any], problems: list[str]) -> Counter[str]:
    """Check one conversation; append problems; return its counts."""
    sid = str(sample.get("sample_id", "?"))
    conv = sample["conversation"]
    speakers = {conv["speaker_a"], conv["speaker_b"]}
    numbers = sorted(int(m.group(1)) for k in conv if (m := SESSION_KEY.fullmatch(k)))
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{sid}: sessions are not numbered 1..n: {numbers}")
    counts: Counter[str] = Counter(conversations=1, sessions=len(numbers))
    turn_ids: set[str] = set()
    previous: datetime | None = None
    for n in numbers:
        where = f"{sid} session_{n}"
        try:
            start = parse_date(conv[f"session_{n}_date_time"])
        except (KeyError, ValueError) as exc:
            problems.append(f"{where}: {exc}")
            continue
        if previous is not None and start <= previous:
            problems.append(f"{where}: starts before the session before it")
        previous = start
        turns = conv[f"session_{n}"]
        if not TURNS_PER_SESSION[0] <= len(turns) <= TURNS_PER_SESSION[1]:
            problems.append(f"{where}: {len(turns)} turns, expected {TURNS_PER_SESSION}")
        for i, turn in enumerate(turns, 1):
            if turn.get("dia_id") != f"D{n}:{i}":
                problems.append(f"{where}: turn {i} has dia_id {turn.get('dia_id')!r}")
            if turn.get("speaker") not in speakers:
                problems.append(f"{where}: turn {i} speaker {turn.get('speaker')!r} unknown")
            if not str(turn.get("text", "")).strip():
                problems.append(f"{where}: turn {i} has no text")
            turn_ids.add(str(turn.get("dia_id")))
        counts["turns"] += len(turns)
    seen: set[str] = set()
    for i, qa in enumerate(sample.get("qa", [])):
        where = f"{sid} qa {i}"
        if qa.get("category") not in CATEGORIES:
            problems.append(f"{where}: category {qa.get('category')!r} not in 1-4")
        if not str(qa.get("question", "")).strip() or not str(qa.get("answer", "")).strip():
            problems.append(f"{where}: empty question or answer")
        if qa["question"] in seen:
            problems.append(f"{where}: duplicate question")
        seen.add(qa["question"])
        evidence = qa.get("evidence") or []
        if not evidence:
            problems.append(f"{where}: no evidence")
        missing = [e for e in evidence if e not in turn_ids]
        problems.extend(f"{where}: evidence {e!r} is not a turn" for e in missing)
        counts["questions"] += 1
        counts[f"category {qa.get('category')}"] += 1
    return counts


def check_loads(path: Path, problems: list[str]) -> None:
    """Load through the package, as ``ramem eval locomo`` does; no evidence may need repair."""
    try:
        from ramem_integrations.evaluation.datasets import load_locomo
    except ImportError:
        problems.append("cannot import ramem_integrations: run with the project's .venv/bin/python")
        return
    dataset = load_locomo(path)
    if dataset.issues.as_dict():
        problems.append(f"{path.name}: evidence issues {dataset.issues.as_dict()}")


def main() -> int:
    problems: list[str] = []
    totals: dict[str, Counter[str]] = {}
    for name, path in FILES.items():
        if not path.exists():
            problems.append(f"{path.name} is missing")
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        ids = [s.get("sample_id") for s in data]
        if len(set(ids)) != len(ids):
            problems.append(f"{path.name}: duplicate sample_id")
        totals[name] = sum((check_sample(s, problems) for s in data), Counter())
        check_loads(path, problems)
        if totals[name]["conversations"] < MIN_CONVERSATIONS[name]:
            problems.append(f"{path.name}: fewer than {MIN_CONVERSATIONS[name]} conversations")
        if totals[name]["questions"] < MIN_QUESTIONS[name]:
            problems.append(f"{path.name}: fewer than {MIN_QUESTIONS[name]} questions")
    totals["all"] = sum(totals.values(), Counter())
    if totals["all"]["sessions"] < MIN_SESSIONS_ALL:
        problems.append(f"fewer than {MIN_SESSIONS_ALL} sessions in all")
    if totals["all"]["questions"] < MIN_QUESTIONS_ALL:
        problems.append(f"fewer than {MIN_QUESTIONS_ALL} questions in all")
    columns = ["conversations", "sessions", "turns", "questions"]
    columns += [f"category {c}" for c in CATEGORIES]
    print("| file | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for name, counts in totals.items():
        print(f"| {name} | " + " | ".join(str(counts[c]) for c in columns) + " |")
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
