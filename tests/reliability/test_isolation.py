"""Namespace isolation: no read path ever returns a memory of another namespace.

Random namespaces (any text), random memories drawn from one small vocabulary (so that every
namespace holds near-duplicates of the others' memories) and random queries, through every
read path: the four retrieval modes, the contextual filter path (grounded frames), ``frame``,
``answer``, the CLI ``query`` and the framework retrievers when they exist.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ramem_integrations.app import cli
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan
from ramem_integrations.errors import NamespaceError
from ramem_integrations.memory.ramem import MODES, RaMem
from ramem_integrations.testing import HashingEmbedder
from tests.reliability.helpers import PEOPLE, TIMES, WORDS

pytestmark = pytest.mark.reliability

BASE = datetime(2023, 3, 6, 10, tzinfo=UTC)
names = st.text(min_size=1, max_size=16).filter(lambda s: s.strip() != "")
sentences = st.lists(st.sampled_from([*WORDS, *PEOPLE, *TIMES]), min_size=2, max_size=10).map(
    " ".join
)
QUESTIONS = [
    "What did Bob say about the trip last August?",
    "Who went to Paris in March 2023?",
    "What did Ann say about pottery class before the concert?",
    "When did Cleo start the guitar lesson?",
    "What happened with the dentist in April 2023?",
]
queries = st.one_of(st.sampled_from(QUESTIONS), sentences)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("iso") / "store"
    return {
        "path": path,
        "mem": RaMem.from_path(path, embedder=HashingEmbedder()),
        "owned": {},
        "paths": {"context": 0, "content": 0, "cli": 0, "frameworks": 0},
    }


def unit(ns: str, n: int, text: str, person: str, week: int) -> MemoryUnit:
    start = BASE + timedelta(days=7 * week)
    ctx = EpisodicContext(
        session_id=f"s{week}",
        session_span=TimeSpan(start, start + timedelta(hours=1)),
        participants=(person, "Ann"),
        speaker=person,
        entities=(person, "Paris"),
        location="Paris" if n % 3 == 0 else None,
    )
    from ramem_integrations.core.anchoring import memory_id

    return MemoryUnit(
        memory_id(ns, "c", [f"t{n}"]), f"{person} said: {text}", ctx, ns, (f"t{n}",), "c"
    )


def check(hits: list[Any], ns: str, owned: dict[str, set[str]]) -> None:
    for hit in hits:
        memory = hit.memory if hasattr(hit, "memory") else hit
        assert memory.namespace == ns, (memory.namespace, ns)
        assert memory.id in owned[ns], "a memory not written to this namespace"


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    spaces=st.lists(names, min_size=2, max_size=4, unique=True),
    texts=st.lists(sentences, min_size=1, max_size=6),
    query=queries,
    k=st.integers(1, 30),
    week=st.integers(0, 60),
)
def test_no_read_crosses_namespaces(
    world: dict[str, Any],
    spaces: list[str],
    texts: list[str],
    query: str,
    k: int,
    week: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mem: RaMem = world["mem"]
    owned: dict[str, set[str]] = world["owned"]
    for i, ns in enumerate(spaces):
        units = [
            unit(ns, n, t, PEOPLE[(n + i) % len(PEOPLE)], week + n) for n, t in enumerate(texts)
        ]
        mem.add_memories(units, replace=True)  # examples reuse ids with other texts
        owned.setdefault(ns, set()).update(u.id for u in units)
    reference = BASE + timedelta(days=7 * (week + len(texts)))
    for ns in spaces:
        for mode in MODES:
            check(mem.retrieve(query, ns, k, mode=mode, reference=reference), ns, owned)
        frame = mem.frame(query, ns, reference=reference)
        ranked = mem.reinstatement.retrieve(frame, ns, k)  # the contextual filter path
        check(ranked, ns, owned)
        world["paths"]["context"] += sum(h.reason == "context" for h in ranked)
        world["paths"]["content"] += sum(h.reason == "content" for h in ranked)
        check(list(mem.answer(query, ns, k=k, reference=reference, llm=None).hits), ns, owned)
        check(mem.memories(ns), ns, owned)
        assert set(mem.store.ids(ns)) == owned[ns]
        for build in FRAMEWORKS:
            for got_ns, got_id in build(mem, ns, k)(query):
                assert got_ns == ns and got_id in owned[ns]
                world["paths"]["frameworks"] += 1
    # the CLI query, a separate RaMem on the same path
    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", HashingEmbedder)
    ns = spaces[-1]
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(
            [
                "query",
                query,
                "--store",
                str(world["path"]),
                f"--namespace={ns}",  # one token: a name may start with "-"
                "--k",
                str(k),
                "--json",
            ]
        )
    assert code == 0
    for hit in json.loads(out.getvalue()):
        assert hit["namespace"] == ns and hit["id"] in owned[ns]
        world["paths"]["cli"] += 1


def test_paths_were_exercised(world: dict[str, Any]) -> None:
    """The property above must have gone through the context path, not only content."""
    assert world["paths"]["context"] > 0 and world["paths"]["content"] > 0, world["paths"]
    assert world["paths"]["cli"] > 0
    assert world["paths"]["frameworks"] > 0 or not FRAMEWORKS
    print(f"hits checked by path: {world['paths']}")


@pytest.mark.parametrize("namespace", [None, "", "   ", "\n", 0, ["a", "b"], ("a",), b"a"])
def test_reads_without_a_namespace_are_refused(fake_mem: RaMem, namespace: Any) -> None:
    fake_mem.add_turns(
        [{"speaker": "Ann", "text": "The dentist said my tooth is fine."}], "ann", session_time=BASE
    )
    calls: list[Callable[[], object]] = [
        *(lambda m=mode: fake_mem.retrieve("dentist", namespace, mode=m) for mode in MODES),
        lambda: fake_mem.frame("dentist", namespace),
        lambda: fake_mem.answer("dentist?", namespace),
        lambda: fake_mem.memories(namespace),
        lambda: fake_mem.count(namespace),
        lambda: fake_mem.forget(namespace),
        lambda: fake_mem.store.get(namespace),
        lambda: fake_mem.store.ids(namespace),
        lambda: fake_mem.store.get_with_vectors(namespace),
    ]
    for call in calls:
        with pytest.raises(NamespaceError, match="namespace is required"):
            call()
    assert fake_mem.count("ann") == 1  # nothing was forgotten by a nameless call


def framework_retrievers() -> list[Any]:
    """Builders ``(memory, namespace, k) -> callable(query) -> [(namespace, id)]`` for the
    LangChain and LlamaIndex retrievers, when the package has them and the extras are installed."""
    out: list[Any] = []
    try:
        from ramem_integrations.langchain import RaMemRetriever as LangChainRetriever
    except ImportError:
        pass
    else:

        def langchain(mem: RaMem, ns: str, k: int) -> Any:
            retriever = LangChainRetriever(memory=mem, namespace=ns, k=k)
            return lambda q: [
                (d.metadata["namespace"], d.metadata["id"]) for d in retriever.invoke(q)
            ]

        out.append(langchain)
    try:
        from ramem_integrations.llama_index import RaMemRetriever as LlamaRetriever
    except ImportError:
        pass
    else:

        def llama(mem: RaMem, ns: str, k: int) -> Any:
            retriever = LlamaRetriever(mem, ns, similarity_top_k=k)
            return lambda q: [
                (n.node.metadata.get("namespace", ns), n.node.node_id)
                for n in retriever.retrieve(q)
            ]

        out.append(llama)
    return out


FRAMEWORKS = framework_retrievers()


def test_framework_retrievers_present() -> None:
    """Records in the test report whether the framework retrievers were covered."""
    if len(FRAMEWORKS) < 2:
        pytest.skip(f"only {len(FRAMEWORKS)} framework retriever(s) importable")
