"""LangChain integration: retriever, agent memory, document transformer, prompt.

Install with ``pip install 'ramem-integrations[langchain]'`` (``[langchain-classic]`` for the
classic ``BaseMemory`` contract in legacy chains).
"""

try:
    import langchain_core  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised without the extra
    from ramem_integrations.errors import MissingDependencyError

    raise MissingDependencyError("langchain-core", "langchain") from exc

from ramem_integrations.langchain.embeddings import RaMemEmbeddings
from ramem_integrations.langchain.memory import RaMemMemory
from ramem_integrations.langchain.prompts import context_prompt, format_documents
from ramem_integrations.langchain.retrievers import RaMemRetriever
from ramem_integrations.langchain.transformers import EpisodicDocumentTransformer

__all__ = [
    "EpisodicDocumentTransformer",
    "RaMemEmbeddings",
    "RaMemMemory",
    "RaMemRetriever",
    "context_prompt",
    "format_documents",
]
