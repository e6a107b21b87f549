"""The core is framework-free: importing it loads no framework, store or numpy."""

import subprocess
import sys
from pathlib import Path

#: Every module of ``ramem_integrations/core``, found on disk (a new module is checked too).
CORE = sorted(
    p.stem
    for p in (Path(__file__).parent.parent / "ramem_integrations" / "core").glob("*.py")
    if p.stem != "__init__"
)
FORBIDDEN = ["chromadb", "langchain_core", "llama_index", "openai", "numpy"]


def test_the_core_list_is_found_on_disk() -> None:
    assert {"types", "temporal", "retrieval", "corrections"} <= set(CORE)


def test_core_modules_import_no_framework() -> None:
    code = (
        "import sys\n"
        + "".join(f"import ramem_integrations.core.{m}\n" for m in CORE)
        + f"print([m for m in {FORBIDDEN!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
