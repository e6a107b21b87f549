import math
import random
from collections.abc import Iterator

import pytest

from ramem_integrations.core.retrieval.fusion import reciprocal_rank_fusion
from ramem_integrations.core.text import tokenize
from ramem_integrations.index.bm25 import BM25

DOCS = {
    "a": "Caroline went to the LGBTQ support group yesterday",
    "b": "Melanie painted a sunrise over the lake",
    "c": "Caroline is researching adoption agencies",
    "d": "The support group made Caroline feel accepted",
}


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Caroline's paintings", ["carolin", "paint"]),
        ("I went to the LGBTQ support group!", ["went", "lgbtq", "support", "group"]),
        ("glass class", ["glass", "class"]),
        ("painted, painting, paints", ["paint", "paint", "paint"]),
        ("running races; she ran", ["run", "race", "ran"]),
        ("adoption agencies adopted", ["adopt", "agenc", "adopt"]),
        ("", []),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def build() -> BM25:
    index = BM25()
    for doc_id, text in DOCS.items():
        index.add(doc_id, text)
    return index


def test_bm25_matches_other_forms_of_a_word() -> None:
    hits = build().search("Who paints? Who is adopting?", 10)
    assert {doc_id for doc_id, _ in hits} == {"b", "c"}


def test_bm25_ranks_by_term_overlap_and_rarity() -> None:
    hits = build().search("support group", 10)
    assert [doc_id for doc_id, _ in hits][:2] in (["a", "d"], ["d", "a"])
    assert all(score > 0 for _, score in hits)
    assert build().search("sunrise", 10)[0][0] == "b"
    assert build().search("zebra", 10) == []


def test_bm25_among_restricts_results() -> None:
    assert [d for d, _ in build().search("Caroline", 10, among={"c"})] == ["c"]


@pytest.mark.parametrize(
    "among",
    [{"c"}, {"a", "d"}, {"a", "c", "d", "x", "y"}, set(DOCS), set(DOCS) | {"x", "y", "z"}, set()],
)
def test_bm25_among_scores_as_the_whole_ranking_does(among: set[str]) -> None:
    """Fewer ids than postings or more, an id with none: the scores of the unrestricted search."""
    whole = dict(build().search("Caroline support group", 10))
    got = build().search("Caroline support group", 10, among=among)
    assert got == sorted(((d, whole[d]) for d in among if d in whole), key=lambda p: (-p[1], p[0]))


WORDS = "apple river stone music garden paint travel dog cat kyoto lisbon".split()


def random_edits(index: BM25, seed: int, steps: int, ids: int) -> Iterator[dict[str, str]]:
    """Random adds, replacements and removes on ``index``; the documents after each step."""
    rng = random.Random(seed)
    docs: dict[str, str] = {}
    for _ in range(steps):
        doc_id = f"d{rng.randrange(ids)}"
        if rng.random() < 0.3 and doc_id in docs:
            index.remove(doc_id)
            del docs[doc_id]
        else:
            docs[doc_id] = " ".join(rng.choices(WORDS, k=rng.randrange(1, 9)))
            index.add(doc_id, docs[doc_id])
        yield docs


def test_bm25_incremental_updates_equal_a_rebuild() -> None:
    live = BM25()
    for step, docs in enumerate(random_edits(live, seed=7, steps=300, ids=40)):
        if step % 50 == 0 or step == 299:
            fresh = BM25()
            for i, t in docs.items():
                fresh.add(i, t)
            for query in ("apple river", "kyoto dog", "paint"):
                got, want = live.search(query, 20), fresh.search(query, 20)
                assert [i for i, _ in got] == [i for i, _ in want]
                assert [s for _, s in got] == pytest.approx([s for _, s in want])
    assert len(live) == len(docs)


def test_rrf_fuses_and_breaks_ties_by_first_seen() -> None:
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "a", "d"]])
    assert [i for i, _ in fused] == ["a", "b", "c", "d"]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    weighted = reciprocal_rank_fusion([["a"], ["b"]], weights=[1.0, 2.0])
    assert [i for i, _ in weighted] == ["b", "a"]
    with pytest.raises(ValueError, match="one weight per ranking"):
        reciprocal_rank_fusion([["a"]], weights=[1.0, 2.0])


def test_bm25_ties_at_the_cut_are_broken_by_id() -> None:
    """Equal scores across the k-th place: the k best by score, then id, as a full sort."""
    index = BM25()
    for i in range(12):
        index.add(f"d{i:02d}", "tent camping" if i % 3 else "tent camping by the lake lake")
    whole = index.search("lake tent", 100)
    assert whole == sorted(whole, key=lambda p: (-p[1], p[0]))
    for k in (1, 3, 4, 5, 11):
        assert index.search("lake tent", k) == whole[:k]


def test_bm25_scores_are_the_okapi_formula_after_adds_and_removes() -> None:
    """Every score equals Okapi BM25 computed from the documents as they stand, term by term,
    whatever rows removed documents left free; ``among`` keeps the same scores."""
    index = BM25()
    *_, docs = random_edits(index, seed=11, steps=200, ids=30)
    tokens = {i: tokenize(t) for i, t in docs.items()}
    avg = sum(len(t) for t in tokens.values()) / len(tokens)
    query = "kyoto dog dog paint zebra"
    want: dict[str, float] = {}
    for term in set(tokenize(query)):
        df = sum(term in t for t in tokens.values())
        if not df:
            continue
        idf = math.log(1 + (len(tokens) - df + 0.5) / (df + 0.5))
        for i, t in tokens.items():
            if tf := t.count(term):
                norm = tf + 1.2 * (1 - 0.75 + 0.75 * len(t) / avg)
                want[i] = want.get(i, 0.0) + idf * tf * 2.2 / norm
    got = index.search(query, 100)
    assert dict(got) == pytest.approx(want)
    assert [i for i, _ in got] == sorted(want, key=lambda i: (-want[i], i))
    among = set(random.Random(11).sample(sorted(docs), 8)) | {"gone"}
    assert index.search(query, 100, among=among) == [(i, s) for i, s in got if i in among]


def test_a_write_between_two_searches_of_one_question_is_seen() -> None:
    """The scores kept for a question are dropped by any add or remove."""
    index = build()
    assert [d for d, _ in index.search("lake sunrise", 5)] == ["b"]
    index.add("e", "a sunrise swim in the lake")
    assert {d for d, _ in index.search("lake sunrise", 5)} == {"b", "e"}
    index.remove("b")
    assert [d for d, _ in index.search("lake sunrise", 5)] == ["e"]
    assert index.search("lake sunrise", 5, among={"b"}) == []
