"""ramem-integrations: long-term memory for agents that keeps each memory's episode.

The names users need: :class:`RaMem` and what it takes and returns, the loaders, time grounding,
the LLM settings and every error class. Everything else is importable from its own module.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from ramem_integrations.core.conversation import Conversation, Session, Turn, load_conversations
from ramem_integrations.core.limits import Limits
from ramem_integrations.core.types import (
    Condition,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    ScoredMemory,
    TimeSpan,
)
from ramem_integrations.errors import (
    DataFormatError,
    EmbeddingError,
    InvalidInputError,
    InvalidTimeError,
    LimitError,
    LLMError,
    MemoryConflictError,
    MissingDependencyError,
    NamespaceError,
    RamemError,
    StoreBusyError,
    StoreError,
    StoreFormatError,
    UnknownNamespaceError,
    WriteConflictError,
)

try:
    __version__ = version("ramem-integrations")
except PackageNotFoundError:  # pragma: no cover - running from a source tree not installed
    __version__ = "0+unknown"

#: Names whose modules load chromadb, onnxruntime, numpy or openai, or take long to import:
#: imported on first use, so that ``import ramem_integrations`` (and ``ramem --help``) stays light.
_LAZY = {
    "RaMem": "ramem_integrations.memory.ramem",
    "ChromaEpisodicStore": "ramem_integrations.stores.chroma",
    "Answer": "ramem_integrations.memory.answering",
    "LLMConfig": "ramem_integrations.models.llm",
    "ground_time": "ramem_integrations.core.time.grounding",  # its rules compile at import (~0.2 s)
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'ramem_integrations' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Answer",
    "ChromaEpisodicStore",
    "Condition",
    "Conversation",
    "DataFormatError",
    "EmbeddingError",
    "EpisodicContext",
    "InvalidInputError",
    "InvalidTimeError",
    "LLMConfig",
    "LLMError",
    "LimitError",
    "Limits",
    "MemoryConflictError",
    "MemoryUnit",
    "MissingDependencyError",
    "NamespaceError",
    "RaMem",
    "RamemError",
    "RecallFrame",
    "ScoredMemory",
    "Session",
    "StoreBusyError",
    "StoreError",
    "StoreFormatError",
    "TimeSpan",
    "Turn",
    "UnknownNamespaceError",
    "WriteConflictError",
    "__version__",
    "ground_time",
    "load_conversations",
]
