"""The evaluated systems, by their values on a small conversation (real Chroma, fake embedder).

The conversation has look-alikes in other episodes: a dentist visit in March and one in July,
and a trip that both Ann and Bob talk about, Ann more wordily.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.retrieval.reinstatement import (
    EPISODE_HITS_FIRST,
    SPEAKER_BONUS,
    ContextualRetriever,
)
from ramem_integrations.errors import InvalidInputError, MissingDependencyError
from ramem_integrations.evaluation.ablations import NoSessionSpan, shuffled_copy
from ramem_integrations.evaluation.datasets import Asked, Question
from ramem_integrations.evaluation.systems import SYSTEMS, select
from ramem_integrations.evaluation.variants import Variant
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

NS = "ann-bob"
MARCH = datetime(2024, 3, 12, 18, tzinfo=UTC)
JULY = datetime(2024, 7, 2, 9, tzinfo=UTC)
SEPTEMBER = datetime(2024, 9, 1, 10, tzinfo=UTC)
CONVERSATION = Conversation(
    "c1",
    (
        Session(
            "march",
            MARCH,
            (
                Turn("m:1", "Ann", "The dentist said my tooth is fine."),
                Turn("m:2", "Bob", "Good news about the tooth."),
            ),
        ),
        Session(
            "july",
            JULY,
            (
                Turn(
                    "j:1", "Ann", "The dentist said my tooth needs a crown, the dentist was sure."
                ),
                Turn("j:2", "Bob", "A crown costs a lot."),
            ),
        ),
        Session(
            "september",
            SEPTEMBER,
            (
                Turn("s:1", "Ann", "Our trip to Lisbon: the trip plan, trip tickets, trip hotel."),
                Turn("s:2", "Bob", "I booked the trip."),
                Turn("s:3", "Ann", "I like bread."),
            ),
        ),
    ),
)


@pytest.fixture
def mem(tmp_path: Path) -> RaMem:
    """Turns without episodes: these tests check the turn-level ranking each system adds
    (tests/test_episode_retrieval.py checks what episodes add on top)."""
    memory = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    memory.segmenter = None
    memory.add_conversation(CONVERSATION, NS)
    return memory


def ask(text: str) -> Asked:
    return Asked(text, NS)


def sources(hits: list) -> list[str]:  # type: ignore[type-arg]
    return [h.memory.source_ids[0] for h in hits]


def test_a_system_gets_no_gold_field() -> None:
    """Systems are handed the asked view: it has no answer, category, evidence or id, and its
    slots forbid adding any; nothing in it leads back to the question."""
    question = Question(
        "c1#0", NS, "What did the dentist say?", "fine", "4", MARCH, evidence_turns=("m:1",)
    )
    asked = question.asked
    assert {f.name for f in dataclasses.fields(asked)} == {"text", "namespace", "asked_at"}
    assert asked == Asked("What did the dentist say?", NS, None)  # LoCoMo: no date of its own
    for gold in ("answer", "category", "evidence_turns", "evidence_sessions", "id", "reference"):
        assert not hasattr(asked, gold)
    with pytest.raises((AttributeError, dataclasses.FrozenInstanceError, TypeError)):
        asked.answer = "fine"  # type: ignore[attr-defined]
    assert not hasattr(asked, "__dict__")
    dated = dataclasses.replace(question, dated=True).asked
    assert dated.asked_at == MARCH


def test_the_runner_hands_systems_the_asked_view(tmp_path: Path) -> None:
    from ramem_integrations.evaluation.runner import RunConfig, run_evaluation

    seen: list[object] = []

    def spy(memory: RaMem, asked: Asked, k: int) -> list:  # type: ignore[type-arg]
        seen.append(asked)
        return memory.retrieve(asked.text, asked.namespace, k, mode="bm25")

    config = RunConfig(
        "locomo",
        Path(__file__).parent / "fixtures" / "locomo-tiny.json",
        {"spy": spy},
        [1],
        cache=tmp_path,
        progress=False,
    )
    run_evaluation(config, embedder=HashingEmbedder())
    assert seen and all(type(a) is Asked for a in seen)


def test_ramem_puts_the_valid_episode_first_where_content_does_not(mem: RaMem) -> None:
    asked = ask("What did the dentist say in March 2024?")
    content = SYSTEMS["content"](mem, asked, 4)
    ramem = SYSTEMS["ramem"](mem, asked, 4)
    # On content alone a July look-alike leads (more dentist words).
    assert content[0].memory.context.session_id == "july"
    assert sources(ramem)[0] == "m:1"  # the March dentist turn comes first
    assert ramem[0].reason == "context"
    # m:2 meets the time condition but shares no word with the question: it is not lifted
    # above the relevant July turn.
    deeper = sources(SYSTEMS["ramem"](mem, asked, 7))
    assert deeper.index("j:1") < deeper.index("m:2")
    assert all(h.reason == "content" for h in content)


def test_strict_keeps_context_ahead_and_soft_ranks_by_score(mem: RaMem) -> None:
    asked = ask("What did the dentist say in March 2024?")
    strict = SYSTEMS["ramem"](mem, asked, 6)
    soft = SYSTEMS["ramem-soft"](mem, asked, 6)
    reasons = [h.reason for h in strict]
    assert reasons == sorted(reasons, key=lambda r: r != "context")  # context first, always
    scores = [h.score for h in soft]
    assert scores == sorted(scores, reverse=True)
    assert sources(soft)[0] == "m:1"  # the bonus still lifts the valid dentist turn


def test_no_session_span_needs_an_event_time(mem: RaMem) -> None:
    asked = ask("What did the dentist say in March 2024?")
    assert SYSTEMS["ramem"](mem, asked, 3)[0].reason == "context"
    # No turn says when its event happened: without the session span, nothing is valid.
    assert all(h.reason == "content" for h in SYSTEMS["no-session-span"](mem, asked, 3))


def test_the_speaker_preference_lifts_what_the_named_person_said(mem: RaMem) -> None:
    asked = ask("What did Bob say about the trip?")
    with_preference = SYSTEMS["ramem"](mem, asked, 3)
    without = SYSTEMS["no-speaker-preference"](mem, asked, 3)
    assert sources(without)[0] == "s:1"  # Ann says 'trip' four times
    assert sources(with_preference)[0] == "s:2"  # Bob said it: his turn leads
    assert with_preference[0].memory.context.speaker == "Bob"
    assert SPEAKER_BONUS > 0


def test_variant_options_are_typed_and_keep_what_is_unset(mem: RaMem) -> None:
    base = mem.reinstatement
    assert Variant().retriever(base) == base
    changed = Variant(strict=False, speaker_bonus=0.0).retriever(base)
    assert (changed.strict, changed.speaker_bonus, changed.episodes) == (False, 0.0, base.episodes)
    assert type(changed) is ContextualRetriever
    ablated = Variant(strict=False, kind=NoSessionSpan).retriever(base)
    assert type(ablated) is NoSessionSpan and ablated.strict is False
    kept = [f.name for f in dataclasses.fields(base) if f.name != "strict"]
    assert all(getattr(ablated, name) is getattr(base, name) for name in kept)
    with pytest.raises(TypeError):
        Variant(speaker=0.0)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("name", "hits_first", "keep_first"),
    [
        ("ramem", EPISODE_HITS_FIRST, True),
        ("neighbours-anywhere", 1, False),
        ("no-hits-first", 1, True),
        ("lift-passes-first", EPISODE_HITS_FIRST, False),
        ("keep-first", EPISODE_HITS_FIRST, True),
    ],
)
def test_the_neighbour_ablations_set_their_options(
    mem: RaMem, name: str, hits_first: int, keep_first: bool
) -> None:
    system = SYSTEMS[name]
    assert isinstance(system, Variant)
    retriever = system.retriever(mem.reinstatement)
    assert (retriever.hits_first, retriever.keep_first) == (hits_first, keep_first)
    assert retriever.leading == mem.reinstatement.leading


def test_ramem_need_searches_with_the_information_need(mem: RaMem) -> None:
    asked = ask("What did the dentist say in March 2024?")
    frame = mem.frame(asked.text, NS)
    assert frame.need != frame.query  # the time words are out of the need
    need = SYSTEMS["ramem-need"](mem, asked, 2)
    assert sources(need)[0] == "m:1"


def test_context_shuffle_copies_into_a_store_of_its_own(mem: RaMem) -> None:
    before = mem.count(NS)
    copy = shuffled_copy(mem, NS)
    assert copy.store is not mem.store and mem.count(NS) == before  # the shared store untouched
    original = {u.id: u for u in mem.memories(NS)}
    shuffled = {u.id: u for u in copy.memories(NS)}
    assert shuffled.keys() == original.keys()
    assert all(shuffled[i].content == original[i].content for i in original)
    contexts = sorted(u.context.session_id for u in shuffled.values())
    assert contexts == sorted(u.context.session_id for u in original.values())  # a permutation
    assert any(shuffled[i].context != original[i].context for i in original)
    assert shuffled_copy(mem, NS) is copy  # made once

    asked = ask("What did Bob say about the trip?")
    first = SYSTEMS["context-shuffle"](mem, asked, 3)
    assert SYSTEMS["context-shuffle"](mem, asked, 3) == first  # seeded: the same every time
    # The collapse: the preference lifts turns whose shuffled speaker is Bob, and Bob's real
    # turn (now labelled Ann) falls behind them; without the preference it keeps its place.
    plain = SYSTEMS["context-shuffle-no-speaker"](mem, asked, 5)
    first = SYSTEMS["context-shuffle"](mem, asked, 5)
    assert first[0].memory.context.speaker == "Bob"
    assert sources(first).index("s:2") >= sources(plain).index("s:2")


def test_renamed_systems_say_what_they_are() -> None:
    assert "no-context-ranking" not in SYSTEMS and "flat-prompt" not in SYSTEMS
    with pytest.raises(InvalidInputError, match="no-context-ranking is now content"):
        select("no-context-ranking")
    with pytest.raises(InvalidInputError, match="flat-prompt is now ramem-flat-prompt"):
        select("flat-prompt")


LLAMA_SYSTEMS = ["llama-vector", "llama-vector+ramem", "llama-vector-restated"]


def test_a_llama_system_without_llama_index_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Registered whatever is installed; naming a LlamaIndex system without the package says
    which extra to install, before any store is opened (the next test: in a fresh process)."""
    monkeypatch.setitem(sys.modules, "llama_index.core", None)  # as if not installed
    assert set(LLAMA_SYSTEMS) <= set(SYSTEMS)
    for name in LLAMA_SYSTEMS:
        with pytest.raises(MissingDependencyError, match=r"ramem-integrations\[llama-index\]"):
            select(f"ramem,{name}")
    assert set(select(None)) == set(SYSTEMS) - set(LLAMA_SYSTEMS)  # all: those that can run
    with pytest.raises(MissingDependencyError, match="llama-index-core is not installed"):
        SYSTEMS["llama-vector"](None, ask("anything?"), 3)  # type: ignore[arg-type]


def test_every_system_is_selected_with_llama_index() -> None:
    assert set(LLAMA_SYSTEMS) <= set(select(None)) and select(None).keys() == SYSTEMS.keys()


def test_the_cli_names_the_missing_extra_before_any_work(tmp_path: Path) -> None:
    """A real ``ramem eval`` run in a process where llama_index cannot be imported."""
    script = (
        "import sys; sys.modules['llama_index.core'] = None\n"
        "from ramem_integrations.app.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    fixture = Path(__file__).parent / "fixtures" / "locomo-tiny.json"
    cache = tmp_path / "cache"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            script,
            "eval",
            "locomo",
            str(fixture),
            "--systems",
            "content,llama-vector",
            "--cache",
            str(cache),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)},
    )
    assert done.returncode == 2, done.stderr
    assert "pip install 'ramem-integrations[llama-index]'" in done.stderr
    assert not cache.exists()  # nothing was ingested
