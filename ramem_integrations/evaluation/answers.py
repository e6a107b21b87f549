"""Answering questions from retrieved memories with an OpenAI-compatible model (optional).

Only used when a model is configured (``--llm MODEL`` or ``RAMEM_LLM_MODEL``). A failed call
is logged and scored as an empty answer, so one bad reply does not stop a run.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from ramem_integrations.core.prompts import render_answer_prompt
from ramem_integrations.core.types import MemoryUnit, RecallFrame
from ramem_integrations.errors import LLMError
from ramem_integrations.evaluation.datasets import Question
from ramem_integrations.models.llm import LLM, Message

logger = logging.getLogger(__name__)

SYSTEM_PROMPT = (
    "Answer in a short phrase, not a sentence. If the memories do not contain the answer, "
    "reply exactly: Not mentioned in the conversation."
)


def messages_for(
    question: Question,
    units: Sequence[MemoryUnit],
    *,
    frame: RecallFrame | None = None,
    flat: bool = False,
) -> list[Message]:
    """The chat messages that ask ``question`` over ``units`` (the core answer prompt)."""
    asked = f"{question.text} (asked on {question.reference.date().isoformat()})"
    user = render_answer_prompt(asked, units, frame, flat=flat)
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def answer(
    llm: LLM,
    question: Question,
    units: Sequence[MemoryUnit],
    *,
    frame: RecallFrame | None = None,
    flat: bool = False,
) -> str:
    """The model's short answer, or '' when the call fails (logged)."""
    try:
        return llm.chat(messages_for(question, units, frame=frame, flat=flat)).strip()
    except LLMError as exc:
        logger.warning("Answering %s failed: %s", question.id, exc)
        return ""
