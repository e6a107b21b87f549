from pathlib import Path

import pytest

from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.errors import InvalidInputError, NamespaceError, UnknownNamespaceError
from ramem_integrations.memory.ramem import RaMem

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def conversation():  # type: ignore[no-untyped-def]
    (conv,) = load_conversations(FIXTURES / "chat_small.json")
    return conv


def test_add_conversation_is_idempotent(fake_mem: RaMem, conversation) -> None:  # type: ignore[no-untyped-def]
    first = fake_mem.add_conversation(conversation, "ann")
    again = fake_mem.add_conversation(conversation, "ann")
    assert first == again and len(first) == 5
    assert fake_mem.count("ann") == 5


def test_same_conversation_in_two_namespaces_does_not_collide(
    fake_mem: RaMem, conversation
) -> None:  # type: ignore[no-untyped-def]
    fake_mem.add_conversation(conversation, "ann")
    fake_mem.add_conversation(conversation, "ben")
    assert fake_mem.namespaces() == {"ann": 5, "ben": 5}


@pytest.mark.parametrize("mode", ["content", "dense", "bm25"])
def test_retrieve_modes_stay_in_namespace(fake_mem: RaMem, conversation, mode: str) -> None:  # type: ignore[no-untyped-def]
    fake_mem.add_conversation(conversation, "ann")
    hits = fake_mem.retrieve("pottery class", "ann", k=3, mode=mode)
    assert hits[0].memory.source_ids == ("b:2",)
    assert len(hits) <= 3 and all(h.memory.namespace == "ann" for h in hits)
    with pytest.raises(UnknownNamespaceError, match="ever written to namespace"):
        fake_mem.retrieve("pottery class", "nobody", k=3, mode=mode)
    assert fake_mem.retrieve("pottery class", "nobody", k=3, mode=mode, missing_ok=True) == []


@pytest.mark.parametrize("mode", ["ramem", "content", "dense", "bm25"])
def test_retrieve_within_ranks_only_the_given_memories(  # type: ignore[no-untyped-def]
    fake_mem: RaMem, conversation, mode: str
) -> None:
    fake_mem.add_conversation(conversation, "ann")
    ids = {u.source_ids[0]: u.id for u in fake_mem.memories("ann")}
    everything = fake_mem.retrieve("hiking pottery", "ann", k=5, mode=mode)
    assert ids["b:2"] in {h.memory.id for h in everything}  # the pottery message
    scope = [ids["a:1"], ids["a:3"]]  # no word of the query in a:3
    hits = fake_mem.retrieve("hiking pottery", "ann", k=5, mode=mode, within=scope)
    assert hits and {h.memory.id for h in hits} <= set(scope)
    assert hits[0].memory.id == ids["a:1"]  # the pottery message is not ranked
    assert fake_mem.retrieve("hiking", "ann", k=5, mode=mode, within=[]) == []
    with pytest.raises(InvalidInputError, match="within must be a list"):
        fake_mem.retrieve("hiking", "ann", mode=mode, within=ids["a:1"])


def test_bm25_follows_adds_and_forgets(fake_mem: RaMem, conversation) -> None:  # type: ignore[no-untyped-def]
    fake_mem.add_conversation(conversation, "ann")
    assert fake_mem.retrieve("pottery", "ann", mode="bm25")  # index loaded
    removed = fake_mem.forget(
        "ann", ids=[fake_mem.retrieve("pottery", "ann", k=1, mode="bm25")[0].memory.id]
    )
    assert removed == 1
    assert fake_mem.retrieve("pottery", "ann", mode="bm25") == []
    assert fake_mem.forget("ann", conversation_id=conversation.id) == 4
    assert fake_mem.count("ann") == 0


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda m: m.retrieve("q", ""), NamespaceError, "namespace is required"),
        (lambda m: m.retrieve("", "ann"), InvalidInputError, "query is empty"),
        (lambda m: m.retrieve("q", "ann", k=0), InvalidInputError, "positive integer"),
        (lambda m: m.retrieve("q", "ann", mode="magic"), InvalidInputError, "Unknown mode"),
        (
            lambda m: m.add_conversation("hello", "ann"),
            InvalidInputError,
            "Expected a Conversation",
        ),
        (lambda m: m.add_memories(["x"]), InvalidInputError, "Expected MemoryUnit"),
    ],
)
def test_bad_calls_raise_and_write_nothing(fake_mem: RaMem, call, error, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message):
        call(fake_mem)
    assert fake_mem.namespaces() == {}


def test_bad_namespace_on_add_writes_nothing(fake_mem: RaMem, conversation) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NamespaceError):
        fake_mem.add_conversation(conversation, " ")
    assert fake_mem.namespaces() == {}


def test_add_turns_and_aretrieve(fake_mem: RaMem) -> None:
    import asyncio
    from datetime import UTC, datetime

    when = datetime(2024, 3, 12, 18, tzinfo=UTC)
    turns = [
        {"speaker": "Alice", "text": "I saw the dentist yesterday."},
        {"speaker": "Sam", "text": "How did it go?"},
    ]
    ids = fake_mem.add_turns(turns, "alice", session_time=when)
    assert fake_mem.add_turns(turns, "alice", session_time=when) == ids  # same session: no copies
    assert fake_mem.count("alice") == 2
    hits = asyncio.run(fake_mem.aretrieve("dentist", "alice", k=1, reference=when))
    assert hits[0].memory.content == "I saw the dentist yesterday."  # verbatim
    assert "on 11 March 2024" in (hits[0].memory.restatement or "")
    with pytest.raises(InvalidInputError, match="has no text"):
        fake_mem.add_turns([{"speaker": "A", "text": ""}], "alice", session_time=when)


def test_add_conversations_batches_into_namespaces_by_id(fake_mem: RaMem, conversation) -> None:  # type: ignore[no-untyped-def]
    assert fake_mem.add_conversations([conversation]) == {conversation.id: 5}
    assert fake_mem.add_conversations([conversation], "x") == {"x": 5}
    assert fake_mem.namespaces() == {conversation.id: 5, "x": 5}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "asked_on", "first"),
    [
        ("What did the dentist say in July?", None, "healed well."),
        ("What did the dentist say in March?", None, "must come out."),
        ("What did the dentist say last month?", "2024-08-02", "healed well."),
        ("What did the dentist say last month?", "2024-04-02", "must come out."),
    ],
)
def test_a_small_namespace_puts_the_asked_time_first(
    tmp_path: Path, question: str, asked_on: str | None, first: str
) -> None:
    # The default (strict) order. With only two memories, fusion spreads their content scores
    # to 1.0 and 0.5, and the soft order's bonus does not lift the July visit over the March one
    # (docs/evaluation.md, "What the figures say"): why strict stays the default.
    from datetime import UTC, datetime

    mem = RaMem.from_path(tmp_path)
    for text, when in [
        ("The dentist said the tooth must come out.", datetime(2024, 3, 12, 18, tzinfo=UTC)),
        ("The dentist said the tooth healed well.", datetime(2024, 7, 9, 12, tzinfo=UTC)),
    ]:
        mem.add_turns([{"speaker": "Alice", "text": text}], "alice", session_time=when)
    reference = datetime.fromisoformat(asked_on).replace(tzinfo=UTC) if asked_on else None
    hits = mem.retrieve(question, "alice", k=2, reference=reference)
    assert hits[0].memory.content.endswith(first) and hits[0].reason == "context"


def _namespace_checks(call) -> list[str]:  # type: ignore[no-untyped-def]
    """The modules that check a namespace while ``call()`` runs, one entry per check."""
    import sys

    from ramem_integrations.core.namespaces import check_namespace

    callers: list[str] = []

    def profile(frame, event, arg):  # type: ignore[no-untyped-def]
        if event == "call" and frame.f_code is check_namespace.__code__:
            callers.append(Path(frame.f_back.f_code.co_filename).parent.name)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return callers


@pytest.mark.parametrize("mode", ["ramem", "content", "dense", "bm25"])
def test_a_retrieve_checks_its_namespace_once_at_the_facade(
    fake_mem: RaMem, conversation, mode: str
) -> None:  # type: ignore[no-untyped-def]
    """RaMem.retrieve checks the namespace once; below it only the store, where it names the
    namespace's write marks (the read source, the cache and the request checks rely on it)."""
    fake_mem.add_conversation(conversation, "ann")
    fake_mem.retrieve("pottery", "ann")  # loaded: what follows is a warm read
    checks = _namespace_checks(lambda: fake_mem.retrieve("pottery class", "ann", mode=mode))
    assert checks == ["memory", "stores"]
