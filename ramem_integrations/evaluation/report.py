"""The evaluation report: `report.md` (systems x categories) and a Recall-vs-tokens plot."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ramem_integrations.evaluation.datasets import LOCOMO_CATEGORIES

logger = logging.getLogger(__name__)

PLOT = "recall_vs_tokens.png"
MATPLOTLIB_MISSING = (
    "matplotlib is not installed, so recall_vs_tokens.png was skipped. "
    "Install it with: pip install 'ramem-integrations[report]'"
)


def _num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _header(label: str, categories: Sequence[str], dataset: str) -> str:
    names = [
        f"{c} {LOCOMO_CATEGORIES[c]}" if dataset == "locomo" and c in LOCOMO_CATEGORIES else c
        for c in categories
    ]
    cells = [label, *names]
    return "| " + " | ".join(cells) + " |\n|" + "---|" * len(cells) + "\n"


def _table(result: Mapping[str, Any], metric: str, k: str, categories: Sequence[str]) -> str:
    columns = [*categories, "all"]
    text = _header("system", columns, result["dataset"])
    for name, scores in result["systems"].items():
        row = scores[metric][k] if metric != "f1" else scores["f1"]
        text += "| " + " | ".join([name, *(_num(row.get(c)) for c in columns)]) + " |\n"
    return text


def _interval(pair: Sequence[float] | None) -> str:
    return "-" if not pair else f"[{pair[0]:.3f}, {pair[1]:.3f}]"


def _paired(paired: Mapping[str, Any] | None) -> str:
    """The cells of a paired test against content: difference, its interval, p-value."""
    if not paired:
        return "- | - | -"
    return f"{_num(paired.get('diff'), 4)} | {_interval(paired.get('ci95'))} | " + _num(
        paired.get("p"), 4
    )


def _uncertainty(result: Mapping[str, Any]) -> list[str]:
    """Per system and K: the 95% bootstrap interval of Recall@K (all), and the paired test
    against ``content`` (mean difference, its interval, p-value)."""
    ks = [str(k) for k in result["k"]]
    lines = [
        "## Uncertainty of Recall@K (all)",
        "",
        "95% bootstrap interval over questions; against `content`: the mean per-question "
        "difference, its 95% interval and the p-value of a paired sign-flip test "
        f"({result.get('meta', {}).get('ci95', 'seeded')}).",
        "",
        "| system | K | recall | 95% interval | vs content | 95% interval | p |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, scores in result["systems"].items():
        for k in ks:
            paired = (scores.get("vs_content") or {}).get(k)
            lines.append(
                f"| {name} | {k} | {_num(scores['recall'][k]['all'])} | "
                f"{_interval((scores.get('ci95') or {}).get(k))} | {_paired(paired)} |"
            )
    return [*lines, ""]


def _budget_uncertainty(result: Mapping[str, Any]) -> list[str]:
    """Per system and token budget: recall (all) and the paired test against ``content``."""
    budgets = [str(b) for b in result.get("meta", {}).get("budgets", [])]
    rows = [
        f"| {name} | {b} | {_num(scores['recall_at_tokens'][b]['all'])} | "
        f"{_paired(scores['vs_content_at_tokens'].get(b))} |"
        for name, scores in result["systems"].items()
        if "vs_content_at_tokens" in scores
        for b in budgets
    ]
    if not rows:
        return []
    return [
        "## Recall within token budgets against content",
        "",
        "The mean per-question difference from `content` within the same budget, its 95% "
        "interval and the p-value of a paired sign-flip test.",
        "",
        "| system | tokens | recall | vs content | 95% interval | p |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]


def markdown(result: Mapping[str, Any], *, plot_note: str = "") -> str:
    """The report as markdown."""
    meta = result.get("meta", {})
    categories = meta.get("categories") or [c for c in LOCOMO_CATEGORIES if c != "5"]
    systems = result["systems"]
    lines = [
        f"# Evaluation: {result['dataset']}",
        "",
        f"Data: `{meta.get('data', '?')}`; {meta.get('conversations', '?')} conversations; "
        f"questions scored for retrieval by category: {meta.get('questions', {})}.",
        f"Embedder `{meta.get('embedder', '?')}`, anchorer `{meta.get('anchorer', '?')}`, "
        f"tokens counted with {meta.get('tokenizer', '?')}. Time: {meta.get('seconds', {})} s.",
        "",
    ]
    for k in map(str, result["k"]):
        lines += [f"## Evidence Recall@{k}", "", _table(result, "recall", k, categories)]
    lines += _uncertainty(result)
    for budget in meta.get("budgets", []):
        lines += [
            f"## Recall within {budget} tokens of rendered context (equal cost)",
            "",
            _table(result, "recall_at_tokens", str(budget), categories),
        ]
    lines += _budget_uncertainty(result)
    if result["dataset"] != "locomo":
        for metric in (
            "recall_any_session",
            "recall_all_session",
            "recall_any_turn",
            "recall_all_turn",
        ):
            for k in map(str, result["k"]):
                lines += [f"## {metric} @{k}", "", _table(result, metric, k, categories)]
    lines += [
        "## Context cost (mean tokens of the rendered top K)",
        "",
        "| system | " + " | ".join(f"K={k}" for k in result["k"]) + " |",
        "|---|" + "---|" * len(result["k"]),
    ]
    for name, scores in systems.items():
        lines.append(
            "| "
            + " | ".join([name, *(_num(scores["tokens"][str(k)], 0) for k in result["k"])])
            + " |"
        )
    lines.append("")
    for k in map(str, result["k"]):
        lines += [
            f"## Answerable@{k} (gold answer readable from the top {k}, no LLM)",
            "",
            _table(result, "answerable", k, categories),
        ]
    lines += [
        "## Context-confusable subset",
        "",
        "D@1: share of confusable questions whose top memory is a distractor (lower is "
        "better). Rank gap: rank of the best distractor minus rank of the best evidence "
        f"memory, not-retrieved = depth + 1 (higher is better). Depth {result['k'][-1]}.",
        "",
        "| system | n | D@1 | rank gap |",
        "|---|---|---|---|",
    ]
    for name, scores in systems.items():
        c = scores["confusable"]
        lines.append(f"| {name} | {c['n']} | {_num(c['d_at_1'])} | {_num(c['rank_gap'], 2)} |")
    lines += ["", "## Answer F1", ""]
    if all(s["f1"] is None for s in systems.values()):
        lines.append(f"Answers were {meta.get('answers', 'skipped: no LLM configured')}.")
    else:
        f1_cats = [c for c in next(s["f1"] for s in systems.values() if s["f1"]) if c != "all"]
        lines += [meta.get("answers", ""), "", _table(result, "f1", "", f1_cats)]
    issues = result.get("evidence_issues") or {}
    lines += [
        "",
        "## Evidence ids",
        "",
        "Repaired or unresolved evidence ids, by kind: "
        + (", ".join(f"{k} {v}" for k, v in issues.items()) or "none")
        + ".",
    ]
    if plot_note:
        lines += ["", plot_note]
    else:
        lines += ["", f"![Recall@K against context tokens]({PLOT})"]
    return "\n".join(lines) + "\n"


def plot(result: Mapping[str, Any], path: Path) -> bool:
    """Recall (all) against context tokens, one line per system: within each token budget when
    the run has budgets, else Recall@K against the mean tokens of the top K. False if no
    matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        logger.warning(MATPLOTLIB_MISSING)
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    if result.get("meta", {}).get("budgets"):
        _plot_budgets(ax, result)
    else:
        _plot_ks(ax, result)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def _plot_ks(ax: Any, result: Mapping[str, Any]) -> None:
    """Recall@K (all) against the mean tokens of the top K, one line per system."""
    for name, scores in result["systems"].items():
        ks = [str(k) for k in result["k"]]
        xs = [scores["tokens"][k] or 0.0 for k in ks]
        ys = [scores["recall"][k]["all"] or 0.0 for k in ks]
        ax.plot(xs, ys, marker="o", label=name)
        for x, y, k in zip(xs, ys, ks, strict=True):
            ax.annotate(f"K={k}", (x, y), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_xlabel("context tokens of the top K (mean)")
    ax.set_ylabel("evidence Recall@K (all)")
    ax.set_title(f"{result['dataset']}: recall against context cost")
    ax.grid(alpha=0.3)
    ax.legend()


def _plot_budgets(ax: Any, result: Mapping[str, Any]) -> None:
    """Recall (all) within each token budget, one line per system."""
    budgets = [str(b) for b in result["meta"]["budgets"]]
    for name, scores in result["systems"].items():
        ys = [scores["recall_at_tokens"][b]["all"] or 0.0 for b in budgets]
        ax.plot([int(b) for b in budgets], ys, marker="o", label=name)
    ax.set_xlabel("tokens of rendered context (budget)")
    ax.set_ylabel("evidence recall within the budget (all)")
    ax.set_title(f"{result['dataset']}: recall against context tokens, equal cost")
    ax.grid(alpha=0.3)
    ax.legend()


def write_report(result: Mapping[str, Any], directory: str | Path) -> Path:
    """Write ``report.md`` and the plot under ``directory``; returns the markdown's path."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    note = "" if plot(result, out / PLOT) else MATPLOTLIB_MISSING
    target = out / "report.md"
    target.write_text(markdown(result, plot_note=note), encoding="utf-8")
    return target
