"""Metric functions: evidence recall, answer F1 (LoCoMo's normalisation), answerability, D@1.

Pure functions over ids and strings; the runner feeds them. Answer F1 follows LoCoMo's own
``task_eval/evaluation.py``: lower-case, punctuation and commas out, the words a/an/the/and out,
Porter stems (nltk's, as LoCoMo's; the ``eval`` extra installs it); category 1 (multi-hop)
splits the gold answer on ',' and averages the best F1 of each part; category 3 keeps the gold
answer up to the first ';'; category 5 (adversarial) scores 1 when the prediction says 'no
information available' or 'not mentioned', else 0.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from statistics import fmean

from ramem_integrations.core.text import STOP_WORDS, fold_plural
from ramem_integrations.core.types import TimeSpan
from ramem_integrations.errors import MissingDependencyError

_ARTICLES = re.compile(r"\b(a|an|the|and)\b")
_PUNCT = str.maketrans("", "", string.punctuation)
ADVERSARIAL_CUES = ("no information available", "not mentioned")


#: The stemmer answer F1 uses, always: LoCoMo's, nltk's PorterStemmer (the ``eval`` extra).
STEMMER = "nltk PorterStemmer"


@cache
def porter_stem() -> Callable[[str], str]:
    """nltk's PorterStemmer, as LoCoMo stems answers; the same stemmer wherever F1 is scored.

    Raises:
        MissingDependencyError: nltk is not installed (``pip install 'ramem-integrations[eval]'``).
    """
    try:
        from nltk.stem import PorterStemmer
    except ImportError as exc:
        raise MissingDependencyError("nltk (the stemmer of answer F1)", "eval") from exc
    stem: Callable[[str], str] = PorterStemmer().stem  # nltk has no type hints
    return stem


def normalize_answer(text: str) -> str:
    """LoCoMo's normalize_answer: commas and punctuation out, lower case, a/an/the/and out."""
    text = str(text).replace(",", "").lower().translate(_PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


def f1_score(prediction: str, gold: str) -> float:
    """Token F1 between two answers after normalisation and stemming."""
    stem = porter_stem()
    pred = [stem(w) for w in normalize_answer(prediction).split()]
    truth = [stem(w) for w in normalize_answer(gold).split()]
    same = sum((Counter(pred) & Counter(truth)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred), same / len(truth)
    return 2 * precision * recall / (precision + recall)


def multi_answer_f1(prediction: str, gold: str) -> float:
    """Multi-hop F1: for each ','-separated gold part, the best F1 of any prediction part."""
    preds = [p.strip() for p in prediction.split(",")]
    golds = [g.strip() for g in gold.split(",")]
    return fmean(max(f1_score(p, g) for p in preds) for g in golds)


def locomo_f1(prediction: str, gold: str, category: str) -> float:
    """Answer F1 as LoCoMo scores it, per category ('1'..'5')."""
    if category == "5":
        said = prediction.lower()
        return 1.0 if any(cue in said for cue in ADVERSARIAL_CUES) else 0.0
    if category == "3":
        gold = gold.split(";")[0].strip()
    if category == "1":
        return multi_answer_f1(prediction, gold)
    return f1_score(prediction, gold)


# -- retrieval ---------------------------------------------------------------------------


def recall(evidence: Iterable[str], retrieved: Iterable[str]) -> float:
    """Fraction of the evidence ids among the retrieved ids."""
    wanted = set(evidence)
    if not wanted:
        raise ValueError("recall needs at least one evidence id")
    return len(wanted & set(retrieved)) / len(wanted)


def recall_any(evidence: Iterable[str], retrieved: Iterable[str]) -> float:
    """1.0 when at least one evidence id was retrieved."""
    return 1.0 if set(evidence) & set(retrieved) else 0.0


def recall_all(evidence: Iterable[str], retrieved: Iterable[str]) -> float:
    """1.0 when every evidence id was retrieved."""
    return 1.0 if set(evidence) <= set(retrieved) else 0.0


def first_rank(ranked: Sequence[Iterable[str]], targets: set[str]) -> int | None:
    """1-based rank of the first retrieved memory whose source ids meet ``targets``."""
    for rank, sources in enumerate(ranked, start=1):
        if targets & set(sources):
            return rank
    return None


def rank_gap(
    ranked: Sequence[Iterable[str]],
    evidence: set[str],
    distractors: set[str],
    depth: int | None = None,
) -> int:
    """Rank of the best distractor minus rank of the best evidence memory.

    Positive when evidence comes first. Something not retrieved takes rank ``depth + 1`` (the
    cap; ``depth`` defaults to ``len(ranked)``), so the gap lies in ``[-depth, depth]`` and is 0
    when neither is found.
    """
    cap = (depth if depth is not None else len(ranked)) + 1
    best_truth = first_rank(ranked, evidence) or cap
    best_distractor = first_rank(ranked, distractors) or cap
    return best_distractor - best_truth


def distractor_at_1(
    ranked: Sequence[Iterable[str]], evidence: set[str], distractors: set[str]
) -> float:
    """1.0 when the top memory is made from a distractor turn and from no evidence turn."""
    if not ranked:
        return 0.0
    top = set(ranked[0])
    return 1.0 if top & distractors and not top & evidence else 0.0


# -- answerability -----------------------------------------------------------------------

#: Words that carry no answer on their own; 'yes' and 'no' answers are not scored.
ANSWER_STOP_WORDS = STOP_WORDS | {"yes"}


def content_tokens(text: str) -> set[str]:
    """LoCoMo-normalised words, stop words out, plain plurals folded."""
    return {fold_plural(w) for w in normalize_answer(text).split() if w not in ANSWER_STOP_WORDS}


def tokens_covered(answer: str, context: str) -> bool | None:
    """Whether every content word of the answer appears in the context; None if it has none."""
    wanted = content_tokens(answer)
    if not wanted:
        return None
    return wanted <= {fold_plural(w) for w in normalize_answer(context).split()}


def date_covered(answer_span: TimeSpan, written: Iterable[TimeSpan]) -> bool:
    """Whether a date written in the context falls inside the answer's span."""
    return any(answer_span.contains(span) for span in written)


def mean(values: Iterable[float]) -> float | None:
    """The mean, or None when there is nothing to average (JSON null)."""
    items = list(values)
    return fmean(items) if items else None
