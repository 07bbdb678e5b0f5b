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
from playground.client.video_catalog import one_text_model_per_family

PASS, FAIL, UNSUPPORTED, SKIPPED = "pass", "fail", "unsupported", "skipped"
STATUSES = (PASS, FAIL, UNSUPPORTED, SKIPPED)

TEXT_FORMATS = ("chat", "responses", "messages", "native")
FORMATS = (*TEXT_FORMATS, "embeddings", "embeddings-native", "images", "video")
FORMAT_LABELS = {"chat": "chat completions", "responses": "responses", "messages": "messages", "native": "native",
                 "embeddings": "embeddings (list)", "embeddings-native": "embeddings (native)", "images": "images", "video": "video"}
QUICK_FORMATS = FORMATS[:-1]


@dataclass(frozen=True)
class Check:
    id: str
    label: str
    formats: tuple[str, ...]
    meaning: str
    """The pass rule in words a newcomer understands (README, tooltips, the HTML report)."""
    thorough_only: bool = False


CHECKS: tuple[Check, ...] = (
    Check("plain", "plain answer", TEXT_FORMATS, "The model answers a short question, once whole and once streamed: both have text, "
          "a finish reason and usage (input and output tokens above zero, the total their sum), and the streamed answer has the same shape."),
    Check("stream", "stream conformance", TEXT_FORMATS, "The streamed events follow the format's rules: their order, the end marker "
          "(chat: data: [DONE]), exactly one finish reason, nothing after the end."),
    Check("finish", "stop reason & max tokens", TEXT_FORMATS, "A normal answer ends with the format's 'stop' reason; with a tiny "
          "max-tokens limit it is cut and says so (length / max_tokens / MAX_TOKENS / incomplete)."),
    Check("system", "system prompt", TEXT_FORMATS, "A system prompt asking to start every answer with a code word is followed: the answer contains it."),
    Check("sampling", "temperature / top_p", TEXT_FORMATS, "temperature and top_p inside the spec's ranges are accepted and answered."),
    Check("json_schema", "JSON-schema output", ("chat",), "Asked for JSON that fits a schema, the answer is JSON valid against that schema."),
    Check("tools", "tool round trip", TEXT_FORMATS, "The model calls a function with arguments that parse, the result is sent back, "
          "and the final answer uses the result."),
    Check("tool_choice", "forced tool choice", TEXT_FORMATS, "When a tool is forced, the model calls that tool even for an unrelated question."),
    Check("thinking", "thinking / reasoning", TEXT_FORMATS, "With thinking switched on, reasoning is shown and counted in usage; "
          "where the format signs it (messages, native) the signed turn is accepted when sent back."),
    Check("image", "image input", TEXT_FORMATS, "A small picture sent with the question is accepted and counted in the input tokens."),
    Check("document", "document input", ("responses",), "A PDF sent as input_file is accepted and counted in the input tokens."),
    Check("caching", "prompt caching", ("messages",), "A long system block marked cache_control is written to the cache on the first call "
          "and read from it on the second."),
    Check("count_tokens", "count_tokens", ("messages",), "count_tokens for a request is within 10% of the input tokens the call itself reports."),
    Check("ttft", "first token in time", TEXT_FORMATS, "The first streamed token arrives within the time budget set for the run."),
    Check("bad_request", "error: bad request", TEXT_FORMATS, "A request with an out-of-range value gets 400 and the format's error body."),
    Check("unknown_model", "error: unknown model", TEXT_FORMATS, "A model that does not exist gets 404 (or 400) and the format's error body."),
    Check("auth", "error: wrong key", (*TEXT_FORMATS, "embeddings"), "A wrong API key gets 401 (or 403) and the format's error body."),
    Check("dimensions", "vector size", ("embeddings", "embeddings-native"), "Vectors have the model's documented size, and the asked size where the model takes one."),
    Check("base64", "float = base64", ("embeddings",), "The same text as float numbers and as base64 gives the same vector."),
    Check("batch", "batch = single", ("embeddings", "embeddings-native"), "Texts sent together get the same vectors as sent one by one."),
    Check("order", "order kept", ("embeddings", "embeddings-native"), "A batch in reverse order gets its vectors back in reverse order."),
    Check("ratio", "ratio and tier", ("images",), "The picture delivered has the aspect ratio and size tier asked (measured with Pillow)."),
    Check("n", "n images", ("images",), "Asking for two images delivers two."),
    Check("video", "video job", ("video",), "A video job is submitted, reports progress while polled, ends succeeded, and the "
          "download is an MP4 with a duration (its ftyp and mvhd boxes).", thorough_only=True),
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

    @property
    def key(self) -> tuple[str, str, str]:
        return self.format, self.model, self.check


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

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for result in self.results:
            counts[result.status] = counts.get(result.status, 0) + 1
        return counts
