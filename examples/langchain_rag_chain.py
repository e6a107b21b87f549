"""An LCEL RAG chain over RaMem: retriever | context-preserving prompt | chat model.

Runs offline: the packaged embedding model, an embedded Chroma store in a temporary folder,
and LangChain's FakeListChatModel (a scripted reply). With OPENAI_API_KEY, or
RAMEM_LLM_BASE_URL and RAMEM_LLM_MODEL, and langchain-openai installed, a real model answers.

    python examples/langchain_rag_chain.py
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.runnables import RunnableLambda, RunnablePassthrough

from ramem_integrations import RaMem, load_conversations
from ramem_integrations.app.demo import ASKED_ON, sample_path
from ramem_integrations.langchain import RaMemRetriever, context_prompt, format_documents

QUESTION = "What did the dentist say last March?"


def chat_model() -> tuple[BaseChatModel, str]:
    """A real model when one is configured, else a scripted fake one."""
    base_url, model = os.environ.get("RAMEM_LLM_BASE_URL"), os.environ.get("RAMEM_LLM_MODEL")
    if os.environ.get("OPENAI_API_KEY") or (base_url and model):
        try:
            from langchain_openai import ChatOpenAI
        except ImportError:
            print("(langchain-openai is not installed: using the fake model)")
        else:
            return ChatOpenAI(
                model=model or "gpt-4o-mini",
                base_url=base_url,
                api_key=os.environ.get("OPENAI_API_KEY", "x"),
            ), "a real model"
    reply = "The wisdom tooth has to come out within two months."
    return FakeListChatModel(responses=[reply]), "FakeListChatModel, offline (scripted reply)"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ramem-example-") as tmp:
        mem = RaMem.from_path(tmp)
        (conversation,) = load_conversations(sample_path())
        mem.add_conversation(conversation, namespace="alice")

        retriever = RaMemRetriever(memory=mem, namespace="alice", k=3, reference=ASKED_ON)
        model, which = chat_model()
        seen: list[str] = []

        def show(prompt: Any) -> Any:  # keep the prompt the model receives
            seen.append(prompt.to_string())
            return prompt

        chain = (
            {
                "memories": retriever | format_documents,
                "question": RunnablePassthrough(),
                "conditions": RunnableLambda(retriever.conditions),
            }
            | context_prompt()
            | RunnableLambda(show)
            | model
            | StrOutputParser()
        )
        answer = chain.invoke(QUESTION)
        print(f"Model: {which}\n")
        print("The prompt the model received:\n")
        print(seen[0])
        print(f"\nAnswer: {answer}")


if __name__ == "__main__":
    main()
