"""Errors raised by ramem-integrations.

Every error says what was wrong and how to fix it. All subclass :class:`RamemError`, so
``except RamemError`` catches anything this package raises on purpose.
"""

from __future__ import annotations


class RamemError(Exception):
    """Base class of every error this package raises on purpose."""


class InvalidInputError(RamemError, ValueError):
    """A value passed to the API has the wrong type or an impossible value."""


class InvalidTimeError(InvalidInputError):
    """A date or time span is missing, unparseable, naive, or impossible."""


class DataFormatError(RamemError, ValueError):
    """A conversation file is malformed or in an unknown format."""


class NamespaceError(InvalidInputError):
    """A read or write did not name a valid namespace."""


class UnknownNamespaceError(NamespaceError):
    """A read named a namespace that was never written (a typo, or the wrong store)."""


class MemoryConflictError(InvalidInputError):
    """A write would change what stored memories say (their text, speaker or time); nothing
    was written."""


class WriteConflictError(MemoryConflictError):
    """Another writer stored other text under ids of this write at the same moment (two
    threads or processes writing one id): theirs is kept, and ``ids`` names the memories of
    this write that were not written; the rest of it was."""

    def __init__(self, message: str, ids: list[str]) -> None:
        super().__init__(message)
        self.ids = ids


class StoreError(RamemError):
    """The memory store could not be opened, read or written."""


class StoreFormatError(StoreError):
    """The store is in another layout than this version reads; the message says how to
    upgrade it (``ramem upgrade``)."""


class EmbeddingError(RamemError):
    """The embedder could not be loaded or returned unusable vectors."""


class LLMError(RamemError):
    """An OpenAI-compatible model failed, timed out, or returned invalid output."""


class MissingDependencyError(RamemError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""

    def __init__(self, package: str, extra: str) -> None:
        super().__init__(
            f"{package} is not installed. Install it with: "
            f"pip install 'ramem-integrations[{extra}]'"
        )
        self.package = package
        self.extra = extra


class LimitError(InvalidInputError):
    """An input is over a size limit (:class:`~ramem_integrations.core.limits.Limits`); the
    message names the limit, the value found and the option that raises it."""


class StoreBusyError(StoreError):
    """An embedded store is open in another process; ``directory`` is the store and ``pid``
    the holder (``"unknown"`` when it cannot be read). The answer is a Chroma server."""

    def __init__(self, message: str, directory: str, pid: str) -> None:
        super().__init__(message)
        self.directory = directory
        self.pid = pid
