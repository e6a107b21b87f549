"""What listing a store's namespaces costs as its tenants grow.

A store of ``--tenants`` one-memory namespaces (made once with the hashing embedder, kept at
``--store``); each figure is a fresh interpreter running one ``ramem`` command on it, with
its seconds and its peak resident memory: ``namespaces`` (the names), ``namespaces --counts``
(opens every namespace, when this version has the option) and a query of a mistyped
namespace (whose error suggests the close names).

    python benchmarks/namespaces_listing.py --tenants 2000 --store /tmp/tenants2000
    PYTHONPATH=OLD python benchmarks/namespaces_listing.py --store /tmp/tenants2000 \\
        --name namespaces_listing_before   # older code, on the same store
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from common import provenance, say, write_result

import ramem_integrations

#: The code measured: the package on PYTHONPATH (another checkout's, to measure older code).
PACKAGE = str(Path(ramem_integrations.__file__).parent)

MAKE = """
import sys
from datetime import UTC, datetime
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder
mem = RaMem.from_path(sys.argv[1], embedder=HashingEmbedder())
when = datetime(2025, 5, 1, 19, tzinfo=UTC)
for i in range(int(sys.argv[2])):
    mem.add_turns([{"speaker": "Ann", "text": f"note {i}"}], f"tenant-{i:05d}", session_time=when)
"""

#: One ``ramem`` command (argv[1:]) in this interpreter: its exit code, seconds and peak RSS.
RUN = """
import contextlib, io, json, resource, sys, time
from ramem_integrations.app.cli import main
start = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:  # an option this version does not have
        code = exc.code
print(json.dumps({
    "exit": code,
    "seconds": round(time.perf_counter() - start, 2),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
}))
"""


def python(script: str, *args: str, cwd: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", script, *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tenants", type=int, default=2000)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--name", default="namespaces_listing")
    args = parser.parse_args()
    started = provenance()
    with tempfile.TemporaryDirectory() as cwd:  # the package is the one on PYTHONPATH
        if not args.store.exists():
            say(f"writing {args.tenants} tenants to {args.store}")
            python(MAKE, str(args.store), str(args.tenants), cwd=cwd)
        store = str(args.store)
        commands = {
            "namespaces": ["namespaces", "--store", store],
            "namespaces --counts": ["namespaces", "--store", store, "--counts"],
            "mistyped namespace": ["query", "note", "--store", store, "--namespace", "tenant_1"],
        }
        figures = {}
        for label, argv in commands.items():
            figures[label] = json.loads(python(RUN, *argv, cwd=cwd))
            say(label, json.dumps(figures[label]))
    payload = {"package": PACKAGE, "tenants": args.tenants, "store": store, "commands": figures}
    write_result(args.name, payload, started)


if __name__ == "__main__":
    main()
