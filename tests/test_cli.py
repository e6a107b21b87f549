import json
from pathlib import Path

import pytest

from ramem_integrations.app import cli
from ramem_integrations.testing import HashingEmbedder

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def fake_embedder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI is tested for its plumbing; the embedder is faked for speed."""
    monkeypatch.setattr("ramem_integrations.models.embeddings.default_embedder", HashingEmbedder)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_ingest_query_namespaces_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "s")
    code, out, _ = run(
        capsys, "ingest", str(FIXTURES / "chat_small.json"), "--store", store, "--json"
    )
    assert code == 0 and json.loads(out) == {
        "read": {"default": 5},
        "added": {"default": 5},
        "changed": {"default": 0},
        "replaced": {"default": 0},
        "stored": {"default": 5},
    }
    code, out, _ = run(
        capsys, "ingest", str(FIXTURES / "chat_small.json"), "--store", store, "--json"
    )
    assert json.loads(out)["stored"] == {"default": 5}  # ingesting twice changes nothing
    code, out, _ = run(
        capsys,
        "query",
        "pottery class",
        "--store",
        store,
        "--namespace",
        "default",
        "--k",
        "2",
        "--json",
    )
    hits = json.loads(out)
    assert code == 0 and len(hits) == 2
    top = hits[0]
    assert top["source_ids"] == ["b:2"] and top["reason"] == "content"
    assert top["context"]["session_span"]["label"].startswith("8 June 2023")
    assert top["context"]["participants"] == ["Ben", "Ann"]
    # the verbatim turn, its restatement beside it, and its episode
    assert top["content"] == "Not yet, I started a pottery class two days ago."
    assert top["restatement"] == "Ann (to Ben): Not yet, I started a pottery class on 6 June 2023."
    episode = top["context"]["episode"]
    assert episode["id"] and episode["position"] >= 0 and isinstance(episode["participants"], list)
    code, out, _ = run(capsys, "namespaces", "--store", store, "--json", "--counts")
    assert json.loads(out) == {"default": 5}
    code, out, _ = run(capsys, "namespaces", "--store", store, "--json")
    assert json.loads(out) == ["default"]


def test_bad_file_is_a_clear_error_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[{"session_time": "someday", "turns": [{"speaker": "A", "text": "x"}]}]')
    code, _, err = run(capsys, "ingest", str(bad), "--store", str(tmp_path / "s"))
    assert code == 2 and "cannot read the date 'someday'" in err
    assert not (tmp_path / "s").exists()  # nothing was created
    code, _, err = run(capsys, "namespaces", "--store", str(tmp_path / "s"), "--json")
    assert code == 2 and "does not exist" in err


def test_query_without_namespace_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        cli.main(["query", "q", "--store", str(tmp_path)])


def test_query_asked_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path / "s")
    run(capsys, "ingest", str(FIXTURES / "chat_small.json"), "--store", store)
    args = ["query", "hiking", "--store", store, "--namespace", "default", "--k", "1", "--json"]
    code, out, _ = run(capsys, *args, "--asked-on", "2023-06-09")
    assert code == 0 and json.loads(out)[0]["source_ids"][0].startswith(("a:", "b:"))
    code, _, err = run(capsys, *args, "--asked-on", "someday")
    assert code == 2 and "cannot read the date 'someday'" in err


def test_listing_namespaces_and_did_you_mean_open_no_namespace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing the names, and suggesting close ones for a mistyped namespace, read the
    collections' metadata only: each namespace read once cost about 2.7 MB (2,000 one-memory
    tenants took 20 s and 5.3 GB)."""
    from datetime import UTC, datetime

    from chromadb.api.models.Collection import Collection

    from ramem_integrations.memory.ramem import RaMem
    from ramem_integrations.stores.layout import NAMESPACE_KEY

    store = tmp_path / "s"
    mem = RaMem.from_path(store, embedder=HashingEmbedder())
    tenants = [f"tenant-{i}" for i in range(6)]
    for tenant in tenants:
        turns = [{"speaker": "Ann", "text": f"a note of {tenant}"}]
        mem.add_turns(turns, tenant, session_time=datetime(2025, 5, 1, tzinfo=UTC))
    reads: list[str] = []
    for name in ("count", "get", "query", "peek"):
        method = getattr(Collection, name)

        def counted(self: Collection, *args: object, _m: object = method, **kw: object) -> object:
            if NAMESPACE_KEY in (self.metadata or {}):
                reads.append(self.name)
            return _m(self, *args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(Collection, name, counted)

    code, _, err = run(capsys, "query", "note", "--store", str(store), "--namespace", "tenant_3")
    assert code == 2 and "Did you mean 'tenant-3'" in err
    assert reads == []  # no namespace was opened
    code, out, _ = run(capsys, "namespaces", "--store", str(store))
    assert (code, out.split(), reads) == (0, tenants, [])
    code, out, _ = run(capsys, "namespaces", "--store", str(store), "--counts", "--json")
    assert json.loads(out) == dict.fromkeys(tenants, 1) and len(reads) == len(tenants)
