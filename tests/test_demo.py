"""The demo a newcomer runs first: with the packaged model, RaMem finds the right episode."""

import pytest

from ramem_integrations.app.demo import QUESTIONS, run_demo


@pytest.mark.slow
def test_demo_shows_ramem_beating_content_retrieval(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(show_prompt=True) == 0
    out = capsys.readouterr().out
    assert f"RaMem put the right episode first on {len(QUESTIONS)} of {len(QUESTIONS)}" in out
    blocks = out.split("\nQ: ")[1:]
    content_wrong = sum("content:\n     1. [     ]" in block for block in blocks)
    assert content_wrong >= 2  # content-only retrieval puts another memory first
    assert "[1] said " in out and "; happened " in out  # the context-preserving prompt
