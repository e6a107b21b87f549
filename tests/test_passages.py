"""Passages: long messages cut for search (BM25 by best passage) and shown by an excerpt when
the whole does not fit the budget, keeping their turn id."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from ramem_integrations.core.passages import Passages
from ramem_integrations.core.prompts import (
    EXCERPT_MARK,
    Excerpt,
    group_header,
    pack,
    render_memories,
    turn_line,
    whitespace_tokens,
    within_budget,
)
from ramem_integrations.core.serialise import quote
from ramem_integrations.core.types import (
    Episode,
    EpisodicContext,
    MemoryUnit,
    ScoredMemory,
    TimeSpan,
)
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.evaluation.datasets import Asked
from ramem_integrations.evaluation.passages import PassageSystem
from ramem_integrations.evaluation.systems import SYSTEMS
from ramem_integrations.index.bm25 import BM25, lexical_text
from ramem_integrations.index.passages import PassageIndex, PassageVectors
from ramem_integrations.index.vectors import VectorTable
from ramem_integrations.memory.embedding import spoken_vectors
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.embeddings import embed_query
from ramem_integrations.testing import HashingEmbedder

DAY = TimeSpan(datetime(2024, 3, 12, 18, tzinfo=UTC), datetime(2024, 3, 12, 19, tzinfo=UTC))
WORDS = " ".join(f"w{i}" for i in range(12))


def turn(id: str, text: str, speaker: str = "assistant", position: int = 0) -> MemoryUnit:
    ep = Episode("E", position, participants=("user", "assistant"))
    ctx = EpisodicContext(
        "s1", DAY, speaker=speaker, participants=("user", "assistant"), episode=ep
    )
    return MemoryUnit(id, text, ctx, "ns", (f"turn-{id}",), "c")


def filler(n: int, start: int = 0) -> str:
    topics = ("budget", "schedule", "weather", "garden", "kitchen", "travel", "office", "music")
    return " ".join(f"{topics[i % len(topics)]}{i}" for i in range(start, start + n))


@pytest.mark.parametrize(
    ("cut", "text", "shown"),
    [
        (Passages(5, 2), "a b c", ["a b c"]),
        (Passages(5, 2), "a b c d e", ["a b c d e"]),
        (
            Passages(5, 2),
            WORDS,
            ["w0 w1 w2 w3 w4", "w3 w4 w5 w6 w7", "w6 w7 w8 w9 w10", "w9 w10 w11"],
        ),
        (Passages(4, 0), "a  b c\nd e f", ["a  b c\nd", "e f"]),
        (Passages(3, 1), "", [""]),
    ],
)
def test_spans_cut_a_message_into_overlapping_runs_of_its_own_words(
    cut: Passages, text: str, shown: list[str]
) -> None:
    assert [text[start:end] for start, end in cut.spans(text)] == shown


@pytest.mark.parametrize(("size", "overlap"), [(5, 5), (5, 7), (4, -1), (0, 0)])
def test_a_cut_whose_overlap_is_not_below_its_size_is_refused(size: int, overlap: int) -> None:
    with pytest.raises(InvalidInputError, match="overlap < size"):
        Passages(size, overlap)


def test_a_long_reply_is_found_by_its_one_relevant_paragraph() -> None:
    # a 300-word reply with one paragraph on the saxophone, and a short one mentioning lessons
    long = turn("long", f"{filler(150)} Your saxophone lessons start Monday. {filler(150, 150)}")
    short = turn("short", "Piano lessons are fun.", position=1)
    memories = [long, short, *(turn(f"o{i}", filler(30, 40 * i), position=2 + i) for i in range(6))]
    whole = BM25()
    for memory in memories:
        whole.add(memory.id, lexical_text(memory))
    query = "When do my saxophone lessons start?"
    index = PassageIndex(memories, Passages(40, 10))
    assert [i for i, _ in index.search(query, 2)] == ["long", "short"]
    assert [i for i, _ in whole.search(query, 2)] == ["short", "long"]  # whole: length sinks it
    # searched within a set of memories, it ranks only those
    assert [i for i, _ in index.search(query, 5, among=["short", "o1"])] == ["short"]
    start, end = index.best(query, "long") or (0, 0)
    assert "saxophone lessons" in long.content[start:end]
    assert index.best(query, "short") is None  # one passage: nothing to excerpt


def test_a_hit_too_long_for_the_budget_is_shown_by_its_excerpt_with_its_turn_id() -> None:
    text = f"{filler(100)} Your saxophone lessons start Monday. {filler(100, 100)}"
    long = turn("long", text)
    span = (text.index("Your"), text.index("Monday.") + len("Monday."))
    header = whitespace_tokens([group_header(long, 1)])[0]
    budget = header + 20
    # without an excerpt the reply is skipped, as before
    assert pack([ScoredMemory(long, 1.0)], budget, whitespace_tokens) == []
    shown = pack([ScoredMemory(long, 1.0, excerpt=span)], budget, whitespace_tokens)
    assert len(shown) == 1 and len(shown[0]) == 1
    excerpt = shown[0][0]
    assert isinstance(excerpt, Excerpt)
    assert excerpt.content == text  # the memory stays whole; the excerpt is a span of it
    assert excerpt.shown == "Your saxophone lessons start Monday."
    assert excerpt.source_ids == ("turn-long",)  # the evidence turn counts
    line = turn_line(excerpt)
    assert line == f"assistant {EXCERPT_MARK}: {quote('Your saxophone lessons start Monday.')}"
    rendered = render_memories(
        [ScoredMemory(long, 1.0, excerpt=span)], budget=budget, count=whitespace_tokens
    )
    assert rendered.splitlines()[1] == line
    assert whitespace_tokens([rendered])[0] <= budget


def test_a_hit_that_fits_whole_is_shown_whole_even_with_an_excerpt() -> None:
    short = turn("short", "Piano lessons are fun.")
    hit = ScoredMemory(short, 1.0, excerpt=(0, 5))
    assert pack([hit], 100, whitespace_tokens) == [[short]]
    assert not isinstance(pack([hit], 100, whitespace_tokens)[0][0], Excerpt)


def test_a_long_reply_is_found_by_the_vector_of_its_relevant_passage() -> None:
    embedder = HashingEmbedder()
    okay = " ".join(["okay"] * 150)
    long = turn("long", f"{okay} Your saxophone lessons start Monday. {okay}")
    short = turn("short", "Piano lessons with Ann are fun on Fridays.", position=1)
    others = [turn(f"o{i}", " ".join([f"fine{i}"] * 30), position=2 + i) for i in range(3)]
    memories = [long, short, *others]
    # the words alone (no speaker line): the test is about where in a message they stand
    words_only = [(m.content, None) for m in memories]
    whole = VectorTable([m.id for m in memories], spoken_vectors(embedder, words_only))
    query = embed_query(embedder, "saxophone lessons start")
    by_whole = whole.search(query, len(memories))
    cut = Passages(10, 2)
    vectors = PassageVectors(memories, partial(spoken_vectors, embedder), lambda _: None, cut)
    order = [i for i, _ in by_whole]
    assert order.index("long") > order.index("short")  # whole: the filler dilutes it
    ranked = vectors.search(query, by_whole, len(memories))
    assert [i for i, _ in ranked[:2]] == ["long", "short"]
    assert sorted(i for i, _ in ranked) == sorted(order)  # the same memories, re-scored
    # searched within a set of memories, the long one's passages are not among them
    within = whole.search(query, 5, among=["short", "o1"])
    assert [i for i, _ in vectors.search(query, within, 5, among=["short", "o1"])] == [
        "short",
        "o1",
    ]


def test_the_hits_within_a_budget_render_the_excerpt_they_were_packed_with() -> None:
    text = f"{filler(100)} Your saxophone lessons start Monday. {filler(100, 100)}"
    span = (text.index("Your"), text.index("Monday.") + len("Monday."))
    hit = ScoredMemory(turn("long", text), 1.0, excerpt=span)
    budget = whitespace_tokens([group_header(hit.memory, 1)])[0] + 20
    kept = within_budget([hit], budget, whitespace_tokens)
    assert [h.memory.id for h in kept] == ["long"]
    assert isinstance(kept[0].memory, Excerpt) and kept[0].memory.content == text
    rendered = render_memories(kept)  # rendered again without the budget: still the excerpt
    assert "saxophone" in rendered and filler(3) not in rendered
    assert whitespace_tokens([rendered])[0] <= budget


def test_the_rules_doc_has_a_row_for_passages_and_excerpts_naming_each_system() -> None:
    text = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z-]+)` \|", text, flags=re.MULTILINE))
    assert {"passages", "excerpts"} <= rows
    named = [n for n, s in SYSTEMS.items() if isinstance(s, PassageSystem)]
    assert len(named) >= 10 and all(f"`{n}`" in text for n in named)


def _spans(mem: RaMem, system: str, asked: Asked) -> dict[str, bool]:
    """Whether each hit's speaker's long turns were given an excerpt, by speaker."""
    hits = SYSTEMS[system](mem, asked, 20)
    long = [h for h in hits if len(h.memory.content.split()) > 40]
    return {h.memory.context.speaker or "": h.excerpt is not None for h in long}


def test_structural_excerpts_leave_the_assistants_replies_whole_and_cut_the_users(
    fake_mem: RaMem,
) -> None:
    """In a user-assistant chat (told from who answers whom at what length, over all its
    episodes) a long reply of the assistant gets no excerpt and a long turn of the user does
    (``structural``), or no turn does (``people``); between people, every long turn does, as
    with plain excerpts."""
    advice = " ".join(["here are some general ideas you may want to consider"] * 8)
    pasted = " ".join(["my notes on the garden plan and the budget so far"] * 6)
    turns = []
    for topic in ("garden", "budget", "travel", "music", "cooking"):
        turns.append({"speaker": "User", "text": f"Help me with my {topic} please."})
        turns.append({"speaker": "Assistant", "text": f"Sure, about your {topic}: {advice}."})
    turns.append({"speaker": "User", "text": f"Here is my garden plan: {pasted}."})
    turns.append({"speaker": "Assistant", "text": f"About your garden plan: {advice}."})
    day = datetime(2024, 3, 1, 12, tzinfo=UTC)
    fake_mem.add_turns(turns, "chat", session_time=day, session_id="s1")
    people = [
        {"speaker": "Ann" if i % 2 else "Bo", "text": f"About my {topic}: {pasted} {advice}."}
        for i, topic in enumerate(("garden", "budget", "travel", "music", "cooking", "trip"))
    ]
    fake_mem.add_turns(people, "people", session_time=day, session_id="s1")
    question = "What is in my garden plan?"
    asked = Asked(question, "chat", datetime(2024, 6, 1, tzinfo=UTC))
    assert _spans(fake_mem, "excerpts-40", asked) == {"User": True, "Assistant": True}
    assert _spans(fake_mem, "excerpts-40-structural", asked) == {"User": True, "Assistant": False}
    assert _spans(fake_mem, "excerpts-40-people", asked) == {"User": False, "Assistant": False}
    between = Asked(question, "people", datetime(2024, 6, 1, tzinfo=UTC))
    for system in ("excerpts-40-structural", "excerpts-40-people"):
        assert _spans(fake_mem, system, between) == {"Ann": True, "Bo": True}


def test_a_passage_index_brought_up_to_writes_answers_as_one_built_anew() -> None:
    """``update`` drops the memories gone, indexes the new ones and those written again; the
    best passages are then those of an index built from the memories as they are."""
    news = "Your saxophone lessons start Monday."
    memories = {
        f"m{i}": turn(f"m{i}", f"{filler(60, 60 * i)} {news if i == 1 else ''}", position=i)
        for i in range(4)
    }
    index = PassageIndex(memories.values(), Passages(20, 5))
    later = dict(memories)
    del later["m1"]  # gone
    later["m2"] = turn("m2", f"{filler(30, 500)} {news} {filler(30, 600)}", position=2)  # again
    later["m9"] = turn("m9", f"{filler(50, 900)} saxophone {filler(20, 990)}", position=9)  # new
    index.update(later)
    fresh = PassageIndex(later.values(), Passages(20, 5))
    query = "When do my saxophone lessons start?"
    assert index.search(query, 10) == fresh.search(query, 10)
    for memory_id, memory in later.items():
        span = index.best(query, memory_id)
        assert span == fresh.best(query, memory_id)
        assert span is None or memory.content[span[0] : span[1]] in memory.content
    start, end = index.best(query, "m2") or (0, 0)
    assert news in later["m2"].content[start:end]
    assert index.best(query, "m1") is None  # gone
