"""Reading JSON data files: one reader and one list check for every loader."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from ramem_integrations.errors import DataFormatError


def read_json(path: str | Path) -> Any:
    """The parsed JSON at ``path``; :class:`DataFormatError` saying what to fix otherwise."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise DataFormatError(f"No file at {path}. Check the path.") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataFormatError(
            f"{path} is not valid UTF-8 JSON ({exc}). Check the file is complete JSON."
        ) from exc


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
