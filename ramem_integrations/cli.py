"""The ``ramem`` command: demo, ingest, query, answer, namespaces, export, import, eval."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ramem_integrations.core.conversation import FORMATS, load_conversations, parse_datetime
from ramem_integrations.core.types import MemoryUnit, ScoredMemory
from ramem_integrations.errors import RamemError


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ramem`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except RamemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ramem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="anchor a conversation file into a store")
    ingest.add_argument("path", type=Path)
    ingest.add_argument("--store", type=Path, required=True, help="store directory")
    ingest.add_argument("--format", choices=FORMATS, help="detected when omitted")
    ingest.add_argument("--namespace", help="default: each sample's id; 'default' for chat files")
    ingest.add_argument("--json", action="store_true", help="print counts as JSON")
    ingest.set_defaults(handler=_ingest)

    query = sub.add_parser("query", help="retrieve memories for a question")
    query.add_argument("question")
    query.add_argument("--store", type=Path, required=True)
    query.add_argument("--namespace", required=True)
    query.add_argument("--k", type=int, default=10)
    query.add_argument("--mode", default="ramem", help="ramem (default), content, dense or bm25")
    query.add_argument(
        "--asked-on",
        help="when the question is asked (e.g. 2023-10-02); relative times like 'last week' "
        "are grounded only with it",
    )
    query.add_argument("--json", action="store_true", help="print memories as JSON")
    query.set_defaults(handler=_query)

    names = sub.add_parser("namespaces", help="list namespaces with their memory counts")
    names.add_argument("--store", type=Path, required=True)
    names.add_argument("--json", action="store_true")
    names.set_defaults(handler=_namespaces)

    ask = sub.add_parser("answer", help="answer a question from memory (needs a model for text)")
    ask.add_argument("question")
    ask.add_argument("--store", type=Path, required=True)
    ask.add_argument("--namespace", required=True)
    ask.add_argument("--k", type=int, default=10)
    ask.add_argument("--json", action="store_true", help="print answer, evidence and prompt")
    ask.set_defaults(handler=_answer)

    export = sub.add_parser("export", help="back up a namespace to a JSONL file")
    export.add_argument("--store", type=Path, required=True)
    export.add_argument("--namespace", required=True)
    export.add_argument("--out", type=Path, required=True, help="the .jsonl file to write")
    export.set_defaults(handler=_export)

    restore = sub.add_parser("import", help="restore a JSONL backup into a store")
    restore.add_argument("path", type=Path)
    restore.add_argument("--store", type=Path, required=True)
    restore.add_argument("--namespace", help="default: the namespace the file was exported from")
    restore.add_argument("--json", action="store_true")
    restore.set_defaults(handler=_import)

    demo = sub.add_parser("demo", help="ingest the shipped sample and answer questions, offline")
    demo.add_argument("--store", type=Path, help="default: a temporary directory")
    demo.set_defaults(handler=_demo)

    try:
        from ramem_integrations.evaluation.cli import add_eval_parser
    except ImportError:  # the evaluation package is optional at import time
        pass
    else:
        add_eval_parser(sub)
    return parser


def _open(store: Path) -> Any:
    from ramem_integrations.memory import RaMem

    return RaMem.from_path(store)


def _ingest(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    conversations = load_conversations(args.path, args.format)
    mem = _open(args.store)
    total = sum(len(s.turns) for c in conversations for s in c.sessions)
    counts: dict[str, int] = {}
    with tqdm(total=total, unit="mem", desc="ingesting", file=sys.stderr) as bar:
        for conversation in conversations:
            namespace = args.namespace or conversation.id
            ids = mem.add_conversation(conversation, namespace, progress=bar.update)
            counts[namespace] = counts.get(namespace, 0) + len(ids)
    stored = {ns: mem.count(ns) for ns in counts}
    if args.json:
        print(json.dumps({"ingested": counts, "stored": stored}, indent=2))
    else:
        for ns, n in stored.items():
            print(f"{ns}: {n} memories")
    return 0


def _query(args: argparse.Namespace) -> int:
    mem = _open(args.store)
    asked_on = parse_datetime(args.asked_on, "--asked-on") if args.asked_on else None
    hits = mem.retrieve(
        args.question, namespace=args.namespace, k=args.k, mode=args.mode, reference=asked_on
    )
    if args.json:
        print(json.dumps([hit_to_json(h) for h in hits], indent=2, ensure_ascii=False))
    else:
        for rank, hit in enumerate(hits, 1):
            print(f"{rank:>2}. [{hit.reason} {hit.score:.3f}] {hit.memory.content}")
            print(f"    {coordinates_line(hit.memory)}")
    return 0


def _namespaces(args: argparse.Namespace) -> int:
    counts = _open(args.store).namespaces()
    if args.json:
        print(json.dumps(counts, indent=2))
    else:
        for ns, n in counts.items():
            print(f"{ns}\t{n}")
    return 0


def _answer(args: argparse.Namespace) -> int:
    from ramem_integrations.answering import answer_to_json

    result = _open(args.store).answer(args.question, namespace=args.namespace, k=args.k)
    if args.json:
        hits = [hit_to_json(h) for h in result.hits]
        print(json.dumps(answer_to_json(result, hits), indent=2, ensure_ascii=False))
        return 0
    print(result.text if result.text is not None else f"({result.note})")
    print("\nevidence:")
    for rank, hit in enumerate(result.hits, 1):
        print(f"{rank:>2}. {hit.memory.content}\n    {coordinates_line(hit.memory)}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from ramem_integrations.backup import export_namespace

    count = export_namespace(_open(args.store), args.namespace, args.out)
    print(f"{args.namespace}: {count} memories written to {args.out}", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    from ramem_integrations.backup import import_file

    counts = import_file(_open(args.store), args.path, args.namespace)
    if args.json:
        print(json.dumps(counts))
    else:
        print(f"{counts['read']} memories read, {counts['written']} new or changed")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from ramem_integrations.demo import run_demo

    return run_demo(args.store)


def memory_to_json(unit: MemoryUnit) -> dict[str, Any]:
    """A memory as plain JSON: content, ids and every context field (dates as ISO spans)."""
    ctx = unit.context

    def span(value: Any) -> Any:
        return (
            None
            if value is None
            else {
                "start": value.start.isoformat(),
                "end": value.end.isoformat(),
                "label": value.label(),
            }
        )

    return {
        "id": unit.id,
        "namespace": unit.namespace,
        "conversation_id": unit.conversation_id,
        "source_ids": list(unit.source_ids),
        "content": unit.content,
        "context": {
            "session_id": ctx.session_id,
            "session_span": span(ctx.session_span),
            "event_time": span(ctx.event_time),
            "mention_times": [{"text": m.text, **span(m.span)} for m in ctx.mention_times],
            "participants": list(ctx.participants),
            "speaker": ctx.speaker,
            "location": ctx.location,
            "entities": list(ctx.entities),
            "topic": ctx.topic,
            "aliases": {p: [a for a, q in ctx.aliases if q == p] for _, p in ctx.aliases},
        },
    }


def hit_to_json(hit: ScoredMemory) -> dict[str, Any]:
    return {
        "score": hit.score,
        "reason": hit.reason,
        "matched": list(hit.matched),
        **memory_to_json(hit.memory),
    }


def coordinates_line(unit: MemoryUnit) -> str:
    """One line of a memory's coordinates, for terminal output."""
    ctx = unit.context
    parts = [f"said {ctx.session_span.label()}"]
    if ctx.event_time:
        parts.append(f"happened {ctx.event_time.label()}")
    if ctx.participants:
        parts.append("with " + ", ".join(ctx.participants))
    if ctx.location:
        parts.append(f"at {ctx.location}")
    parts.append(f"source {', '.join(unit.source_ids)}")
    return " | ".join(parts)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
