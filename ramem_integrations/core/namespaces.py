"""What a namespace may be: one check, made where a call enters the package.

RaMem's public methods (the facade) check the namespace they are given once, before anything is
read or written, and pass the checked value (a :class:`Namespace`) down; everything below them
(the writer, the read source, the cache, the store) trusts it. A store
(:mod:`ramem_integrations.stores`) is a public edge of its own: called with a plain string, it
checks it where it names a collection.
"""

from __future__ import annotations

from typing import Any

from ramem_integrations.core.limits import check_unicode
from ramem_integrations.errors import InvalidInputError, NamespaceError


class Namespace(str):
    """A namespace that passed :func:`check_namespace`: a ``str`` like any other, which the
    layers below the facade take as checked."""

    __slots__ = ()


def check_namespace(namespace: Any) -> Namespace:
    """``namespace`` as a :class:`Namespace` if it is a usable name, else raise
    :class:`NamespaceError`; a :class:`Namespace` is returned as it is (checked once)."""
    if isinstance(namespace, Namespace):
        return namespace
    _check(namespace)
    return Namespace(namespace)


def _check(namespace: Any) -> None:
    """The check itself: a non-blank name in valid Unicode."""
    if not isinstance(namespace, str) or not namespace.strip():
        raise NamespaceError(
            f"A namespace is required (got {namespace!r}). Name the user, agent or conversation "
            "the memories belong to, e.g. namespace='alice'. Reads never span namespaces."
        )
    try:
        check_unicode(namespace, f"The namespace {namespace!r} is not valid Unicode")
    except InvalidInputError as exc:
        raise NamespaceError(str(exc)) from exc
