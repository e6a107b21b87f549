"""Dataset loading: LoCoMo evidence normalisation, LongMemEval schemas, the confusable subset."""

from __future__ import annotations

from pathlib import Path

import pytest

from ramem_integrations.errors import DataFormatError
from ramem_integrations.evaluation.confusable import distractor_sets
from ramem_integrations.evaluation.datasets import (
    EvidenceIssues,
    load_dataset,
    load_locomo,
    load_longmemeval,
    resolve_evidence,
)

FIXTURES = Path(__file__).parent / "fixtures"
DEV_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo-dev.json"
KNOWN = {"D1:3", "D1:5", "D11:26", "D2:1"}


@pytest.mark.parametrize(
    ("raw", "resolved", "issues"),
    [
        (["D1:3"], ("D1:3",), {}),
        (["D1:3; D1:5"], ("D1:3", "D1:5"), {"joined": 1}),
        (["D1:3;D1:5"], ("D1:3", "D1:5"), {"joined": 1}),
        (["D01:03"], ("D1:3",), {"repaired": 1}),
        (["D1: 3"], ("D1:3",), {"repaired": 1}),
        (["D:11:26"], ("D11:26",), {"repaired": 1}),
        (["D:3"], (), {"malformed": 1}),
        (["3"], (), {"malformed": 1}),
        (["D"], (), {"malformed": 1}),
        (["D9:9"], (), {"missing": 1}),
        (["D1:3", "D1:3"], ("D1:3",), {}),
        ([7], (), {"malformed": 1}),
        ([], (), {}),
    ],
)
def test_resolve_evidence(
    raw: list[object], resolved: tuple[str, ...], issues: dict[str, int]
) -> None:
    counted = EvidenceIssues()
    assert resolve_evidence(raw, KNOWN, counted) == resolved
    assert counted.as_dict() == issues


def test_locomo_fixture() -> None:
    data = load_locomo(FIXTURES / "locomo-tiny.json")
    assert [c.id for c in data.conversations] == ["tiny-1", "tiny-2"]
    by_id = {q.id: q for q in data.questions}
    assert by_id["tiny-1#1"].evidence_turns == ("D2:2",)
    assert by_id["tiny-1#1"].answer == "2022"  # a number in the data, text here
    assert by_id["tiny-1#2"].evidence_sessions == ("session_1", "session_2")
    assert by_id["tiny-1#5"].evidence_turns == ()  # only a malformed id: kept, not for recall
    assert by_id["tiny-1#7"].answer == "a blue bowl"  # adversarial_answer
    assert by_id["tiny-1#0"].reference == data.conversations[0].date_range.end
    assert data.issues.as_dict() == {
        "joined": 1,
        "malformed": 1,
        "missing": 1,
        "no_evidence": 1,
        "repaired": 2,
    }


def test_limit_keeps_the_first_conversations() -> None:
    data = load_locomo(FIXTURES / "locomo-tiny.json").limited(1)
    assert {q.namespace for q in data.questions} == {"tiny-1"}


def test_longmemeval_both_schemas() -> None:
    data = load_longmemeval(FIXTURES / "longmemeval-tiny.json")
    assert data.categories == ("knowledge-update", "multi-session")
    first, second, third = data.questions
    assert first.evidence_sessions == ("answer_1", "answer_2")
    assert first.evidence_turns == ("answer_1:0", "answer_2:0")
    assert first.reference.isoformat() == "2023-12-18T04:17:00+00:00"
    # derived multi-question item with its lists stored as Python-literal text
    assert (second.namespace, second.answer, second.evidence_turns) == (
        "lme-b",
        "33",
        ("answer_r:0",),
    )
    assert third.evidence_sessions == ("chat_run",) and third.evidence_turns == ()
    assert data.issues.as_dict() == {"no_turn_evidence": 1}


def test_unknown_dataset_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="Unknown dataset"):
        load_dataset("squad", tmp_path / "x.json")
    with pytest.raises(DataFormatError, match="No file"):
        load_dataset("locomo", tmp_path / "x.json")


def test_confusable_subset_of_fixture() -> None:
    data = load_locomo(FIXTURES / "locomo-tiny.json")
    found = distractor_sets(data.conversations, data.questions)
    # 'pottery class' asked about session 3 also matches the session-1 pottery turn
    assert found == {"tiny-1#6": frozenset({"D1:1"})}


@pytest.mark.skipif(not DEV_DATA.exists(), reason="development data absent")
def test_locomo_dev_never_crashes() -> None:
    data = load_locomo(DEV_DATA)
    assert len(data.conversations) == 5
    assert sum(data.issues.counts.values()) > 0
