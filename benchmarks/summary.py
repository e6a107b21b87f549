"""The markdown tables docs/performance.md shows, and its latency plot, from ``results/*.json``.

    python benchmarks/summary.py            # writes benchmarks/results/summary.md and
                                            # docs/img/latency_vs_size.png

Each table says the commit it was measured on, the date, the load average and the command.
``run_all.py`` calls it at the end of ``make bench`` / ``make bench-large``.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
KINDS = ("time", "person", "plain")
SIDES = ("ramem", "lc_one", "lc_per_ns")
APART = ("ramem", "lc_per_ns")  # the sides timed apart for growth (see bench_scale.py)
SHORT = {"ramem": "RaMem", "lc_one": "one collection", "lc_per_ns": "collection per namespace"}
#: The issue's targets: RaMem p50 over each langchain-chroma layout's, and growth with size.
TARGET = {"lc_one": 1.1, "lc_per_ns": 1.3}
GROWTH_TARGET = {100_000: 1.5, 1_000_000: 2.0}
LATENCY_HEADER = (
    "RaMem p50 / p95 ms",
    "one collection p50 / p95 ms",
    "per namespace p50 / p95 ms",
    "RaMem ÷ one collection p50 / p95",
    "RaMem ÷ per namespace p50 / p95",
)


def load(name: str) -> dict[str, Any] | None:
    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def provenance(result: dict[str, Any]) -> str:
    run, machine = result.get("run", {}), result.get("machine", {})
    return (
        f"Measured on commit `{run.get('commit', '?')}`, {run.get('date', '?')}, "
        f"{machine.get('cpus', '?')} CPUs, load average {run.get('load_avg_start', '?')} at the "
        f"start and {run.get('load_avg_end', '?')} at the end; command: "
        f"`{run.get('command', '?')}`."
    )


def table(header: list[str], rows: list[list[str]], right_from: int = 1) -> str:
    align = ["---" if i < right_from else "---:" for i in range(len(header))]
    lines = [header, align, *rows]
    return "\n".join("| " + " | ".join(cells) + " |" for cells in lines)


NOT_RUN = "not run"


def pair(stats: dict[str, Any] | None) -> str:
    return NOT_RUN if stats is None else f"{stats['p50_ms']:.1f} / {stats['p95_ms']:.1f}"


def ratios(stats: dict[str, Any], side: str) -> str:
    if f"ratio_p50_{side}" not in stats:  # the side was left out of the run (--sides)
        return NOT_RUN
    p50, p95 = stats[f"ratio_p50_{side}"], stats[f"ratio_p95_{side}"]
    mark = f"**{p50:.2f}**" if p50 <= TARGET[side] else f"{p50:.2f}"
    return f"{mark} / {p95:.2f}"


def latency_rows(runs: list[dict[str, Any]]) -> list[list[str]]:
    return [
        [
            f"{run['size']:,}",
            f"{run['namespaces']:,}",
            kind,
            *(pair(run["latency"][kind].get(side)) for side in SIDES),
            ratios(run["latency"][kind], "lc_one"),
            ratios(run["latency"][kind], "lc_per_ns"),
        ]
        for run in runs
        for kind in KINDS
    ]


def growth_table(growth: dict[str, Any], base: int, sides: tuple[str, ...]) -> str:
    sizes = sorted(int(s) for s in growth)
    header = ["kind", *(f"{SHORT[s]} {size:,} ÷ {base:,}" for s in sides for size in sizes)]
    rows = []
    for kind in KINDS:
        cells = [kind]
        for side in sides:
            for size in sizes:
                value = growth[str(size)][side][kind]
                target = GROWTH_TARGET.get(size)
                met = side == "ramem" and target is not None and value <= target
                cells.append(f"**{value:.2f}**" if met else f"{value:.2f}")
        rows.append(cells)
    return table(header, rows)


def scale_section(result: dict[str, Any], title: str) -> list[str]:
    runs = sorted(result["runs"], key=lambda r: r["size"])
    out = [f"### {title}", "", provenance(result), ""]
    out.append(
        table(
            ["memories", "namespaces", "kind", *LATENCY_HEADER],
            latency_rows(runs),
            right_from=3,
        )
    )
    out += [
        "",
        "Bold: within the target (p50 ≤ 1.1x one collection, ≤ 1.3x a collection per namespace).",
        "",
    ]
    growth = result["growth"]
    base = growth["base_size"]
    apart = {k: v for k, v in growth.items() if k.isdigit()}
    sides = tuple(result.get("sides", SIDES))
    if apart:
        out += [
            "Growth of p50 with the store, RaMem and a collection per namespace timed without the "
            "one-collection side's questions between theirs:",
            "",
            growth_table(apart, base, tuple(s for s in APART if s in sides)),
            "",
        ]
        if "lc_one" in sides:
            out += [
                "All three sides interleaved, as in the ratios above (the one collection's "
                "filtered search, run between the others' questions, slows them):",
                "",
                growth_table(growth["interleaved"], base, sides),
                "",
            ]
        out += [
            "Bold: RaMem within the target (≤ 1.5 from 1k to 100k, ≤ 2 from 1k to 1M).",
            "",
        ]
    cold_rows = [
        [f"{run['size']:,}", *(pair(run["cold_first_query"].get(side)) for side in SIDES)]
        for run in runs
    ]
    out += [
        "First query of a namespace (cold), p50 / p95 ms:",
        "",
        table(["memories", *(SHORT[s] for s in SIDES)], cold_rows),
        "",
    ]
    grounded = "; ".join(
        f"{run['size']:,}: " + ", ".join(f"{k} {v}" for k, v in run["questions_grounded"].items())
        for run in runs
    )
    unserved = "; ".join(
        f"{run['size']:,}: "
        + ", ".join(f"{k} {v}" for k, v in run["served_without_embedding"].items())
        for run in runs
    )
    out += [
        f"Questions RaMem grounded (a condition steering retrieval): {grounded}.",
        f"Calls answered without embedding their question (a cache hit; should be 0): {unserved}.",
        "",
    ]
    return out


def resources_section(result: dict[str, Any]) -> list[str]:
    rows = []
    for run in sorted(result["runs"], key=lambda r: r["size"]):
        for side in result.get("sides", SIDES):
            res = run["resources"][side]
            rows.append(
                [
                    f"{run['size']:,}",
                    SHORT[side],
                    f"{res['rss_mb_before_store']:,.0f}",
                    f"{res['rss_mb_after_queries']:,.0f}",
                    f"{res['rss_mb_store']:,.0f}",
                    f"{res['disk_mb']:,.1f}",
                    f"{res['disk_mb_per_100k']:,.0f}",
                ]
            )
    header = [
        "memories",
        "side",
        "RSS before opening MB",
        "RSS after queries MB",
        "RSS for the store MB",
        "disk MB",
        "disk per 100k MB",
    ]
    return [
        "### Resident memory and disk",
        "",
        provenance(result),
        "",
        "A fresh process per side: RSS before it opens the store (model and corpus loaded) and "
        "after it answers 6 questions in each working namespace.",
        "",
        table(header, rows, right_from=2),
        "",
    ]


def mark(value: float, met: bool) -> str:
    """``value`` to two places, bold when ``met`` and at least 1."""
    return f"**{value:.2f}**" if met and value >= 1 else f"{value:.2f}"


def ingest_section(result: dict[str, Any]) -> list[str]:
    rates, ratio = result["memories_per_s_best"], result["ratio_to_langchain_chroma"]
    medians = {name: statistics.median(s) for name, s in result["seconds"].items()}
    rows = [
        [
            f"`{name}`",
            f"{rate:.1f}",
            mark(ratio[name], name.startswith("ramem")),
            f"{medians['langchain_chroma'] / medians[name]:.2f}",
        ]
        for name, rate in rates.items()
    ]
    return [
        "### Ingestion, real embedder",
        "",
        provenance(result),
        "",
        f"{result['memories']:,} memories from {result['conversations']} conversations, fresh "
        f"stores, best of {result['rounds']} rounds; `add_texts` in batches of "
        f"{result['add_texts_batch']}.",
        "",
        table(["system", "memories/s", "÷ langchain-chroma add_texts", "median round ÷"], rows),
        "",
        "Bold: within the target (≥ 1.0x, best rounds compared). The median rounds' ratio is "
        "beside it: one round in a noisy minute moves the best.",
        "",
    ]


def server_section(result: dict[str, Any]) -> list[str]:
    rows = []
    for threads, kinds in result["by_threads"].items():
        for kind in KINDS:
            stats = kinds[kind]
            rows.append(
                [
                    threads,
                    kind,
                    str(stats["ramem"]["n"]),
                    *(pair(stats[side]) for side in SIDES),
                    ratios(stats, "lc_one"),
                    ratios(stats, "lc_per_ns"),
                    " / ".join(f"{stats[side]['queries_per_s']:.1f}" for side in SIDES),
                ]
            )
    header = [
        "threads",
        "kind",
        "questions",
        *LATENCY_HEADER,
        "queries/s RaMem / one / per namespace",
    ]
    return [
        "### Through a Chroma server",
        "",
        provenance(result),
        "",
        f"{result['size']:,} memories in {result['namespaces']} namespaces, `chroma run` on "
        "127.0.0.1; the client threads share one RaMem and one set of `Chroma` objects.",
        "",
        table(header, rows, right_from=2),
        "",
    ]


SECTIONS: tuple[tuple[str, Callable[[dict[str, Any]], list[str]]], ...] = (
    ("scale", lambda r: scale_section(r, "Query latency against store size, embedded, k=10")),
    ("scale_large", lambda r: scale_section(r, "Query latency at 1M memories, k=10")),
    ("ingest", ingest_section),
    ("server", server_section),
    ("scale", resources_section),
    ("scale_large", resources_section),
)


def render(suite: str | None = None) -> str:
    out = ["# Benchmark summary (generated by benchmarks/summary.py)", ""]
    if suite:
        out += [suite, ""]
    for name, section in SECTIONS:
        result = load(name)
        if result is not None and "run" in result:  # older results have another layout
            out += section(result)
    return "\n".join(out).rstrip() + "\n"


def write(suite: str | None = None) -> Path:
    path = RESULTS / "summary.md"
    path.write_text(render(suite), encoding="utf-8")
    print(f"wrote {path}")
    return path


# -- the plot --------------------------------------------------------------------------

PLOT = HERE.parent / "docs" / "img" / "latency_vs_size.png"
PLOT_KINDS = {"time": "time condition", "person": "person named", "plain": "nothing to ground"}
PLOT_SIDES = (
    ("ramem", "RaMem.retrieve", "tab:blue"),
    ("lc_one", "langchain-chroma, one collection + filter", "tab:orange"),
    ("lc_per_ns", "langchain-chroma, collection per namespace", "tab:green"),
)


def plot() -> None:
    """Query p50 against store size, a panel per question kind: docs/img/latency_vs_size.png."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs: dict[int, dict] = {}
    commits = set()
    for name in ("scale.json", "scale_large.json"):
        path = HERE / "results" / name
        if path.is_file():
            result = json.loads(path.read_text(encoding="utf-8"))
            if "run" not in result:  # an older layout of results
                continue
            commits.add(result["run"]["commit"])
            for run in result["runs"]:
                runs.setdefault(run["size"], run)
    if not runs:
        sys.exit("no results/scale*.json yet: run benchmarks/bench_scale.py first")
    sizes = sorted(runs)
    fig, axes = plt.subplots(1, len(PLOT_KINDS), figsize=(13, 4), sharey=True)
    for ax, (kind, title) in zip(axes, PLOT_KINDS.items(), strict=True):
        for side, label, colour in PLOT_SIDES:
            ran = [s for s in sizes if side in runs[s]["latency"][kind]]  # --sides may omit it
            p50 = [runs[s]["latency"][kind][side]["p50_ms"] for s in ran]
            ax.plot(ran, p50, "o-", color=colour, label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"questions: {title}")
        ax.set_xlabel("memories in the store")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("p50 ms per query (k=10, embedding incl.)")
    axes[0].legend(fontsize=7)
    fig.suptitle(
        "Query p50 against store size, embedded Chroma (commit " + ", ".join(sorted(commits)) + ")"
    )
    fig.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(PLOT, dpi=110)
    print(f"wrote {PLOT}")


if __name__ == "__main__":
    write(" ".join(sys.argv[1:]) or None)
    plot()
