"""The reply answers the question: in a chat, what a person did is often told in their reply
to the other's question ("Love the tattoo, did you just get it?" / "Yes, last Friday!"), and
a search for "When did Melanie get her tattoo?" finds the question, whose words match it,
before the reply, whose words do not."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ramem_integrations.core.grouping import is_filler
from ramem_integrations.core.lexicon import ENGLISH, Lexicon
from ramem_integrations.core.types import MemoryUnit


def asks(unit: MemoryUnit) -> bool:
    """Whether ``unit`` ends with a question mark (trailing spaces aside)."""
    return unit.content.rstrip().endswith("?")


def reply_to(
    unit: MemoryUnit,
    turns: Sequence[MemoryUnit],
    named: Collection[str],
    lexicon: Lexicon = ENGLISH,
) -> MemoryUnit | None:
    """The reply to ``unit`` by a person the question names, if ``unit`` asks them something.

    ``unit`` must end with a question mark and be said by someone not in ``named``; its
    reply is the next turn of ``turns`` (its episode's and the next episode's, in the order
    they were said: a cut may fall between a question and its reply) that is not a filler
    ("lol", "🎉": :func:`~.grouping.is_filler`), if a person in ``named`` said it. With
    no names there is no one the question is about, and no reply is taken."""
    if not named or not asks(unit) or unit.context.speaker in named:
        return None
    ids = [turn.id for turn in turns]
    if unit.id not in ids:
        return None
    later = (t for t in turns[ids.index(unit.id) + 1 :] if not is_filler(t.content, lexicon))
    reply = next(later, None)
    return reply if reply is not None and reply.context.speaker in named else None
