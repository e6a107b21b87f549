"""Background clauses: the parts of a sentence whose time is not the message's own.

A time in a relative clause ("the flat I'm moving into next month"), in a subordinate clause
opening a sentence ("after the mess on the 2nd, ...", "although monday went badly they've
..."), or in a participle aside ("ran 10k yesterday, training for the half in april") sets
the scene; the main clause's time is the message's, and the background's verbs do not tell
the main time's tense.
"""

from __future__ import annotations

import re

from ramem_integrations.core.lexicon.time import TimeWords

_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_WORD = re.compile(r"[\w']+")


def background(text: str, times: list[tuple[int, int]], words: TimeWords) -> list[tuple[int, int]]:
    """Spans of ``text`` that are background clauses; ``times`` are the time expressions'
    spans. A relative clause runs from its marker to the end of the first time in it, or to
    the end of its clause when it holds none."""
    spans: list[tuple[int, int]] = []
    for sentence in _SENTENCE.finditer(text):
        lo, hi = sentence.span()
        spans += _relatives(text, lo, hi, times, words)
        spans += _subordinate(text, lo, hi, times, words)
        spans += _asides(text, lo, hi, words)
    return spans


def inside(spans: list[tuple[int, int]], start: int) -> tuple[int, int] | None:
    """The span of ``spans`` that holds ``start``, if any."""
    return next(((lo, hi) for lo, hi in spans if lo <= start < hi), None)


def _in_time(times: list[tuple[int, int]], at: int) -> bool:
    return any(s <= at < e for s, e in times)


def _clause_end(text: str, at: int, hi: int, words: TimeWords) -> int:
    ends = [text.find(b, at, hi) for b in words.clause_breaks]
    return min([hi, *(e for e in ends if e != -1)])


def _relatives(
    text: str, lo: int, hi: int, times: list[tuple[int, int]], words: TimeWords
) -> list[tuple[int, int]]:
    """Relative clauses: a marker ("that", "whose") with a determiner up to four words before
    it, or a subject after a determiner or demonstrative and a noun of one or two words that
    are no time ("the tickets I bought", "that band we saw");
    each ends at the main clause's verb ("is", "are") after it."""
    found = list(_WORD.finditer(text, lo, hi))
    spans = []
    for i, word in enumerate(found):
        w = word.group().lower().split("'")[0]
        before = [m.group().lower() for m in found[max(0, i - 4) : i]]
        relative = w in words.relative_markers and any(b in words.determiners for b in before)
        reduced = (
            w in words.relative_subjects
            and i >= 2
            and i + 1 < len(found)
            and any(  # 'the tickets i bought', 'the pottery course i signed up for'
                found[j].group().lower() in (*words.determiners, *words.demonstratives)
                and not any(_in_time(times, m.start()) for m in found[j + 1 : i + 2])
                for j in range(max(0, i - 3), i - 1)
            )
        )
        if relative or reduced:
            end = _clause_end(text, word.end(), hi, words)
            verbs = (m.start() for m in found[i + 2 :] if m.group().lower() in words.relative_ends)
            end = min(end, next(verbs, end))  # 'the parcel I ordered | is coming on friday'
            first = min((e for s, e in times if word.end() <= s < end), default=end)
            spans.append((word.start(), first))
    return spans


def _subordinate(
    text: str, lo: int, hi: int, times: list[tuple[int, int]], words: TimeWords
) -> list[tuple[int, int]]:
    """A subordinate clause opening the sentence, up to its first comma, or with none, up to
    the subject that opens the main clause after the clause's first time ("although the
    interview on monday was a car crash | they've asked me back")."""
    start = len(text[lo:hi]) - len(text[lo:hi].lstrip())
    opening = text[lo + start : hi].lower()
    if not any(re.match(rf"{re.escape(w)}\b", opening) for w in words.subordinators):
        return []
    comma = text.find(",", lo, hi)
    if comma != -1:
        return [(lo + start, comma)]
    first = min((e for s, e in times if lo + start < s < hi), default=None)
    if first is None:
        return []
    subjects = (m for m in _WORD.finditer(text, first, hi) if _subject(m.group(), words))
    subject = next(subjects, None)
    return [(lo + start, subject.start())] if subject else []


def _subject(word: str, words: TimeWords) -> bool:
    return word.lower().split("'")[0] in words.relative_subjects


def _asides(text: str, lo: int, hi: int, words: TimeWords) -> list[tuple[int, int]]:
    """Participle asides: a clause after a comma opening with a word in -ing, to the clause's
    end, unless it asks something ("..., coming with me sat?")."""
    spans = []
    for comma in re.finditer(",", text[:hi]):
        if comma.start() < lo:
            continue
        opening = _WORD.match(text, comma.end() + 1) or _WORD.match(text, comma.end())
        if opening is None:
            continue
        w = opening.group().lower()
        end = _clause_end(text, opening.end(), hi, words)
        asks = "?" in text[opening.end() : end + 1]
        if w.endswith("ing") and len(w) > 4 and w not in words.not_participles and not asks:
            spans.append((opening.start(), end))
    return spans
