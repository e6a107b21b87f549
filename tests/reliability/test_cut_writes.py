"""A write or a forget killed at any step never leaves a warm reader serving stale memories,
before or after the re-run, and the re-run leaves every memory stored once (or gone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.cut_writes import cut_rounds
from tests.reliability.test_concurrency import chroma_server  # noqa: F401  (fixture)

pytestmark = pytest.mark.reliability


@pytest.mark.parametrize("operation", ["write", "forget"])
def test_kills_at_every_step_with_a_warm_reader(
    tmp_path: Path,
    chroma_server: str,  # noqa: F811
    operation: str,
) -> None:
    cuts = cut_rounds(chroma_server, tmp_path, operation)
    for row in cuts.details:
        print(row)
    assert (cuts.stale_after_kill, cuts.stale_after_rerun) == (0, 0), cuts.details
    assert cuts.kills == cuts.steps >= 3  # every step of the operation was cut once
    assert (cuts.lost, cuts.wrong, cuts.duplicated) == (0, 0, 0), cuts.details
