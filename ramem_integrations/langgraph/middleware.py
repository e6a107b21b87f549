"""``RaMemMiddleware``: episodic memory around the model of a ``create_agent`` agent."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from langgraph.store.base import BaseStore

from ramem_integrations.adapters_common.context import memory_context, renamed_budget
from ramem_integrations.core.prompts import check_budget
from ramem_integrations.errors import InvalidInputError
from ramem_integrations.langgraph.namespaces import (
    DEFAULT_NAMESPACE,
    DEFAULT_SPEAKER,
    Namespace,
    current_config,
    resolve,
    speaker,
)
from ramem_integrations.langgraph.store import RaMemStore

Save = Literal["exchange", "user"] | None
_SAVES = ("exchange", "user", None)


class RaMemMiddleware(AgentMiddleware[Any, Any, Any]):
    """Before each model call, the memories valid for the user's latest message go into the
    model's input; after the model answers, the exchange may be saved.

    Setup:
        .. code-block:: bash

            pip install 'ramem-integrations[langgraph]'

    Key init args:
        store: the :class:`RaMemStore`; the agent's own (``create_agent(store=...)``) when None.
        namespace: whose memory, per run: ``("memories", "{user_id}")`` filled from the run's
            context or config by default, or a callable of ``(context, config)``.
        k: at most this many memories; budget: and at most this many tokens of rendered
            memories, packed by the one rule of every budget
            (:func:`~ramem_integrations.core.prompts.pack`: rank order, a memory that does not
            fit is skipped or shown by its excerpt; never over the budget). ``max_tokens`` is
            its old, deprecated name.
        save: ``None`` (default: the agent saves with ``save_memory``), ``"user"`` (each user
            message) or ``"exchange"`` (the user's message and the final answer), each a memory
            with its time, written after the model answers without calling a tool.
        clock: "now": when questions are asked and exchanges said; the store's clock by default.
        user_name / assistant_name: who said the saved messages; the user is the run's
            ``user_id`` by default (a template filled like the namespace; ``"user"`` when the
            run has none), as in ``save_memory``.

    Instantiate:
        .. code-block:: python

            from langchain.agents import create_agent
            from ramem_integrations.langgraph import RaMemMiddleware, RaMemStore, memory_tools

            agent = create_agent(model, tools=memory_tools(), store=store,
                                 middleware=[RaMemMiddleware(k=5)])
            agent.invoke({"messages": [("user", "What did the dentist say in March?")]},
                         context={"user_id": "alice"})

    The memory block is put at the start of the system message for that call only: the
    agent's state and history never hold it.
    """

    def __init__(
        self,
        store: RaMemStore | None = None,
        *,
        namespace: Namespace = DEFAULT_NAMESPACE,
        k: int = 5,
        budget: int | None = None,
        save: Save = None,
        clock: Callable[[], datetime] | None = None,
        user_name: str = DEFAULT_SPEAKER,
        assistant_name: str = "assistant",
        max_tokens: int | None = None,
    ) -> None:
        super().__init__()
        if not isinstance(k, int) or isinstance(k, bool) or k < 1:
            raise InvalidInputError(f"k must be a positive integer, got {k!r}.")
        budget = renamed_budget(budget, max_tokens, "RaMemMiddleware")
        if budget is not None:
            check_budget(budget)
        if save not in _SAVES:
            raise InvalidInputError(f"save must be one of {_SAVES}, got {save!r}.")
        self.store, self.namespace, self.k, self.budget = store, namespace, k, budget
        self.save, self.clock = save, clock
        self.user_name, self.assistant_name = user_name, assistant_name

    # -- before the model ------------------------------------------------------------------
    def wrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], ModelResponse[Any]],
    ) -> ModelResponse[Any]:
        found = self._question(request)
        if found is None:
            return handler(request)
        store, namespace, question = found
        hits = store.recall(namespace, question, k=self.k, reference=self._now(store))
        return handler(self._with_memories(request, memory_context(hits, budget=self.budget)))

    async def awrap_model_call(
        self,
        request: ModelRequest[Any],
        handler: Callable[[ModelRequest[Any]], Awaitable[ModelResponse[Any]]],
    ) -> ModelResponse[Any]:
        found = self._question(request)
        if found is None:
            return await handler(request)
        store, namespace, question = found
        hits = await store.arecall(namespace, question, k=self.k, reference=self._now(store))
        block = memory_context(hits, budget=self.budget)
        return await handler(self._with_memories(request, block))

    def _question(
        self,
        request: ModelRequest[Any],
    ) -> tuple[RaMemStore, tuple[str, ...], str] | None:
        human = _latest(request.messages, HumanMessage)
        if human is None or not human.text.strip():
            return None
        store = self._store(request.runtime)
        namespace = resolve(self.namespace, request.runtime.context, current_config())
        return store, namespace, human.text

    @staticmethod
    def _with_memories(request: ModelRequest[Any], block: str) -> ModelRequest[Any]:
        if not block:
            return request
        own = request.system_message.text if request.system_message else ""
        text = f"{block}\n\n{own}" if own else block
        return request.override(system_message=SystemMessage(content=text))

    # -- after the model -------------------------------------------------------------------
    def after_model(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        writes = self._writes(state, runtime)
        if writes is not None:
            store, namespace, items = writes
            for key, value in items:
                store.put(namespace, key, value)
        return None

    async def aafter_model(self, state: Any, runtime: Runtime[Any]) -> dict[str, Any] | None:
        writes = self._writes(state, runtime)
        if writes is not None:
            store, namespace, items = writes
            for key, value in items:
                await store.aput(namespace, key, value)
        return None

    def _writes(
        self, state: Any, runtime: Runtime[Any]
    ) -> tuple[BaseStore, tuple[str, ...], list[tuple[str, dict[str, Any]]]] | None:
        """The items to save for a final answer: the user's message (and the answer)."""
        messages = list(state.get("messages") or [])
        if self.save is None or not messages:
            return None
        answer = messages[-1]
        if not isinstance(answer, AIMessage) or answer.tool_calls:
            return None
        human = _latest(messages, HumanMessage)
        if human is None or not human.text.strip():
            return None
        store = self._store(runtime)
        config = current_config()
        namespace = resolve(self.namespace, runtime.context, config)
        when = self._now(store)
        said = [(human, speaker(self.user_name, runtime.context, config), when)]
        if self.save == "exchange" and answer.text.strip():
            said.append((answer, self.assistant_name, when + timedelta(seconds=1)))
        items = [
            (
                f"turn-{message.id or f'{who}-{moment.isoformat()}'}",
                {"text": message.text, "time": moment.isoformat(), "speaker": who},
            )
            for message, who, moment in said
        ]
        return store, namespace, items

    # -- helpers ---------------------------------------------------------------------------
    def _store(self, runtime: Runtime[Any] | None) -> RaMemStore:
        store = self.store or (runtime.store if runtime is not None else None)
        if not isinstance(store, RaMemStore):
            raise InvalidInputError(
                "RaMemMiddleware needs a RaMemStore: create_agent(..., store=RaMemStore(mem)) "
                f"or RaMemMiddleware(store), got {type(store).__name__}."
            )
        return store

    def _now(self, store: RaMemStore) -> datetime:
        return self.clock() if self.clock is not None else store.clock()


def _latest(messages: list[AnyMessage], kind: type[AnyMessage]) -> Any:
    return next((m for m in reversed(messages) if isinstance(m, kind)), None)
