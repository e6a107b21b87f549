"""Shared pieces of the performance benchmarks: data synthesis, the systems compared, timing,
resources, results.

Scale data is synthesised from LoCoMo (the development file is read at run time, never
copied): each copy of a conversation goes to its own namespace, with its participants renamed
and its dates shifted, so the store holds many look-alike but distinct episodes. The unique
texts (verbatim turns and their restatements) are embedded once with the real offline
embedder; each copy reuses those vectors with a little Gaussian noise (see
:class:`TableEmbedder`). Questions are always embedded for real, and every question text is
used once per process, so no side answers one from a query cache (:class:`QuestionPool`).

RaMem is measured through its public API only (``RaMem.from_path``/``from_client``,
``add_memories``, ``retrieve``, ``frame``), so the scripts measure whatever the package is.
"""

from __future__ import annotations

import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from ramem_integrations.core.anchoring import RuleAnchorer, memory_id
from ramem_integrations.core.conversation import Conversation, load_conversations
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.types import MemoryUnit, TimeMention, TimeSpan
from ramem_integrations.memory.embedding import speaker_line
from ramem_integrations.models.embeddings import default_embedder

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
NOISE = 0.02  # std of the noise added per coordinate before re-normalising (cosine ~0.93)
SHIFT = timedelta(days=3)  # date shift between successive copies of a conversation
K = 10
KINDS = ("time", "person", "plain")
#: The systems compared, in the order tables show them.
SIDES = ("ramem", "lc_one", "lc_per_ns")
SIDE_LABELS = {
    "ramem": "RaMem.retrieve",
    "lc_one": "langchain-chroma, one collection + namespace filter",
    "lc_per_ns": "langchain-chroma, a collection per namespace",
}

#: Names the copies' participants are renamed to (copy c, speaker i -> NAMES[(3c + i) % n]).
NAMES = (
    "Avery Blake Casey Dana Eden Finley Gray Harper Indigo Jules Kai Logan Morgan Noel Oakley "
    "Parker Quinn Reese Sage Tatum Umber Val Wren Xan Yael Zion Arden Briar Cove Dale Ellis Flynn "
    "Greer Hollis Ira Jory Kit Lane Marlo Nico Onyx Perry Remy Shay Toby Uri Vesper Wynn"
).split()

TIME_QUESTIONS = (
    "what did {p} do in {month}?",
    "what did {p} talk about in {month}?",
    "where did {p} go in {month}?",
    "what was {p} busy with in {month}?",
)
PERSON_QUESTIONS = (
    "what does {p} like to paint?",
    "what books has {p} read?",
    "what is {p}'s job?",
    "which pets does {p} have?",
    "what does {p} think about running?",
    "who did {p} meet at the support group?",
    "what instrument does {p} play?",
    "where does {p} like to travel?",
)
#: No name, no time: nothing to ground, so RaMem is content retrieval alone.
PLAIN_QUESTIONS = (
    "what does she like to paint?",
    "which books were recommended?",
    "what happened at the support group?",
    "who adopted a dog?",
    "what did they say about running a marathon?",
    "where did the family go camping?",
    "what was said about the new job?",
    "who went to the concert?",
    "what did they cook for dinner?",
    "which school was mentioned?",
    "what happened at the beach?",
    "what did they say about pottery?",
    "who is learning to play the guitar?",
    "what was the charity event about?",
    "what did the kids make?",
    "where did they go hiking?",
)
#: Neutral openings that multiply the question texts, so no text is asked twice in a run.
OPENINGS = (
    "",
    "Quick question: ",
    "Remind me, ",
    "Do you know ",
    "Tell me, ",
    "I wonder, ",
    "Out of curiosity, ",
    "Hey, ",
    "Question: ",
    "One thing: ",
    "Please check: ",
    "Can you tell me ",
    "So, ",
    "Just checking: ",
    "Help me remember: ",
    "Another one: ",
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


def texts_of(unit: MemoryUnit) -> set[str]:
    """The texts either side embeds for a memory: its verbatim content and its speaker line
    (:mod:`ramem_integrations.memory.embedding`)."""
    return {text for text in (unit.content, speaker_line(unit)) if text}


@dataclass
class Corpus:
    """LoCoMo anchored once, its unique texts embedded once."""

    conversations: list[Conversation]
    units: list[list[MemoryUnit]]  # per conversation, as the rule anchorer makes them
    vectors: dict[str, np.ndarray]  # text -> unit-length vector

    @classmethod
    def load(cls, path: Path, embed: bool = True, cache: Path | None = None) -> Corpus:
        """Anchor the file; with ``embed``, embed its texts (or read them from ``cache``,
        an ``.npz`` this method writes when it is absent, outside the repository)."""
        conversations = load_conversations(path)
        anchorer = RuleAnchorer()
        units = [Segmenter().segment(anchorer.anchor(c, c.id)) for c in conversations]
        texts = sorted({t for group in units for u in group for t in texts_of(u)})
        vectors: dict[str, np.ndarray] = {}
        if embed and cache is not None and cache.is_file():
            stored = np.load(cache)
            vectors = dict(zip(texts, stored["vectors"], strict=True))
        elif embed:
            matrix = default_embedder().embed(texts)
            vectors = dict(zip(texts, matrix, strict=True))
            if cache is not None:
                np.savez(cache, vectors=matrix)
        return cls(conversations, units, vectors)

    @property
    def size(self) -> int:
        return sum(len(group) for group in self.units)

    def copies(
        self, total: int, seed: int = 0
    ) -> Iterator[tuple[list[MemoryUnit], dict[str, np.ndarray]]]:
        """``total`` memories as (units of one namespace, text -> vector), copy after copy.

        Copy ``c`` takes conversation ``c % 5``, renames its speakers and shifts its dates by
        ``c * SHIFT``; its namespace is ``ns-<c>``. Each text's vector is its original's plus
        noise, re-normalised.
        """
        rng = np.random.default_rng(seed)
        made, copy = 0, 0
        while made < total:
            source = self.units[copy % len(self.units)][: total - made]
            conversation = self.conversations[copy % len(self.conversations)]
            table: dict[str, np.ndarray] = {}
            units = []
            for unit in source:
                moved = synth(unit, conversation.speakers, copy)
                units.append(moved)
                for old, new in (
                    (unit.content, moved.content),
                    (speaker_line(unit), speaker_line(moved)),
                ):
                    if old is not None and new is not None and new not in table:
                        noisy = self.vectors[old] + rng.normal(0.0, NOISE, 384)
                        table[new] = (noisy / np.linalg.norm(noisy)).astype(np.float32)
            yield units, table
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
        restatement=name(unit.restatement) if unit.restatement else None,
        context=context,
        namespace=namespace,
    )


class QuestionPool:
    """Questions about the copies (namespaces), never the same text twice from one pool.

    Three kinds: ``time`` names a speaker of the copy and a month in which it has sessions
    (a grounded time and person condition); ``person`` names a speaker only; ``plain`` names
    neither (nothing to ground). A text is never handed out twice, so a query cache on any side
    never answers a timed call: every call embeds its question.
    """

    def __init__(self, corpus: Corpus, seed: int = 0) -> None:
        self.corpus = corpus
        self.rng = random.Random(seed)
        self.used: set[str] = set()

    def candidates(self, copy: int, kind: str) -> list[str]:
        conversation = self.corpus.conversations[copy % len(self.corpus.conversations)]
        people = list(renames(conversation.speakers, copy).values())
        if kind == "time":
            months = {(s.start + SHIFT * copy).strftime("%B %Y") for s in conversation.sessions}
            bases = [t.format(p=p, month=m) for t in TIME_QUESTIONS for p in people for m in months]
        elif kind == "person":
            bases = [t.format(p=p) for t in PERSON_QUESTIONS for p in people]
        else:
            bases = list(PLAIN_QUESTIONS)
        texts = [f"{o}{b}" if o else b[0].upper() + b[1:] for o in OPENINGS for b in bases]
        return sorted(set(texts) - self.used)

    def take(self, copies: Sequence[int], kind: str, per_copy: int) -> list[dict[str, str]]:
        """``per_copy`` new questions of ``kind`` for each copy, copies interleaved."""
        chosen: list[list[dict[str, str]]] = []
        for copy in copies:
            texts = self.candidates(copy, kind)
            if len(texts) < per_copy:
                raise SystemExit(f"only {len(texts)} unused {kind} questions left for copy {copy}")
            picked = self.rng.sample(texts, per_copy)
            self.used.update(picked)
            ns = namespace_of(copy)
            chosen.append([{"namespace": ns, "kind": kind, "query": q} for q in picked])
        return [q for row in zip(*chosen, strict=True) for q in row]


# --- embedders and the systems compared ----------------------------------------------------------


class TableEmbedder:
    """An Embedder that returns precomputed vectors for known texts and embeds the rest.

    Used to write synthesised memories without re-embedding them; queries (not in the table)
    go through the real offline embedder, so query latency includes the embedding.
    ``embedded`` counts the texts embedded for real (the proof that no query was served
    from a cache).
    """

    def __init__(self, real: Any | None = None) -> None:
        self.real = real or default_embedder()
        self.name = f"table+{self.real.name}"
        self.dimension = self.real.dimension
        self.table: dict[str, np.ndarray] = {}
        self.embedded = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        unknown = [i for i, t in enumerate(texts) if t not in self.table]
        for i, text in enumerate(texts):
            if text in self.table:
                out[i] = self.table[text]
        if unknown:
            out[unknown] = self.real.embed([texts[i] for i in unknown])
            self.embedded += len(unknown)
        return out


def langchain_embeddings(embedder: Any) -> Any:
    """Our embedder as a LangChain ``Embeddings`` (what a LangChain user would pass)."""
    from langchain_core.embeddings import Embeddings

    class Wrapped(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return embedder.embed(texts).tolist()  # type: ignore[no-any-return]

        def embed_query(self, text: str) -> list[float]:
            return embedder.embed([text])[0].tolist()  # type: ignore[no-any-return]

    return Wrapped()


class LangchainSides:
    """The two langchain-chroma set-ups RaMem is compared with, over one chromadb client.

    ``lc_one``: one collection holding every namespace, searched with a namespace filter (what
    most users run). ``lc_per_ns``: a collection per namespace (the best a user could set up by
    hand), the ``Chroma`` objects kept open.
    """

    def __init__(self, client_one: Any, client_per_ns: Any, embedder: Any) -> None:
        self.embeddings = langchain_embeddings(embedder)
        self.client_one, self.client_per_ns = client_one, client_per_ns
        self._one: Any = None
        self.per_ns: dict[str, Any] = {}

    @property
    def one(self) -> Any:
        if self._one is None:
            self._one = self._chroma("langchain", self.client_one)
        return self._one

    def _chroma(self, name: str, client: Any) -> Any:
        from langchain_chroma import Chroma

        return Chroma(
            collection_name=name,
            embedding_function=self.embeddings,
            client=client,
            collection_configuration={"hnsw": {"space": "cosine"}},
        )

    def collection(self, namespace: str) -> Any:
        if namespace not in self.per_ns:
            self.per_ns[namespace] = self._chroma(f"lc-{namespace}", self.client_per_ns)
        return self.per_ns[namespace]

    def add(self, side: str, units: Sequence[MemoryUnit]) -> None:
        """Write one namespace's memories: verbatim text, the same metadata RaMem keeps."""
        store = self.one if side == "lc_one" else self.collection(units[0].namespace)
        store.add_texts(
            [u.content for u in units],
            metadatas=[u.to_metadata() for u in units],
            ids=[u.id for u in units],
        )

    def search_one(self, q: dict[str, str]) -> Any:
        return self.one.similarity_search(q["query"], k=K, filter={"namespace": q["namespace"]})

    def search_per_ns(self, q: dict[str, str]) -> Any:
        return self.collection(q["namespace"]).similarity_search(q["query"], k=K)


def write_all(
    corpus: Corpus,
    size: int,
    mem: Any,
    lc: LangchainSides,
    embedder: TableEmbedder,
    sides: Sequence[str] = SIDES,
) -> tuple[dict[str, float], int]:
    """Write ``size`` synthesised memories into each of ``sides``, namespace by namespace, the
    sides' order rotating: seconds spent per side, and the number of namespaces."""
    sides = tuple(sides)
    writes = dict.fromkeys(sides, 0.0)
    copies = 0
    for units, table in corpus.copies(size):
        embedder.table = table
        turn = copies % len(sides)
        for side in sides[turn:] + sides[:turn]:
            start = time.perf_counter()
            if side == "ramem":
                mem.add_memories(units)
            else:
                lc.add(side, units)
            writes[side] += time.perf_counter() - start
        copies += 1
        if copies % 20 == 0:
            say(f"   written {copies} namespaces")
    embedder.table = {}
    return writes, copies


def ramem_runner(mem: Any) -> Callable[[dict[str, str]], Any]:
    def run(q: dict[str, str]) -> Any:
        return mem.retrieve(q["query"], q["namespace"], K)

    return run


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
    cases: Sequence[Any], runners: dict[str, Callable[[Any], Any]]
) -> dict[str, list[float]]:
    """Time each runner on each case, case by case, the runners' order rotating each case
    (so none always runs first or last: fair under noise and CPU cache effects)."""
    names = list(runners)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for i, case in enumerate(cases):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            samples[name].append(timed(lambda run=runners[name], case=case: run(case)))
    return samples


def compare(samples: dict[str, list[float]], base: str = "ramem") -> dict[str, Any]:
    """Percentiles per side, and ``base``'s p50 and p95 over each other side's."""
    stats: dict[str, Any] = {name: percentiles(s) for name, s in samples.items()}
    for name in samples:
        if name != base:
            for p in ("p50", "p95"):
                stats[f"ratio_{p}_{name}"] = ratio(stats[base][f"{p}_ms"], stats[name][f"{p}_ms"])
    return stats


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


def commit() -> str:
    """The checked-out commit (short hash, ``+dirty`` when the tree has changes)."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def machine() -> dict[str, Any]:
    import chromadb

    return {
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "chromadb": chromadb.__version__,
    }


def command() -> str:
    """This process's command line, the script's path relative to the repository."""
    script = Path(sys.argv[0]).resolve()
    name = script.relative_to(ROOT).as_posix() if script.is_relative_to(ROOT) else sys.argv[0]
    return " ".join(["python", name, *sys.argv[1:]])


def provenance() -> dict[str, Any]:
    """What a figure needs beside it: commit, date, load, the command that made it."""
    return {
        "commit": commit(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_avg_start": round(os.getloadavg()[0], 2),
        "command": command(),
    }


def write_result(name: str, payload: dict[str, Any], started: dict[str, Any] | None = None) -> Path:
    """Write ``results/<name>.json``: the figures, the machine and ``started`` (the
    provenance taken when the run began; taken now when not given)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    run = {**(started or provenance()), "load_avg_end": round(os.getloadavg()[0], 2)}
    payload = {"benchmark": name, "run": run, "machine": machine(), **payload}
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    return path


def ratio(a: float, b: float) -> float:
    return round(a / b, 3) if b else float("nan")


def say(*parts: Any) -> None:
    """Progress, on stderr (stdout carries a worker's JSON)."""
    print(*parts, file=sys.stderr, flush=True)
