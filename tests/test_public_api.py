import ramem_integrations


def test_public_names_are_pinned() -> None:
    assert sorted(ramem_integrations.__all__) == sorted(
        [
            "ChromaEpisodicStore",
            "Condition",
            "ContentRetriever",
            "ContextFilter",
            "ContextualRetriever",
            "Conversation",
            "EpisodicContext",
            "KnownContext",
            "MemoryUnit",
            "RaMem",
            "RamemError",
            "RecallFrame",
            "RuleAnchorer",
            "RuleFrameInducer",
            "ScoredMemory",
            "Session",
            "TimeMention",
            "TimeSpan",
            "Turn",
            "__version__",
            "find_times",
            "ground_time",
            "load_conversations",
            "render_answer_prompt",
        ]
    )
    for name in ramem_integrations.__all__:
        assert getattr(ramem_integrations, name) is not None
