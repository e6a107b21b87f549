"""The runner, the report and the CLI on tiny fixtures (real Chroma, fake embedder)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ramem_integrations.errors import InvalidInputError, MissingDependencyError
from ramem_integrations.evaluation import metrics, runner
from ramem_integrations.evaluation.cli import main, summary_text
from ramem_integrations.evaluation.report import PLOT, markdown, write_report
from ramem_integrations.evaluation.runner import RunConfig, cache_key, cache_root, run_evaluation
from ramem_integrations.evaluation.systems import SYSTEMS, register, select
from ramem_integrations.testing import HashingEmbedder

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
LOCOMO_KEYS = {"1", "2", "3", "4", "all"}


def run(tmp_path: Path, dataset: str = "locomo", **kwargs: Any) -> dict[str, Any]:
    name = "locomo-tiny.json" if dataset == "locomo" else "longmemeval-tiny.json"
    config = RunConfig(
        dataset=dataset,
        path=kwargs.pop("path", FIXTURES / name),
        systems=kwargs.pop("systems", select("bm25,dense,content")),
        ks=[1, 3],
        cache=tmp_path / "cache",
        progress=False,
        **kwargs,
    )
    return run_evaluation(config, embedder=HashingEmbedder())


def test_locomo_result_has_the_stable_keys(tmp_path: Path) -> None:
    result = run(tmp_path)
    assert result["dataset"] == "locomo" and result["k"] == [1, 3]
    assert set(result["systems"]) == {"bm25", "dense", "content"}
    for scores in result["systems"].values():
        assert {"recall", "tokens", "answerable", "confusable", "f1"} <= set(scores)
        assert set(scores["recall"]) == {"1", "3"}
        assert set(scores["recall"]["3"]) == LOCOMO_KEYS
        assert set(scores["answerable"]["1"]) == LOCOMO_KEYS
        assert set(scores["confusable"]) == {"n", "d_at_1", "rank_gap"}
        assert scores["confusable"]["n"] == 1
        assert scores["f1"] is None
        assert 0 < scores["tokens"]["1"] < scores["tokens"]["3"]
        assert scores["recall"]["1"]["all"] <= scores["recall"]["3"]["all"]
    assert result["evidence_issues"]["malformed"] == 1
    assert result["meta"]["questions"] == {"1": 1, "2": 2, "3": 1, "4": 3}
    assert "skipped" in result["meta"]["answers"]
    json.dumps(result)  # serialisable as is


def test_bm25_finds_the_exact_words(tmp_path: Path) -> None:
    bm25 = run(tmp_path)["systems"]["bm25"]
    # 'violin' and 'Boston marathon' questions hit their evidence at K=1
    assert bm25["recall"]["3"]["4"] == 1.0


def test_second_run_only_reranks(tmp_path: Path) -> None:
    first = run(tmp_path)
    second = run(tmp_path)
    assert first["meta"]["conversations_ingested"] == 2
    assert second["meta"]["conversations_ingested"] == 0
    assert first["systems"] == second["systems"]


def test_limit(tmp_path: Path) -> None:
    result = run(tmp_path, limit=1)
    assert result["meta"]["conversations"] == 1
    assert result["systems"]["bm25"]["recall"]["3"]["all"] is not None


def test_cache_key_and_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = FIXTURES / "locomo-tiny.json"
    assert cache_key(data, "rule-v1", "a") != cache_key(data, "rule-v1", "b")
    assert cache_key(data, "rule-v1", "a") == cache_key(data, "rule-v1", "a")
    monkeypatch.setenv("RAMEM_CACHE_DIR", str(tmp_path / "env"))
    assert cache_root() == tmp_path / "env"
    assert cache_root(tmp_path / "flag") == tmp_path / "flag"


def test_longmemeval_adds_recall_any_all(tmp_path: Path) -> None:
    result = run(tmp_path, "longmemeval")
    scores = result["systems"]["content"]
    keys = {"knowledge-update", "multi-session", "all"}
    for metric in (*runner.LME_RECALLS, "recall", "answerable"):
        assert set(scores[metric]["3"]) == keys, metric
    # with 2-3 sessions per conversation, the top 3 memories cover at least one answer session
    assert scores["recall_any_session"]["3"]["all"] > 0


def test_registering_a_system(tmp_path: Path) -> None:
    def first_memory(mem: Any, question: Any, k: int) -> list[Any]:
        return mem.retrieve(question.text, question.namespace, 1, mode="bm25")

    register("first-bm25", first_memory)
    try:
        config = RunConfig(
            "locomo",
            FIXTURES / "locomo-tiny.json",
            select(["first-bm25"]),
            [1, 3],
            cache=tmp_path,
            progress=False,
        )
        result = run_evaluation(config, embedder=HashingEmbedder())
    finally:
        SYSTEMS.pop("first-bm25")
    scores = result["systems"]["first-bm25"]
    assert scores["recall"]["3"]["all"] == scores["recall"]["1"]["all"]


def test_report_files(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = run(tmp_path)
    path = write_report(result, tmp_path / "rep")
    text = path.read_text()
    assert "| content |" in text and "Evidence Recall@3" in text
    assert "Answers were skipped" in text
    assert (tmp_path / "rep" / PLOT).stat().st_size > 1000


def test_report_without_matplotlib_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    result = run(tmp_path)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    path = write_report(result, tmp_path / "rep")
    assert "pip install 'ramem-integrations[report]'" in path.read_text()
    assert not (tmp_path / "rep" / PLOT).exists()


def test_without_nltk_recall_is_measured_and_answers_are_refused_before_ingesting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Answer F1 always stems with nltk: without it, a run that scores answers is refused
    before anything is ingested, and a retrieval-only run (no F1) still works."""
    monkeypatch.setitem(sys.modules, "nltk.stem", None)  # as if nltk were not installed
    metrics.porter_stem.cache_clear()
    config = RunConfig(
        dataset="locomo",
        path=FIXTURES / "locomo-tiny.json",
        systems=select("bm25"),
        ks=[1],
        cache=tmp_path / "answers",
        progress=False,
    )
    try:
        with pytest.raises(MissingDependencyError, match=r"ramem-integrations\[eval\]"):
            run_evaluation(config, embedder=HashingEmbedder(), llm=object())  # type: ignore[arg-type]
        assert not (tmp_path / "answers").exists()
        assert run(tmp_path)["systems"]["bm25"]["f1"] is None
    finally:
        metrics.porter_stem.cache_clear()


def test_markdown_with_f1() -> None:
    f1 = {"1": 0.5, "2": 0.25, "3": None, "4": 1.0, "5": 1.0, "all": 0.6}
    scores = {
        "recall": {"5": {"1": 0.1, "2": 0.2, "3": None, "4": 0.4, "all": 0.3}},
        "tokens": {"5": 120.0},
        "answerable": {"5": {"1": 0.1, "2": 0.2, "3": None, "4": 0.4, "all": 0.3}},
        "confusable": {"n": 3, "d_at_1": 0.333, "rank_gap": -1.0},
        "f1": f1,
    }
    text = markdown({"dataset": "locomo", "k": [5], "systems": {"x": scores}, "meta": {}})
    assert "| x | 0.500 | 0.250 | - | 1.000 | 1.000 | 0.600 |" in text
    assert "| x | 3 | 0.333 | -1.00 |" in text


def test_cli_writes_json_and_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ramem_integrations.models.embeddings as embeddings

    monkeypatch.setattr(embeddings, "default_embedder", HashingEmbedder, raising=False)
    monkeypatch.delenv("RAMEM_LLM_MODEL", raising=False)
    out = tmp_path / "out.json"
    code = main(
        [
            "eval",
            "locomo",
            str(FIXTURES / "locomo-tiny.json"),
            "--systems",
            "bm25,content",
            "--k",
            "1,3",
            "--json",
            str(out),
            "--report",
            str(tmp_path / "rep"),
            "--cache",
            str(tmp_path / "cache"),
            "--no-progress",
        ]
    )
    assert code == 0
    result = json.loads(out.read_text())
    assert set(result["systems"]) == {"bm25", "content"}
    assert (tmp_path / "rep" / "report.md").exists()
    assert "Recall@K" in capsys.readouterr().out


def test_cli_rejects_unknown_system(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "eval",
            "locomo",
            str(FIXTURES / "locomo-tiny.json"),
            "--systems",
            "nope",
            "--cache",
            str(tmp_path),
        ]
    )
    assert code == 2
    assert "Unknown system" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(
    not (SHARED / "longmemeval_s_derived_3q.json").exists(), reason="shared samples absent"
)
@pytest.mark.parametrize(
    "name", ["longmemeval_s_derived_3q.json", "longmemeval_s_sample2_original_schema.json"]
)
def test_longmemeval_shared_samples(tmp_path: Path, name: str) -> None:
    result = run(tmp_path, "longmemeval", path=SHARED / name)
    assert result["systems"]["bm25"]["recall_any_session"]["3"]["all"] is not None


class ScriptedLLM:
    """Answers every question the same way, and records what it was shown."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.seen: list[Any] = []

    def chat(self, messages: list[dict[str, str]]) -> str:
        self.seen.append(messages)
        return self.reply

    def complete_json(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


def test_f1_with_a_model(tmp_path: Path) -> None:
    llm = ScriptedLLM("Not mentioned in the conversation")
    config = RunConfig(
        "locomo",
        FIXTURES / "locomo-tiny.json",
        select("bm25"),
        [1, 3],
        cache=tmp_path,
        progress=False,
        answer_k=2,
    )
    result = run_evaluation(config, embedder=HashingEmbedder(), llm=llm, llm_name="scripted")
    f1 = result["systems"]["bm25"]["f1"]
    assert set(f1) == {"1", "2", "3", "4", "5", "all"}
    assert f1["5"] == 1.0 and f1["all"] == 0.0
    assert len(llm.seen) == 9  # every question, adversarial included
    assert "[1] said " in llm.seen[0][1]["content"]
    assert "scripted" in result["meta"]["answers"]


def test_two_fresh_runs_give_identical_figures(tmp_path: Path) -> None:
    """Exact search, ablation copies apart, seeded intervals: the same data, the same JSON."""
    systems = "bm25,dense,content,ramem,context-shuffle"
    first = run(tmp_path / "one", systems=select(systems))
    again = run(tmp_path / "one", systems=select(systems))  # cached store
    fresh = run(tmp_path / "two", systems=select(systems))  # ingested anew
    assert first["systems"] == again["systems"] == fresh["systems"]


def test_json_carries_intervals_and_the_paired_test(tmp_path: Path) -> None:
    result = run(tmp_path)
    for name, scores in result["systems"].items():
        for k in ("1", "3"):
            lo, hi = scores["ci95"][k]
            assert lo <= scores["recall"][k]["all"] <= hi
        assert ("vs_content" in scores) == (name != "content")
    paired = result["systems"]["bm25"]["vs_content"]["3"]
    assert paired["n"] == sum(result["meta"]["questions"].values())
    assert 0 < paired["p"] <= 1
    assert "Uncertainty of Recall@K" in markdown(result)


def test_json_carries_the_paired_test_within_each_budget(tmp_path: Path) -> None:
    result = run(tmp_path, budgets=(40, 400))
    content = result["systems"]["content"]["recall_at_tokens"]
    assert "vs_content_at_tokens" not in result["systems"]["content"]
    for name in ("bm25", "dense"):
        scores = result["systems"][name]
        assert set(scores["vs_content_at_tokens"]) == {"40", "400"}
        for budget, paired in scores["vs_content_at_tokens"].items():
            # the mean per-question difference is the difference of the two recalls
            ours, theirs = scores["recall_at_tokens"][budget]["all"], content[budget]["all"]
            assert paired["diff"] == pytest.approx(ours - theirs, abs=1e-4)
            assert paired["n"] == sum(result["meta"]["questions"].values())
            assert paired["ci95"][0] <= paired["diff"] <= paired["ci95"][1]
    report = markdown(result)
    assert "## Recall within token budgets against content" in report
    assert "| bm25 | 400 |" in report
    # the terminal summary: recall within each budget, and the difference from content
    lines = summary_text(result).splitlines()
    at = lines.index("recall within 40 / 400 tokens (all; difference from content)")
    bm25 = next(line for line in lines[at:] if line.split()[0] == "bm25")
    paired = result["systems"]["bm25"]["vs_content_at_tokens"]
    recall = result["systems"]["bm25"]["recall_at_tokens"]
    expected = " / ".join(f"{recall[b]['all']:.3f} {paired[b]['diff']:+.3f}" for b in ("40", "400"))
    assert bm25.split(None, 1)[1] == expected
    content = next(line for line in lines[at:] if line.split()[0] == "content")
    assert "+" not in content and "-0" not in content


def test_json_carries_each_question_s_recall(tmp_path: Path) -> None:
    result = run(tmp_path, budgets=(40, 400))
    questions = result["questions"]
    assert len(questions) == sum(result["meta"]["questions"].values())
    assert len({q["id"] for q in questions}) == len(questions)
    assert all(
        set(q) == {"id", "conversation", "category", "recall", "recall_at_tokens"}
        for q in questions
    )  # no question text: a result may be shared, the data not
    for name, scores in result["systems"].items():
        for k in ("1", "3"):
            mean = sum(q["recall"][name][k] for q in questions) / len(questions)
            assert mean == pytest.approx(scores["recall"][k]["all"])
        for budget in ("40", "400"):
            values = [q["recall_at_tokens"][name][budget] for q in questions]
            assert sum(values) / len(values) == pytest.approx(
                scores["recall_at_tokens"][budget]["all"]
            )
    by_category = [q["recall"]["bm25"]["3"] for q in questions if q["category"] == "4"]
    assert sum(by_category) / len(by_category) == pytest.approx(
        result["systems"]["bm25"]["recall"]["3"]["4"]
    )


def test_conversations_option(tmp_path: Path) -> None:
    result = run(tmp_path, conversations=("tiny-2",))
    assert result["meta"]["conversation_ids"] == ["tiny-2"]
    with pytest.raises(InvalidInputError, match=r"No conversation 'conv-9'.*tiny-1, tiny-2"):
        run(tmp_path, conversations=("conv-9",))
