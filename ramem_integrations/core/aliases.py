"""Aliases: the other names a participant is called by.

A participant's display name is "Bea", but the other writes "Hey Trixie!" to her, and
questions ask about Trixie. :func:`learn_aliases` reads how people are addressed in a
namespace's messages. :func:`vocatives` finds the words a message may address someone by: a
word after a greeting or thanks ("hey Trixie", "thanks trix", "night moose"), and a message
that is one word ("trixieeee", "BUNNY"). In a two-person session the addressee is the other
participant. A word is an alias of that participant when, across the namespace, it is addressed
to them at least :data:`MIN_EVIDENCE` times (once after a greeting), never to anyone else, the
addressee writes it at most a third as often (quoting it: "RUN PEGGY RUN"), and at least
:data:`MIN_SHARE` of the writer's uses of it are vocatives (so "thanks again", "night then" and
a one-word "tomorrow?" name nobody when the word sits inside other messages too). A
participant's own name is never an alias.

>>> said = [("Marcus", ("Marcus", "Bea"), "Hey Trixie!"),
...         ("Marcus", ("Marcus", "Bea"), "thanks trixie x"),
...         ("Bea", ("Marcus", "Bea"), "see u there")]
>>> learn_aliases(said)
{'Trixie': 'Bea'}
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from itertools import pairwise

from ramem_integrations.core.conversation import Conversation
from ramem_integrations.core.grouping import FILLERS
from ramem_integrations.core.temporal_tables import MONTHS, WEEKDAYS
from ramem_integrations.core.text import STOP_WORDS
from ramem_integrations.core.types import RecallFrame

__all__ = [
    "GREETINGS",
    "MIN_EVIDENCE",
    "MIN_SHARE",
    "NOT_ALIASES",
    "Said",
    "conversation_aliases",
    "learn_aliases",
    "named_query",
]

#: A message as aliases see it: (speaker, the session's participants, the verbatim text).
Said = tuple[str, tuple[str, ...], str]

#: How many times a word must address the same person before it is an alias.
MIN_EVIDENCE = 2
#: The least share of the writer's uses of a word that must be vocatives.
MIN_SHARE = 0.5

#: Words after which the next word addresses someone ("hey X", "thanks X", "night X").
GREETINGS = frozenset(
    """hey heyy hi hiya hello yo oi morning night thanks thank thx ty cheers congrats
    sorry bye dear luck well love miss""".split()
)
#: Words that close a message without being part of it ("night trix x").
CLOSERS = frozenset("x xx xxx xo xoxo".split())
#: Words that look like a vocative but are not names.
NOT_ALIASES = frozenset(
    """guys all everyone babe baby mate dude man bro sis hun hon love darling sweetie there
    again much too now then tonight today tomorrow tmrw yesterday later soon mum mom dad""".split()
)

_TOKEN = re.compile(r"[a-z][a-z']*")
_REPEATS = re.compile(r"([a-z])\1{2,}")


def _words(text: str) -> list[str]:
    """Lower-case words, letters repeated three or more times written once ("trixieeee")."""
    words = _TOKEN.findall(_REPEATS.sub(r"\1", text.lower()))
    while words and words[-1] in CLOSERS:
        words.pop()
    return words


def vocatives(text: str) -> list[tuple[str, bool]]:
    """Words of ``text`` that may address someone, lower case, each with whether a greeting
    or thanks comes before it (the strong cue; a one-word message is the weak one)."""
    return _vocatives_in(_words(text))


def _vocatives_in(words: list[str]) -> list[tuple[str, bool]]:
    """:func:`vocatives` of a message's :func:`_words`."""
    found = {after: True for before, after in pairwise(words) if before in GREETINGS}
    if len(words) == 1:
        found.setdefault(words[0], False)
    return [(w, greeted) for w, greeted in found.items() if _plausible(w)]


def _plausible(word: str) -> bool:
    return (
        len(word) >= 2
        and word not in NOT_ALIASES
        and word not in STOP_WORDS
        and word not in FILLERS
        and word not in GREETINGS
        and word not in MONTHS
        and word not in WEEKDAYS
    )


def learn_aliases(
    messages: Iterable[Said], min_evidence: int = MIN_EVIDENCE, min_share: float = MIN_SHARE
) -> dict[str, str]:
    """Alias (capitalised) -> participant, from how participants are addressed."""
    addressed: dict[str, Counter[str]] = {}  # word -> addressee -> count
    said_by: dict[tuple[str, str], int] = {}  # (word, writer) -> vocative uses
    everyone: set[str] = set()
    strong: set[str] = set()  # words seen after a greeting at least once
    said = [(speaker, participants, _words(text)) for speaker, participants, text in messages]
    for speaker, participants, words in said:
        everyone.update(participants)
        others = [p for p in participants if p != speaker]
        if len(others) != 1:
            continue
        for word, greeted in _vocatives_in(words):
            addressed.setdefault(word, Counter())[others[0]] += 1
            said_by[word, speaker] = said_by.get((word, speaker), 0) + 1
            if greeted:
                strong.add(word)
    written: dict[str, Counter[str]] = {word: Counter() for word in addressed}  # -> writer -> uses
    for speaker, _, words in said:
        for word in written.keys() & words:
            written[word][speaker] += 1
    own = {form.lower() for p in everyone if p.strip() for form in (p, p.split()[0])}
    aliases = {}
    for word, counts in addressed.items():
        if word in own or word not in strong or len(counts) != 1:
            continue
        person, seen = counts.most_common(1)[0]
        writers = written[word]
        vocative_uses = sum(n for (w, _), n in said_by.items() if w == word)
        if (
            seen < min_evidence
            or 3 * writers[person] > seen
            or vocative_uses < min_share * writers.total()
        ):
            continue
        aliases[word.capitalize()] = person
    return dict(sorted(aliases.items()))


def conversation_aliases(conversation: Conversation) -> dict[str, str]:
    """:func:`learn_aliases` over every message of ``conversation``."""
    said: list[Said] = []
    for session in conversation.sessions:
        participants = tuple(dict.fromkeys(turn.speaker for turn in session.turns))
        said.extend((turn.speaker, participants, turn.text) for turn in session.turns)
    return learn_aliases(said)


def named_query(frame: RecallFrame) -> str:
    """The question with each participant named by an alias named by their own name instead:
    "What did Trixie bake?" searches as "What did Bea bake?" (greetings that say "Trixie"
    are not what the question is about)."""
    query = frame.query
    for cond in frame.conditions:
        if cond.kind != "participant" or not cond.grounded or "alias" not in cond.reason:
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(cond.evidence)}(?![\w-])")
        query = pattern.sub(cond.value, query)
    return query
