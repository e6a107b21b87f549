"""Does a memory come back among the 5 nearest to its own vector? One shared collection with a
namespace filter (format 1) against a collection per namespace (format 2), on the data of
``tests/reliability/test_concurrency.py::test_several_processes_on_a_chroma_server`` (4
namespaces of the same 120-turn synthetic conversation, the hashing embedder, writes in batches
of 16 interleaved across namespaces), one process, ``--seeds`` conversations::

    PYTHONPATH=. .venv/bin/python benchmarks/self_recall.py --seeds 15

Memories whose exact vector more than 4 others share are skipped (a tie, not a miss).
"""

from __future__ import annotations

import argparse
import tempfile

import chromadb
import numpy as np
from chromadb.config import Settings

from ramem_integrations.core.anchoring import RuleAnchorer
from tests.fakes import HashingEmbedder
from tests.reliability.helpers import synthetic_conversation

NAMESPACES = ("own0", "own1", "own2", "shared")
COSINE = {"hnsw": {"space": "cosine"}}


def run(seeds: int) -> dict[str, int]:
    embedder = HashingEmbedder()
    found = {"checked": 0, "missed_shared_filtered": 0, "missed_per_namespace": 0}
    for seed in range(seeds):
        client = chromadb.PersistentClient(
            tempfile.mkdtemp(), settings=Settings(anonymized_telemetry=False)
        )
        shared = client.create_collection("shared", embedding_function=None, configuration=COSINE)
        conversation = synthetic_conversation("default", 4, 30, seed=seed)
        data = {}
        for ns in NAMESPACES:
            units = RuleAnchorer().anchor(conversation, ns)
            vectors = embedder.embed([u.search_text for u in units])
            data[ns] = (units, vectors)
            own = client.create_collection(
                f"ns-{ns}", embedding_function=None, configuration=COSINE
            )
            for start in range(0, len(units), 16):
                ids = [u.id for u in units[start : start + 16]]
                own.upsert(ids=ids, embeddings=vectors[start : start + 16])
                shared.upsert(
                    ids=ids,
                    embeddings=vectors[start : start + 16],
                    metadatas=[{"namespace": ns}] * len(ids),
                )
        for ns, (units, vectors) in data.items():
            own = client.get_collection(f"ns-{ns}")
            for unit, vector in zip(units, vectors, strict=True):
                if int((np.abs(vectors - vector).sum(axis=1) < 1e-6).sum()) > 5:
                    continue
                found["checked"] += 1
                a = shared.query(
                    query_embeddings=[vector], n_results=5, where={"namespace": ns}, include=[]
                )["ids"][0]
                b = own.query(query_embeddings=[vector], n_results=5, include=[])["ids"][0]
                found["missed_shared_filtered"] += unit.id not in a
                found["missed_per_namespace"] += unit.id not in b
    return found


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=15)
    print(run(parser.parse_args().seeds))
