"""What the LangChain, LangGraph and LlamaIndex adapters share, framework-free: the one
vocabulary of a hit's metadata (:mod:`.hits`), when a question is asked (:mod:`.asked`), which
memory to open (:mod:`.opening`), framework records as memories and back (:mod:`.records`), the
words of chat messages (:mod:`.messages`) and the memory context an agent sees (:mod:`.context`)."""
