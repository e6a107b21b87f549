"""Shared pieces of the performance benchmarks: data synthesis, timing, resources, results.

Scale data is synthesised from LoCoMo (the development file is read, never copied): each copy
of a conversation goes to its own namespace, with its participants renamed and its dates
shifted, so the store holds many look-alike but distinct episodes. The 2,760 unique turn texts
are embedded once with the real offline embedder; each copy reuses those vectors with a little
Gaussian noise (see :class:`TableEmbedder`). Queries are always embedded for real.
"""

from __future__ import annotations

import json
import os
import platform
import random
import socket
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from ramem_integrations.core.anchoring import RuleAnchorer, memory_id
from ramem_integrations.core.conversation import Conversation, load_conversations
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.types import MemoryUnit, TimeMention, TimeSpan
from ramem_integrations.embeddings import default_embedder

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
DEFAULT_DATA = HERE.parent.parent / "shared" / "data" / "locomo-dev.json"
NOISE = 0.02  # std of the noise added per coordinate before re-normalising (cosine ~0.93)
SHIFT = timedelta(days=3)  # date shift between successive copies of a conversation

#: Names the copies' participants are renamed to (copy c, speaker i -> NAMES[(3c + i) % n]).
NAMES = [
    "Avery",
    "Blake",
    "Casey",
    "Dana",
    "Eden",
    "Finley",
    "Gray",
    "Harper",
    "Indigo",
    "Jules",
    "Kai",
    "Logan",
    "Morgan",
    "Noel",
    "Oakley",
    "Parker",
    "Quinn",
    "Reese",
    "Sage",
    "Tatum",
    "Umber",
    "Val",
    "Wren",
    "Xan",
    "Yael",
    "Zion",
    "Arden",
    "Briar",
    "Cove",
    "Dale",
    "Ellis",
    "Flynn",
    "Greer",
    "Hollis",
    "Ira",
    "Jory",
    "Kit",
    "Lane",
    "Marlo",
    "Nico",
    "Onyx",
    "Perry",
    "Remy",
    "Shay",
    "Toby",
    "Uri",
    "Vesper",
    "Wynn",
]

TIME_QUESTIONS = (
    "What did {p} do in {month}?",
    "What did {p} talk about in {month}?",
    "Where did {p} go in {month}?",
)
PERSON_QUESTIONS = (
    "What does {p} like to paint?",
    "What books has {p} read?",
    "What is {p}'s job?",
    "Which pets does {p} have?",
    "What does {p} think about running?",
    "Who did {p} meet at the support group?",
)
#: No name, no time: nothing to ground, so RaMem is content retrieval alone.
PLAIN_QUESTIONS = (
    "What does she like to paint?",
    "Which books were recommended?",
    "What happened at the support group?",
    "Who adopted a dog?",
    "What did they say about running a marathon?",
    "Where did the family go camping?",
)


# --- data --------------------------------------------------------------------------------------


def data_path(arg: str | None) -> Path:
    """The LoCoMo file to use, or exit with a clear message when it is absent."""
    path = Path(arg) if arg else DEFAULT_DATA
    if not path.is_file():
        raise SystemExit(
            f"SKIP: no LoCoMo file at {path}. Pass its path (--data PATH); the development "
            "data is never shipped in this repository."
        )
    return path


@dataclass
class Corpus:
    """LoCoMo anchored once, its unique texts embedded once."""

    conversations: list[Conversation]
    units: list[list[MemoryUnit]]  # per conversation, as the rule anchorer makes them
    vectors: dict[str, np.ndarray]  # unit id -> unit-length vector

    @classmethod
    def load(cls, path: Path, embed: bool = True) -> Corpus:
        conversations = load_conversations(path)
        anchorer = RuleAnchorer()
        units = [Segmenter().segment(anchorer.anchor(c, c.id)) for c in conversations]
        flat = [u for group in units for u in group]
        vectors: dict[str, np.ndarray] = {}
        if embed:
            matrix = default_embedder().embed([u.content for u in flat])
            vectors = {u.id: v for u, v in zip(flat, matrix, strict=True)}
        return cls(conversations, units, vectors)

    @property
    def size(self) -> int:
        return sum(len(group) for group in self.units)

    def copies(self, total: int, seed: int = 0) -> Iterator[tuple[list[MemoryUnit], np.ndarray]]:
        """``total`` memories as (units of one namespace, their vectors), copy after copy.

        Copy ``c`` takes conversation ``c % 5``, renames its speakers and shifts its dates by
        ``c * SHIFT``; its namespace is ``ns-<c>``.
        """
        rng = np.random.default_rng(seed)
        made, copy = 0, 0
        while made < total:
            source = self.units[copy % len(self.units)][: total - made]
            conversation = self.conversations[copy % len(self.conversations)]
            units = [synth(u, conversation.speakers, copy) for u in source]
            base = np.stack([self.vectors[u.id] for u in source])
            noisy = base + rng.normal(0.0, NOISE, base.shape).astype(np.float32)
            noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
            yield units, noisy.astype(np.float32)
            made += len(units)
            copy += 1


def renames(speakers: Sequence[str], copy: int) -> dict[str, str]:
    return {s: NAMES[(3 * copy + i) % len(NAMES)] for i, s in enumerate(speakers)}


def namespace_of(copy: int) -> str:
    return f"ns-{copy:05d}"


def synth(unit: MemoryUnit, speakers: Sequence[str], copy: int) -> MemoryUnit:
    """``unit`` as copy ``copy``: another namespace, renamed people, shifted dates."""
    names = renames(speakers, copy)
    shift = SHIFT * copy

    def name(text: str) -> str:
        for old, new in names.items():
            text = text.replace(old, new)
        return text

    def move(span: TimeSpan) -> TimeSpan:
        return TimeSpan(span.start + shift, span.end + shift)

    ctx = unit.context
    episode = ctx.episode
    if episode is not None:
        episode = replace(
            episode,
            event_time=move(episode.event_time) if episode.event_time else None,
            participants=tuple(names.get(p, p) for p in episode.participants),
        )
    context = replace(
        ctx,
        episode=episode,
        session_span=move(ctx.session_span),
        event_time=move(ctx.event_time) if ctx.event_time else None,
        mention_times=tuple(TimeMention(m.text, move(m.span)) for m in ctx.mention_times),
        participants=tuple(names.get(p, p) for p in ctx.participants),
        speaker=names.get(ctx.speaker, ctx.speaker) if ctx.speaker else None,
        entities=tuple(names.get(e, e) for e in ctx.entities),
    )
    namespace = namespace_of(copy)
    return replace(
        unit,
        id=memory_id(namespace, unit.conversation_id, unit.source_ids),
        content=name(unit.content),
        context=context,
        namespace=namespace,
    )


def questions(corpus: Corpus, copies: Sequence[int], per_copy: int, seed: int = 0) -> list[dict]:
    """Questions about the given copies (namespaces): time-conditioned, naming a person only,
    and plain (nothing to ground).

    A time question names a speaker of the copy and a month in which that copy has sessions.
    """
    rng = random.Random(seed)
    out: list[dict] = []
    for copy in copies:
        conversation = corpus.conversations[copy % len(corpus.conversations)]
        people = list(renames(conversation.speakers, copy).values())
        months = sorted({(s.start + SHIFT * copy).strftime("%B %Y") for s in conversation.sessions})
        for _ in range(per_copy):
            p = rng.choice(people)
            out.append(
                {
                    "namespace": namespace_of(copy),
                    "kind": "time",
                    "query": rng.choice(TIME_QUESTIONS).format(p=p, month=rng.choice(months)),
                }
            )
            out.append(
                {
                    "namespace": namespace_of(copy),
                    "kind": "person",
                    "query": rng.choice(PERSON_QUESTIONS).format(p=p),
                }
            )
            out.append(
                {
                    "namespace": namespace_of(copy),
                    "kind": "plain",
                    "query": rng.choice(PLAIN_QUESTIONS),
                }
            )
    return out


# --- embedders ---------------------------------------------------------------------------------


class TableEmbedder:
    """An Embedder that returns precomputed vectors for known texts and embeds the rest.

    Used to write synthesised memories without re-embedding them; queries (not in the table)
    go through the real offline embedder, so query latency includes the embedding.
    """

    def __init__(self, real: Any | None = None) -> None:
        self.real = real or default_embedder()
        self.name = f"table+{self.real.name}"
        self.dimension = self.real.dimension
        self.table: dict[str, np.ndarray] = {}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if all(t in self.table for t in texts):
            return np.stack([self.table[t] for t in texts]) if texts else np.zeros((0, 384))
        return self.real.embed(texts)


def langchain_embeddings(embedder: Any) -> Any:
    """Our embedder as a LangChain ``Embeddings`` (what a LangChain user would pass)."""
    from langchain_core.embeddings import Embeddings

    class Wrapped(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return embedder.embed(texts).tolist()

        def embed_query(self, text: str) -> list[float]:
            return embedder.embed([text])[0].tolist()

    return Wrapped()


# --- measuring ---------------------------------------------------------------------------------


def percentiles(samples_ms: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples_ms)

    def pct(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    return {
        "n": len(ordered),
        "p50_ms": round(statistics.median(ordered), 3),
        "p95_ms": round(pct(0.95), 3),
        "mean_ms": round(statistics.fmean(ordered), 3),
    }


def timed(fn: Callable[[], Any]) -> float:
    """Wall time of one call, in milliseconds."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000.0


def interleaved(
    cases: Sequence[Any], runners: dict[str, Callable[[Any], Any]], repeat: int = 1
) -> dict[str, list[float]]:
    """Time each runner on each case, alternating runners case by case (fair under noise)."""
    samples: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(repeat):
        for case in cases:
            for name, run in runners.items():
                samples[name].append(timed(lambda run=run, case=case: run(case)))
    return samples


def rss_mb() -> float:
    import psutil

    return round(psutil.Process().memory_info().rss / 2**20, 1)


def disk_mb(path: Path) -> float:
    total = sum(p.stat().st_size for p in Path(path).rglob("*") if p.is_file())
    return round(total / 2**20, 1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def machine() -> dict[str, Any]:
    import chromadb

    return {
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "chromadb": chromadb.__version__,
    }


def write_result(name: str, payload: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    payload = {"benchmark": name, "machine": machine(), **payload}
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    return path


def ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else float("nan")
