"""Stage 1 episodes: sessions cut into runs of turns about one event (tables on small sessions)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from ramem_integrations.core.segmentation import Segmenter, _depths
from ramem_integrations.core.types import EpisodicContext, MemoryUnit, TimeSpan

SESSION = TimeSpan(datetime(2022, 5, 8, 18, tzinfo=UTC), datetime(2022, 5, 8, 19, tzinfo=UTC))
APRIL_28 = TimeSpan.day(date(2022, 4, 28))
MAY_1 = TimeSpan.day(date(2022, 5, 1))


def session(*turns: tuple[str, TimeSpan | None], sid: str = "s1") -> list[MemoryUnit]:
    out = []
    for index, (text, when) in enumerate(turns):
        speaker = "Nadia" if index % 2 == 0 else "Leila"
        ctx = EpisodicContext(
            sid,
            SESSION,
            event_time=when,
            speaker=speaker,
            participants=("Nadia", "Leila"),
            topic=None,
        )
        out.append(
            MemoryUnit(f"{sid}:{index}", f"{speaker}: {text}", ctx, "ns", (f"{sid}:{index}",), "c")
        )
    return out


DENTIST = [
    ("I finally went to the dentist about my tooth.", APRIL_28),
    ("Oh no, what did the dentist say about the tooth?", None),
    ("The dentist found a small cavity in a back tooth.", None),
    ("A cavity! Does the dentist want to fill the tooth?", None),
]
HIKE = [
    ("We hiked the ridge trail with the dog and a picnic.", None),
    ("The ridge trail with a picnic and the dog sounds fun.", None),
    ("The dog loved the picnic on the ridge trail.", None),
]


@pytest.mark.parametrize(
    ("turns", "sizes"),
    [
        (DENTIST + HIKE, [4, 3]),  # change of subject
        (DENTIST, [4]),  # one subject: one episode
        (DENTIST[:1], [1]),  # a one-turn session
        # a new time cue that does not overlap the episode's opens a new episode
        (
            [
                *DENTIST[:2],
                ("My sister flew in on Sunday, dentist and tooth talk again.", MAY_1),
                *DENTIST[2:],
            ],
            [2, 3],
        ),
    ],
)
def test_cuts(turns: list[tuple[str, TimeSpan | None]], sizes: list[int]) -> None:
    runs = Segmenter().runs(session(*turns))
    assert [len(run) for run in runs] == sizes


def test_max_turns_bounds_an_episode() -> None:
    runs = Segmenter(max_turns=3).runs(session(*DENTIST, *DENTIST))
    assert [len(run) for run in runs] == [3, 3, 2]


def test_episode_context_comes_from_all_its_turns_and_each_turn_keeps_its_own() -> None:
    units = Segmenter().segment(session(*DENTIST, *HIKE))
    first, cavity, hike = units[0], units[2], units[4]
    assert cavity.context.event_time is None  # its own context is untouched
    assert cavity.context.episode is not None and first.context.episode is not None
    assert cavity.context.episode.event_time == APRIL_28  # dated by its episode's first cue
    assert cavity.context.episode.id == first.context.episode.id
    assert [u.context.episode.position for u in units[:4] if u.context.episode] == [0, 1, 2, 3]
    assert hike.context.episode is not None and hike.context.episode.id != first.context.episode.id
    assert hike.context.episode.event_time is None


def test_episodes_never_cross_sessions_and_ids_are_stable() -> None:
    units = session(*DENTIST[:2]) + session(*DENTIST[2:], sid="s2")
    once, again = Segmenter().segment(units), Segmenter().segment(list(units))
    ids = [u.context.episode.id for u in once if u.context.episode]
    assert ids[0] == ids[1] != ids[2] == ids[3]
    assert once == again


def test_each_episode_names_the_next_one_of_its_session() -> None:
    units = Segmenter().segment(session(*DENTIST, *HIKE) + session(*HIKE, sid="s2"))
    episodes = [u.context.episode for u in units if u.context.episode]
    dentist, hike, other_session = episodes[0], episodes[4], episodes[7]
    assert [e.next_id for e in episodes[:4]] == [hike.id] * 4  # every turn of the episode
    assert hike.next_id is None  # the last of session s1: the next session is not its sequel
    assert other_session.next_id is None and dentist.id != hike.id != other_session.id


@pytest.mark.parametrize("index", [0, 2, 5])
def test_episode_survives_the_store_metadata(index: int) -> None:
    unit = Segmenter().segment(session(*DENTIST, *HIKE))[index]
    assert MemoryUnit.from_metadata(unit.id, unit.content, unit.to_metadata()) == unit


@pytest.mark.parametrize(
    ("cohesion", "depths"),
    [
        ([], []),
        ([0.5], [0.0]),
        ([0.8, 0.2, 0.6], [0.0, 1.0, 0.0]),
        ([0.4, 0.4, 0.1, 0.4], [0.0, 0.0, 0.6, 0.0]),  # a plateau climbs through
        ([0.9, 0.5, 0.7, 0.3, 0.6], [0.0, 0.6, 0.0, 0.7, 0.0]),  # the nearest peak, not the top
    ],
)
def test_depth_is_the_climb_to_the_nearest_peak_on_each_side(
    cohesion: list[float], depths: list[float]
) -> None:
    assert _depths(cohesion) == pytest.approx(depths)


class CountedReads(list[float]):
    """A list that counts the values read from it by index or by slice."""

    reads = 0

    def __getitem__(self, key):  # type: ignore[no-untyped-def]
        got = super().__getitem__(key)
        CountedReads.reads += len(got) if isinstance(key, slice) else 1
        return got


@pytest.mark.parametrize("flat", [0.0, 0.3])
def test_depths_read_each_gap_a_bounded_number_of_times(flat: float) -> None:
    """A long run of gaps of one cohesion (turns sharing no words) once cost the square of
    its length: 40,000 zeros took 20 s."""

    def reads(gaps: int) -> int:
        CountedReads.reads = 0
        _depths(CountedReads([flat] * gaps))
        return CountedReads.reads

    assert reads(2000) / reads(500) < 4 * 1.5  # linear: 4; quadratic: 16
