"""Yearless numeric dates by their structure: a day-first date set against any other time
("1/3 instead of the 28th") is a date, as is a dotted date with a day above 12 and a month of
two digits whatever words follow it ("20.12 thank god"); a decimal (after a currency sign,
before a unit) is not. Each message goes through the rule anchorer, sent on Tuesday
3 September 2024 at 10:00.
"""

from __future__ import annotations

import pytest

from tests.test_chat_times_mixed import event_label

#: A numeric date set against a time of another shape: the numeric one is the new time.
SET_AGAINST = [
    ("can we do 1/3 instead of the 28th?", "1 March 2025"),
    ("could do 1/10 rather than the 3rd", "1 October 2024"),
    ("how about 2/11 instead of friday", "2 November 2024"),
    ("4/12 or next weekend, your call", "4 December 2024"),
    ("lets say 3/10 not the 5th", "3 October 2024"),
]  # fmt: skip

#: A dotted date, a day above 12 and a month of two digits, before words of any kind.
DOTTED = [
    ("kids break up 20.12 thank god", "20 December 2024"),
    ("flat viewing 18.10 cant wait", "18 October 2024"),
    ("term ends 15.12 finally over", "15 December 2024"),
    ("uni starts 23.11 send help", "23 November 2024"),
]  # fmt: skip

#: Guards: fractions, scores and decimals stay no dates.
NOT_DATES = [
    ("rated it 4/5 not 3", None),
    ("gave it 3/5 instead of 4", None),
    ("2/3 of us are in", None),
    ("time was 20.12 seconds", None),
    ("paid £15.10 for it", None),
    ("it was 20.12 km", None),
    ("ran 13.1 miles today", "3 September 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), SET_AGAINST + DOTTED + NOT_DATES)
def test_numeric_dates_by_structure(text: str, label: str | None) -> None:
    assert event_label(text) == label
