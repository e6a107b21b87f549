"""LlamaIndex integration: retriever, re-ranking postprocessor, metadata extractor, memory block,
prompt and response synthesizer.

Install with ``pip install 'ramem-integrations[llama-index]'``.
"""

try:
    import llama_index.core  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised without the extra
    from ramem_integrations.errors import MissingDependencyError

    raise MissingDependencyError("llama-index-core", "llama-index") from exc

from ramem_integrations.llama_index.embeddings import RaMemEmbedding
from ramem_integrations.llama_index.extractors import EpisodicMetadataExtractor
from ramem_integrations.llama_index.memory_block import RaMemMemoryBlock
from ramem_integrations.llama_index.nodes import episodic_metadata, to_node, unit_of_node
from ramem_integrations.llama_index.postprocessor import EpisodicReinstatementPostprocessor
from ramem_integrations.llama_index.prompts import context_prompt
from ramem_integrations.llama_index.retrievers import RaMemRetriever
from ramem_integrations.llama_index.synthesis import MemorySynthesizer

__all__ = [
    "EpisodicMetadataExtractor",
    "EpisodicReinstatementPostprocessor",
    "MemorySynthesizer",
    "RaMemEmbedding",
    "RaMemMemoryBlock",
    "RaMemRetriever",
    "context_prompt",
    "episodic_metadata",
    "to_node",
    "unit_of_node",
]
