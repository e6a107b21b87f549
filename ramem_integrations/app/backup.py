"""Backups: a namespace to JSONL and back, losslessly.

The file is one JSON object a line. The first is a header::

    {"format": "ramem-export", "version": 1, "namespace": "alice", "count": 412}

then one line per memory, sorted by id: ``{"id": ..., "content": ..., "metadata": {...}}`` where
``metadata`` is exactly what the store keeps (:meth:`MemoryUnit.to_metadata`: dates as epoch
seconds, lists as lists), so content, every context field and the id come back bit for bit.

Embeddings are not exported; the importing store recomputes them with its own embedder. They
are derived data, like the BM25 index: the store's truth is the content and its context. A
backup then restores into a store with another embedder (a model upgrade, another dimension)
without mixing two vector spaces in one collection, and the file stays small, plain and
readable. The price is embedding time on import (about 580 memories a second with the packaged
model).

Import validates the whole file before writing anything (a truncated or edited file is a
:class:`DataFormatError` naming the line), then upserts through
:meth:`~ramem_integrations.memory.ramem.RaMem.add_memories`: re-importing skips what is
already stored unchanged, and never duplicates. Without a namespace named by the caller, the
file's own must hold no memories yet (a file never chooses whose memories it changes).
Importing into another namespace gives the memories the ids anchoring would have given them
there, so the source namespace is never overwritten.
"""

from __future__ import annotations

import json
import os
import shlex
import tempfile
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ramem_integrations.core.anchoring import memory_id
from ramem_integrations.core.jsondata import loads, read_text
from ramem_integrations.core.limits import DEFAULT_LIMITS, Limits
from ramem_integrations.core.namespaces import check_namespace
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.errors import DataFormatError, NamespaceError, RamemError

if TYPE_CHECKING:
    from ramem_integrations.memory.ramem import RaMem

FORMAT = "ramem-export"
VERSION = 1


def export_namespace(
    mem: RaMem, namespace: str, out: str | Path | TextIO, *, overwrite: bool = False
) -> int:
    """Write every memory of ``namespace`` as JSONL to ``out``; returns how many.

    ``out`` is a path or an open text stream (``sys.stdout``). A regular file is written to a
    temporary name and moved into place, so an interrupted export never leaves a
    half-written backup behind; anything else (a pipe, a device such as ``/dev/stdout``) is
    written in place and never replaced. An existing file is kept unless ``overwrite``; a path
    inside a Chroma store is always refused. A namespace never written is an
    :class:`~ramem_integrations.errors.UnknownNamespaceError`, and no file is made.
    """
    units = sorted(mem.memories(namespace), key=lambda u: u.id)
    header = {"format": FORMAT, "version": VERSION, "namespace": namespace, "count": len(units)}
    lines = [json.dumps(line, ensure_ascii=False) + "\n" for line in [header, *map(record, units)]]
    if not isinstance(out, str | Path):
        out.writelines(lines)
        out.flush()
        return len(units)
    target = Path(out)
    try:
        if target.is_dir():
            raise RamemError(f"{target} is a directory; give a file name for the backup.")
        if target.exists() and not target.resolve().is_file():  # a pipe or a device
            with target.open("w", encoding="utf-8") as handle:
                handle.writelines(lines)
            return len(units)
        _refuse_store_files(target)
        _write_atomically(target.resolve(), lines, overwrite=overwrite)
    except FileExistsError as exc:
        raise RamemError(
            f"{target} already exists; the backup was not written. Give a new file name, or "
            "pass overwrite=True ('ramem export --overwrite') to replace it."
        ) from exc
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symbolic link loop (Python < 3.13)
        raise RamemError(f"Could not write the backup {target}: {exc}. Check the path.") from exc
    return len(units)


#: A file that marks a folder as a Chroma store (embedded ``PersistentClient``).
STORE_MARK = "chroma.sqlite3"


def _refuse_store_files(target: Path) -> None:
    """Refuse a backup path inside a Chroma store: writing there destroys the store."""
    for folder in target.resolve().parents:
        if (folder / STORE_MARK).is_file():
            raise RamemError(
                f"{target} is inside the Chroma store {folder}; writing it would destroy the "
                "store. Write the backup outside the store folder."
            )


def _write_atomically(target: Path, lines: list[str], *, overwrite: bool) -> None:
    """Write a regular file through a temporary name in its folder, then move it into place:
    replacing ``target`` only when ``overwrite``, else linked in only if the name is still
    free (:class:`FileExistsError` otherwise, with nothing changed)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.writelines(lines)
        if overwrite:
            Path(tmp).replace(target)
        else:
            os.link(tmp, target)  # atomic: fails if the name was taken meanwhile
    finally:
        Path(tmp).unlink(missing_ok=True)


def record(unit: MemoryUnit) -> dict[str, Any]:
    """One memory as an export line."""
    return {"id": unit.id, "content": unit.content, "metadata": unit.to_metadata()}


def read_export(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> tuple[str, list[MemoryUnit]]:
    """The namespace and memories of an export file, all validated first (each memory's
    text within ``limits.message_chars``, the file within ``limits.file_bytes``)."""
    source = Path(path)
    if not source.exists():
        raise DataFormatError(f"No backup at {source}. Check the path.")
    text = read_text(source, limits)
    lines = text.split("\n")  # not splitlines(): a memory may hold U+2028 or U+0085
    rows = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    if not rows:
        raise DataFormatError(f"{source} is empty; it is not a ramem export.")
    header = _json(source, *rows[0], limits)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise DataFormatError(
            f"{source} line 1 is not a ramem export header; make the file with "
            "'ramem export --store S --namespace NS --out FILE.jsonl'."
        )
    if header.get("version") != VERSION:
        raise DataFormatError(
            f"{source} is export version {header.get('version')!r}; this version reads {VERSION}."
        )
    namespace = header.get("namespace")
    try:
        check_namespace(namespace)
    except RamemError as exc:
        raise DataFormatError(f"{source} line 1: {exc}") from exc
    units = [
        _unit(source, n, _json(source, n, line, limits), str(namespace), limits)
        for n, line in rows[1:]
    ]
    if header.get("count") != len(units):
        raise DataFormatError(
            f"{source} says it holds {header.get('count')!r} memories but has {len(units)}: "
            "the file is incomplete or was edited. Export it again."
        )
    return str(namespace), units


def import_file(
    mem: RaMem, path: str | Path, namespace: str | None = None, *, replace: bool = False
) -> dict[str, Any]:
    """Import an export into ``mem`` (into ``namespace`` when given, else the exported one,
    which must then hold no memories yet: a file never writes into a namespace its caller did
    not name, :class:`~ramem_integrations.errors.NamespaceError`).

    Only that namespace is written: an id names a memory within its namespace, so a file can
    never take or change another namespace's memories. Returns ``{"namespace", "read", "added",
    "changed", "written"}``: the namespace written, memories in the file, those new to the
    namespace, those stored there before with other words or coordinates and now replaced
    (``written`` is both; 0 when the same file is imported again). Stored
    memories with other text under the same ids are refused, before anything is written,
    unless ``replace``. The file is held to ``mem.limits``.
    """
    return import_memories(mem, read_export(path, mem.limits), namespace, replace=replace)


def import_memories(
    mem: RaMem,
    exported: tuple[str, list[MemoryUnit]],
    namespace: str | None = None,
    *,
    replace: bool = False,
) -> dict[str, Any]:
    """:func:`import_file` of an export already read (:func:`read_export`)."""
    source_ns, units = exported
    if namespace is None:
        refuse_taken(mem, units, "is an export of")
    target = check_namespace(namespace) if namespace is not None else source_ns
    if target != source_ns:
        units = list(renamespaced(units, target))
    before = {u.id: u for u in mem.store.get(target, ids=[u.id for u in units])}
    mem.add_memories(units, replace=replace)
    added = sum(1 for u in units if u.id not in before)
    changed = sum(1 for u in units if u.id in before and before[u.id] != u)
    written = added + changed
    return {
        "namespace": target,
        "read": len(units),
        "added": added,
        "changed": changed,
        "written": written,
    }


def refuse_taken(mem: RaMem, units: Iterable[MemoryUnit], what: str) -> None:
    """Refuse to write ``units``, in namespaces a file names but the caller did not, into a
    namespace that holds memories already, unless it holds them all unchanged (the same file
    again, which writes nothing): a file never chooses whose memories it changes. ``what``
    says how the file names them ("is an export of")."""
    by_ns: dict[str, list[MemoryUnit]] = {}
    for unit in units:
        by_ns.setdefault(unit.namespace, []).append(unit)
    taken: dict[str, int] = {}
    for ns, group in by_ns.items():
        if count := mem.count(ns):
            stored = {u.id: u for u in mem.store.get(ns, ids=[u.id for u in group])}
            if any(stored.get(u.id) != u for u in group):
                taken[ns] = count
    if taken:
        names = ", ".join(f"{ns!r} ({n} memories)" for ns, n in taken.items())
        first = next(iter(taken))
        raise NamespaceError(
            f"The file {what} {names}, which this store holds already, and would add to or "
            "change its memories; a file never writes into a namespace its caller did not "
            f"name, and nothing was written. To write there, name it: --namespace "
            f"{shlex.quote(first)} (namespace={first!r} in Python; stored memories still "
            "change only with --replace); or name another namespace to keep them apart."
        )


def renamespaced(units: Iterable[MemoryUnit], namespace: str) -> Iterable[MemoryUnit]:
    """The memories moved to ``namespace``, with the ids anchoring gives them there."""
    for unit in units:
        turns = list(unit.source_ids) or [unit.id]
        new_id = memory_id(namespace, unit.conversation_id, turns)
        yield replace(unit, id=new_id, namespace=namespace)


def _json(source: Path, number: int, line: str, limits: Limits) -> Any:
    try:
        return loads(line, f"{source} line {number}", limits)
    except json.JSONDecodeError as exc:
        raise DataFormatError(
            f"{source} line {number} is not valid JSON ({exc}); the file may be truncated."
        ) from exc


def _unit(source: Path, number: int, row: Any, namespace: str, limits: Limits) -> MemoryUnit:
    where = f"{source} line {number}"
    if not isinstance(row, dict) or not isinstance(row.get("metadata"), dict):
        raise DataFormatError(f"{where}: expected {{'id', 'content', 'metadata'}}.")
    if not isinstance(row.get("id"), str) or not isinstance(row.get("content"), str):
        raise DataFormatError(f"{where}: 'id' and 'content' must be strings.")
    limits.check_text(row["content"], where)
    if row["metadata"].get("namespace") != namespace:
        raise DataFormatError(
            f"{where}: memory of namespace {row['metadata'].get('namespace')!r} in an export "
            f"of {namespace!r}."
        )
    try:
        unit = MemoryUnit.from_metadata(row["id"], row["content"], row["metadata"])
        exact = unit.to_metadata() == row["metadata"]
    except (RamemError, KeyError, ValueError, TypeError, OverflowError) as exc:
        raise DataFormatError(
            f"{where}: not a valid memory ({type(exc).__name__}: {exc})."
        ) from exc
    if not exact:
        raise DataFormatError(
            f"{where}: the metadata has fields or values a memory cannot hold; export it again."
        )
    return unit
