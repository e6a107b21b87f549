"""LangGraph and LangChain 1.x agents: a store, memory tools and a middleware over RaMem.

Install with ``pip install 'ramem-integrations[langgraph]'``.
"""

try:
    import langchain.agents  # noqa: F401
    import langgraph.store.base  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised without the extra
    from ramem_integrations.errors import MissingDependencyError

    raise MissingDependencyError("langgraph and langchain", "langgraph") from exc

from ramem_integrations.adapters_common.context import memory_context
from ramem_integrations.langgraph.items import ramem_namespace, store_namespace
from ramem_integrations.langgraph.middleware import RaMemMiddleware
from ramem_integrations.langgraph.namespaces import DEFAULT_NAMESPACE, escape_label
from ramem_integrations.langgraph.store import RaMemStore
from ramem_integrations.langgraph.tools import memory_tools

__all__ = [
    "DEFAULT_NAMESPACE",
    "RaMemMiddleware",
    "RaMemStore",
    "escape_label",
    "memory_context",
    "memory_tools",
    "ramem_namespace",
    "store_namespace",
]
