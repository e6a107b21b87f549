"""Bad input: fuzzed loaders, temporal grounding, frame induction and public API.

The only exceptions allowed out are ``RamemError`` subclasses with a message; every call
finishes within a bound; a refused write leaves the store as it was.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramem_integrations.core.conversation import FORMATS, load_conversations
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.time.grounding import REFERENCE_YEARS, find_times, ground_time
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import RamemError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import within

pytestmark = pytest.mark.reliability

FIXTURES = Path(__file__).parent.parent / "fixtures"
BOUND = 10.0  # seconds per call: catches a hang, not a slow machine
FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def only_ramem_errors(call: Callable[[], Any], bound: float = BOUND) -> Any:
    """Run ``call`` within ``bound`` s; a RamemError is an answer, anything else a failure."""
    try:
        return within(bound, call)
    except RamemError as exc:
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
        return exc


# ---------------------------------------------------------------- loaders

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = [
    "conversation",
    "haystack_sessions",
    "haystack_dates",
    "haystack_session_ids",
    "question_id",
    "turns",
    "session_time",
    "session_end",
    "speaker",
    "text",
    "time",
    "dia_id",
    "session_1",
    "session_1_date_time",
    "sample_id",
    "role",
    "content",
    "id",
    "blip_caption",
    "session_id",
]
shaped = st.recursive(
    st.none()
    | st.integers(-5, 10**12)
    | st.sampled_from(
        [
            "",
            " ",
            "2023-05-08",
            "someday",
            "1:56 pm on 8 May, 2023",
            "x" * 50,
            "[1, 2]",
            "[[",
            "9999-12-31 23:59",
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)
    ),
    max_leaves=30,
)


def _fixture_json() -> list[Any]:
    return [json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))]


def _mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """A random structural mutation: drop a key, change a type, empty a list, deep-copy."""
    if isinstance(value, dict) and value:
        out = dict(value)
        key = rng.choice(list(out))
        choice = rng.random()
        if choice < 0.25:
            del out[key]
        elif choice < 0.5:
            out[key] = rng.choice([None, 0, -1, "", "x", [], {}, [None], 10**20, 1.5, True])
        else:
            out[key] = _mutate(out[key], rng, depth + 1)
        return out
    if isinstance(value, list) and value:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        choice = rng.random()
        if choice < 0.2:
            del out_list[i]
        elif choice < 0.35:
            out_list.append(out_list[i])  # a repeated turn or session
        elif choice < 0.5:
            out_list[i] = rng.choice([None, "", 3, {}, []])
        else:
            out_list[i] = _mutate(out_list[i], rng, depth + 1)
        return out_list
    if isinstance(value, str):
        return rng.choice(
            ["", " ", value[::-1], value + " (Mon)", "31 February 2023", "\x00", value * 3]
        )
    return rng.choice([None, "text", -(10**9), [value]])


def test_loaders_on_random_json(tmp_path: Path) -> None:
    path = tmp_path / "f.json"

    @FUZZ
    @given(
        data=st.one_of(json_values, shaped, st.lists(shaped, min_size=1, max_size=3)),
        fmt=st.sampled_from([None, *FORMATS]),
    )
    def check(data: Any, fmt: str | None) -> None:
        path.write_text(json.dumps(data), encoding="utf-8")
        only_ramem_errors(lambda: load_conversations(path, fmt))

    check()


def test_loaders_on_mutated_fixtures(tmp_path: Path) -> None:
    """2,000 structural mutations of the shipped LoCoMo, LongMemEval and chat fixtures."""
    rng = random.Random(8)
    path = tmp_path / "m.json"
    bases = _fixture_json()
    outcomes = {"loaded": 0, "refused": 0}
    for i in range(2000):
        data = bases[i % len(bases)]
        for _ in range(rng.randint(1, 4)):
            data = _mutate(data, rng)
        path.write_text(json.dumps(data), encoding="utf-8")
        result = only_ramem_errors(lambda: load_conversations(path))
        outcomes["refused" if isinstance(result, RamemError) else "loaded"] += 1
    assert outcomes["refused"] > 200 and outcomes["loaded"] > 50, outcomes


@FUZZ
@given(raw=st.binary(max_size=300), cut=st.integers(0, 4000))
def test_loaders_on_broken_bytes(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes, cut: int
) -> None:
    """Random bytes, and fixtures truncated at a random byte or with random bytes spliced in."""
    base = sorted(FIXTURES.glob("*.json"))[cut % 3].read_bytes()
    path = tmp_path_factory.mktemp("b") / "b.json"
    for body in (
        raw,
        base[: cut % len(base)],
        base[: cut % len(base)] + raw + base[cut % len(base) :],
    ):
        path.write_bytes(body)
        only_ramem_errors(lambda: load_conversations(path))


# ---------------------------------------------------------------- temporal and frames

TIME_WORDS = [
    "last",
    "next",
    "this",
    "ago",
    "before",
    "after",
    "since",
    "until",
    "between",
    "and",
    "the",
    "of",
    "in",
    "on",
    "weeks",
    "days",
    "years",
    "months",
    "decade",
    "1990s",
    "May",
    "August",
    "spring",
    "weekend",
    "Monday",
    "yesterday",
    "tomorrow",
    "tonight",
    "morning",
    "2023",
    "0",
    "31",
    "February",
    "29",
    "9999",
    "10000",
    "-1",
    "1st",
    "twenty-one",
    "a",
    "few",
    "couple",
    "½",
    "١٢",
    "2023-13-45",
    "05/08/2023",
    "99/99/99",
    "12/31/9999",
    "3000000 days ago",
    "10**9",
    "first",
    "so far",
    "early",
    "mid",
    "late",
    "the day before yesterday",
    "two weeks before her birthday",
    "\n",
    "\t",
    "  ",
    "\u2028",
    "{",
    "}",
    "’",
    "—",
]
time_text = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(TIME_WORDS), max_size=25).map(" ".join),
    st.lists(
        st.one_of(st.sampled_from(TIME_WORDS), st.integers(-(10**6), 10**12).map(str)), max_size=15
    ).map(" ".join),
)
offsets = st.integers(-23 * 60, 23 * 60).map(lambda m: timezone(timedelta(minutes=m)))
references = st.one_of(
    st.datetimes(
        min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ),
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2100, 1, 1), timezones=offsets),
)
bad_references = st.one_of(st.none(), st.text(max_size=10), st.integers(), st.datetimes())


@FUZZ
@given(text=time_text, ref=references)
def test_find_and_ground_times(text: str, ref: datetime) -> None:
    found = only_ramem_errors(lambda: find_times(text, ref))
    assert isinstance(found, RamemError) == (not in_range(ref)), found  # refused only out of range
    only_ramem_errors(lambda: ground_time(text, ref))
    span = only_ramem_errors(
        lambda: ground_time(text, ref, within=TimeSpan(ref, ref + timedelta(days=1)))
    )
    assert span is None or isinstance(span, (TimeSpan, RamemError))


@settings(FUZZ, max_examples=100)
@given(text=st.one_of(st.text(max_size=50), st.integers(), st.none()), ref=bad_references)
def test_times_refuse_bad_references(text: Any, ref: Any) -> None:
    assert isinstance(only_ramem_errors(lambda: ground_time(text, ref)), RamemError)
    assert isinstance(only_ramem_errors(lambda: find_times(text, ref)), RamemError)


def in_range(ref: datetime) -> bool:
    return REFERENCE_YEARS[0] <= ref.year <= REFERENCE_YEARS[1]


def _known(draw_people: list[str], ref: datetime) -> KnownContext:
    span = TimeSpan(ref - timedelta(days=400), ref) if in_range(ref) else None
    return KnownContext(tuple(draw_people), ("Paris",), ("pottery",), span)


@FUZZ
@given(
    query=time_text, ref=references, people=st.lists(st.text(min_size=1, max_size=8), max_size=3)
)
def test_rule_frame_induction(query: str, ref: datetime, people: list[str]) -> None:
    inducer = RuleFrameInducer()
    frame = only_ramem_errors(
        lambda: inducer.induce(query, reference=ref, known=_known(people, ref))
    )
    assert isinstance(frame, RamemError) == (not in_range(ref)), frame


@settings(FUZZ, max_examples=60)
@given(
    query=st.one_of(st.none(), st.integers(), st.binary(max_size=5), st.lists(st.text())),
    ref=st.one_of(references, bad_references),
)
def test_rule_frame_induction_refuses_wrong_types(query: Any, ref: Any) -> None:
    result = only_ramem_errors(
        lambda: RuleFrameInducer().induce(query, reference=ref, known=KnownContext())
    )
    assert isinstance(result, RamemError)


# ---------------------------------------------------------------- public API

anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(),
    st.text(max_size=20),
    st.binary(max_size=5),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2),
    st.datetimes(),
    st.just(object()),
)
turn_dicts = st.fixed_dictionaries(
    {
        "speaker": st.one_of(st.text(max_size=10), anything),
        "text": st.one_of(st.text(max_size=60), anything),
    },
    optional={"time": st.one_of(st.text(max_size=20), anything), "id": anything},
)
turn_lists = st.one_of(st.lists(st.one_of(turn_dicts, anything), max_size=4), anything)
session_times = st.one_of(references, anything)
namespaces = st.one_of(st.text(max_size=12), anything)


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> RaMem:
    store = ChromaEpisodicStore.from_path(tmp_path_factory.mktemp("api") / "store")
    memory = RaMem(store, embedder=HashingEmbedder())
    memory.add_turns(
        [
            {"speaker": "Ann", "text": "I saw the dentist yesterday about my tooth."},
            {"speaker": "Ben", "text": "Bob went to Paris last August."},
        ],
        "seed",
        session_time=datetime(2023, 9, 1, tzinfo=UTC),
    )
    return memory


def _total(memory: RaMem) -> int:
    return sum(memory.namespaces().values())


@settings(FUZZ, max_examples=250)
@given(
    turns=turn_lists,
    ns=namespaces,
    when=session_times,
    sid=st.one_of(st.none(), anything),
    cid=st.one_of(st.just("default"), anything),
)
def test_add_turns_refuses_cleanly(
    mem: RaMem, turns: Any, ns: Any, when: Any, sid: Any, cid: Any
) -> None:
    before = _total(mem)
    result = only_ramem_errors(
        lambda: mem.add_turns(turns, ns, session_time=when, session_id=sid, conversation_id=cid),
        bound=10.0,  # an accepted call embeds and writes
    )
    if isinstance(result, RamemError):
        assert _total(mem) == before, "a refused add left memories behind"
    else:
        assert _total(mem) >= before


@settings(FUZZ, max_examples=250)
@given(
    query=st.one_of(st.text(max_size=80), anything),
    ns=st.one_of(st.just("seed"), namespaces),
    k=st.one_of(st.integers(-3, 10**9), anything),
    mode=st.one_of(st.sampled_from(["ramem", "content", "dense", "bm25"]), anything),
    ref=st.one_of(st.none(), references, anything),
)
def test_retrieve_refuses_cleanly(
    mem: RaMem, query: Any, ns: Any, k: Any, mode: Any, ref: Any
) -> None:
    before = _total(mem)
    result = only_ramem_errors(
        lambda: mem.retrieve(query, ns, k, mode=mode, reference=ref), bound=5.0
    )
    if not isinstance(result, RamemError):
        assert isinstance(result, list)
        assert all(h.memory.namespace == ns for h in result)
    assert _total(mem) == before


@settings(FUZZ, max_examples=80)
@given(conv=anything, ns=namespaces)
def test_add_conversation_refuses_wrong_types(mem: RaMem, conv: Any, ns: Any) -> None:
    before = _total(mem)
    assert isinstance(only_ramem_errors(lambda: mem.add_conversation(conv, ns)), RamemError)
    assert isinstance(only_ramem_errors(lambda: mem.add_conversations([conv], ns)), RamemError)
    assert isinstance(only_ramem_errors(lambda: mem.add_memories([conv])), RamemError)
    assert _total(mem) == before


# A named table of the distinct bad inputs the doc lists (each must be refused cleanly).
NAMED: dict[str, Callable[[RaMem], Any]] = {}


def _named(name: str) -> Callable[[Callable[[RaMem], Any]], Callable[[RaMem], Any]]:
    def register(call: Callable[[RaMem], Any]) -> Callable[[RaMem], Any]:
        NAMED[name] = call
        return call

    return register


D = datetime(2023, 5, 8, tzinfo=UTC)


def _graph_store(memory: RaMem) -> Any:
    from ramem_integrations.langgraph import RaMemStore

    return RaMemStore(memory)


for _name, _call in {
    "add_turns: session_time is a string": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], "n", session_time="2023-05-08"
    ),
    "add_turns: session_time is None": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], "n", session_time=None
    ),
    "add_turns: naive session_time": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], "n", session_time=datetime(2023, 5, 8)
    ),
    "add_turns: turns is a string": lambda m: m.add_turns("hello", "n", session_time=D),
    "add_turns: turns is None": lambda m: m.add_turns(None, "n", session_time=D),
    "add_turns: empty list": lambda m: m.add_turns([], "n", session_time=D),
    "add_turns: turn is an int": lambda m: m.add_turns([3], "n", session_time=D),
    "add_turns: speaker missing": lambda m: m.add_turns([{"text": "x"}], "n", session_time=D),
    "add_turns: text is a number": lambda m: m.add_turns(
        [{"speaker": "A", "text": 5}], "n", session_time=D
    ),
    "add_turns: text blank": lambda m: m.add_turns(
        [{"speaker": "A", "text": "  \n"}], "n", session_time=D
    ),
    "add_turns: turn time unreadable": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x", "time": "soon"}], "n", session_time=D
    ),
    "add_turns: turn time in epoch milliseconds": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x", "time": 1_717_000_000_000}], "n", session_time=D
    ),
    "add_turns: turn time is a bool": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x", "time": True}], "n", session_time=D
    ),
    "add_turns: second turn bad, first good": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}, {"speaker": "", "text": "y"}], "n", session_time=D
    ),
    "add_turns: repeated turn ids": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x", "id": "1"}, {"speaker": "B", "text": "y", "id": "1"}],
        "n",
        session_time=D,
    ),
    "add_turns: session_id is a list": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], "n", session_time=D, session_id=["s"]
    ),
    "add_turns: conversation_id is None": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], "n", session_time=D, conversation_id=None
    ),
    "add_turns: namespace None": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], None, session_time=D
    ),
    "add_turns: namespace blank": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], " \t", session_time=D
    ),
    "add_turns: namespace is an int": lambda m: m.add_turns(
        [{"speaker": "A", "text": "x"}], 7, session_time=D
    ),
    "add_conversation: a dict": lambda m: m.add_conversation({"id": "x", "sessions": []}, "n"),
    "add_conversation: a list of turns": lambda m: m.add_conversation(
        [{"speaker": "A", "text": "x"}], "n"
    ),
    "add_conversation: None": lambda m: m.add_conversation(None, "n"),
    "add_conversations: a string": lambda m: m.add_conversations("abc", "n"),
    "add_memories: a dict": lambda m: m.add_memories([{"id": "x"}]),
    "retrieve: query None": lambda m: m.retrieve(None, "seed"),
    "retrieve: query bytes": lambda m: m.retrieve(b"dentist", "seed"),
    "retrieve: query blank": lambda m: m.retrieve(" \n ", "seed"),
    "retrieve: k is a float": lambda m: m.retrieve("dentist", "seed", 2.5),
    "retrieve: k is True": lambda m: m.retrieve("dentist", "seed", True),
    "retrieve: k negative": lambda m: m.retrieve("dentist", "seed", -1),
    "retrieve: mode unknown": lambda m: m.retrieve("dentist", "seed", mode="vector"),
    "retrieve: mode None": lambda m: m.retrieve("dentist", "seed", mode=None),
    "retrieve: naive reference": lambda m: m.retrieve(
        "what did Ann do last week?", "seed", reference=datetime(2023, 9, 1)
    ),
    "retrieve: reference a string": lambda m: m.retrieve(
        "what did Ann do last week?", "seed", reference="2023-09-01"
    ),
    "retrieve: namespace None": lambda m: m.retrieve("dentist", None),
    "retrieve: namespace a list": lambda m: m.retrieve("dentist", ["seed", "other"]),
    "forget: namespace None": lambda m: m.forget(None),
    "forget: ids is a string": lambda m: m.forget("seed-x", ids="abc"),
    "frame: namespace blank": lambda m: m.frame("q", ""),
    "answer: question None": lambda m: m.answer(None, "seed"),
    "LangGraph recall: query None": lambda m: _graph_store(m).recall(("seed",), None),
    "LangGraph recall: query a number": lambda m: _graph_store(m).recall(("seed",), 3),
}.items():
    _named(_name)(_call)


@pytest.mark.parametrize("name", list(NAMED))
def test_named_bad_inputs(mem: RaMem, name: str) -> None:
    before = {ns: n for ns, n in mem.namespaces().items()}
    result = only_ramem_errors(lambda: NAMED[name](mem))
    assert isinstance(result, RamemError), (name, result)
    assert mem.namespaces() == before


def test_inputs_tried_figure() -> None:
    """The doc's figure: named inputs, plus the fuzz budgets above."""
    assert len(NAMED) >= 30
    assert len(list(itertools.chain(TIME_WORDS, KEYS))) > 50
