"""WhatsApp and Telegram exports: read as written, sessions by silence, stable ids."""

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.app import cli
from ramem_integrations.core.anchoring import RuleAnchorer, memory_id
from ramem_integrations.core.conversation import load_conversations, read_telegram, read_whatsapp
from ramem_integrations.core.exports import looks_like_whatsapp
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import DataFormatError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models.embeddings import MiniLMEmbedder
from ramem_integrations.testing import HashingEmbedder

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.mark.parametrize(
    ("line", "speaker", "text", "when"),
    [
        ("[14/03/2024, 22:48:19] Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 22, 48, 19)),
        ("14/03/2024, 22:48 - Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 22, 48)),
        ("3/14/24, 10:48 PM - Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 22, 48)),
        ("[3/14/24, 10:48:19\u202fPM] Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 22, 48, 19)),
        ("3/14/24, 12:05 am - Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 0, 5)),
        ("3/14/24, 12:05 p.m. - Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 12, 5)),
        ("14.03.24, 22:48 - Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 22, 48)),
        ("2024-03-14, 22:48 - Bea: ugh", "Bea", "ugh", at(2024, 3, 14, 22, 48)),
        ("\u200e[14/03/2024, 22:48:19] Bea: \u200evan's here", "Bea", "van's here",
         at(2024, 3, 14, 22, 48, 19)),
        ("14/03/2024, 22:48 - Ana María: a: b  c ", "Ana María", "a: b  c ",
         at(2024, 3, 14, 22, 48)),
    ],
)  # fmt: skip
def test_a_message_line_from_any_phone(line: str, speaker: str, text: str, when: datetime) -> None:
    assert looks_like_whatsapp(line)
    ((turn,),) = [s.turns for s in read_whatsapp(line)[0].sessions]
    assert (turn.speaker, turn.text, turn.time) == (speaker, text, when)


EXPORT = """\
[14/03/2024, 22:40:02] Messages and calls are end-to-end encrypted. No one outside of this chat can read them.
[14/03/2024, 22:48:19] Bea: ugh
[14/03/2024, 22:48:19] Bea: worst day
[14/03/2024, 22:49:02] Marcus: hey trixie what happened
[14/03/2024, 22:50:11] Bea: the van cancelled
so moving is off

saturday maybe
[14/03/2024, 22:51:00] Marcus: This message was deleted
[15/03/2024, 00:13:02] Bea: memphis threw up on my laptop yesterday
[15/03/2024, 09:30:45] Marcus: morning trixie
[15/03/2024, 09:31:10] Bea: morning moose
"""  # noqa: E501


def test_an_export_reads_as_sessions_of_verbatim_messages() -> None:
    (chat,) = read_whatsapp(EXPORT)
    assert chat.id == "whatsapp-bea-marcus"
    first, second = chat.sessions  # 00:13 to 09:30 is more than four hours of silence
    assert [t.id for t in first.turns] == [
        "2024-03-14T22:48:19",
        "2024-03-14T22:48:19#2",  # two messages in one second
        "2024-03-14T22:49:02",
        "2024-03-14T22:50:11",
        "2024-03-15T00:13:02",  # past midnight, same session
    ]
    assert first.turns[3].text == "the van cancelled\nso moving is off\n\nsaturday maybe"
    assert first.span.start == at(2024, 3, 14, 22, 48, 19)
    assert first.span.end == at(2024, 3, 15, 0, 14, 2)
    assert [t.text for t in second.turns] == ["morning trixie", "morning moose"]
    assert second.start == at(2024, 3, 15, 9, 30, 45)


@pytest.mark.parametrize(
    ("dates", "expected"),
    [
        (["13/03/2024", "14/03/2024"], [(2024, 3, 13), (2024, 3, 14)]),  # a day above 12
        (["3/13/24", "3/14/24"], [(2024, 3, 13), (2024, 3, 14)]),  # a month can't be 13
        # both readings valid: only month/day keeps the messages in time order
        (["1/2/24", "2/1/24"], [(2024, 1, 2), (2024, 2, 1)]),
        # both in order: the reading with the shorter chat (4-5 March, not 3 April-3 May)
        (["3/4/24", "3/5/24"], [(2024, 3, 4), (2024, 3, 5)]),
        (["4/3/2024", "5/3/2024"], [(2024, 3, 4), (2024, 3, 5)]),
        (["5/5/24"], [(2024, 5, 5)]),
    ],
)
def test_the_day_month_order_is_read_from_the_file(
    dates: list[str], expected: list[tuple[int, int, int]]
) -> None:
    text = "\n".join(f"{d}, 10:00 - Bea: message {i}" for i, d in enumerate(dates))
    turns = [t for s in read_whatsapp(text)[0].sessions for t in s.turns]
    assert [t.time.timetuple()[:3] for t in turns if t.time] == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("hello\n[14/03/2024, 22:48:19] Bea: ugh", "does not start a WhatsApp message"),
        ("[31/02/2024, 22:48:19] Bea: ugh", "impossible in any order"),
        ("14/03/2024, 25:48 - Bea: ugh", "is impossible"),
        ("3/14/24, 13:48 PM - Bea: ugh", "is not 1-12"),
        ("14/03/2024, 22:48 - Bea: a\n13/03/2024, 22:48 - Bea: b", "not in time order"),
        ("14/03/2024, 22:48 - Bea created this group", "no message with a speaker"),
        ("", "no message with a speaker"),
    ],
)
def test_a_broken_export_is_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(DataFormatError, match=says):
        read_whatsapp(text, name="chat.txt")


def test_a_later_export_adds_messages_and_duplicates_none(tmp_path: Path) -> None:
    """Export, chat on, export again (the older messages cut off): ids stay, nothing doubles."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    first = tmp_path / "first.txt"
    first.write_text(EXPORT, encoding="utf-8")
    later_lines = [*EXPORT.splitlines()[2:], "[16/03/2024, 10:00:00] Bea: van booked for sunday"]
    later = tmp_path / "later.txt"
    later.write_text("\n".join(later_lines), encoding="utf-8")
    (one,) = load_conversations(first)
    ids_one = mem.add_conversation(one, "default")
    (two,) = load_conversations(later)
    assert two.id == one.id
    mem.add_conversation(two, "default")
    stored = mem.memories("default")
    texts = [line for u in stored for line in u.content.split("\n")]
    assert len(texts) == len(set(texts))  # no message stored twice
    assert sorted(texts) == sorted(
        ["ugh", "worst day", "hey trixie what happened", "the van cancelled", "so moving is off",
         "", "saturday maybe", "memphis threw up on my laptop yesterday", "morning trixie",
         "morning moose", "van booked for sunday"]
    )  # fmt: skip
    # "ugh" is not in the later export: the memory holding "ugh" and "worst day" stays
    assert set(ids_one) <= {u.id for u in stored}
    mem.add_conversation(two, "default")
    assert len(mem.memories("default")) == len(stored)


def telegram_chat(**extra: Any) -> dict[str, Any]:
    return {
        "name": "Bea",
        "type": "personal_chat",
        "id": 4242,
        "messages": [
            {"id": 10, "type": "service", "date": "2024-03-14T22:40:00", "actor": "Bea",
             "action": "phone_call"},
            {"id": 11, "type": "message", "date": "2024-03-15T00:13:02",
             "date_unixtime": "1710450782", "from": "Bea",
             "text": ["memphis ", {"type": "bold", "text": "threw up"}, " on my laptop"]},
            {"id": 12, "type": "message", "date": "2024-03-15T00:14:00",
             "date_unixtime": "1710450840", "from": "Marcus", "text": "", "photo": "p.jpg"},
            {"id": 13, "type": "message", "date": "2024-03-15T00:15:00",
             "date_unixtime": "1710450900", "from": "Marcus", "text": "oh no trixie"},
        ],
        **extra,
    }  # fmt: skip


def test_a_telegram_chat_keeps_its_ids_words_and_local_day() -> None:
    (chat,) = read_telegram(telegram_chat())
    turns = [t for s in chat.sessions for t in s.turns]
    assert chat.id == "telegram-4242"
    assert [(t.id, t.speaker, t.text) for t in turns] == [
        ("11", "Bea", "memphis threw up on my laptop"),  # entities joined as written
        ("13", "Marcus", "oh no trixie"),  # the photo without words and the call are skipped
    ]
    # 00:13 local is 21:13 UTC the day before: the offset comes from date_unixtime
    assert turns[0].time == datetime(2024, 3, 15, 0, 13, 2, tzinfo=timezone(timedelta(hours=3)))
    assert turns[0].time.astimezone(UTC) == at(2024, 3, 14, 21, 13, 2)


def test_a_full_telegram_export_is_a_conversation_a_chat(tmp_path: Path) -> None:
    other = telegram_chat(id=7)
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"chats": {"list": [telegram_chat(), other]}}))
    assert [c.id for c in load_conversations(path)] == ["telegram-4242", "telegram-7"]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"text": 5}, "'text' should be a string or a list"),
        ({"text": [{"type": "bold", "text": 3}]}, "not a string"),
        ({"date": "soon"}, "cannot read the date"),
        ({"date_unixtime": "x"}, "is not epoch seconds"),
        ({"date_unixtime": [1710450782]}, r"\[1710450782\] is not epoch seconds"),
        ({"date_unixtime": {"seconds": 1710450782}}, "is not epoch seconds"),
        ({"date_unixtime": "1"}, "more than 14 hours apart"),
        ({"id": None}, "has no 'id'"),
    ],
)
def test_a_broken_telegram_message_is_refused(change: dict[str, Any], says: str) -> None:
    chat = telegram_chat()
    chat["messages"][1] = {**chat["messages"][1], **change}
    with pytest.raises(DataFormatError, match=says):
        read_telegram(chat)


def test_formats_are_told_apart(tmp_path: Path) -> None:
    cases = {
        "chat.txt": EXPORT,
        "result.json": json.dumps(telegram_chat()),
        "messages.json": json.dumps(
            {"messages": [{"role": "user", "content": "hi", "timestamp": "2024-03-14T10:00"}]}
        ),
    }
    ids = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        ids[name] = load_conversations(tmp_path / name)[0].id
    assert ids["chat.txt"] == "whatsapp-bea-marcus"
    assert ids["result.json"] == "telegram-4242"
    assert ids["messages.json"].startswith("chat-")


def ingest_export(tmp_path: Path, *options: str) -> str:
    """``EXPORT`` written to a file and ingested by the CLI; returns the store's path."""
    path = tmp_path / "WhatsApp Chat with Bea.txt"
    path.write_text(EXPORT, encoding="utf-8")
    store = str(tmp_path / "store")
    assert cli.main(["ingest", str(path), "--store", store, *options]) == 0
    return store


def test_ingest_a_whatsapp_export_and_ask_by_nickname(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI reads the export, groups bursts, learns 'Trixie' and answers with Bea's words."""
    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", MiniLMEmbedder)
    store = ingest_export(tmp_path, "--json")
    assert json.loads(capsys.readouterr().out)["added"] == {"default": 6}
    question = "What happened to Trixie's laptop?"
    assert cli.main(["query", question, "--store", store, "--namespace", "default", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["content"] == "memphis threw up on my laptop yesterday"
    assert hits[0]["context"]["aliases"] == {"Bea": ["Trixie"]}
    assert "14 March 2024" in hits[0]["restatement"]  # 'yesterday' at 00:13 on the 15th


def test_a_chat_in_another_zone_shows_its_own_days(tmp_path: Path, fake_mem: RaMem) -> None:
    """Read at +05:30, "yesterday" at 00:13 on the 15th is the 14th, and the prompt built from
    the store says so (not "13 March 2024 18:30 to 14 March 2024 18:29", the same day in UTC)."""
    path = tmp_path / "chat.txt"
    path.write_text(EXPORT, encoding="utf-8")
    (chat,) = load_conversations(path, tz=timezone(timedelta(hours=5, minutes=30)))
    fake_mem.add_conversation(chat, "default")
    question = "memphis threw up on my laptop"
    hits = fake_mem.retrieve(question, "default", k=1)
    assert hits[0].memory.content == "memphis threw up on my laptop yesterday"
    prompt = fake_mem.render(question, hits)
    assert "happened 14 March 2024;" in prompt
    assert "18:30" not in prompt and "18:29" not in prompt


def test_ingest_reads_an_export_in_the_zone_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--tz Asia/Kolkata`: the messages' instants are Kolkata's, shown in Kolkata's clock."""
    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", HashingEmbedder)
    store = ingest_export(tmp_path, "--tz", "Asia/Kolkata")
    capsys.readouterr()
    question = ["query", "memphis threw up on my laptop", "--store", store]
    assert cli.main([*question, "--namespace", "default", "--k", "1", "--json"]) == 0
    (hit,) = json.loads(capsys.readouterr().out)
    assert hit["context"]["event_time"]["label"] == "14 March 2024"
    assert hit["context"]["session_span"]["start"] == "2024-03-14T22:48:19+05:30"


def test_an_unknown_zone_is_refused_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "chat.txt"
    path.write_text(EXPORT, encoding="utf-8")
    code = cli.main(["ingest", str(path), "--store", str(tmp_path / "s"), "--tz", "Mars/Base"])
    assert code == 2 and "Unknown time zone 'Mars/Base'" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()


def test_each_memory_keeps_when_its_messages_were_sent(fake_mem: RaMem) -> None:
    """The session began on the 14th; the message at 00:13 was sent on the 15th. Each memory
    keeps the minutes its own messages were sent, and its episode the first to the last."""
    (chat,) = read_whatsapp(EXPORT)
    fake_mem.add_conversation(chat, "default")
    by_text = {u.content: u for u in fake_mem.memories("default")}
    burst = by_text["ugh\nworst day"].context
    assert burst.said_at == TimeSpan(at(2024, 3, 14, 22, 48), at(2024, 3, 14, 22, 49))
    late = by_text["memphis threw up on my laptop yesterday"].context
    assert late.said_at is not None and late.said_at.label() == "15 March 2024 00:13"
    assert late.episode is not None and late.episode.said is not None
    assert late.episode.said.contains(late.said_at)
    # "saturday maybe" reads as the coming Saturday, 16 March: the message about the day before
    # (the 14th) opens an episode of its own; the one before it began at the burst, 22:48
    plan = by_text["the van cancelled\nso moving is off\n\nsaturday maybe"].context
    assert plan.event_time is not None and plan.event_time.label() == "16 March 2024"
    assert plan.episode is not None and plan.episode.said is not None
    assert plan.episode.said.start == at(2024, 3, 14, 22, 48)
    assert late.episode.said.start == at(2024, 3, 15, 0, 13)


def test_turns_without_their_own_times_keep_the_session_span(fake_mem: RaMem) -> None:
    rows = [{"speaker": "Ann", "text": "I went hiking yesterday."}]
    fake_mem.add_turns(rows, "ns", session_time=at(2023, 5, 8, 13, 56))
    (unit,) = fake_mem.memories("ns")
    assert unit.context.said_at is None
    assert unit.context.episode is not None and unit.context.episode.said is None


IPHONE_EXPORT = (
    "[14/03/2024, 22:40:02] Sam: \u200eMessages and calls are end-to-end encrypted. No one "
    "outside of this chat, not even WhatsApp, can read or listen to them.\n"
    "[14/03/2024, 22:40:30] Sam: are you coming on friday?\n"
    "[14/03/2024, 22:41:00] Alice: \u200eMissed voice call\n"
    "[14/03/2024, 22:41:10] Alice: yes! missed your call sorry\n"
    "[14/03/2024, 22:42:00] Sam: \u200eimage omitted\n"
    "[14/03/2024, 22:43:00] Sam: Messages and calls are end-to-end encrypted, says my phone\n"
)


def test_whatsapps_own_notices_under_a_persons_name_are_not_their_words() -> None:
    (chat,) = read_whatsapp(IPHONE_EXPORT)
    said = [(t.speaker, t.text) for s in chat.sessions for t in s.turns]
    assert said == [
        ("Sam", "are you coming on friday?"),
        ("Alice", "yes! missed your call sorry"),
        ("Sam", "Messages and calls are end-to-end encrypted, says my phone"),  # typed: kept
    ]


def test_a_reaction_inside_a_burst_is_stored_as_its_senders_own(tmp_path: Path) -> None:
    """Alice's "🎉" 20 s into Sam's burst: Sam's memory goes on without it, and it is Alice's."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    (chat,) = load_conversations(FIXTURES / "whatsapp_sam.txt")
    mem.add_conversation(chat, "friends")
    said = {(u.context.speaker, u.content) for u in mem.memories("friends")}
    burst = "got the job!!\nI start at the bakery in July\nsourdough shift, 5am starts"
    assert {("Sam", burst), ("Alice", "🎉")} <= said
    assert all("🎉" not in text for speaker, text in said if speaker != "Alice")
    (cheer,) = [u for u in mem.memories("friends") if u.content == "🎉"]
    assert cheer.restatement == "Alice (to Sam): 🎉"


def test_a_burst_stored_with_a_reaction_inside_is_regrouped_when_ingested_again(
    tmp_path: Path,
) -> None:
    """A store written before the reaction was its sender's: ingesting the chat again writes
    the burst and the reaction apart and deletes the old memory; no word is stored twice."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    (chat,) = load_conversations(FIXTURES / "whatsapp_sam.txt")
    first = RuleAnchorer().anchor(chat, "friends")[0]  # Sam's burst, three messages
    turns = ("2024-06-02T18:01:10", "2024-06-02T18:01:30", "2024-06-02T18:02:05",
             "2024-06-02T18:02:40")  # fmt: skip
    old = replace(
        first,
        id=memory_id("friends", chat.id, turns),
        content="got the job!!\n🎉\nI start at the bakery in July\nsourdough shift, 5am starts",
        source_ids=turns,
    )
    mem.add_memories([old])
    mem.add_conversation(chat, "friends")
    stored = mem.memories("friends")
    assert old.id not in {u.id for u in stored}
    lines = [line for u in stored for line in u.content.split("\n")]
    assert len(lines) == len(set(lines)) == 10
    assert ("Alice", "🎉") in {(u.context.speaker, u.content) for u in stored}
