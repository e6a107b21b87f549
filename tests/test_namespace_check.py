"""The namespace is checked once per call, at the facade (core/namespaces.py): the layers
below it, the store's collections and write marks too, take the checked value as it is; a bad
namespace is refused with the same error from every public entry."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import ramem_integrations.core.namespaces as namespaces
from ramem_integrations.app import cli
from ramem_integrations.core.namespaces import Namespace, check_namespace
from ramem_integrations.errors import NamespaceError
from ramem_integrations.memory.ramem import RaMem
from ramem_integrations.testing import HashingEmbedder

SAID = datetime(2024, 3, 12, 18, tzinfo=UTC)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The namespaces really checked (each check reads the name's Unicode once)."""
    seen: list[str] = []
    original = namespaces.check_unicode

    def counted(text: str, what: str) -> None:
        seen.append(text)
        original(text, what)

    monkeypatch.setattr(namespaces, "check_unicode", counted)
    return seen


@pytest.fixture
def mem(tmp_path: Path) -> RaMem:
    memory = RaMem.from_path(tmp_path / "store", embedder=HashingEmbedder())
    memory.add_turns([{"speaker": "Ann", "text": "I went hiking"}], "alice", session_time=SAID)
    return memory


def _langchain(mem: RaMem, namespace: Any) -> Callable[[], object]:
    from ramem_integrations.langchain import RaMemRetriever

    return lambda: RaMemRetriever(memory=mem, namespace=namespace, k=1).invoke("hiking")


def _llama_index(mem: RaMem, namespace: Any) -> Callable[[], object]:
    from ramem_integrations.llama_index import RaMemRetriever

    return lambda: RaMemRetriever(mem, namespace, similarity_top_k=1).retrieve("hiking")


#: Every way to read: RaMem's own calls and the two retrievers (built inside the call).
READS: dict[str, Callable[[RaMem, Any], Callable[[], object]]] = {
    "retrieve": lambda m, ns: lambda: m.retrieve("hiking", ns, 1),
    "retrieve content": lambda m, ns: lambda: m.retrieve("hiking", ns, 1, mode="content"),
    "retrieve budget": lambda m, ns: lambda: m.retrieve("hiking", ns, budget=200),
    "frame": lambda m, ns: lambda: m.frame("hiking", ns),
    "langchain": _langchain,
    "llama_index": _llama_index,
}


@pytest.mark.parametrize("read", READS)
def test_a_read_checks_its_namespace_once(mem: RaMem, checks: list[str], read: str) -> None:
    if read in ("langchain", "llama_index"):
        pytest.importorskip(f"{read}_core" if read == "langchain" else "llama_index.core")
    call = READS[read](mem, "alice")
    call()  # the first read fills the cache
    checks.clear()
    call()
    assert checks == ["alice"]
    turn = {"speaker": "Ann", "text": "and swimming"}
    mem.add_turns([turn], "alice", session_time=SAID, session_id="s2")
    checks.clear()
    call()  # a read after a write brings the cache up to the store: still one check
    assert checks == ["alice"]


def test_a_checked_namespace_is_not_checked_again(checks: list[str]) -> None:
    checked = check_namespace("alice")
    assert isinstance(checked, Namespace) and checked == "alice" and checks == ["alice"]
    assert check_namespace(checked) is checked and checks == ["alice"]


BAD = ["", "   ", None, 7, "al\ud800ice"]


def _expected(namespace: Any) -> str:
    with pytest.raises(NamespaceError) as caught:
        check_namespace(namespace)
    return str(caught.value)


@pytest.mark.parametrize("read", READS)
@pytest.mark.parametrize("namespace", BAD)
def test_a_bad_namespace_is_refused_alike_from_every_entry(
    mem: RaMem, read: str, namespace: Any
) -> None:
    if read in ("langchain", "llama_index"):
        pytest.importorskip(f"{read}_core" if read == "langchain" else "llama_index.core")
    with pytest.raises(NamespaceError) as caught:
        READS[read](mem, namespace)()
    assert str(caught.value) == _expected(namespace)


@pytest.mark.parametrize("namespace", ["", "   ", "al\ud800ice"])
def test_the_cli_refuses_a_bad_namespace_with_the_same_words(
    mem: RaMem, tmp_path: Path, capsys: pytest.CaptureFixture[str], namespace: str
) -> None:
    store = str(tmp_path / "store")
    code = cli.main(["query", "hiking", "--store", store, "--namespace", namespace])
    assert code == cli.EXIT_REFUSED
    assert capsys.readouterr().err.strip() == f"error: {_expected(namespace)}"


def test_the_store_still_checks_a_plain_string(mem: RaMem) -> None:
    """A store is a public edge of its own: a namespace not checked by the facade is checked
    where it names a collection."""
    with pytest.raises(NamespaceError, match="namespace is required"):
        mem.store.get("  ")


def test_a_write_of_turns_checks_its_namespace_once(mem: RaMem, checks: list[str]) -> None:
    turn = {"speaker": "Ann", "text": "and then cycling"}
    mem.add_turns([turn], "alice", session_time=SAID, session_id="s3")
    assert checks == ["alice"]
    assert [u.content for u in mem.memories("alice") if "cycling" in u.content]
