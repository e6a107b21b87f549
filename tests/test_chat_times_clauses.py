"""The time a message is about is its main clause's: a time in a relative clause, a reduced
relative ("the tickets I bought yesterday"), a subordinate clause opening the sentence ("after
the mess on the 2nd, ...") or a participle aside ("..., training for the half in april") sets
the scene, and the background's verbs do not turn the main time's tense. Each message goes
through the rule anchorer, sent on Tuesday 3 September 2024 at 10:00.
"""

from __future__ import annotations

import pytest

from ramem_integrations.core.lexicon import ENGLISH
from ramem_integrations.core.time.clauses import background
from tests.test_chat_times_mixed import event_label

#: A message with a time in the background and one in its main clause: the main clause's.
CLAUSES = [
    # relative clauses: the past main verb's day stays past
    ("on monday I signed the lease for the flat I'm moving into next month", "2 September 2024"),
    ("saw the play on sunday that you're seeing next week - so good", "1 September 2024"),
    ("on saturday I finished the scarf I'm giving mum for christmas", "31 August 2024"),
    ("met Sam on sunday, the one whose party we're going to in october", "1 September 2024"),
    # reduced relatives: the day told of is the main clause's
    ("the shoes I ordered yesterday are for the wedding on the 14th", "14 September 2024"),
    ("the tickets we got on friday are for 20 october", "20 October 2024"),
    # a subordinate clause opening the sentence
    ("after the chaos on the 1st, the next meeting is thurs 12th", "12 September 2024"),
    # a participle aside
    ("swam 2k yesterday, training for the triathlon in may", "2 September 2024"),
    ("painted the hall on sunday, getting ready for the party in december", "1 September 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), CLAUSES)
def test_the_main_clause_gives_the_time(text: str, label: str) -> None:
    assert event_label(text) == label


#: Messages whose time no background clause changes: a question after a comma is no aside,
#: a clause with no determiner before "who" is no relative, a time alone stays read.
UNCHANGED = [
    ("did the parkrun on sat, coming with me on the 14th?", "14 September 2024"),
    ("guess who I saw on monday", "2 September 2024"),
    ("the parcel I ordered is coming on friday", "6 September 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), UNCHANGED)
def test_a_message_without_background_keeps_its_time(text: str, label: str) -> None:
    assert event_label(text) == label


#: Where the background clauses are: (text, times' spans as substrings, background texts).
BACKGROUND = [
    ("the tickets I bought yesterday are for 12 june", ["yesterday", "12 june"],
     ["I bought yesterday"]),
    ("after the mess on the 2nd, the meeting is weds", ["the 2nd", "weds"],
     ["after the mess on the 2nd"]),
    ("ran 10k yesterday, training for the half in april", ["yesterday", "april"],
     ["training for the half in april"]),
    ("the guy whose wedding we're going to in june", ["june"],
     ["whose wedding we're going to in june"]),
    ("guess who I saw on monday", ["monday"], []),
]  # fmt: skip


@pytest.mark.parametrize(("text", "times", "expected"), BACKGROUND)
def test_background_clauses_are_found(text: str, times: list[str], expected: list[str]) -> None:
    spans = [(text.index(t), text.index(t) + len(t)) for t in times]
    found = [text[lo:hi] for lo, hi in background(text, spans, ENGLISH.time)]
    assert found == expected


#: A subordinate clause opening the sentence with no comma ends at the subject that opens the
#: main clause; a reduced relative may follow a noun of two words or a demonstrative.
UNMARKED = [
    ("since the party on saturday is fancy dress we're going shopping on thursday",
     "5 September 2024"),
    ("when i saw her on monday she said the wedding is on 12 october", "12 October 2024"),
    ("even though the match on saturday was awful we're going again on the 21st",
     "21 September 2024"),
    ("now that the builders left yesterday we can have people round friday",
     "6 September 2024"),
    ("the yoga class i joined in july ends on 15 october", "15 October 2024"),
    ("those shoes you bought in august are on sale on the 12th", "12 September 2024"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "label"), UNMARKED)
def test_an_unmarked_clause_boundary_gives_the_main_time(text: str, label: str) -> None:
    assert event_label(text) == label
