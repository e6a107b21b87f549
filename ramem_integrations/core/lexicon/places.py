"""Words that make a capitalised name a place: cues before it, place words in it, a gazetteer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlaceWords:
    """What tells a place from another name (:mod:`~ramem_integrations.core.entity_typing`)."""

    #: Prepositions after which a capitalised name is a place.
    prepositions: tuple[str, ...] = (
        "in", "near", "around", "across", "inside", "outside", "visited", "visiting",
    )  # fmt: skip

    #: Verbs whose "to" leads to a place ("went to Paris"; not "engaged to Tom"); regular
    #: expressions ("travel\w*" is every form of "travel").
    motion_verbs: tuple[str, ...] = (
        "go", "goes", "going", "went", "gone", "travel\\w*", "trip", "flew", "fly", "flying",
        "drove", "drive", "driving", "mov\\w+", "back", "headed", "heading",
    )  # fmt: skip

    #: Cues that make a place only of a gazetteer entry, a name with a place word, or a venue
    #: ("at London", "over Lake Tahoe", "at the Lido"; "at Pride" is no place).
    weak_cues: tuple[str, ...] = (
        "at", "from", "over",
    )  # fmt: skip

    #: Words before a capitalised name that the anchorer reads as a place's cue (with the motion
    #: verbs and "to"); :attr:`prepositions` and :attr:`weak_cues` then decide.
    place_cues: tuple[str, ...] = (
        "in", "at", "from", "near", "over", "around", "across", "visited", "visiting",
    )  # fmt: skip

    #: Words before an unknown name in a question that make it a place ("in Lisbon").
    question_cues: tuple[str, ...] = (
        "in", "at", "to", "from", "near", "visit", "visited", "visiting",
    )  # fmt: skip

    #: Words that make a name a place by themselves ("Lake Tahoe", "Hyde Park").
    place_words: tuple[str, ...] = (
        "Lake", "Mount", "Mountains", "River", "Beach", "Park", "Street", "Road", "Avenue", "City",
        "Island", "Islands", "Bay", "Valley", "Falls", "Canyon", "County", "Coast", "Forest",
        "Hills", "Village", "Square", "Bridge", "Harbour", "Harbor",
    )  # fmt: skip

    #: Places known without any cue: countries, regions and large cities (a row each).
    gazetteer: tuple[str, ...] = (
        "Africa", "America", "Amsterdam", "Argentina", "Asia", "Athens", "Atlanta", "Austin",
        "Australia", "Austria", "Bali", "Bangkok", "Barcelona", "Beijing", "Belgium", "Berlin",
        "Boston", "Brazil", "Brighton", "Bristol", "Brussels", "Budapest", "California", "Canada",
        "Chicago", "Chile", "China", "Colorado", "Copenhagen", "Cornwall", "Croatia", "Cuba",
        "Delhi", "Denmark", "Denver", "Dublin", "East Coast", "Edinburgh", "Egypt", "England",
        "Europe", "Finland", "Florence", "Florida", "France", "Georgia", "Germany", "Glasgow",
        "Greece", "Hawaii", "Hong Kong", "Iceland", "India", "Ireland", "Israel", "Italy",
        "Jamaica", "Japan", "Kenya", "Korea", "Las Vegas", "Leeds", "Lisbon", "Liverpool",
        "London", "Los Angeles", "Madrid", "Manchester", "Melbourne", "Mexico", "Miami", "Milan",
        "Montreal", "Morocco", "Moscow", "Mumbai", "Munich", "Naples", "Nepal", "Netherlands",
        "Nevada", "New York", "New Zealand", "Norway", "Ohio", "Oregon", "Oxford",
        "Pacific Northwest", "Paris", "Peru", "Philadelphia", "Poland", "Portugal", "Prague",
        "Rome", "Russia", "San Francisco", "Scotland", "Seattle", "Seoul", "Shanghai", "Singapore",
        "South Africa", "Spain", "Stockholm", "Sweden", "Switzerland", "Sydney", "Texas",
        "Thailand", "Tokyo", "Toronto", "Turkey", "United States", "Utah", "Vancouver", "Venice",
        "Vienna", "Vietnam", "Wales", "Washington", "West Coast",
    )  # fmt: skip
