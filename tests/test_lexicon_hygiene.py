"""Checks over every word table of the lexicon (the time words included): no duplicate entry,
no table written as a split string (a phrase split into words), no table that nothing reads,
no two tables of one name, and a row in docs/rules.md for each table. Each check is shown to
catch a planted error."""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from ramem_integrations.core.lexicon import ENGLISH, word_tables
from ramem_integrations.core.lexicon.exports import SYSTEM_LINES

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ramem_integrations"
LEXICON = PACKAGE / "core" / "lexicon"

#: Duplicates in the time tables, which are changed elsewhere; fixed there, they leave this list.
TIME_DUPLICATES = {"time.past_verbs": ["drank"], "time.clock_followers": ["then"]}


def every_table() -> dict[str, tuple[str, ...]]:
    """The lexicon's tables (the time words' too) and the chat apps' lines by kind."""
    apps = {f"exports.lines.{kind}": lines for kind, lines in SYSTEM_LINES.lines.items()}
    return {**word_tables(ENGLISH), **apps}


# -- the checks --------------------------------------------------------------------------


def duplicates(tables: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """Each table's entries written more than once."""
    found = {}
    for name, entries in tables.items():
        twice = sorted(e for e, n in Counter(entries).items() if n > 1)
        if twice:
            found[name] = twice
    return found


def split_strings(source: str) -> list[int]:
    """The lines where a string constant is split into a table (``"a b c".split()``): a table
    written that way turns every phrase into words ("thank you" into "thank" and "you")."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "split"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
    ]


def names_read(sources: Mapping[str, str]) -> Counter[str]:
    """How often each name is read (a name or an attribute loaded, not assigned, or a slot of
    the time rules' patterns, ``_slot("months")``) in ``sources``."""
    read: Counter[str] = Counter()
    for source in sources.values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                read[node.id] += 1
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                read[node.attr] += 1
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_slot"
                and isinstance(node.args[0], ast.Constant)
            ):
                read[str(node.args[0].value)] += 1
    return read


def unread(tables: list[str], sources: Mapping[str, str]) -> list[str]:
    """The tables (``section.name`` or ``module.NAME``) whose name nothing in ``sources``
    reads."""
    read = names_read(sources)
    return [table for table in tables if not read[table.rsplit(".", 1)[1]]]


def shared_names(tables: list[str]) -> dict[str, list[str]]:
    """Names (case aside) that two tables share, with the tables."""
    by_name: dict[str, list[str]] = {}
    for table in tables:
        by_name.setdefault(table.rsplit(".", 1)[1].lower(), []).append(table)
    return {name: found for name, found in by_name.items() if len(found) > 1}


def rows(doc: str) -> dict[str, int]:
    """The rows of the "Word tables" section of ``doc``: the table its first cell names as
    `section.name`, and the entries its last cell counts."""
    section = doc.split("## Word tables", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^\| `([\w.]+)` \|.*\| (\d+) \|$", section, re.MULTILINE)
    return {table: int(entries) for table, entries in found}


def without_rows(tables: list[str], doc: str) -> list[str]:
    """The tables with no row in the "Word tables" section of ``doc``."""
    return [table for table in tables if table not in rows(doc)]


def package_sources(*, outside: Path | None = None) -> dict[str, str]:
    return {
        str(path): path.read_text(encoding="utf-8")
        for path in PACKAGE.rglob("*.py")
        if outside is None or outside not in path.parents
    }


# -- the checks on the tables ------------------------------------------------------------


def test_no_table_holds_an_entry_twice() -> None:
    found = duplicates(every_table())
    lexicon = {name: twice for name, twice in found.items() if name not in TIME_DUPLICATES}
    assert lexicon == {}
    for name, twice in found.items():
        assert set(twice) <= set(TIME_DUPLICATES.get(name, [])), name


def test_duplicates_are_found() -> None:
    assert duplicates({"chat.reactions": ("lol", "yes", "lol"), "x.y": ("a",)}) == {
        "chat.reactions": ["lol"]
    }


def test_no_table_is_a_split_string() -> None:
    """Not in the lexicon, nor anywhere else in the package (the time rules included)."""
    found = {
        path: lines
        for path, source in package_sources().items()
        if (lines := split_strings(source))
    }
    assert found == {}


def test_a_split_string_is_found() -> None:
    planted = 'FILLERS = frozenset("""lol thank you love it""".split())\nOK = ("lol",)\n'
    assert split_strings(planted) == [1]


def test_every_table_is_read() -> None:
    """Every table, the time words' too, is read outside the lexicon."""
    outside = package_sources(outside=LEXICON)
    assert unread(list(word_tables(ENGLISH)), outside) == []


def test_an_unread_table_is_found() -> None:
    sources = {"reader.py": "def f(lexicon):\n    return lexicon.chat.reactions\n"}
    assert unread(["chat.reactions", "chat.never_read"], sources) == ["chat.never_read"]
    rules = {"grounding.py": '_MOD = _slot("modifiers")\n'}
    assert unread(["time.modifiers", "time.never_read"], rules) == ["time.never_read"]


def test_no_two_tables_share_a_name() -> None:
    assert shared_names(list(word_tables(ENGLISH))) == {}


def test_a_shared_name_is_found() -> None:
    planted = ["chat.fillers", "corrections.FILLERS", "chat.reactions"]
    assert shared_names(planted) == {"fillers": ["chat.fillers", "corrections.FILLERS"]}


def test_every_lexicon_table_has_a_row_in_the_rules_doc() -> None:
    """A row each, counting the entries the table holds."""
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert without_rows(list(word_tables(ENGLISH)), doc) == []
    counted = rows(doc)
    assert {t: len(e) for t, e in word_tables(ENGLISH).items()} == {
        t: counted[t] for t in word_tables(ENGLISH)
    }


def test_a_table_without_a_row_is_found() -> None:
    lines = ["# R", "## Word tables", "| table | for | entries |", "|---|---|---|"]
    lines += ["| `chat.reactions` | x | 2 |", "", "## Next", "| `chat.acknowledgements` | y | 1 |"]
    doc = "\n".join(lines)
    assert without_rows(["chat.reactions", "chat.acknowledgements"], doc) == [
        "chat.acknowledgements"
    ]


def test_a_planted_error_in_a_time_table_is_found() -> None:
    """The checks cover the time words: a month written twice, a table without a row."""
    time = replace(ENGLISH.time, months=(*ENGLISH.time.months, ("jan", 1)))
    planted = word_tables(replace(ENGLISH, time=time))
    assert duplicates(planted)["time.months"] == ["jan"]
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert without_rows(["time.months", "time.never_listed"], doc) == ["time.never_listed"]
    assert rows(doc)["time.months"] == len(word_tables(ENGLISH)["time.months"])
