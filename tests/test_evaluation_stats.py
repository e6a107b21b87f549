"""Bootstrap intervals and the paired test: seeded, so the same scores give the same figures."""

from __future__ import annotations

import pytest

from ramem_integrations.evaluation.stats import bootstrap_ci, paired_test


def test_bootstrap_interval_holds_the_mean_and_repeats() -> None:
    values = [0.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.0] * 10
    lo, hi = bootstrap_ci(values) or (None, None)
    assert lo is not None and hi is not None
    assert lo < sum(values) / len(values) < hi
    assert bootstrap_ci(values) == (lo, hi)
    assert bootstrap_ci([0.5] * 20) == (0.5, 0.5)
    assert bootstrap_ci([]) is None


def test_paired_test_sees_a_real_difference_and_not_a_null_one() -> None:
    baseline = [0.0, 1.0] * 50
    better = [1.0, 1.0] * 50
    clear = paired_test(better, baseline)
    assert clear is not None
    assert clear.diff == 0.5 and clear.p < 0.01 and clear.ci95[0] > 0
    same = paired_test(baseline, baseline)
    assert same is not None and same.diff == 0.0 and same.p == 1.0
    assert paired_test(better, baseline) == clear  # seeded
    with pytest.raises(ValueError, match="same questions"):
        paired_test([1.0], [1.0, 0.0])
