"""``ramem eval-steps``: a ranking step judged conversation by conversation, per family."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.app.cli import main
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.steps import family_of, sign_test, step_text, step_view


def result(
    data: str, rows: dict[str, list[tuple[float, float]]], budget: int = 1000
) -> dict[str, Any]:
    """A result of ``data`` whose conversations have, per question, (ramem, ablation) recall
    within ``budget`` tokens."""
    questions = [
        {
            "id": f"{conversation}#{i}",
            "conversation": conversation,
            "category": 1,
            "recall": {},
            "recall_at_tokens": {"ramem": {str(budget): a}, "no-step": {str(budget): b}},
        }
        for conversation, pairs in rows.items()
        for i, (a, b) in enumerate(pairs)
    ]
    return {"dataset": "locomo", "systems": {}, "questions": questions, "meta": {"data": data}}


@pytest.mark.parametrize(
    ("helped", "hurt", "p"),
    [(0, 0, 1.0), (3, 3, 1.0), (5, 0, 0.0625), (0, 5, 0.0625), (9, 1, 0.021484375), (4, 1, 0.375)],
)
def test_sign_test_is_exact_and_two_sided(helped: int, hurt: int, p: float) -> None:
    assert sign_test(helped, hurt) == pytest.approx(p)


@pytest.mark.parametrize(
    ("data", "family"),
    [
        ("../data/locomo-dev.json", "locomo"),
        ("/x/realtalk-dev.json", "realtalk"),
        ("beam_test.json", "beam"),
        ("chats.json", "chats"),
        ("longmemeval_s_derived_3q.json", "longmemeval_s_derived_3q"),
    ],
)
def test_family_is_the_data_file_without_its_split(data: str, family: str) -> None:
    assert family_of({"meta": {"data": data}}) == family


def test_each_conversation_counts_once_and_the_rule_decides() -> None:
    # locomo: a big conversation gains a lot, two small ones lose a little: the mean over
    # questions is up, but the step helps one conversation of three.
    locomo = result(
        "locomo-dev.json",
        {"a": [(1.0, 0.0)] * 10, "b": [(0.0, 0.5)], "c": [(0.5, 1.0)]},
    )
    realtalk = result("realtalk-dev.json", {"r1": [(1.0, 0.0)], "r2": [(1.0, 1.0)]})
    view = step_view([locomo, realtalk], "ramem", "no-step")
    by_family = {f["family"]: f for f in view["families"]}
    assert (by_family["locomo"]["helped"], by_family["locomo"]["hurt"]) == (1, 2)
    assert by_family["locomo"]["diff"] == pytest.approx((10 - 0.5 - 0.5) / 12, abs=1e-4)
    assert (by_family["realtalk"]["helped"], by_family["realtalk"]["tied"]) == (1, 1)
    assert view["families_helped"] == 1 and not view["keep"]
    assert "verdict: remove" in step_text(view)


def test_a_step_that_helps_two_families_but_costs_a_third_is_removed() -> None:
    helps = {"x": [(1.0, 0.0)], "y": [(1.0, 0.5)]}
    families = [result("locomo-dev.json", helps), result("realtalk-dev.json", helps)]
    assert step_view(families, "ramem", "no-step")["keep"]
    costs = result("beam-dev.json", {"z": [(0.0, 1.0)]}, budget=2000)
    view = step_view([*families, costs], "ramem", "no-step")
    assert view["families_cost"] == ["beam"] and not view["keep"]
    assert [f["budget"] for f in view["families"]] == [1000, 1000, 2000]


def test_a_missing_system_or_budget_says_how_to_get_it() -> None:
    one = result("locomo-dev.json", {"a": [(1.0, 0.0)]})
    with pytest.raises(InvalidInputError, match="--systems including no-replies"):
        step_view([one], "ramem", "no-replies")
    with pytest.raises(InvalidInputError, match="--budgets including 500"):
        step_view([one], "ramem", "no-step", default=500)


def test_cli_prints_the_view_and_takes_a_budget_per_family(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(result("beam-dev.json", {"z": [(1.0, 0.0)]}, budget=500)))
    assert main(["eval-steps", str(path), "--without", "no-step", "--budget", "beam=500"]) == 0
    out = capsys.readouterr().out
    assert "beam within 500 tokens: helped 1, hurt 0, tied 0" in out
    assert "verdict: undecided: results of 2 families or more are needed, got 1" in out
    assert main(["eval-steps", str(path), "--without", "no-step", "--budget", "500", "--json"]) == 2
    assert "--budgets including 2000" in capsys.readouterr().err
