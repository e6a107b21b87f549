"""The context-confusable subset: questions whose evidence has a look-alike in another episode.

Defined from the data alone, before any system runs. For a question (categories 1-4, with
resolved evidence) and one of its evidence turns ``e``, let ``A`` be the content words the question
and ``e`` share (:func:`~ramem_integrations.core.text.tokenize`: lower case, stop words out,
plurals folded; the conversation's speaker names out). When ``A`` has at least
:data:`MIN_SHARED` words, every turn of the same conversation that lies in a session holding none
of the question's evidence and contains all of ``A`` is a *distractor*: it matches the question on
every word the evidence matches it on, but belongs to another episode. A question with at least
one distractor is context-confusable.
"""

from __future__ import annotations

from collections.abc import Iterable

from ramem_integrations.core.conversation import Conversation
from ramem_integrations.core.text import tokenize
from ramem_integrations.evaluation.datasets import Question

#: Fewest question words an evidence turn must share for its look-alikes to count.
MIN_SHARED = 2


class DistractorFinder:
    """Finds the distractor turns of questions asked of one conversation."""

    def __init__(self, conversation: Conversation) -> None:
        self.names = {w for speaker in conversation.speakers for w in tokenize(speaker)}
        self.turns = [
            (turn.id, session.id, frozenset(tokenize(turn.full_text)))
            for session in conversation.sessions
            for turn in session.turns
        ]
        self.words = {turn_id: words for turn_id, _, words in self.turns}

    def distractors(self, question: Question) -> frozenset[str]:
        asked = set(tokenize(question.text)) - self.names
        own_sessions = set(question.evidence_sessions)
        found: set[str] = set()
        for evidence in question.evidence_turns:
            shared = asked & self.words.get(evidence, frozenset())
            if len(shared) < MIN_SHARED:
                continue
            found.update(
                turn_id
                for turn_id, session_id, words in self.turns
                if session_id not in own_sessions and shared <= words
            )
        return frozenset(found)


def distractor_sets(
    conversations: Iterable[Conversation], questions: Iterable[Question]
) -> dict[str, frozenset[str]]:
    """Question id -> its distractor turn ids, for the confusable questions only."""
    finders = {c.id: DistractorFinder(c) for c in conversations}
    out = {}
    for question in questions:
        finder = finders.get(question.namespace)
        if finder is None or not question.evidence_turns:
            continue
        found = finder.distractors(question)
        if found:
            out[question.id] = found
    return out
