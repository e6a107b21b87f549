"""Framework-free glue the LangChain, LangGraph and LlamaIndex adapters share: framework records
as memories and back, the words of chat messages, and the memory context an agent sees."""
