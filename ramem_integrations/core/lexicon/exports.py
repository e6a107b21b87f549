"""What messaging apps write into a chat export that nobody typed, as data.

One table for WhatsApp (iPhone and Android exports) and Telegram: the lines the app writes in a
person's name (a deleted message, a photo left out, a call, a changed phone number), the marker
of an edited message, and Telegram's message types that are events, not words. The readers in
:mod:`.exports` are given a :class:`SystemLines` (the default, :data:`SYSTEM_LINES`, is English),
as python-dateutil's parser is given its ``parserinfo``.

>>> SYSTEM_LINES.words("\\u200eimage omitted")
('', False)
>>> SYSTEM_LINES.words("at 4 on Tuesday \\u200e<This message was edited>")
('at 4 on Tuesday', True)
>>> SYSTEM_LINES.words("look at this\\nIMG-20240314-WA0001.jpg (file attached)")
('look at this', False)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["MARKS", "SYSTEM_LINES", "WHATSAPP_LINES", "SystemLines"]

#: Invisible direction marks WhatsApp writes before media lines, names and call durations.
MARKS = "\u200e\u200f\ufeff"

#: Lines WhatsApp writes under a person's name, by kind: each pattern must match a whole line
#: of a message (marks removed, case ignored). iPhone and Android wordings both.
WHATSAPP_LINES: Mapping[str, tuple[str, ...]] = {
    "deleted": (
        r"this message was deleted\.?",
        r"you deleted this message\.?",
        r"this message was deleted by (?:an )?admin.*",
    ),
    "media": (
        r"(?:image|photo|video|audio|voice message|sticker|gif|document|contact card|"
        r"video note|view once (?:photo|video|voice message)) omitted",  # iPhone, without media
        r"<media omitted>",  # Android, without media
        r".*<attached: [^<>]+>",  # iPhone, with media: "<attached: 00000012-PHOTO-….jpg>"
        r"\S+\.\w{2,5} \(file attached\)",  # Android, with media: "IMG-….jpg (file attached)"
    ),
    "call": (
        r"(?:missed |silenced )?(?:group )?(?:voice|video) call"
        r"(?:[,.·•]? *(?:\d+ (?:sec|min|hr|hour)s?|no answer|tap to call back|"
        r"click to call back|answered on other device|declined|busy))*\.?",
    ),
    "notice": (
        r"messages and calls are end-to-end encrypted\..*",
        r"messages to this (?:chat|group) and calls are now secured with end-to-end encryption.*",
        r"your security code with .+ changed\..*",
        r".+ changed their phone number to a new number\..*",
        r".+ changed (?:their|the) phone number.*\btap to (?:message|add)\b.*",
        r"this chat is with a business account\..*",
        r"(?:.+ )?turned (?:on|off) disappearing messages\..*",
        r"disappearing messages (?:were|are) turned (?:on|off).*",
        r"you (?:un)?blocked this contact\.?",
        r"waiting for this message\. this may take a while\.",
    ),
}
#: The marker WhatsApp appends to an edited message: the words before it are kept.
WHATSAPP_EDITED = r"<this message was edited>"
#: Telegram Desktop's message types that are events (joins, calls, pins, a new phone number),
#: not anyone's words. A Telegram message edited later carries an ``edited`` date.
TELEGRAM_EVENTS = frozenset({"service"})


@dataclass(frozen=True, slots=True)
class SystemLines:
    """The app's own lines of a chat export: what :meth:`words` leaves out of a message."""

    lines: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: WHATSAPP_LINES)
    edited: str = WHATSAPP_EDITED
    telegram_events: frozenset[str] = TELEGRAM_EVENTS
    _line: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _edited: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        every = "|".join(f"(?:{p})" for patterns in self.lines.values() for p in patterns)
        object.__setattr__(self, "_line", re.compile(every, re.IGNORECASE))
        marker = f"[\\s{MARKS}]*(?:{self.edited})[{MARKS}]*$"
        object.__setattr__(self, "_edited", re.compile(marker, re.IGNORECASE))

    def kind(self, line: str) -> str | None:
        """Which kind of the app's line ``line`` is (a key of :attr:`lines`), or None."""
        bare = _bare(line)
        for kind, patterns in self.lines.items():
            if any(re.fullmatch(p, bare, re.IGNORECASE) for p in patterns):
                return kind
        return None

    def words(self, text: str) -> tuple[str, bool]:
        """A message's words without the app's lines, and whether it was edited.

        The edited marker is cut from the end; a line that is wholly the app's (a photo left
        out beside a caption) is dropped; every other line stays as written. An empty text
        means the message held no one's words.
        """
        marker = self._edited.search(text)
        if marker is not None:
            text = text[: marker.start()]
        kept = [line for line in text.split("\n") if not self._line.fullmatch(_bare(line))]
        said = "\n".join(kept)
        return (said if said.strip(MARKS + " \t\n") else ""), marker is not None


def _bare(line: str) -> str:
    """A line as matched: marks removed, spaces collapsed."""
    return " ".join(line.translate(_NO_MARKS).split())


_NO_MARKS = {ord(mark): None for mark in MARKS}


#: English, as WhatsApp and Telegram write it.
SYSTEM_LINES = SystemLines()
