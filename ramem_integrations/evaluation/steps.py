"""Does a ranking step pay on conversations it was not found on? (``ramem eval-steps``)

A step is judged by its ablation: the default system against the default minus the step, both
run by one ``ramem eval`` over the same memories and questions. Means over questions let one
conversation carry the figure; here each conversation counts once. Per conversation: the mean
recall (within a token budget) with the step and without it, and whether the step helped, hurt
or tied there. Per family (the data file, e.g. ``locomo-dev.json`` is family ``locomo``): the
counts, the question-weighted difference, and an exact two-sided sign test across the
conversations the step moved. The verdict follows one rule: a step is kept when it helps more
conversations than it hurts in at least two families and costs no family on average.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ramem_integrations.errors import InvalidInputError

#: The budget a step is judged at (recall within this many rendered tokens) ...
DEFAULT_BUDGET = 1000
#: ... except for families of long user-assistant chats, whose evidence turns are long.
FAMILY_BUDGETS: Mapping[str, int] = {"beam": 2000}
#: A step must help most conversations of at least this many families.
FAMILIES_NEEDED = 2


def family_of(result: Mapping[str, Any]) -> str:
    """The family of a result: its data file's name without extension or a dev/test suffix."""
    data = str(result.get("meta", {}).get("data") or result.get("dataset") or "data")
    stem = Path(data).name.split(".")[0]
    return re.sub(r"[-_](dev|test|held|heldout)$", "", stem) or stem


def sign_test(helped: int, hurt: int) -> float:
    """Exact two-sided sign test: the chance of a split at least this uneven by coin tosses."""
    n = helped + hurt
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(helped, hurt) + 1)) / 2**n
    return float(min(1.0, 2 * tail))


def _recall(question: Mapping[str, Any], system: str, budget: int) -> float:
    by_budget = question["recall_at_tokens"].get(system)
    if by_budget is None:
        raise InvalidInputError(
            f"The result has no system {system!r} (it has: "
            f"{', '.join(sorted(question['recall_at_tokens']))}); run 'ramem eval' with "
            f"--systems including {system}."
        )
    if str(budget) not in by_budget:
        raise InvalidInputError(
            f"The result has no recall within {budget} tokens (it has: "
            f"{', '.join(sorted(by_budget, key=int))}); run 'ramem eval' with --budgets "
            f"including {budget}."
        )
    return float(by_budget[str(budget)])


def step_view(
    results: Sequence[Mapping[str, Any]],
    system: str,
    without: str,
    *,
    budgets: Mapping[str, int] | None = None,
    default: int = DEFAULT_BUDGET,
) -> dict[str, Any]:
    """Per conversation and per family, ``system`` against ``without`` (the ablation).

    ``budgets``: family -> token budget, over :data:`FAMILY_BUDGETS`; other families are
    judged within ``default`` tokens. Returns ``{"system", "without", "families": [...],
    "keep", ...}``."""
    chosen = {**FAMILY_BUDGETS, **(budgets or {})}
    by_family: dict[str, list[Mapping[str, Any]]] = {}
    for result in results:
        by_family.setdefault(family_of(result), []).extend(result["questions"])
    families = [
        _family(name, questions, system, without, chosen.get(name, default))
        for name, questions in by_family.items()
    ]
    winning = sum(f["helped"] > f["hurt"] for f in families)
    costly = [f["family"] for f in families if f["diff"] < 0]
    return {
        "system": system,
        "without": without,
        "families": families,
        "keep": winning >= FAMILIES_NEEDED and not costly,
        "decided": len(families) >= FAMILIES_NEEDED,
        "families_helped": winning,
        "families_cost": costly,
    }


def _family(
    name: str, questions: Sequence[Mapping[str, Any]], system: str, without: str, budget: int
) -> dict[str, Any]:
    per_conversation: dict[str, list[tuple[float, float]]] = {}
    for q in questions:
        pair = (_recall(q, system, budget), _recall(q, without, budget))
        per_conversation.setdefault(str(q["conversation"]), []).append(pair)
    rows: list[dict[str, Any]] = []
    for conversation, pairs in per_conversation.items():
        with_step = sum(a for a, _ in pairs) / len(pairs)
        without_step = sum(b for _, b in pairs) / len(pairs)
        rows.append(
            {
                "conversation": conversation,
                "questions": len(pairs),
                "with": round(with_step, 4),
                "without": round(without_step, 4),
                "diff": round(with_step - without_step, 4),
            }
        )
    helped = sum(r["diff"] > 0 for r in rows)
    hurt = sum(r["diff"] < 0 for r in rows)
    total = sum(len(p) for p in per_conversation.values())
    diff = sum(a - b for pairs in per_conversation.values() for a, b in pairs) / max(total, 1)
    return {
        "family": name,
        "budget": budget,
        "questions": total,
        "conversations": rows,
        "helped": helped,
        "hurt": hurt,
        "tied": len(rows) - helped - hurt,
        "diff": round(diff, 4),
        "p": round(sign_test(helped, hurt), 4),
    }


def step_text(view: Mapping[str, Any]) -> str:
    """The view as a table per family, then the verdict."""
    lines = [f"{view['system']} against {view['without']} (each conversation counts once)"]
    for f in view["families"]:
        lines.append(
            f"{f['family']} within {f['budget']} tokens: helped {f['helped']}, hurt {f['hurt']}, "
            f"tied {f['tied']} of {len(f['conversations'])} conversations; mean difference "
            f"{f['diff']:+.4f} over {f['questions']} questions; sign test p = {f['p']:.3f}"
        )
        for r in f["conversations"]:
            lines.append(
                f"  {r['conversation']:<24} {r['with']:.3f} vs {r['without']:.3f} "
                f"({r['diff']:+.3f}, {r['questions']} questions)"
            )
    verdict = "keep" if view["keep"] else "remove"
    if not view["decided"]:
        verdict = (
            f"undecided: results of {FAMILIES_NEEDED} families or more are needed, "
            f"got {len(view['families'])}"
        )
    cost = ", ".join(view["families_cost"]) or "none"
    lines.append(
        f"verdict: {verdict} (helps most conversations in {view['families_helped']} "
        f"families; families it costs: {cost})"
    )
    return "\n".join(lines)
