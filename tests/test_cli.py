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
    code, out, _ = run(capsys, "namespaces", "--store", store, "--json")
    assert json.loads(out) == {"default": 5}


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
