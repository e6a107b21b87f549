"""Message grouping: a burst of short messages from one speaker is one utterance.

On messaging apps a thought arrives as several messages ("omg", "van guy cancelled",
"like 20 mins ago"); a lone message rarely names its subject. :func:`group_turns` joins
consecutive messages of one speaker sent close in time (at most ``gap`` apart) into one
utterance for anchoring. Each message keeps its own id, time and verbatim text inside the
group, so evidence and provenance stay per message. Turns without a time are never joined
(LoCoMo's turns, which have only a session date, stay one utterance each).

Reactions and fillers ("lol", "yes!!", "🙏") carry no facts of their own (:func:`is_filler`,
from the lexicon's :attr:`~.lexicon.ChatWords.reactions`): the anchorer reads names, places
and times from the other messages of a group only. With ``absorb_reactions`` (the default), a
filler the other speaker sends in the middle of a burst ("noooo") does not cut it: the burst
goes on after it. The reaction is never part of the burst: it is an utterance of its own
speaker (with the messages that speaker sends straight after it), so every group holds one
speaker's words only.

>>> from datetime import UTC, datetime, timedelta
>>> from ramem_integrations.core.conversation import Turn
>>> at = lambda m: datetime(2024, 3, 9, 8, m, tzinfo=UTC)
>>> turns = [Turn("1", "Marcus", "omg", at(1)), Turn("2", "Bea", "noooo", at(2)),
...          Turn("3", "Marcus", "van guy cancelled", at(3)), Turn("4", "Bea", "what now", at(30))]
>>> [[t.id for t in g] for g in group_turns(turns, timedelta(minutes=5))]
[['1', '3'], ['2'], ['4']]
>>> [[t.id for t in g] for g in group_turns(turns, timedelta(minutes=5), absorb_reactions=False)]
[['1'], ['2'], ['3'], ['4']]
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import timedelta
from functools import lru_cache

from ramem_integrations.core.conversation import Turn
from ramem_integrations.core.lexicon import ENGLISH, Lexicon

__all__ = ["DEFAULT_GAP", "group_turns", "is_filler"]

#: Messages of one speaker at most this far apart form one utterance. Chosen on
#: benchmarks/data/chats/chats-dev.json (docs/anchoring.md, "Grouping").
DEFAULT_GAP = timedelta(minutes=3)

_REPEATS = re.compile(r"(.)\1{2,}")
_NON_WORD = re.compile(r"[^\w\s']+")


def is_filler(text: str, lexicon: Lexicon = ENGLISH, *, assistant: bool = False) -> bool:
    """True for a reaction or filler: emoji or punctuation only, a photo placeholder, or a
    row of the lexicon's reaction phrases (:attr:`~.lexicon.ChatWords.reactions`: "lol",
    "yes!!", "omg omg", "oh no", "❤️"); with ``assistant``, of its acknowledgements too
    ("Noted.", "Got it, I'll remember that."). A word found only inside a phrase ("you" of
    "thank you") is no filler alone."""
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        return True
    words = _NON_WORD.sub(" ", _REPEATS.sub(r"\1\1", text.lower())).split()
    phrases, longest = _phrases(lexicon, assistant)
    reached = [True] + [False] * len(words)  # reached[i]: words[:i] is a row of phrases
    for start in range(len(words)):
        if reached[start]:
            for end in range(start + 1, min(len(words), start + longest) + 1):
                reached[end] = reached[end] or " ".join(words[start:end]) in phrases
    return reached[-1]


@lru_cache(maxsize=16)
def _phrases(lexicon: Lexicon, assistant: bool) -> tuple[frozenset[str], int]:
    """The phrases a filler is a row of, and the most words one of them has."""
    chat = lexicon.chat
    phrases = frozenset((*chat.reactions, *(chat.acknowledgements if assistant else ())))
    return phrases, max((len(p.split()) for p in phrases), default=0)


def group_turns(
    turns: Sequence[Turn],
    gap: timedelta = DEFAULT_GAP,
    *,
    absorb_reactions: bool = True,
    lexicon: Lexicon = ENGLISH,
) -> list[tuple[Turn, ...]]:
    """Consecutive turns of one speaker, each at most ``gap`` after the previous, as groups.

    Every turn is in exactly one group, and a group holds one speaker's turns; groups are in
    the order of their first turns. A turn without a time starts a group of its own and closes
    it. With ``absorb_reactions``, a filler from another speaker sent inside a burst is a group
    of its own (joined by that speaker's next messages) and the burst goes on after it.
    """
    groups: list[list[Turn]] = []
    burst: list[Turn] = []  # the utterance under way
    latest: list[Turn] = []  # the group of the turn before: the burst, or a reaction inside it
    for turn in turns:
        close = bool(latest) and _close(latest[-1], turn, gap)
        if close and turn.speaker == latest[0].speaker:
            latest.append(turn)
            if latest is not burst and not is_filler(turn.full_text, lexicon):
                burst = latest  # the reactor goes on from its reaction: its own utterance
        elif close and turn.speaker == burst[0].speaker:
            burst.append(turn)  # the burst goes on after a reaction
            latest = burst
        elif close and absorb_reactions and is_filler(turn.full_text, lexicon):
            latest = [turn]  # a reaction inside the burst: its speaker's own, not the burst's
            groups.append(latest)
        else:
            burst = latest = [turn]
            groups.append(burst)
    return [tuple(group) for group in groups]


def _close(before: Turn, turn: Turn, gap: timedelta) -> bool:
    """Whether ``turn`` follows ``before`` within ``gap`` (both timed)."""
    return before.time is not None and turn.time is not None and turn.time - before.time <= gap
