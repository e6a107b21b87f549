"""Answering a question from memory (stage 4 with a generator), offline when no model is set.

:func:`answer` retrieves the evidence, renders the context-preserving prompt
(:func:`~ramem_integrations.core.prompts.render_answer_prompt`) and, when a model is configured,
asks it. Without a model the :class:`Answer` has ``text=None``, the evidence and the prompt, and a
``note`` saying so; when the model fails, the same, with a
:class:`~ramem_integrations.models.llm.RamemFallbackWarning`. Nothing is invented on a failure.

Usage::

    answer = mem.answer("When did Ann start pottery?", namespace="ann")
    print(answer.text or answer.note)
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ramem_integrations.core.limits import Limits
from ramem_integrations.core.prompts import render_answer_prompt
from ramem_integrations.core.retrieval.reinstatement import ContextualRetriever
from ramem_integrations.core.types import RecallFrame, ScoredMemory
from ramem_integrations.errors import LLMError
from ramem_integrations.memory.questions import check_request, questions_last
from ramem_integrations.models.llm import LLM, LLMClient, LLMConfig, RamemFallbackWarning

logger = logging.getLogger(__name__)

NO_MODEL = (
    "No model is configured, so no answer was generated: read the evidence below, or set "
    "RAMEM_LLM_MODEL (and RAMEM_LLM_BASE_URL for a local server) or pass llm=LLMClient(...)."
)


class Memory(Protocol):
    """What answering needs of a memory (:class:`~ramem_integrations.memory.ramem.RaMem` has it)."""

    reinstatement: ContextualRetriever
    limits: Limits

    def frame(
        self, query: str, namespace: str, *, reference: datetime | None = None
    ) -> RecallFrame: ...


@dataclass(frozen=True)
class Answer:
    """A generated answer (or none) with the evidence and the prompt it came from.

    ``text`` is the model's answer, or None when no model is configured or the model failed;
    ``note`` then says why. ``model`` names the model asked, if any.
    """

    text: str | None
    hits: tuple[ScoredMemory, ...]
    prompt: str
    frame: RecallFrame
    model: str | None
    note: str


def answer(
    mem: Memory,
    question: str,
    namespace: str,
    *,
    k: int = 10,
    reference: datetime | None = None,
    llm: LLM | None = None,
) -> Answer:
    """Answer ``question`` from the memories of ``namespace`` (see the module docstring)."""
    check_request(question, k, mem.limits)
    frame = mem.frame(question, namespace, reference=reference)
    hits = tuple(questions_last(mem.reinstatement.retrieve(frame, namespace, k)))
    prompt = render_answer_prompt(question, hits, frame)
    model = llm if llm is not None else _configured_model()
    if model is None:
        return Answer(None, hits, prompt, frame, None, NO_MODEL)
    name = _model_name(model)
    try:
        text = model.chat([{"role": "user", "content": prompt}]).strip()
        if not text:
            raise LLMError(f"The model {name!r} returned an empty answer.")
    except LLMError as exc:
        note = f"Answering fell back to the evidence alone: {exc}"
        logger.warning(note)
        warnings.warn(note, RamemFallbackWarning, stacklevel=2)
        return Answer(None, hits, prompt, frame, name, note)
    return Answer(text, hits, prompt, frame, name, f"answered by {name or 'the model'}")


def _configured_model() -> LLM | None:
    config = LLMConfig.from_env()
    if config is None:
        return None
    try:
        return LLMClient(config)
    except LLMError as exc:
        note = f"Answering fell back to the evidence alone: {exc}"
        logger.warning(note)
        warnings.warn(note, RamemFallbackWarning, stacklevel=3)
        return None


def _model_name(llm: Any) -> str | None:
    model = getattr(getattr(llm, "config", None), "model", None)
    return model if isinstance(model, str) else None


def answer_to_json(result: Answer, hits_json: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The answer as plain JSON (``hits_json`` are the hits already converted)."""
    from ramem_integrations.core.prompts import describe_frame

    return {
        "text": result.text,
        "model": result.model,
        "note": result.note,
        "conditions": describe_frame(result.frame),
        "hits": list(hits_json),
        "prompt": result.prompt,
    }
