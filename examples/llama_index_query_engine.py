"""A LlamaIndex RetrieverQueryEngine over RaMem (``as_query_engine``), with the
context-preserving prompt.

Runs offline: the packaged embedding model, an embedded Chroma store in a temporary folder,
and LlamaIndex's MockLLM (it echoes nothing useful; we print the prompt it received). With
OPENAI_API_KEY, or RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL, and llama-index-llms-openai-like
installed, a real model answers.

    python examples/llama_index_query_engine.py
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from llama_index.core.llms import LLM, CompletionResponse, MockLLM
from pydantic import Field

from ramem_integrations import RaMem, load_conversations
from ramem_integrations.app.demo import ASKED_ON, sample_path
from ramem_integrations.llama_index import RaMemRetriever

QUESTION = "What did the dentist say last March?"


class PromptRecordingLLM(MockLLM):
    """MockLLM that keeps the prompts it is sent, so we can show them."""

    prompts: list[str] = Field(default_factory=list)

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return CompletionResponse(text="(MockLLM: no answer offline)")


def llm() -> tuple[LLM, str]:
    base_url, model = os.environ.get("RAMEM_LLM_BASE_URL"), os.environ.get("RAMEM_LLM_MODEL")
    if os.environ.get("OPENAI_API_KEY") or (base_url and model):
        try:
            from llama_index.llms.openai_like import OpenAILike
        except ImportError:
            print("(llama-index-llms-openai-like is not installed: using MockLLM)")
        else:
            return OpenAILike(
                model=model or "gpt-4o-mini",
                api_base=base_url,
                api_key=os.environ.get("OPENAI_API_KEY", "x"),
                is_chat_model=True,
            ), "a real model"
    return PromptRecordingLLM(max_tokens=None), "MockLLM, offline"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ramem-example-") as tmp:
        mem = RaMem.from_path(tmp)
        (conversation,) = load_conversations(sample_path())
        mem.add_conversation(conversation, namespace="alice")

        retriever = RaMemRetriever(mem, "alice", similarity_top_k=3, reference=ASKED_ON)
        model, which = llm()
        # the memories as the one renderer shows them, in RaMem's answer prompt
        engine = retriever.as_query_engine(llm=model)
        response = engine.query(QUESTION)
        print(f"Model: {which}\n")
        if isinstance(model, PromptRecordingLLM):
            print("The prompt the model received:\n")
            print(model.prompts[-1])
        print(f"\nAnswer: {response}")
        print("\nSources:")
        for node in response.source_nodes:
            print(f"  {node.node.metadata['said']}: {node.node.get_content()[:60]}...")


if __name__ == "__main__":
    main()
