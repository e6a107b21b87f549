"""The conventions grounding follows, as one value passed down explicitly.

:class:`Conventions` holds every convention the code of :mod:`.grounding` reads: its defaults
are the values of the rows of :data:`~.tables.CONVENTIONS` (which renders them, with the rule
each follows, in docs/temporal.md), plus the two options a caller sets (``hemisphere``,
``date_order``), the direction one match is read in (set per match by tense reading) and the
words the times are read by (``words``, the lexicon's time section), as python-dateutil's
``parserinfo`` holds both its words and its conventions.

>>> Conventions(hemisphere="southern").season_starts["winter"]
6
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.lexicon.time import TimeWords
from ramem_integrations.errors import InvalidTimeError

__all__ = ["DATE_ORDERS", "DIRECTIONS", "HEMISPHERES", "Conventions"]

#: The values of the ``hemisphere`` option: which months the season words name.
HEMISPHERES = ("northern", "southern")
#: The values of the ``date_order`` option: how an ambiguous numeric date (10/01/2024) is read.
DATE_ORDERS = ("DMY", "MDY")
#: Which way a bare named period points while one match is read (None: neither).
DIRECTIONS = ("forward", "back")


@dataclass(frozen=True, slots=True)
class Conventions:
    """How times are read: week and weekend, seasons, numeric dates, and which occurrence of a
    recurring period (a month, a weekday) a bare, last, next, this or forward one names.

    Raises:
        InvalidTimeError: ``hemisphere``, ``date_order`` or ``direction`` is not one of
            :data:`HEMISPHERES`, :data:`DATE_ORDERS` (or None), :data:`DIRECTIONS` (or None).
    """

    hemisphere: str = "northern"
    date_order: str | None = None
    direction: str | None = None
    week_start: int = 0
    weekend_days: tuple[int, int] = (5, 7)
    season_start_months: Mapping[str, int] = field(
        default_factory=lambda: {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}
    )
    southern_season_start_months: Mapping[str, int] = field(
        default_factory=lambda: {"spring": 9, "summer": 12, "autumn": 3, "winter": 6}
    )
    bare_named_period: str = "latest_not_after"
    last_named_period: str = "latest_ended"
    next_named_period: str = "earliest_after"
    this_named_period: str = "current_cycle"
    forward_named_period: str = "earliest_not_ended"
    numeric_date_order: Mapping[str, str] = field(
        default_factory=lambda: {"/": "MDY", "-": "MDY", ".": "DMY"}
    )
    two_digit_year_base: int = 2000
    #: With tense reading, the way a bare date points when nothing in its sentence says
    #: (None: the bare reading; "forward": the nearest ahead, as a chat message means it).
    undirected: str | None = None
    #: Before this hour (0: never), "tomorrow" is the date the message is sent on and
    #: "tonight" the night begun the evening before: the sender has not slept yet.
    night_owl_hour: int = 0
    #: "two weeks ago" / "in 2 weeks" as the day that many weeks away (as a chat means it), not
    #: the calendar week that holds it.
    weeks_as_days: bool = False
    #: The words times are read by: month and weekday names, tense cues, ... (English).
    words: TimeWords = ENGLISH.time

    def __post_init__(self) -> None:
        if self.hemisphere not in HEMISPHERES:
            raise InvalidTimeError(
                f"hemisphere must be one of {', '.join(HEMISPHERES)}, got {self.hemisphere!r}; "
                "it says which months 'summer' and 'winter' name."
            )
        if self.date_order is not None and self.date_order not in DATE_ORDERS:
            raise InvalidTimeError(
                f"date_order must be one of {', '.join(DATE_ORDERS)} or None, got "
                f"{self.date_order!r}; it says whether 10/01/2024 is 10 January (DMY) or "
                "1 October (MDY)."
            )
        if self.undirected is not None and self.undirected not in DIRECTIONS:
            raise InvalidTimeError(
                f"undirected must be one of {', '.join(DIRECTIONS)} or None, got "
                f"{self.undirected!r}; it says which way a bare 'Friday' with no tense points."
            )
        if self.direction is not None and self.direction not in DIRECTIONS:
            raise InvalidTimeError(
                f"direction must be one of {', '.join(DIRECTIONS)} or None, got "
                f"{self.direction!r}; it says which way a bare 'Friday' points."
            )

    @property
    def season_starts(self) -> Mapping[str, int]:
        """The month each season starts in, in this hemisphere."""
        if self.hemisphere == "southern":
            return self.southern_season_start_months
        return self.season_start_months

    def named_period(self, mode: str) -> str:
        """The strategy (a name in the conventions table) that picks a ``mode`` occurrence:
        "bare", "ahead", "last", "next" or "this"."""
        return {
            "bare": self.bare_named_period,
            "ahead": self.forward_named_period,
            "last": self.last_named_period,
            "next": self.next_named_period,
            "this": self.this_named_period,
        }[mode]

    def month_first(self, separator: str) -> bool:
        """Whether an ambiguous numeric date written with ``separator`` is month first."""
        return (self.date_order or self.numeric_date_order[separator]) == "MDY"


#: The conventions of the table, with no option set.
DEFAULT = Conventions()
