"""The core is framework-free: importing it loads no framework, store or numpy."""

import subprocess
import sys

CORE = [
    "types",
    "temporal",
    "holidays",
    "conversation",
    "anchoring",
    "retrieval",
    "fusion",
    "text",
    "frames",
    "frame_tables",
]
FORBIDDEN = ["chromadb", "langchain_core", "llama_index", "openai", "numpy"]


def test_core_modules_import_no_framework() -> None:
    code = (
        "import sys\n"
        + "".join(f"import ramem_integrations.core.{m}\n" for m in CORE)
        + f"print([m for m in {FORBIDDEN!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
