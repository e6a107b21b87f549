"""No dataset id reaches a model: the anchorer, the episode cutter and the frame inducer send
words and dates only.

A benchmark's ids can name the gold evidence (LongMemEval's ``answer_<id>_N`` sessions), so every
request the LLM paths make is captured on the local scripted server and searched for every id of
every loader's fixture: conversation, session, turn and question ids, and evidence ids.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from ramem_integrations.core.conversation import Conversation, load_conversations
from ramem_integrations.core.frames import KnownContext
from ramem_integrations.evaluation.datasets import load_dataset
from ramem_integrations.models.llm import LLMClient, LLMConfig
from ramem_integrations.models.llm_anchoring import LLMAnchorer
from ramem_integrations.models.llm_frames import LLMFrameInducer
from ramem_integrations.models.llm_segmentation import LLMSegmenter
from ramem_integrations.testing.openai_server import OpenAIServer

FIXTURES = Path(__file__).parent / "fixtures"
#: Each loader's fixture, and the dataset loader for its questions (None: no questions).
CASES = [
    ("locomo", "locomo-tiny.json"),
    ("longmemeval", "longmemeval-tiny.json"),
    ("chat", "chat_small.json"),
]


def dataset_ids(fmt: str, path: Path, conversations: list[Conversation]) -> set[str]:
    ids = {c.id for c in conversations}
    for conversation in conversations:
        for session in conversation.sessions:
            ids.add(session.id)
            ids.update(turn.id for turn in session.turns)
    if fmt != "chat":
        for question in load_dataset(fmt, path).questions:
            ids.add(question.id)
            ids.update(question.evidence_turns)
            ids.update(question.evidence_sessions)
    return ids


def leaked(ids: set[str], text: str) -> list[str]:
    """The ids written in ``text`` as ids: whole tokens, or quoted when they are short words."""
    found = []
    for item in ids:
        token = rf"(?<![\w:#-]){re.escape(item)}(?![\w:#-])"
        if re.search(token if len(item) > 2 else rf'"{re.escape(item)}"', text):
            found.append(item)
    return found


@pytest.mark.parametrize(("fmt", "name"), CASES)
def test_no_dataset_id_in_any_request(openai_server: OpenAIServer, fmt: str, name: str) -> None:
    path = FIXTURES / name
    conversations = load_conversations(path, fmt)
    llm = LLMClient(LLMConfig(model="m", base_url=openai_server.base_url, max_retries=0, timeout=2))
    questions = [q.text for q in load_dataset(fmt, path).questions] if fmt != "chat" else []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unscripted replies: every call falls back, as it may
        for conversation in conversations:
            units = LLMAnchorer(llm, window=2).anchor(conversation, "ns")
            LLMSegmenter(llm, window=2).segment(units)
            known = KnownContext.from_memories(units)
            reference = conversation.date_range.end
            for text in questions or ["What did we talk about last week?"]:
                LLMFrameInducer(llm).induce(text, reference=reference, known=known)

    requests = openai_server.chat_requests
    turns = sum(len(s.turns) for c in conversations for s in c.sessions)
    assert len(requests) >= turns // 2  # the anchorer asked about every window
    ids = dataset_ids(fmt, path, conversations)
    assert {"answer_1", "D1:1", "tiny-1", "a:1"} & ids  # the ids looked for are real
    for request in requests:
        for message in request.body["messages"]:
            assert leaked(ids, message["content"]) == [], message["content"]
