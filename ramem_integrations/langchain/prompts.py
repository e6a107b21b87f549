"""The context-preserving answer prompt as a LangChain ``ChatPromptTemplate``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate

from ramem_integrations.core.prompts import ANSWER_TEMPLATE, INSTRUCTIONS, MEMORY_BLOCK, render
from ramem_integrations.core.serialise import marked_participants, quote, shown_name, shown_names

#: What a coordinate line shows when a Document does not say.
_UNKNOWN = {
    "said": "not stated",
    "happened": "not stated",
    "participants": "unknown",
    "place": "not stated",
    "topic": "not stated",
}


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


def _names(meta: Mapping[str, Any]) -> dict[str, str]:
    """The name fields of a Document's block, escaped, with its speaker marked: from the raw
    keys RaMem's retriever attaches (``participants``, ``speaker``, ``location``, ``topic``),
    else from a Document's own ``place``."""
    names: dict[str, str] = {}
    people = [str(p) for p in meta.get("participants") or []]
    speaker = meta.get("speaker")
    if people or speaker:
        names["participants"] = marked_participants(people, str(speaker) if speaker else None)
    place = meta.get("location") or meta.get("place")
    if place:
        names["place"] = shown_name(str(place))
    if meta.get("topic"):
        names["topic"] = shown_names(str(meta["topic"]).split(", "))
    return names


def format_documents(documents: Sequence[Document]) -> str:
    """Documents as the core's memory blocks: coordinate lines, then the quoted text.

    Reads the metadata :class:`~ramem_integrations.langchain.RaMemRetriever` attaches; any
    other Document gets "not stated" coordinates (and so tells the model it is unplaced).
    """
    blocks = []
    for rank, doc in enumerate(documents, 1):
        meta = doc.metadata
        values = {key: str(meta.get(key) or default) for key, default in _UNKNOWN.items()}
        values = {k: " ".join(v.split()) for k, v in values.items()}
        values.update(_names(meta))
        blocks.append(
            render(
                MEMORY_BLOCK,
                {**values, "rank": rank, "text": quote(doc.page_content)},  # verbatim
            )
        )
    return "\n\n".join(blocks) or "(no memories)"
