"""The ``ramem`` command: demo, ingest, query, answer, namespaces, forget, export, import,
upgrade, reembed, eval, eval-diff.

The parser imports nothing heavy (no chromadb, numpy or model): each command imports what it
needs when it runs, so ``ramem --help`` and ``--version`` answer at once.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from functools import cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ramem_integrations.core.conversation import (
    FORMATS,
    file_format,
    load_conversations,
    parse_datetime,
)
from ramem_integrations.core.jsondata import read_text
from ramem_integrations.core.limits import Limits
from ramem_integrations.core.serialise import coordinates, memory_json, shown_name, shown_names
from ramem_integrations.core.types import MemoryUnit, RecallFrame, ScoredMemory
from ramem_integrations.errors import (
    InvalidInputError,
    RamemError,
    StoreBusyError,
    StoreError,
    UnknownNamespaceError,
)

DESCRIPTION = (
    "Long-term memory for AI agents: anchor conversations into a store, then query it. "
    "Start with 'ramem demo'; 'ramem COMMAND --help' explains a command."
)

#: Exit codes: a refused input, an unexpected failure, Ctrl-C, a closed output pipe.
EXIT_REFUSED, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PIPE = 2, 1, 130, 141


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ramem`` console script: one line on any error, never a traceback."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.handler(args) or 0)
        sys.stdout.flush()
        return code
    except UnknownNamespaceError as exc:
        print(f"error: {_unknown_namespace(args, exc)}", file=sys.stderr)
        return EXIT_REFUSED
    except StoreBusyError as exc:
        print(f"error: {_busy(exc)}", file=sys.stderr)
        return EXIT_REFUSED
    except RamemError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except KeyboardInterrupt:
        print(
            "\ninterrupted: what was written is kept; run the same command again to finish.",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head -1`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except Exception as exc:  # a bug or an environment failure: one line, not a traceback
        print(f"error: unexpected {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED


def _unknown_namespace(args: argparse.Namespace, exc: UnknownNamespaceError) -> str:
    """The library's message speaks to API users (``missing_ok=True``); at the command line,
    for the store's owner, it names the store and the namespaces close to the one asked for."""
    asked = getattr(args, "namespace", None)
    if not isinstance(asked, str):
        return str(exc)
    where = _where(args)
    known = _open(args).namespace_names()
    close = difflib.get_close_matches(asked, known, n=3, cutoff=0.6)
    hint = (
        f"Did you mean {' or '.join(map(repr, close))}?"
        if close
        else f"'ramem namespaces {where}' lists this store's namespaces."
    )
    return f"No memories were ever written to namespace {asked!r} in this store. {hint}"


def _busy(exc: StoreBusyError) -> str:
    """The CLI's way to share a store: a Chroma server and ``--server``."""
    return (
        f"The store at {exc.directory} is open in another process (pid {exc.pid}). An embedded "
        "store serves one process at a time. To read it while another command writes, serve "
        f"it: 'chroma run --path {exc.directory} --port 8000', then give every ramem command "
        "'--server localhost:8000' instead of '--store'."
    )


def _where(args: argparse.Namespace) -> str:
    """The store option as typed (``--store PATH`` or ``--server HOST:PORT``)."""
    server = getattr(args, "server", None)
    return f"--server {server}" if server else f"--store {args.store}"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ramem-integrations")
    except PackageNotFoundError:  # pragma: no cover  (run from a source tree)
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ramem", description=DESCRIPTION)
    parser.add_argument(
        "--version", action="version", version=f"ramem {_version()}", help="print the version"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="anchor a conversation file into a store")
    ingest.add_argument(
        "path",
        type=Path,
        help="a chat, messages, WhatsApp, Telegram, LoCoMo or LongMemEval file, or - to read "
        "standard input",
    )
    _store_options(ingest, created=True)
    ingest.add_argument(
        "--format", choices=FORMATS, help="the file's format; detected when omitted"
    )
    ingest.add_argument(
        "--namespace",
        help="whose memories: default each sample's id (refused if it holds other memories); "
        "'default' for chat files",
    )
    ingest.add_argument(
        "--conversation",
        metavar="ID",
        help="the conversation id (default: the file's own 'conversation_id', else a digest of "
        "the file, so two files never overwrite each other)",
    )
    ingest.add_argument(
        "--replace",
        action="store_true",
        help="overwrite stored memories whose text differs (refused without it)",
    )
    ingest.add_argument(
        "--tz",
        metavar="ZONE",
        help="the time zone of times written without one, e.g. Europe/London (default UTC; a "
        "WhatsApp export's times have none)",
    )
    ingest.add_argument("--json", action="store_true", help="print counts as JSON")
    ingest.add_argument("--quiet", action="store_true", help="no progress bar")
    _limit_options(ingest, "message_chars", "name_chars", "file_bytes", "json_depth")
    ingest.set_defaults(handler=_ingest)

    query = sub.add_parser("query", help="retrieve memories for a question")
    query.add_argument("question", help="the question, in words")
    _store_options(query)
    query.add_argument("--namespace", required=True, help=NAMESPACE_HELP)
    query.add_argument("--k", type=int, default=10, help="how many memories (default 10)")
    query.add_argument(
        "--mode",
        default="ramem",
        help="ramem (default: context-aware), content, dense or bm25",
    )
    _asked_on_option(query)
    query.add_argument("--json", action="store_true", help="print memories as JSON")
    _limit_options(query, "query_chars")
    query.set_defaults(handler=_query)

    names = sub.add_parser("namespaces", help="list the store's namespaces")
    _store_options(names)
    names.add_argument("--json", action="store_true", help="print them as JSON")
    names.add_argument(
        "--counts",
        action="store_true",
        help="with each namespace's number of memories (reads every namespace: slower and "
        "more memory on a store of many)",
    )
    names.set_defaults(handler=_namespaces)

    convs = sub.add_parser(
        "conversations", help="list a namespace's conversations (ids for 'forget --conversation')"
    )
    _store_options(convs)
    convs.add_argument("--namespace", required=True, help=NAMESPACE_HELP)
    convs.add_argument("--json", action="store_true", help="print counts as JSON")
    convs.set_defaults(handler=_conversations)

    forget = sub.add_parser("forget", help="delete memories: by conversation, by id, or all")
    _store_options(forget)
    forget.add_argument("--namespace", required=True, help=NAMESPACE_HELP)
    which = forget.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--conversation",
        metavar="ID",
        help="the memories of this conversation ('ramem conversations' lists them)",
    )
    which.add_argument("--id", action="append", metavar="ID", help="this memory (repeatable)")
    which.add_argument("--all", action="store_true", help="every memory of the namespace")
    forget.add_argument("--json", action="store_true", help="print the count as JSON")
    forget.set_defaults(handler=_forget)

    ask = sub.add_parser("answer", help="answer a question from memory (needs a model for text)")
    ask.add_argument("question", help="the question, in words")
    _store_options(ask)
    ask.add_argument("--namespace", required=True, help=NAMESPACE_HELP)
    ask.add_argument("--k", type=int, default=10, help="how many memories (default 10)")
    _asked_on_option(ask)
    ask.add_argument("--json", action="store_true", help="print answer, evidence and prompt")
    _limit_options(ask, "query_chars")
    ask.set_defaults(handler=_answer)

    export = sub.add_parser("export", help="back up a namespace to a JSONL file")
    _store_options(export)
    export.add_argument("--namespace", required=True, help=NAMESPACE_HELP)
    export.add_argument(
        "--out", required=True, help="the .jsonl file to write, or - for standard output"
    )
    export.add_argument(
        "--overwrite", action="store_true", help="replace the --out file if it exists"
    )
    export.set_defaults(handler=_export)

    restore = sub.add_parser("import", help="restore a JSONL backup into a store")
    restore.add_argument(
        "path", help="a file written by 'ramem export', or - to read standard input"
    )
    _store_options(restore, created=True)
    restore.add_argument(
        "--namespace",
        help="default: the namespace the file was exported from (refused if it holds other "
        "memories)",
    )
    restore.add_argument(
        "--replace",
        action="store_true",
        help="overwrite stored memories whose text differs (refused without it)",
    )
    restore.add_argument("--json", action="store_true", help="print counts as JSON")
    _limit_options(restore, "message_chars", "name_chars", "file_bytes", "json_depth")
    restore.set_defaults(handler=_import)

    upgrade = sub.add_parser(
        "upgrade", help="move a store of an older format into this version's layout"
    )
    where = upgrade.add_mutually_exclusive_group(required=True)
    where.add_argument("--store", type=store_path, help=STORE_HELP + " (embedded)")
    where.add_argument("--server", metavar="HOST:PORT", help="a Chroma server (chroma run)")
    upgrade.add_argument(
        "--collection",
        default="ramem_memories",
        help="the store's name (collection= in the API; default ramem_memories)",
    )
    upgrade.add_argument("--json", action="store_true", help="print the result as JSON")
    upgrade.set_defaults(handler=_upgrade)

    reembed = sub.add_parser(
        "reembed",
        help="embed memories again (a store written by an older version or another embedder)",
    )
    _store_options(reembed)
    reembed.add_argument("--namespace", action="append", help="repeatable; default: every one")
    reembed.add_argument("--json", action="store_true", help="print counts as JSON")
    reembed.set_defaults(handler=_reembed)

    demo = sub.add_parser("demo", help="ingest the shipped sample and answer questions, offline")
    demo.add_argument("--store", type=store_path, help="default: a temporary directory")
    demo.set_defaults(handler=_demo)

    evaluate = sub.add_parser(
        "eval",
        help="evaluate retrieval systems on LoCoMo or LongMemEval ('ramem eval --help')",
        add_help=False,
        prefix_chars="\0",  # every argument is passed on, --help included
    )
    evaluate.add_argument("arguments", nargs=argparse.REMAINDER, help="see 'ramem eval --help'")
    evaluate.set_defaults(handler=_eval)

    eval_diff = sub.add_parser(
        "eval-diff",
        help="compare two 'ramem eval --json' results question by question",
        description="For one system, each Recall@K and each token budget: the mean before and "
        "after, and the questions that rose and fell.",
    )
    eval_diff.add_argument("before", type=Path, help="a result 'ramem eval --json' wrote")
    eval_diff.add_argument(
        "after", type=Path, nargs="?", help="another, on the same data (default: BEFORE again)"
    )
    eval_diff.add_argument("--system", default="ramem", help="the system compared (default ramem)")
    eval_diff.add_argument(
        "--against",
        help="compare --system with this system of BEFORE instead (e.g. content: the questions "
        "RaMem wins and loses against its fallback)",
    )
    eval_diff.add_argument("--json", action="store_true", help="print the comparison as JSON")
    eval_diff.set_defaults(handler=_eval_diff)

    eval_steps = sub.add_parser(
        "eval-steps",
        help="judge a ranking step conversation by conversation, with a sign test",
        description="The default system against an ablation (the default minus one step) in "
        "'ramem eval --json' results, one conversation at a time, per family (data file).",
    )
    eval_steps.add_argument("results", type=Path, nargs="+", help="'ramem eval --json' results")
    eval_steps.add_argument(
        "--without", required=True, help="the ablation system, e.g. without-neighbours"
    )
    eval_steps.add_argument("--system", default="ramem", help="the system with the step")
    eval_steps.add_argument(
        "--budget",
        action="append",
        default=[],
        metavar="[FAMILY=]TOKENS",
        help="recall within this many tokens (default 1000, beam 2000); repeatable",
    )
    eval_steps.add_argument("--json", action="store_true", help="print the view as JSON")
    eval_steps.set_defaults(handler=_eval_steps)
    return parser


STORE_HELP = "the store directory"
SERVER_HELP = (
    "a Chroma server instead of a directory (chroma run --path DIR --port 8000), as HOST:PORT "
    "or http://HOST:PORT: several commands can then use one store at once"
)
EMBEDDER_HELP = (
    "the offline embedder, by name: minilm (the default), minilm-windows or e5-small; read a "
    "store with the embedder that wrote it ('ramem reembed --embedder NAME' moves it)"
)
NAMESPACE_HELP = "whose memories to read (see 'ramem namespaces')"
#: What each input limit bounds, for its --max-... option (docs/reliability.md, "Limits").
LIMIT_HELP = {
    "message_chars": "characters of one turn",
    "query_chars": "characters of the question",
    "name_chars": "characters of a name or id (speaker, session, conversation, namespace)",
    "file_bytes": "bytes of the file",
    "json_depth": "levels of nesting in the file's JSON",
}


def _asked_on_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--asked-on",
        help="when the question is asked (e.g. 2023-10-02, or today, or now); relative times "
        "like 'last week' are grounded only with it",
    )


def _limit_options(parser: argparse.ArgumentParser, *names: str) -> None:
    """A ``--max-...`` option for each named field of :class:`Limits`."""
    for name in names:
        parser.add_argument(
            f"--max-{name.replace('_', '-')}",
            dest=f"max_{name}",
            type=int,
            metavar="N",
            help=f"the most {LIMIT_HELP[name]} accepted (default {getattr(Limits(), name):,})",
        )


def _limits(args: argparse.Namespace) -> Limits:
    """The :class:`Limits` the command's ``--max-...`` options set, defaults elsewhere."""
    given = {name: getattr(args, f"max_{name}", None) for name in LIMIT_HELP}
    return Limits(**{name: value for name, value in given.items() if value is not None})


def _store_options(parser: argparse.ArgumentParser, *, created: bool = False) -> None:
    """``--store DIR`` or ``--server HOST:PORT``, one of them required."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--store", type=store_path, help=STORE_HELP + (" (created)" if created else "")
    )
    where.add_argument("--server", metavar="HOST:PORT", help=SERVER_HELP)
    parser.add_argument("--embedder", default=None, help=EMBEDDER_HELP)


def store_path(text: str) -> Path:
    """A ``--store`` folder; an empty one (a variable that was not set) is refused rather than
    read as the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the store path is empty; give a folder, e.g. ./memory")
    return Path(text)


def _open(
    args: argparse.Namespace,
    *,
    create: bool = False,
    limits: Limits | None = None,
    embeds: bool = False,
    writes: bool = False,
) -> Any:
    """The memory the command names; reads never create a store (a typo is an error), and a
    command that only reads a read-only store reads a copy of it. A command that ``embeds``
    starts loading the model while the store opens."""
    store: Path | None = args.store
    if store is not None and not create and not (store / "chroma.sqlite3").is_file():
        what = "is not a ramem store" if store.exists() else "does not exist"
        raise StoreError(
            f"{store} {what}. Check the path; 'ramem ingest FILE --store {store}' creates one."
        )
    if store is not None and not (create or writes) and not _writable(store):
        store = _read_only_copy(store)
    from ramem_integrations.models.embeddings import MiniLMEmbedder, embedder_named

    name = getattr(args, "embedder", None)
    embedder = embedder_named(name) if name else None  # None: the default embedder
    if embeds and (embedder is None or isinstance(embedder, MiniLMEmbedder)):
        MiniLMEmbedder().preload()  # loads while chromadb imports and the store opens
    from ramem_integrations.memory.ramem import RaMem

    if store is not None:
        return RaMem.from_path(store, limits=limits, embedder=embedder)
    return RaMem.from_client(_client(None, args.server), limits=limits, embedder=embedder)


def _writable(store: Path) -> bool:
    """Whether this user can write the store in place (Chroma writes even to read)."""
    files = [store, store / "chroma.sqlite3"]
    return all(os.access(f, os.W_OK) for f in files) and not _read_only_mount(store)


def _read_only_mount(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (root may write anything else)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): the access check above holds
        return False


@cache
def _read_only_copy(store: Path) -> Path:
    """A writable copy of a read-only store, removed when the command ends; says so (once:
    the command's later opens read the same copy)."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="ramem-read-only-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    copy = folder / "store"
    try:
        shutil.copytree(store, copy, ignore=shutil.ignore_patterns(".ramem.lock"))
    except OSError as exc:
        raise StoreError(
            f"The store at {store} is read-only, and copying it to {folder} to read it failed: "
            f"{exc}. Copy it to a writable place yourself and give that path."
        ) from exc
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)  # the copy is this user's to write
    print(
        f"note: the store at {store} is read-only; reading a copy of it (Chroma writes even to "
        "read), removed when this command ends.",
        file=sys.stderr,
    )
    return copy


def _ingest(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ramem_integrations.app.backup import refuse_taken

    limits = _limits(args)
    path = _stdin_file(limits) if str(args.path) == "-" else args.path
    fmt = args.format or file_format(read_text(path, limits), path, limits)
    conversations = load_conversations(
        path, fmt, tz=_zone(args.tz), conversation_id=args.conversation, limits=limits
    )
    chat = fmt not in ("locomo", "longmemeval")
    mem = _open(args, create=True, limits=limits, embeds=True)
    namespace = args.namespace or ("default" if chat else None)
    names = [namespace] if namespace else [c.id for c in conversations]
    if namespace is None:  # the file names them: only new ones, or the same file again
        held = [c for c in conversations if mem.count(c.id)]
        refuse_taken(mem, [u for c in held for u in mem.anchor(c, c.id)], "names")
    before = {ns: _contents(mem, ns) for ns in names}
    with tqdm(unit="mem", desc="ingesting", file=sys.stderr, disable=args.quiet) as bar:

        def total(n: int) -> None:  # memories, known once anchored (messages may group)
            bar.total = n
            bar.refresh()

        read = mem.add_conversations(
            conversations, namespace, progress=bar.update, replace=args.replace, total=total
        )
    changes = {ns: _changes(before.get(ns, {}), _contents(mem, ns)) for ns in read}
    if args.json:
        counts = {key: {ns: c[key] for ns, c in changes.items()} for key in CHANGE_KEYS}
        print(json.dumps({"read": read, **counts}, indent=2))
    else:
        for ns, c in changes.items():
            print(
                f"{ns}: {read[ns]} memories read, {c['added']} new, {c['changed']} changed, "
                f"{c['replaced']} replaced by others, {c['stored']} stored"
            )
    return 0


#: What an ingest reports per namespace: memories new, saying something else now, deleted
#: because new ones hold their words (a burst that grew), and stored after it.
CHANGE_KEYS = ("added", "changed", "replaced", "stored")


def _contents(mem: Any, namespace: str) -> dict[str, MemoryUnit]:
    """Each stored memory by id (nothing for a namespace never written)."""
    return {u.id: u for u in mem.memories(namespace, missing_ok=True)}


def _changes(before: dict[str, MemoryUnit], after: dict[str, MemoryUnit]) -> dict[str, int]:
    """How a write changed a namespace, from its memories before and after it: a memory
    changed when it says something else (text, speaker or time)."""
    from ramem_integrations.memory.writing import said_otherwise

    return {
        "added": sum(1 for i in after if i not in before),
        "changed": sum(1 for i, u in after.items() if i in before and said_otherwise(before[i], u)),
        "replaced": sum(1 for i in before if i not in after),
        "stored": len(after),
    }


def _stdin_file(limits: Limits) -> Path:
    """Standard input (``ramem ingest -``) saved once to a temporary file, since the format is
    detected before it is read; at most ``limits.file_bytes`` (the file check refuses more)."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="ramem-stdin-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "stdin"
    path.write_bytes(sys.stdin.buffer.read(limits.file_bytes + 1))
    return path


def _zone(name: str | None) -> tzinfo:
    """The zone ``--tz`` names (UTC when not given)."""
    if name is None:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise InvalidInputError(
            f"Unknown time zone {name!r}. Give a name like 'Europe/London' or 'America/New_York'."
        ) from exc


def _query(args: argparse.Namespace) -> int:
    from ramem_integrations.core.prompts import describe_frame

    mem = _open(args, limits=_limits(args), embeds=True)
    asked_on = _asked_on(args)
    hits = mem.retrieve(
        args.question, namespace=args.namespace, k=args.k, mode=args.mode, reference=asked_on
    )
    frame = mem.frame(args.question, args.namespace, reference=asked_on)
    _warn_not_grounded(not_grounded(frame, asked_on))  # stderr: stdout's JSON stays a list
    if args.json:
        print(json.dumps([hit_to_json(h) for h in hits], indent=2, ensure_ascii=False))
        return 0
    if args.mode == "ramem":
        conditions = describe_frame(frame) if frame.is_grounded else frame.why_not_grounded
        print(f"conditions read: {conditions or 'none'}")
    if not hits:
        print(_no_memories(mem, args.namespace))
    elif args.mode == "ramem":
        print(ORDER_NOTE)
    ranks = {hit.memory.id: rank for rank, hit in enumerate(hits, 1)}
    for rank, hit in enumerate(hits, 1):
        print(f"{rank:>2}. {indented(shown_text(hit.memory.content))}")
        print(f"    {shown_text(coordinates_line(hit.memory))}")
        print(f"    why: {why_line(hit, ranks)}")
    return 0


def _asked_on(args: argparse.Namespace) -> datetime | None:
    """The moment ``--asked-on`` gives (``today`` and ``now`` are this moment), or None."""
    if not args.asked_on:
        return None
    if args.asked_on.strip().lower() in ("today", "now"):
        return datetime.now().astimezone()  # in this machine's zone, as the user's day
    return parse_datetime(args.asked_on, "--asked-on")


def not_grounded(frame: RecallFrame, asked_on: datetime | None) -> list[dict[str, str]]:
    """The question's times that do not steer retrieval, each with why (and the fix)."""
    missed = []
    for cond in frame.conditions:
        if cond.kind != "time" or cond.grounded:
            continue
        if asked_on is None and cond.undated:
            today = datetime.now(UTC).date().isoformat()
            why = f"no --asked-on given; pass --asked-on {today} (the day it is asked, or today)"
        else:
            why = cond.reason
        missed.append({"text": cond.evidence, "reason": why})
    return missed


def _warn_not_grounded(missed: list[dict[str, str]]) -> None:
    """One line on stderr for each time of the question that was not grounded."""
    for item in missed:
        print(f"note: {item['text']!r}: not grounded, {item['reason']}", file=sys.stderr)


#: How ``--mode ramem`` orders its hits, printed above them: the content score is one input.
ORDER_NOTE = (
    "order: memories meeting the conditions first, then by relevance to the question (content "
    "score, the speaker it names, the order it asks for); episode turns follow their hit"
)


def _no_memories(mem: Any, namespace: str) -> str:
    """Why a query found nothing: an empty namespace (every memory forgotten) says so."""
    if mem.count(namespace) == 0:
        return (
            f"(no memories: namespace {namespace!r} is empty; its memories were forgotten or "
            "never written)"
        )
    return "(no memories)"


#: Control characters (C0 but tab and newline, DEL, C1): a terminal acts on them (ESC starts
#: an escape sequence that can recolour, retitle or rewrite the screen).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown_text(text: str) -> str:
    """Stored text as the terminal shows it: each control character written as its escape
    (``\\x1b``), never sent to the terminal; ``--json`` keeps the text exact."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def indented(text: str, prefix: str = "    ") -> str:
    """A memory of several lines, its later lines indented under the first."""
    return ("\n" + prefix).join(text.splitlines() or [""])


def why_line(hit: ScoredMemory, ranks: dict[str, int] | None = None) -> str:
    """Why a hit was chosen and why it stands at its rank (``placed``: the step that set its
    place), in words; the score is labelled for what it is, one input of the order among
    others. ``ranks`` numbers the hits an episode turn or a reply may refer to."""
    label = "score with the condition bonus" if hit.lifted else "content score"
    tail = f"{'; placed: ' + hit.placed if hit.placed else ''}; {label} {hit.score:.3f}"
    if hit.reason == "context":
        return f"meets {', '.join(hit.matched) or 'the conditions read'}{tail}"
    of = ", ".join(f"#{(ranks or {})[i]}" for i in hit.matched if i in (ranks or {}))
    if hit.reason == "episode":
        return f"said in the same episode as {of or 'a hit'}{tail}"
    if hit.reason == "reply":
        return f"a named person's reply to {of or 'a hit'}, a question put to them{tail}"
    if hit.frame is not None and not hit.frame.is_grounded:
        return f"chosen by relevance, no condition read{tail}"
    return f"no condition met{tail}"


def _namespaces(args: argparse.Namespace) -> int:
    mem = _open(args)
    if not args.counts:
        names = mem.namespace_names()
        if args.json or names:
            print(json.dumps(names, indent=2) if args.json else "\n".join(names))
        return 0
    counts = mem.namespaces()
    if args.json:
        print(json.dumps(counts, indent=2))
    else:
        for ns, n in counts.items():
            print(f"{ns}\t{n}")
    return 0


def _answer(args: argparse.Namespace) -> int:
    from ramem_integrations.memory.answering import answer_to_json

    mem = _open(args, limits=_limits(args), embeds=True)
    asked_on = _asked_on(args)
    with _model_failures() as failures:
        result = mem.answer(args.question, namespace=args.namespace, k=args.k, reference=asked_on)
    missed = not_grounded(mem.frame(args.question, args.namespace, reference=asked_on), asked_on)
    if args.json:
        hits = [hit_to_json(h) for h in result.hits]
        found = {**answer_to_json(result, hits), "not_grounded": missed}
        print(json.dumps(found, indent=2, ensure_ascii=False))
    else:
        _warn_not_grounded(missed)
        shown = "(no answer: the model failed; the evidence follows)" if failures else None
        print(shown_text(result.text) if result.text is not None else shown or f"({result.note})")
        print("\nevidence:")
        for rank, hit in enumerate(result.hits, 1):
            text = indented(shown_text(hit.memory.content))
            print(f"{rank:>2}. {text}\n    {shown_text(coordinates_line(hit.memory))}")
    for failure in dict.fromkeys(failures):  # each once, after the evidence
        print(f"error: {failure}", file=sys.stderr)
    return EXIT_FAILED if failures else 0


@contextmanager
def _model_failures() -> Iterator[list[str]]:
    """The model's failures while answering, collected to be said once (the library logs and
    warns each, for API users); other warnings pass through."""
    import logging
    import warnings

    from ramem_integrations.models.llm import RamemFallbackWarning

    failures: list[str] = []
    quiet = logging.getLogger("ramem_integrations.memory.answering")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield failures
    finally:
        quiet.setLevel(level)
    for w in caught:
        if issubclass(w.category, RamemFallbackWarning):
            failures.append(str(w.message))
        else:
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def _reembed(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    mem = _open(args, writes=True)
    stored = mem.namespaces()
    namespaces = args.namespace or list(stored)
    counts: dict[str, int] = {}
    with tqdm(
        total=sum(stored.get(ns, 0) for ns in namespaces),
        unit="mem",
        desc="re-embedding",
        file=sys.stderr,
    ) as bar:
        for namespace in namespaces:
            counts[namespace] = mem.reembed(namespace, progress=bar.update)
    if args.json:
        print(json.dumps({"reembedded": counts}, indent=2))
    else:
        for ns, n in counts.items():
            print(f"{ns}: {n} memories re-embedded")
    return 0


def _export(args: argparse.Namespace) -> int:
    from ramem_integrations.app.backup import export_namespace

    mem = _open(args)
    if args.out == "-":
        count = export_namespace(mem, args.namespace, sys.stdout)
        print(f"{args.namespace}: {count} memories written to standard output", file=sys.stderr)
        return 0
    count = export_namespace(mem, args.namespace, Path(args.out), overwrite=args.overwrite)
    print(f"{args.namespace}: {count} memories written to {args.out}", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    from ramem_integrations.app.backup import import_memories, read_export

    limits = _limits(args)
    source = STDIN if args.path == "-" else Path(args.path)  # as 'export --out -' writes
    exported = read_export(source, limits)  # all checked before the store is created
    mem = _open(args, create=True, limits=limits)
    counts = import_memories(mem, exported, args.namespace, replace=args.replace)
    if args.json:
        print(json.dumps(counts))
    else:
        read, added, changed = counts["read"], counts["added"], counts["changed"]
        print(
            f"{read} memories read into namespace {counts['namespace']!r}: {added} added, "
            f"{changed} changed, {read - added - changed} already stored"
        )
    return 0


#: Where ``ramem import -`` reads: the standard input as a file (read once, whole).
STDIN = Path("/dev/stdin")


def _forget(args: argparse.Namespace) -> int:
    mem = _open(args, writes=True)
    if args.conversation is not None:
        _check_conversation(mem, args)
    # a namespace never written is an error, not "0 forgotten"
    removed = mem.forget(
        args.namespace, ids=args.id, conversation_id=args.conversation, missing_ok=False
    )
    if args.json:
        print(json.dumps({"namespace": args.namespace, "forgotten": removed}))
    else:
        print(f"{args.namespace}: {removed} memories forgotten, {mem.count(args.namespace)} left")
    return 0


def conversation_counts(mem: Any, namespace: str) -> dict[str, int]:
    """The namespace's conversation ids with their numbers of memories, by id."""
    counts: dict[str, int] = {}
    for unit in mem.memories(namespace):
        counts[unit.conversation_id] = counts.get(unit.conversation_id, 0) + 1
    return dict(sorted(counts.items()))


def _check_conversation(mem: Any, args: argparse.Namespace) -> None:
    """Refuse to forget a conversation the namespace does not hold: name those it does."""
    namespace, conversation = args.namespace, args.conversation
    known = conversation_counts(mem, namespace)
    if conversation in known:
        return
    close = difflib.get_close_matches(conversation, list(known), n=3, cutoff=0.6)
    listed = ", ".join(map(repr, close or list(known)[:10]))
    more = f" (and {len(known) - 10} more)" if not close and len(known) > 10 else ""
    raise InvalidInputError(
        f"Namespace {namespace!r} holds no conversation {conversation!r}; nothing was "
        f"forgotten. {'Did you mean' if close else 'Its conversations are'} {listed}{more}? "
        f"'ramem conversations {_where(args)} --namespace {namespace}' lists them all."
    )


def _conversations(args: argparse.Namespace) -> int:
    counts = conversation_counts(_open(args), args.namespace)
    if args.json:
        print(json.dumps(counts, indent=2, ensure_ascii=False))
    else:
        for conversation, n in counts.items():
            print(f"{conversation}\t{n}")
    return 0


def _upgrade(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from ramem_integrations.stores.upgrade import upgrade

    client = _client(args.store, args.server)
    with tqdm(unit="mem", desc="upgrading", file=sys.stderr, disable=args.json) as bar:

        def total(n: int) -> None:
            bar.total = n
            bar.refresh()

        result = upgrade(client, args.collection, progress=bar.update, total=total)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    elif result["upgraded"]:
        print(
            f"upgraded {result['memories']} memories in {len(result['namespaces'])} namespaces "
            f"to format {result['format']} (a collection per namespace)"
        )
    else:
        print(f"already in format {result['format']}: nothing to do")
    return 0


def _client(store: Path | None, server: str | None) -> Any:
    """A chromadb client on an existing embedded store or on a Chroma server."""
    from ramem_integrations.stores.chroma import persistent_client, server_client

    if store is not None:
        if not (store / "chroma.sqlite3").is_file():
            raise StoreError(f"{store} is not a ramem store. Check the path.")
        return persistent_client(store)
    return server_client(server or "")


def _eval(args: argparse.Namespace) -> int:
    """``ramem eval``: its parser is built only when it runs, since it imports the evaluation
    systems (chromadb, numpy), which every other command's start-up should not pay for."""
    from ramem_integrations.evaluation.cli import main as eval_main

    return eval_main(["eval", *args.arguments])


def _eval_diff(args: argparse.Namespace) -> int:
    from ramem_integrations.evaluation.diff import compare, diff_text, load_result

    before = load_result(args.before)
    after = load_result(args.after) if args.after else before
    diff = compare(before, after, args.system, args.against)
    print(json.dumps(diff, indent=2) if args.json else diff_text(diff))
    return 0


def _eval_steps(args: argparse.Namespace) -> int:
    from ramem_integrations.evaluation.diff import load_result
    from ramem_integrations.evaluation.steps import DEFAULT_BUDGET, step_text, step_view

    results = [load_result(path) for path in args.results]
    budgets = _family_budgets(args.budget)
    default = budgets.pop("", DEFAULT_BUDGET)
    view = step_view(results, args.system, args.without, budgets=budgets, default=default)
    print(json.dumps(view, indent=2) if args.json else step_text(view))
    return 0


def _family_budgets(given: list[str]) -> dict[str, int]:
    """``--budget`` values: ``1000`` for every family (key ""), ``beam=2000`` for one."""
    out: dict[str, int] = {}
    for text in given:
        family, _, tokens = text.rpartition("=")
        if not tokens.isdigit() or int(tokens) < 1:
            raise InvalidInputError(
                f"--budget takes a number of tokens, or FAMILY=TOKENS (beam=2000); got {text!r}."
            )
        out[family] = int(tokens)
    return out


def _demo(args: argparse.Namespace) -> int:
    from ramem_integrations.app.demo import run_demo

    return run_demo(args.store)


def hit_to_json(hit: ScoredMemory) -> dict[str, Any]:
    return {
        "score": hit.score,
        "reason": hit.reason,
        "matched": list(hit.matched),
        **memory_json(hit.memory),
    }


def coordinates_line(unit: MemoryUnit) -> str:
    """One line of a memory's coordinates, for terminal output."""
    ctx = unit.context
    parts = [f"said {coordinates(unit)['said']}"]
    if ctx.event_time:
        parts.append(f"happened {ctx.event_time.label()}")
    if ctx.participants:
        parts.append("with " + shown_names(ctx.participants))
    if ctx.location:
        parts.append(f"at {shown_name(ctx.location)}")
    parts.append(f"source {', '.join(unit.source_ids)}")
    if unit.corrected_by:
        parts.append("time corrected by a later message")
    return " | ".join(parts)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
