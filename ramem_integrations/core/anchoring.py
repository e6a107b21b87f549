"""Episodic anchoring (stage 1): turn conversations into memory units with their episode.

:class:`RuleAnchorer` works offline: one memory per turn, restated so it stands alone (the
speaker named, the addressee where there is exactly one other participant, relative time cues
grounded to dates against the session's date), with participants, entities, place, topic and
times read by rules. ``LLMAnchorer`` (in ``llm_anchoring``) produces the same units with a model.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cached_property, lru_cache
from typing import Protocol

from ramem_integrations.core.aliases import conversation_aliases
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.entity_typing import place_evidence
from ramem_integrations.core.grouping import DEFAULT_GAP, group_turns, is_filler
from ramem_integrations.core.ids import digest
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.text import SENTENCE_START as _SENTENCE_START
from ramem_integrations.core.time.carried import carried
from ramem_integrations.core.time.grounding import (
    Conventions,
    FoundTime,
    conventions_for,
    find_times,
    names_a_holiday,
    operative,
)
from ramem_integrations.core.time.tables import NIGHT_OWL_HOUR
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeMention, TimeSpan

_CAPITAL = r"(?:[A-Z][a-z]+|[A-Z]{2,}s?)"
_PROPER = re.compile(rf"\b({_CAPITAL}(?:[ -]{_CAPITAL})*)\b")


@dataclass(frozen=True, eq=False)
class _Words:
    """A lexicon's words as the anchorer reads them: sets, and the pattern of a place's cue."""

    not_names: frozenset[str]
    stop_words: frozenset[str]
    place: re.Pattern[str]


@lru_cache(maxsize=8)
def _compiled(lexicon: Lexicon) -> _Words:
    places = lexicon.places
    cues = "|".join(places.place_cues)
    motion = "|".join(places.motion_verbs)
    return _Words(
        not_names=frozenset(lexicon.text.not_names),
        stop_words=frozenset(lexicon.text.stop_words),
        place=re.compile(
            rf"\b({cues}|(?:{motion})\s+to)\s+((?:the\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)"
        ),
    )


class Anchorer(Protocol):
    """Anything that turns a conversation into memory units."""

    @property
    def name(self) -> str: ...

    def anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]: ...


def memory_id(namespace: str, conversation_id: str, turn_ids: Sequence[str]) -> str:
    """A deterministic id: the same turns in the same namespace always get the same id."""
    return digest(namespace, conversation_id, *turn_ids)


@dataclass(frozen=True)
class RuleAnchorer:
    """Offline anchoring by rules: one memory unit per utterance.

    An utterance is one turn, or a burst of timed messages from one speaker at most
    ``group_gap`` apart (:mod:`.grouping`); ``group_gap=None`` keeps one unit per turn.

    Each unit keeps its messages' text verbatim (one line each) as its content; with
    ``restate`` (default) its restatement (speaker named, relative times written as dates)
    sits beside it for search.
    """

    name: str = "rule-v3"
    topic_words: int = 3
    restate: bool = True
    group_gap: timedelta | None = DEFAULT_GAP
    absorb_reactions: bool = True
    #: How an ambiguous numeric date is read: "DMY" (day first, the default), "MDY", or None
    #: (by its separator).
    date_order: str | None = "DMY"
    #: Which months the season words name: "northern" or "southern".
    hemisphere: str = "northern"
    #: The words names, places, fillers and aliases are read by.
    lexicon: Lexicon = ENGLISH

    @cached_property
    def conventions(self) -> Conventions:
        """The time conventions messages are read by: the defaults with these options, a bare
        date with no tense pointing ahead ("can u do thurs?"), and "tomorrow" said at 1am the
        coming daytime."""
        chat = conventions_for(None, self.hemisphere, self.date_order)
        return replace(
            chat,
            undirected="forward",
            night_owl_hour=NIGHT_OWL_HOUR,
            weeks_as_days=True,
            words=self.lexicon.time,
        )

    def anchor(self, conversation: Conversation, namespace: str) -> list[MemoryUnit]:
        rarity = _word_rarity(conversation)
        known = set(conversation.speakers)
        names = known | _names_seen(conversation, self.lexicon)
        aliases = conversation_aliases(conversation, self.lexicon)
        units = []
        for session in conversation.sessions:
            span = session.span  # read from every turn: once per session, not per unit
            participants = tuple(dict.fromkeys(t.speaker for t in session.turns))
            called = tuple((a, p) for a, p in aliases.items() if p in participants)
            for turns in self._utterances(session):
                units.append(
                    self._unit(
                        conversation,
                        session,
                        span,
                        turns,
                        participants,
                        called,
                        namespace,
                        rarity,
                        known,
                        names,
                    )
                )
        return carried(units, self.lexicon)  # 'dinner sat?', then 'yesss 8ish?': Saturday at 20:00

    def _utterances(self, session: Session) -> list[tuple[Turn, ...]]:
        """The session's turns grouped into utterances (one turn each without ``group_gap``)."""
        if self.group_gap is None:
            return [(turn,) for turn in session.turns]
        return group_turns(
            session.turns,
            self.group_gap,
            absorb_reactions=self.absorb_reactions,
            lexicon=self.lexicon,
        )

    def _unit(
        self,
        conversation: Conversation,
        session: Session,
        span: TimeSpan,
        turns: tuple[Turn, ...],
        participants: tuple[str, ...],
        aliases: tuple[tuple[str, str], ...],
        namespace: str,
        rarity: dict[str, float],
        known: set[str],
        names: set[str],
    ) -> MemoryUnit:
        speaker = turns[0].speaker
        # Each message's cues are grounded against its own time; fillers carry no facts.
        said = [
            (turn, _found(turn, turn.time or session.start, self.conventions)) for turn in turns
        ]
        lexicon = self.lexicon
        facts = (
            [(t, f) for t, f in said if not is_filler(t.full_text, lexicon)] if turns[1:] else []
        )
        facts = facts or said
        found = [item for _, items in facts for item in items]
        held = [
            item
            for turn, items in facts
            for item in operative(turn.full_text, items, turn.time or session.start, lexicon.time)
        ]
        text = " ".join(turn.full_text for turn, _ in facts)
        others = [p for p in participants if p != speaker]
        addressee = others[0] if len(others) == 1 else None
        restatement = restate(said, speaker, addressee, lexicon) if self.restate else None
        found_names = list(
            dict.fromkeys(
                n for turn, _ in facts for n in proper_names(turn.full_text, names, lexicon)
            )
        )
        mentioned = [n for n in found_names if n in known]
        places = (find_place(turn.full_text, known, lexicon) for turn, _ in facts)
        context = EpisodicContext(
            session_id=session.id,
            session_span=span,
            event_time=held[0].span if held else None,
            mention_times=tuple(TimeMention(f.text, f.span) for f in found),
            participants=tuple(dict.fromkeys([*participants, *mentioned])),
            speaker=speaker,
            location=next((p for p in places if p), None),
            entities=tuple(n for n in found_names if n not in known),
            topic=topic(text, rarity, self.topic_words, lexicon),
            aliases=aliases,
            said_at=sent_span(turns),
        )
        return MemoryUnit(
            id=memory_id(namespace, conversation.id, [turn.id for turn in turns]),
            content="\n".join(t.text if t.text.strip() else t.full_text for t in turns),
            context=context,
            namespace=namespace,
            source_ids=tuple(turn.id for turn in turns),
            conversation_id=conversation.id,
            restatement=restatement,
            asks_memory=any(t.asks_memory for t in turns),
        )


def sent_span(turns: Sequence[Turn]) -> TimeSpan | None:
    """When the turns were sent, to the minute (the first's to the end of the last's), if each
    has its own time."""
    times = [turn.time.replace(second=0, microsecond=0) for turn in turns if turn.time]
    if not times or len(times) < len(turns):
        return None
    return TimeSpan(min(times), max(times) + timedelta(minutes=1))


def _found(turn: Turn, said_at: datetime, conventions: Conventions) -> list[FoundTime]:
    """The time cues of one message, grounded against when it was said, each pointing the
    way its sentence does ("We're flying to Porto on Friday": the coming Friday)."""
    return find_times(turn.full_text, said_at, tense=True, conventions=conventions)


def restate(
    said: Sequence[tuple[Turn, Sequence[FoundTime]]],
    speaker: str,
    addressee: str | None,
    lexicon: Lexicon = ENGLISH,
) -> str:
    """The utterance as self-contained text: speaker (and addressee) named, times grounded,
    one line a message; a message of another speaker inside it (a reaction) keeps its name."""
    head = f"{speaker} (to {addressee})" if addressee else speaker
    lines = [
        ground_in_text(t.full_text, found, lexicon)
        if t.speaker == speaker
        else f"{t.speaker}: {t.full_text}"
        for t, found in said
    ]
    return f"{head}: " + "\n".join(lines)


def unframed(restatement: str, speaker: str | None, participants: Iterable[str] = ()) -> str:
    """``restatement`` without the names :func:`restate` frames it with: the speaker (and
    addressee) heading it and the sender before another speaker's line. What the speakers
    wrote stays, names included; text not framed so (another anchorer's) is returned as is."""
    if speaker:
        head = re.match(re.escape(speaker) + r"(?: \(to [^()\n]+\))?: ", restatement)
        restatement = restatement[head.end() :] if head else restatement
    senders = sorted({p for p in participants if p}, key=len, reverse=True)
    if not senders:
        return restatement
    line_head = re.compile(rf"^(?:{'|'.join(map(re.escape, senders))}): ", re.MULTILINE)
    return line_head.sub("", restatement)


def ground_in_text(text: str, found: Sequence[FoundTime], lexicon: Lexicon = ENGLISH) -> str:
    """Write each relative time cue's date into the text.

    A cue that grounds to one day is replaced ('yesterday' said on 8 May 2023 becomes
    'on 7 May 2023'); a longer one, or one naming a holiday, keeps its words and gains the dates
    ('last week (1 May 2023 to 7 May 2023)', 'Thanksgiving (24 November 2022)'). Absolute dates
    are left as written.
    """
    pieces, cursor = [], 0
    for item in sorted(found, key=lambda f: f.start):
        if not item.relative:
            continue
        pieces.append(text[cursor : item.start])
        pieces.append(_grounded_phrase(text, item, lexicon))
        cursor = item.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _grounded_phrase(text: str, item: FoundTime, lexicon: Lexicon) -> str:
    label = item.span.label()
    if item.span.duration == timedelta(days=1) and not names_a_holiday(item.text, lexicon.time):
        preceding = text[: item.start].rstrip().lower()
        bare = (
            " on",
            " of",
            " since",
            " until",
            " for",
            " by",
            " from",
            " to",
            " before",
            " after",
        )
        return label if f" {preceding}".endswith(bare) else f"on {label}"
    return f"{item.text} ({label})"


def proper_names(text: str, known: Iterable[str] = (), lexicon: Lexicon = ENGLISH) -> list[str]:
    """Capitalised word runs that are names: not greetings, months, days or common words.

    A lone capitalised word opening a sentence is a name only when it is ``known`` (a speaker,
    or a name seen mid-sentence elsewhere in the conversation): "Bob and I ..." keeps Bob
    once Bob is known, "Great and ..." never counts.
    """
    known_names = known if isinstance(known, set | frozenset) else set(known)
    words_of = _compiled(lexicon)
    not_names, stop_words = words_of.not_names, words_of.stop_words
    names = []
    for match in _PROPER.finditer(text):
        words = re.split(r"[ -]", match.group(1))
        opens_sentence = _opens_sentence(text, match.start())
        while words and (words[0] in not_names or words[0].lower() in stop_words):
            words.pop(0)
            opens_sentence = False
        words = [w for w in words if w not in not_names]
        if not words:
            continue
        name = " ".join(words)
        if opens_sentence and len(words) == 1 and name not in known_names:
            continue
        names.append(name)
    return list(dict.fromkeys(names))


#: How much of the text before a word :func:`_opens_sentence` reads (more only when all of it
#: is spaces and quotes, which :data:`_SENTENCE_START` reads through).
_LOOK_BACK = 256


def _opens_sentence(text: str, at: int) -> bool:
    """Whether the word at ``at`` opens a sentence (:data:`_SENTENCE_START` on the text
    before it), reading a bounded tail of that text, so a long message costs linear time."""
    start = max(0, at - _LOOK_BACK)
    tail = text[start:at]
    if start and not tail.strip(" \t\n\r\f\v\"'“("):
        tail = text[:at]  # nothing but spaces and quotes: the whole text decides
    elif start:
        tail = "\x00" + tail  # not the text's start: "^" must not match here
    return bool(_SENTENCE_START.search(tail))


def _names_seen(conversation: Conversation, lexicon: Lexicon) -> set[str]:
    """Names in the conversation: those written mid-sentence, and sentence openers used
    capitalised at least twice and never in lower case ("Bob and I ...")."""
    texts = [turn.full_text for session in conversation.sessions for turn in session.turns]
    names = {name for text in texts for name in proper_names(text, (), lexicon)}
    lower = {word for text in texts for word in _LOWER_WORD.findall(text)}
    openers = Counter(m.group(1) for text in texts for m in _OPENER.finditer(text))
    words = _compiled(lexicon)
    names.update(
        word
        for word, count in openers.items()
        if count >= 2
        and word.lower() not in lower
        and word.lower() not in words.stop_words
        and word not in words.not_names
    )
    return names


_LOWER_WORD = re.compile(r"\b[a-z]+\b")
_OPENER = re.compile(r"(?:^|[.!?]\s+)([A-Z][a-z]+)\b")


def find_place(text: str, known_people: Iterable[str], lexicon: Lexicon = ENGLISH) -> str | None:
    """A capitalised place after 'in', 'at', 'from', 'near', 'visited' or a motion verb with
    'to' ("went to Paris"; not "engaged to Tom"), if any, with evidence that it is a place
    (:func:`~.entity_typing.place_evidence`: "at Pride" is none, "at London" is)."""
    people = set(known_people)
    words = _compiled(lexicon)
    for match in words.place.finditer(text):
        place = match.group(2).removeprefix("the ")
        if (
            place not in people
            and place.split()[0] not in words.not_names
            and place_evidence(match.group(1), match.group(2), lexicon)
        ):
            return place
    return None


_TOPIC_WORD = re.compile(r"[a-z]{4,}")


def _word_rarity(conversation: Conversation) -> dict[str, float]:
    """Inverse document frequency of each word across the conversation's turns."""
    turns = [t for s in conversation.sessions for t in s.turns]
    df: Counter[str] = Counter()
    for turn in turns:
        df.update(set(_TOPIC_WORD.findall(turn.full_text.lower())))
    return {w: math.log(len(turns) / n) for w, n in df.items()}


def topic(text: str, rarity: dict[str, float], size: int, lexicon: Lexicon = ENGLISH) -> str | None:
    """The turn's rarest content words (within its conversation), as a short topic label."""
    stop_words = _compiled(lexicon).stop_words
    words = [w for w in dict.fromkeys(_TOPIC_WORD.findall(text.lower())) if w not in stop_words]
    ranked = sorted(words, key=lambda w: -rarity.get(w, 0.0))[:size]
    return ", ".join(ranked) or None
