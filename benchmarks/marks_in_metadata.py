"""Could the write marks live in each namespace collection's metadata instead of one marks
collection? Through a Chroma server (``chroma run`` on loopback, two HttpClients): whether a
metadata change by one client is seen at once by the other, and what a query costs right after
such a change (Chroma replaces a collection's metadata whole on ``modify``)::

    .venv/bin/python benchmarks/marks_in_metadata.py
"""

from __future__ import annotations

import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import chromadb
import numpy as np


def main() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    chroma = Path(sys.executable).with_name("chroma")
    args = [str(chroma), "run", "--path", tempfile.mkdtemp(), "--host", "127.0.0.1"]
    proc = subprocess.Popen(
        [*args, "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        writer = chromadb.HttpClient(host="127.0.0.1", port=port)
        reader = chromadb.HttpClient(host="127.0.0.1", port=port)
        col = writer.get_or_create_collection("ns-one", embedding_function=None)
        vectors = np.random.default_rng(0).standard_normal((500, 384)).astype("float32")
        col.upsert(ids=[str(i) for i in range(500)], embeddings=vectors)
        stale = 0
        for i in range(1, 101):
            col.modify(metadata={"w:a": i})
            stale += reader.get_collection("ns-one").metadata.get("w:a") != i
        query = np.random.default_rng(1).standard_normal((1, 384)).astype("float32")
        theirs = reader.get_collection("ns-one")
        plain, after = [], []
        for i in range(60):
            started = time.perf_counter()
            theirs.query(query_embeddings=query, n_results=10, include=[])
            plain.append(time.perf_counter() - started)
            col.modify(metadata={"w:a": 1000 + i})
            started = time.perf_counter()
            theirs.query(query_embeddings=query, n_results=10, include=[])
            after.append(time.perf_counter() - started)
        print(f"stale metadata reads through the server: {stale} of 100")
        print(
            f"query p50: {statistics.median(plain) * 1e3:.2f} ms, right after a metadata "
            f"change {statistics.median(after) * 1e3:.2f} ms (60 each)"
        )
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
