"""What a gateway report is made of: the checks (named, with their pass rule in plain words),
the scope a user picks, one result per (format, model, check), and the report that holds them.

Statuses: `pass`, `fail`, `unsupported` (the format has no such feature in the spec) and
`skipped` (not run: out of scope, the model cannot do it, a limit was reached, or Stop).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from playground.client import catalog
from playground.client.exchange import Exchange
from playground.client.texts import Text
from playground.client.video_catalog import one_text_model_per_family

PASS, FAIL, UNSUPPORTED, SKIPPED = "pass", "fail", "unsupported", "skipped"
STATUSES = (PASS, FAIL, UNSUPPORTED, SKIPPED)
STRICT, COMPATIBLE = "strict", "compatible"
VERDICTS = (STRICT, COMPATIBLE)

TEXT_FORMATS = ("chat", "responses", "messages", "native")
FORMATS = (*TEXT_FORMATS, "embeddings", "embeddings-native", "images", "video")
FORMAT_LABELS = {fmt: Text(f"report.format.{fmt}") for fmt in FORMATS}
QUICK_FORMATS = FORMATS[:-1]
ERROR_FORMATS = (*TEXT_FORMATS, "embeddings", "embeddings-native", "images")
"""Where the error checks apply: every format with a model in its request (video is a paid submit)."""


@dataclass(frozen=True)
class Check:
    id: str
    label: Text
    formats: tuple[str, ...]
    meaning: Text
    """The pass rule in words a newcomer understands (README, tooltips, the HTML report)."""
    thorough_only: bool = False


CHECKS: tuple[Check, ...] = (
    Check("plain", Text("report.check.plain.label"), TEXT_FORMATS, Text("report.check.plain.meaning")),
    Check("stream", Text("report.check.stream.label"), TEXT_FORMATS, Text("report.check.stream.meaning")),
    Check("finish", Text("report.check.finish.label"), TEXT_FORMATS, Text("report.check.finish.meaning")),
    Check("system", Text("report.check.system.label"), TEXT_FORMATS, Text("report.check.system.meaning")),
    Check("sampling", Text("report.check.sampling.label"), TEXT_FORMATS, Text("report.check.sampling.meaning")),
    Check("json_schema", Text("report.check.json_schema.label"), ("chat",), Text("report.check.json_schema.meaning")),
    Check("tools", Text("report.check.tools.label"), TEXT_FORMATS, Text("report.check.tools.meaning")),
    Check("tool_choice", Text("report.check.tool_choice.label"), TEXT_FORMATS, Text("report.check.tool_choice.meaning")),
    Check("thinking", Text("report.check.thinking.label"), TEXT_FORMATS, Text("report.check.thinking.meaning")),
    Check("image", Text("report.check.image.label"), TEXT_FORMATS, Text("report.check.image.meaning")),
    Check("document", Text("report.check.document.label"), ("responses",), Text("report.check.document.meaning")),
    Check("caching", Text("report.check.caching.label"), ("messages",), Text("report.check.caching.meaning")),
    Check("count_tokens", Text("report.check.count_tokens.label"), ("messages",), Text("report.check.count_tokens.meaning")),
    Check("ttft", Text("report.check.ttft.label"), TEXT_FORMATS, Text("report.check.ttft.meaning")),
    Check("bad_request", Text("report.check.bad_request.label"), ERROR_FORMATS, Text("report.check.bad_request.meaning")),
    Check("unknown_model", Text("report.check.unknown_model.label"), ERROR_FORMATS, Text("report.check.unknown_model.meaning")),
    Check("auth", Text("report.check.auth.label"), ERROR_FORMATS, Text("report.check.auth.meaning")),
    Check("dimensions", Text("report.check.dimensions.label"), ("embeddings", "embeddings-native"), Text("report.check.dimensions.meaning")),
    Check("base64", Text("report.check.base64.label"), ("embeddings",), Text("report.check.base64.meaning")),
    Check("batch", Text("report.check.batch.label"), ("embeddings", "embeddings-native"), Text("report.check.batch.meaning")),
    Check("order", Text("report.check.order.label"), ("embeddings", "embeddings-native"), Text("report.check.order.meaning")),
    Check("ratio", Text("report.check.ratio.label"), ("images",), Text("report.check.ratio.meaning")),
    Check("n", Text("report.check.n.label"), ("images",), Text("report.check.n.meaning")),
    Check("video", Text("report.check.video.label"), ("video",), Text("report.check.video.meaning"), thorough_only=True),
    Check("rate_limit", Text("report.check.rate_limit.label"), ERROR_FORMATS, Text("report.check.rate_limit.meaning")),
    Check("count_tokens_extras", Text("report.check.count_tokens_extras.label"), ("messages",), Text("report.check.count_tokens_extras.meaning")),
    Check("native_usage", Text("report.check.native_usage.label"), ("native",), Text("report.check.native_usage.meaning")),
    Check("cache_usage", Text("report.check.cache_usage.label"), ("chat", "responses", "messages"), Text("report.check.cache_usage.meaning")),
    Check("stop_sequences", Text("report.check.stop_sequences.label"), ("messages", "native"), Text("report.check.stop_sequences.meaning"), thorough_only=True),
    Check("stream_usage", Text("report.check.stream_usage.label"), TEXT_FORMATS, Text("report.check.stream_usage.meaning"), thorough_only=True),
    Check("tool_choice_modes", Text("report.check.tool_choice_modes.label"), TEXT_FORMATS, Text("report.check.tool_choice_modes.meaning"), thorough_only=True),
    Check("tool_arguments", Text("report.check.tool_arguments.label"), TEXT_FORMATS, Text("report.check.tool_arguments.meaning"), thorough_only=True),
    Check("parallel_tools", Text("report.check.parallel_tools.label"), ("responses", "messages"), Text("report.check.parallel_tools.meaning"), thorough_only=True),
)
CHECKS_BY_ID = {check.id: check for check in CHECKS}
QUICK_CHECKS = tuple(check.id for check in CHECKS if not check.thorough_only)

EMBEDDING_LIST_MODELS = ("text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002")
EMBEDDING_NATIVE_MODELS = ("gx-embedding-001", "text-embedding-004")


def catalog_models(fmt: str, thorough: bool = False) -> list[str]:
    """The catalog's models of a format: one per family (quick) or every one, with thinking variants (thorough)."""
    if fmt in TEXT_FORMATS:
        models, families = [], set()
        for info in catalog.CHAT_MODELS:
            if fmt not in info.interfaces or (not thorough and info.family in families):
                continue
            families.add(info.family)
            models.append(info.id)
            if thorough and info.thinking_suffixes and fmt == "chat":
                models.append(info.id + "-thinking")
        return models
    if fmt == "embeddings":
        return list(EMBEDDING_LIST_MODELS if thorough else EMBEDDING_LIST_MODELS[:1])
    if fmt == "embeddings-native":
        return list(EMBEDDING_NATIVE_MODELS if thorough else EMBEDDING_NATIVE_MODELS[:1])
    if fmt == "images":
        return list(catalog.IMAGE_MODELS if thorough else catalog.IMAGE_MODELS[:1])
    if fmt == "video":
        return one_text_model_per_family() if thorough else []
    return []


@dataclass
class Scope:
    """What to run: per format the models, and the checks (ids)."""

    models: dict[str, list[str]]
    checks: tuple[str, ...] = QUICK_CHECKS
    thorough: bool = False
    ttft_budget_s: float = 2.0

    @classmethod
    def default(cls, thorough: bool = False, formats: tuple[str, ...] | None = None) -> Scope:
        chosen = formats or (FORMATS if thorough else QUICK_FORMATS)
        checks = tuple(c.id for c in CHECKS) if thorough else QUICK_CHECKS
        return cls({fmt: catalog_models(fmt, thorough) for fmt in chosen}, checks, thorough)

    def cells(self) -> list[tuple[str, str, str]]:
        """(format, model, check) for every cell of the matrix, in display order."""
        return [(fmt, model, check.id) for fmt, models in self.models.items() for model in models
                for check in CHECKS if check.id in self.checks and (fmt in check.formats or self._shows_unsupported(fmt, check))]

    @staticmethod
    def _shows_unsupported(fmt: str, check: Check) -> bool:
        """A text format shows the text checks it lacks (as "not supported by the format")."""
        return fmt in TEXT_FORMATS and bool(set(check.formats) & set(TEXT_FORMATS))

    def to_json(self) -> dict[str, Any]:
        return {"models": self.models, "checks": list(self.checks), "thorough": self.thorough, "ttft_budget_s": self.ttft_budget_s}


@dataclass
class Timing:
    """One streamed call's time to first token and rate (what the latency section reads)."""

    ttft_s: float | None
    tokens_per_s: float | None


@dataclass
class CheckResult:
    format: str
    model: str
    check: str
    status: str
    reason: str = ""
    expected: str = ""
    arrived: str = ""
    seconds: float = 0.0
    """The probe's own time, from its first call to its verdict."""
    tag: str = ""
    """A kind of failure the summary line counts ("no-done", "no-reasoning-tokens", ...)."""
    timings: list[Timing] = field(default_factory=list)
    exchanges: list[Exchange] = field(default_factory=list)
    compatible: str = ""
    """The compatible verdict (what the official clients accept; `clients.judge`): "" until judged."""
    breaks: tuple[str, ...] = ()
    """The official clients this cell breaks (`clients.CLIENTS` ids)."""

    @property
    def key(self) -> tuple[str, str, str]:
        return self.format, self.model, self.check

    def verdict(self, kind: str = "strict") -> str:
        """The strict status, or the compatible one (the strict one until judged)."""
        return (self.compatible or self.status) if kind == COMPATIBLE else self.status


@dataclass
class LoadStep:
    concurrency: int
    requests: int
    ttft_p50_s: float | None
    ttft_p95_s: float | None
    tokens_per_s: float | None
    errors: dict[str, int]
    seconds: float

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def error_rate(self) -> float:
        return self.error_count / self.requests if self.requests else 0.0


@dataclass
class LoadRun:
    format: str
    model: str
    steps: list[LoadStep] = field(default_factory=list)
    stopped_because: str = ""


@dataclass
class Report:
    gateway: str
    scope: Scope
    created: float = field(default_factory=time.time)
    results: list[CheckResult] = field(default_factory=list)
    finished: bool = False
    stopped: bool = False
    wall_s: float = 0.0
    load: LoadRun | None = None

    def by_key(self) -> dict[tuple[str, str, str], CheckResult]:
        return {result.key: result for result in self.results}

    def counts(self, verdict: str = STRICT) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for result in self.results:
            status = result.verdict(verdict)
            counts[status] = counts.get(status, 0) + 1
        return counts
