"""The agent snippets of README.md and docs/*.md run as written, offline, in an empty folder."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_PYTHON = re.compile(r"```python\n(.*?)```", re.DOTALL)


def _section(path: Path, heading: str | None) -> str:
    """The text of ``path`` under ``heading`` (to the next heading of that level), or all."""
    text = path.read_text(encoding="utf-8")
    if heading is None:
        return text
    start = text.index(heading)
    level = heading.split(" ")[0]
    following = text.find(f"\n{level} ", start + len(heading))
    return text[start : following if following != -1 else len(text)]


#: (file, section or None for the whole file, text the first snippet's output must hold)
CASES = [
    ("README.md", "## Use it in an agent", "march context"),
    ("docs/langgraph.md", None, "march 0."),
    ("docs/llama_index.md", "## Agent memory: `RaMemMemoryBlock`", "said: 12 March 2024"),
]


def _snippets() -> list[tuple[str, int, str, str]]:
    out = []
    for name, heading, expected in CASES:
        for index, code in enumerate(_PYTHON.findall(_section(ROOT / name, heading))):
            out.append((name, index, code, expected if index == 0 else ""))
    return out


SNIPPETS = _snippets()


def test_every_case_has_a_snippet() -> None:
    assert {name for name, *_ in SNIPPETS} == {name for name, *_ in CASES}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "index", "code", "expected"), SNIPPETS, ids=[f"{s[0]}#{s[1]}" for s in SNIPPETS]
)
def test_snippet_runs(tmp_path: Path, name: str, index: int, code: str, expected: str) -> None:
    pytest.importorskip("langgraph.store.base")
    pytest.importorskip("llama_index.core")
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert expected in done.stdout
