"""Whose memory: the namespace of a run, read from its runtime context or config.

A template such as ``("memories", "{user_id}")`` is filled from the run's context (a dict key or
an attribute: ``agent.invoke(..., context={"user_id": "alice"})``), else from
``config["configurable"]`` (``config={"configurable": {"user_id": "alice"}}``). A callable taking
``(context, config)`` may be given instead. Never a value fixed for every user.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ramem_integrations.errors import NamespaceError

#: A namespace template, or a function of (context, config) returning the namespace.
Namespace = tuple[str, ...] | Callable[[Any, Mapping[str, Any]], tuple[str, ...]]

#: The default: one namespace per user, ``("memories", <user_id>)``.
DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def resolve(
    namespace: Namespace, context: Any, config: Mapping[str, Any] | None
) -> tuple[str, ...]:
    """The namespace tuple of this run."""
    config = config or {}
    if callable(namespace):
        return tuple(namespace(context, config))
    return tuple(
        _SLOT.sub(lambda m: _value(m.group(1), context, config), label) for label in namespace
    )


def _value(name: str, context: Any, config: Mapping[str, Any]) -> str:
    if isinstance(context, Mapping) and context.get(name) not in (None, ""):
        return str(context[name])
    if context is not None and getattr(context, name, None) not in (None, ""):
        return str(getattr(context, name))
    configurable = config.get("configurable") or {}
    if configurable.get(name) not in (None, ""):
        return str(configurable[name])
    raise NamespaceError(
        f"No {name!r} for this run, so there is no memory namespace to read or write. Pass it "
        f"in the run's context (agent.invoke(..., context={{{name!r}: ...}})) or config "
        f"(config={{'configurable': {{{name!r}: ...}}}})."
    )


def current_config() -> Mapping[str, Any]:
    """The running graph's config, or an empty one outside a run."""
    from langgraph.config import get_config

    try:
        return get_config()
    except RuntimeError:
        return {}
