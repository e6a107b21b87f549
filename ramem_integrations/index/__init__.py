"""A namespace's memories held in memory: vectors, BM25, conditions and the episode index."""
