"""Words the frame inducer reads in a question: recency, relations, order, what asks for a time.

Which words make a recency condition, which introduce a relation to another event, which
question words ask for a time, and which words may open or close an anchor phrase. Time
expressions themselves are read by :mod:`ramem_integrations.core.time`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FrameWords:
    """The words :class:`~ramem_integrations.core.frames.RuleFrameInducer` reads."""

    #: Words that ask for the current state: the latest episode is the valid one.
    recency: tuple[str, ...] = (
        "now", "right now", "currently", "current", "still", "these days", "nowadays",
        "at the moment", "at present", "presently", "latest", "most recent", "most recently",
        "anymore", "any more", "no longer", "as of now",
    )  # fmt: skip

    #: Kinds of state a "now" question asks about, each a family of words that name it: "Where
    #: does Alice work now?" is answered by "I started a new job at Northwind", which never says
    #: "work". A memory about the question's subject, or about its family, may be its latest state.
    state_topics: tuple[tuple[str, ...], ...] = (
        (
            "live", "lives", "living", "moved", "move", "moving", "house", "flat", "apartment",
            "home", "address", "rent", "landlord",
        ),
        (
            "work", "works", "working", "job", "jobs", "employer", "hired", "quit", "company",
            "office", "boss", "position", "role", "career", "promoted", "promotion", "fired",
            "colleague",
        ),
        (
            "team", "department",
        ),
        (
            "phone", "mobile", "smartphone", "cellphone",
        ),
        (
            "dating", "date", "partner", "boyfriend", "girlfriend", "seeing", "married", "engaged",
            "wife", "husband", "split", "relationship", "together",
        ),
        (
            "car", "drive", "drives", "driving", "drove", "vehicle",
        ),
        (
            "school", "study", "studying", "studies", "university", "college", "course", "degree",
        ),
        (
            "pet", "pets", "dog", "cat", "puppy", "kitten",
        ),
    )  # fmt: skip

    #: Words relating the asked event to another one: (phrase, relation, anchor end included).
    #: "until May" includes May; "before May" does not. "since" is "after", May included.
    relations: tuple[tuple[str, str, bool], ...] = (
        ("after", "after", False),
        ("following", "after", False),
        ("since", "after", True),
        ("before", "before", False),
        ("prior to", "before", False),
        ("until", "before", True),
        ("till", "before", True),
        ("up until", "before", True),
    )  # fmt: skip

    #: Relation words that take a time anchor only ("by May 2023"), never an event ("by the
    #: lake").
    time_only_relations: tuple[tuple[str, str, bool], ...] = (
        ("by", "before", True),
    )  # fmt: skip

    #: Words right before a relation word that make it not temporal ("named after her grandma").
    not_relation_after: tuple[str, ...] = (
        "named", "name", "names", "look", "looks", "looked", "looking", "take", "takes", "took",
        "taking", "taken", "ask", "asks", "asked", "asking", "chase", "chased", "went", "go",
        "goes", "going", "come", "came", "run", "ran",
    )  # fmt: skip

    #: Phrases asking for the first or the last occurrence of an event: (phrase, "first" or "last").
    ordinals: tuple[tuple[str, str], ...] = (
        ("for the first time", "first"),
        ("the first time", "first"),
        ("first time", "first"),
        ("for the last time", "last"),
        ("the last time", "last"),
        ("the most recent time", "last"),
        ("the first thing", "first"),
        ("the last thing", "last"),
        ("the very first time", "first"),
    )  # fmt: skip

    #: Verbs of saying between an order word and its subject ("the first time I mentioned the cat").
    mention_verbs: tuple[str, ...] = (
        "mentioned", "mention", "mentioning", "talked about", "talk about", "talking about",
        "spoke about", "spoke of", "speak about", "told you about", "tell you about",
        "told me about", "brought up", "bring up", "asked about", "asked you about", "ask about",
        "discussed", "discuss", "wrote about", "write about", "said", "say",
    )  # fmt: skip

    #: Order adverbs before a verb of saying ("When did I first mention Miso?").
    order_adverbs: tuple[tuple[str, str], ...] = (
        ("first", "first"),
        ("last", "last"),
    )  # fmt: skip

    #: Words that say that something happened, not what it was about: never an order word's subject.
    generic_words: tuple[str, ...] = (
        "went", "go", "goes", "going", "gone", "did", "do", "does", "done", "had", "have", "got",
        "get", "gets", "getting", "was", "were", "been", "be", "made", "make", "came", "come",
        "took", "take", "saw", "see", "time", "times", "thing", "things", "anything", "something",
        "ever", "thought", "think", "felt", "feel", "tried", "try", "happened", "happen", "say",
        "said", "tell", "told", "talk", "talked", "mention", "mentioned",
    )  # fmt: skip

    #: Words that may open an event anchor ("after the trip", "after her birthday").
    anchor_openers: tuple[str, ...] = (
        "the", "a", "an", "her", "his", "their", "my", "our", "your", "its", "this", "that",
        "these", "those", "she", "he", "they", "i", "we", "you", "it",
    )  # fmt: skip

    #: Words that end an anchor phrase ("after the trip with Bob" keeps "the trip").
    anchor_ends: tuple[str, ...] = (
        "in", "on", "at", "with", "and", "or", "but", "when", "while", "during", "did", "does",
        "do", "was", "were", "is", "are", "for", "because", "so", "than", "who", "which", "that",
        "where", "what", "how", "why", "has", "have", "had", "will", "would", "could", "should",
    )  # fmt: skip

    #: An anchor that is only a subject pronoun goes on through an auxiliary ("after it had to
    #: cancel"): "it" alone names no event.
    subject_pronouns: tuple[str, ...] = (
        "she", "he", "they", "i", "we", "you", "it",
    )  # fmt: skip

    #: Auxiliary verbs: after a lone subject an anchor goes on through one; after a plural noun
    #: ("What sports does ...") they ask for several.
    auxiliaries: tuple[str, ...] = (
        "did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would",
        "could", "should",
    )  # fmt: skip

    #: Question openings that ask for a time: the answer is a time, not a condition on one.
    asks_time: tuple[str, ...] = (
        "when", "since when", "until when", "what time", "what year", "which year", "what month",
        "which month", "what date", "which date", "what day", "which day", "how long ago",
        "how long", "how many years ago", "how many months ago", "how many weeks ago",
        "how many days ago", "in what year", "in which year", "in what month", "in which month",
        "on what date", "on which date", "on what day",
    )  # fmt: skip

    #: Questions that ask for several things, their evidence spread over several episodes:
    #: "What/Which [kind of] <plural> <auxiliary> ..." ("What sports does Kevin play?") ...
    several_openings: tuple[str, ...] = (
        "what", "which",
    )  # fmt: skip

    #: ... with these words for a kind ...
    kind_words: tuple[str, ...] = (
        "kind of", "kinds of", "type of", "types of", "sort of", "sorts of",
    )  # fmt: skip

    #: ... or a count or a whole ("How many pets ...", "... both ...", "all the places ...").
    asks_several: tuple[str, ...] = (
        "how many", "both", "all the",
    )  # fmt: skip

    #: Words ending in "s" that are not plural nouns ("What news does ...": one thing).
    not_plurals: tuple[str, ...] = (
        "news", "this", "his", "its", "was", "is", "does", "has", "as", "us", "yes", "always",
    )  # fmt: skip

    #: Words before a time expression that belong to it when the question is cut down to its
    #: need ("in May 2023", "as mentioned on 3 June"); removed along with it, nearest first.
    time_leaders: tuple[str, ...] = (
        "in", "on", "at", "during", "of", "from", "over", "around", "back", "by", "throughout",
        "through", "the", "for", "as", "mentioned", "within",
    )  # fmt: skip

    #: Endings a shortened first name may take ("Sammy" for Sam, "Katie" for Katherine).
    diminutive_endings: tuple[str, ...] = (
        "y", "ie", "ey",
    )  # fmt: skip
