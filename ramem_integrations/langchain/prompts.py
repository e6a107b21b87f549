"""The context-preserving answer prompt as a LangChain ``ChatPromptTemplate``."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate

from ramem_integrations.core.prompts import (
    ANSWER_TEMPLATE,
    INSTRUCTIONS,
    MEMORY_BLOCK,
    quote,
    render,
    shown_name,
    shown_names,
)

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
        for key in ("place", "topic"):
            if meta.get(key):
                values[key] = shown_name(str(meta[key]))
        if meta.get("participants"):
            values["participants"] = shown_names([str(p) for p in meta["participants"]])
        blocks.append(
            render(
                MEMORY_BLOCK,
                {**values, "rank": rank, "text": quote(" ".join(doc.page_content.split()))},
            )
        )
    return "\n\n".join(blocks) or "(no memories)"
