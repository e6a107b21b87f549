"""Entity typing: a capitalised name is a place only with evidence.

"I watched Dune at the Lido", "brunch at Lisbon" (a café), "at Pride", "my job at Door
Dash": a preposition alone does not make a place. A name is typed a place when

- a strong cue comes before it: a preposition of place ("in Paris", "near Leeds") or a motion
  verb with *to* ("moved to Oregon", "trip to England"), or
- after a weak cue ("at", "from", "over"), it is in the small gazetteer (countries, regions and
  large cities), holds a place word ("over Lake Tahoe") or is a venue with *the* ("at the
  Lido").

The words are the lexicon's :class:`~.lexicon.PlaceWords`.

Across a namespace, :func:`typed_places` keeps as places only the names its memories type as a
place at least as often as they name them otherwise: a name the memories contradict is an entity,
and a question naming it gets no place condition.

>>> place_evidence("at", "Pride"), place_evidence("at", "London"), place_evidence("in", "Leeds")
(None, 'gazetteer', 'preposition of place')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from ramem_integrations.core.lexicon import ENGLISH, Lexicon

__all__ = [
    "place_evidence",
    "typed_places",
]


@dataclass(frozen=True, eq=False)
class _Places:
    """A lexicon's place words as sets, and the pattern of a motion verb with *to*."""

    prepositions: frozenset[str]
    motion: re.Pattern[str]
    gazetteer: frozenset[str]
    weak_cues: frozenset[str]
    place_words: frozenset[str]


@lru_cache(maxsize=8)
def _compiled(lexicon: Lexicon) -> _Places:
    words = lexicon.places
    verbs = "|".join(words.motion_verbs)
    return _Places(
        prepositions=frozenset(words.prepositions),
        motion=re.compile(rf"^(?:{verbs})\s+to$", re.IGNORECASE),
        gazetteer=frozenset(words.gazetteer),
        weak_cues=frozenset(words.weak_cues),
        place_words=frozenset(words.place_words),
    )


def place_evidence(cue: str, name: str, lexicon: Lexicon = ENGLISH) -> str | None:
    """Why ``name`` after the words ``cue`` is a place, or None when nothing says it is."""
    places = _compiled(lexicon)
    words = " ".join(cue.lower().split())
    if words in places.prepositions:
        return "preposition of place"
    if places.motion.match(words):
        return "motion verb"
    if name.removeprefix("the ") in places.gazetteer:
        return "gazetteer"
    if name.startswith("the ") and words in places.weak_cues:
        return "a venue ('at the Lido')"
    if set(name.split()) & places.place_words:
        return "place word"
    return None


def typed_places(as_place: Counter[str], as_other: Counter[str]) -> set[str]:
    """The names typed a place at least as often as they are named as something else."""
    return {name for name, n in as_place.items() if n >= as_other.get(name, 0)}
