"""Counting the tokens of rendered text, offline, with the packaged MiniLM tokenizer.

The all-MiniLM-L6-v2 WordPiece tokenizer (uncased BERT vocabulary), no truncation, no special
tokens; whitespace words when the tokenizer cannot be loaded (and a warning says so). The one
counter of every token budget: :func:`count_tokens` (``RaMem.count_tokens``) is what the agents'
budgets, ``RaMem.render`` and the evaluation's "within N tokens" figures count with.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import resources

from ramem_integrations.core.prompts import whitespace_tokens

logger = logging.getLogger(__name__)

TOKENIZER_RESOURCE = "minilm-tokenizer.json"


class TokenCounter:
    """Counts tokens of rendered text with the packaged MiniLM tokenizer (or whitespace)."""

    def __init__(self) -> None:
        self.name, self._encode = _load_counter()

    def count(self, texts: Sequence[str]) -> list[int]:
        return self._encode(list(texts))


Encode = Callable[[list[str]], list[int]]


def _load_counter() -> tuple[str, Encode]:
    try:
        import tokenizers

        path = resources.files("ramem_integrations.data") / TOKENIZER_RESOURCE
        tokenizer = tokenizers.Tokenizer.from_file(str(path))
    except Exception as exc:  # a missing file or library: fall back, and say so
        logger.warning("MiniLM tokenizer unavailable (%s); counting whitespace tokens.", exc)
        return "whitespace words (MiniLM tokenizer unavailable)", whitespace_tokens
    tokenizer.no_truncation()
    tokenizer.no_padding()

    def encode(texts: list[str]) -> list[int]:
        return [len(e.ids) for e in tokenizer.encode_batch(texts, add_special_tokens=False)]

    return "all-MiniLM-L6-v2 WordPiece (bert-base-uncased vocabulary)", encode


@lru_cache(maxsize=1)
def default_counter() -> TokenCounter:
    """The one :class:`TokenCounter` of the process (the tokenizer loads once)."""
    return TokenCounter()


def count_tokens(texts: Sequence[str]) -> list[int]:
    """Tokens of each text, by the packaged MiniLM tokenizer: the count of every budget."""
    return default_counter().count(texts)
