"""Reading data files: one bounded text reader, one JSON reader and one list check.

Every file a loader or ``ramem import`` reads goes through :func:`read_text`: UTF-8 with or
without a byte-order mark, at most :attr:`Limits.file_bytes`, and refused at the first byte
that cannot be text (random bytes, ``/dev/zero``) without reading the rest. JSON is parsed by
:func:`parse_json` (JSON, else JSONL), nested at most :attr:`Limits.json_depth` levels.
"""

from __future__ import annotations

import ast
import codecs
import json
from pathlib import Path
from typing import Any

from ramem_integrations.core.limits import DEFAULT_LIMITS, Limits
from ramem_integrations.errors import DataFormatError

#: Bytes read at a time: a file that is not text is refused after the first of them.
CHUNK = 1 << 20


def read_text(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> str:
    """The text of the file at ``path`` (UTF-8, a leading BOM dropped), read up to
    ``limits.file_bytes``; :class:`DataFormatError` or :class:`LimitError` saying what to fix."""
    path = Path(path)
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts: list[str] = []
    start = 0  # the offset of the chunk being read
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(CHUNK):
                if start + len(chunk) > limits.file_bytes:
                    found = f"the file has over {limits.file_bytes:,} bytes"
                    raise limits.refuse("file_bytes", found, str(path))
                if b"\0" in chunk:
                    raise DataFormatError(
                        f"{path} holds a NUL byte (at byte {start + chunk.index(0):,}): it is "
                        "binary data, not a text or JSON file. Check the path."
                    )
                parts.append(decoder.decode(chunk))
                start += len(chunk)
            parts.append(decoder.decode(b"", final=True))
    except FileNotFoundError as exc:
        raise DataFormatError(f"No file at {path}. Check the path.") from exc
    except IsADirectoryError as exc:
        raise DataFormatError(f"{path} is a directory; give a file.") from exc
    except UnicodeDecodeError as exc:
        raise DataFormatError(
            f"{path} is not UTF-8 text (byte {start + exc.start:,}: {exc.reason}). Save it as "
            "UTF-8, or check the path."
        ) from exc
    except OSError as exc:
        raise DataFormatError(f"Cannot read {path}: {exc}.") from exc
    return "".join(parts)


def parse_json(text: str, name: str, limits: Limits = DEFAULT_LIMITS) -> Any:
    """JSON, or JSONL (one JSON value a line) read as a list; each value nested at most
    ``limits.json_depth`` levels."""
    try:
        return loads(text, name, limits)
    except json.JSONDecodeError as whole:
        lines = [line for line in text.split("\n") if line.strip()]
        if len(lines) < 2:
            raise DataFormatError(
                f"{name} is not valid JSON ({whole}). Check the file is complete JSON or JSONL."
            ) from whole
        rows = []
        for number, line in enumerate(lines, 1):
            try:
                rows.append(loads(line, f"{name} line {number}", limits))
            except json.JSONDecodeError as exc:
                raise DataFormatError(
                    f"{name} is neither JSON ({whole}) nor JSONL: non-empty line {number} is "
                    f"not JSON ({exc})."
                ) from exc
        return rows


def loads(text: str, name: str, limits: Limits) -> Any:
    """One JSON value (``json.JSONDecodeError`` if it is not), refused with a
    :class:`LimitError` when nested deeper than ``limits.json_depth``."""
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise limits.refuse("json_depth", "the JSON is nested too deep to read", name) from exc
    if (depth := json_depth(value, limits.json_depth)) > limits.json_depth:
        raise limits.refuse("json_depth", f"the JSON is nested at least {depth:,} deep", name)
    return value


def json_depth(value: Any, stop: int) -> int:
    """How many levels of lists and objects ``value`` nests (counting stops past ``stop``)."""
    if not isinstance(value, dict | list):
        return 0
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        deepest = max(deepest, depth)
        if deepest > stop:
            break
        children = item.values() if isinstance(item, dict) else item
        todo.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def read_json(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> Any:
    """The parsed JSON (or JSONL) at ``path``; :class:`DataFormatError` saying what to fix."""
    return parse_json(read_text(path, limits), str(path), limits)


def literal_list(value: object, where: str) -> list[Any]:
    """A list field, also when some derived file stores it as its Python/JSON text.

    Lenient where that is safe (a list written as text is read), strict where it is not:
    anything that is not a list raises :class:`DataFormatError` naming ``where``.
    """
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError) as exc:
            raise DataFormatError(f"{where} is text that is not a list.") from exc
    if isinstance(value, tuple):
        value = list(value)
    if not isinstance(value, list):
        raise DataFormatError(f"{where} should be a list, got {type(value).__name__}.")
    return value
