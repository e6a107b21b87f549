"""Evaluation: datasets, metrics, systems, runner and report behind ``ramem eval``."""

from ramem_integrations.evaluation.datasets import Dataset, Question, load_dataset
from ramem_integrations.evaluation.systems import SYSTEMS, System, register

__all__ = ["SYSTEMS", "Dataset", "Question", "System", "load_dataset", "register"]
