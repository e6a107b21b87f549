"""Check the messaging-app chats data set: structure, per-message times, sessions and counts.

Run from the repository root: ``python benchmarks/data/chats/check.py``. It prints the counts
(the README's table) and exits non-zero, listing every problem, if a file breaks a rule.
Structure, dia_ids, evidence and loading are checked by the episode set's checker
(``benchmarks/data/episodes/check.py``), imported here; this file adds the per-message times.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import sys
from collections import Counter
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
FILES = {
    "dev": HERE / "chats-dev.json",
    "dev2": HERE / "chats-dev2.json",
    "held": HERE / "chats-held.json",
    "unseen": HERE / "chats-unseen.json",
    "dense-dev": HERE / "chats-dense-dev.json",
    "dense-unseen": HERE / "chats-dense-unseen.json",
}
#: Bounds the design promises (README, issue 17 item 5).
MIN_CONVERSATIONS = {"dev": 3, "dev2": 3, "held": 1, "unseen": 3, "dense-dev": 1, "dense-unseen": 5}
MIN_QUESTIONS = {
    "dev": 60,
    "dev2": 120,
    "held": 20,
    "unseen": 120,
    "dense-dev": 65,
    "dense-unseen": 350,
}
MIN_QUESTIONS_ALL = 90


class Sizes(NamedTuple):
    """Bounds on one conversation: sessions, messages and days from first to last message."""

    sessions: tuple[int, int] = (6, 10)
    messages: tuple[int, int] = (300, 450)
    span_days: tuple[int, int] = (14, 21)


#: Bounds on the first files' conversations; the dense file's are as long as issue 17's real chats.
CHATS = Sizes()
DENSE = Sizes(sessions=(10, 18), messages=(800, 1100), span_days=(18, 23))
SIZES = {"dense": DENSE, "dense-dev": DENSE, "dense-unseen": DENSE}
MESSAGES_PER_SESSION = (20, 110)
#: A silence this long starts a new session; inside a session messages are closer than this.
SESSION_GAP = timedelta(hours=6)


def _load_episodes_check() -> ModuleType:
    """A private copy of the episode set's checker, with the chats' session length."""
    path = HERE.parent / "episodes" / "check.py"
    spec = importlib.util.spec_from_file_location("chats_episodes_check", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    vars(module)["TURNS_PER_SESSION"] = MESSAGES_PER_SESSION  # chat sessions run longer
    return module


episodes = _load_episodes_check()


def parse_timestamp(value: object) -> datetime:
    """Read an ISO 8601 time with its offset, e.g. '2024-03-03T23:42:10+00:00'."""
    if not isinstance(value, str):
        raise ValueError(f"timestamp {value!r} is missing or not text")
    stamp = datetime.fromisoformat(value)
    if stamp.utcoffset() is None:
        raise ValueError(
            f"timestamp {value!r} has no UTC offset: write it like '...T23:42:10+00:00'"
        )
    return stamp


def check_times(
    sample: Mapping[str, Any], problems: list[str], sizes: Sizes = CHATS
) -> Counter[str]:
    """Check per-message times and session bounds; append problems; count midnight crossings."""
    sid = str(sample.get("sample_id", "?"))
    conv = sample["conversation"]
    counts: Counter[str] = Counter()
    n = 1
    first: datetime | None = None
    previous: datetime | None = None
    while f"session_{n}" in conv:
        where = f"{sid} session_{n}"
        stamps: list[datetime] = []
        for turn in conv[f"session_{n}"]:
            try:
                stamps.append(parse_timestamp(turn.get("timestamp")))
            except ValueError as exc:
                problems.append(f"{where} {turn.get('dia_id')}: {exc}")
        if not stamps:
            n += 1
            continue
        first = first or stamps[0]
        if previous is not None and stamps[0] - previous < SESSION_GAP:
            problems.append(f"{where}: starts less than {SESSION_GAP} after the session before")
        for i, (before, after) in enumerate(itertools.pairwise(stamps), 2):
            if after <= before:
                problems.append(f"{where}: message {i} is not later than the one before")
            elif after - before >= SESSION_GAP:
                problems.append(f"{where}: a silence of {after - before} before message {i}")
        try:
            start = episodes.parse_date(conv[f"session_{n}_date_time"])
        except (KeyError, ValueError) as exc:
            problems.append(f"{where}: {exc}")
        else:
            if start != stamps[0].replace(second=0, microsecond=0, tzinfo=None):
                problems.append(
                    f"{where}: date {start} is not its first message's time {stamps[0]}"
                )
        counts["past midnight"] += stamps[-1].date() != stamps[0].date()
        previous = stamps[-1]
        n += 1
    if first is not None and previous is not None:
        days = (previous - first).days
        if not sizes.span_days[0] <= days <= sizes.span_days[1]:
            problems.append(f"{sid}: spans {days} days, expected {sizes.span_days}")
    return counts


def check_chat(
    sample: Mapping[str, Any], problems: list[str], sizes: Sizes = CHATS
) -> Counter[str]:
    """Check one conversation (structure, then times and size); return its counts."""
    counts: Counter[str] = episodes.check_sample(sample, problems)
    counts += check_times(sample, problems, sizes)
    sid = sample.get("sample_id", "?")
    if not sizes.sessions[0] <= counts["sessions"] <= sizes.sessions[1]:
        problems.append(f"{sid}: {counts['sessions']} sessions, expected {sizes.sessions}")
    if not sizes.messages[0] <= counts["turns"] <= sizes.messages[1]:
        problems.append(f"{sid}: {counts['turns']} messages, expected {sizes.messages}")
    return counts


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
        sizes = SIZES.get(name, CHATS)
        totals[name] = sum((check_chat(s, problems, sizes) for s in data), Counter())
        episodes.check_loads(path, problems)
        if totals[name]["conversations"] < MIN_CONVERSATIONS[name]:
            problems.append(f"{path.name}: fewer than {MIN_CONVERSATIONS[name]} conversations")
        if totals[name]["questions"] < MIN_QUESTIONS[name]:
            problems.append(f"{path.name}: fewer than {MIN_QUESTIONS[name]} questions")
    totals["all"] = sum(totals.values(), Counter())
    if totals["all"]["questions"] < MIN_QUESTIONS_ALL:
        problems.append(f"fewer than {MIN_QUESTIONS_ALL} questions in all")
    columns = ["conversations", "sessions", "past midnight", "turns", "questions"]
    columns += [f"category {c}" for c in episodes.CATEGORIES]
    print("| file | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    for name, counts in totals.items():
        print(f"| {name} | " + " | ".join(str(counts[c]) for c in columns) + " |")
    for problem in problems:
        print("PROBLEM:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
