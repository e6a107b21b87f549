"""Every snippet of README.md and docs/*.md runs as written, offline, in an empty folder.

The rule a doc follows (README.md, "Development", says it for writers):

- A file's ```python blocks run in order, in one interpreter and one namespace, in a fresh
  temporary folder: a block may use what an earlier block of the same file defined, as a reader
  pasting them into one session would. The first failing block stops the file; later blocks fail
  naming it.
- A plain ``` or ```text block right after a python block is that block's printed output: it must
  match, ``[...]`` standing for any text.
- Then the file's ```bash blocks run in the same folder: each ``ramem ...`` line must exit 0.
  Set-up lines (``SKIPPED``) are not run; any other line fails, so a new kind of command is a
  choice made here.
- LoCoMo may not be redistributed, so a data file named in ``EXTERNAL_DATA`` is put in the folder,
  under that name, as the tiny fixture of the same format, before the commands run.

Every block is its own test (``README.md#py0``, ``docs/langchain.md#sh1``), so a new doc is covered
without a change here. Offline: no network (a dead proxy), no model download, no LLM key.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
FIXTURES = Path(__file__).resolve().parent / "fixtures"

#: Shell lines that set things up rather than show the ``ramem`` command: not run.
SKIPPED = (
    "make ",
    "pip ",
    "python ",
    "pytest ",
    "chroma run",
    "RAMEM_RELIABILITY_KILLS=",
    "/tmp/stvenv/bin/pip ",
)
#: Data the commands name that may not be shipped, and the fixture of its format standing in.
EXTERNAL_DATA = {
    "locomo.json": FIXTURES / "locomo-tiny.json",
    # the development file's conversation ids over the tiny fixture's turns
    "locomo-dev.json": FIXTURES / "locomo-dev-standin.json",
}
TIMEOUT = 900  # seconds for a whole file: the packaged model on 2 busy cores

_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Block:
    code: str
    output: str | None  # the printed output the doc shows right after it


def blocks(name: str) -> tuple[list[Block], list[str]]:
    """The python blocks of doc ``name`` with their shown output, and its bash command lines."""
    text = (ROOT / name).read_text(encoding="utf-8")
    found = list(_BLOCK.finditer(text))
    python: list[Block] = []
    lines: list[str] = []
    for i, match in enumerate(found):
        lang, body = match.group(1), match.group(2)
        if lang == "python":
            after = found[i + 1] if i + 1 < len(found) else None
            adjacent = after and not text[match.end() : after.start()].strip()
            shown = after.group(2) if adjacent and after.group(1) in ("", "text") else None
            python.append(Block(body, shown))
        elif lang in ("bash", "sh", "shell", "console"):
            lines += [line for line in _join_continued(body) if line.strip()]
    return python, lines


def _join_continued(body: str) -> list[str]:
    return body.replace("\\\n", " ").splitlines()


def _command(line: str) -> list[str] | None:
    """The words of a shell line to run, or None for a comment or a ``SKIPPED`` set-up line."""
    if line.lstrip().startswith("#") or line.startswith(SKIPPED):
        return None
    return shlex.split(line, comments=True)


def _unknown(words: list[str]) -> str | None:
    """Why a command is not run, when it is neither ``ramem ...`` nor set-up."""
    if words and words[0] == "ramem":
        return None
    return f"{shlex.join(words)!r} is neither a ramem command nor a SKIPPED set-up line"


# Runs in the snippet's own interpreter: each block in one shared namespace, output captured.
_RUNNER = """
import contextlib, io, json, sys, traceback
blocks, results, namespace = json.load(open(sys.argv[1])), [], {"__name__": "__main__"}
for name, code in blocks:
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, name, "exec"), namespace)
    except BaseException:
        results.append({"stdout": out.getvalue(), "error": traceback.format_exc()})
        break
    results.append({"stdout": out.getvalue(), "error": None})
json.dump(results, open(sys.argv[2], "w"))
"""


@dataclass(frozen=True)
class Ran:
    stdout: str
    error: str | None


def _env(home: Path) -> dict[str, str]:
    drop = ("OPENAI_", "RAMEM_LLM_", "RAMEM_CACHE_DIR")  # no model configured, no shared cache
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(drop) and "PROXY" not in k.upper()
    }
    dead = "http://127.0.0.1:9"  # nothing listens: any network call fails
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '/usr/bin:/bin')}",
        PYTHONPATH=str(ROOT),
        HOME=str(home),
        RAMEM_CACHE_DIR=str(home / "cache"),
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        ANONYMIZED_TELEMETRY="False",
        HTTP_PROXY=dead,
        HTTPS_PROXY=dead,
        http_proxy=dead,
        https_proxy=dead,
    )
    return env


def run_doc(name: str, folder: Path) -> tuple[list[Ran], list[Ran]]:
    """Run doc ``name``'s python blocks, then its ramem lines, in ``folder``; one result each."""
    python, lines = blocks(name)
    work, home = folder / "work", folder / "home"
    work.mkdir()
    home.mkdir()
    env = _env(home)
    script, plan, out = folder / "runner.py", folder / "blocks.json", folder / "results.json"
    script.write_text(_RUNNER, encoding="utf-8")
    plan.write_text(json.dumps([[f"{name}#py{i}", b.code] for i, b in enumerate(python)]))
    done = subprocess.run(
        [sys.executable, str(script), str(plan), str(out)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    ran = (
        [Ran(r["stdout"], r["error"]) for r in json.loads(out.read_text())] if out.exists() else []
    )
    if len(ran) < len(python):
        why = ran[-1].error if ran and ran[-1].error else done.stderr[-3000:]
        ran += [Ran("", f"not run: an earlier block failed:\n{why}")] * (len(python) - len(ran))
    for data, fixture in EXTERNAL_DATA.items():
        if not (work / data).exists():
            shutil.copy(fixture, work / data)
    commands = []
    for line in lines:
        words = _command(line)
        if words is None:
            commands.append(Ran("", None))
            continue
        if (why := _unknown(words)) is not None:
            commands.append(Ran("", why))
            continue
        done = subprocess.run(
            words, cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
        )
        error = None if done.returncode == 0 else f"exit {done.returncode}: {done.stderr[-3000:]}"
        commands.append(Ran(done.stdout, error))
    return ran, commands


def matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is the output ``shown`` in a doc, ``[...]`` standing for any text."""

    def tidy(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.strip().splitlines())

    pattern = ".*?".join(re.escape(part) for part in tidy(shown).split("[...]"))
    return re.fullmatch(pattern, tidy(printed), re.DOTALL) is not None


def _cases() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    python, shell = [], []
    for name in DOCS:
        code, lines = blocks(name)
        python += [(name, i) for i in range(len(code))]
        shell += [(name, i) for i, line in enumerate(lines) if _command(line) is not None]
    return python, shell


PYTHON_CASES, SHELL_CASES = _cases()


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], tuple[list[Ran], list[Ran]]]:
    cache: dict[str, tuple[list[Ran], list[Ran]]] = {}

    def run(name: str) -> tuple[list[Ran], list[Ran]]:
        if name not in cache:
            cache[name] = run_doc(name, tmp_path_factory.mktemp(name.replace("/", "-")))
        return cache[name]

    return run


def test_snippets_are_found() -> None:
    docs = {name for name, _ in PYTHON_CASES}
    assert {"README.md", "docs/langchain.md", "docs/llama_index.md", "docs/temporal.md"} <= docs
    assert "README.md" in {name for name, _ in SHELL_CASES}  # `ramem ingest chat.json ...`


@pytest.mark.parametrize(
    ("shown", "printed", "expected"),
    [
        ("a\nb", "a\nb\n", True),
        ("a  \n[...]\nz", "a\nb\nc\nz", True),
        ("text: [...] end", "text: the middle end", True),
        ("a\nb", "a\nc", False),
        ("a", "a\nmore", False),
    ],
)
def test_matches(shown: str, printed: str, expected: bool) -> None:
    assert matches(shown, printed) is expected


def test_command_lines() -> None:
    words = _command('ramem query "Where?" --store ./m  # note')
    assert words == ["ramem", "query", "Where?", "--store", "./m"]
    assert _unknown(words) is None
    assert _command("make demo   # set-up") is None
    assert _command("# a comment") is None
    assert "neither" in str(_unknown(["rm", "-rf", "memory"]))


@pytest.mark.parametrize(("name", "index"), SHELL_CASES, ids=[f"{n}#sh{i}" for n, i in SHELL_CASES])
def test_shell_line_is_ramem(name: str, index: int) -> None:
    words = _command(blocks(name)[1][index])
    assert words is not None and _unknown(words) is None, _unknown(words or [])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "index"), PYTHON_CASES, ids=[f"{n}#py{i}" for n, i in PYTHON_CASES]
)
def test_python_block_runs(
    ran: Callable[[str], tuple[list[Ran], list[Ran]]], name: str, index: int
) -> None:
    result = ran(name)[0][index]
    if result.error is not None:
        pytest.fail(result.error, pytrace=False)
    shown = blocks(name)[0][index].output
    if shown is not None and not matches(shown, result.stdout):
        pytest.fail(f"printed:\n{result.stdout}\nthe doc shows:\n{shown}", pytrace=False)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "index"), SHELL_CASES, ids=[f"{n}#sh{i}" for n, i in SHELL_CASES])
def test_ramem_command_runs(
    ran: Callable[[str], tuple[list[Ran], list[Ran]]], name: str, index: int
) -> None:
    result = ran(name)[1][index]
    if result.error is not None:
        pytest.fail(f"{blocks(name)[1][index]}\n{result.error}", pytrace=False)
