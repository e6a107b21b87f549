"""docs/architecture.md's module map names every module of the package, and nothing else."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ramem_integrations"
ENTRY = re.compile(r"^(?P<indent> *)(?P<name>[a-z_0-9]+(?:\.py|/))(?:\s|$)")


def mapped(text: str) -> set[str]:
    """The paths the map's tree names: each entry's folder comes from its indentation (2 spaces
    a level) under the ``ramem_integrations/`` root line."""
    block = text.split("## Module map", 1)[1].split("```", 2)[1]
    folders: list[str] = []
    paths: set[str] = set()
    for line in block.splitlines():
        entry = ENTRY.match(line)
        if entry is None or entry["name"] == "ramem_integrations/":
            continue
        level = len(entry["indent"]) // 2 - 1
        folders = folders[:level]
        if entry["name"].endswith("/"):
            folders.append(entry["name"])
        else:
            paths.add("".join(folders) + entry["name"])
    return paths


def test_the_map_reads_folders_from_indentation() -> None:
    text = (
        "## Module map\n```\nramem_integrations/\n  a.py  x\n  core/  y\n    b.py  z\n  c.py\n```"
    )
    assert mapped(text) == {"a.py", "core/b.py", "c.py"}


def test_every_module_is_on_the_map_and_the_map_names_only_modules() -> None:
    modules = {
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.name != "__init__.py" or p.parent == PACKAGE
    }
    on_map = mapped((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert sorted(modules - on_map) == [], "modules missing from docs/architecture.md's map"
    assert sorted(on_map - modules) == [], "the map names modules that do not exist"
