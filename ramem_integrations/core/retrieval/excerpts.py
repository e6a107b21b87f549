"""Excerpts: a long hit names its best passage, which the packer shows when the whole turn
does not fit what is left of the budget.

The passage is a span of the memory's own words (:class:`~ramem_integrations.core.passages.
Passages`), shown verbatim and marked as an excerpt (:class:`~ramem_integrations.core.prompts.
Excerpt`); the memory is stored and returned whole. Which chats get excerpts is decided from
their structure (:func:`~.chats.answering_speaker`), never from words.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

from ramem_integrations.core.passages import Passages, Span
from ramem_integrations.core.types import ScoredMemory

if TYPE_CHECKING:
    from ramem_integrations.core.retrieval.steps import Ranking

#: Words in an excerpt, a quarter shared with the next passage: 40 chosen
#: leave-one-conversation-out from 40, 80 and 160 (docs/rules.md, ``excerpts``).
EXCERPT_WORDS = 40


@runtime_checkable
class PassageFinder(Protocol):
    """A source that can name a memory's best passage for a query (a store's cached source)."""

    def best_passage(
        self, namespace: str, query: str, memory_id: str, passages: Passages
    ) -> Span | None: ...


@runtime_checkable
class ChatReader(Protocol):
    """An episode source that can tell a namespace's answering speaker (its assistant)."""

    def assistant(self, namespace: str) -> str | None: ...


@dataclass(frozen=True)
class Excerpts:
    """Each hit longer than one passage names its passage that best matches the question
    (BM25 over its passages, else its first) as its excerpt. In a user-assistant chat (the
    namespace's answering speaker, read off all its episodes) the assistant's turns do not
    (``assistant``), or no turn does (``chat``). Runs last, on the ``k`` hits the caller gets;
    it moves nothing.

    Why: a hit longer than what is left of the budget was skipped whole; between people a
    long message's one relevant sentence is the evidence (REALTALK development). In a
    user-assistant chat the evidence is the user's turns, and excerpts of the assistant's
    long replies took the tokens those would have had (BEAM development).
    Off when re-ranking (nothing is searched) and over a source without passages."""

    name: ClassVar[str] = "excerpts"
    OPTIONS: ClassVar[dict[str, str]] = {}
    on_searches: ClassVar[bool] = False

    passages: Passages = field(default_factory=lambda: Passages(EXCERPT_WORDS, EXCERPT_WORDS // 4))
    #: Whose turns keep no excerpt in a user-assistant chat: the ``"assistant"``'s (default:
    #: it lifts BEAM within 250 to 2,000 tokens, docs/rules.md) or the whole ``"chat"``'s.
    whole: str = "assistant"

    def rank(self, ranked: list[ScoredMemory], at: Ranking) -> list[ScoredMemory]:
        source = at.retriever.content.source
        if at.query is None or not isinstance(source, PassageFinder):
            return ranked
        episodes = at.episodes
        assistant = episodes.assistant(at.namespace) if isinstance(episodes, ChatReader) else None
        if assistant is not None and self.whole == "chat":
            return ranked
        cut = set(list(dict.fromkeys(h.memory.id for h in ranked))[: at.k])  # those returned
        if assistant is not None:
            cut -= {h.memory.id for h in ranked if h.memory.context.speaker == assistant}
        question = at.frame.query
        return [
            replace(
                h, excerpt=source.best_passage(at.namespace, question, h.memory.id, self.passages)
            )
            if h.memory.id in cut
            else h
            for h in ranked
        ]
