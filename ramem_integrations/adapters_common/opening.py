"""The RaMem a surface's ``from_defaults`` opens: the one given, or one over a path or a client.

Both retrievers (LangChain's and LlamaIndex's) take the same three ways in and refuse the same
mistakes with the same :class:`~ramem_integrations.errors.InvalidInputError`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ramem_integrations.errors import InvalidInputError
from ramem_integrations.memory.ramem import RaMem


def open_memory(
    memory: RaMem | None = None,
    path: str | Path | None = None,
    client: Any = None,
    embed_model: Any = None,
) -> RaMem:
    """``memory``, else a RaMem over the store at ``path`` or behind the chromadb ``client``,
    embedding with ``embed_model`` (a LangChain ``Embeddings``, a LlamaIndex
    ``BaseEmbedding`` or any embedder RaMem takes; the packaged offline model when None)."""
    chosen = {"memory": memory, "path": path, "client": client}
    given = [name for name, value in chosen.items() if value is not None]
    if len(given) != 1:
        got = f"got {', '.join(f'{n}=' for n in given)}" if given else "got none"
        raise InvalidInputError(
            f"Pass exactly one of memory=, path= or client= ({got}): e.g. "
            "from_defaults(namespace='alice', path='./memory')."
        )
    if memory is not None:
        if embed_model is not None:
            raise InvalidInputError(
                "embed_model= is for a memory opened from path= or client=; a RaMem given as "
                "memory= embeds with its own embedder."
            )
        if not isinstance(memory, RaMem):
            raise InvalidInputError(
                f"memory= takes a RaMem, got {type(memory).__name__}: RaMem.from_path('./memory')."
            )
        return memory
    if path is not None:
        return RaMem.from_path(path, embedder=embed_model)
    return RaMem.from_client(client, embedder=embed_model)
