"""What WhatsApp and Telegram write into an export that nobody typed is not stored as anyone's
words; an edited message keeps its words, and a later export after the edit is ingested."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ramem_integrations
from ramem_integrations.core.conversation import read_telegram, read_whatsapp
from ramem_integrations.core.lexicon.exports import SYSTEM_LINES
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

ROOT = Path(ramem_integrations.__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("\u200eYou deleted this message.", "deleted"),  # iPhone
        ("You deleted this message", "deleted"),  # Android
        ("\u200eThis message was deleted.", "deleted"),
        ("This message was deleted", "deleted"),
        ("\u200e<attached: 00000012-PHOTO-2024-03-14-22-48-19.jpg>", "media"),  # iPhone, media
        ("\u200eimage omitted", "media"),  # iPhone, no media
        ("\u200evideo omitted", "media"),
        ("\u200esticker omitted", "media"),
        ("\u200eGIF omitted", "media"),
        ("<Media omitted>", "media"),  # Android, no media
        ("IMG-20240314-WA0001.jpg (file attached)", "media"),  # Android, media
        ("\u200eVoice call, \u200e12 min", "call"),
        ("\u200eVideo call. \u200e1 hr", "call"),
        ("\u200eMissed voice call, \u200eTap to call back", "call"),
        ("\u200eMissed video call", "call"),
        (
            "\u200eBea changed their phone number to a new number. Tap to message or add the "
            "new number.",
            "notice",
        ),
        (
            "\u200eMessages and calls are end-to-end encrypted. No one outside of this chat, not "
            "even WhatsApp, can read or listen to them.",
            "notice",
        ),
        ("\u200eYour security code with Bea changed. Tap to learn more.", "notice"),
    ],
)
def test_whatsapps_own_lines_under_a_persons_name_are_not_stored(said: str, kind: str) -> None:
    export = f"[14/03/2024, 22:48:19] Bea: {said}\n[14/03/2024, 22:49:02] Marcus: ok\n"
    (chat,) = read_whatsapp(export)
    assert [(t.speaker, t.text) for s in chat.sessions for t in s.turns] == [("Marcus", "ok")]
    assert SYSTEM_LINES.kind(said) == kind


@pytest.mark.parametrize(
    "said",
    [
        "the voice call was 12 min of static",
        "Messages and calls are end-to-end encrypted, says my phone",
        "I deleted this message by accident",
        "video call tomorrow?",
        "image omitted?? send it again",
    ],
)
def test_a_person_typing_such_words_is_kept(said: str) -> None:
    (chat,) = read_whatsapp(f"[14/03/2024, 22:48:19] Bea: {said}\n")
    assert [t.text for s in chat.sessions for t in s.turns] == [said]


@pytest.mark.parametrize(
    ("line", "text"),
    [
        ("[14/03/2024, 22:48:19] Bea: at 4 Tue \u200e<This message was edited>", "at 4 Tue"),
        ("14/03/2024, 22:48 - Bea: at 4 Tue <This message was edited>", "at 4 Tue"),
        ("[14/03/2024, 22:48:19] Bea: look!\n\u200e<attached: 00000012-PHOTO.jpg>", "look!"),
        ("14/03/2024, 22:48 - Bea: IMG-2024-WA0001.jpg (file attached)\nnew flat", "new flat"),
    ],
)
def test_the_marker_and_media_lines_go_and_the_words_stay(line: str, text: str) -> None:
    (chat,) = read_whatsapp(line)
    (turn,) = [t for s in chat.sessions for t in s.turns]
    assert turn.text == text
    assert turn.edited == ("edited" in line)


def test_telegram_service_lines_are_not_stored_and_an_edit_is_marked() -> None:
    chat = {
        "id": 7,
        "messages": [
            {"id": 1, "type": "service", "action": "phone_call", "actor": "Bea",
             "date": "2024-03-14T22:40:00", "text": "", "duration_seconds": 720},
            {"id": 2, "type": "message", "from": "Bea", "date": "2024-03-14T22:48:19",
             "text": "", "photo": "(File not included.)"},
            {"id": 3, "type": "message", "from": "Bea", "date": "2024-03-14T22:49:00",
             "edited": "2024-03-14T22:55:00", "text": "dentist at 4"},
        ],
    }  # fmt: skip
    (conv,) = read_telegram(chat)
    turns = [t for s in conv.sessions for t in s.turns]
    assert [(t.id, t.text, t.edited) for t in turns] == [("3", "dentist at 4", True)]


BEFORE = (
    "[14/03/2024, 22:48:19] Bea: the dentist is at 3 on Tuesday\n"
    "[14/03/2024, 22:48:40] Bea: don't forget the forms\n"
    "[14/03/2024, 22:49:02] Marcus: ok\n"
)
AFTER = (
    "[14/03/2024, 22:48:19] Bea: the dentist is at 4 on Tuesday \u200e<This message was edited>\n"
    "[14/03/2024, 22:48:40] Bea: don't forget the forms\n"
    "[14/03/2024, 22:49:02] Marcus: ok\n"
    "[14/03/2024, 22:50:00] Marcus: \u200eVoice call, \u200e12 min\n"
    "[14/03/2024, 22:51:00] Bea: \u200eYou deleted this message.\n"
)


def test_an_export_after_an_edit_replaces_the_edited_words(tmp_path: Path) -> None:
    """The library path: the edited message's memory now says what the sender changed it to;
    nothing else is touched or written twice."""
    mem = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    mem.add_conversation(read_whatsapp(BEFORE)[0], "bea")
    mem.add_conversation(read_whatsapp(AFTER)[0], "bea")
    said = sorted(u.content for u in mem.memories("bea"))
    assert said == ["ok", "the dentist is at 4 on Tuesday\ndon't forget the forms"]


@pytest.mark.slow
def test_ramem_ingest_of_a_reexport_after_an_edit(tmp_path: Path) -> None:
    """The user's path: `ramem ingest` the chat, edit a message, export and ingest again; the
    query finds the edited words, without the marker, and no call or deleted line."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    store = str(tmp_path / "store")

    def ramem(*args: str) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-m", "ramem_integrations.app.cli", *args]
        return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)

    for n, text in enumerate((BEFORE, AFTER)):
        chat = tmp_path / f"WhatsApp Chat with Bea {n}.txt"
        chat.write_text(text, encoding="utf-8")
        done = ramem("ingest", str(chat), "--store", store, "--json")
        assert done.returncode == 0, done.stderr
    done = ramem("query", "When is the dentist?", "--store", store, "--namespace", "default",
                 "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    contents = [hit["content"] for hit in json.loads(done.stdout)]
    assert contents[0] == "the dentist is at 4 on Tuesday\ndon't forget the forms"
    assert sorted(contents) == sorted(
        ["the dentist is at 4 on Tuesday\ndon't forget the forms", "ok"]
    )
