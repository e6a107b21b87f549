"""Fakes a user's own tests can use: deterministic embedders without a model, a scripted
OpenAI-compatible server on 127.0.0.1 (completions, embeddings, HTTP errors, delays, broken
bodies) for the LLM path, and :func:`parts`, the seam to a RaMem's private parts.

``ramem_integrations.testing.openai_server`` is imported on its own, as it starts threads and
sockets only when asked.
"""

from ramem_integrations.testing.embedders import CountingEmbedder, HashingEmbedder
from ramem_integrations.testing.seams import Parts, parts

__all__ = ["CountingEmbedder", "HashingEmbedder", "Parts", "parts"]
