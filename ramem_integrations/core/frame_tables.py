"""Language for :mod:`ramem_integrations.core.frames`, kept as data.

Which words make a recency condition, which introduce a relation to another event, which
question words ask for a time, and which words may open or close an anchor phrase. A new phrase
is a new row; the patterns are built from these tables at import. Time expressions themselves
live in :mod:`.temporal_tables`.
"""

from __future__ import annotations

from dateutil.relativedelta import relativedelta

from ramem_integrations.core import text

# Words that ask for the current state: the latest episode is the valid one.
RECENCY_WORDS: tuple[str, ...] = (
    "now", "right now", "currently", "current", "still", "these days", "nowadays",
    "at the moment", "at present", "presently", "latest", "most recent", "most recently",
    "anymore", "any more", "no longer", "as of now",
)  # fmt: skip

# Kinds of state a "now" question asks about, each a family of words that name it: "Where does
# Alice work now?" is answered by "I started a new job at Northwind", which never says "work".
# A memory about the question's subject, or about its family, may be the latest state of it.
STATE_TOPICS: tuple[tuple[str, ...], ...] = (
    ("live", "lives", "living", "moved", "move", "moving", "house", "flat", "apartment", "home",
     "address", "rent", "landlord"),
    ("work", "works", "working", "job", "jobs", "employer", "hired", "quit", "company", "office",
     "boss", "position", "role", "career", "promoted", "promotion", "fired", "colleague"),
    ("team", "department"),
    ("phone", "mobile", "smartphone", "cellphone"),
    ("dating", "date", "partner", "boyfriend", "girlfriend", "seeing", "married", "engaged",
     "wife", "husband", "split", "relationship", "together"),
    ("car", "drive", "drives", "driving", "drove", "vehicle"),
    ("school", "study", "studying", "studies", "university", "college", "course", "degree"),
    ("pet", "pets", "dog", "cat", "puppy", "kitten"),
)  # fmt: skip

# Words relating the asked event to another one: word -> (relation, anchor end included).
# "until May" includes May; "before May" does not. "since" is "after", May included.
RELATION_WORDS: dict[str, tuple[str, bool]] = {
    "after": ("after", False), "following": ("after", False), "since": ("after", True),
    "before": ("before", False), "prior to": ("before", False), "until": ("before", True),
    "till": ("before", True), "up until": ("before", True),
}  # fmt: skip

# Relation words that take a time anchor only ("by May 2023"), never an event ("by the lake").
TIME_ONLY_RELATION_WORDS: dict[str, tuple[str, bool]] = {"by": ("before", True)}

# Words right before a relation word that make it not temporal ("named after her grandma").
NOT_RELATION_AFTER: frozenset[str] = frozenset(
    (
        "named", "name", "names", "look", "looks", "looked", "looking", "take", "takes", "took",
        "taking", "taken", "ask", "asks", "asked", "asking", "chase", "chased", "went", "go",
        "goes", "going", "come", "came", "run", "ran",
    )
)  # fmt: skip

# Phrases asking for the first or the last occurrence of an event.
ORDINAL_RELATIONS: dict[str, str] = {
    "for the first time": "first", "the first time": "first", "first time": "first",
    "for the last time": "last", "the last time": "last", "the most recent time": "last",
    "the first thing": "first", "the last thing": "last", "the very first time": "first",
}  # fmt: skip

# Verbs of saying between an order word and its subject ("the first time I mentioned the cat").
MENTION_VERBS: tuple[str, ...] = (
    "mentioned", "mention", "mentioning", "talked about", "talk about", "talking about",
    "spoke about", "spoke of", "speak about", "told you about", "tell you about",
    "told me about", "brought up", "bring up", "asked about", "asked you about", "ask about",
    "discussed", "discuss", "wrote about", "write about", "said", "say",
)  # fmt: skip
# Order adverbs before a verb of saying: "When did I first mention Miso?".
ORDER_ADVERBS: dict[str, str] = {"first": "first", "last": "last"}

# Words that say that something happened, not what it was about: never an order word's subject.
GENERIC_WORDS: frozenset[str] = frozenset(
    (
        "went", "go", "goes", "going", "gone", "did", "do", "does", "done", "had", "have", "got",
        "get", "gets", "getting", "was", "were", "been", "be", "made", "make", "came", "come",
        "took", "take", "saw", "see", "time", "times", "thing", "things", "anything",
        "something", "ever", "thought", "think", "felt", "feel", "tried", "try", "happened",
        "happen", "say", "said", "tell", "told", "talk", "talked", "mention", "mentioned",
    )
)  # fmt: skip
SUBJECT_MAX_WORDS = 8

# Words that may open an event anchor ("after the trip", "after her birthday", "after moving").
ANCHOR_OPENERS: frozenset[str] = frozenset(
    (
        "the", "a", "an", "her", "his", "their", "my", "our", "your", "its", "this", "that",
        "these", "those", "she", "he", "they", "i", "we", "you", "it",
    )
)  # fmt: skip

# Words that end an anchor phrase ("after the trip with Bob" keeps "the trip").
ANCHOR_ENDS: frozenset[str] = frozenset(
    (
        "in", "on", "at", "with", "and", "or", "but", "when", "while", "during", "did", "does",
        "do", "was", "were", "is", "are", "for", "because", "so", "than", "who", "which", "that",
        "where", "what", "how", "why", "has", "have", "had", "will", "would", "could", "should",
    )
)  # fmt: skip
ANCHOR_MAX_WORDS = 6
#: An anchor that is only a subject pronoun goes on through these ("after it had to cancel"):
#: "it" alone names no event.
SUBJECT_PRONOUNS: frozenset[str] = frozenset(("she", "he", "they", "i", "we", "you", "it"))
AUXILIARIES: frozenset[str] = frozenset(
    (
        "did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would",
        "could", "should",
    )
)  # fmt: skip

# Question openings that ask for a time: the answer is a time, not a condition on one.
ASKS_TIME: tuple[str, ...] = (
    "when", "since when", "until when", "what time", "what year", "which year",
    "what month", "which month", "what date", "which date", "what day", "which day",
    "how long ago", "how long", "how many years ago", "how many months ago",
    "how many weeks ago", "how many days ago", "in what year", "in which year",
    "in what month", "in which month", "on what date", "on which date", "on what day",
)  # fmt: skip

# Questions that ask for several things: their evidence is spread over several episodes.
# "What/Which [kind of] <plural> <auxiliary> ..." ("What sports does Kevin play?") ...
SEVERAL_OPENINGS: tuple[str, ...] = ("what", "which")
KIND_WORDS: tuple[str, ...] = ("kind of", "kinds of", "type of", "types of", "sort of", "sorts of")
# ... or a count or a whole ("How many pets ...", "... both ...", "all the places ...").
ASKS_SEVERAL: tuple[str, ...] = ("how many", "both", "all the")
# Words ending in "s" that are not plural nouns ("What news does ...": one thing).
NOT_PLURALS: frozenset[str] = frozenset(
    (
        "news", "this", "his", "its", "was", "is", "does", "has", "as", "us", "yes", "always",
    )
)  # fmt: skip

# Words before a time expression that belong to it when the question is cut down to its need
# ("in May 2023", "as mentioned on 3 June"); removed along with it, nearest first.
TIME_LEADERS: frozenset[str] = frozenset(
    (
        "in", "on", "at", "during", "of", "from", "over", "around", "back", "by", "throughout",
        "through", "the", "for", "as", "mentioned", "within",
    )
)  # fmt: skip

# Capitalised words that are no one's name: one table, shared with the anchorer.
NOT_NAMES = text.NOT_NAMES

# How far before and after the conversation's own dates a question's time may fall and still be
# taken as meant. Before: people recall their past ("4 years ago", "summer 2021"). After: plans.
PAST_MARGIN = relativedelta(years=5)
FUTURE_MARGIN = relativedelta(years=1)

# A known name may be shortened in a question to a prefix of at least this many letters
# ("Mel" for Melanie, "Jo" for Joanna) when exactly one known participant's first name starts
# with it, the prefix perhaps with one of DIMINUTIVE_ENDINGS ("Sammy" for Sam, "Katie" for
# Katherine).
NICKNAME_MIN_LETTERS = 2
DIMINUTIVE_ENDINGS = ("y", "ie", "ey")
# An unknown name one slip from exactly one participant's first name (a letter changed, added,
# dropped, or two swapped: "Nerbaas" for Nebraas, "Aqib" for Akib), with the same first letter
# and at least this many letters, is that participant: people misspell names when they ask.
MISSPELT_MIN_LETTERS = 4
