"""ramem-integrations: long-term memory for agents that keeps each memory's episode."""

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

__all__ = [
    "Condition",
    "EpisodicContext",
    "MemoryUnit",
    "RamemError",
    "RecallFrame",
    "ScoredMemory",
    "TimeMention",
    "TimeSpan",
    "__version__",
]
