"""An assistant chain with RaMemMemory: it remembers across sessions, each in its episode.

Three sessions on three days: each exchange is saved with the time it happened; in the last
one the user asks about an earlier one, and the chain's prompt gets the evidence with its
coordinates (when it was said, who took part). A second exchange shows the memory as an agent
tool. Runs offline with LangChain's GenericFakeChatModel (scripted replies); with
OPENAI_API_KEY (or RAMEM_LLM_BASE_URL + RAMEM_LLM_MODEL) and langchain-openai, a real model.

    python examples/langchain_agent_memory.py
"""

from __future__ import annotations

import os
import tempfile
from datetime import UTC, datetime

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate

from ramem_integrations import RaMem
from ramem_integrations.langchain import RaMemMemory

SESSIONS = [
    (datetime(2024, 5, 6, 9, 0, tzinfo=UTC), "My sister Carol just got engaged to Tom!"),
    (datetime(2024, 5, 20, 9, 0, tzinfo=UTC), "I started learning Portuguese for my Lisbon trip."),
    (datetime(2024, 6, 3, 9, 0, tzinfo=UTC), "Who did I say got engaged in early May?"),
]

PROMPT = ChatPromptTemplate.from_messages(
    [
        (
            "system",
            "You are a helpful assistant with a long-term memory. Memories that may "
            "help, with when they were said:\n\n{history}",
        ),
        ("human", "{input}"),
    ]
)


def chat_model() -> tuple[BaseChatModel, str]:
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
    replies = iter(
        [
            AIMessage(content=text)
            for text in (
                "Congratulations to Carol and Tom!",
                "Boa sorte with your Portuguese!",
                "Your sister Carol, who got engaged to Tom.",
            )
        ]
    )
    return GenericFakeChatModel(messages=replies), "GenericFakeChatModel, offline (scripted)"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ramem-example-") as tmp:
        clock = {"now": SESSIONS[0][0]}
        memory = RaMemMemory(
            memory=RaMem.from_path(tmp),
            namespace="alice",
            k=2,
            human_name="Alice",
            clock=lambda: clock["now"],
        )
        model, which = chat_model()
        chain = memory.as_runnable() | PROMPT | model | StrOutputParser()
        print(f"Model: {which}\n")
        for when, text in SESSIONS:
            clock["now"] = when
            inputs = {"input": text}
            if when == SESSIONS[-1][0]:
                print("Evidence loaded for the last question:\n")
                print(memory.load_memory_variables(inputs)["history"], "\n")
            reply = chain.invoke(inputs)
            memory.save_context(inputs, {"output": reply})
            print(f"[{when:%d %B %Y}] Alice: {text}\n{'':15}Assistant: {reply}")

        tool = memory.as_tool()
        print(f"\nAs an agent tool ({tool.name}):\n")
        print(tool.invoke({"query": "Portuguese lessons"}))


if __name__ == "__main__":
    main()
