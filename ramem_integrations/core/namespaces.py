"""What a namespace may be: one check, made where a call enters the package.

RaMem's public methods (the facade) check the namespace they are given once, before anything is
read or written; everything below them (the writer, the read source, the cache) relies on it. A
store (:mod:`ramem_integrations.stores`) is a public edge of its own and checks at its methods.
"""

from __future__ import annotations

from typing import Any

from ramem_integrations.core.limits import check_unicode
from ramem_integrations.errors import InvalidInputError, NamespaceError


def check_namespace(namespace: Any) -> str:
    """Return ``namespace`` if it is a usable name, else raise :class:`NamespaceError`."""
    if not isinstance(namespace, str) or not namespace.strip():
        raise NamespaceError(
            f"A namespace is required (got {namespace!r}). Name the user, agent or conversation "
            "the memories belong to, e.g. namespace='alice'. Reads never span namespaces."
        )
    try:
        check_unicode(namespace, f"The namespace {namespace!r} is not valid Unicode")
    except InvalidInputError as exc:
        raise NamespaceError(str(exc)) from exc
    return namespace
