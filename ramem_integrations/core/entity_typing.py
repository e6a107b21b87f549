"""Entity typing: a capitalised name is a place only with evidence.

"I watched Dune at the Lido", "brunch at Lisbon" (a café), "at Pride", "my job at Door
Dash": a preposition alone does not make a place. A name is typed a place when

- a strong cue comes before it: a preposition of place (:data:`PLACE_PREPOSITIONS`: "in
  Paris", "near Leeds") or a motion verb with *to* ("moved to Oregon", "trip to England"), or
- after a weak cue (:data:`WEAK_CUES`: "at", "from", "over"), it is in the small gazetteer
  :data:`GAZETTEER` (countries, regions and large cities), holds a place word
  (:data:`PLACE_WORDS`: "over Lake Tahoe") or is a venue with *the* ("at the Lido").

Across a namespace, :func:`typed_places` keeps as places only the names its memories type as a
place at least as often as they name them otherwise: a name the memories contradict is an entity,
and a question naming it gets no place condition.

>>> place_evidence("at", "Pride"), place_evidence("at", "London"), place_evidence("in", "Leeds")
(None, 'gazetteer', 'preposition of place')
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = [
    "GAZETTEER",
    "MOTION_VERBS",
    "PLACE_PREPOSITIONS",
    "PLACE_WORDS",
    "WEAK_CUES",
    "place_evidence",
    "typed_places",
]

#: Prepositions after which a capitalised name is a place.
PLACE_PREPOSITIONS = frozenset("in near around across inside outside visited visiting".split())
#: Verbs whose "to" leads to a place ("went to Paris"; not "engaged to Tom").
MOTION_VERBS = re.compile(
    r"^(?:go|goes|going|went|gone|travel\w*|trip|flew|fly|flying|drove|drive|driving|mov\w+|"
    r"back|headed|heading)\s+to$",
    re.IGNORECASE,
)
#: Words that make a name a place by themselves ("Lake Tahoe", "Hyde Park").
PLACE_WORDS = frozenset(
    """Lake Mount Mountains River Beach Park Street Road Avenue City Island Islands Bay Valley
    Falls Canyon County Coast Forest Hills Village Square Bridge Harbour Harbor""".split()
)
#: Cues that make a place only of a gazetteer entry, a name with a place word, or a venue
#: ("at London", "over Lake Tahoe", "at the Lido"; "at Pride" is no place).
WEAK_CUES = frozenset("at from over".split())
#: Places known without any cue: countries, regions and large cities (a row each).
GAZETTEER = frozenset(
    """Africa America Amsterdam Argentina Asia Athens Atlanta Australia Austin Austria Bali
    Bangkok Barcelona Beijing Belgium Berlin Boston Brazil Brighton Bristol Brussels Budapest
    California Canada Chicago Chile China Colorado Copenhagen Cornwall Croatia Cuba Delhi
    Denmark Denver Dublin Edinburgh Egypt England Europe Finland Florence Florida France
    Georgia Germany Glasgow Greece Hawaii Iceland India Ireland Israel Italy Jamaica Japan
    Kenya Korea Leeds Lisbon Liverpool London Madrid Manchester Melbourne Mexico Miami Milan
    Montreal Morocco Moscow Mumbai Munich Naples Nepal Netherlands Nevada Norway Ohio Oregon
    Oxford Paris Peru Philadelphia Poland Portugal Prague Rome Russia Scotland Seattle Seoul
    Shanghai Singapore Spain Stockholm Sweden Switzerland Sydney Texas Thailand Tokyo Toronto
    Turkey Utah Vancouver Venice Vienna Vietnam Wales Washington""".split()
) | frozenset(
    (
        "East Coast",
        "Hong Kong",
        "Las Vegas",
        "Los Angeles",
        "New York",
        "New Zealand",
        "Pacific Northwest",
        "San Francisco",
        "South Africa",
        "United States",
        "West Coast",
    )
)


def place_evidence(cue: str, name: str) -> str | None:
    """Why ``name`` after the words ``cue`` is a place, or None when nothing says it is."""
    words = " ".join(cue.lower().split())
    if words in PLACE_PREPOSITIONS:
        return "preposition of place"
    if MOTION_VERBS.match(words):
        return "motion verb"
    if name.removeprefix("the ") in GAZETTEER:
        return "gazetteer"
    if name.startswith("the ") and words in WEAK_CUES:
        return "a venue ('at the Lido')"
    if set(name.split()) & PLACE_WORDS:
        return "place word"
    return None


def typed_places(as_place: Counter[str], as_other: Counter[str]) -> set[str]:
    """The names typed a place at least as often as they are named as something else."""
    return {name for name, n in as_place.items() if n >= as_other.get(name, 0)}
