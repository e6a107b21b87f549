"""Two ``ramem eval`` results compared question by question (``ramem eval-diff``).

A change moves a handful of questions each way; the means hide which. For one system, each
measure (Recall@K, recall within each token budget) is compared on the questions both results
hold: the mean before and after, how many questions rose and fell, and their ids by category.
Two systems of one result compare the same way (``against``: "which questions does RaMem lose
to content?").
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ramem_integrations.core.jsondata import read_json
from ramem_integrations.errors import DataFormatError, InvalidInputError

#: How many question ids a text report lists for each measure that moved.
SHOWN_IDS = 12


def load_result(path: Path) -> dict[str, Any]:
    """A ``ramem eval --json`` file, refused with the fix when it cannot be compared."""
    if not Path(path).exists():
        raise InvalidInputError(
            f"{path}: no such file. Give two files that 'ramem eval --json' wrote."
        )
    try:
        result = read_json(path)  # the bounded reader every data file goes through
    except DataFormatError as exc:
        raise DataFormatError(f"{path} is not a 'ramem eval --json' result: {exc}") from exc
    if not isinstance(result, dict) or not isinstance(result.get("questions"), list):
        raise DataFormatError(
            f"{path} holds no per-question results (an older ramem wrote it, or it is not a "
            "'ramem eval --json' file); run 'ramem eval ... --json FILE' again."
        )
    return result


def compare(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    system: str,
    against: str | None = None,
) -> dict[str, Any]:
    """``system``'s recall in ``after`` against ``against``'s (default: the same system's) in
    ``before``, measure by measure, on the questions both hold: ``{"system", "against",
    "questions", "only_before", "only_after", "measures": [...]}``, each measure ``{"measure",
    "before", "after", "rose": [...], "fell": [...]}`` with question ids (``"conv-26#3
    (category 2)"``)."""
    against = against or system
    if before.get("dataset") != after.get("dataset"):
        raise InvalidInputError(
            f"The results are of different datasets ({before.get('dataset')!r} and "
            f"{after.get('dataset')!r}); compare two runs on the same data."
        )
    old, new = _by_id(before, against, "before"), _by_id(after, system, "after")
    common = [qid for qid in new if qid in old]
    if not common:
        raise InvalidInputError(
            "The two results share no question: compare two runs on the same data file "
            "(and the same --conversations)."
        )
    measures = []
    for kind, key in (("recall", "R@{}"), ("recall_at_tokens", "{} tokens")):
        cuts = [c for c in new[common[0]][kind] if c in old[common[0]][kind]]
        for cut in sorted(cuts, key=int):
            pairs = [(qid, old[qid][kind][cut], new[qid][kind][cut]) for qid in common]
            measures.append(
                {
                    "measure": key.format(cut),
                    "before": sum(b for _, b, _ in pairs) / len(pairs),
                    "after": sum(a for _, _, a in pairs) / len(pairs),
                    "rose": [_label(new[qid]) for qid, b, a in pairs if a > b],
                    "fell": [_label(new[qid]) for qid, b, a in pairs if a < b],
                }
            )
    return {
        "system": system,
        "against": against,
        "questions": len(common),
        "only_before": len(old) - len(common),
        "only_after": len(new) - len(common),
        "measures": measures,
    }


def _by_id(result: Mapping[str, Any], system: str, which: str) -> dict[str, dict[str, Any]]:
    """The result's questions by id, each with its category and ``system``'s recall."""
    out = {}
    for q in result["questions"]:
        if system not in q["recall"]:
            known = ", ".join(sorted(q["recall"]))
            raise InvalidInputError(
                f"The {which} result has no system {system!r} (it has: {known}); pick one "
                "with --system."
            )
        out[q["id"]] = {
            "id": q["id"],
            "category": q["category"],
            "recall": q["recall"][system],
            "recall_at_tokens": q["recall_at_tokens"].get(system, {}),
        }
    return out


def _label(question: Mapping[str, Any]) -> str:
    return f"{question['id']} (category {question['category']})"


def diff_text(diff: Mapping[str, Any]) -> str:
    """The comparison as a table, then the questions each measure moved."""
    lines = [
        (
            f"{diff['system']}"
            if diff["against"] == diff["system"]
            else f"{diff['system']} (after) against {diff['against']} (before)"
        )
        + f": {diff['questions']} questions in both results"
        + (
            f" ({diff['only_before']} only before, {diff['only_after']} only after)"
            if diff["only_before"] or diff["only_after"]
            else ""
        ),
        f"{'measure':<12} {'before':>7} {'after':>7} {'rose':>5} {'fell':>5}",
    ]
    for m in diff["measures"]:
        lines.append(
            f"{m['measure']:<12} {m['before']:>7.3f} {m['after']:>7.3f} "
            f"{len(m['rose']):>5} {len(m['fell']):>5}"
        )
    for m in diff["measures"]:
        for word in ("fell", "rose"):
            if m[word]:
                shown = ", ".join(m[word][:SHOWN_IDS])
                more = f" and {len(m[word]) - SHOWN_IDS} more" if len(m[word]) > SHOWN_IDS else ""
                lines.append(f"{word} at {m['measure']}: {shown}{more}")
    return "\n".join(lines)
