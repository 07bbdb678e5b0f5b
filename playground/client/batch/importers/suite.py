"""What an importer makes of a suite: the prompt, the data set, the columns (format, model and
their own settings), the graders, and what it could not map, each named with where it was. The
plan a run needs is built from it (with the caller's columns when it gives them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from playground.client import catalog
from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import ColumnSettings, Plan

DEFAULT_GRADING_MODEL = "gx-2.5-flash"
"""The grading model when a suite names none (the Batch tab's default)."""
DEFAULT_EMBEDDING_MODEL = "text-embedding-3-small"


@dataclass
class Suite:
    source: str
    """"promptfoo", "openai-evals" or "anthropic-console"."""
    name: str
    user: str
    system: str = ""
    dataset: Dataset = field(default_factory=lambda: Dataset([]))
    columns: list[tuple[str, str]] = field(default_factory=list)
    column_settings: list[ColumnSettings] = field(default_factory=list)
    graders: list[GraderSpec] = field(default_factory=list)
    unmapped: Sequence[str] = field(default_factory=list)
    """What the suite holds that this playground does not run, each naming where and why."""

    def unknown_models(self) -> list[str]:
        """The models the suite names (columns, grading and embedding models) that the playground's
        model list does not hold: a gateway may well refuse them."""
        named = [model for _, model in self.columns] + [spec.model for spec in self.graders if spec.kind in ("model", "label", "similar")]
        return [model for model in dict.fromkeys(named)
                if model and catalog.find(model) is None and model not in catalog.EMBEDDING_MODELS]

    def plan(self, columns: list[tuple[str, str]] | None = None, repeats: int = 1, concurrency: int = 4) -> Plan:
        """The run's plan: the suite's columns (with their own settings), or `columns` instead."""
        own = self.column_settings if columns is None else []
        return Plan(self.user, self.system, self.dataset, list(self.columns if columns is None else columns), repeats,
                    list(self.graders), stream=True, concurrency=concurrency, column_settings=list(own))
