"""``ramem eval``: the arguments of the evaluation runner.

Hook it into the main parser with :func:`add_eval_parser`; the handler is set as both ``func``
and ``handler``.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ramem_integrations.errors import InvalidInputError, RamemError

logger = logging.getLogger(__name__)


def _ks(text: str) -> list[int]:
    try:
        ks = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--k takes integers like 5,10,20, got {text!r}") from exc
    if not ks or ks[0] < 1:
        raise argparse.ArgumentTypeError(f"--k takes positive integers like 5,10,20, got {text!r}")
    return ks


def _ids(text: str) -> tuple[str, ...]:
    ids = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not ids:
        raise argparse.ArgumentTypeError(
            f"--conversations takes ids like conv-26,conv-30, got {text!r}"
        )
    return ids


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``eval`` to the ``ramem`` command's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval",
        help="evaluate retrieval systems on LoCoMo or LongMemEval",
        description="Run systems side by side on the same memories and questions; print a "
        "summary, optionally write JSON and a report. Works offline.",
    )
    parser.add_argument(
        "dataset",
        choices=("locomo", "longmemeval", "times"),
        help="the benchmark format; times: chat messages and questions with gold dates",
    )
    parser.add_argument("path", type=Path, help="the dataset's JSON file")
    parser.add_argument(
        "--systems",
        default="bm25,dense,content",
        help="comma-separated system names (default: %(default)s)",
    )
    parser.add_argument("--k", type=_ks, default=[5, 10, 20], help="cut-offs, e.g. 5,10,20")
    parser.add_argument("--limit", type=int, default=None, help="first N conversations only")
    parser.add_argument(
        "--conversations",
        type=_ids,
        default=(),
        help="only these conversations, comma-separated ids (e.g. conv-42,conv-43)",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        help="write report.md and recall_vs_tokens.png in this directory",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="ingestion cache root (default: $RAMEM_CACHE_DIR or ~/.cache/ramem/eval)",
    )
    parser.add_argument(
        "--llm",
        default=None,
        help="answer with this OpenAI-compatible model (or set RAMEM_LLM_MODEL)",
    )
    parser.add_argument(
        "--answer-k",
        type=int,
        default=None,
        help="memories shown to the model (default 10, or the largest K)",
    )
    parser.add_argument(
        "--budgets",
        default="250,500,1000,2000",
        help="token budgets of rendered context for recall at equal cost (default: %(default)s)",
    )
    parser.add_argument(
        "--asked-on",
        default=None,
        help="when questions are asked: end (just after the conversation's last session), "
        "none (no date), or a date; default: as the data says",
    )
    parser.add_argument(
        "--embedder",
        default=None,
        help="the offline embedder, by name: minilm (the default), minilm-windows or e5-small",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(func=run_eval_command, handler=run_eval_command)
    return parser


def _llm(model: str | None) -> tuple[Any, str]:
    from ramem_integrations.models.llm import LLMClient, LLMConfig

    config = LLMConfig.from_env()
    if model:
        base = config or LLMConfig(model=model)
        config = LLMConfig(
            model=model,
            base_url=base.base_url,
            api_key=base.api_key,
            timeout=base.timeout,
            max_retries=base.max_retries,
        )
    if config is None:
        return None, ""
    return LLMClient(config), config.model


def run_eval_command(args: argparse.Namespace) -> int:
    """Handle ``ramem eval``; returns the exit code."""
    from ramem_integrations.evaluation.budget import parse_budgets
    from ramem_integrations.evaluation.report import write_report
    from ramem_integrations.evaluation.runner import RunConfig, run_evaluation
    from ramem_integrations.evaluation.systems import select
    from ramem_integrations.models.embeddings import embedder_named

    if args.dataset == "times":
        return _run_times(args)
    try:
        if args.limit is not None and args.limit < 1:
            raise InvalidInputError(f"--limit must be a positive number, got {args.limit}.")
        config = RunConfig(
            dataset=args.dataset,
            path=args.path,
            systems=select(args.systems),
            ks=args.k,
            limit=args.limit,
            conversations=args.conversations,
            cache=args.cache,
            progress=not args.no_progress,
            answer_k=args.answer_k,
            budgets=parse_budgets(args.budgets),
            asked_on=args.asked_on,
        )
        llm, model = _llm(args.llm)
        embedder = None if args.embedder is None else embedder_named(args.embedder)
        result = run_evaluation(config, embedder=embedder, llm=llm, llm_name=model)
    except RamemError as exc:
        print(f"ramem eval: {exc}", file=sys.stderr)
        return 2
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.report:
        print(f"report: {write_report(result, args.report)}", file=sys.stderr)
    print(summary_text(result))
    return 0


def _run_times(args: argparse.Namespace) -> int:
    """``ramem eval times FILE [--json OUT]``: how well messages and questions are dated."""
    from ramem_integrations.evaluation.times import run_times

    try:
        print(run_times(args.path, args.json))
    except RamemError as exc:
        print(f"ramem eval: {exc}", file=sys.stderr)
        return 2
    return 0


def summary_text(result: Mapping[str, Any]) -> str:
    """A few lines for the terminal: Recall@K (all) and tokens per system."""
    ks = [str(k) for k in result["k"]]
    lines = [f"{result['dataset']}: Recall@K (all) / mean tokens"]
    for name, scores in result["systems"].items():
        cells = [
            f"@{k} {_fmt(scores['recall'][k]['all'])} / {_fmt(scores['tokens'][k], 0)}" for k in ks
        ]
        lines.append(f"  {name:<10} " + "   ".join(cells))
    lines += _budget_lines(result)
    seconds = result.get("meta", {}).get("seconds", {}).get("total")
    if seconds is not None:
        lines.append(f"  ({seconds} s)")
    return "\n".join(lines)


def _budget_lines(result: Mapping[str, Any]) -> list[str]:
    """Recall (all) within each token budget, and each system's difference from content."""
    budgets = [str(b) for b in result.get("meta", {}).get("budgets", [])]
    if not budgets:
        return []
    lines = [f"recall within {' / '.join(budgets)} tokens (all; difference from content)"]
    for name, scores in result["systems"].items():
        paired = scores.get("vs_content_at_tokens") or {}
        cells = [
            _fmt(scores["recall_at_tokens"][b]["all"])
            + (f" {paired[b]['diff']:+.3f}" if paired.get(b) else "")
            for b in budgets
        ]
        lines.append(f"  {name:<10} " + " / ".join(cells))
    return lines


def _fmt(value: Any, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    """Run ``eval`` on its own (``python -m ramem_integrations.evaluation.cli``)."""
    parser = argparse.ArgumentParser(prog="ramem")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
