"""``ramem eval-diff``: two eval results compared question by question."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.app.cli import main
from ramem_integrations.errors import DataFormatError, InvalidInputError
from ramem_integrations.evaluation.diff import compare, diff_text, load_result
from ramem_integrations.evaluation.runner import RunConfig, run_evaluation
from ramem_integrations.evaluation.systems import select
from ramem_integrations.testing import HashingEmbedder

FIXTURES = Path(__file__).parent / "fixtures"


def result(recalls: dict[str, tuple[float, float]], dataset: str = "locomo") -> dict[str, Any]:
    """A result whose questions have ramem's R@1 and recall within 250 tokens as given."""
    questions = [
        {
            "id": qid,
            "conversation": "c",
            "category": qid[-1],
            "recall": {"ramem": {"1": at1}, "content": {"1": 0.0}},
            "recall_at_tokens": {"ramem": {"250": at250}, "content": {"250": 0.0}},
        }
        for qid, (at1, at250) in recalls.items()
    ]
    return {"dataset": dataset, "systems": {}, "questions": questions}


BEFORE = result({"q1": (1.0, 1.0), "q2": (0.0, 0.5), "q3": (0.0, 0.0)})
AFTER = result({"q1": (0.0, 1.0), "q2": (1.0, 1.0), "q3": (0.0, 0.0), "q4": (1.0, 1.0)})


def test_each_measure_says_which_questions_rose_and_fell() -> None:
    diff = compare(BEFORE, AFTER, "ramem")
    assert (diff["questions"], diff["only_before"], diff["only_after"]) == (3, 0, 1)
    at1, at250 = diff["measures"]
    assert at1 == {
        "measure": "R@1",
        "before": pytest.approx(1 / 3, abs=1e-4),
        "after": pytest.approx(1 / 3, abs=1e-4),
        "rose": ["q2 (category 2)"],
        "fell": ["q1 (category 1)"],
    }
    assert at250["measure"] == "250 tokens" and at250["rose"] == ["q2 (category 2)"]
    assert at250["fell"] == [] and at250["after"] == pytest.approx(2 / 3, abs=1e-4)
    text = diff_text(diff)
    assert "3 questions in both results (0 only before, 1 only after)" in text
    assert "fell at R@1: q1 (category 1)" in text and "rose at 250 tokens: q2" in text


def test_two_systems_of_one_result_compare_the_same_way() -> None:
    diff = compare(AFTER, AFTER, "ramem", against="content")
    assert (diff["system"], diff["against"], diff["questions"]) == ("ramem", "content", 4)
    at1 = diff["measures"][0]
    assert at1["before"] == 0.0 and at1["after"] == pytest.approx(0.5)
    assert at1["rose"] == ["q2 (category 2)", "q4 (category 4)"] and at1["fell"] == []
    assert diff_text(diff).startswith("ramem (after) against content (before): 4 questions")


@pytest.mark.parametrize(
    ("before", "after", "system", "error", "says"),
    [
        (BEFORE, AFTER, "bm25", InvalidInputError, "has no system 'bm25'"),
        (BEFORE, result({"q1": (1.0, 1.0)}, "longmemeval"), "ramem", InvalidInputError, "datasets"),
        (BEFORE, result({"x9": (1.0, 1.0)}), "ramem", InvalidInputError, "share no question"),
    ],
)
def test_results_that_cannot_be_compared_are_refused(
    before: dict[str, Any], after: dict[str, Any], system: str, error: type, says: str
) -> None:
    with pytest.raises(error, match=says):
        compare(before, after, system)


def test_a_file_without_questions_is_refused_with_the_fix(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"dataset": "locomo", "systems": {}}))
    with pytest.raises(DataFormatError, match=re.escape("run 'ramem eval ... --json FILE' again")):
        load_result(old)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(DataFormatError, match="not a 'ramem eval --json' result"):
        load_result(broken)


def test_the_command_prints_the_table_or_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(json.dumps(BEFORE))
    after.write_text(json.dumps(AFTER))
    assert main(["eval-diff", str(before), str(after)]) == 0
    assert "R@1" in capsys.readouterr().out
    assert main(["eval-diff", str(before), str(after), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["measures"][0]["fell"] == ["q1 (category 1)"]
    assert main(["eval-diff", str(before), str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["eval-diff", str(after), "--against", "content", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["measures"][0]["rose"] == [
        "q2 (category 2)",
        "q4 (category 4)",
    ]


def test_a_real_result_against_a_changed_copy(tmp_path: Path) -> None:
    """The questions of a real run; one of them changed in the copy is the one reported."""
    config = RunConfig(
        dataset="locomo",
        path=FIXTURES / "locomo-tiny.json",
        systems=select("bm25,content"),
        ks=[1, 3],
        cache=tmp_path / "cache",
        progress=False,
        budgets=(40, 400),
    )
    before = run_evaluation(config, embedder=HashingEmbedder())
    after = copy.deepcopy(before)
    moved = after["questions"][0]
    moved["recall_at_tokens"]["content"]["40"] = 1.0 - moved["recall_at_tokens"]["content"]["40"]
    diff = compare(before, after, "content")
    assert [m["measure"] for m in diff["measures"]] == ["R@1", "R@3", "40 tokens", "400 tokens"]
    changed = {
        m["measure"]: m["rose"] + m["fell"] for m in diff["measures"] if m["rose"] + m["fell"]
    }
    assert changed == {"40 tokens": [f"{moved['id']} (category {moved['category']})"]}
