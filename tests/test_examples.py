"""Every example runs offline, as a user would run it, and says what it shows."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: Each example and a line its output must contain.
CASES = [
    ("langchain_rag_chain.py", "; happened 11 March 2024"),
    ("langchain_agent_memory.py", "[1] said 6 May 2024"),
    ("llama_index_query_engine.py", "Conditions read from the question: time = March 2024"),
    ("llama_index_postprocessor.py", "[context] s2-dentist-march"),
    ("chroma_server.py", "Stopped the server"),
    (
        "llama_index_agent_memory.py",
        "Agent: I saw the dentist today, she said the wisdom tooth must come out.",
    ),
    ("langgraph_agent_memory.py", "02 Sep 2024 alice  What did the dentist say in March?"),
]


def _offline_env(tmp_path: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_API_KEY", "RAMEM_LLM_BASE_URL", "RAMEM_LLM_MODEL")
    }
    env["TMPDIR"] = str(tmp_path / "tmp")  # examples write only into temporary folders
    env["PYTHONPATH"] = str(EXAMPLES.parent)
    return env


@pytest.mark.slow
@pytest.mark.parametrize(("script", "expected"), CASES, ids=[c[0] for c in CASES])
def test_example_runs_offline(tmp_path: Path, script: str, expected: str) -> None:
    pytest.importorskip("langchain_core" if script.startswith("lang") else "chromadb")
    if script.startswith("langgraph"):
        pytest.importorskip("langgraph.store.base")
    if script.startswith("llama_index"):
        pytest.importorskip("llama_index.core")
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    (tmp_path / "tmp").mkdir()
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)],
        cwd=cwd,
        env=_offline_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert expected in done.stdout
    assert list(cwd.iterdir()) == []  # nothing written where it was run


def test_every_example_is_tested() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(c[0] for c in CASES)
