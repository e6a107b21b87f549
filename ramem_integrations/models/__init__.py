"""The models: embedders, token counting, the LLM client and the LLM-backed anchorer, frame
inducer and segmenter."""
