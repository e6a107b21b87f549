"""Uncertainty of the figures: bootstrap intervals and a paired test, seeded and exact to repeat.

Both resample questions (the unit the figures average over) with NumPy's PCG64 generator from a
fixed seed, so the same scores always give the same interval and p-value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

SEED = 20240601
RESAMPLES = 2000


def bootstrap_ci(
    values: Sequence[float], *, level: float = 0.95, resamples: int = RESAMPLES, seed: int = SEED
) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean (None without values)."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        return None
    rng = np.random.Generator(np.random.PCG64(seed))
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    tail = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [tail, 1.0 - tail])
    return round(float(lo), 4), round(float(hi), 4)


@dataclass(frozen=True)
class PairedTest:
    """A system against a baseline on the same questions.

    ``diff``: mean of (system - baseline); ``ci95``: bootstrap interval of that mean;
    ``p``: two-sided p-value of a sign-flip randomisation test (no difference as the null).
    """

    n: int
    diff: float
    ci95: tuple[float, float]
    p: float


def paired_test(
    system: Sequence[float],
    baseline: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> PairedTest | None:
    """Compare per-question scores of a system and a baseline (same questions, same order)."""
    if len(system) != len(baseline):
        raise ValueError("paired scores must cover the same questions")
    diffs = np.asarray(system, dtype=np.float64) - np.asarray(baseline, dtype=np.float64)
    if diffs.size == 0:
        return None
    observed = float(diffs.mean())
    rng = np.random.Generator(np.random.PCG64(seed))
    signs = rng.choice(np.array([-1.0, 1.0]), size=(resamples, diffs.size))
    null = (signs * diffs).mean(axis=1)
    extreme = int(np.count_nonzero(np.abs(null) >= abs(observed) - 1e-12))
    ci = bootstrap_ci(diffs.tolist(), resamples=resamples, seed=seed) or (observed, observed)
    return PairedTest(
        n=int(diffs.size),
        diff=round(observed, 4),
        ci95=ci,
        p=round((extreme + 1) / (resamples + 1), 4),
    )
