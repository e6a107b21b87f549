"""The words the rule readers read, as one value: a :class:`Lexicon` (English by default).

As python-dateutil's parser is given a ``parserinfo``, the readers of text are given a lexicon:
:class:`~ramem_integrations.core.frames.RuleFrameInducer`,
:class:`~ramem_integrations.core.anchoring.RuleAnchorer` and
:class:`~ramem_integrations.memory.ramem.RaMem` take ``lexicon=`` and pass it down; each
reader builds its patterns from it once per lexicon. A table is a tuple of phrases (a mapping is
a tuple of rows, the phrase first), so a lexicon is a plain frozen value: replace a table with
:func:`dataclasses.replace`. The lines chat apps write that nobody typed are a value of their own
(:mod:`.exports`), given to the export readers.

>>> from dataclasses import replace
>>> mine = replace(ENGLISH, chat=replace(ENGLISH.chat, reactions=(*ENGLISH.chat.reactions, "meh")))
>>> "meh" in mine.chat.reactions, "meh" in ENGLISH.chat.reactions
(True, False)

The time readers (:mod:`ramem_integrations.core.time`) read the ``time`` section the same way:
they are handed it inside their :class:`~ramem_integrations.core.time.conventions.Conventions`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ramem_integrations.core.lexicon.aliases import AliasWords
from ramem_integrations.core.lexicon.chat import ChatWords
from ramem_integrations.core.lexicon.frames import FrameWords
from ramem_integrations.core.lexicon.frozen import hash_once
from ramem_integrations.core.lexicon.places import PlaceWords
from ramem_integrations.core.lexicon.text import TextWords
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.errors import InvalidInputError

__all__ = [
    "ENGLISH",
    "AliasWords",
    "ChatWords",
    "FrameWords",
    "Lexicon",
    "PlaceWords",
    "TextWords",
    "TimeWords",
    "word_tables",
]


def _check(name: str, rows: object) -> None:
    """A table is a tuple of phrases, or of rows that are tuples: else :class:`InvalidInputError`
    (a list or a set would make the lexicon unhashable, and a bare string a table of letters)."""
    if not isinstance(rows, tuple):
        wrong = f"is a {type(rows).__name__}"
    elif (row := next((r for r in rows if not isinstance(r, str | tuple)), None)) is not None:
        wrong = f"holds {row!r}, neither a phrase nor a tuple"
    else:
        return
    raise InvalidInputError(
        f"The word table {name} {wrong}: write it as a tuple of phrases, e.g. ('lol', 'oh no')."
    )


@dataclass(frozen=True)
class Lexicon:
    """Every word table the rule readers read, by concern."""

    text: TextWords = field(default_factory=TextWords)
    chat: ChatWords = field(default_factory=ChatWords)
    aliases: AliasWords = field(default_factory=AliasWords)
    places: PlaceWords = field(default_factory=PlaceWords)
    frames: FrameWords = field(default_factory=FrameWords)
    time: TimeWords = field(default_factory=TimeWords)

    def __post_init__(self) -> None:
        for section in fields(self):
            words = getattr(self, section.name)
            for table in fields(words):
                _check(f"{section.name}.{table.name}", getattr(words, table.name))

    def __hash__(self) -> int:
        """The hash of every table, computed once: readers cache their patterns by lexicon."""
        return hash_once(self)


#: English: the default of every reader.
ENGLISH = Lexicon()


def word_tables(lexicon: Lexicon = ENGLISH) -> dict[str, tuple[str, ...]]:
    """Each table of ``lexicon`` by ``section.name``, as its phrases: a row's phrase is its first
    item; a table of word families ("state_topics") lists the words of every family."""
    tables: dict[str, tuple[str, ...]] = {}
    for section in fields(lexicon):
        words = getattr(lexicon, section.name)
        for table in fields(words):
            rows = getattr(words, table.name)
            families = str(table.type) == FAMILIES
            tables[f"{section.name}.{table.name}"] = tuple(_phrases(rows, families))
    return tables


#: The type of a table of word families (each row a family, every word of it a phrase).
FAMILIES = "tuple[tuple[str, ...], ...]"


def _phrases(rows: tuple[object, ...], families: bool) -> list[str]:
    found: list[str] = []
    for row in rows:
        if isinstance(row, str):
            found.append(row)
        elif families and isinstance(row, tuple):
            found.extend(str(word) for word in row)
        elif isinstance(row, tuple) and row:
            found.append(str(row[0]))  # a row of a mapping: its phrase, then its values
    return found
