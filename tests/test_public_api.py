"""The public API: pinned names, all importable, the heavy ones loaded on first use only."""

import subprocess
import sys
from importlib.metadata import version

import ramem_integrations
from ramem_integrations import errors

PUBLIC = [
    "Answer",
    "ChromaEpisodicStore",
    "Condition",
    "Conversation",
    "DataFormatError",
    "EmbeddingError",
    "EpisodicContext",
    "InvalidInputError",
    "InvalidTimeError",
    "LLMConfig",
    "LLMError",
    "LimitError",
    "Limits",
    "MemoryConflictError",
    "MemoryUnit",
    "MissingDependencyError",
    "NamespaceError",
    "RaMem",
    "RamemError",
    "RecallFrame",
    "ScoredMemory",
    "Session",
    "StoreBusyError",
    "StoreError",
    "StoreFormatError",
    "TimeSpan",
    "Turn",
    "UnknownNamespaceError",
    "WriteConflictError",
    "__version__",
    "ground_time",
    "load_conversations",
]


def test_public_names_are_pinned() -> None:
    assert sorted(ramem_integrations.__all__) == sorted(PUBLIC)
    for name in ramem_integrations.__all__:
        assert getattr(ramem_integrations, name) is not None
    assert set(PUBLIC) <= set(dir(ramem_integrations))  # the lazy names are listed too


def test_every_error_class_is_public() -> None:
    classes = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.RamemError)
    }
    assert classes <= set(ramem_integrations.__all__)


def test_version_comes_from_the_package_metadata() -> None:
    assert ramem_integrations.__version__ == version("ramem-integrations")


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        ramem_integrations.Nope  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "Nope" in str(exc)
    else:
        raise AssertionError("no AttributeError")


def test_import_stays_light() -> None:
    code = (
        "import sys, ramem_integrations; "
        "print(sorted(m for m in ('chromadb', 'openai', 'onnxruntime') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
