"""Whose memory: the namespace of a run, read from its runtime context or config.

A template such as ``("memories", "{user_id}")`` is filled from ``config["configurable"]``
(``config={"configurable": {"user_id": "alice"}}``), else from the run's context (a dict key or
an attribute: ``agent.invoke(..., context={"user_id": "alice"})``). The config wins: a server
that authenticates its users sets the config, while a client may send any context, so a
client's context never names another user when the config names one. A callable taking
``(context, config)`` may be given instead. Never a value fixed for every user.

A filled-in value is escaped (:func:`escape_label`) so that any user id makes one label of its
own: ``john.smith@example.com`` is the label ``john%2Esmith@example.com``, and ``alice.t1``
never reads ``("memories", "alice", "t1")``. The namespace is then checked like every other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ramem_integrations.errors import NamespaceError
from ramem_integrations.langgraph.checks import FORBIDDEN, check_namespace

#: A namespace template, or a function of (context, config) returning the namespace.
Namespace = tuple[str, ...] | Callable[[Any, Mapping[str, Any]], tuple[str, ...]]

#: The default: one namespace per user, ``("memories", <user_id>)``.
DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")
#: Who the user is in a memory they said: the run's user id.
DEFAULT_SPEAKER = "{user_id}"
#: The user's name when the run does not give the values a speaker template asks for.
UNNAMED_USER = "user"

_SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
#: Percent-escapes of the characters a label cannot hold, and of "%" itself (so that escaping
#: is injective: two values never make one label).
ESCAPES = {char: f"%{ord(char):02X}" for char in ("%", *FORBIDDEN)}


def escape_label(value: str) -> str:
    """``value`` as one namespace label: ``%``, ``.``, NUL, ``\x1e`` and ``\x1f`` escaped."""
    return "".join(ESCAPES.get(char, char) for char in value)


def resolve(
    namespace: Namespace, context: Any, config: Mapping[str, Any] | None
) -> tuple[str, ...]:
    """The namespace tuple of this run."""
    config = config or {}
    if callable(namespace):
        return check_namespace(namespace(context, config))
    return check_namespace(
        [
            _SLOT.sub(lambda m: escape_label(_value(m.group(1), context, config)), label)
            for label in namespace
        ]
    )


def speaker(template: str, context: Any, config: Mapping[str, Any] | None) -> str:
    """Who the user is in a memory they said: ``template`` (``"{user_id}"`` by default)
    filled from the run's context or config as a namespace is (unescaped: a name, not a
    label), or :data:`UNNAMED_USER` when the run does not say."""
    try:
        return _SLOT.sub(lambda m: _value(m.group(1), context, config or {}), template)
    except NamespaceError:
        return UNNAMED_USER


def _value(name: str, context: Any, config: Mapping[str, Any]) -> str:
    """``name`` from the run's config first (set by the server), then its context."""
    configurable = config.get("configurable") or {}
    if configurable.get(name) not in (None, ""):
        return str(configurable[name])
    if isinstance(context, Mapping) and context.get(name) not in (None, ""):
        return str(context[name])
    if context is not None and getattr(context, name, None) not in (None, ""):
        return str(getattr(context, name))
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
