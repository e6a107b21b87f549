"""The time words: what :mod:`ramem_integrations.core.time` reads, as the lexicon's ``time``
section (:class:`TimeWords`, English by default).

Month, weekday, season, number and holiday words, the modifiers and units of periods, the words
that tell a time from a noun ("a winter coat"), the tense cues that say which way a bare date
points, the openings of a correction and the zone abbreviations. A mapping is a tuple of rows,
its phrase first ("january", 1). A tense cue's pattern may hold a slot the reader fills from
these tables: ``{past_ed}`` (a verb in -ed, none of ``not_past_ed``), ``{participle}``,
``{be_now}``, ``{third}`` (a schedule verb's third person), ``{past_verbs}``,
``{schedule_verbs}``, ``{prefix}`` and ``{rescheduled}`` (a verb of ``rescheduled`` in any
form).

>>> from dataclasses import replace
>>> words = replace(TimeWords(), weekdays=(*TimeWords().weekdays, ("thurz", 3)))
>>> ("thurz", 3) in words.weekdays, ("thurz", 3) in TimeWords().weekdays
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from ramem_integrations.core.lexicon.frozen import hash_once

__all__ = ["Holiday", "TenseCue", "TimeWords"]


class Holiday(NamedTuple):
    """How to find a holiday in a year. ``rule`` is ``fixed`` (``args`` month, day), ``easter``
    (Easter Sunday by the Gregorian computus) or ``weekday`` (``args`` month, weekday 0=Monday,
    n: the nth such weekday of the month, -1 the last). ``offset`` moves the first day, ``days``
    is the span's length, ``over`` is the break "over X": (days from the first day, length)."""

    rule: str
    args: tuple[int, ...] = ()
    offset: int = 0
    days: int = 1
    over: tuple[int, int] | None = None


class TenseCue(NamedTuple):
    """A cue to which way a bare date in its sentence points.

    ``pattern`` is a regex fragment matched as whole words, case-insensitively, on the sentence
    with contractions split off ("I 'm", "did n't", "let 's") and the date itself written "§"
    ("Her exam is on § ."); ``rank`` orders cues: the
    highest rank found decides, and at equal rank "back" wins. ``example`` has only this cue."""

    name: str
    pattern: str
    direction: str
    rank: int
    example: str


# ------------------------------------------------------------------ English: the default words

_MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sept": 9, "sep": 9, "october": 10,
    "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip

# Month words that are also common English words: without a day or year next to them they
# count only when capitalised ("in May", never "this may be").
_CAPITALISED_ONLY: tuple[str, ...] = ("may", "march", "mar", "jan", "dec")

_WEEKDAYS: dict[str, int] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3,
    "friday": 4, "saturday": 5, "sunday": 6,
}  # fmt: skip

# Short forms of weekdays, as chats write them ("thurs", "weds"); those that are English words
# too ("sat", "sun", "wed", "mon") count only in a slot only a day fits: after a modifier or a
# word of weekday_word_cues, before a clock time ("mon at 9am", "sat from 3"), ending a clause
# (not after a subject or a determiner), opening a message or a clause after "but".
_WEEKDAY_SHORT: dict[str, int] = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}  # fmt: skip
_WEEKDAY_WORDS: tuple[str, ...] = ("mon", "wed", "sat", "sun")
_WEEKDAY_WORD_CUES: tuple[str, ...] = (
    "on", "by", "till", "til", "until", "from", "before", "after", "cu", "see u", "see you",
    "do", "free", "or", "c u", "c ya", "see ya",
)  # fmt: skip

#: Words after which "sat", "sun", "wed" or "mon" ending a clause is the verb or noun: a
#: subject right before it ("I sat.", "they wed"), a determiner one or two words before ("the
#: sun!", "the cat sat.", "a bit of sun").
_SUBJECT_WORDS: tuple[str, ...] = (
    "i", "you", "u", "he", "she", "we", "they", "it", "who", "that", "which", "everyone",
    "everybody", "someone", "somebody", "nobody", "one", "then", "just", "finally", "got",
)  # fmt: skip
_DETERMINERS: tuple[str, ...] = (
    "the", "a", "an", "my", "your", "ur", "his", "her", "our", "their", "its", "this", "of",
    "some", "no",
)  # fmt: skip

#: Words after which "sun", "sat", "wed" or "mon" opening a message is the noun or verb, not
#: the day: a verb it is the subject of ("sun is out", "wed be late" as "we'd") or a noun it
#: qualifies ("sat nav").
_SHORT_DAY_NOT_BEFORE: tuple[str, ...] = (
    "is", "was", "'s", "s", "are", "has", "had", "will", "'ll", "came", "comes", "shining",
    "shone", "out", "set", "sets", "rose", "and", "nav", "navs", "cream", "hat", "burn", "tan",
    "lounger", "loungers", "glasses", "down", "up", "in", "on", "there", "be", "need", "love",
    "like", "have", "rather", "prefer",
)  # fmt: skip

#: Words a chat puts after a time that qualify no noun ("the 20th ugh", "on 10/9 remember");
#: an adverb in -ly ("the 29th actually") neither.
_CHAT_PARTICLES: tuple[str, ...] = (
    "lol", "lmao", "haha", "ugh", "tbh", "omg", "btw", "pls", "plz", "x", "xx", "ok", "yay",
    "fyi", "remember", "right", "innit", "mate", "babe", "hun", "then", "now", "instead",
    "tho", "though", "too", "yes", "yeah", "def", "defo",
)  # fmt: skip

_SEASONS: dict[str, str] = {
    "spring": "spring", "summer": "summer", "autumn": "autumn", "fall": "autumn",
    "winter": "winter", "springtime": "spring", "summertime": "summer", "wintertime": "winter",
}  # fmt: skip

# A break named by its season or holiday takes the year after it: "spring break 2022",
# "the summer holidays of 2021", "Christmas break 2022" (the season, or the holiday, of that year).
_PERIOD_NOUNS: tuple[str, ...] = ("break", "holidays", "holiday", "vacation", "vacations")

_NUMBER_WORDS: dict[str, int] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a dozen": 12, "dozen": 12,
}  # fmt: skip
_TENS: tuple[str, ...] = (
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
)
_ONES: tuple[str, ...] = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_NUMBER_WORDS.update(
    {f"{tens}{sep}{one}": _NUMBER_WORDS[tens] + i for tens in _TENS for sep in ("-", " ")
     for i, one in enumerate(_ONES, start=1)}
)  # fmt: skip

# Vague counts: (fewest, most) units. "a few days ago" covers 2 to 5 days back.
_VAGUE_COUNTS: dict[str, tuple[int, int]] = {
    "a few": (2, 5), "few": (2, 5), "a couple of": (2, 2), "a couple": (2, 2),
    "couple of": (2, 2), "several": (3, 7),
}  # fmt: skip

_ORDINAL_ONES = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
)
_ORDINAL_WORDS: dict[str, int] = {
    **{word: i for i, word in enumerate(_ORDINAL_ONES, start=1)},
    "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
    "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
    **{f"twenty{sep}{word}": 20 + i for sep in ("-", " ") for i, word in
       enumerate(_ORDINAL_ONES, start=1)},
    **{f"thirty{sep}first": 31 for sep in ("-", " ")},
}  # fmt: skip

_UNITS: dict[str, str] = {
    "day": "days", "days": "days", "week": "weeks", "weeks": "weeks", "wk": "weeks",
    "wks": "weeks", "yr": "years", "yrs": "years", "mth": "months", "mths": "months",
    "month": "months", "months": "months", "year": "years", "years": "years",
    "decade": "decades", "decades": "decades", "quarter": "quarters", "quarters": "quarters",
    "fortnight": "fortnights", "fortnights": "fortnights",
}  # fmt: skip
# Units counted in another unit: a fortnight is two weeks.
_UNIT_MULTIPLES: dict[str, tuple[str, int]] = {"fortnights": ("weeks", 2), "decades": ("years", 10)}
# "a year and a half": the half is counted in the next smaller unit (1 year = 12 months).
_HALF_UNITS: dict[str, tuple[str, int]] = {
    "years": ("months", 12), "decades": ("years", 10), "months": ("weeks", 4),
    "weeks": ("days", 7), "fortnights": ("weeks", 2),
}  # fmt: skip

_DECADE_WORDS: dict[str, int] = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
    "seventies": 70, "eighties": 80, "nineties": 90,
}  # fmt: skip

# Modifiers of a named period (month, season, weekday) and of a calendar unit.
_MODIFIERS: dict[str, str] = {
    "last": "last", "past": "last", "previous": "last", "this": "this", "current": "this",
    "next": "next", "coming": "next", "this coming": "next", "following": "next",
    "this past": "last", "nxt": "next",
}  # fmt: skip
#: How chats spell calendar units ("this wknd", "next yr").
_UNIT_SPELLINGS: dict[str, str] = {
    "wknd": "weekend", "wkend": "weekend", "yr": "year", "wk": "week",
}  # fmt: skip
_UNIT_OFFSETS: dict[str, int] = {"last": -1, "this": 0, "next": 1}

# Part of a period: the fraction of it (start, end) a modifier keeps.
_PARTS: dict[str, tuple[float, float]] = {
    "early": (0, 1 / 3), "the beginning of": (0, 1 / 3), "the start of": (0, 1 / 3),
    "beginning of": (0, 1 / 3), "start of": (0, 1 / 3), "mid": (1 / 3, 2 / 3),
    "the middle of": (1 / 3, 2 / 3), "middle of": (1 / 3, 2 / 3), "late": (2 / 3, 1),
    "the end of": (2 / 3, 1), "end of": (2 / 3, 1), "the first half of": (0, 1 / 2),
    "the second half of": (1 / 2, 1),
}  # fmt: skip

# Whole-day words: offset in days from the reference day.
_DAY_WORDS: dict[str, int] = {
    "the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
    "today": 0, "tomorrow": 1,
}  # fmt: skip
#: How chats spell "tomorrow" and "yesterday".
_DAY_WORD_SPELLINGS: dict[str, str] = {
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "tmoz": "tomorrow",
    "tomoz": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "tomorow": "tomorrow",
    "tommorow": "tomorrow", "tommorrow": "tomorrow", "yday": "yesterday",
    "tday": "today", "2day": "today", "2moz": "tomorrow", "ytd": "yesterday", "tmw": "tomorrow",
    "2mrw": "tomorrow", "tmrow": "tomorrow",
}  # fmt: skip

# Parts of a day: (start hour, end hour) on that day; hours past 24 run into the next day.
_DAY_PARTS: dict[str, tuple[int, int]] = {
    "morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 30),
    "lunchtime": (12, 14), "morn": (6, 12), "nite": (18, 30),
}  # fmt: skip
# Phrases that name a part of a day: (day offset, part).
_DAY_PART_PHRASES: dict[str, tuple[int, str]] = {
    "last night": (-1, "night"), "tonight": (0, "night"), "the night before": (-1, "night"),
    "the night before last": (-2, "night"), "tonite": (0, "night"), "2nite": (0, "night"),
    "last nite": (-1, "night"),
}  # fmt: skip

# Vague windows: (days back at the start, days back at the end, inclusive) around the
# reference day; None means recognised but too vague to ground (never a false day).
_VAGUE_WINDOWS: dict[str, tuple[int, int] | None] = {
    "recently": (30, 0), "lately": (30, 0), "the other day": (7, 1),
    "a while ago": None, "a long time ago": None, "some time ago": None,
}  # fmt: skip

# Words before a bare month, season or year that mark it as a time ("in May", "since 2019").
_CUES: tuple[str, ...] = (
    "in", "since", "until", "till", "during", "by", "before", "after", "around", "of",
    "throughout", "through", "from", "back in", "over",
)  # fmt: skip

# Words joining the two ends of a range.
_RANGE_OPENERS: tuple[str, ...] = ("between", "from")
_RANGE_JOINERS: tuple[str, ...] = ("and", "to", "until", "till", "through", "-", "–")
#: The two ends of a stay ("check in 20/1 check out 23/1"): one time, the first day to the last.
_STAY_OPENERS: tuple[str, ...] = ("check in", "check-in", "checking in", "arrive", "arriving")
_STAY_CLOSERS: tuple[str, ...] = (
    "check out", "check-out", "checking out", "leave", "leaving", "depart", "departing",
)  # fmt: skip
#: Words before the day someone returns ("out 14/8 back 21/8"): a time before it in the
#: sentence is where the time away starts.
_RETURN_WORDS: tuple[str, ...] = ("back", "home", "returning")
_WEEKEND_CUES: tuple[str, ...] = ("over", "on", "at", "during", "for")
#: Whose weekend: "how was ur weekend?" names one as "the weekend" does.
_POSSESSIVES: tuple[str, ...] = ("your", "ur", "yr", "my", "our", "his", "her", "their")

_CHRISTMAS = Holiday("fixed", (12, 25), over=(-1, 3))
_EASTER = Holiday("easter", over=(-2, 4))
_THANKSGIVING = Holiday("weekday", (11, 3, 4), over=(0, 4))
_MEMORIAL = Holiday("weekday", (5, 0, -1), over=(-2, 3))
_LABOR = Holiday("weekday", (9, 0, 1), over=(-2, 3))
_VALENTINE = Holiday("fixed", (2, 14))
_PATRICK = Holiday("fixed", (3, 17))
_HOLIDAYS: dict[str, Holiday] = {
    "christmas": _CHRISTMAS, "christmas day": _CHRISTMAS, "xmas": _CHRISTMAS,
    "christmas eve": Holiday("fixed", (12, 24)), "boxing day": Holiday("fixed", (12, 26)),
    "new year's eve": Holiday("fixed", (12, 31)), "new years eve": Holiday("fixed", (12, 31)),
    "new year's day": Holiday("fixed", (1, 1)), "new years day": Holiday("fixed", (1, 1)),
    "nye": Holiday("fixed", (12, 31)), "xmas eve": Holiday("fixed", (12, 24)),
    "xmas day": _CHRISTMAS, "christmas eve eve": Holiday("fixed", (12, 23)),
    "valentines": _VALENTINE, "mothering sunday": Holiday("easter", offset=-21),
    "bank holiday monday": Holiday("weekday", (8, 0, -1)),
    "august bank holiday": Holiday("weekday", (8, 0, -1)),
    "spring bank holiday": Holiday("weekday", (5, 0, -1)),
    "late may bank holiday": Holiday("weekday", (5, 0, -1)),
    "early may bank holiday": Holiday("weekday", (5, 0, 1)),
    "new year": Holiday("fixed", (1, 1), over=(-1, 2)),
    "new year's": Holiday("fixed", (1, 1), over=(-1, 2)),
    "halloween": Holiday("fixed", (10, 31)), "valentine's day": _VALENTINE,
    "valentines day": _VALENTINE, "valentine's": _VALENTINE,
    "st patrick's day": _PATRICK, "st. patrick's day": _PATRICK, "saint patrick's day": _PATRICK,
    "st paddy's day": _PATRICK, "april fools' day": Holiday("fixed", (4, 1)),
    "april fool's day": Holiday("fixed", (4, 1)), "independence day": Holiday("fixed", (7, 4)),
    "the fourth of july": Holiday("fixed", (7, 4)), "bonfire night": Holiday("fixed", (11, 5)),
    "guy fawkes night": Holiday("fixed", (11, 5)), "veterans day": Holiday("fixed", (11, 11)),
    "juneteenth": Holiday("fixed", (6, 19)),
    "easter": _EASTER, "easter sunday": _EASTER, "easter day": _EASTER,
    "good friday": Holiday("easter", offset=-2), "easter monday": Holiday("easter", offset=1),
    "easter weekend": Holiday("easter", offset=-2, days=4),
    "palm sunday": Holiday("easter", offset=-7), "holy week": Holiday("easter", offset=-6, days=7),
    "ash wednesday": Holiday("easter", offset=-46),
    "shrove tuesday": Holiday("easter", offset=-47), "pancake day": Holiday("easter", offset=-47),
    "mardi gras": Holiday("easter", offset=-47), "pentecost": Holiday("easter", offset=49),
    "thanksgiving": _THANKSGIVING, "thanksgiving day": _THANKSGIVING,
    "thanksgiving weekend": Holiday("weekday", (11, 3, 4), days=4),
    "black friday": Holiday("weekday", (11, 3, 4), offset=1),
    "memorial day": _MEMORIAL, "memorial day weekend": Holiday("weekday", (5, 0, -1), -2, 3),
    "labor day": _LABOR, "labour day": _LABOR,
    "labor day weekend": Holiday("weekday", (9, 0, 1), -2, 3),
    "martin luther king day": Holiday("weekday", (1, 0, 3)),
    "mlk day": Holiday("weekday", (1, 0, 3)), "presidents' day": Holiday("weekday", (2, 0, 3)),
    "presidents day": Holiday("weekday", (2, 0, 3)), "columbus day": Holiday("weekday", (10, 0, 2)),
    "mother's day": Holiday("weekday", (5, 6, 2)), "mothers day": Holiday("weekday", (5, 6, 2)),
    "father's day": Holiday("weekday", (6, 6, 3)), "fathers day": Holiday("weekday", (6, 6, 3)),
}  # fmt: skip
_HOLIDAYS.update(
    {"burns night": Holiday("fixed", (1, 25)), "hogmanay": Holiday("fixed", (12, 31)),
     "easter sun": _EASTER, "easter mon": Holiday("easter", offset=1),
     "good fri": Holiday("easter", offset=-2), "new yrs eve": Holiday("fixed", (12, 31)),
     "new yrs day": Holiday("fixed", (1, 1)), "new yr's eve": Holiday("fixed", (12, 31))}
)  # fmt: skip
_HOLIDAYS.update({k.replace("bank holiday", "bank hol"): v for k, v in _HOLIDAYS.items()})
_HOLIDAYS.update({k.replace("'", "’"): v for k, v in _HOLIDAYS.items() if "'" in k})
# Plurals for counting ("two Christmases ago"): single-word holidays only.
_HOLIDAY_PLURALS: dict[str, str] = {
    name + ("es" if name.endswith(("s", "x")) else "s"): name
    for name in _HOLIDAYS
    if " " not in name and "'" not in name and "’" not in name
}

# Plurals for counting seasons ("three summers ago"), as for holidays.
_SEASON_PLURALS: dict[str, str] = {
    name + "s": name for name in _SEASONS if not name.endswith("time")
}

# Quarters and ordinal positions inside a month ("the third week of June", "the last Friday").
_QUARTER_ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "last": 4, "final": 4,
}  # fmt: skip
_POSITION_ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1, "final": -1,
    "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
}  # fmt: skip

# Lower-case words that may follow a bare month, season, weekday or holiday without making it
# qualify a noun ("Sunday morning", "summer holidays"); function words may always follow. Its
# events, as a copula's subject, make a dotted date after it a date ("party's 5.11").
_TIME_FOLLOWERS: tuple[str, ...] = (
    "morning", "mornings", "afternoon", "evening", "night", "lunchtime", "day", "eve",
    "morn", "nite", "arvo", "weekend", "break", "holiday", "holidays", "vacation", "term",
    "semester", "season", "last", "next", "ago", "past", "already", "yet", "again",
    "onwards", "onward", "time", "when", "while", "as", "too", "either", "itself", "though",
    "although", "because", "and", "or", "then", "till", "until", "through", "to", "also",
    "just", "even", "i", "we", "you", "he", "she", "they", "it", "my", "our", "your", "his",
    "her", "their", "gonna", "gotta", "wanna", "lol", "tbh", "btw", "pls", "plz", "now",
    "instead", "party", "parties", "dinner", "lunch", "drinks", "plans", "flights",
    "flight", "trip", "bbq", "meal", "shopping", "sales", "sale", "do", "works", "work",
    "good", "ok", "okay", "fine", "suits", "sorry", "maybe", "better", "easier", "possible",
    "preferable", "doable", "half", "gig", "wedding",
)  # fmt: skip


#: Words that wish a holiday ("happy almost new year! coffee on tues?"): the holiday is a
#: greeting, not the message's time, when another time is said.
_HOLIDAY_GREETINGS: tuple[str, ...] = (
    "happy",
    "merry",
    "have a good",
    "have a great",
    "enjoy your",
)

# Things a holiday's name qualifies that are no time ("a Christmas tree", "Easter eggs"); before
# other lower-case words a holiday names its day ("boxing day walk", "halloween party").
_HOLIDAY_THINGS: tuple[str, ...] = (
    "tree", "trees", "egg", "eggs", "card", "cards", "jumper", "jumpers", "sweater",
    "present", "presents", "gift", "gifts", "carol", "carols", "song", "songs", "music",
    "movie", "movies", "film", "films", "decorations", "decoration", "lights", "cracker",
    "crackers", "costume", "costumes", "bunny", "spirit", "island", "hunt", "pudding",
    "cake", "stocking", "stockings", "ornaments", "wreath", "candy", "sweets", "special",
    "episode", "album", "themed", "theme", "colours", "colors", "turkey", "recipe",
    "recipes", "menu", "menus", "ham",
)  # fmt: skip

# Phrases that hold a time word but name no time: read as nothing, and never as their parts.
_NOT_TIMES: tuple[str, ...] = (
    "man friday", "girl friday", "gal friday", "freaky friday", "casual friday",
    "the sunday times", "sunday school", "sunday best",
)  # fmt: skip


#: Irregular simple past forms (with re-, un-, over-, mis-, out-, under- also read: "redid").
#: Forms the same in the present ("put", "read", "cut", "set") are left out: they say nothing.
_PAST_VERBS: tuple[str, ...] = (
    "was", "were", "did", "had", "went", "came", "saw", "got", "took", "made", "gave", "met",
    "told", "said", "ate", "drank", "bought", "brought", "thought", "caught", "taught", "fought",
    "sought", "found", "flew", "drove", "rode", "wrote", "spoke", "broke", "woke", "chose",
    "froze", "stole", "swore", "wore", "tore", "bore", "knew", "grew", "threw", "drew", "blew",
    "began", "ran", "swam", "sang", "rang", "sank", "drank", "sat", "stood", "understood",
    "left", "felt", "kept", "slept", "swept", "wept", "crept", "meant", "dealt", "lent", "sent",
    "spent", "built", "bent", "lost", "paid", "laid", "sold", "held", "fell", "won", "led",
    "fed", "fled", "bled", "bred", "sped", "heard", "became", "forgot", "forgave", "shook",
    "hid", "bit", "lit", "slid", "spun", "stuck", "struck", "hung", "dug", "clung", "swung",
    "flung", "stung", "shot", "shone", "rose", "arose", "dove", "strove", "gotten", "born",
)  # fmt: skip
#: Irregular past participles, for the perfect ("have seen", "had been"). "got" is left out:
#: "I've got an exam" is the present.
_PARTICIPLES: tuple[str, ...] = (
    "been", "gone", "seen", "done", "had", "made", "taken", "given", "eaten", "written",
    "spoken", "broken", "woken", "chosen", "frozen", "stolen", "known", "grown", "thrown",
    "drawn", "blown", "flown", "driven", "ridden", "begun", "run", "swum", "sung", "rung",
    "drunk", "forgotten", "forgiven", "hidden", "bitten", "fallen", "shaken", "gotten",
    "become", "come", "met", "told", "said", "bought", "brought", "thought", "caught",
    "taught", "found", "left", "felt", "kept", "slept", "meant", "sent", "spent", "built",
    "lost", "paid", "sold", "held", "won", "led", "heard", "sat", "stood", "shot", "born",
)  # fmt: skip
#: Words in -ed that are no simple past ("need", "excited", "hundred").
_NOT_PAST_ED: tuple[str, ...] = (
    "need", "feed", "seed", "speed", "weed", "deed", "indeed", "proceed", "succeed", "exceed",
    "red", "bed", "shed", "wed", "sled", "hundred", "sacred", "naked", "wicked", "beloved",
    "excited", "interested", "scared", "worried", "tired", "bored", "pleased", "thrilled",
    "delighted", "supposed", "stressed",
)  # fmt: skip
#: Verbs of timetables and plans: their present tense ("Ana arrives", "we fly") points ahead.
_SCHEDULE_VERBS: tuple[str, ...] = (
    "start", "begin", "open", "reopen", "close", "end", "finish", "leave", "arrive", "depart",
    "land", "fly", "return", "retire", "move", "get", "go", "come", "turn", "expire", "launch",
    "play", "meet", "graduate", "marry", "visit", "head", "travel", "drive", "sail", "resume",
    "restart", "kick", "premiere", "release", "run", "take", "have", "see",
)  # fmt: skip
#: Pronouns that "'s" is "is" after ("it's", not "Jo's").
_S_IS_AFTER: tuple[str, ...] = (
    "it", "he", "she", "that", "there", "what", "who", "where", "here", "everything", "this",
)  # fmt: skip


#: Verbs that give an event a new time ("moved to", "postponed until", "rebooked for"): the
#: start of each, any ending read ("mov" is "move", "moved", "moving").
_RESCHEDULED_VERBS: tuple[str, ...] = (
    "mov", "push", "postpon", "bring", "brought", "reschedul", "chang", "delay", "rebook",
    "shift", "bump",
)  # fmt: skip

# Slots of the tense cues, filled by the reader from the tables above.
_PREFIX, _PAST_ED, _PARTICIPLE = "{prefix}", "{past_ed}", "{participle}"
_BE_NOW, _THIRD, _RESCHEDULED = "{be_now}", "{third}", "{rescheduled}"
_PAST_FORMS, _SCHEDULE_FORMS = "{past_verbs}", "{schedule_verbs}"
_ADVERB = r"(?: (?:not|n't|never|just|already|finally|really|also|still|actually|all|so))?"
_HAVE = r"(?:have|has|had|'ve|'d)(?: n't)?"
# "last" and "next" after "the" or a possessive are adjectives ("the next day", "my last day")
_NOT_THE = "".join(f"(?<!{w} )" for w in ("the", "my", "our", "your", "his", "her", "their"))
_NOT_AFTER_PREPOSITION = "".join(
    f"(?<!{w} )" for w in ("on", "in", "at", "for", "by", "to", "from")
)
_NOT_PASSIVE = "".join(
    f"(?<!{w} )"
    for w in ("is", "are", "am", "'s", "'re", "'m", "be", "been", "get", "gets", "getting", "being")
)  # 'gets fitted in April' is no past
_NOT_SUBJECT = "".join(f"(?<!{w} )" for w in ("i", "we", "you", "u", "they", "he", "she", "who"))
_NOT_ING = r"(?!(?:no|some|any|every)?thing(?![\w'])|morning(?![\w'])|evening(?![\w']))"

_TENSE_CUES: tuple[TenseCue, ...] = (
    # rank 3: words that say outright which way
    TenseCue("will", r"will|'ll|shall|wo n't", "forward", 3, "We'll fly to Oslo on Friday."),
    TenseCue("going to", r"going to|gonna", "forward", 3, "Ana is going to call on Friday."),
    TenseCue(
        "intent",
        r"about to|plan(?:s|ning)?(?: to| on)?|hop(?:e|es|ing) to|wants? to|intends? to"
        r"|would like to|'d like to|expect(?:s|ing)? to",
        "forward",
        3,
        "Planning a trip to Rome in November.",
    ),
    TenseCue(
        "booked for",
        r"(?:book|booked|schedule|scheduled|reserve|reserved|arrange|arranged|planned"
        r"|pencil|pencill?ed|set|lined up)(?: [\w']+){0,4} for"
        # the thing booked, then its dates: "booked flights, out 14/8 back 21/8"
        r"|(?:booked|reserved|arranged)(?: [\w']+){1,3} ?[,:-](?: [\w']+)? §"
        # a reschedule names the new time: "moved to Friday", "pushed the party to the 15th"
        rf"|{_RESCHEDULED}(?: [\w']+){{0,3}}? (?:to|for|until|till|til) §"
        # and any participle right before it: "rearranged for monday", "swapped to sun"
        rf"|{_PAST_ED} (?:to|for|until|till|til) (?:the )?§",
        "forward",
        3,
        "Booked the hotel for Friday.",
    ),
    TenseCue(
        "ahead words",
        r"ca n't wait|can not wait|cannot wait|looking forward|look forward|upcoming|coming up"
        rf"|soon(?! after)|{_NOT_THE}next|tomorrow|tonight|remember to|do n't forget"
        r"|(?:need|needs|have|has) to|must|should|let 's|let us|see you"
        # chat spellings, availability and invitations: "can u do thurs?", "free on the 28th?"
        r"|tmrw|tmr|2moro|lets|cu|c u|see u|see ya|ca n't do|cant do"
        # a request or offer: "can you have the kids thurs?", "can i come sat?"
        r"|can (?:u|you|we|i|ya) (?!believe|remember|recall|imagine|see)[\w']+"
        r"|(?:r|are|am|is) (?:u|you|ya|i|we|they|he|she) free|free on|works|(?:is|'s) good for",
        "forward",
        3,
        "Can't wait for the concert in July!",
    ),
    TenseCue(
        "back words",
        rf"ago|yesterday|{_NOT_THE}last(?! thing| minute)|used to|back then|remembered"
        r"|remember(?! to(?![\w']))|recall(?:ed)?",
        "back",
        3,
        "Remember that hike in August!",
    ),
    TenseCue(
        "past plan",
        r"(?:was|were)(?: n't)? (?:going to|gonna|supposed to|planning to|meant to|about to)"
        r"|(?:should|could|would|must|might|may)(?: n't| not)? have",
        "back",
        3,
        "Jo should have come on Friday.",
    ),
    # rank 2: aspect and auxiliaries
    TenseCue("past be", r"was|were|did", "back", 2, "How was lunch on Thursday?"),
    TenseCue(
        "perfect", rf"{_HAVE}{_ADVERB} {_PARTICIPLE}", "back", 2, "We'd moved to Leeds in March."
    ),
    TenseCue(
        "progressive",
        rf"{_BE_NOW}{_ADVERB} {_NOT_ING}\w+ing",
        "forward",
        2,
        "We are flying to Porto on Friday.",
    ),
    # a chat drops the subject and "be" of a progressive opening its clause: "going fri now"
    TenseCue(
        "bare progressive",
        rf"^{_NOT_ING}(?!during(?![\w']))\w+ing",
        "forward",
        2,
        "Flying out on Friday!",
    ),
    TenseCue(
        "asked progressive",
        rf"(?:am|is|are)(?: n't)? (?:i|you|we|they|he|she|it){_ADVERB} {_NOT_ING}\w+ing",
        "forward",
        2,
        "are you still flying to Lisbon on friday",
    ),
    TenseCue(
        "present passive",
        rf"(?:{_BE_NOW}|gets?){_ADVERB} {_PARTICIPLE}",
        "forward",
        2,
        "The crown gets fitted in April.",
    ),
    TenseCue(
        "have got",
        r"(?:'ve|have|has)(?: (?:i|you|we|they|he|she))? got",
        "forward",
        2,
        "We've got tickets for Sunday.",
    ),
    TenseCue("due", r"due", "forward", 2, "Rent due on the 28th."),
    # the date's own verb: "we decided christmas is at mine"
    TenseCue(
        "date is",
        rf"{_NOT_AFTER_PREPOSITION}§ (?:is|are)(?! n't)",
        "forward",
        2,
        "Christmas is at ours.",
    ),
    # a thing arranged, named before its participle: "valentine's dinner booked"
    TenseCue(
        "arranged",
        rf"{_NOT_SUBJECT}(?:all )?(?:booked|reserved|arranged|confirmed|sorted)(?! [\w'])",
        "forward",
        2,
        "Table for Friday: booked.",
    ),
    # a past verb the date is the adverb of: "the invoice I sent on the 2nd is now due"
    TenseCue(
        "past on",
        rf"{_NOT_PASSIVE}(?:{_PAST_ED}|{_PREFIX}(?:{_PAST_FORMS}))"
        r"(?: [\w']+){0,2}? (?:on|in) §",
        "back",
        2,
        "The parcel she sent on Friday is here.",
    ),
    # thanks for a thing done: "thanks for having us on saturday!"
    TenseCue(
        "thanks for", r"thanks? (?:you )?for \w+ing", "back", 2, "Thanks for having us on Sunday."
    ),
    # rank 1: plain tense
    TenseCue(
        "simple past",
        rf"{_PAST_ED}|{_PREFIX}(?:{_PAST_FORMS})",
        "back",
        1,
        "Ana arrived on Thursday.",
    ),
    TenseCue("earlier", r"earlier|previously|already", "back", 1, "We met earlier on Friday."),
    TenseCue(
        "present be",
        rf"{_BE_NOW}(?: [\w']+){{0,3}}? (?:on|in|at|for|during|by|until|till) §"
        rf"|{_BE_NOW}(?: now| still| actually)? §",
        "forward",
        1,
        "Her exam is on the 20th.",
    ),
    TenseCue(
        "present have",
        r"(?:i|we|you|they|\w+s) have|has",
        "forward",
        1,
        "The kids have a swim meet on Saturday.",
    ),
    TenseCue(
        "schedule",
        rf"{_THIRD}|(?:i|we|you|they){_ADVERB} (?:{_SCHEDULE_FORMS})",
        "forward",
        1,
        "The bakery reopens in March.",
    ),
    # rank 0: a question about a day, with no other cue, asks what is coming ("Gym on
    # Saturday?"); "Anything fun over the weekend?" asks what was
    TenseCue("question", r"on §(?=[^.!]*\?)", "forward", 0, "Gym on Saturday?"),
)

#: Words around a time that make it the time replaced, not the one that holds, in a message
#: naming two ("physio cancelled tmrw, rebooked for fri"; "dinner at 7 instead of 8"):
#: regex fragments matched like the tense cues, in the time's clause.
_REPLACED_CUES: tuple[str, ...] = (
    r"cancell?ed|called off|§ (?:is|'s) off|did n't work|didnt work|could n't make"
    r"|couldnt make|ca n't make|cant make|ca n't do|cant do|meant to"
    r"|(?<!is )(?<!are )(?<!now )supposed to"
    r"|(?:was|were) (?:going to|gonna)"
    r"|(?:got|was|been|were|is|'s) (?:moved|pushed|postponed"
    r"|cancell?ed|changed|delayed|rescheduled)",
    r"instead of §|not (?:on )?§|from § to|rather than §",
    # a time turned down or given up: "this wknd no, nxt wknd def", "no longer the 5th"
    r"§ (?:no|nope|nah)(?! (?:problem|prob|probs|worries))|no longer (?:on )?§",
    # the subject of a negated predicate: "the 10th does n't work", "thursday 's a no-go"
    r"§ (?:is|'s|are|does|do|did|was|will|wo|would)(?: n't| not|(?: a)? no)",
    # the object of a negated verb: "ca n't come mon", "we wo n't manage the 20th"
    r"(?:ca|can|wo|could|do|does|did|would)(?: n't| not) [\w']+ (?:on )?§|cannot [\w']+ (?:on )?§",
    # the time a thing is moved from: "move friday 's dinner to saturday"
    rf"{_RESCHEDULED} (?:[\w']+ ){{0,2}}?§(?: 's)?(?: [\w']+){{0,3}}? (?:to|till|until|til)",
)

#: Words before a yearless date written with dots ("on 3.4") that make it a date, not a
#: decimal ("for 1.5 hours", "rated 4.5"). After a copula it is a date when the copula's
#: subject is an event a day may name ("party's 5.11"; TIME_FOLLOWERS), not "score is 7.5".
#: Stems of units a decimal is written before ("20.12 secs", "14.10 kilos"): a dotted number
#: before one is no date.
_DECIMAL_UNITS: tuple[str, ...] = (
    "sec", "min", "hour", "hr", "mile", "met", "kilo", "gram", "pound", "stone", "degree",
    "percent", "point",
)  # fmt: skip

_DOTTED_DATE_CUES: tuple[str, ...] = (
    "on", "due", "by", "until", "till", "til", "from", "since", "before", "after",
)  # fmt: skip

#: Words that may follow a bare hour after "at", "by", "until" for it to be a clock time
#: ("call u at 7 before work", "home by 1?"; not "at 7 she started piano").
_CLOCK_FOLLOWERS: tuple[str, ...] = (
    "tonight", "tonite", "tomorrow", "tmrw", "today", "before", "after", "then", "ish",
    "o'clock", "oclock", "sharp", "latest", "and", "or", "instead", "outside", "pls", "lol",
    "in", "at", "on", "tho", "then", "please", "ok", "yeah", "x", "xx", "for", "with",
)  # fmt: skip
#: Words before a yearless numeric date ("on 4/5", "due 1/4") that make it a date, not a
#: fraction or a score; a padded part ("14/06") or a clock time after it does too.
_NUMERIC_DATE_CUES: tuple[str, ...] = (
    "on", "for", "by", "due", "in", "out", "from", "til", "till", "until", "before", "after",
    "since", "to", "is", "s", "date", "dated", "starting", "thru", "lands",
)  # fmt: skip

#: Words before a yearless date that, with no cue, point it forward ("party on 12 March").
_AHEAD_PREPOSITIONS: tuple[str, ...] = ("on", "for", "by", "until", "to", "from", "between")
#: Where a clause ends inside a sentence: the tense of one clause is not the other's.
#: Words that open a relative clause after a noun ("the guy whose wedding ...").
_RELATIVE_MARKERS: tuple[str, ...] = ("that", "who", "whose", "which", "where")
#: Subjects that open a reduced relative clause after a noun ("the tickets I bought ...").
_RELATIVE_SUBJECTS: tuple[str, ...] = ("i", "you", "u", "we", "they", "he", "she")
#: Verbs that end a relative clause: the main clause's ("the parcel I ordered is coming ...").
_RELATIVE_ENDS: tuple[str, ...] = ("is", "are", "was", "were", "will")
#: Words that, opening a sentence, make what runs to its first comma a subordinate clause.
_SUBORDINATORS: tuple[str, ...] = (
    "after", "since", "although", "though", "because", "despite", "when", "even though",
    "now that",
)  # fmt: skip
#: Words in -ing after a comma that open no participle aside ("..., morning was fine").
_NOT_PARTICIPLES: tuple[str, ...] = (
    "morning", "evening", "nothing", "something", "anything", "everything", "thing", "spring",
    "wedding", "meeting", "during", "king", "ring", "bring", "sing", "ceiling", "building",
)  # fmt: skip

_CLAUSE_BREAKS: tuple[str, ...] = (
    ",",
    ";",
    ":",
    " - ",
    " – ",
    " but ",
    " and ",
    " so ",
    " because ",
)


# ------------------------------------------------------------------ corrections

#: Openings that make a message a correction whatever follows, if it names a time.
_STRONG_CUES: tuple[str, ...] = (
    r"wait,?\s+no", r"no,?\s+wait", r"correction\s*:", r"scratch that", r"sorry,?\s+i meant",
    r"i meant", r"my mistake", r"my bad", r"i got (?:it|that) wrong", r"oops", r"no no",
)  # fmt: skip
#: Openings that make a correction only when a time, or a reference back ("it was", "that
#: was"), follows at once: "Actually it was Tuesday", not "Actually, I'm going again on Friday".
_SOFT_CUES: tuple[str, ...] = (r"actually", r"i mean", r"sorry", r"no", r"wait")
#: Words that refer back to what was just said.
_BACK_REFERENCES: tuple[str, ...] = (
    r"(?:it|that|this)\s+(?:was|were|is|wasn't)", r"(?:it|that)['’]s", r"(?:it|that) happened",
    r"was", r"were", r"not",
)  # fmt: skip
#: Words before the opening cue that change nothing ("oh wait no").
_FILLERS: tuple[str, ...] = (r"oh", r"ah", r"hmm+", r"um+", r"uh+", r"ok", r"okay")
#: Words anywhere in a short message that announce a new time for an event just given
#: ("sorry, my bad - it's friday 2pm", "update: party is now the 27th"); evidence, beside a
#: word the two messages share or a reference back, for the shape of a correction.
_RESTATE_CUES: tuple[str, ...] = (
    *_STRONG_CUES, *_SOFT_CUES, r"update", r"updated", r"correction", r"change of plans?",
    r"now", r"instead", r"make (?:it|that)", r"same time", r"rather", r"it'?s", r"that'?s",
    r"it is", r"that is",
)  # fmt: skip
#: Words a message that only gives a plan a new time may carry beside it: hesitation ("hang
#: on", "hmm") and preference ("friday better for me", "thurs works instead"); regular
#: expressions. A word outside them and the plan's own words is another event ("gym sat").
_HEDGES: tuple[str, ...] = (
    r"hang on", r"hold on", r"one sec", r"let me (?:check|think)", r"thinking about it",
    r"on second thoughts?", r"hmm+", r"erm+", r"sorry", r"apologies", r"actually", r"wait",
    r"better", r"best", r"easier", r"works?", r"suits?", r"prefer(?:red|able)?", r"would",
    r"could", r"be", r"rather", r"instead", r"possible", r"any good", r"fine", r"ok(?:ay)?",
    r"good", r"for (?:me|us|everyone)", r"guys", r"everyone", r"all",
)  # fmt: skip
#: Words between a new time and the one it replaces ("wed not fri", "7.30 instead of 8").
_DENIALS: tuple[str, ...] = (r"not", r"instead of", r"rather than")
#: Words that give a new time in place of the one just said ("make that mon").
_REPLACING: tuple[str, ...] = (
    r"make (?:it|that)", r"change (?:it|that) to", r"move (?:it|that) to", r"let'?s say",
)  # fmt: skip
#: Words that may stand before either time of a correction ("from 7.30 not 8").
_RESTATED_PREPOSITIONS: tuple[str, ...] = ("at", "on", "from", "for", "till", "until", "by")
#: Forms of "be" after a subject ("the gym is 7 not 8"): the subject names the event.
_COPULAS: tuple[str, ...] = (r"\s+is", r"\s+are", r"\s+was", r"\s+were", r"['’]s")
#: Words that add an event rather than restate one ("again", "too").
_ADDING_WORDS: tuple[str, ...] = (r"again", r"too", r"also", r"as well", r"another", r"and then")
#: Words opening a clause that joins another event to one just given ("and footy sat at 10am").
_JOINING_WORDS: tuple[str, ...] = (r"and", r"plus", r"&")

# ------------------------------------------------------------------ zones

#: Abbreviation -> hours east of UTC, for abbreviations that name one offset only.
_OFFSETS: dict[str, float] = {
    "UTC": 0, "UT": 0, "GMT": 0, "Z": 0, "WET": 0,
    "WEST": 1, "CET": 1, "CEST": 2, "MET": 1, "MEST": 2, "EET": 2, "EEST": 3, "MSK": 3,
    "PKT": 5, "NPT": 5.75, "ICT": 7, "WIB": 7, "HKT": 8, "SGT": 8, "AWST": 8, "PHT": 8,
    "JST": 9, "KST": 9, "ACST": 9.5, "ACDT": 10.5, "AEST": 10, "AEDT": 11,
    "NZST": 12, "NZDT": 13,
    "HST": -10, "AKST": -9, "AKDT": -8, "PST": -8, "PDT": -7, "MST": -7, "MDT": -6,
    "EST": -5, "EDT": -4, "NST": -3.5, "NDT": -2.5, "BRT": -3,
}  # fmt: skip
#: Abbreviations used for more than one offset: refused, naming the meanings.
_AMBIGUOUS: dict[str, str] = {
    "CST": "US Central (-06:00), China (+08:00) or Cuba (-05:00)",
    "CDT": "US Central daylight (-05:00) or Cuba daylight (-04:00)",
    "IST": "India (+05:30), Ireland (+01:00) or Israel (+02:00)",
    "BST": "British Summer (+01:00) or Bangladesh (+06:00)",
    "AST": "Atlantic (-04:00) or Arabia (+03:00)",
    "ADT": "Atlantic daylight (-03:00) or Arabia daylight (+04:00)",
    "GST": "Gulf (+04:00) or South Georgia (-02:00)",
    "SST": "Samoa (-11:00) or Singapore (+08:00)",
    "ECT": "Ecuador (-05:00) or Eastern Caribbean (-04:00)",
}


_V = TypeVar("_V")


def _rows(mapping: Mapping[str, _V]) -> tuple[tuple[str, _V], ...]:
    """A mapping as the rows of a table, its phrase first."""
    return tuple(mapping.items())


@dataclass(frozen=True)
class TimeWords:
    """Every word table :mod:`ramem_integrations.core.time` reads, English by default."""

    #: Month names and abbreviations, to the month (1-12).
    months: tuple[tuple[str, int], ...] = _rows(_MONTHS)

    #: Month words that are common English words too: alone, a time only when capitalised
    #: ("in May").
    capitalised_only: tuple[str, ...] = _CAPITALISED_ONLY

    #: Weekday names, to the weekday (0 is Monday).
    weekdays: tuple[tuple[str, int], ...] = _rows(_WEEKDAYS)

    #: Short forms of weekdays, as chats write them ("thurs", "weds").
    weekday_short: tuple[tuple[str, int], ...] = _rows(_WEEKDAY_SHORT)

    #: Short weekday forms that are English words too ("sat", "sun"): a weekday only after a
    #: cue.
    weekday_words: tuple[str, ...] = _WEEKDAY_WORDS

    #: Words after which such a short form is a weekday ("on sat", "see u sun").
    weekday_word_cues: tuple[str, ...] = _WEEKDAY_WORD_CUES

    #: Subjects after which "sat" or "sun" ending a clause is the verb ("I sat.").
    subject_words: tuple[str, ...] = _SUBJECT_WORDS

    #: Determiners before which "sun" ending a clause is the noun ("the sun!").
    determiners: tuple[str, ...] = _DETERMINERS

    #: Copulas after which "sat", "sun", "wed" or "mon" ending a clause is the day it is said
    #: to be ("now its wed", "the bbq is sun"), "its" as chats write "it's".
    copulas: tuple[str, ...] = ("its", "it's", "is", "'s", "be", "being")

    #: Words that point at a noun a reduced relative clause follows ("that band we saw in
    #: march"), beside the determiners.
    demonstratives: tuple[str, ...] = ("that", "those", "these")

    #: Words after which "sun" or "sat" opening a message is no day ("sun is out", "sat nav").
    short_day_not_before: tuple[str, ...] = _SHORT_DAY_NOT_BEFORE

    #: Words a chat puts after a time that qualify no noun ("the 20th ugh").
    chat_particles: tuple[str, ...] = _CHAT_PARTICLES

    #: Season names, to the season.
    seasons: tuple[tuple[str, str], ...] = _rows(_SEASONS)

    #: Breaks named by a season or holiday, which take the year after them ("spring break
    #: 2022").
    period_nouns: tuple[str, ...] = _PERIOD_NOUNS

    #: Number words, to their value (compounds included: "twenty-one").
    number_words: tuple[tuple[str, int], ...] = _rows(_NUMBER_WORDS)

    #: Tens, the first part of a compound number ("twenty-one").
    tens: tuple[str, ...] = _TENS

    #: Ones, the second part of a compound number.
    ones: tuple[str, ...] = _ONES

    #: Vague counts, to the fewest and most units ("a few": 2 to 5).
    vague_counts: tuple[tuple[str, tuple[int, int]], ...] = _rows(_VAGUE_COUNTS)

    #: Ordinal words for days of a month ("the third"), to the day.
    ordinal_words: tuple[tuple[str, int], ...] = _rows(_ORDINAL_WORDS)

    #: Calendar units as written ("wks"), to the unit ("weeks").
    units: tuple[tuple[str, str], ...] = _rows(_UNITS)

    #: Units counted in another unit: a fortnight is two weeks.
    unit_multiples: tuple[tuple[str, tuple[str, int]], ...] = _rows(_UNIT_MULTIPLES)

    #: "a year and a half": the half counted in the next smaller unit.
    half_units: tuple[tuple[str, tuple[str, int]], ...] = _rows(_HALF_UNITS)

    #: Decades by name ("the nineties"), to their tens.
    decade_words: tuple[tuple[str, int], ...] = _rows(_DECADE_WORDS)

    #: Modifiers of a named period and of a calendar unit ("past"), to "last", "this" or
    #: "next".
    modifiers: tuple[tuple[str, str], ...] = _rows(_MODIFIERS)

    #: How chats spell calendar units ("this wknd", "next yr").
    unit_spellings: tuple[tuple[str, str], ...] = _rows(_UNIT_SPELLINGS)

    #: "last", "this", "next" before a unit, to its offset.
    unit_offsets: tuple[tuple[str, int], ...] = _rows(_UNIT_OFFSETS)

    #: Parts of a period ("early", "the end of"), to the fraction of it they keep.
    parts: tuple[tuple[str, tuple[float, float]], ...] = _rows(_PARTS)

    #: Whole-day words, to their offset in days ("yesterday": -1); the reader adds each
    #: without "the " and in each chat spelling.
    day_words: tuple[tuple[str, int], ...] = _rows(_DAY_WORDS)

    #: How chats spell "tomorrow", "yesterday" and "today" ("tmrw").
    day_word_spellings: tuple[tuple[str, str], ...] = _rows(_DAY_WORD_SPELLINGS)

    #: Parts of a day, to their hours (past 24 runs into the next day).
    day_parts: tuple[tuple[str, tuple[int, int]], ...] = _rows(_DAY_PARTS)

    #: Phrases that name a part of a day ("last night"), to the day offset and part.
    day_part_phrases: tuple[tuple[str, tuple[int, str]], ...] = _rows(_DAY_PART_PHRASES)

    #: Vague windows ("recently"), to days back at the start and end; None: too vague to
    #: ground.
    vague_windows: tuple[tuple[str, tuple[int, int] | None], ...] = _rows(_VAGUE_WINDOWS)

    #: Words before a bare month, season or year that mark it as a time ("in May", "since
    #: 2019").
    cues: tuple[str, ...] = _CUES

    #: Words opening a range ("between", "from").
    range_openers: tuple[str, ...] = _RANGE_OPENERS

    #: Words joining the two ends of a range.
    range_joiners: tuple[str, ...] = _RANGE_JOINERS

    #: Words opening a stay ("check in 20/1 check out 23/1"): its first day.
    stay_openers: tuple[str, ...] = _STAY_OPENERS

    #: Words closing a stay ("check out 23/1"): its last day.
    stay_closers: tuple[str, ...] = _STAY_CLOSERS

    #: Words before the day someone returns ("out 14/8 back 21/8"): a time earlier in the
    #: sentence is where the time away starts, the two are one range.
    return_words: tuple[str, ...] = _RETURN_WORDS

    #: Words before "the weekend" that make it a time ("over the weekend").
    weekend_cues: tuple[str, ...] = _WEEKEND_CUES

    #: Whose weekend: "how was ur weekend?" names one as "the weekend" does.
    possessives: tuple[str, ...] = _POSSESSIVES

    #: Holidays by name, each with the rule of its day.
    holidays: tuple[tuple[str, Holiday], ...] = _rows(_HOLIDAYS)

    #: Plurals of holidays for counting ("two Christmases ago"), to the holiday.
    holiday_plurals: tuple[tuple[str, str], ...] = _rows(_HOLIDAY_PLURALS)

    #: Plurals of seasons for counting ("three summers ago"), to the season.
    season_plurals: tuple[tuple[str, str], ...] = _rows(_SEASON_PLURALS)

    #: Ordinals of quarters ("the last quarter"), to the quarter.
    quarter_ordinals: tuple[tuple[str, int], ...] = _rows(_QUARTER_ORDINALS)

    #: Ordinal positions inside a month ("the last Friday"), to the position (-1 the last).
    position_ordinals: tuple[tuple[str, int], ...] = _rows(_POSITION_ORDINALS)

    #: Lower-case words that may follow a bare month, season, weekday or holiday without
    #: making it qualify a noun ("Sunday morning").
    time_followers: tuple[str, ...] = _TIME_FOLLOWERS

    #: Words that wish a holiday ("happy new year!"): a greeting, not the message's time, when
    #: another time is said.
    holiday_greetings: tuple[str, ...] = _HOLIDAY_GREETINGS

    #: Things a holiday's name qualifies that are no time ("a Christmas tree").
    holiday_things: tuple[str, ...] = _HOLIDAY_THINGS

    #: Phrases that hold a time word but name no time ("man friday").
    not_times: tuple[str, ...] = _NOT_TIMES

    #: Irregular simple past forms (with re-, un-, over-, mis-, out-, under- also read).
    past_verbs: tuple[str, ...] = _PAST_VERBS

    #: Irregular past participles, for the perfect ("have seen").
    participles: tuple[str, ...] = _PARTICIPLES

    #: Words in -ed that are no simple past ("need", "excited", "hundred").
    not_past_ed: tuple[str, ...] = _NOT_PAST_ED

    #: Verbs of timetables and plans: their present tense points ahead ("Ana arrives").
    schedule_verbs: tuple[str, ...] = _SCHEDULE_VERBS

    #: Pronouns that "'s" is "is" after ("it's", not "Jo's").
    s_is_after: tuple[str, ...] = _S_IS_AFTER

    #: Verbs that give an event a new time, as their start ("mov": "moved to", "moving to").
    rescheduled: tuple[str, ...] = _RESCHEDULED_VERBS

    #: Cues to which way a bare date points, ranked (docs/temporal.md lists them).
    tense_cues: tuple[TenseCue, ...] = _TENSE_CUES

    #: Words around a time that make it the time replaced in a message naming two
    #: ("cancelled tmrw, rebooked for fri"); regular expressions.
    replaced_cues: tuple[str, ...] = _REPLACED_CUES

    #: Words right after a time that make it the one taken in place of another ("he's doing
    #: fri instead"): it is the message's time.
    taken_cues: tuple[str, ...] = ("instead",)

    #: Words before a yearless date written with dots ("on 3.4") that make it a date, not a
    #: decimal.
    dotted_date_cues: tuple[str, ...] = _DOTTED_DATE_CUES
    #: Stems of units a decimal is written before ("20.12 secs"): a dotted number before
    #: one is no date.
    decimal_units: tuple[str, ...] = _DECIMAL_UNITS

    #: Words that may follow a bare hour after "at", "by", "until" for it to be a clock time
    #: ("at 7 before work").
    clock_followers: tuple[str, ...] = _CLOCK_FOLLOWERS

    #: Words before a yearless numeric date ("on 4/5") that make it a date, not a fraction
    #: or a score.
    numeric_date_cues: tuple[str, ...] = _NUMERIC_DATE_CUES

    #: Words before a yearless date that, with no cue, point it forward ("party on 12
    #: March").
    ahead_prepositions: tuple[str, ...] = _AHEAD_PREPOSITIONS

    #: Where a clause ends inside a sentence: the tense of one clause is not the other's.
    clause_breaks: tuple[str, ...] = _CLAUSE_BREAKS

    #: Words that open a relative clause after a noun ("the guy whose wedding ..."): its time
    #: is background, not the message's.
    relative_markers: tuple[str, ...] = _RELATIVE_MARKERS

    #: Subjects that open a reduced relative clause after a noun ("the tickets I bought").
    relative_subjects: tuple[str, ...] = _RELATIVE_SUBJECTS

    #: Verbs that end a relative clause: the main clause's ("the parcel I ordered is ...").
    relative_ends: tuple[str, ...] = _RELATIVE_ENDS

    #: Words that, opening a sentence, make what runs to its first comma background ("after
    #: the mess on the 2nd, ...").
    subordinators: tuple[str, ...] = _SUBORDINATORS

    #: Words in -ing after a comma that open no participle aside ("..., morning was fine").
    not_participles: tuple[str, ...] = _NOT_PARTICIPLES

    #: Openings that make a message a correction whatever follows, if it names a time;
    #: regular expressions.
    strong_cues: tuple[str, ...] = _STRONG_CUES

    #: Openings that make a correction only when a time or a reference back follows
    #: ("Actually it was Tuesday").
    soft_cues: tuple[str, ...] = _SOFT_CUES

    #: Words that refer back to what was just said ("it was", "that's").
    back_references: tuple[str, ...] = _BACK_REFERENCES

    #: Words before a correction's opening that change nothing ("oh wait no").
    correction_fillers: tuple[str, ...] = _FILLERS

    #: Words in a short message that announce a new time for an event just given ("update:
    #: ...").
    restate_cues: tuple[str, ...] = _RESTATE_CUES

    #: Words that add an event rather than restate one ("again", "too").
    adding_words: tuple[str, ...] = _ADDING_WORDS

    #: Words opening a clause that joins another event rather than restating one ("and
    #: footy sat at 10am").
    joining_words: tuple[str, ...] = _JOINING_WORDS

    #: Words a message giving a plan only a new time may carry beside it: hesitation and
    #: preference ("hang on, friday better for me").
    restate_hedges: tuple[str, ...] = _HEDGES

    #: Words between a new time and the one it replaces ("wed not fri"); regular expressions.
    denials: tuple[str, ...] = _DENIALS

    #: Words that give a new time in place of the one just said ("make that mon"); regular
    #: expressions.
    replacing_phrases: tuple[str, ...] = _REPLACING

    #: Words that may stand before either time of a correction ("from 7.30 not 8").
    restated_prepositions: tuple[str, ...] = _RESTATED_PREPOSITIONS

    #: Finite forms of "be" right after a subject ("the gym is 7 not 8"); regular
    #: expressions. A subject the plan did not say names another event.
    subject_copulas: tuple[str, ...] = _COPULAS

    #: Zone abbreviations that name one offset, to hours east of UTC.
    zone_offsets: tuple[tuple[str, float], ...] = _rows(_OFFSETS)

    #: Zone abbreviations used for several offsets, refused with what they could mean.
    ambiguous_zones: tuple[tuple[str, str], ...] = _rows(_AMBIGUOUS)

    def __hash__(self) -> int:
        """The hash of every table, computed once: readers cache their patterns by words."""
        return hash_once(self)
