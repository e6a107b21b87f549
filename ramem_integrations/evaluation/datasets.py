"""Evaluation datasets: LoCoMo and LongMemEval questions with their ground-truth evidence.

Conversations come from :func:`~ramem_integrations.core.conversation.load_conversations`; this
module adds the questions. LoCoMo's evidence ids are messy ('D8:6; D9:17', 'D01:03', 'D:11:26',
'D', ids of turns that do not exist): :func:`resolve_evidence` repairs what it can and counts the
rest in :class:`EvidenceIssues`, never raising. A question left with no evidence is kept for
answers but excluded from recall (and counted).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ramem_integrations.core.conversation import Conversation, load_conversations, parse_datetime
from ramem_integrations.core.jsondata import literal_list, read_json
from ramem_integrations.errors import DataFormatError, InvalidInputError

#: LoCoMo's question categories, as numbered in its data.
LOCOMO_CATEGORIES = {
    "1": "multi-hop",
    "2": "temporal",
    "3": "open-domain",
    "4": "single-hop",
    "5": "adversarial",
}
#: Categories scored for retrieval (5, adversarial, has no answer in the conversation).
RETRIEVAL_CATEGORIES = ("1", "2", "3", "4")

_ID = re.compile(r"^D\s*:?\s*0*(\d+)\s*:\s*0*(\d+)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Asked:
    """All a system may know of a question: its words, whom it is asked of, and when.

    ``asked_at`` is the question's own date when the data gives one (LongMemEval), else None:
    LoCoMo questions carry no date, and RaMem then does not ground relative times in them.
    The gold answer, category and evidence stay with the :class:`Question`, out of reach.
    """

    text: str
    namespace: str
    asked_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """One question, the conversation (namespace) it is asked of, and its evidence.

    ``evidence_turns`` are turn ids; ``evidence_sessions`` session ids (LongMemEval's
    answer_session_ids; for LoCoMo the sessions of the evidence turns). ``reference`` is the
    date answers are read against (LongMemEval's question_date; for LoCoMo, which gives
    questions no date, the end of the conversation); ``dated`` says whether the data gave it.
    Systems never see this object, only its :attr:`asked` view.
    """

    id: str
    namespace: str
    text: str
    answer: str
    category: str
    reference: datetime
    dated: bool = False  # True when the data gives the question's own date
    evidence_turns: tuple[str, ...] = ()
    evidence_sessions: tuple[str, ...] = ()

    @property
    def asked(self) -> Asked:
        """What a system is given: the text, the namespace and the question's own date."""
        return Asked(self.text, self.namespace, self.reference if self.dated else None)


@dataclass
class EvidenceIssues:
    """Counts of evidence ids that needed repair or could not be resolved, by kind."""

    counts: Counter[str] = field(default_factory=Counter)

    def add(self, kind: str, n: int = 1) -> None:
        if n:
            self.counts[kind] += n

    def as_dict(self) -> dict[str, int]:
        return dict(sorted(self.counts.items()))


@dataclass(frozen=True)
class Dataset:
    """Conversations and the questions asked of them, ready for the runner."""

    name: str
    conversations: tuple[Conversation, ...]
    questions: tuple[Question, ...]
    categories: tuple[str, ...]
    issues: EvidenceIssues

    def limited(self, n: int | None) -> Dataset:
        """The first ``n`` conversations and their questions."""
        if n is None:
            return self
        kept = self.conversations[:n]
        ids = {c.id for c in kept}
        questions = tuple(q for q in self.questions if q.namespace in ids)
        return Dataset(self.name, kept, questions, self.categories, self.issues)

    def only(self, ids: Sequence[str] | None) -> Dataset:
        """The conversations with these ids (in the file's order) and their questions."""
        if not ids:
            return self
        known = [c.id for c in self.conversations]
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise InvalidInputError(
                f"No conversation {', '.join(map(repr, unknown))} in the data; "
                f"it has: {', '.join(known)}."
            )
        kept = tuple(c for c in self.conversations if c.id in set(ids))
        questions = tuple(q for q in self.questions if q.namespace in set(ids))
        return Dataset(self.name, kept, questions, self.categories, self.issues)


def load_dataset(name: str, path: str | Path) -> Dataset:
    """Load ``locomo`` or ``longmemeval`` questions from a local file."""
    loaders = {"locomo": load_locomo, "longmemeval": load_longmemeval}
    if name not in loaders:
        raise DataFormatError(f"Unknown dataset {name!r}; use one of: {', '.join(loaders)}.")
    return loaders[name](path)


def _read(path: str | Path) -> list[Any]:
    data = read_json(path)
    if not isinstance(data, list):
        raise DataFormatError(f"{path}: expected a JSON list of samples.")
    return data


# -- LoCoMo ------------------------------------------------------------------------------


def resolve_evidence(
    raw_ids: Iterable[Any], known: set[str], issues: EvidenceIssues
) -> tuple[str, ...]:
    """Turn LoCoMo evidence entries into known turn ids; count what needed repair or failed.

    Kinds counted: ``joined`` (several ids in one string), ``repaired`` (zero padding, spaces,
    a stray colon), ``malformed`` (no session and turn number), ``missing`` (well-formed but
    no such turn in the conversation).
    """
    resolved: list[str] = []
    for entry in raw_ids:
        text = str(entry).strip()
        parts = [p.strip() for p in re.split(r"[;,]", text) if p.strip()]
        if len(parts) > 1:
            issues.add("joined")
        for part in parts:
            match = _ID.match(part)
            if not match:
                issues.add("malformed")
                continue
            turn_id = f"D{int(match.group(1))}:{int(match.group(2))}"
            if turn_id != part:
                issues.add("repaired")
            if turn_id not in known:
                issues.add("missing")
                continue
            resolved.append(turn_id)
    return tuple(dict.fromkeys(resolved))


def load_locomo(path: str | Path) -> Dataset:
    """LoCoMo questions: categories 1-5, evidence as turn ids ('D1:3')."""
    raw = _read(path)
    conversations = load_conversations(path, "locomo")
    issues = EvidenceIssues()
    questions: list[Question] = []
    for sample, conv in zip(raw, conversations, strict=True):
        session_of = {t.id: s.id for s in conv.sessions for t in s.turns}
        reference = conv.date_range.end
        for index, qa in enumerate(sample.get("qa") or []):
            if not isinstance(qa, Mapping) or "question" not in qa:
                issues.add("bad_question")
                continue
            category = str(qa.get("category", ""))
            answer = qa.get("answer", qa.get("adversarial_answer", ""))
            turns = resolve_evidence(qa.get("evidence") or [], set(session_of), issues)
            if not turns:
                issues.add("no_evidence")
            questions.append(
                Question(
                    id=f"{conv.id}#{index}",
                    namespace=conv.id,
                    text=str(qa["question"]),
                    answer=str(answer),
                    category=category,
                    reference=reference,
                    evidence_turns=turns,
                    evidence_sessions=tuple(dict.fromkeys(session_of[t] for t in turns)),
                )
            )
    return Dataset(
        "locomo", tuple(conversations), tuple(questions), tuple(LOCOMO_CATEGORIES), issues
    )


# -- LongMemEval -------------------------------------------------------------------------


def _answer_turns(item: Mapping[str, Any], sessions: Sequence[str]) -> tuple[str, ...]:
    """Ids of the turns marked ``has_answer`` inside the given answer sessions."""
    ids = [str(s) for s in literal_list(item["haystack_session_ids"], "haystack_session_ids")]
    raw_sessions = literal_list(item["haystack_sessions"], "haystack_sessions")
    wanted = set(sessions)
    return tuple(
        f"{sid}:{j}"
        for sid, turns in zip(ids, raw_sessions, strict=False)
        if sid in wanted
        for j, turn in enumerate(turns)
        if isinstance(turn, Mapping) and turn.get("has_answer")
    )


def _item_questions(item: Mapping[str, Any]) -> list[tuple[str, str, str, list[str]]]:
    """(text, answer, type, answer_session_ids) for the original and the multi-question schema."""
    qtype = str(item.get("question_type", "unknown"))
    if "questions" in item:
        texts = literal_list(item["questions"], "questions")
        answers = literal_list(item.get("answers", []), "answers")
        sessions = literal_list(item.get("answer_session_ids", []), "answer_session_ids")
        types = literal_list(item.get("question_types", [qtype] * len(texts)), "question_types")
        return [
            (str(t), str(a), str(ty), [str(s) for s in literal_list(ss, "answer_session_ids")])
            for t, a, ty, ss in zip(texts, answers, types, sessions, strict=False)
        ]
    sessions = [
        str(s) for s in literal_list(item.get("answer_session_ids", []), "answer_session_ids")
    ]
    return [(str(item["question"]), str(item.get("answer", "")), qtype, sessions)]


def load_longmemeval(path: str | Path) -> Dataset:
    """LongMemEval questions: question types as categories, session and turn evidence.

    Reads the original schema (``question``, ``answer``, ``answer_session_ids``) and the derived
    multi-question one (``questions``, ``answers``, a list of ``answer_session_ids`` lists; every
    question gets the item's ``question_type`` unless ``question_types`` is given). List fields
    stored as Python-literal strings are read too. Turn evidence is the ``has_answer`` turns of
    the answer sessions; a question with none is scored at session level only.
    """
    raw = _read(path)
    conversations = load_conversations(path, "longmemeval")
    issues = EvidenceIssues()
    questions: list[Question] = []
    categories: dict[str, None] = {}
    for item, conv in zip(raw, conversations, strict=True):
        known = {s.id for s in conv.sessions}
        where = f"{conv.id} question_date"
        date = item.get("question_date")
        reference = parse_datetime(date, where) if date else conv.date_range.end
        for index, (text, answer, qtype, sessions) in enumerate(_item_questions(item)):
            present = tuple(s for s in sessions if s in known)
            issues.add("missing_session", len(set(sessions) - set(present)))
            turns = _answer_turns(item, present)
            if not turns:
                issues.add("no_turn_evidence")
            categories[qtype] = None
            questions.append(
                Question(
                    id=f"{conv.id}#{index}",
                    namespace=conv.id,
                    text=text,
                    answer=answer,
                    category=qtype,
                    reference=reference,
                    dated=bool(date),
                    evidence_turns=turns,
                    evidence_sessions=present,
                )
            )
    return Dataset("longmemeval", tuple(conversations), tuple(questions), tuple(categories), issues)
