"""Words of a chat that carry no facts: reactions, fillers and an assistant's acknowledgements.

Each entry is a phrase, lower case, with no letter written more than twice ("yesss" is read as
"yess"): a message is a reaction when its words are a row of these phrases ("lol", "omg omg",
"oh no"), never when a word of it only occurs inside a phrase ("you" alone is no reaction,
though "thank you" is).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChatWords:
    """The phrases of a chat message that tell nothing to remember."""

    #: Reactions and fillers: a message of these alone carries no facts of its own.
    reactions: tuple[str, ...] = (
        "lol", "lool", "lmao", "lmfao", "haha", "hahah", "hah", "heh", "hehe", "omg", "omfg",
        "wait", "ugh", "fine", "ok", "okay", "okk", "k", "kk", "yes", "yess", "yep", "yeah", "yea",
        "ya", "yup", "no", "noo", "nope", "nah", "nice", "nicee", "cool", "same", "true", "wow",
        "woah", "whoa", "aw", "aww", "yay", "yayy", "oh", "ohh", "ooh", "oops", "hmm", "hm", "mhm",
        "um", "uh", "huh", "what", "wtf", "idk", "ikr", "fr", "srsly", "rly", "really", "ha",
        "thanks", "thx", "ty", "np", "sure", "good", "great", "amazing", "stop", "god", "ffs",
        "bless", "cute", "lovely", "perfect", "done", "sorted", "deal", "bye", "night", "gn", "gm",
        "morning", "mornin", "hi", "hey", "hello", "hiya", "yo", "sorry", "soz", "ah", "ahh",
        "brb", "ttyl", "xx", "x", "thank you", "thank god", "love it", "love that", "shut up",
        "no way",
    )  # fmt: skip

    #: With :attr:`reactions`, an assistant's acknowledgements ("Noted.", "Got it, I'll
    #: remember that.", "Happy to help!"): a message of these alone tells nothing to remember.
    acknowledgements: tuple[str, ...] = (
        "noted", "understood", "certainly", "alright", "all right", "absolutely", "gotcha",
        "got it", "will do", "sounds good", "of course", "no problem", "you're welcome", "welcome",
        "my pleasure", "happy to help", "glad to help", "sure thing", "makes sense",
        "i'll remember that", "i will remember that", "remember that",
    )  # fmt: skip
