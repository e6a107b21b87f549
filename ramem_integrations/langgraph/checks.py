"""What a :class:`~ramem_integrations.langgraph.RaMemStore` accepts, checked before it writes.

One check of namespace labels serves every read and write (put, get, search, delete,
list_namespaces, recall, the tools and the middleware): a label is a non-empty string without
``.`` (it joins labels into the RaMem namespace), NUL, or the ASCII separators ``\\x1e`` and
``\\x1f`` (they join labels into an item's row id), so that no two namespace tuples share a
RaMem namespace or a row. The rest checks keys, values, filters and page sizes as LangGraph's
own stores read them, with errors that are also ``ValueError``. Labels and keys are names
(:attr:`~ramem_integrations.core.limits.Limits.name_chars`); a value's JSON is held to
``message_chars``, as a message is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.base import InvalidNamespaceError

from ramem_integrations.core.limits import DEFAULT_LIMITS, Limits, check_unicode
from ramem_integrations.errors import InvalidInputError, LimitError, NamespaceError

#: Characters a label cannot hold, and why.
FORBIDDEN = {
    ".": "'.' separates labels",
    "\x00": "NUL",
    "\x1e": "'\\x1e' separates the namespace from the key in row ids",
    "\x1f": "'\\x1f' separates labels in row ids",
}

#: The filter operators LangGraph's stores read; those that order compare numbers.
ORDERING = ("$gt", "$gte", "$lt", "$lte")
OPERATORS = ("$eq", "$ne", *ORDERING)


class NamespaceLabelError(NamespaceError, InvalidNamespaceError):
    """A namespace tuple or label the store cannot represent (also LangGraph's
    ``InvalidNamespaceError``)."""


class LabelLimitError(NamespaceLabelError, LimitError):
    """A namespace label longer than ``Limits.name_chars``."""


def check_namespace(
    namespace: Any, *, empty_ok: bool = False, limits: Limits = DEFAULT_LIMITS
) -> tuple[str, ...]:
    """``namespace`` as a tuple of labels, or :class:`NamespaceLabelError`."""
    if isinstance(namespace, str) or not isinstance(namespace, Sequence):
        raise NamespaceLabelError(
            f"A namespace is a tuple of labels, e.g. ('memories', 'alice'), got {namespace!r}."
        )
    labels = tuple(namespace)
    if not labels and not empty_ok:
        raise NamespaceLabelError("The namespace is empty; give one, e.g. ('memories', 'alice').")
    for label in labels:
        if not isinstance(label, str) or not label:
            raise NamespaceLabelError(
                f"Namespace {labels!r}: every label must be a non-empty string, got {label!r}; "
                "e.g. ('memories', 'alice')."
            )
        try:
            check_unicode(label, f"Namespace {labels!r}: label {label!r}")
        except InvalidInputError as exc:
            raise NamespaceLabelError(str(exc)) from exc
        if len(label) > limits.name_chars:
            found = f"a label has {len(label):,} characters ({label[:40]!r}...)"
            refused = limits.refuse("name_chars", found, "The namespace")
            raise LabelLimitError(str(refused))
        bad = [why for char, why in FORBIDDEN.items() if char in label]
        if bad:
            raise NamespaceLabelError(
                f"Namespace {labels!r}: label {label!r} cannot contain {bad[0]}. Use another "
                "label, or escape it as the memory tools and middleware escape the values "
                "they fill in: ramem_integrations.langgraph.escape_label('john.smith') is "
                "'john%2Esmith'."
            )
    return labels


def check_key(key: Any, limits: Limits = DEFAULT_LIMITS) -> str:
    """An item key: a non-empty string within ``limits.name_chars``."""
    if not isinstance(key, str) or not key:
        raise InvalidInputError(
            f"An item key must be a non-empty string, got {key!r}; e.g. store.put(ns, 'm1', ...)."
        )
    check_unicode(key, f"The item key {key!r}")
    return limits.check_name(key, "An item key")


def check_value(key: str, value: Any, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """An item value: a dict that is JSON (LangGraph stores dicts), its JSON within
    ``limits.message_chars``."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            f"Item {key!r}: the value must be a dict such as {{'text': '...'}}, got "
            f"{type(value).__name__}; wrap it: {{'value': ...}}."
        )
    try:
        size = len(json.dumps(value))
        _check_text(value, f"Item {key!r}")  # a lone surrogate, before anything is written
    except RecursionError as exc:
        raise InvalidInputError(
            f"Item {key!r}: the value is nested too deeply to store; flatten it."
        ) from exc
    except InvalidInputError:
        raise
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"Item {key!r}: the value must be JSON (dicts, lists, strings, numbers): {exc}."
        ) from exc
    if size > limits.message_chars:
        found = f"the value's JSON has {size:,} characters"
        raise limits.refuse("message_chars", found, f"Item {key[:60]!r}")
    return dict(value)


def _check_text(value: Any, where: str) -> None:
    """Every string of a JSON value, field names too, storable as UTF-8."""
    if isinstance(value, str):
        check_unicode(value, where)
    elif isinstance(value, Mapping):
        for name, part in value.items():
            check_unicode(str(name), f"{where}: the field name {name!r}")
            _check_text(part, f"{where}[{name!r}]")
    elif isinstance(value, list | tuple):
        for index, part in enumerate(value):
            _check_text(part, f"{where}[{index}]")


def check_page(limit: Any, offset: Any) -> None:
    """``limit`` and ``offset`` of a search or listing: integers of at least 0."""
    for name, number in (("limit", limit), ("offset", offset)):
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise InvalidInputError(f"{name} must be an integer of at least 0, got {number!r}.")


def check_filter(filter: Any) -> None:
    """A search filter: field -> value, nested dicts, or ``{"$op": argument}``."""
    if filter is None:
        return
    if not isinstance(filter, Mapping):
        raise InvalidInputError(
            f"filter must be a dict such as {{'kind': 'note'}}, got {type(filter).__name__}."
        )
    for wanted in filter.values():
        _check_wanted(wanted)


def _check_wanted(wanted: Any) -> None:
    if isinstance(wanted, Mapping):
        for name, argument in wanted.items():
            if not str(name).startswith("$"):
                _check_wanted(argument)
            elif name not in OPERATORS:
                raise InvalidInputError(
                    f"Unknown filter operator {name!r}; use one of {', '.join(OPERATORS)}."
                )
            elif name in ORDERING and not _is_number(argument):
                raise InvalidInputError(
                    f"Filter {name} compares numbers, got {argument!r}; e.g. {{{name!r}: 5}}."
                )
    elif isinstance(wanted, list | tuple):
        for part in wanted:
            _check_wanted(part)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
