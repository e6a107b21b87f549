from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ramem_integrations.core.anchoring import (
    _PROPER,
    RuleAnchorer,
    _opens_sentence,
    ground_in_text,
    memory_id,
    proper_names,
)
from ramem_integrations.core.conversation import Conversation, Session, Turn
from ramem_integrations.core.segmentation import Segmenter
from ramem_integrations.core.text import SENTENCE_START
from ramem_integrations.core.time.grounding import find_times

SAID = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "restated"),
    [
        ("I went to a support group yesterday.", "I went to a support group on 7 May 2023."),
        ("Yesterday was great.", "on 7 May 2023 was great."),
        ("We met last Saturday at the park.", "We met on 6 May 2023 at the park."),
        ("Two days ago I ran 5k.", "on 6 May 2023 I ran 5k."),
        ("I painted it last year.", "I painted it last year (2022)."),
        ("We moved last August.", "We moved last August (August 2022)."),
        ("I'll start next month.", "I'll start next month (June 2023)."),
        (
            "Three weeks ago I adopted a dog.",
            "Three weeks ago (17 April 2023 to 23 April 2023) I adopted a dog.",
        ),
        ("I was there on 8 May 2023.", "I was there on 8 May 2023."),
        ("In 2022 I painted a sunrise.", "In 2022 I painted a sunrise."),
        ("May I ask about your trip?", "May I ask about your trip?"),
        ("No time words here.", "No time words here."),
        ("Thanksgiving was lovely.", "Thanksgiving (24 November 2022) was lovely."),
        ("We flew home over Easter.", "We flew home over Easter (7 April 2023 to 10 April 2023)."),
    ],
)
def test_relative_time_cues_are_grounded_in_the_text(text: str, restated: str) -> None:
    assert ground_in_text(text, find_times(text, SAID)) == restated


def conversation() -> Conversation:
    turns_a = (
        Turn("D1:1", "Caroline", "I went to the LGBTQ support group yesterday with Melanie."),
        Turn("D1:2", "Melanie", "That's great! I painted a sunrise over Lake Tahoe last year."),
    )
    turns_b = (Turn("D2:1", "Caroline", "Hello again.", image_caption="a photo of a dog"),)
    return Conversation(
        "conv-1",
        (
            Session("session_1", SAID, turns_a),
            Session("session_2", datetime(2023, 6, 1, 10, tzinfo=UTC), turns_b),
        ),
    )


def test_rule_anchorer_fills_the_episode() -> None:
    first, second, third = RuleAnchorer().anchor(conversation(), "ns")
    assert first.content == "I went to the LGBTQ support group yesterday with Melanie."  # verbatim
    assert first.restatement == (
        "Caroline (to Melanie): I went to the LGBTQ support group on 7 May 2023 with Melanie."
    )
    ctx = first.context
    assert ctx.session_id == "session_1" and ctx.session_span.start == SAID
    assert ctx.event_time is not None and ctx.event_time.label() == "7 May 2023"
    assert [m.text for m in ctx.mention_times] == ["yesterday"]
    assert ctx.participants == ("Caroline", "Melanie") and ctx.speaker == "Caroline"
    assert "LGBTQ" in ctx.entities and "Melanie" not in ctx.entities
    assert first.source_ids == ("D1:1",) and first.conversation_id == "conv-1"
    assert second.context.location == "Lake Tahoe"
    assert second.context.event_time is not None and second.context.event_time.label() == "2022"
    assert third.content == "Hello again."  # the caption is derived text: search sees it
    assert third.restatement == "Caroline: Hello again. [shares an image: a photo of a dog]"
    assert third.context.participants == ("Caroline",) and third.context.event_time is None


def test_ids_are_deterministic_and_namespaced() -> None:
    a = RuleAnchorer().anchor(conversation(), "ns")
    b = RuleAnchorer().anchor(conversation(), "ns")
    c = RuleAnchorer().anchor(conversation(), "other")
    assert [u.id for u in a] == [u.id for u in b]
    assert not {u.id for u in a} & {u.id for u in c}
    assert a[0].id == memory_id("ns", "conv-1", ["D1:1"])


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Hey Mel! I met Bob at Starbucks.", ["Mel", "Bob", "Starbucks"]),
        ("Thanks, Caroline! See you in May.", ["Caroline"]),
        ("I love New York City.", ["New York City"]),
        ("Wow. That is great.", []),
    ],
)
def test_proper_names(text: str, names: list[str]) -> None:
    assert proper_names(text) == names


@pytest.mark.parametrize(
    ("text", "said", "label"),
    [
        ("The plumber comes on Friday.", datetime(2024, 2, 1, tzinfo=UTC), "2 February 2024"),
        ("We're going to Kyoto in August.", datetime(2024, 7, 9, tzinfo=UTC), "August 2024"),
        ("I'll start the new job in March.", datetime(2024, 1, 10, tzinfo=UTC), "March 2024"),
        ("We went hiking in August.", datetime(2024, 7, 9, tzinfo=UTC), "August 2023"),
        ("I painted it on Friday.", datetime(2024, 2, 1, tzinfo=UTC), "26 January 2024"),
        # said on a Thursday, "next Friday" is not tomorrow but the Friday of the week after
        ("I'll call you next Friday.", datetime(2024, 2, 1, tzinfo=UTC), "9 February 2024"),
        # a season after "the": a plan said in September is next spring, not the last one
        (
            "We're going to Rome in the spring!",
            datetime(2024, 9, 18, tzinfo=UTC),
            "1 March 2025 to 31 May 2025",
        ),
        (
            "We'll fly to Oslo in the summer.",
            datetime(2024, 2, 1, tzinfo=UTC),
            "1 June 2024 to 31 August 2024",
        ),
        # a month or season under way when said is this one; a weekday is the next one
        (
            "Bob and I are planning a trip to Lisbon in the spring.",
            datetime(2024, 3, 12, tzinfo=UTC),
            "1 March 2024 to 31 May 2024",
        ),
        ("I'll see Bob in March.", datetime(2024, 3, 12, tzinfo=UTC), "March 2024"),
        ("The plumber comes on Friday.", datetime(2024, 2, 2, 9, tzinfo=UTC), "9 February 2024"),
        (
            "We went to Rome in the spring.",
            datetime(2024, 9, 18, tzinfo=UTC),
            "1 March 2024 to 31 May 2024",
        ),
        (
            "We'll move in the autumn.",
            datetime(2024, 2, 1, tzinfo=UTC),
            "1 September 2024 to 30 November 2024",
        ),
    ],
)
def test_bare_times_point_forward_in_future_sentences(
    text: str, said: datetime, label: str
) -> None:
    (found,) = find_times(text, said, tense=True)
    assert found.span.label() == label


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("We went to Paris last year.", "Paris"),
        ("I got engaged to Tom!", None),
        ("Congratulations to Carol.", None),
        ("I live in Boston now.", "Boston"),
        ("We had lunch at the Blue Door.", "Blue Door"),
    ],
)
def test_find_place(text: str, place: str | None) -> None:
    from ramem_integrations.core.anchoring import find_place

    assert find_place(text, ["Ann"]) == place


PIECES = ["Bob", "went", "to", "Paris.", "Ann!", '"Hi', "(Carl", "May", "?", "\n", "'", "“Dee"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(PIECES), st.just(" " * 300), st.just("x" * 300), st.just('"' * 300)
        ),
        min_size=1,
        max_size=40,
    )
)
def test_a_sentence_opening_is_read_from_a_bounded_tail_as_from_the_whole_text(
    pieces: list[str],
) -> None:
    """The bounded read (linear in a long message) agrees with reading all the text before."""
    text = " ".join(pieces)
    for match in _PROPER.finditer(text):
        whole = bool(SENTENCE_START.search(text[: match.start()]))
        assert _opens_sentence(text, match.start()) == whole


def one_long_session(turns: int) -> Conversation:
    topics = ("the dentist", "pottery class", "a trip to Paris", "the garden", "guitar lessons")
    said = tuple(
        Turn(f"D1:{i}", ("Ann", "Ben")[i % 2], f"I talked with Cleo about {topics[i % 5]} {i}.")
        for i in range(turns)
    )
    return Conversation("long", (Session("session_1", SAID, said),))


def test_anchoring_reads_each_turn_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Anchoring and segmenting one session read each turn's time a bounded number of times:
    the reads grow as the turns do, not as their square (40,000 turns once took 92 s)."""
    small, large = one_long_session(200), one_long_session(800)
    slot = Turn.__dict__["time"]
    reads = [0]

    def read_time(turn: Turn) -> datetime | None:
        reads[0] += 1
        return slot.__get__(turn, Turn)  # type: ignore[no-any-return]

    monkeypatch.setattr(Turn, "time", property(read_time))

    def turn_reads(conv: Conversation) -> int:
        reads[0] = 0
        units = RuleAnchorer().anchor(conv, "ns")
        Segmenter().segment(units)
        return reads[0]

    ratio = turn_reads(large) / turn_reads(small)
    assert ratio < 4 * 1.5  # linear: 4; quadratic: 16
