"""``ramem eval`` with the message grouping of the rule anchorer set by hand.

Used to choose ``DEFAULT_GAP`` and the reaction rule (docs/anchoring.md, "Grouping"). Every
argument after the grouping ones is passed to ``ramem eval``; give each setting its own
``--cache`` directory, since the cache key does not see these settings.

    python benchmarks/grouping_sweep.py --gap 3 --speaker-only -- locomo \\
        benchmarks/data/chats/chats-dev.json --systems bm25,content,ramem --k 1,10 \\
        --cache /tmp/sweep/g3-speaker
"""

from __future__ import annotations

import argparse
import functools
import sys
from datetime import timedelta

import ramem_integrations.core.anchoring as anchoring
from ramem_integrations.app.cli import main


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gap", default="3", help="minutes, or 'none' for one unit per turn")
    parser.add_argument(
        "--speaker-only", action="store_true", help="the other speaker's reactions cut a burst"
    )
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="-- then ramem eval arguments")
    args = parser.parse_args(argv)
    gap = None if args.gap == "none" else timedelta(minutes=float(args.gap))
    anchoring.RuleAnchorer = functools.partial(  # type: ignore[misc]
        anchoring.RuleAnchorer, group_gap=gap, absorb_reactions=not args.speaker_only
    )
    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    return main(["eval", *rest])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
