"""The shape of ``ramem eval``'s JSON result, as TypedDicts (docs/evaluation.md#json)."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

#: Category -> mean over its questions, plus "all" (None when no question falls in the cell).
ByCategory = dict[str, float | None]
#: K (as a string) -> figures at that K.
ByK = dict[str, ByCategory]


class Confusable(TypedDict):
    """The context-confusable subset: how many questions, D@1 and the rank gap."""

    n: int
    d_at_1: float | None
    rank_gap: float | None


class Paired(TypedDict):
    """A system against the baseline on the same questions (see :mod:`.stats`)."""

    n: int
    diff: float
    ci95: list[float]
    p: float


class SystemResult(TypedDict):
    """One system's figures."""

    recall: ByK
    tokens: dict[str, float | None]
    answerable: ByK
    confusable: Confusable
    f1: ByCategory | None
    ci95: dict[str, list[float] | None]
    vs_content: NotRequired[dict[str, Paired | None]]
    #: recall within each token budget of rendered context, by category
    recall_at_tokens: NotRequired[dict[str, ByCategory]]
    #: the paired test against content within each token budget
    vs_content_at_tokens: NotRequired[dict[str, Paired | None]]
    recall_any_session: NotRequired[ByK]
    recall_all_session: NotRequired[ByK]
    recall_any_turn: NotRequired[ByK]
    recall_all_turn: NotRequired[ByK]


class QuestionResult(TypedDict):
    """One retrieval question's recall by every system: at each K, and within each budget
    (no question text: a result file may be shared where the data may not)."""

    id: str
    conversation: str
    category: str
    recall: dict[str, dict[str, float]]  # system -> K -> recall
    recall_at_tokens: dict[str, dict[str, float]]  # system -> budget -> recall


class EvalResult(TypedDict):
    """The whole result: every system on one dataset."""

    dataset: str
    k: list[int]
    systems: dict[str, SystemResult]
    #: every retrieval question, in the order asked (to see which questions a change moved)
    questions: list[QuestionResult]
    evidence_issues: dict[str, int]
    meta: dict[str, Any]
