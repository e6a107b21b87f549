"""The core is framework-free: importing it loads no framework, store or numpy."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent / "ramem_integrations" / "core"

#: Every module of ``ramem_integrations/core`` and its folders, found on disk (a new module is
#: checked too), as dotted names below ``core``.
CORE = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for p in ROOT.rglob("*.py")
    if p.stem != "__init__"
)
FORBIDDEN = ["chromadb", "langchain_core", "llama_index", "openai", "numpy"]


def test_the_core_list_is_found_on_disk() -> None:
    assert {"types", "time.grounding", "retrieval.filters", "time.corrections"} <= set(CORE)


def test_core_modules_import_no_framework() -> None:
    code = (
        "import sys\n"
        + "".join(f"import ramem_integrations.core.{m}\n" for m in CORE)
        + f"print([m for m in {FORBIDDEN!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_core_reads_no_hidden_input() -> None:
    """Inputs are passed explicitly: no core module keeps a ContextVar (issue 35)."""
    hidden = [m for m in CORE if "ContextVar" in (ROOT / f"{m.replace('.', '/')}.py").read_text()]
    assert hidden == []


def test_the_time_rules_are_compiled_when_a_text_needs_them() -> None:
    """A ``ramem query`` process reads one question: starting the command compiles none of
    the time grammar's patterns, and the question compiles only the rules its words can match
    (``ramem query`` start-up, benchmarks/cli_startup.py)."""
    code = (
        "from datetime import UTC, datetime\n"
        "import ramem_integrations.app.cli\n"
        "from ramem_integrations.core.time import grounding as g\n"
        "before = g._searcher.cache_info().currsize\n"
        "g.find_times('what did Ann say about the pottery class in March?', "
        "datetime(2024, 1, 1, tzinfo=UTC))\n"
        "print(before, g._searcher.cache_info().currsize, len(g._RULES))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after, rules = map(int, out.stdout.split())
    assert before == 0
    assert 0 < after < rules / 2
