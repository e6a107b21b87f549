"""``search_memory`` and ``save_memory``: memory tools for ``create_agent``.

Both read the store from the agent (``create_agent(..., store=RaMemStore(...))``, reached through
the tool's runtime) unless one is given, and whose memory it is from the run: the namespace
template is filled from the run's context or config (see :mod:`.namespaces`), per call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.store.base import BaseStore

from ramem_integrations.adapters_common.context import memory_context
from ramem_integrations.core.serialise import json_line
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.langgraph.namespaces import (
    DEFAULT_NAMESPACE,
    DEFAULT_SPEAKER,
    Namespace,
    resolve,
    speaker,
)
from ramem_integrations.langgraph.store import RaMemStore

SEARCH_DESCRIPTION = (
    "Search the user's long-term memory. Give a question in words, with any time, person or "
    "place it is about ('What did the dentist say in March?'). Returns the memories that fit, "
    "each with when it was said, when it happened, who took part and where."
)
SAVE_DESCRIPTION = (
    "Save something the user wants remembered, or a fact worth keeping for later sessions, "
    "in the user's own words. It is stored with the time it was said."
)


def memory_tools(
    store: BaseStore | None = None,
    *,
    namespace: Namespace = DEFAULT_NAMESPACE,
    k: int = 5,
    clock: Callable[[], datetime] | None = None,
    user_name: str = DEFAULT_SPEAKER,
) -> list[BaseTool]:
    """``[search_memory, save_memory]``, sync and async.

    Args:
        store: the store to use; the agent's own (``create_agent(store=...)``) when None. Any
            LangGraph store works; a :class:`RaMemStore` returns memories with their episodes.
        namespace: a template filled per run, ``("memories", "{user_id}")`` by default, or a
            callable of ``(context, config)``.
        k: how many memories a search returns.
        clock: when a memory is saved, and when a question is asked; the store's clock (or the
            wall clock) by default.
        user_name: who said a saved memory (its ``speaker``): a template filled per run like
            the namespace, the run's ``user_id`` by default; ``"user"`` when the run has none.
    """
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise InvalidInputError(f"k must be a positive integer, got {k!r}.")
    if not isinstance(user_name, str) or not user_name.strip():
        raise InvalidInputError(f"user_name must be a non-empty string, got {user_name!r}.")
    tools = _MemoryTools(store, namespace, k, clock, user_name)
    return [
        StructuredTool.from_function(
            func=tools.search,
            coroutine=tools.asearch,
            name="search_memory",
            description=SEARCH_DESCRIPTION,
        ),
        StructuredTool.from_function(
            func=tools.save,
            coroutine=tools.asave,
            name="save_memory",
            description=SAVE_DESCRIPTION,
        ),
    ]


class _MemoryTools:
    def __init__(
        self,
        store: BaseStore | None,
        namespace: Namespace,
        k: int,
        clock: Callable[[], datetime] | None,
        user_name: str,
    ) -> None:
        self.store, self.namespace, self.k, self._clock = store, namespace, k, clock
        self.user_name = user_name

    def _where(self, runtime: ToolRuntime[Any, Any]) -> tuple[BaseStore, tuple[str, ...]]:
        store = self.store or runtime.store
        if store is None:
            raise InvalidInputError(
                "The memory tools have no store: pass create_agent(..., store=RaMemStore(...)) "
                "or memory_tools(store)."
            )
        return store, resolve(self.namespace, runtime.context, runtime.config)

    def now(self, store: BaseStore) -> datetime:
        if self._clock is not None:
            return self._clock()
        return store.clock() if isinstance(store, RaMemStore) else datetime.now(UTC)

    def search(self, query: str, runtime: ToolRuntime[Any, Any]) -> str:
        """Search the user's long-term memory."""
        store, namespace = self._where(runtime)
        if isinstance(store, RaMemStore):
            hits = store.recall(namespace, query, k=self.k, reference=self.now(store))
            return memory_context(hits) or "No memories yet."
        return _plain(store.search(namespace, query=query, limit=self.k))

    async def asearch(self, query: str, runtime: ToolRuntime[Any, Any]) -> str:
        store, namespace = self._where(runtime)
        if isinstance(store, RaMemStore):
            hits = await store.arecall(namespace, query, k=self.k, reference=self.now(store))
            return memory_context(hits) or "No memories yet."
        return _plain(await store.asearch(namespace, query=query, limit=self.k))

    def _item(
        self, text: str, store: BaseStore, runtime: ToolRuntime[Any, Any]
    ) -> tuple[str, dict[str, Any]]:
        """The saved memory's key and value: the user's words, when and by whom said."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidInputError("save_memory needs the text to remember.")
        when = self.now(store)
        said_by = speaker(self.user_name, runtime.context, runtime.config)
        return saved_key(text), {"text": text, "time": when.isoformat(), "speaker": said_by}

    def save(self, text: str, runtime: ToolRuntime[Any, Any]) -> str:
        """Save a memory for the user."""
        store, namespace = self._where(runtime)
        key, value = self._item(text, store, runtime)
        store.put(namespace, key, value)
        return f"Saved (said {value['time']})."

    async def asave(self, text: str, runtime: ToolRuntime[Any, Any]) -> str:
        store, namespace = self._where(runtime)
        key, value = self._item(text, store, runtime)
        await store.aput(namespace, key, value)
        return f"Saved (said {value['time']})."


def saved_key(text: str) -> str:
    """The key of a saved memory: a digest of its words (case and spacing aside), so every
    fact is its own item and saving one again replaces it (with the new time) rather than
    adding a copy. Keys are per namespace, so users never share one."""
    words = " ".join(text.casefold().split())
    return "saved-" + hashlib.sha256(words.encode("utf-8")).hexdigest()[:24]


def _plain(items: list[Any]) -> str:
    """Items of another store, one JSON value a line (no text inside one breaks its line)."""
    if not items:
        return "No memories yet."
    return "\n".join(json_line(i.value) for i in items)
