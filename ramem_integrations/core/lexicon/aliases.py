"""Words around the other names a participant is called by ("hey Trix", "thanks trixie x")."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AliasWords:
    """The words after which a word addresses someone, and the words that are never an alias."""

    #: Words after which the next word addresses someone ("hey X", "thanks X", "night X").
    greetings: tuple[str, ...] = (
        "hey", "heyy", "hi", "hiya", "hello", "yo", "oi", "morning", "night", "thanks", "thank",
        "thx", "ty", "cheers", "congrats", "sorry", "bye", "dear", "luck", "well", "love", "miss",
    )  # fmt: skip

    #: Greetings that, opening a message, address the next word to someone ("hey trixie ...");
    #: regular expressions ("hey+" is "hey", "heyy", ...).
    salutations: tuple[str, ...] = (
        "hey+", "hi", "hiya", "hello", "yo", "oi", "morning", "night", "thanks", "thank you",
        "thx", "ty", "cheers", "bye",
    )  # fmt: skip

    #: Words that close a message without being part of it ("night trix x").
    closers: tuple[str, ...] = (
        "x", "xx", "xxx", "xo", "xoxo",
    )  # fmt: skip

    #: Words that look like a vocative but are not names.
    not_aliases: tuple[str, ...] = (
        "guys", "all", "everyone", "babe", "baby", "mate", "dude", "man", "bro", "sis", "hun",
        "hon", "love", "darling", "sweetie", "there", "again", "much", "too", "now", "then",
        "tonight", "today", "tomorrow", "tmrw", "yesterday", "later", "soon", "mum", "mom", "dad",
    )  # fmt: skip

    #: Stop words after which a closing name still addresses someone ("what about you Kate?").
    before_a_closing_name: tuple[str, ...] = (
        "you", "too", "again",
    )  # fmt: skip
