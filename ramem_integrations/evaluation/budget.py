"""Evaluation at equal cost: recall within a budget of rendered tokens; when questions are asked.

Every system's ranked memories go through the packer and renderer the agents get
(:func:`~ramem_integrations.core.prompts.pack`: grouped by episode, else session, coordinates
once per group, turns in order; tokens counted by
:func:`~ramem_integrations.models.tokens.count_tokens`), which fills ``B`` tokens in rank
order; a turn counts as retrieved when it is in the rendered context. Baselines bring their
ranked turns, RaMem its episodes. The JSON gets
``systems.NAME.recall_at_tokens = {"<B>": {"1", ..., "all"}}``.

:func:`asked_on` sets when the questions are asked (``--asked-on end|none|DATE``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from ramem_integrations.core.conversation import parse_datetime
from ramem_integrations.core.prompts import PACK_DEPTH, pack
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.errors import DataFormatError, InvalidInputError
from ramem_integrations.evaluation import metrics
from ramem_integrations.evaluation.datasets import Dataset, Question

#: ``--budgets`` default: tokens of rendered context.
DEFAULT_BUDGETS = (250, 500, 1000, 2000)
#: How many memories each system is asked for (as many as a budgeted retrieval searches).
BUDGET_DEPTH = PACK_DEPTH


class CachedCounter:
    """Token counts of texts, each text counted once."""

    def __init__(self, count: Any) -> None:
        self._count, self._known = count, dict[str, int]()

    def __call__(self, texts: Sequence[str]) -> list[int]:
        fresh = [t for t in dict.fromkeys(texts) if t not in self._known]
        if fresh:
            self._known.update(zip(fresh, self._count(fresh), strict=True))
        return [self._known[t] for t in texts]


class BudgetScores:
    """Recall of each system within each token budget, by category."""

    def __init__(self, budgets: Sequence[int], count: Any, *, by_session: bool = False) -> None:
        self.budgets = sorted(set(budgets))
        self.count = CachedCounter(count)
        self.by_session = by_session
        self._values: dict[str, dict[int, dict[str, list[float]]]] = defaultdict(
            lambda: defaultdict(lambda: defaultdict(list))
        )
        #: each system's recall per question, in the order asked, within each budget
        self.by_question: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))

    def add(self, system: str, question: Question, hits: Sequence[ScoredMemory]) -> None:
        """Score one system's ranked hits for one question at every budget."""
        for budget in self.budgets:
            value = self.recall(question, self.shown(hits, budget))
            self._values[system][budget][question.category].append(value)
            self.by_question[system][budget].append(value)

    def shown(self, hits: Sequence[ScoredMemory], budget: int) -> list[MemoryUnit]:
        """The memories an agent given ``hits`` and ``budget`` is shown, in the order shown."""
        return [u for members in pack(hits, budget, self.count) for u in members]

    def recall(self, question: Question, shown: Sequence[MemoryUnit]) -> float:
        if self.by_session:
            sessions = {u.context.session_id for u in shown}
            return metrics.recall(question.evidence_sessions, sessions)
        turns = {t for u in shown for t in u.source_ids}
        return metrics.recall(question.evidence_turns, turns)

    def summary(self, system: str, categories: Sequence[str]) -> dict[str, dict[str, Any]]:
        """``{"<B>": {category: mean, "all": mean}}`` for one system."""
        out: dict[str, dict[str, Any]] = {}
        for budget in self.budgets:
            values = self._values[system][budget]
            row: dict[str, Any] = {c: metrics.mean(values.get(c, [])) for c in categories}
            row["all"] = metrics.mean(v for c in categories for v in values.get(c, []))
            out[str(budget)] = row
        return out


def parse_budgets(text: str) -> list[int]:
    """``"250,500"`` as ``[250, 500]``; refuses anything but positive integers."""
    try:
        budgets = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError as exc:
        raise InvalidInputError(
            f"--budgets takes integers like 250,500,1000, got {text!r}"
        ) from exc
    if not budgets or budgets[0] < 1:
        raise InvalidInputError(f"--budgets takes positive integers like 250,500, got {text!r}")
    return budgets


def asked_on(dataset: Dataset, when: str | None) -> Dataset:
    """The dataset with its questions asked at ``when``.

    ``None``: as the data says (dated questions keep their date; the others get none).
    ``"end"``: a question without its own date is asked just after its conversation's last
    session, so "last year" grounds against that. ``"none"``: no question has a date.
    An ISO date: every question is asked then.
    """
    if when is None:
        return dataset
    ends = {c.id: c.date_range.end for c in dataset.conversations}
    fixed: datetime | None = None
    if when not in ("end", "none"):
        try:
            fixed = parse_datetime(when, "--asked-on")
        except DataFormatError as exc:
            raise InvalidInputError(
                f"--asked-on takes end, none or a date like 2023-10-02, got {when!r}."
            ) from exc

    def moved(q: Question) -> Question:
        if when == "none":
            return replace(q, dated=False)
        if fixed is not None:
            return replace(q, reference=fixed, dated=True)
        return q if q.dated else replace(q, reference=ends[q.namespace], dated=True)

    questions = tuple(moved(q) for q in dataset.questions)
    return replace(dataset, questions=questions)
