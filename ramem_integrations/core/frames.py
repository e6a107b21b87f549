"""Recall-condition induction (stage 2): a question becomes a need and a recall frame.

:class:`RuleFrameInducer` reads, offline, the conditions valid evidence must meet:

- ``time``: each time expression (:mod:`.temporal`), grounded against the reference moment the
  caller passes (the question's date, or the end of the conversation). A relative expression in a
  question that also names an absolute date is grounded against that date ("last weekend before
  April 10, 2023"); one after *before / after / since / until / by* becomes an open range
  ("after May 2023"). A span outside the conversation's dates (widened by
  :data:`PAST_MARGIN` and :data:`FUTURE_MARGIN`) is kept but not
  grounded. A question that asks for a time ("When did ...?") gets no time condition from that.
- ``participant``, ``location``, ``entity``: names the namespace knows (:class:`KnownContext`),
  matched case-insensitively on word boundaries; an unknown name is kept, not grounded.
- ``relation``: "after the support group", "the first time": never grounded here, since
  the anchor event's time is found among the memories by the retriever (stage 3).
- ``recency``: "now", "still", "these days", ...: grounded (the latest episode is valid).

The ``need`` is the question without its time, relation and recency words. The words are the
lexicon's (:class:`~.lexicon.FrameWords`), English unless a ``lexicon`` is given.
``LLMFrameInducer`` (in ``ramem_integrations.models.llm_frames``) fills the same frame with a
model and falls back to these rules.

>>> from datetime import UTC, datetime
>>> known = KnownContext(participants=("Alice", "Sam"), places=("Lisbon",))
>>> frame = RuleFrameInducer().induce(
...     "What did Alice eat in Lisbon last May?",
...     reference=datetime(2024, 9, 2, tzinfo=UTC), known=known)
>>> [(c.kind, c.value, c.grounded) for c in frame.conditions]
[('time', 'May 2024', True), ('participant', 'Alice', True), ('location', 'Lisbon', True)]
>>> frame.need
'What did Alice eat in Lisbon?'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property, lru_cache
from typing import Protocol

from dateutil.relativedelta import relativedelta

from ramem_integrations.core.aliases import namespace_aliases
from ramem_integrations.core.entity_typing import typed_places
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.core.text import SENTENCE_START as _SENTENCE_START
from ramem_integrations.core.time.grounding import (
    Conventions,
    FoundTime,
    check_reference,
    conventions_for,
    find_times,
    ground_time,
)
from ramem_integrations.core.types import (
    Condition,
    ConditionKind,
    MemoryUnit,
    RecallFrame,
    TimeSpan,
)
from ramem_integrations.errors import InvalidInputError, InvalidTimeError

__all__ = [
    "FrameInducer",
    "KnownContext",
    "RuleFrameInducer",
    "asks_for_time",
    "check_time",
    "known_name",
    "open_range",
    "order_subject",
]

RELATION_REASON = (
    "needs the anchor event's time: the retriever finds the anchor among the memories (stage 3)"
)
ORDINAL_REASON = "needs the times of every matching episode: the retriever orders them (stage 3)"

#: How far before and after the conversation's own dates a question's time may fall and still
#: be taken as meant. Before: people recall their past ("4 years ago", "summer 2021"). After:
#: plans.
PAST_MARGIN = relativedelta(years=5)
FUTURE_MARGIN = relativedelta(years=1)
#: The most content words an order word's subject runs to.
SUBJECT_MAX_WORDS = 8
#: The most words an anchor phrase after a relation word runs to.
ANCHOR_MAX_WORDS = 6
#: A known name may be shortened in a question to a prefix of at least this many letters
#: ("Mel" for Melanie, "Jo" for Joanna) when exactly one known participant's first name starts
#: with it, the prefix perhaps with a diminutive ending ("Sammy" for Sam, "Katie" for
#: Katherine).
NICKNAME_MIN_LETTERS = 2
#: An unknown name one slip from exactly one participant's first name (a letter changed,
#: added, dropped, or two swapped: "Nerbaas" for Nebraas, "Aqib" for Akib), with the same first
#: letter and at least this many letters, is that participant: people misspell names when they
#: ask.
MISSPELT_MIN_LETTERS = 4


def _alt(phrases: Iterable[str]) -> str:
    """A non-capturing alternation, longest first, spaces matching any whitespace."""
    items = sorted(phrases, key=len, reverse=True)
    return "(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in items) + ")"


@dataclass(frozen=True, eq=False)
class _Words:
    """A lexicon's words as the frame rules read them: patterns and sets, built once per
    lexicon (:func:`_compiled`)."""

    recency: re.Pattern[str]
    ordinal: re.Pattern[str]
    order_adverb: re.Pattern[str]
    leading_mention: re.Pattern[str]
    relation: re.Pattern[str]
    time_relation: re.Pattern[str]  # "two weeks before", right before a time expression
    asks_time: re.Pattern[str]
    asks_plural: re.Pattern[str]  # "What (kind of) <plural> <auxiliary>": the plural is group 1
    asks_several: re.Pattern[str]
    place_cue: re.Pattern[str]
    relations: dict[str, tuple[str, bool]]  # every relation word, time-only ones too
    ordinals: dict[str, str]  # ordinal phrases and order adverbs
    stop_words: frozenset[str]
    not_names: frozenset[str]
    generic: frozenset[str]
    time_leaders: frozenset[str]
    not_relation_after: frozenset[str]
    anchor_openers: frozenset[str]
    anchor_ends: frozenset[str]
    subject_pronouns: frozenset[str]
    auxiliaries: frozenset[str]
    not_plurals: frozenset[str]
    time_words: frozenset[str]
    day_names: frozenset[str]  # weekdays and one-word holidays: days, never people
    diminutive_endings: tuple[str, ...]


@lru_cache(maxsize=8)
def _compiled(lexicon: Lexicon) -> _Words:
    words = lexicon.frames
    relations = {phrase: (kind, end) for phrase, kind, end in words.relations}
    every_relation = {
        **relations,
        **{phrase: (kind, end) for phrase, kind, end in words.time_only_relations},
    }
    ordinals = dict(words.ordinals)
    adverbs = dict(words.order_adverbs)
    mention = _alt(words.mention_verbs)
    time = lexicon.time
    counts = {**dict(time.number_words), **dict(time.vague_counts)}
    count = rf"(?:\d{{1,3}}|{_alt(counts)})"
    return _Words(
        recency=re.compile(rf"(?<![\w'-]){_alt(words.recency)}(?![\w'-])", re.IGNORECASE),
        ordinal=re.compile(rf"(?<!\w){_alt(ordinals)}(?!\w)", re.IGNORECASE),
        order_adverb=re.compile(rf"(?<![\w-]){_alt(adverbs)}(?=\s+{mention}(?!\w))", re.IGNORECASE),
        leading_mention=re.compile(rf"^(?:\w+\s+)?{mention}(?!\w)\s*", re.IGNORECASE),
        relation=re.compile(rf"(?<![\w'-])(?P<rel>{_alt(relations)})\s+", re.IGNORECASE),
        time_relation=re.compile(
            rf"(?:(?P<n>{count})\s+(?P<u>{_alt(dict(time.units))})\s+"
            rf"|the\s+(?P<one>day|week|month|year)\s+)?(?P<rel>{_alt(every_relation)})\s+$",
            re.IGNORECASE,
        ),
        asks_time=re.compile(rf"^\W*{_alt(words.asks_time)}(?!\w)", re.IGNORECASE),
        asks_plural=re.compile(
            rf"^\W*{_alt(words.several_openings)}\s+"
            rf"(?:{_alt(words.kind_words)}\s+(?:[a-z]+\s+){{1,2}}|(?:[a-z]+\s+)?([a-z]+s)\s+)"
            rf"{_alt(words.auxiliaries)}(?!\w)",
            re.IGNORECASE,
        ),
        asks_several=re.compile(rf"(?<!\w){_alt(words.asks_several)}(?!\w)", re.IGNORECASE),
        place_cue=re.compile(rf"\b(?:{'|'.join(lexicon.places.question_cues)})\s+$", re.IGNORECASE),
        relations=every_relation,
        ordinals={**ordinals, **adverbs},
        stop_words=frozenset(lexicon.text.stop_words),
        not_names=frozenset(lexicon.text.not_names),
        generic=frozenset(words.generic_words),
        time_leaders=frozenset(words.time_leaders),
        not_relation_after=frozenset(words.not_relation_after),
        anchor_openers=frozenset(words.anchor_openers),
        anchor_ends=frozenset(words.anchor_ends),
        subject_pronouns=frozenset(words.subject_pronouns),
        auxiliaries=frozenset(words.auxiliaries),
        not_plurals=frozenset(words.not_plurals),
        time_words=frozenset(
            (
                *dict(time.months),
                *dict(time.weekdays),
                *dict(time.seasons),
                *dict(time.modifiers),
                *words.recency,
                *dict(time.holidays),
            )
        ),
        # Months are not days: June and May are names too.
        day_names=frozenset(
            (*dict(time.weekdays), *(h for h in dict(time.holidays) if " " not in h))
        ),
        diminutive_endings=words.diminutive_endings,
    )


_WORD = re.compile(r"[\w'’-]+")
_NAME_RUN = re.compile(r"(?<![\w'-])[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*(?![\w-])")


def asks_for_time(query: str, lexicon: Lexicon = ENGLISH) -> bool:
    """True when the question asks for a time ("When did ...?", "What year ...?")."""
    return bool(_compiled(lexicon).asks_time.search(query))


def asks_for_several(query: str, lexicon: Lexicon = ENGLISH) -> bool:
    """True when the question asks for several things ("What sports does Kevin play?", "How
    many pets ...", "... both ..."), whose evidence is spread over several episodes; a
    question that asks for a time asks for one ("How many years ago ...")."""
    if asks_for_time(query, lexicon):
        return False
    words = _compiled(lexicon)
    plural = words.asks_plural.match(query)
    if plural and (plural.group(1) or "").lower() not in words.not_plurals:
        return True
    return bool(words.asks_several.search(query))


# ------------------------------------------------------------------------- what is known


@dataclass(frozen=True, slots=True)
class KnownContext:
    """What a namespace knows: its people, places, named things and dates.

    Conditions are checked against it: a participant the namespace never saw, or a date far
    outside its ``date_range``, cannot be a reliable condition.
    """

    participants: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    entities: tuple[str, ...] = ()
    date_range: TimeSpan | None = None
    #: Other names participants are called by, ``(alias, participant)`` (:mod:`.aliases`).
    aliases: tuple[tuple[str, str], ...] = ()
    #: Words that addressed one participant once only (after a greeting): read as that
    #: participant only where a question writes them as a name, capitalised mid-sentence.
    aliases_once: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_memories(cls, units: Iterable[MemoryUnit], lexicon: Lexicon = ENGLISH) -> KnownContext:
        """Collect speakers and participants, locations, entities and the span of the sessions.

        Names lose leading question words a capitalised run picked up ("Did Bob" is "Bob");
        an entity that is also a person or a place is counted once, as that. Aliases are those
        stored with the memories and those learned over all of them (:mod:`.aliases`).
        """
        units = list(units)
        not_names = _compiled(lexicon).not_names
        people: dict[str, None] = {}
        places: dict[str, None] = {}
        things: dict[str, None] = {}
        as_place: Counter[str] = Counter()
        as_other: Counter[str] = Counter()
        spans = []
        for unit in units:
            ctx = unit.context
            people.update(dict.fromkeys(p for p in (ctx.speaker, *ctx.participants) if p))
            place = _clean_name(ctx.location, not_names)
            named = [_clean_name(e, not_names) for e in ctx.entities]
            places.update(dict.fromkeys(n for n in [place] if n))
            as_place.update(n for n in [place] if n)
            as_other.update(n for n in named if n and n != place)
            things.update(dict.fromkeys(n for n in named if n))
            spans.append(ctx.session_span)
        date_range = None
        if spans:
            date_range = TimeSpan(min(s.start for s in spans), max(s.end for s in spans))
        typed = typed_places(as_place, as_other)  # a name the memories contradict is no place
        things.update(dict.fromkeys(p for p in places if p not in typed))
        places = {p: None for p in places if p in typed}
        aliases, once = namespace_aliases(units, lexicon)
        names = {alias.casefold() for alias, _ in (*aliases, *once)}
        entities = tuple(
            e for e in things if e not in people and e not in places and e.casefold() not in names
        )
        return cls(tuple(people), tuple(places), entities, date_range, aliases, once)

    def window(self, reference: datetime, before: relativedelta, after: relativedelta) -> TimeSpan:
        """The dates a question may plausibly mean: the known range (else the reference
        moment) widened by ``before`` and ``after``."""
        check_reference(reference)
        span = self.date_range or TimeSpan(reference, reference + timedelta(seconds=1))
        try:
            start, end = span.start - before, span.end + after
        except (OverflowError, ValueError) as exc:
            raise InvalidTimeError(
                f"The known dates {span.label()} are too close to the ends of the calendar to "
                "ground questions against; check the session dates of this namespace."
            ) from exc
        return TimeSpan(_midnight(start), _midnight(end - timedelta(microseconds=1)) + _DAY)


_DAY = timedelta(days=1)


def _midnight(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _clean_name(name: str | None, not_names: frozenset[str]) -> str:
    """A name without the question words a capitalised run picked up ("Did Bob": "Bob")."""
    parts = (name or "").split()
    while parts and parts[0] in not_names:
        parts.pop(0)
    return " ".join(parts)


class FrameInducer(Protocol):
    """Anything that reads a question into a :class:`RecallFrame`."""

    def induce(self, query: str, *, reference: datetime, known: KnownContext) -> RecallFrame: ...


# ------------------------------------------------------------------------- the rule inducer


@dataclass
class _Claims:
    """Character ranges of the question already read as a condition."""

    taken: list[tuple[int, int]] = field(default_factory=list)
    removed: list[tuple[int, int]] = field(default_factory=list)

    def free(self, start: int, end: int) -> bool:
        return all(end <= s or e <= start for s, e in self.taken)

    def take(self, start: int, end: int, *, remove: bool) -> None:
        self.taken.append((start, end))
        if remove:
            self.removed.append((start, end))


@dataclass(frozen=True)
class RuleFrameInducer:
    """Offline recall-condition induction by rules and tables (see the module docstring).

    ``past_margin`` and ``future_margin`` widen the known date range: a time condition whose
    span falls wholly outside the widened range is kept but not grounded. ``hemisphere``
    ("northern" or "southern") says which months the season words name, ``date_order``
    ("DMY", the default, "MDY", or None to go by the separator) how 10/01/2024 is read. A bare
    date points the way the question's tense does ("what's on Thursday?": the coming one).
    """

    past_margin: relativedelta = PAST_MARGIN
    future_margin: relativedelta = FUTURE_MARGIN
    hemisphere: str = "northern"
    date_order: str | None = "DMY"
    #: The words questions are read by.
    lexicon: Lexicon = ENGLISH

    @cached_property
    def conventions(self) -> Conventions:
        """The time conventions questions are read by: the defaults with these options, and
        the lexicon's time words; "two weeks ago" is the day that far back, as in messages."""
        chosen = conventions_for(None, self.hemisphere, self.date_order)
        return replace(chosen, words=self.lexicon.time, weeks_as_days=True)

    def induce(self, query: str, *, reference: datetime, known: KnownContext) -> RecallFrame:
        if not isinstance(query, str):
            raise InvalidInputError(f"query must be a string, got {type(query).__name__}.")
        claims = _Claims()
        window = known.window(reference, self.past_margin, self.future_margin)
        lexicon = self.lexicon
        conditions = [
            *time_conditions(query, reference, window, known, claims, self.conventions, lexicon),
            *ordinal_conditions(query, claims, known, lexicon),
            *relation_conditions(query, claims, lexicon),
            *recency_conditions(query, claims, lexicon),
            *name_conditions(query, known, claims, lexicon),
        ]
        need = _need(query, claims.removed)
        return RecallFrame(
            query=query,
            need=need,
            conditions=tuple(_recency_subject(c, need, known, lexicon) for c in conditions),
            reference=reference,
            asks_time=asks_for_time(query, lexicon),
            asks_several=asks_for_several(query, lexicon),
        )


# ------------------------------------------------------------------------- time


def time_conditions(
    query: str,
    reference: datetime,
    window: TimeSpan,
    known: KnownContext,
    claims: _Claims,
    conventions: Conventions | None = None,
    lexicon: Lexicon = ENGLISH,
) -> list[Condition]:
    """One condition per time expression; relative ones re-read against an absolute date
    named in the same question, open ranges after a relation word."""
    words = _compiled(lexicon)
    found = find_times(query, reference, conventions=conventions, tense=True)
    local = _local_reference(found)
    conditions = []
    for item in found:
        span, said = item.span, f"grounded against {_day(reference)}"
        if item.relative and local is not None:
            span = ground_time(item.text, local, conventions=conventions) or span
            said = f"grounded against {_day(local)}, the date the question names"
        relation = words.time_relation.search(query, 0, item.start)
        start = relation.start() if relation else _lead_start(query, item.start, words)
        claims.take(start, item.end, remove=True)
        if relation:
            kind, inclusive = words.relations[" ".join(relation["rel"].lower().split())]
            evidence = query[relation.start() : item.end]
            cond = open_range(
                evidence, kind, span, window, inclusive, _reach(relation, lexicon.time)
            )
        else:
            cond = Condition("time", span.label(), item.text, True, span, said)
        conditions.append(check_time(cond, window, known))
    return conditions


def _local_reference(found: list[FoundTime]) -> datetime | None:
    """The last moment of the first absolute date (a whole day at most) the question names:
    "last weekend before April 10, 2023" is read as said on 10 April 2023."""
    dates = [f for f in found if not f.relative and f.span.duration <= timedelta(days=1)]
    return dates[0].span.end - timedelta(seconds=1) if dates else None


def _day(moment: datetime) -> str:
    return TimeSpan.day(moment.date(), moment.tzinfo).label()


def _lead_start(query: str, start: int, words: _Words) -> int:
    """Where the words belonging to a time expression start ("in May", "as mentioned on")."""
    for _ in range(3):
        before = query[:start].rstrip(" ,")
        word = re.search(r"[\w']+$", before)
        if not word or word.group().lower() not in words.time_leaders:
            break
        start = word.start()
    return start


def open_range(
    evidence: str,
    kind: str,
    anchor: TimeSpan,
    window: TimeSpan,
    inclusive: bool = False,
    reach: relativedelta | None = None,
) -> Condition:
    """A time condition for the range on one side (``kind`` "before" or "after") of a time:
    'after May 2023' runs to the end of ``window``, 'two weeks before 11 August 2023' (``reach``
    two weeks) from 28 July. ``inclusive`` keeps the anchor itself ('since May', 'until May')."""
    if kind == "after":
        start = anchor.start if inclusive else anchor.end
        end = start + reach if reach else window.end
    else:
        end = anchor.end if inclusive else anchor.start
        start = end - reach if reach else window.start
    if not start < end:
        return Condition("time", evidence, evidence, False, None, "the range it opens is empty")
    span = TimeSpan(start, end)
    reason = f"{kind} {anchor.label()}"
    return Condition("time", span.label(), evidence, True, span, reason, open=reach is None)


def _reach(relation: re.Match[str], time: TimeWords) -> relativedelta | None:
    """How far a counted relation reaches: 'two weeks before' is two weeks."""
    if relation["one"]:
        return relativedelta(**{relation["one"].lower() + "s": 1})
    if not relation["n"]:
        return None
    count = " ".join(relation["n"].lower().split())
    if count.isdigit():
        most = int(count)
    elif count in (vague := dict(time.vague_counts)):
        most = vague[count][1]
    else:
        most = dict(time.number_words)[count]
    unit = dict(time.units)[relation["u"].lower()]
    return relativedelta(years=10 * most) if unit == "decades" else relativedelta(**{unit: most})


def check_time(cond: Condition, window: TimeSpan, known: KnownContext) -> Condition:
    """A time condition outside the plausible ``window`` is kept, but not grounded; one inside
    it but where no session was held is marked ``outside_sessions``."""
    if cond.span is None:
        return cond
    if cond.span.overlaps(window):
        held = known.date_range is None or cond.span.overlaps(known.date_range)
        return cond if held else replace(cond, outside_sessions=True)
    where = known.date_range.label() if known.date_range else "the reference date"
    reason = (
        f"{cond.span.label()} lies outside the conversation's dates ({where}), even widened "
        f"to {window.label()}; taken as a misreading"
    )
    return Condition(cond.kind, cond.value, cond.evidence, False, cond.span, reason)


# ------------------------------------------------------------------------- relations, recency


def ordinal_conditions(
    query: str, claims: _Claims, known: KnownContext | None = None, lexicon: Lexicon = ENGLISH
) -> list[Condition]:
    """'the first time', 'the last time I mentioned the dentist', 'when did I first mention':
    the earliest or latest of the episodes about the subject the order word governs, which
    becomes the condition's ``anchor`` ("dentist")."""
    words = _compiled(lexicon)
    conditions = []
    for match in (*words.ordinal.finditer(query), *words.order_adverb.finditer(query)):
        if not claims.free(*match.span()):
            continue
        claims.take(*match.span(), remove=True)
        said = " ".join(match.group().lower().split())
        value = words.ordinals[said]
        subject = order_subject(_clause(query, match.end(), claims, words), known, lexicon)
        conditions.append(
            Condition("relation", value, match.group(), False, None, ORDINAL_REASON, subject)
        )
    return conditions


def _clause(query: str, start: int, claims: _Claims, words: _Words) -> str:
    """The words after ``start`` up to punctuation, a part already read as a condition, or
    :data:`SUBJECT_MAX_WORDS` words that carry content (stop words and generic
    verbs do not count: "mentioned that he was working on a time travel machine" keeps the
    machine)."""
    taken: list[str] = []
    content = 0
    end = start
    for match in _WORD.finditer(query, start):
        if re.search(r"[?.!,;:]", query[end : match.start()]) or not claims.free(*match.span()):
            break
        taken.append(match.group())
        end = match.end()
        lower = match.group().lower()
        content += lower not in words.stop_words and lower not in words.generic
        if content == SUBJECT_MAX_WORDS:
            break
    return " ".join(taken)


def order_subject(
    clause: str, known: KnownContext | None = None, lexicon: Lexicon = ENGLISH
) -> str | None:
    """What an order or recency word is about: the clause without who said it, the verb of
    saying, generic verbs and the people of the namespace ("I mentioned the cat": "cat")."""
    words = _compiled(lexicon)
    clause = words.leading_mention.sub("", clause.strip())
    people = {p.casefold() for p in _participant_forms(known.participants)} if known else set()
    kept = [
        w
        for w in clause.split()
        if w.lower() not in words.generic and re.sub(r"['’]s$", "", w).casefold() not in people
    ]
    while kept and kept[0].lower() in words.stop_words:
        kept.pop(0)
    while kept and kept[-1].lower() in words.stop_words:
        kept.pop()
    return " ".join(kept) or None


def _recency_subject(
    cond: Condition, need: str, known: KnownContext, lexicon: Lexicon
) -> Condition:
    """A recency condition governs what the question asks about: its need's content words."""
    if cond.kind != "recency":
        return cond
    stop_words = _compiled(lexicon).stop_words
    content = [w for w in _WORD.findall(need) if w.lower() not in stop_words]
    return replace(cond, anchor=order_subject(" ".join(content), known, lexicon))


def relation_conditions(query: str, claims: _Claims, lexicon: Lexicon = ENGLISH) -> list[Condition]:
    """'after the support group', 'before her birthday': a relation to another event."""
    words = _compiled(lexicon)
    conditions = []
    for match in words.relation.finditer(query):
        if not claims.free(*match.span()) or _is_idiom(query, match.start(), words):
            continue
        anchor = _anchor(query, match.end(), claims, words)
        if anchor is None:
            continue
        claims.take(match.start(), anchor[1], remove=True)
        value = words.relations[" ".join(match["rel"].lower().split())][0]
        text = query[anchor[0] : anchor[1]]
        evidence = query[match.start() : anchor[1]]
        conditions.append(
            Condition("relation", value, evidence, False, None, RELATION_REASON, anchor=text)
        )
    return conditions


def _is_idiom(query: str, start: int, words: _Words) -> bool:
    previous = re.search(r"([\w']+)\s*$", query[:start])
    return previous is not None and previous.group(1).lower() in words.not_relation_after


def _anchor(query: str, start: int, claims: _Claims, words: _Words) -> tuple[int, int] | None:
    """The anchor phrase after a relation word: (start, end), or None when there is none."""
    tokens: list[re.Match[str]] = []
    for match in _WORD.finditer(query, start):
        gap = query[tokens[-1].end() if tokens else start : match.start()]
        if gap.strip() or not claims.free(*match.span()):
            break
        word = match.group().lower()
        if word in words.anchor_ends and tokens and not _subject_then_verb(tokens, word, words):
            break
        tokens.append(match)
        if len(tokens) == ANCHOR_MAX_WORDS:
            break
    if not tokens or not _opens_anchor(tokens[0].group(), words):
        return None
    if len(tokens) == 1 and tokens[0].group().lower() in words.subject_pronouns:
        return None  # "after it": the event is named elsewhere, nothing here to find it by
    return tokens[0].start(), tokens[-1].end()


def _subject_then_verb(tokens: list[re.Match[str]], word: str, words: _Words) -> bool:
    """'it had', 'Nebraas had': a lone subject (a pronoun or a name), then its auxiliary; the
    event is the clause."""
    subject = tokens[0].group()
    return (
        len(tokens) == 1
        and (subject.lower() in words.subject_pronouns or subject[0].isupper())
        and word in words.auxiliaries
    )


def _opens_anchor(word: str, words: _Words) -> bool:
    lower = word.lower()
    return (
        lower in words.anchor_openers
        or word[0].isupper()
        or lower.endswith("ing")
        or lower.endswith(("'s", "’s"))
    )


def recency_conditions(query: str, claims: _Claims, lexicon: Lexicon = ENGLISH) -> list[Condition]:
    """'now', 'still', 'these days': the latest episode is the valid one (one condition)."""
    recency = _compiled(lexicon).recency
    matches = [m for m in recency.finditer(query) if claims.free(*m.span())]
    for match in matches:
        claims.take(*match.span(), remove=True)
    if not matches:
        return []
    reason = "the question asks for the current state: the latest episode is the valid one"
    return [Condition("recency", "latest", matches[0].group(), True, None, reason)]


# ------------------------------------------------------------------------- names


def name_conditions(
    query: str, known: KnownContext, claims: _Claims, lexicon: Lexicon = ENGLISH
) -> list[Condition]:
    """Known participants, places and entities named in the question; unknown names too."""
    words = _compiled(lexicon)
    conditions = []
    cased = _capitalises_names(query, words)
    for kind, table in _name_tables(known, words):
        for name, (start, end) in _find_known(query, table, claims, cased):
            claims.take(start, end, remove=False)
            said, reason = query[start:end], f"known {kind}"
            by_alias = kind == "participant" and said.casefold() in _alias_names(known)
            if by_alias:
                reason = f"known participant ({said!r} is an alias of {name!r})"
            conditions.append(Condition(kind, name, said, True, None, reason, by_alias=by_alias))
    conditions.extend(_unknown_names(query, known, claims, words))
    return _first_of_each(conditions)


def _name_tables(known: KnownContext, words: _Words) -> list[tuple[ConditionKind, dict[str, str]]]:
    """For each kind, the written forms that may name a known thing -> its canonical name."""
    return [
        ("participant", {**_participant_forms(known.participants), **dict(known.aliases)}),
        ("location", {p: p for p in known.places if _matchable(p, words)}),
        ("entity", {e: e for e in known.entities if _matchable(e, words)}),
    ]


def _participant_forms(participants: tuple[str, ...]) -> dict[str, str]:
    """Full names, then first names that only one participant has."""
    named = [p for p in participants if p.strip()]  # a blank name names no one
    forms = {p: p for p in named}
    firsts: dict[str, list[str]] = {}
    for person in named:
        firsts.setdefault(person.split()[0], []).append(person)
    forms.update({first: owners[0] for first, owners in firsts.items() if len(owners) == 1})
    return forms


def _alias_names(known: KnownContext) -> set[str]:
    return {alias.casefold() for alias, _ in known.aliases}


def _matchable(name: str, words: _Words) -> bool:
    """Not a stop word, a time word, or too short to mean anything by itself."""
    lower = name.lower()
    return len(name) >= 3 and lower not in words.stop_words and lower not in words.time_words


def _find_known(
    query: str, forms: dict[str, str], claims: _Claims, cased: bool
) -> list[tuple[str, tuple[int, int]]]:
    """Known forms found in the query, longest first, not overlapping what is taken.

    Case is ignored, except that a question which capitalises names (``cased``, from
    :func:`_capitalises_names`) is taken at its word: there a form written in lower case is a
    common word ("the castle shadow box" does not name the dog Shadow)."""
    hits: list[tuple[str, tuple[int, int]]] = []
    folded = query.casefold()
    for form in sorted(forms, key=len, reverse=True):
        if form.casefold() not in folded:  # most known names are not in the question
            continue
        for match in _form_pattern(form).finditer(query):
            if cased and match.group().islower():
                continue
            if claims.free(*match.span()) and all(_apart(match.span(), h[1]) for h in hits):
                hits.append((forms[form], match.span()))
    return sorted(hits, key=lambda h: h[1])


@lru_cache(maxsize=4096)
def _form_pattern(form: str) -> re.Pattern[str]:
    """A known name as a whole word, in any case unless it is written in capitals."""
    flags = 0 if form.isupper() else re.IGNORECASE
    return re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", flags)


def _capitalises_names(query: str, words: _Words) -> bool:
    """True when a capitalised word that is no common capital (a month, a greeting) stands
    inside a sentence: the asker writes names with capitals."""
    return any(
        any(word not in words.not_names for word in match.group().split())
        and not _SENTENCE_START.search(query, 0, match.start())
        for match in _NAME_RUN.finditer(query)
    )


def _apart(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[1] <= b[0] or b[1] <= a[0]


def _unknown_names(
    query: str, known: KnownContext, claims: _Claims, words: _Words
) -> list[Condition]:
    """Capitalised names the namespace does not know: kept, never grounded.

    A short form of one participant's first name ("Mel") is that participant. Otherwise a name
    after *in / at / to / from / visit* is read as a place, a run of several capitalised words
    as an entity, a single word as a person.
    """
    conditions = []
    once = dict(known.aliases_once)
    for match in _NAME_RUN.finditer(query):
        parts = [w for w in match.group().split() if w not in words.not_names]
        if (
            not parts
            or all(w.lower() in words.day_names for w in parts)
            or not claims.free(*match.span())
            or _SENTENCE_START.search(query, 0, match.start() + match.group().find(parts[0]))
        ):
            continue
        name = " ".join(parts)
        if name in once:
            reason = f"known participant ({name!r} is an alias of {once[name]!r}, said once)"
            conditions.append(
                Condition("participant", once[name], name, True, None, reason, by_alias=True)
            )
            continue
        owners = _owners(name, known.participants, words)
        if owners:
            conditions.append(_short_name(name, name, owners))
            continue
        if len(meant := _misspelt(name, known.participants)) == 1:
            reason = f"known participant ({name!r} taken as a misspelling of {meant[0]!r})"
            conditions.append(Condition("participant", meant[0], name, True, None, reason))
            continue
        kind: ConditionKind = "participant" if len(parts) == 1 else "entity"
        if words.place_cue.search(query[: match.start()]):
            kind = "location"
        reason = f"{name!r} is no participant, place or entity this namespace has seen"
        conditions.append(Condition(kind, name, match.group(), False, None, reason))
    return conditions


def _short_name(name: str, evidence: str, owners: list[str]) -> Condition:
    """A participant named by a short form: grounded when only one participant fits."""
    if len(owners) == 1:
        reason = f"known participant ({name!r} taken as short for {owners[0]!r})"
        return Condition("participant", owners[0], evidence, True, None, reason)
    reason = f"{name!r} could be any of {', '.join(owners)}"
    return Condition("participant", name, evidence, False, None, reason)


def known_name(
    name: str, known: KnownContext, lexicon: Lexicon = ENGLISH
) -> tuple[ConditionKind, str] | None:
    """``(kind, canonical name)`` when ``name`` names a known participant (also by first name,
    a short form, a misspelling or an alias said once), place or entity, compared
    case-insensitively; else None."""
    words = _compiled(lexicon)
    folded = " ".join(name.split()).casefold()
    for kind, forms in _name_tables(known, words):
        for form, canonical in forms.items():
            if form.casefold() == folded:
                return kind, canonical
    once = {alias.casefold(): person for alias, person in known.aliases_once}
    if folded in once:
        return "participant", once[folded]
    owners = _owners(name.strip(), known.participants, words) or _misspelt(
        name.strip(), known.participants
    )
    return ("participant", owners[0]) if len(owners) == 1 else None


def _owners(name: str, participants: tuple[str, ...], words: _Words) -> list[str]:
    """The participants whose first name ``name`` may shorten (:func:`shortens`)."""
    lower = name.lower()
    if " " in name or lower in words.stop_words or lower in words.time_words:
        return []
    endings = words.diminutive_endings
    return [p for p in participants if p.strip() and shortens(lower, p.split()[0].lower(), endings)]


def _misspelt(name: str, participants: tuple[str, ...]) -> list[str]:
    """The participants whose first name ``name`` may misspell (:func:`one_slip`)."""
    if " " in name or len(name) < MISSPELT_MIN_LETTERS:
        return []
    lower = name.lower()
    return [
        p
        for p in participants
        if p.strip() and (first := p.split()[0].lower())[0] == lower[0] and one_slip(lower, first)
    ]


def one_slip(typed: str, meant: str) -> bool:
    """Whether ``typed`` is ``meant`` with one letter changed, added or dropped, or two
    neighbours swapped (and not ``meant`` itself)."""
    if typed == meant or abs(len(typed) - len(meant)) > 1:
        return False
    start = next((i for i, (a, b) in enumerate(zip(typed, meant, strict=False)) if a != b), None)
    if start is None:  # one is the other plus a last letter
        return True
    a, b = typed[start:], meant[start:]
    swapped = len(a) == len(b) >= 2 and a[:2] == b[1::-1] and a[2:] == b[2:]
    return a[1:] == b[1:] or a[1:] == b or a == b[1:] or swapped


def shortens(
    short: str, first: str, endings: tuple[str, ...] = ENGLISH.frames.diminutive_endings
) -> bool:
    """Whether ``short`` is a short form of the first name ``first`` (both lower case): a
    prefix of at least :data:`NICKNAME_MIN_LETTERS` letters with a vowel ("mel", "jo"; not
    "dr"), or such a prefix with one of the diminutive ``endings``, its last letter doubled or
    not ("sammy", "katie", "joey")."""
    stems = [short]
    for ending in endings:
        stem = short.removesuffix(ending)
        if stem != short:
            stems += [stem, stem[:-1]] if stem[-2:-1] == stem[-1:] else [stem]
    return any(
        len(stem) >= NICKNAME_MIN_LETTERS
        and any(ch in "aeiouy" for ch in stem)
        and first.startswith(stem)
        for stem in stems
    )


def _first_of_each(conditions: list[Condition]) -> list[Condition]:
    """One condition per (kind, value), in the order the question names them."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for cond in conditions:
        if (cond.kind, cond.value) not in seen:
            seen.add((cond.kind, cond.value))
            unique.append(cond)
    return unique


# ------------------------------------------------------------------------- the need


def _need(query: str, removed: list[tuple[int, int]]) -> str:
    """The question without the words read as time, relation or recency conditions."""
    pieces, cursor = [], 0
    for start, end in sorted(removed):
        pieces.append(query[cursor:start])
        cursor = max(cursor, end)
    pieces.append(query[cursor:])
    need = " ".join("".join(pieces).split())
    need = re.sub(r"\s+([?.!,;:])", r"\1", need)
    need = re.sub(r",+([?.!])", r"\1", need).strip(" ,")
    return need or query


UNDATED_REASON = (
    "a relative time, and the question's date is unknown (it was read against the end of the "
    "memories); pass reference= the moment the question is asked to ground it"
)


def without_relative_times(frame: RecallFrame, words: TimeWords = ENGLISH.time) -> RecallFrame:
    """The frame with its purely relative time conditions ungrounded.

    Used when the question's own date is unknown: "last weekend" read against the end of the
    conversation is a guess, and a hallucinated constraint is worse than none. Conditions that
    name an absolute date ("the week before 12 March 2024") stay grounded; ``words`` are the
    time words the evidence is read by.
    """
    if frame.reference is None:
        return frame
    reference = frame.reference
    conditions = tuple(
        replace(c, grounded=False, reason=UNDATED_REASON, undated=True)
        if c.kind == "time" and c.grounded and _only_relative(c.evidence, reference, words)
        else c
        for c in frame.conditions
    )
    return replace(frame, conditions=conditions)


@lru_cache(maxsize=1024)  # a few evidence texts ("last week") against a namespace's last date
def _only_relative(text: str, reference: datetime, words: TimeWords) -> bool:
    found = find_times(text, reference, conventions=Conventions(words=words))
    return bool(found) and all(f.relative for f in found)
