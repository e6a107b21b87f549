"""RaMem over a Chroma server: ``chroma run`` in a subprocess, ``chromadb.HttpClient``.

Starts ``chroma run --path TMP --host 127.0.0.1 --port FREE``, waits for its heartbeat, stores
the sample conversation through ``RaMem.from_client`` and asks a time-conditioned question;
the server is stopped (by its pid) whatever happens. Offline; writes only into a temporary
folder.

    python examples/chroma_server.py
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chromadb
from chromadb.config import Settings

from ramem_integrations import RaMem, load_conversations
from ramem_integrations.app.demo import ASKED_ON, sample_path

QUESTION = "What did the dentist say last March?"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def chroma_command() -> str:
    """The ``chroma`` command installed beside this Python (else on PATH)."""
    beside = Path(sys.executable).with_name("chroma")
    found = str(beside) if beside.exists() else shutil.which("chroma")
    if found is None:
        raise SystemExit("The chroma command is not installed; pip install chromadb.")
    return found


def wait_for(client_port: int, server: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"chroma run exited with code {server.returncode}.")
        try:
            chromadb.HttpClient(
                host="127.0.0.1", port=client_port, settings=Settings(anonymized_telemetry=False)
            ).heartbeat()
            return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"The Chroma server did not answer within {timeout:.0f} s.")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ramem-chroma-") as tmp:
        port = free_port()
        server = subprocess.Popen(
            [chroma_command(), "run", "--path", tmp, "--host", "127.0.0.1", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_for(port, server)
            print(f"Chroma server up on 127.0.0.1:{port} (pid {server.pid})")
            client = chromadb.HttpClient(
                host="127.0.0.1", port=port, settings=Settings(anonymized_telemetry=False)
            )
            mem = RaMem.from_client(client)
            (conversation,) = load_conversations(sample_path())
            mem.add_conversation(conversation, namespace="alice")
            print(f"Stored {mem.count('alice')} memories over HTTP.\n")
            hits = mem.retrieve(QUESTION, "alice", k=2, reference=ASKED_ON)
            print(f"{QUESTION} (asked {ASKED_ON:%d %B %Y})")
            for hit in hits:
                ctx = hit.memory.context
                print(f"  [{hit.reason}] {ctx.session_span.label()}: {hit.memory.content}")
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            print(f"\nStopped the server (pid {server.pid}).")


if __name__ == "__main__":
    main()
