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
from ramem_integrations.memory import RaMem
from ramem_integrations.stores.chroma import ChromaEpisodicStore

__version__ = "0.1.0"

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
