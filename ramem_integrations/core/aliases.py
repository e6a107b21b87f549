"""Aliases: the other names a participant is called by.

A participant's display name is "Bea", but the other writes "Hey Trixie!" to her, and
questions ask about Trixie. :func:`learn_aliases` reads how people are addressed in a
namespace's messages. :func:`vocatives` finds the words a message may address someone by: a
word after a greeting or thanks ("hey Trixie", "thanks trix", "night moose"), and a message
that is one word ("trixieeee", "BUNNY"), a greeting counting only within its clause ("Hey!
Remember ..." addresses no one); and, a weaker cue, a capitalised word closing a clause after a
comma or a word that is not a stop word ("That's so cool Kate!", "What about you Kate?"; not
"I went with Kate."). In a two-person session the addressee is the other
participant. A word is an alias of that participant when, across the namespace, it is addressed
to them at least :data:`MIN_EVIDENCE` times (once after a greeting), never to anyone else, the
addressee writes it at most a third as often (quoting it: "RUN PEGGY RUN"), and at least
:data:`MIN_SHARE` of the writer's uses of it are vocatives (so "thanks again", "night then" and
a one-word "tomorrow?" name nobody when the word sits inside other messages too). A
participant's own name is never an alias. A word addressed only once is an alias said once
(:func:`alias_evidence` counts it), which a question reader takes only where a question writes
it as a name, when it passes every other test, a message opens with a salutation and it
("hey trixie what happened"; not "Morning! Crashed", "I love badminton", "sorry typo"), and no
one writes it anywhere else. A message that opens by calling the other, a capitalised word set
off by "!" or "," ("Sammy!! how are you?"), addresses them too: such a word, when no one ever
writes it in lower case (a name is capitalised; "Amazing, ..." is a word) and the one it calls
never writes it, is an alias said once however often it is called, so an exclamation that opens
messages ("Certainly! ...") names no one a question does not write as a name.

Aliases are learned per namespace, from everything stored in it (:func:`stored_messages`
reads the messages back from the memories), so evidence from two chats adds up and a fresh
process learns the same.

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
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from ramem_integrations.core.conversation import Conversation
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.types import MemoryUnit, RecallFrame

__all__ = [
    "MIN_EVIDENCE",
    "MIN_SHARE",
    "Said",
    "alias_evidence",
    "conversation_aliases",
    "learn_aliases",
    "named_query",
    "namespace_aliases",
    "stored_messages",
]

#: A message as aliases see it: (speaker, the session's participants, the verbatim text).
Said = tuple[str, tuple[str, ...], str]

#: How many times a word must address the same person before it is an alias.
MIN_EVIDENCE = 2
#: The least share of the writer's uses of a word that must be vocatives.
MIN_SHARE = 0.5

#: A word, lower case; a hyphenated one is one word ("well-rounded" is not "well Rounded").
_TOKEN = re.compile(r"[a-z][a-z']*(?:-[a-z][a-z']*)*")
_CLAUSES = re.compile(r"[.!?;:\n]+")
#: A capitalised word closing a clause, with the comma or the word before it.
_CLOSING_NAME = re.compile(r"(?:(,)|([\w'’]+))\s+([A-Z][a-z'’]*[a-z])\W*$")
_REPEATS = re.compile(r"([a-z])\1{2,}")
#: A capitalised word opening a message as a clause of its own, set off by "!" or ",", the
#: message going on after it: "Sammy!! how are you?", "Sammy, how are you?".
_CALLED = re.compile(r"^\W*([A-Z][a-z'’]*[a-z])\s*(?:!+|,)\s*\w")
#: Words as written, to tell a name (always capitalised) from a word (also written in lower case).
_WRITTEN = re.compile(r"[A-Za-z][A-Za-z']*")


@dataclass(frozen=True, eq=False)
class _Words:
    """A lexicon's alias words as sets, and the pattern of a salutation opening a message."""

    greetings: frozenset[str]
    closers: frozenset[str]
    not_plausible: frozenset[str]  # never an alias: not-aliases, stop words, reactions, ...
    stop_words: frozenset[str]
    before_a_closing_name: frozenset[str]
    opening: re.Pattern[str]


@lru_cache(maxsize=8)
def _compiled(lexicon: Lexicon) -> _Words:
    words = lexicon.aliases
    salutations = "|".join(words.salutations)
    return _Words(
        greetings=frozenset(words.greetings),
        closers=frozenset(words.closers),
        not_plausible=frozenset(
            (
                *words.not_aliases,
                *lexicon.text.stop_words,
                *lexicon.chat.reactions,
                *words.greetings,
                *dict(lexicon.time.months),
                *dict(lexicon.time.weekdays),
            )
        ),
        stop_words=frozenset(lexicon.text.stop_words),
        before_a_closing_name=frozenset(words.before_a_closing_name),
        opening=re.compile(rf"^\W*(?:{salutations})[ ,]+([a-z][a-z']*)(?![\w'’])"),
    )


def _words(text: str, lex: _Words) -> list[str]:
    """Lower-case words, letters repeated three or more times written once ("trixieeee")."""
    words = _TOKEN.findall(_REPEATS.sub(r"\1", text.lower()))
    while words and words[-1] in lex.closers:
        words.pop()
    return words


def vocatives(text: str, lexicon: Lexicon = ENGLISH) -> list[tuple[str, bool]]:
    """Words of ``text`` that may address someone, lower case, each with whether a greeting
    or thanks comes before it in its clause (the strong cue; a one-word message and a name
    closing a clause are the weak ones)."""
    lex = _compiled(lexicon)
    return _vocatives(text, _words(text, lex), lex)


def _vocatives(text: str, words: list[str], lex: _Words) -> list[tuple[str, bool]]:
    """:func:`vocatives` of ``text``, whose :func:`_words` are ``words``."""
    found = dict.fromkeys(words if len(words) == 1 else [], False)
    closing = []
    for clause in _CLAUSES.split(text):
        found.update(dict.fromkeys(_greeted(_words(clause, lex), lex), True))
        if (name := _closing_name(clause, lex)) is not None:
            closing.append(name)
    for name in closing:
        found.setdefault(name, False)
    return [(word, greeted) for word, greeted in found.items() if _plausible(word, lex)]


def _closing_name(clause: str, lex: _Words) -> str | None:
    """The capitalised word that closes ``clause`` as an address does, lower case: after a
    comma, or after a word that is not a stop word ("so cool Kate!")."""
    match = _CLOSING_NAME.search(clause)
    if match is None:
        return None
    before = (match.group(2) or "").lower().replace("’", "'")
    if match.group(1) or before not in lex.stop_words or before in lex.before_a_closing_name:
        return _REPEATS.sub(r"\1", match.group(3).lower())
    return None


@lru_cache(maxsize=1 << 16)
def _read(
    text: str, lex: _Words, calls: bool = True
) -> tuple[frozenset[str], tuple[tuple[str, bool], ...], str | None, str | None]:
    """A message's words, its :func:`vocatives`, the word a salutation opening it addresses and
    (with ``calls``) the word it opens by calling someone (:data:`_CALLED`), cached: a
    namespace's aliases are learned again from all its messages after each write."""
    words = _words(text, lex)
    found = dict(_vocatives(text, words, lex))
    match = lex.opening.match(_REPEATS.sub(r"\1", text.lower()))
    opening = match.group(1) if match and _plausible(match.group(1), lex) else None
    if opening:
        found[opening] = True  # "thank you trixie"
    called = _CALLED.match(text) if calls else None
    name = _REPEATS.sub(r"\1", called.group(1).lower()) if called else None
    name = name if name and _plausible(name, lex) else None
    if name:
        found[name] = True  # "Sammy!! how are you?"
    written = {word.removesuffix("'s") for word in words}  # "trixie's van" writes "trixie"
    return frozenset(written), tuple(found.items()), opening, name


@lru_cache(maxsize=1 << 16)
def _lower_case(text: str) -> frozenset[str]:
    """The words ``text`` writes in lower case: no name, as a name is written."""
    return frozenset(
        _REPEATS.sub(r"\1", w.removesuffix("'s")) for w in _WRITTEN.findall(text) if w.islower()
    )


def _greeted(words: list[str], lex: _Words) -> list[str]:
    """The words right after a greeting or thanks among ``words`` (one clause's)."""
    return [after for before, after in pairwise(words) if before in lex.greetings]


def _plausible(word: str, lex: _Words) -> bool:
    return len(word) >= 2 and word not in lex.not_plausible


def learn_aliases(
    messages: Iterable[Said],
    min_evidence: int = MIN_EVIDENCE,
    min_share: float = MIN_SHARE,
    lexicon: Lexicon = ENGLISH,
) -> dict[str, str]:
    """Alias (capitalised) -> participant, from how participants are addressed."""
    evidence = alias_evidence(messages, min_share, lexicon)
    return {alias: person for alias, (person, seen) in evidence.items() if seen >= min_evidence}


def alias_evidence(
    messages: Iterable[Said],
    min_share: float = MIN_SHARE,
    lexicon: Lexicon = ENGLISH,
    *,
    calls: bool = True,
) -> dict[str, tuple[str, int]]:
    """Alias (capitalised) -> (participant, times addressed to them), for every word that
    passes all the tests of :func:`learn_aliases` but :data:`MIN_EVIDENCE`; a word addressed
    once only where a salutation opening the message addresses it, and no one writes it again.
    ``calls`` False leaves out the messages that open by calling the other ("Sammy!! how are
    you?"; the evaluation's ``no-called-aliases``)."""
    addressed: dict[str, Counter[str]] = {}  # word -> addressee -> count
    vocative_uses: Counter[str] = Counter()  # word -> times written as a vocative
    everyone: set[str] = set()
    strong: set[str] = set()  # words seen after a greeting at least once
    opened: set[str] = set()  # words a salutation opening a message addressed
    called: set[str] = set()  # capitalised words a message opened by calling the other
    greeted_words: set[str] = set()  # strong by a greeting, not only by being called
    messages = list(messages)
    lex = _compiled(lexicon)
    said = [
        (speaker, participants, *_read(text, lex, calls))
        for speaker, participants, text in messages
    ]
    for speaker, participants, _, found, opening, name in said:
        everyone.update(participants)
        others = [p for p in participants if p != speaker]
        if len(others) != 1:
            continue
        opened.update(w for w in (opening, name) if w)
        called.update([name] if name else [])
        for word, greeted in found:
            addressed.setdefault(word, Counter())[others[0]] += 1
            vocative_uses[word] += 1
            if greeted:
                strong.add(word)
                if word != name:
                    greeted_words.add(word)
    written: dict[str, Counter[str]] = {word: Counter() for word in addressed}  # -> writer -> uses
    for speaker, _, words, _, _, _ in said:
        for word in written.keys() & words:
            written[word][speaker] += 1
    lower = set().union(*(_lower_case(text) for _, _, text in messages)) & called
    own = {form.lower() for p in everyone if p.strip() for form in (p, p.split()[0])}
    aliases: dict[str, tuple[str, int]] = {}
    for word, counts in addressed.items():
        if word in own or word not in strong or len(counts) != 1:
            continue
        if word in lower and word not in greeted_words:
            continue  # called as a name, but written as a word too ("Amazing, ..."; "amazing")
        person, seen = counts.most_common(1)[0]
        writers = written[word]
        if 3 * writers[person] > seen or vocative_uses[word] < min_share * writers.total():
            continue
        named = word in called  # always written as a name, never by the one it calls
        if seen == 1 and (word not in opened or (writers.total() > 1 and not named)):
            continue
        if named and word not in greeted_words:
            seen = 1  # only ever called ("Sammy!!", but also "Certainly!"): read as said once
        aliases[word.capitalize()] = (person, seen)
    return dict(sorted(aliases.items()))


def conversation_aliases(conversation: Conversation, lexicon: Lexicon = ENGLISH) -> dict[str, str]:
    """:func:`learn_aliases` over every message of ``conversation``."""
    said: list[Said] = []
    for session in conversation.sessions:
        participants = tuple(dict.fromkeys(turn.speaker for turn in session.turns))
        said.extend((turn.speaker, participants, turn.text) for turn in session.turns)
    return learn_aliases(said, lexicon=lexicon)


#: Aliases as ``(alias, participant)`` pairs.
Pairs = tuple[tuple[str, str], ...]


def namespace_aliases(
    units: Iterable[MemoryUnit], lexicon: Lexicon = ENGLISH, *, calls: bool = True
) -> tuple[Pairs, Pairs]:
    """The aliases of a namespace's memories: those stored with them and those learned over
    all of them; and, apart, the aliases said once (:func:`alias_evidence`). ``calls`` False:
    learned without the messages that open by calling the other, the stored ones (learned with
    them) left out."""
    units = list(units)
    evidence = alias_evidence(stored_messages(units), lexicon=lexicon, calls=calls)
    aliases = {pair for unit in units for pair in unit.context.aliases} if calls else set()
    aliases.update((a, p) for a, (p, seen) in evidence.items() if seen >= MIN_EVIDENCE)
    named = {alias.casefold() for alias, _ in aliases}
    once = [(a, p) for a, (p, seen) in evidence.items() if a.casefold() not in named]
    return tuple(sorted(aliases)), tuple(once)


def stored_messages(units: Iterable[MemoryUnit]) -> list[Said]:
    """The messages of stored memories as :func:`learn_aliases` reads them: each memory's
    lines, one a message when there is one line per turn (else its whole text), with the
    speakers of its session (of its conversation) as the participants."""
    units = list(units)
    speakers: dict[tuple[str | None, str], dict[str, None]] = {}
    for unit in units:
        if unit.context.speaker:
            session = speakers.setdefault(_session_of(unit), {})
            session[unit.context.speaker] = None
    said: list[Said] = []
    for unit in units:
        speaker = unit.context.speaker
        if not speaker:
            continue
        participants = tuple(speakers[_session_of(unit)])
        lines = unit.content.split("\n")
        texts = lines if len(lines) == len(unit.source_ids) else [unit.content]
        said.extend((speaker, participants, text) for text in texts)
    return said


def _session_of(unit: MemoryUnit) -> tuple[str | None, str]:
    return unit.conversation_id, unit.context.session_id


def named_query(frame: RecallFrame) -> str:
    """The question with each participant named by an alias named by their own name instead:
    "What did Trixie bake?" searches as "What did Bea bake?" (greetings that say "Trixie"
    are not what the question is about)."""
    query = frame.query
    for cond in frame.conditions:
        if cond.kind != "participant" or not cond.grounded or not cond.by_alias:
            continue
        pattern = re.compile(rf"(?<![\w-]){re.escape(cond.evidence)}(?![\w-])")
        query = pattern.sub(cond.value, query)
    return query
