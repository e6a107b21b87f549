"""The ``openai_server`` fixture: a scripted OpenAI-compatible server on 127.0.0.1 per test
(:mod:`ramem_integrations.testing.openai_server`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ramem_integrations.testing.openai_server import OpenAIServer, openai_server_running


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A running OpenAI-compatible test server, stopped after the test."""
    with openai_server_running() as server:
        yield server
