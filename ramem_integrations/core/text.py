"""Word-level text helpers shared by the lexical index, anchoring and evaluation."""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import snowballstemmer

from ramem_integrations.core.lexicon import ENGLISH

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
#: The default lexicon's stop words as a set, for readers that take no lexicon
#: (the lexical index, the time rules): the tables are :class:`~.lexicon.TextWords`.
STOP_WORDS = frozenset(ENGLISH.text.stop_words)

#: Matches at the end of the text before a word when that word opens a sentence: at the start,
#: after '.', '!' or '?' (opening quotes or brackets allowed between), or after an opening quote.
SENTENCE_START = re.compile(r"(?:(?:^|[.!?]\s+)[\"'“(]*|[\"“(]\s*)$")


def fold_plural(word: str) -> str:
    """'dogs' -> 'dog'; words of three letters or fewer and '-ss' words stay as they are."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


_STEMMERS = threading.local()  # a stemmer object is not safe to share between threads


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-case word: 'painting', 'painted' -> 'paint'."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return str(stemmer.stemWord(word))


@lru_cache(maxsize=16384)
def word_set(text: str) -> frozenset[str]:
    """The words of :func:`tokenize` as a set, cached: every question checks memory texts."""
    return frozenset(tokenize(text))


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens, stop words out, possessives dropped, stemmed (:func:`stem`)."""
    return [
        stem(word.removesuffix("'s"))
        for word in _WORD.findall(text.lower())
        if word not in STOP_WORDS
    ]
