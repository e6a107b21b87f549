"""One rule for when a question is asked, on every surface: the reference given, else the
clock; ``UNDATED`` reads it undated, and a relative time left ungrounded is warned about.

Real RaMem over real Chroma, the real LangChain and LlamaIndex objects; the memories are dated
from today so that the surfaces' own clock is what grounds "yesterday"."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("llama_index.core")

from ramem_integrations import RaMem
from ramem_integrations.adapters_common.asked import UNDATED, asked_at
from ramem_integrations.langchain import RaMemRetriever as LangChainRetriever
from ramem_integrations.llama_index import (
    EpisodicReinstatementPostprocessor,
    RaMemRetriever,
    to_node,
)
from ramem_integrations.memory.questions import UngroundedTimeWarning
from ramem_integrations.testing import HashingEmbedder

QUESTION = "What did Alice say about the dentist yesterday?"
YESTERDAY = "The dentist called me again."


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    """Alice on the dentist twelve days ago (the better words) and yesterday."""
    memory = RaMem.from_path(tmp_path_factory.mktemp("rule"), embedder=HashingEmbedder())
    today = datetime.now(UTC).date()
    for days, text in [
        (12, "What did the dentist say about Alice? The dentist said Alice is fine."),
        (1, YESTERDAY),
    ]:
        day = today - timedelta(days=days)
        memory.add_turns(
            [{"speaker": "Alice", "text": text}, {"speaker": "Sam", "text": "Good to hear."}],
            "alice",
            session_time=datetime.combine(day, time(12), UTC),
        )
    return memory


def _langchain(mem: RaMem, **options: Any) -> list[tuple[str, str]]:
    docs = LangChainRetriever(memory=mem, namespace="alice", k=2, **options).invoke(QUESTION)
    return [(d.page_content, d.metadata["reason"]) for d in docs]


def _llama(mem: RaMem, **options: Any) -> list[tuple[str, str]]:
    nodes = RaMemRetriever(mem, "alice", similarity_top_k=2, **options).retrieve(QUESTION)
    return [(n.node.get_content(), n.node.metadata["reason"]) for n in nodes]


def _postprocessor(mem: RaMem, **options: Any) -> list[tuple[str, str]]:
    units = sorted(mem.memories("alice"), key=lambda u: u.context.session_span.start)
    nodes = [to_node(u) for u in units if u.context.speaker == "Alice"]
    out = EpisodicReinstatementPostprocessor(**options).postprocess_nodes(nodes, query_str=QUESTION)
    return [(n.node.get_content(), n.node.metadata["reason"]) for n in out]


SURFACES: list[Callable[..., list[tuple[str, str]]]] = [_langchain, _llama, _postprocessor]


@pytest.mark.parametrize("surface", SURFACES, ids=["langchain", "llama_index", "postprocessor"])
def test_without_a_reference_every_surface_grounds_at_the_clock(
    mem: RaMem, surface: Callable[..., list[tuple[str, str]]]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", UngroundedTimeWarning)  # grounded: nothing to say
        ranked = surface(mem)
    assert ranked[0] == (YESTERDAY, "context")


@pytest.mark.parametrize("surface", SURFACES, ids=["langchain", "llama_index", "postprocessor"])
def test_undated_questions_say_their_relative_time_is_not_grounded(
    mem: RaMem, surface: Callable[..., list[tuple[str, str]]]
) -> None:
    with pytest.warns(UngroundedTimeWarning, match="'yesterday'.*reference="):
        ranked = surface(mem, reference=UNDATED)
    assert ranked[0][0] != YESTERDAY  # the better words first: no time condition holds


def test_ramem_itself_warns_when_an_undated_question_drops_a_relative_time(mem: RaMem) -> None:
    with pytest.warns(UngroundedTimeWarning, match="'yesterday'"):
        mem.retrieve(QUESTION, "alice", 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UngroundedTimeWarning)
        mem.retrieve("What did Alice say about the dentist?", "alice", 2)  # nothing dropped


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        (None, datetime(2030, 1, 2, tzinfo=UTC)),  # the clock
        (datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 1, tzinfo=UTC)),
        (lambda: datetime(2024, 3, 2, tzinfo=UTC), datetime(2024, 3, 2, tzinfo=UTC)),
        (UNDATED, None),
    ],
)
def test_asked_at_is_the_one_rule(reference: Any, expected: datetime | None) -> None:
    assert asked_at(reference, lambda: datetime(2030, 1, 2, tzinfo=UTC)) == expected


# -- code reads why a time was dropped from a field, never from the words saying so ----------


ASKED_ON = datetime(2024, 9, 3, 12, tzinfo=UTC)


class _Scripted:
    """A frame inducer that reads every question as the frame it is given."""

    def __init__(self, *conditions: Any) -> None:
        self.conditions = conditions

    def induce(self, query: str, *, reference: datetime, known: Any) -> Any:
        from ramem_integrations.core.types import RecallFrame

        return RecallFrame(query, query, self.conditions, reference=reference)


@pytest.mark.parametrize(
    ("undated", "reason", "warned", "cli_fix"),
    [
        (True, "reworded: no date to read it against", True, True),
        (False, "a relative time, and the question's date is unknown", False, False),
    ],
)
def test_an_undated_time_is_told_by_its_flag_not_its_words(
    undated: bool, reason: str, warned: bool, cli_fix: bool
) -> None:
    from ramem_integrations.app.cli import not_grounded
    from ramem_integrations.core.frames import KnownContext
    from ramem_integrations.core.types import Condition, TimeSpan
    from ramem_integrations.memory.questions import frame_question

    dropped = Condition("time", "x", "last week", False, reason=reason, undated=undated)
    known = KnownContext(date_range=TimeSpan(datetime(2024, 1, 1, tzinfo=UTC), ASKED_ON))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = frame_question("What did I do last week?", _Scripted(dropped), known, None)
    told = [w for w in caught if issubclass(w.category, UngroundedTimeWarning)]
    assert bool(told) is warned
    (missed,) = not_grounded(frame, None)
    assert missed["reason"].startswith("no --asked-on given") is cli_fix
    assert missed["reason"] == reason or cli_fix


def test_a_relative_time_dropped_for_want_of_a_date_is_flagged() -> None:
    from ramem_integrations.core.frames import (
        KnownContext,
        RuleFrameInducer,
        without_relative_times,
    )

    frame = RuleFrameInducer().induce(
        "What did I do last week?", reference=ASKED_ON, known=KnownContext()
    )
    (time,) = [c for c in without_relative_times(frame).conditions if c.kind == "time"]
    assert (time.grounded, time.undated) == (False, True)
