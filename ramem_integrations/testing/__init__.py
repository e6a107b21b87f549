"""Fakes a user's own tests can use: deterministic embedders without a model, and a scripted
OpenAI-compatible server on 127.0.0.1 (completions, embeddings, HTTP errors, delays, broken
bodies) for the LLM path.

``ramem_integrations.testing.openai_server`` is imported on its own, as it starts threads and
sockets only when asked.
"""

from ramem_integrations.testing.embedders import CountingEmbedder, HashingEmbedder

__all__ = ["CountingEmbedder", "HashingEmbedder"]
