"""The time tables, listed beside the lexicon: the words :mod:`ramem_integrations.core.time` reads.

They are still module tables of :mod:`~ramem_integrations.core.time.tables`,
:mod:`~ramem_integrations.core.time.corrections`, :mod:`~ramem_integrations.core.time.zones` and
:mod:`~ramem_integrations.core.time.conventions`, read as they are; :func:`time_tables` lists
them so the table checks and counts cover them too.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Mapping
from types import ModuleType

from ramem_integrations.core.time import conventions, corrections, grounding, tables, zones

#: The modules whose public word tables :func:`time_tables` lists.
TIME_MODULES: tuple[ModuleType, ...] = (tables, grounding, corrections, zones, conventions)


def time_tables() -> dict[str, tuple[str, ...]]:
    """Each public table of strings of :data:`TIME_MODULES` by ``module.NAME``: a mapping as its
    keys, a set in sorted order, a tuple as it is."""
    found: dict[str, tuple[str, ...]] = {}
    for module in TIME_MODULES:
        short = module.__name__.rsplit(".", 1)[1]
        for name in _defined(module):
            value = getattr(module, name)
            if name.startswith("_") or not name.isupper():
                continue
            entries = _strings(value)
            if entries is not None:
                found[f"{short}.{name}"] = entries
    return found


def _defined(module: ModuleType) -> list[str]:
    """The names ``module`` assigns at its top level (not those it imports)."""
    tree = ast.parse(inspect.getsource(module))
    names = []
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _strings(value: object) -> tuple[str, ...] | None:
    if isinstance(value, Mapping):
        keys = tuple(value)
    elif isinstance(value, frozenset | set):
        keys = tuple(sorted(value, key=str))
    elif isinstance(value, tuple):
        keys = value
    else:
        return None
    return keys if keys and all(isinstance(key, str) for key in keys) else None
