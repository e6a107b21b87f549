"""The context-preserving answer prompt as a LangChain ``ChatPromptTemplate``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate

from ramem_integrations.core.prompts import ANSWER_TEMPLATE, INSTRUCTIONS, record_block


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def context_prompt() -> ChatPromptTemplate:
    """The core answer template as a chat prompt with variables ``question``, ``memories`` and
    ``conditions`` (default ``"none"``).

    The instructions are the system message; the question and the memories enter only as
    variable values, so braces inside them are never read as template.

    .. code-block:: python

        chain = (
            {
                "memories": retriever | format_documents,
                "question": RunnablePassthrough(),
                "conditions": RunnableLambda(retriever.conditions),  # optional
            }
            | context_prompt()
            | model
        )
    """
    _, body = ANSWER_TEMPLATE.split("{instructions}\n\n", 1)
    prompt = ChatPromptTemplate.from_messages([("system", _escape(INSTRUCTIONS)), ("human", body)])
    return prompt.partial(conditions="none")


def _strings(value: Any) -> list[str]:
    """A metadata value as names: a list's items, or one string split at commas."""
    if not value:
        return []
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return [part.strip() for part in str(value).split(",")]


def _known(value: Any) -> str:
    text = str(value or "")
    return "" if text in ("not stated", "unknown") else text


def format_documents(documents: Sequence[Document]) -> str:
    """Documents as the core renders memories
    (:func:`~ramem_integrations.core.prompts.record_block`): each a group of one, its
    coordinates line, then its speaker and quoted text.

    Reads the metadata :class:`~ramem_integrations.langchain.RaMemRetriever` attaches (``said``,
    ``happened``, ``speaker``, ``participants``, ``location`` or ``place``); any other Document
    shows "said not stated" (and so tells the model it is unplaced).
    """
    blocks = []
    for rank, doc in enumerate(documents, 1):
        meta = doc.metadata
        speaker = meta.get("speaker")
        blocks.append(
            record_block(
                rank,
                doc.page_content,  # verbatim, quoted
                speaker=str(speaker) if speaker else None,
                said=_known(meta.get("said")),
                happened=_known(meta.get("happened")),
                people=_strings(meta.get("participants")),
                places=_strings(_known(meta.get("location") or meta.get("place"))),
            )
        )
    return "\n\n".join(blocks) or "(no memories)"
