"""RaMem, the facade, with its read path (questions, source, answering) and its write path
(writing, regrouping, a memory's vector). ``RaMem`` is imported on first use, so the light
modules here do not load the store."""

from importlib import import_module


def __getattr__(name: str) -> object:
    if name == "RaMem":
        return import_module("ramem_integrations.memory.ramem").RaMem
    raise AttributeError(f"module 'ramem_integrations.memory' has no attribute {name!r}")


__all__ = ["RaMem"]
