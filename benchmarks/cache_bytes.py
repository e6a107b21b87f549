"""What one loaded memory costs in the namespace cache, besides its vector (tracemalloc).

    python benchmarks/cache_bytes.py [CONVERSATIONS.json]   # default: the shipped chats set

Ingests the conversations into a temporary store (hashing embedder: the vectors' width does not
matter here, they are subtracted), then loads each namespace from the store into a fresh cache
under tracemalloc and prints the bytes per memory beyond its vector: the estimate that
``lexical.BYTES_PER_MEMORY`` holds. Writes benchmarks/results/cache_bytes.json.
"""

from __future__ import annotations

import json
import sys
import tempfile
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ramem_integrations.core.conversation import load_conversations  # noqa: E402
from ramem_integrations.index.namespaces import BYTES_PER_MEMORY, NamespaceCache  # noqa: E402
from ramem_integrations.memory.ramem import RaMem  # noqa: E402
from ramem_integrations.testing import HashingEmbedder  # noqa: E402

DEFAULT = ROOT / "benchmarks" / "data" / "chats" / "chats-dev.json"


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else DEFAULT
    conversations = load_conversations(path)
    with tempfile.TemporaryDirectory() as tmp:
        mem = RaMem.from_path(tmp, embedder=HashingEmbedder())
        for conversation in conversations:
            mem.add_conversation(conversation, conversation.id)
        namespaces = [c.id for c in conversations]
        mem.store.get_with_vectors(namespaces[0])  # Chroma's own one-time allocations
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        cache = NamespaceCache(mem.store.get_with_vectors)  # memories read from the store
        for namespace in namespaces:
            cache.index(namespace)
        taken = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        memories = sum(len(cache.vectors(ns)) for ns in namespaces)
        vectors = sum(cache.vectors(ns).nbytes for ns in namespaces)
    per_memory = (taken - vectors) / memories
    result = {
        "data": str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path),
        "memories": memories,
        "bytes_beyond_vectors_per_memory": round(per_memory),
        "constant": BYTES_PER_MEMORY,
    }
    print(json.dumps(result, indent=2))
    out = ROOT / "benchmarks" / "results" / "cache_bytes.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
