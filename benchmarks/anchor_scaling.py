"""How anchoring and episode segmentation scale with the turns of one session.

One chat file per size, all turns in a single session (two speakers, short distinct messages);
each size runs in a fresh interpreter that loads the file, anchors it (``RuleAnchorer``) and
cuts it into episodes (``Segmenter``), and reports the seconds of each step and its peak
resident memory. Linear work doubles with the turns; quadratic work quadruples.

    python benchmarks/anchor_scaling.py --turns 10000 20000 40000
    PYTHONPATH=OLD python benchmarks/anchor_scaling.py --name anchor_scaling_before  # older code
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from common import provenance, say, write_result

import ramem_integrations

#: The code measured: the package on PYTHONPATH (another checkout's, to measure older code).
PACKAGE = str(Path(ramem_integrations.__file__).parent)

WORDS = (
    "dentist trip Paris pottery class hiking lake weather concert sister job interview garden "
    "bread recipe guitar lesson marathon flight museum painting budget"
).split()

#: Run in a fresh interpreter on argv[1]: prints the figures of one size as JSON.
MEASURE = """
import json, resource, sys, time
from ramem_integrations.core.anchoring import RuleAnchorer
from ramem_integrations.core.conversation import load_conversations
from ramem_integrations.core.segmentation import Segmenter

start = time.perf_counter()
conversation = load_conversations(sys.argv[1])[0]
loaded = time.perf_counter()
units = RuleAnchorer().anchor(conversation, "bench")
anchored = time.perf_counter()
episodes = Segmenter().segment(units)
cut = time.perf_counter()
print(json.dumps({
    "units": len(units),
    "episodes": len({u.context.episode.id for u in episodes if u.context.episode}),
    "load_s": round(loaded - start, 2),
    "anchor_s": round(anchored - loaded, 2),
    "segment_s": round(cut - anchored, 2),
    "total_s": round(cut - start, 2),
    "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
}))
"""


def chat_file(path: Path, turns: int) -> Path:
    """One session of ``turns`` distinct short messages between Ann and Ben."""
    rng = random.Random(1)
    said = [
        {
            "speaker": ("Ann", "Ben")[t % 2],
            "text": "I talked with Cleo about the "
            + " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 6)))
            + f" {t}.",
        }
        for t in range(turns)
    ]
    path.write_text(json.dumps([{"session_time": "2023-05-01 19:00", "turns": said}]))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[10000, 20000, 40000])
    parser.add_argument("--name", default="anchor_scaling")
    args = parser.parse_args()
    started = provenance()
    sizes = []
    with tempfile.TemporaryDirectory() as tmp:
        for turns in args.turns:
            path = chat_file(Path(tmp) / f"chat{turns}.json", turns)
            out = subprocess.run(
                [sys.executable, "-c", MEASURE, str(path)],
                cwd=tmp,  # the package is the one on PYTHONPATH
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            figures = {"turns": turns, "file_mb": round(path.stat().st_size / 2**20, 2)}
            figures |= json.loads(out)
            say(json.dumps(figures))
            sizes.append(figures)
    write_result(args.name, {"package": PACKAGE, "sizes": sizes}, started)


if __name__ == "__main__":
    main()
