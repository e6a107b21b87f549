"""Stage 4 packing and evaluation at equal cost: rendered context within a token budget."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.core.prompts import (
    group_header,
    pack,
    render_answer_prompt,
    render_memories,
    turn_line,
    whitespace_tokens,
)
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.types import Episode, EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.budget import asked_on, parse_budgets
from ramem_integrations.evaluation.datasets import load_dataset
from ramem_integrations.evaluation.runner import RunConfig, run_evaluation
from ramem_integrations.evaluation.systems import select
from ramem_integrations.testing import HashingEmbedder

FIXTURES = Path(__file__).parent / "fixtures"
DAY = TimeSpan(datetime(2024, 3, 12, 18, tzinfo=UTC), datetime(2024, 3, 12, 19, tzinfo=UTC))


def turn(id: str, text: str, episode: str | None, position: int = 0) -> MemoryUnit:
    ep = Episode(episode, position, participants=("Ann", "Bo")) if episode else None
    ctx = EpisodicContext("s1", DAY, speaker="Ann", participants=("Ann", "Bo"), episode=ep)
    return MemoryUnit(id, text, ctx, "ns", (id,), "c")  # content: the words as said


A0, A1 = turn("a0", "one two", "A", 0), turn("a1", "three four five", "A", 1)
B0 = turn("b0", "six seven", "B", 0)


def test_pack_takes_turns_in_rank_order_and_groups_them_by_episode() -> None:
    header = whitespace_tokens([group_header(A1, 1)])[0]
    line = {u.id: whitespace_tokens([turn_line(u)])[0] for u in (A0, A1, B0)}
    # A1 first (opens episode A), then B0 (opens B), then A0 (joins A): all fit
    everything = 2 * header + sum(line.values())
    assert pack([A1, B0, A0], everything, whitespace_tokens) == [[A0, A1], [B0]]
    # one token short: A0, the last in rank order, is left out
    assert pack([A1, B0, A0], everything - 1, whitespace_tokens) == [[A1], [B0]]
    # a memory that does not fit is skipped, a later one that fits is still taken
    small = header + line["a1"] + line["a0"]
    assert pack([A1, B0, A0], small, whitespace_tokens) == [[A0, A1]]
    assert pack([A1], header, whitespace_tokens) == []


def test_rendered_group_shows_its_coordinates_once_and_turns_in_order() -> None:
    text = render_memories([A1, B0, A0])
    assert text.count("said 12 March 2024") == 2  # one line per episode, not per turn
    assert text.splitlines()[:3] == [
        "[1] said 12 March 2024; with Ann, Bo",
        'Ann: "one two"',
        'Ann: "three four five"',
    ]


@pytest.mark.parametrize("name", ["locomo-tiny.json", "longmemeval-tiny.json", "chat_small.json"])
def test_no_dataset_id_reaches_a_prompt(name: str) -> None:
    for conversation in load_conversations(FIXTURES / name):
        units = Segmenter().segment(RuleAnchorer().anchor(conversation, "ns"))
        prompt = render_answer_prompt("What happened?", units)
        ids = {conversation.id}
        for session in conversation.sessions:
            ids |= {session.id, *(t.id for t in session.turns)}
        leaked = [i for i in ids if len(i) > 2 and i in prompt]
        assert not leaked, leaked
        assert all(u.content.split(": ", 1)[-1][:20] in prompt for u in units)


def test_budget_recall_on_the_tiny_fixture(tmp_path: Path) -> None:
    config = RunConfig(
        "locomo",
        FIXTURES / "locomo-tiny.json",
        select("bm25,content"),
        [1, 3],
        cache=tmp_path,
        progress=False,
        budgets=[60, 2000],
    )
    result = run_evaluation(config, embedder=HashingEmbedder())
    assert result["meta"]["budgets"] == [60, 2000]
    for scores in result["systems"].values():
        by_budget = scores["recall_at_tokens"]
        assert set(by_budget) == {"60", "2000"}
        assert set(by_budget["60"]) == {"1", "2", "3", "4", "all"}
        # the whole tiny conversation fits in 2,000 tokens: every evidence turn is shown
        assert by_budget["2000"]["all"] == 1.0
        # 60 tokens hold one group line and a turn or two, never all the evidence
        assert 0.0 < by_budget["60"]["all"] < 1.0


def test_asked_on_sets_the_question_dates() -> None:
    data = load_dataset("locomo", FIXTURES / "locomo-tiny.json")
    end = {c.id: c.date_range.end for c in data.conversations}
    assert not any(q.dated for q in asked_on(data, "none").questions)
    for q in asked_on(data, "end").questions:
        assert q.dated and q.reference == end[q.namespace]
    fixed = asked_on(data, "2024-01-05").questions
    assert {q.reference for q in fixed} == {datetime(2024, 1, 5, tzinfo=UTC)}
    assert asked_on(data, None) is data
    with pytest.raises(InvalidInputError, match="--asked-on"):
        asked_on(data, "someday")


@pytest.mark.parametrize(
    ("text", "budgets"), [("500,250", [250, 500]), (" 1000 ", [1000]), ("0", None), ("a", None)]
)
def test_parse_budgets(text: str, budgets: list[int] | None) -> None:
    if budgets is None:
        with pytest.raises(InvalidInputError, match="--budgets"):
            parse_budgets(text)
    else:
        assert parse_budgets(text) == budgets


def test_cli_refuses_bad_budgets_and_dates(capsys: pytest.CaptureFixture[str]) -> None:
    from ramem_integrations.evaluation.cli import main

    path = str(FIXTURES / "locomo-tiny.json")
    assert main(["eval", "locomo", path, "--budgets", "0", "--no-progress"]) == 2
    assert "--budgets" in capsys.readouterr().err
