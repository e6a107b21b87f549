"""Aliases: names a participant is called by, learned from how they are addressed."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ramem_integrations.app import cli
from ramem_integrations.core.aliases import learn_aliases, named_query, vocatives
from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.embeddings import MiniLMEmbedder
from ramem_integrations.testing import HashingEmbedder

PAIR = ("Marcus", "Bea")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hey Trixie!", [("trixie", True)]),
        ("night trix x", [("trix", True)]),
        ("thanks for brunch trixie", [("for", True)]),  # stop word: dropped below
        ("trixieeee", [("trixie", False)]),
        ("TRIXIE!!!", [("trixie", False)]),
        ("good luck trixie!!!", [("trixie", True)]),
        ("lol", []),
        ("emergency", [("emergency", False)]),
        ("see you tomorrow", []),
        ("That's so cool Kate! How long have you skied?", [("kate", False)]),
        ("What about you Kate?", [("kate", False)]),
        ("Thanks for checking in, Kate.", [("kate", False)]),
        ("Hey Kate!", [("kate", True)]),
        ("I went with Kate.", []),  # after a stop word: a person talked about
        ("I’m Kate. What's your name?", []),
        ("Hey! Remember the lake?", []),  # a greeting addresses only within its clause
        ("a well-rounded approach", []),  # a hyphenated word is one word, not "well" + ...
        ("Love-hate relationship", []),
        ("Mary-Jane", [("mary-jane", False)]),
    ],
)
def test_vocatives(text: str, expected: list[tuple[str, bool]]) -> None:
    assert vocatives(text) == [(w, g) for w, g in expected if w != "for"]


def said(*rows: tuple[str, str]) -> list[tuple[str, tuple[str, ...], str]]:
    return [(speaker, PAIR, text) for speaker, text in rows]


CASES = {
    "greetings and one-word messages": (
        said(("Marcus", "hey trixie"), ("Marcus", "TRIXIEEE"), ("Bea", "night moose")),
        {"Trixie": "Bea"},  # Moose is addressed once only
    ),
    "twice, once greeted": (
        said(("Bea", "night moose"), ("Bea", "moose"), ("Marcus", "ok")),
        {"Moose": "Marcus"},
    ),
    "one-word messages alone are no evidence": (
        said(("Bea", "emergency"), ("Bea", "emergency")),
        {},
    ),
    "a word both write is no alias": (
        said(("Bea", "night pack"), ("Bea", "pack"), ("Marcus", "pack"), ("Marcus", "pack")),
        {},
    ),
    "a word the writer also uses inside sentences is no alias": (
        said(
            ("Bea", "hey drill"),
            ("Bea", "drill"),
            ("Bea", "the drill is in the car"),
            ("Bea", "bring the drill"),
            ("Bea", "drill bits too"),
        ),
        {},
    ),
    "a participant's own name is no alias": (
        said(("Marcus", "hey bea"), ("Marcus", "bea")),
        {},
    ),
    "names closing a clause, once greeted": (
        said(
            ("Marcus", "Hey Kate!"),
            ("Marcus", "That is so true Kate! Let's catch up tomorrow."),
            ("Marcus", "Those look amazing Kate!"),
            ("Marcus", "I told Kate about it"),
            ("Bea", "Haha, I forgot to introduce myself, I'm Kate."),
        ),
        {"Kate": "Bea"},
    ),
    "a greeting in another clause greets no one": (
        said(("Bea", "Thanks! Maeve gave him a huge tip."), ("Bea", "with my boss Maeve.")),
        {},
    ),
    "a hyphenated word greets no one": (
        said(("Marcus", "yoga is a well-rounded approach"), ("Marcus", "so well-rounded")),
        {},
    ),
    "quoting one's own nickname once is allowed": (
        said(
            ("Marcus", "hey trixie"),
            ("Marcus", "trixie"),
            ("Marcus", "TRIXIE"),
            ("Bea", '"RUN TRIXIE RUN" lol'),
        ),
        {"Trixie": "Bea"},
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_learn_aliases(name: str) -> None:
    messages, expected = CASES[name]
    assert learn_aliases(messages) == expected


def test_aliases_need_two_people() -> None:
    group = ("Marcus", "Bea", "Jonah")
    messages = [("Marcus", group, "hey trixie"), ("Marcus", group, "trixie")]
    assert learn_aliases(messages) == {}


START = datetime(2024, 3, 9, 20, tzinfo=UTC)


def chat() -> Conversation:
    rows = [
        ("Marcus", "hey trixie"),
        ("Bea", "hi"),
        ("Marcus", "how was the dentist"),
        ("Bea", "they found a cracked filling, getting it fixed friday"),
        ("Marcus", "TRIXIE"),
        ("Marcus", "trix"),
        ("Bea", "fine, the dentist said I grind my teeth"),
        ("Marcus", "night trix"),
        ("Bea", "night"),
    ]
    turns = tuple(
        Turn(f"D1:{i}", speaker, text, START + timedelta(minutes=10 * i))
        for i, (speaker, text) in enumerate(rows, 1)
    )
    return Conversation("chat", (Session("session_1", START, turns),))


def test_aliases_are_stored_with_the_participants() -> None:
    units = RuleAnchorer().anchor(chat(), "ns")
    assert {u.context.aliases for u in units} == {(("Trix", "Bea"), ("Trixie", "Bea"))}
    meta = units[0].to_metadata()
    assert meta["alias_names"] == ["Trix", "Trixie"]
    assert meta["alias_of"] == ["Bea", "Bea"]
    back = MemoryUnit.from_metadata(units[0].id, units[0].content, meta)
    assert back == units[0]


def test_a_nickname_in_a_question_means_the_participant() -> None:
    known = KnownContext.from_memories(RuleAnchorer().anchor(chat(), "ns"))
    assert known.aliases == (("Trix", "Bea"), ("Trixie", "Bea"))
    frame = RuleFrameInducer().induce(
        "What did the dentist tell Trixie?", reference=START + timedelta(days=1), known=known
    )
    people = [(c.value, c.evidence, c.grounded) for c in frame.conditions]
    assert people == [("Bea", "Trixie", True)]
    assert named_query(frame) == "What did the dentist tell Bea?"


def test_alias_questions_prefer_what_the_participant_said(tmp_path: Path) -> None:
    """With the packaged model: the alias means Bea, whose speaker line is in her vectors."""
    mem = RaMem.from_path(tmp_path / "store", embedder=MiniLMEmbedder())
    mem.add_conversation(chat(), "ns")
    hits = mem.retrieve("What did Trixie say the dentist found?", "ns", k=3)
    assert hits[0].memory.context.speaker == "Bea"
    assert "Participant Bea".lower() in " ".join(hits[0].matched).lower()
    assert "TRIXIE" not in hits[0].memory.content


def test_query_json_shows_aliases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", HashingEmbedder)
    session = chat().sessions[0]
    rows = [
        {"speaker": t.speaker, "text": t.text, "time": t.time.isoformat() if t.time else None}
        for t in session.turns
    ]
    data = tmp_path / "chat.json"
    data.write_text(json.dumps([{"session_time": START.isoformat(), "turns": rows}]))
    store = str(tmp_path / "store")
    assert cli.main(["ingest", str(data), "--store", store]) == 0
    capsys.readouterr()
    args = ["query", "What did the dentist find?", "--store", store, "--namespace", "default"]
    assert cli.main([*args, "--k", "1", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["context"]["aliases"] == {"Bea": ["Trix", "Trixie"]}


@pytest.mark.parametrize(
    ("short", "first", "shortens"),
    [
        ("mel", "melanie", True),  # a prefix
        ("jo", "joanna", True),  # two letters are enough
        ("ali", "alice", True),
        ("sammy", "sam", True),  # the name, its last letter doubled, and -y
        ("sammie", "samuel", True),  # ... or -ie
        ("katie", "katherine", True),  # a prefix and -ie
        ("kathy", "katherine", True),
        ("joey", "joanna", True),  # a prefix and -ey
        ("tommy", "thomas", False),  # not a prefix: spelled otherwise
        ("trixie", "bea", False),  # a nickname, no short form: learned from vocatives instead
        ("j", "joanna", False),  # one letter is too short
        ("dr", "drew", False),  # no vowel: a title, not a name
        ("sy", "sam", False),  # "s" and -y: the stem is too short
        ("samantha", "sam", False),  # longer than the name
    ],
)
def test_short_forms_are_a_table(short: str, first: str, shortens: bool) -> None:
    from ramem_integrations.core.frames import shortens as is_short_form

    assert is_short_form(short, first) is shortens


FRIENDS = KnownContext(participants=("Sam", "Alice", "Joanna", "Amanda", "Candice", "Willa"))


@pytest.mark.parametrize(
    ("question", "person"),
    [
        ("What did Sammy say about the van?", "Sam"),
        ("What did Jo bake?", "Joanna"),
        ("Where did Ali go?", "Alice"),
        ("Did Jo and the others come?", "Joanna"),  # after "Did": written as a name
        ("what did sammy say about the van?", None),  # lower case: no name
        ("Sammy said what about the van?", None),  # opens the question: capitalised as any word
        ("So where Am I on the list?", None),  # a stop word ("Amanda")
        ("Where Can I find the receipt?", None),  # a stop word ("Candice")
        ("What Will happen on Friday?", None),  # a stop word ("Willa")
        ("What did the Dr say?", None),  # a title
    ],
)
def test_a_short_form_in_a_question_means_the_one_participant(
    question: str, person: str | None
) -> None:
    frame = RuleFrameInducer().induce(question, reference=START, known=FRIENDS)
    grounded = [c.value for c in frame.conditions if c.kind == "participant" and c.grounded]
    assert grounded == ([person] if person else [])


def test_a_short_form_of_two_participants_is_neither() -> None:
    known = KnownContext(participants=("Joanna", "Jonathan"))
    frame = RuleFrameInducer().induce("What did Jo bake?", reference=START, known=known)
    [cond] = frame.conditions
    assert (cond.value, cond.grounded) == ("Jo", False)
    assert "could be any of Joanna, Jonathan" in cond.reason


def two_chats(*texts: str) -> list[MemoryUnit]:
    """One memory a message, each text in a chat of its own between Marcus and Bea."""
    units = []
    for i, text in enumerate(texts):
        rows = [("Marcus", text), ("Bea", "the van cancelled")]
        turns = tuple(
            Turn(f"t{j}", who, said, START + timedelta(days=i, minutes=10 * j))
            for j, (who, said) in enumerate(rows)
        )
        conversation = Conversation(f"chat-{i}", (Session("s1", START + timedelta(days=i), turns),))
        units += RuleAnchorer().anchor(conversation, "ns")
    return units


def test_aliases_are_learned_over_the_namespace_not_one_chat() -> None:
    units = two_chats("hey trixie", "night trixie")
    assert {u.context.aliases for u in units} == {()}  # each chat says it once
    known = KnownContext.from_memories(units)
    assert (known.aliases, known.aliases_once) == ((("Trixie", "Bea"),), ())


def test_an_alias_said_once_counts_only_where_the_question_writes_it_as_a_name() -> None:
    known = KnownContext.from_memories(two_chats("hey trixie what happened"))
    assert (known.aliases, known.aliases_once) == ((), (("Trixie", "Bea"),))
    inducer = RuleFrameInducer()
    frame = inducer.induce("What happened to Trixie's laptop?", reference=START, known=known)
    [cond] = frame.conditions
    assert (cond.value, cond.evidence, cond.grounded) == ("Bea", "Trixie", True)
    assert named_query(frame) == "What happened to Bea's laptop?"
    lower = inducer.induce("what happened to trixie's laptop?", reference=START, known=known)
    assert lower.conditions == ()


def test_stored_messages_read_the_memories_back() -> None:
    from ramem_integrations.core.aliases import stored_messages

    burst = (
        Turn("1", "Marcus", "hey trixie", START),
        Turn("2", "Marcus", "van guy cancelled", START + timedelta(seconds=20)),
        Turn("3", "Bea", "no\nway", START + timedelta(seconds=40)),
        Turn("4", "Jonah", "hi all", START + timedelta(hours=5)),
    )
    sessions = (Session("s1", START, burst[:3]), Session("s2", START, burst[3:]))
    units = RuleAnchorer().anchor(Conversation("c", sessions), "ns")
    pair = ("Marcus", "Bea")
    assert sorted(stored_messages(units)) == [
        ("Bea", pair, "no\nway"),  # two lines, one turn: the whole text
        ("Jonah", ("Jonah",), "hi all"),
        ("Marcus", pair, "hey trixie"),  # one line a turn: a message each
        ("Marcus", pair, "van guy cancelled"),
    ]


@pytest.mark.parametrize(
    ("rows", "once"),
    [
        ([("Marcus", "hey trixie what happened")], {"Trixie": ("Bea", 1)}),
        ([("Marcus", "hey, trixie!")], {"Trixie": ("Bea", 1)}),
        ([("Marcus", "thank you trixie x")], {"Trixie": ("Bea", 1)}),
        ([("Marcus", "Morning! Crashed after last night")], {}),  # the salutation ended
        ([("Marcus", "I love badminton the most")], {}),  # no salutation opens it
        ([("Marcus", "so good, morning jog done")], {}),
        ([("Marcus", "and* sorry typo lol")], {}),
        ([("Marcus", "hey trixie what happened"), ("Marcus", "trixie's van")], {}),  # said again
        ([("Marcus", "hey there")], {}),  # not a name
        # a message opening by calling the other, capitalised and set off: "Sammy!! how ..."
        ([("Marcus", "Trixie!! how are you?")], {"Trixie": ("Bea", 1)}),
        ([("Marcus", "Trixie, how are you?")], {"Trixie": ("Bea", 1)}),
        ([("Marcus", "Trixie!! hi"), ("Marcus", "Trixie that is great")], {"Trixie": ("Bea", 1)}),
        ([("Marcus", "Trixie!! hi"), ("Bea", "Trixie is here")], {}),  # she writes it
        ([("Marcus", "Amazing, who is going?"), ("Marcus", "that is amazing")], {}),  # a word
        ([("Marcus", "Bea!! how are you?")], {}),  # her own name
        ([("Marcus", "Trixie went home. How are you?")], {}),  # not set off: talked about
    ],
)
def test_a_word_addressed_once_needs_an_opening_salutation(
    rows: list[tuple[str, str]], once: dict[str, tuple[str, int]]
) -> None:
    from ramem_integrations.core.aliases import alias_evidence

    assert alias_evidence(said(*rows)) == once


def test_a_nickname_the_chat_uses_finds_the_nicknamed_persons_messages(tmp_path: Path) -> None:
    """Priya calls Samantha "Sammy" and writes it again; the question about Sammy is about
    Samantha (real RaMem over Chroma), not about the messages that wrote the word."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    sessions = [
        (10, [("Priya", "My boss moved the deadline again."), ("Samantha", "Ugh, good luck")]),
        (
            26,
            [
                ("Priya", "Sammy!! how are you?"),
                ("Samantha", "Good! I finally booked the flights to Lisbon for June."),
                ("Priya", "Sammy that is amazing, who is going with you?"),
                ("Samantha", "Just me and my sister Ana. We want to ride the old trams."),
            ],
        ),
    ]
    for day, turns in sessions:
        start = datetime(2026, 11, day, 18, tzinfo=UTC)
        rows = [
            {"speaker": who, "text": text, "time": start + timedelta(minutes=i)}
            for i, (who, text) in enumerate(turns)
        ]
        mem.add_turns(rows, "chat", session_time=start)
    question, asked = "What did Sammy say last week?", datetime(2026, 12, 4, 12, tzinfo=UTC)
    conditions = mem.frame(question, "chat", reference=asked).conditions
    assert [(c.kind, c.value, c.evidence) for c in conditions if c.kind != "time"] == [
        ("participant", "Samantha", "Sammy")
    ]
    hits = mem.retrieve(question, "chat", 4, reference=asked)
    assert hits[0].memory.context.speaker == "Samantha"  # not Priya's greeting
    assert {h.memory.content[:20] for h in hits if h.memory.context.speaker == "Samantha"} == {
        "Good! I finally book",
        "Just me and my siste",
    }


def test_named_query_reads_the_alias_flag_not_the_reason_text() -> None:
    """A participant written by an alias is searched by their own name; the reason's words
    (free text for people) decide nothing."""
    from ramem_integrations.core.aliases import named_query
    from ramem_integrations.core.types import Condition, RecallFrame

    q = "What did Trixie bake?"
    by_alias = Condition("participant", "Bea", "Trixie", True, reason="known", by_alias=True)
    says_alias = Condition("participant", "Bea", "Trixie", True, reason="an alias, in words")
    assert named_query(RecallFrame(q, q, (by_alias,))) == "What did Bea bake?"
    assert named_query(RecallFrame(q, q, (says_alias,))) == q
