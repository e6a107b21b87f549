"""Run systems side by side on one dataset and collect the metrics as stable JSON.

Ingestion is cached: the store lives under ``<cache root>/<key>``, the key a sha256 of the data
file's bytes, the anchorer's name, the embedder's name, the package version and the source of
every module on the write path (:func:`write_path`); a second run finds every conversation
already stored (a manifest records each namespace's count) and only re-ranks. The cache root is
``--cache DIR``, else ``$RAMEM_CACHE_DIR``, else ``~/.cache/ramem/eval``.

Runs repeat exactly: dense search is exact (the memory's own NumPy ranking), ablation copies live
in stores of their own, and the intervals are seeded (:mod:`~.stats`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from ramem_integrations import __version__
from ramem_integrations.core.prompts import render_memories
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.evaluation import importgraph, metrics, stats
from ramem_integrations.evaluation.answers import answer
from ramem_integrations.evaluation.budget import (
    BUDGET_DEPTH,
    DEFAULT_BUDGETS,
    BudgetScores,
    asked_on,
)
from ramem_integrations.evaluation.confusable import distractor_sets
from ramem_integrations.evaluation.context import Answerability
from ramem_integrations.evaluation.datasets import RETRIEVAL_CATEGORIES, Dataset, Question
from ramem_integrations.evaluation.results import (
    ByCategory,
    ByK,
    EvalResult,
    Paired,
    QuestionResult,
    SystemResult,
)
from ramem_integrations.evaluation.systems import FLAT_PROMPT_SYSTEMS
from ramem_integrations.evaluation.variants import System
from ramem_integrations.memory.questions import UngroundedTimeWarning
from ramem_integrations.models.tokens import default_counter

if TYPE_CHECKING:
    from ramem_integrations.memory.ramem import RaMem
    from ramem_integrations.models.embeddings import EmbedderLike
    from ramem_integrations.models.llm import LLM

logger = logging.getLogger(__name__)

MANIFEST = "ingested.json"
#: Per-K metrics of LongMemEval, on top of ``recall`` (session-level fraction covered).
LME_RECALLS = ("recall_any_session", "recall_all_session", "recall_any_turn", "recall_all_turn")


# -- ingestion cache ---------------------------------------------------------------------


def cache_root(override: str | Path | None = None) -> Path:
    """Where cached stores live: ``override``, ``$RAMEM_CACHE_DIR`` or ``~/.cache/ramem/eval``."""
    if override:
        return Path(override)
    env = os.environ.get("RAMEM_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "ramem" / "eval"


#: The modules whose code decides what is stored (read, anchored, embedded, written): the
#: writer and the loaders, and everything they import, read off the import graph. A change to
#: any of them makes a new cache.
WRITE_ROOTS = (
    "ramem_integrations.memory.writing",
    "ramem_integrations.core.conversation",
    "ramem_integrations.stores.chroma",  # the writer reaches it through the store protocol
)


def write_path() -> list[Path]:
    """The source files of :data:`WRITE_ROOTS` and every package module they import."""
    known = importgraph.modules()
    needed = importgraph.reachable(WRITE_ROOTS, importgraph.graph())
    return [known[name] for name in sorted(needed)]


def cache_key(data_path: str | Path, anchorer: str, embedder: str) -> str:
    """sha256 of the data bytes, anchorer and embedder names, package version, and the source
    of the write path's modules (so a changed rule never reuses a stale store)."""
    digest = hashlib.sha256(Path(data_path).read_bytes())
    for part in (anchorer, embedder, __version__):
        digest.update(b"\x00" + part.encode("utf-8"))
    for path in write_path():
        digest.update(b"\x00" + path.read_bytes())
    return digest.hexdigest()[:24]


def ingest(mem: RaMem, dataset: Dataset, directory: Path, *, progress: bool = True) -> int:
    """Add every conversation not yet stored; returns how many were added."""
    manifest_path = directory / MANIFEST
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    added = 0
    bar = tqdm(dataset.conversations, desc="ingest", unit="conv", disable=not progress)
    for conversation in bar:
        namespace = conversation.id
        if manifest.get(namespace) and manifest[namespace] == mem.count(namespace):
            continue
        mem.add_conversation(conversation, namespace)
        manifest[namespace] = mem.count(namespace)
        added += 1
        tmp = manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True))
        tmp.replace(manifest_path)
    return added


# -- scoring -----------------------------------------------------------------------------

Scores = dict[str, dict[str, dict[str, list[float]]]]  # metric -> K -> category -> values


@dataclass
class SystemScores:
    """Values collected for one system, averaged by :meth:`summary`."""

    per_k: Scores = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    )
    d_at_1: list[float] = field(default_factory=list)
    rank_gap: list[float] = field(default_factory=list)
    f1: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    #: K -> recall of each retrieval question, in question order (for intervals and tests).
    recall_by_question: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))

    def add(self, metric: str, k: int, category: str, value: float) -> None:
        self.per_k[metric][str(k)][category].append(value)
        if metric == "recall":
            self.recall_by_question[str(k)].append(value)


def _by_category(values: dict[str, list[float]], categories: Sequence[str]) -> ByCategory:
    out: ByCategory = {c: metrics.mean(values.get(c, [])) for c in categories}
    out["all"] = metrics.mean(v for c in categories for v in values.get(c, []))
    return out


class Evaluation:
    """Scores systems on a dataset's questions over one shared store."""

    def __init__(
        self,
        dataset: Dataset,
        mem: RaMem,
        systems: dict[str, System],
        ks: Sequence[int],
        *,
        llm: LLM | None = None,
        answer_k: int | None = None,
        budgets: Sequence[int] = (),
    ) -> None:
        self.dataset, self.mem, self.systems = dataset, mem, systems
        self.ks = sorted(set(ks))
        self.depth = self.ks[-1]
        self.llm = llm
        self.answer_k = answer_k or (10 if 10 in self.ks else self.depth)
        self.counter = default_counter()
        is_locomo = dataset.name == "locomo"
        self.categories = RETRIEVAL_CATEGORIES if is_locomo else dataset.categories
        self.answer_categories = tuple(dataset.categories) if is_locomo else self.categories
        self.retrieval_questions = [
            q for q in dataset.questions if q.category in self.categories and q.evidence_sessions
        ]
        self._retrieval_ids = {q.id for q in self.retrieval_questions}
        self.distractors = distractor_sets(dataset.conversations, self.retrieval_questions)
        self.scores = {name: SystemScores() for name in systems}
        by_session = dataset.name != "locomo"
        self.budgets = BudgetScores(budgets, self.counter.count, by_session=by_session)

    def questions(self) -> list[Question]:
        """The questions to run: retrieval ones, plus the answer-only ones when answering."""
        if self.llm is None:
            return self.retrieval_questions
        return [q for q in self.dataset.questions if q.category in self.answer_categories]

    def run(self, *, progress: bool = True) -> None:
        questions = self.questions()
        total = len(questions) * len(self.systems)
        with (
            tqdm(total=total, desc="retrieve", unit="q", disable=not progress) as bar,
            warnings.catch_warnings(),
        ):
            # undated dataset questions: their relative times are dropped by design
            warnings.simplefilter("ignore", UngroundedTimeWarning)
            for question in questions:
                answerability = Answerability.of(question.answer, question.reference)
                asked = question.asked  # all a system sees: no answer, category or evidence
                for name, system in self.systems.items():
                    hits = system(self.mem, asked, self.depth)
                    flat = name in FLAT_PROMPT_SYSTEMS
                    self._score(self.scores[name], question, hits, answerability, flat=flat)
                    if self.budgets.budgets and question.id in self._retrieval_ids:
                        deep = system(self.mem, asked, BUDGET_DEPTH)
                        self.budgets.add(name, question, deep)
                    bar.update()

    def _token_count(self, units: Sequence[MemoryUnit]) -> int:
        """Tokens of ``units`` as the one renderer shows them together (grouped by episode)."""
        return self.counter.count([render_memories(units)])[0] if units else 0

    def _score(
        self,
        scores: SystemScores,
        q: Question,
        hits: list[ScoredMemory],
        able: Answerability,
        *,
        flat: bool = False,
    ) -> None:
        units = [h.memory for h in hits]
        if q.id in self._retrieval_ids:
            self._score_retrieval(scores, q, units, able)
        if self.llm is not None:
            frame = self.mem.frame(q.text, q.namespace, reference=q.asked.asked_at)
            predicted = answer(self.llm, q, units[: self.answer_k], frame=frame, flat=flat)
            scores.f1[q.category].append(metrics.locomo_f1(predicted, q.answer, q.category))

    def _score_retrieval(
        self, scores: SystemScores, q: Question, units: list[MemoryUnit], able: Answerability
    ) -> None:
        cat = q.category
        turns = [u.source_ids for u in units]
        sessions = [(u.context.session_id,) for u in units]
        for k in self.ks:
            got_turns = {t for ids in turns[:k] for t in ids}
            got_sessions = {s for ids in sessions[:k] for s in ids}
            scores.add("tokens", k, cat, self._token_count(units[:k]))
            if able.scorable:
                scores.add("answerable", k, cat, float(able.check(units[:k])))
            if self.dataset.name == "locomo":
                scores.add("recall", k, cat, metrics.recall(q.evidence_turns, got_turns))
                continue
            evidence = q.evidence_sessions
            scores.add("recall", k, cat, metrics.recall(evidence, got_sessions))
            scores.add("recall_any_session", k, cat, metrics.recall_any(evidence, got_sessions))
            scores.add("recall_all_session", k, cat, metrics.recall_all(evidence, got_sessions))
            if q.evidence_turns:
                truth = q.evidence_turns
                scores.add("recall_any_turn", k, cat, metrics.recall_any(truth, got_turns))
                scores.add("recall_all_turn", k, cat, metrics.recall_all(truth, got_turns))
        distractors = self.distractors.get(q.id)
        if distractors:
            evidence_turns = set(q.evidence_turns)
            scores.d_at_1.append(metrics.distractor_at_1(turns, evidence_turns, set(distractors)))
            scores.rank_gap.append(
                metrics.rank_gap(turns, evidence_turns, set(distractors), self.depth)
            )

    # -- summary -------------------------------------------------------------------------
    def summary(self) -> dict[str, SystemResult]:
        out = {name: self._system_summary(s) for name, s in self.scores.items()}
        baseline = self.scores.get(BASELINE)
        if baseline is not None:
            for name, s in self.scores.items():
                if name != BASELINE:
                    out[name]["vs_content"] = {
                        k: _as_dict(stats.paired_test(values, baseline.recall_by_question[k]))
                        for k, values in s.recall_by_question.items()
                    }
                    out[name]["vs_content_at_tokens"] = self._paired_at_tokens(name)
        for name, summary in out.items():
            summary["recall_at_tokens"] = self.budgets.summary(name, self.categories)
        return out

    def per_question(self) -> list[QuestionResult]:
        """Each retrieval question's recall by every system, at each K and within each budget."""
        out: list[QuestionResult] = []
        for at, q in enumerate(self.retrieval_questions):
            by_k = {
                name: {str(k): s.recall_by_question[str(k)][at] for k in self.ks}
                for name, s in self.scores.items()
            }
            by_budget = {
                name: {str(b): self.budgets.by_question[name][b][at] for b in self.budgets.budgets}
                for name in self.scores
            }
            out.append(
                {
                    "id": q.id,
                    "conversation": q.namespace,
                    "category": q.category,
                    "recall": by_k,
                    "recall_at_tokens": by_budget,
                }
            )
        return out

    def _paired_at_tokens(self, name: str) -> dict[str, Paired | None]:
        """The paired test of ``name`` against content within each token budget."""
        ours, theirs = self.budgets.by_question[name], self.budgets.by_question[BASELINE]
        return {
            str(b): _as_dict(stats.paired_test(ours[b], theirs[b])) for b in self.budgets.budgets
        }

    def _by_k(self, s: SystemScores, metric: str) -> ByK:
        return {str(k): _by_category(s.per_k[metric][str(k)], self.categories) for k in self.ks}

    def _system_summary(self, s: SystemScores) -> SystemResult:
        cats = self.categories
        out: SystemResult = {
            "recall": self._by_k(s, "recall"),
            "tokens": {k: row["all"] for k, row in self._by_k(s, "tokens").items()},
            "answerable": self._by_k(s, "answerable"),
            "confusable": {
                "n": len(s.d_at_1),
                "d_at_1": metrics.mean(s.d_at_1),
                "rank_gap": metrics.mean(s.rank_gap),
            },
            "f1": None,
            "ci95": {k: _pair(stats.bootstrap_ci(v)) for k, v in s.recall_by_question.items()},
        }
        if self.dataset.name != "locomo":
            out["recall_any_session"] = self._by_k(s, "recall_any_session")
            out["recall_all_session"] = self._by_k(s, "recall_all_session")
            out["recall_any_turn"] = self._by_k(s, "recall_any_turn")
            out["recall_all_turn"] = self._by_k(s, "recall_all_turn")
        if self.llm is not None:
            f1 = {c: metrics.mean(s.f1.get(c, [])) for c in self.answer_categories}
            f1["all"] = metrics.mean(v for c in cats for v in s.f1.get(c, []))
            out["f1"] = f1
        return out


#: The system every other is compared with, question by question.
BASELINE = "content"


def _as_dict(test: stats.PairedTest | None) -> Paired | None:
    if test is None:
        return None
    return {"n": test.n, "diff": test.diff, "ci95": list(test.ci95), "p": test.p}


def _pair(interval: tuple[float, float] | None) -> list[float] | None:
    return list(interval) if interval is not None else None


# -- the whole run -----------------------------------------------------------------------


@dataclass
class RunConfig:
    """What ``ramem eval`` was asked to do."""

    dataset: str
    path: Path
    systems: dict[str, System]
    ks: list[int]
    limit: int | None = None
    conversations: tuple[str, ...] = ()
    cache: Path | None = None
    progress: bool = True
    answer_k: int | None = None
    budgets: Sequence[int] = DEFAULT_BUDGETS
    asked_on: str | None = None


def run_evaluation(
    config: RunConfig,
    *,
    embedder: EmbedderLike | None = None,
    llm: LLM | None = None,
    llm_name: str = "",
) -> EvalResult:
    """Load, ingest (cached), retrieve with every system, score; returns the JSON result."""
    from ramem_integrations.core.anchoring import RuleAnchorer
    from ramem_integrations.evaluation.datasets import load_dataset
    from ramem_integrations.memory.ramem import RaMem
    from ramem_integrations.models.embeddings import as_embedder, default_embedder

    if llm is not None:
        metrics.porter_stem()  # answer F1's stemmer is there before anything is ingested
    started = time.perf_counter()
    loaded = load_dataset(config.dataset, config.path)
    dataset = loaded.only(config.conversations).limited(config.limit)
    dataset = asked_on(dataset, config.asked_on)
    chosen = as_embedder(embedder) if embedder is not None else default_embedder()
    anchorer = RuleAnchorer()
    directory = cache_root(config.cache) / cache_key(config.path, anchorer.name, chosen.name)
    directory.mkdir(parents=True, exist_ok=True)
    mem = RaMem.from_path(directory, embedder=chosen, anchorer=anchorer)
    added = ingest(mem, dataset, directory, progress=config.progress)
    ingested = time.perf_counter()
    evaluation = Evaluation(
        dataset,
        mem,
        config.systems,
        config.ks,
        llm=llm,
        answer_k=config.answer_k,
        budgets=config.budgets,
    )
    evaluation.run(progress=config.progress)
    finished = time.perf_counter()
    return {
        "dataset": dataset.name,
        "k": evaluation.ks,
        "systems": evaluation.summary(),
        "questions": evaluation.per_question(),
        "evidence_issues": dataset.issues.as_dict(),
        "meta": {
            "data": str(config.path),
            "conversations": len(dataset.conversations),
            "conversation_ids": [c.id for c in dataset.conversations],
            "questions": _count_by_category(evaluation.retrieval_questions),
            "questions_total": len(dataset.questions),
            "confusable_definition": "see docs/evaluation.md#context-confusable-subset",
            "categories": list(evaluation.categories),
            "tokenizer": evaluation.counter.name,
            "budgets": list(evaluation.budgets.budgets),
            "asked_on": config.asked_on or "as the data says",
            "embedder": chosen.name,
            "anchorer": anchorer.name,
            "answers": f"model {llm_name}, top {evaluation.answer_k}"
            if llm
            else "skipped: no LLM configured (--llm MODEL or RAMEM_LLM_MODEL)",
            "stemmer": metrics.STEMMER,
            "search": "exact (cosine over every vector of the namespace)",
            "ci95": f"percentile bootstrap over questions, {stats.RESAMPLES} resamples, "
            f"seed {stats.SEED}; vs_{BASELINE}: paired sign-flip test, same seed",
            "cache": str(directory),
            "conversations_ingested": added,
            "seconds": {
                "ingest": round(ingested - started, 1),
                "retrieve": round(finished - ingested, 1),
                "total": round(finished - started, 1),
            },
        },
    }


def _count_by_category(questions: Sequence[Question]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for q in questions:
        counts[q.category] += 1
    return dict(sorted(counts.items()))
