"""RaMem's postprocessor dropped into an existing LlamaIndex RAG pipeline.

The pipeline: chat notes ingested with EpisodicMetadataExtractor (episodic metadata on each
node), a plain VectorStoreIndex, a query engine. Without the postprocessor the closest text wins
(the July dentist visit); with it, the nodes valid for "last March" come first. Offline:
the packaged embedding model and LlamaIndex's MockLLM.

    python examples/llama_index_postprocessor.py
"""

from __future__ import annotations

import json

from llama_index.core import VectorStoreIndex
from llama_index.core.ingestion import IngestionPipeline
from llama_index.core.llms import MockLLM
from llama_index.core.schema import Document

from ramem_integrations.app.demo import ASKED_ON, sample_path
from ramem_integrations.llama_index import (
    EpisodicMetadataExtractor,
    EpisodicReinstatementPostprocessor,
    RaMemEmbedding,
)

QUESTION = "What did the dentist say last March?"


def documents() -> list[Document]:
    """The sample conversation as plain documents, one per turn, with a time and a speaker."""
    docs = []
    for session in json.loads(sample_path().read_text()):
        for i, turn in enumerate(session["turns"], 1):
            docs.append(
                Document(
                    id_=f"{session['session_id']}:{i}",
                    text=turn["text"],
                    metadata={
                        "speaker": turn["speaker"],
                        "session_id": session["session_id"],
                        "timestamp": session["session_time"],
                    },
                )
            )
    return docs


def main() -> None:
    embed_model = RaMemEmbedding()  # the packaged offline MiniLM model
    pipeline = IngestionPipeline(transformations=[EpisodicMetadataExtractor(namespace="alice")])
    nodes = pipeline.run(documents=documents())
    index = VectorStoreIndex(nodes, embed_model=embed_model)

    plain = index.as_query_engine(llm=MockLLM(), similarity_top_k=3)
    episodic = index.as_query_engine(
        llm=MockLLM(),
        similarity_top_k=10,
        node_postprocessors=[EpisodicReinstatementPostprocessor(reference=ASKED_ON, top_n=3)],
    )
    print(f"Question: {QUESTION} (asked on {ASKED_ON:%d %B %Y}; MockLLM, offline)\n")
    for name, engine in (("vector index alone", plain), ("with the postprocessor", episodic)):
        print(f"{name}:")
        for item in engine.query(QUESTION).source_nodes:
            meta = item.node.metadata
            reason = meta.get("reason", "-")
            print(f"  [{reason:7}] {meta['session_id']:17} {item.node.get_content()[:60]}")
        print()
    print(f"(ingested {len(nodes)} nodes)")


if __name__ == "__main__":
    main()
