"""Evaluation: datasets, metrics, systems, runner and report behind ``ramem eval``."""

from ramem_integrations.evaluation.datasets import Asked, Dataset, Question, load_dataset
from ramem_integrations.evaluation.systems import SYSTEMS, System, register
from ramem_integrations.evaluation.variants import Mode, Variant

__all__ = [
    "SYSTEMS",
    "Asked",
    "Dataset",
    "Mode",
    "Question",
    "System",
    "Variant",
    "load_dataset",
    "register",
]
