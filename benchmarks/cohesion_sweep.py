"""``ramem eval`` with episodes cut by lexical, embedding or mixed cohesion.

Used to compare the cohesion that cuts sessions into episodes (docs/episodes.md, "Cohesion by
words or by embedding"). Embedding cohesion is the cosine between the mean MiniLM vector of the
``window`` turns before a gap and of those after it; mixed is the mean of both cohesions. Every
argument after the cohesion ones is passed to ``ramem eval``; give each setting its own
``--cache`` directory, since the cache key does not see these settings.

    python benchmarks/cohesion_sweep.py --cohesion embedding --depth 0.35 -- locomo \\
        benchmarks/data/episodes/episodes-dev.json --systems ramem --asked-on end \\
        --cache /tmp/sweep/embedding-0.35
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import ramem_integrations.memory.ramem as memory
from ramem_integrations.app.cli import main
from ramem_integrations.core.prompts import spoken_text
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.types import MemoryUnit
from ramem_integrations.models.embeddings import default_embedder


@dataclass(frozen=True)
class EmbeddingCohesion(Segmenter):
    """Cuts where the turns' vectors (or, ``mixed``, vectors and words) change."""

    mixed: bool = False

    def cohesion(self, session: Sequence[MemoryUnit]) -> list[float]:
        vectors = default_embedder().embed([spoken_text(u) or "-" for u in session])
        out = []
        for gap in range(1, len(session)):
            before = vectors[max(0, gap - self.window) : gap].mean(axis=0)
            after = vectors[gap : gap + self.window].mean(axis=0)
            out.append(float(before @ after / (np.linalg.norm(before) * np.linalg.norm(after))))
        if self.mixed:
            out = [(a + b) / 2 for a, b in zip(out, super().cohesion(session), strict=True)]
        return out


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cohesion", choices=("lexical", "embedding", "mixed"), required=True)
    parser.add_argument("--depth", type=float, required=True, help="how deep a valley cuts")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="-- then ramem eval arguments")
    args = parser.parse_args(argv)
    if args.cohesion == "lexical":
        segmenter: Segmenter = Segmenter(depth=args.depth)
    else:
        segmenter = EmbeddingCohesion(depth=args.depth, mixed=args.cohesion == "mixed")
    memory.segmenter_for = lambda anchorer: segmenter  # type: ignore[assignment]
    rest = args.rest[1:] if args.rest[:1] == ["--"] else args.rest
    return main(["eval", *rest])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
