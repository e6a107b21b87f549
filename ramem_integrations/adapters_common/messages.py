"""Reading the text of chat messages, whatever framework made them.

Agents hand memory their exchanges in many shapes: plain text, LangChain messages
(``HumanMessage``, ``AIMessage``), lists of them, LangGraph state (``{"messages": [...]}``),
OpenAI-style ``{"role", "content"}`` dicts and LlamaIndex ``ChatMessage``. :func:`message_text`
reads the words out of any of them, by duck typing (no framework is imported), and refuses
anything else with an error that lists what it reads; it never stores a ``repr``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from ramem_integrations.errors import InvalidInputError

Side = Literal["user", "assistant"]

#: Role names by side, as LangChain (``type``), OpenAI and LlamaIndex (``role``) write them.
ROLES: dict[Side, frozenset[str]] = {
    "user": frozenset({"human", "user"}),
    "assistant": frozenset({"ai", "assistant", "model"}),
}
ACCEPTED = (
    "text, a LangChain message, a list of messages, LangGraph state {'messages': [...]}, "
    "a {'role': ..., 'content': ...} dict or a LlamaIndex ChatMessage"
)


def message_text(value: object, side: Side, where: str = "the message") -> str:
    """The words of ``value``; from a list of messages, the last one from ``side`` (else the
    last one)."""
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping) and "messages" in value:
        return message_text(value["messages"], side, where)
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        if not value:
            return ""
        own = [m for m in value if role_of(m) in ROLES[side]]
        return message_text((own or list(value))[-1], side, where)
    content = (
        value.get("content") if isinstance(value, Mapping) else getattr(value, "content", None)
    )
    text = _content_text(content)
    if text is None:
        raise InvalidInputError(
            f"Cannot read the text of {where} ({type(value).__name__}); give {ACCEPTED}."
        )
    return text


def role_of(message: object) -> str | None:
    """A message's role, lower-cased: LangChain ``type``, or ``role`` (a string or an enum)."""
    if isinstance(message, Mapping):
        role = message.get("role")
    else:
        role = getattr(message, "role", None) or getattr(message, "type", None)
    role = getattr(role, "value", role)  # LlamaIndex MessageRole
    return role.lower() if isinstance(role, str) else None


def _content_text(content: object) -> str | None:
    """Text content, or the text blocks of a multi-part content list, in order."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            block if isinstance(block, str) else block.get("text")
            for block in content
            if isinstance(block, str)
            or (isinstance(block, Mapping) and block.get("type") == "text")
        ]
        texts = [p for p in parts if isinstance(p, str)]
        return "\n".join(texts) if texts or not content else None
    return None
