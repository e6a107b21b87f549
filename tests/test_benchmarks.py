"""The benchmark harness's own pieces (benchmarks/): questions, fairness, ratios, the summary."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

import common  # noqa: E402
import summary  # noqa: E402

from ramem_integrations.memory.embedding import speaker_line  # noqa: E402

DEMO = Path(__file__).resolve().parent.parent / "ramem_integrations" / "data"


@pytest.fixture(scope="module")
def corpus() -> common.Corpus:
    return common.Corpus.load(DEMO / "demo_conversation.json", embed=False)


def test_a_pool_never_hands_out_a_question_twice(corpus: common.Corpus) -> None:
    pool = common.QuestionPool(corpus, seed=3)
    taken = [q for _ in range(4) for kind in common.KINDS for q in pool.take([0, 1, 2], kind, 5)]
    texts = [q["query"] for q in taken]
    assert len(texts) == len(set(texts)) == 4 * 3 * 3 * 5
    assert {q["namespace"] for q in taken} == {"ns-00000", "ns-00001", "ns-00002"}


@pytest.mark.parametrize("kind", common.KINDS)
def test_questions_name_the_copys_people_and_months(corpus: common.Corpus, kind: str) -> None:
    people = set(common.renames(corpus.conversations[0].speakers, 2).values())
    months = {
        (s.start + 2 * common.SHIFT).strftime("%B %Y") for s in corpus.conversations[0].sessions
    }
    for q in common.QuestionPool(corpus).take([2], kind, 10):
        named = {p for p in people if p in q["query"]}
        dated = {m for m in months if m in q["query"]}
        assert q["kind"] == kind and q["namespace"] == "ns-00002"
        assert (len(named), len(dated)) == {"time": (1, 1), "person": (1, 0), "plain": (0, 0)}[kind]


def test_a_pool_says_when_it_runs_out(corpus: common.Corpus) -> None:
    pool = common.QuestionPool(corpus)
    pool.take([0], "plain", len(common.PLAIN_QUESTIONS) * len(common.OPENINGS))
    with pytest.raises(SystemExit, match="only 0 unused plain questions"):
        pool.take([1], "plain", 1)  # plain questions name no one: shared by every copy


def test_copies_rename_people_everywhere_and_carry_a_vector_per_text(
    corpus: common.Corpus,
) -> None:
    texts = {t for group in corpus.units for u in group for t in common.texts_of(u)}
    corpus.vectors = {t: np.ones(384, dtype=np.float32) / np.sqrt(384) for t in texts}
    (units, table), (later, _) = list(corpus.copies(corpus.size + 3))
    assert len(units) == corpus.size and len(later) == 3
    assert {u.namespace for u in units} == {"ns-00000"}
    for unit in units:
        assert "Sam" not in unit.search_text and "Alice" not in unit.content
        line = speaker_line(unit)
        assert line is not None and "Sam" not in line
        assert np.isclose(np.linalg.norm(table[line]), 1.0, atol=1e-5)
        assert unit.content in table


def test_the_table_embedder_counts_what_it_embeds_for_real() -> None:
    class Real:
        name, dimension = "fake", 384

        def embed(self, texts: list[str]) -> np.ndarray:
            return np.full((len(texts), 384), 0.5, dtype=np.float32)

    embedder = common.TableEmbedder(Real())
    embedder.table = {"known": np.zeros(384, dtype=np.float32)}
    out = embedder.embed(["known", "new", "other"])
    assert embedder.embedded == 2
    assert out[0].sum() == 0 and out[1][0] == out[2][0] == 0.5


def test_interleaving_rotates_which_side_goes_first() -> None:
    calls: list[str] = []
    runners = {name: (lambda case, name=name: calls.append(name)) for name in ("a", "b", "c")}
    samples = common.interleaved(range(3), runners)
    assert calls == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]
    assert {name: len(s) for name, s in samples.items()} == {"a": 3, "b": 3, "c": 3}


def test_compare_gives_the_base_over_each_other_side() -> None:
    stats = common.compare({"ramem": [10.0, 12.0, 14.0], "lc_one": [5.0, 6.0, 7.0]})
    assert stats["ramem"]["p50_ms"] == 12.0 and stats["lc_one"]["p50_ms"] == 6.0
    assert (stats["ratio_p50_lc_one"], stats["ratio_p95_lc_one"]) == (2.0, 2.0)


def stats(ramem: float, one: float, per_ns: float) -> dict[str, Any]:
    out: dict[str, Any] = {
        side: {"p50_ms": ms, "p95_ms": 2 * ms, "queries_per_s": 1000 / ms}
        for side, ms in (("ramem", ramem), ("lc_one", one), ("lc_per_ns", per_ns))
    }
    for side in ("lc_one", "lc_per_ns"):
        out[f"ratio_p50_{side}"] = round(ramem / out[side]["p50_ms"], 3)
        out[f"ratio_p95_{side}"] = round(ramem / out[side]["p50_ms"], 3)
    return out


def test_the_summary_tables_mark_the_targets_met(tmp_path: Path, monkeypatch: Any) -> None:
    run = {"commit": "abc1234", "date": "2026-11-30 16:00 UTC", "command": "python x.py"}
    run |= {"load_avg_start": 1.0, "load_avg_end": 1.5}
    sizes = {
        size: {
            "size": size,
            "namespaces": size // 500,
            "latency": {k: stats(10.0 * f, 10.0, 9.0) for k in common.KINDS},
            "cold_first_query": {s: {"p50_ms": 20.0, "p95_ms": 30.0} for s in common.SIDES},
            "questions_grounded": {"time": "8/8"},
            "served_without_embedding": {"ramem": 0},
            "resources": {
                s: {
                    "rss_mb_before_store": 250.0,
                    "rss_mb_after_queries": 400.0,
                    "rss_mb_store": 150.0,
                    "disk_mb": 40.0,
                    "disk_mb_per_100k": 400.0,
                }
                for s in common.SIDES
            },
        }
        for size, f in ((1000, 1.0), (100_000, 1.6))
    }
    growth = {
        "base_size": 1000,
        "100000": {
            "ramem": dict.fromkeys(common.KINDS, 1.4),
            "lc_per_ns": dict.fromkeys(common.KINDS, 1.3),
        },
        "interleaved": {"100000": {s: dict.fromkeys(common.KINDS, 1.6) for s in common.SIDES}},
    }
    result = {"run": run, "machine": {"cpus": 2}, "runs": list(sizes.values()), "growth": growth}
    monkeypatch.setattr(summary, "load", lambda name: result if name == "scale" else None)
    text = summary.render("suite line")
    assert "suite line" in text and "commit `abc1234`" in text and "`python x.py`" in text
    assert "| 1,000 | 2 | time | 10.0 / 20.0 | 10.0 / 20.0 | 9.0 / 18.0 | **1.00** / 1.00 |" in text
    assert "| 100,000 | 200 | time | 16.0 / 32.0 | 10.0 / 20.0 | 9.0 / 18.0 | 1.60 / 1.60 |" in text
    assert "| time | **1.40** | 1.30 |" in text  # timed apart: RaMem within the 1.5 target
    assert "| time | 1.60 | 1.60 | 1.60 |" in text  # interleaved, 1.6 misses it: not bold
    assert "| 100,000 | collection per namespace | 250 | 400 | 150 | 40.0 | 400 |" in text


def test_a_side_left_out_of_a_run_shows_as_not_run(monkeypatch: Any) -> None:
    """``bench_scale.py --sides ramem`` (the 1M run): RaMem's figures and growth, the rest
    marked as not run, and no interleaved table (nothing interleaved with it)."""
    run = {"commit": "abc1234", "date": "2026-11-30 16:00 UTC", "command": "python x.py"}
    only = {"p50_ms": 8.0, "p95_ms": 12.0}
    runs = [
        {
            "size": size,
            "namespaces": size // 500,
            "latency": {k: {"ramem": only} for k in common.KINDS},
            "cold_first_query": {"ramem": only},
            "questions_grounded": {"time": "8/8"},
            "served_without_embedding": {"ramem": 0},
            "resources": {
                "ramem": {
                    "rss_mb_before_store": 250.0,
                    "rss_mb_after_queries": 400.0,
                    "rss_mb_store": 150.0,
                    "disk_mb": 40.0,
                    "disk_mb_per_100k": 400.0,
                }
            },
        }
        for size in (1000, 1_000_000)
    ]
    growth = {
        "base_size": 1000,
        "1000000": {"ramem": dict.fromkeys(common.KINDS, 1.9)},
        "interleaved": {"1000000": {"ramem": dict.fromkeys(common.KINDS, 1.9)}},
    }
    result = {
        "run": run,
        "machine": {"cpus": 2},
        "sides": ["ramem"],
        "runs": runs,
        "growth": growth,
    }
    monkeypatch.setattr(summary, "load", lambda name: result if name == "scale_large" else None)
    text = summary.render()
    row = "| 1,000,000 | 2,000 | time | 8.0 / 12.0 | not run | not run | not run | not run |"
    assert row in text
    assert "| time | **1.90** |" in text  # RaMem 1M / 1k within the 2.0 target
    assert "interleaved" not in text
    assert "| 1,000,000 | RaMem | 250 | 400 | 150 | 40.0 | 400 |" in text
    assert "one collection | 250" not in text


def test_a_result_records_its_commit_date_load_and_command(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import json

    monkeypatch.setattr(common, "RESULTS", tmp_path)
    monkeypatch.setattr(sys, "argv", [str(BENCH / "bench_scale.py"), "--sizes", "1000"])
    common.write_result("scale", {"runs": []})
    saved = json.loads((tmp_path / "scale.json").read_text(encoding="utf-8"))
    assert saved["benchmark"] == "scale" and saved["runs"] == []
    assert saved["run"]["command"] == "python benchmarks/bench_scale.py --sizes 1000"
    assert len(saved["run"]["commit"].split("+")[0]) >= 7
    assert {"date", "load_avg_start", "load_avg_end"} <= set(saved["run"])
