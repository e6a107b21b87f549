"""Limits on input size: a message, a query, a name, a file and the nesting of its JSON.

Each is checked before anything is stored (or, for a file, before it is read past the limit),
and a refusal names the limit, the value found and how to raise it: ``Limits(...)`` in the API
(``RaMem(..., limits=Limits(message_chars=500_000))``), a ``--max-...`` option in the CLI.

>>> Limits().message_chars, Limits(query_chars=20).query_chars
(100000, 20)
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ramem_integrations.errors import InvalidInputError, LimitError


@dataclass(frozen=True, slots=True)
class Limits:
    """How much input is accepted; generous for real conversations, bounded for accidents.

    Args:
        message_chars: characters of one turn's text (a message, a memory's content).
        query_chars: characters of one question.
        name_chars: characters of one name or id a caller gives: a speaker, participant,
            place, entity or topic, a conversation, session, turn or memory id, a namespace,
            and a LangGraph key or namespace label.
        file_bytes: bytes of one conversation file or backup.
        json_depth: levels of nesting in a JSON file (a chat file needs about 5).
    """

    message_chars: int = 100_000
    query_chars: int = 10_000
    name_chars: int = 1_000
    file_bytes: int = 200 * 1024 * 1024
    json_depth: int = 100

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidInputError(
                    f"Limits.{field.name} must be a positive integer, got {value!r}."
                )

    def refuse(self, name: str, found: str, where: str) -> LimitError:
        """The error for ``where`` going past the limit ``name`` (a field), ``found`` saying
        by how much."""
        limit = getattr(self, name)
        return LimitError(
            f"{where}: {found}, over the limit of {limit:,} ({limit_option(name)}). Shorten "
            "the input, or raise the limit if it is meant."
        )

    def check_text(self, text: str, where: str, name: str = "message_chars") -> str:
        """``text`` if it is within the limit ``name`` and valid Unicode, else an error
        naming ``where``."""
        if len(text) > getattr(self, name):
            raise self.refuse(name, f"the text has {len(text):,} characters", where)
        check_unicode(text, where)
        return text

    def check_name(self, text: str, where: str) -> str:
        """``text`` if it is within ``name_chars`` and valid Unicode, else an error naming
        ``where`` (the field: "turn 'D1:3' speaker")."""
        if not isinstance(text, str):
            return check_unicode(text, where)  # the error names the type
        if len(text) > self.name_chars:
            found = f"{len(text):,} characters ({text[:40]!r}...)"
            raise self.refuse("name_chars", found, where)
        return check_unicode(text, where)


def limit_option(name: str) -> str:
    """How to raise the limit ``name``: its API field and its CLI option."""
    return f"Limits({name}=...) in the API, --max-{name.replace('_', '-')} in the CLI"


def check_unicode(text: str, where: str) -> str:
    """``text`` if it can be stored (UTF-8), else :class:`InvalidInputError` naming ``where``
    and the first code point that cannot: a lone surrogate (``"\\ud800"`` in JSON)."""
    if not isinstance(text, str):
        raise InvalidInputError(f"{where}: expected text, got {type(text).__name__}.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        raise InvalidInputError(
            f"{where}: the text holds U+{ord(bad):04X} at character {exc.start}, half of a "
            "surrogate pair, which is not a character (a JSON escape like \\ud800 without its "
            "other half, or text cut inside an emoji). Fix or remove it at that place."
        ) from exc
    return text


#: The limits used when none are given.
DEFAULT_LIMITS = Limits()
