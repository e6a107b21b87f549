"""The context-preserving answer prompt as a LlamaIndex ``PromptTemplate``."""

from __future__ import annotations

from typing import Any

from llama_index.core.prompts import PromptTemplate, PromptType

from ramem_integrations.core.prompts import ANSWER_TEMPLATE, INSTRUCTIONS, describe_frame
from ramem_integrations.memory.ramem import RaMem


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def context_prompt(
    memory: RaMem | None = None, namespace: str | None = None, reference: Any = None
) -> PromptTemplate:
    """The core answer template as a question-answering prompt (``context_str``,
    ``query_str``), for ``RetrieverQueryEngine.from_args(..., text_qa_template=...)``.

    The memories (``context_str``: as the one renderer shows them, grouped by episode, with
    :class:`~ramem_integrations.llama_index.synthesis.MemorySynthesizer`; each node as a group
    of its own with another synthesizer) and the question enter only as values. With
    ``memory`` and ``namespace`` the question's grounded conditions are written into the
    prompt too (``reference``: a datetime, or a callable returning one); otherwise the
    conditions line says "none".
    """
    template = (
        ANSWER_TEMPLATE.replace("{instructions}", _escape(INSTRUCTIONS))
        .replace("{question}", "{query_str}")
        .replace("{memories}", "{context_str}")
    )
    if memory is None or namespace is None:
        return PromptTemplate(template, prompt_type=PromptType.QUESTION_ANSWER).partial_format(
            conditions="none"
        )
    mem, scope = memory, namespace

    def conditions(**kwargs: Any) -> str:
        when = reference() if callable(reference) else reference
        return describe_frame(mem.frame(str(kwargs.get("query_str", "")), scope, reference=when))

    return PromptTemplate(
        template,
        prompt_type=PromptType.QUESTION_ANSWER,
        function_mappings={"conditions": conditions},
    )
