"""ramem-integrations: long-term memory for agents that keeps each memory's episode."""

from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import Conversation, Session, Turn, load_conversations
from ramem_integrations.core.frames import KnownContext, RuleFrameInducer
from ramem_integrations.core.prompts import render_answer_prompt
from ramem_integrations.core.retrieval import ContentRetriever, ContextFilter, ContextualRetriever
from ramem_integrations.core.temporal import find_times, ground_time
from ramem_integrations.core.types import (
    Condition,
    EpisodicContext,
    MemoryUnit,
    RecallFrame,
    ScoredMemory,
    TimeMention,
    TimeSpan,
)
from ramem_integrations.errors import RamemError

__version__ = "0.1.0"

#: Names whose modules load chromadb, onnxruntime and numpy: imported on first use, so that
#: ``import ramem_integrations.core`` stays light.
_LAZY = {
    "RaMem": "ramem_integrations.memory",
    "ChromaEpisodicStore": "ramem_integrations.stores.chroma",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'ramem_integrations' has no attribute {name!r}")


__all__ = [
    "ChromaEpisodicStore",
    "Condition",
    "ContentRetriever",
    "ContextFilter",
    "ContextualRetriever",
    "Conversation",
    "EpisodicContext",
    "KnownContext",
    "MemoryUnit",
    "RaMem",
    "RamemError",
    "RecallFrame",
    "RuleAnchorer",
    "RuleFrameInducer",
    "ScoredMemory",
    "Session",
    "TimeMention",
    "TimeSpan",
    "Turn",
    "__version__",
    "find_times",
    "ground_time",
    "load_conversations",
    "render_answer_prompt",
]
