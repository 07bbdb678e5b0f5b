"""Client readiness: which deviations from the spec break the official SDKs, read from their source.

A report's cell has two verdicts. The *strict* one is the probe's (what the spec says). The
*compatible* one asks what real clients accept: a failed cell whose deviation (its `tag`) every
official client of its format tolerates passes compatibly; any other failed cell fails both ways.
A failure this table does not list (a wrong answer, an ignored field, a wrong error status) is
counted against every client of its format: no client can work around what the spec promises and
the gateway does not do. A format no client here speaks (video) keeps its strict verdict.

`REQUIREMENTS` says, per client and format, for each deviation a probe tags, whether the client
breaks, with the file and function of the SDK it comes from (`READ_FROM`: the versions read,
pinned in requirements-dev.txt). tests/report/test_client_readiness.py runs each real SDK against
the demo gateway with the deviation planted (`DEMO_QUIRKS`) and checks it breaks exactly as said.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playground.client.report.model import FAIL, PASS, CheckResult, Report
from playground.client.texts import Text

OPENAI, ANTHROPIC, GENAI = "openai", "anthropic", "google-genai"
READ_FROM = {OPENAI: "3.54.0", ANTHROPIC: "2.12.0", GENAI: "3.3.0"}
"""The SDK versions whose source `REQUIREMENTS` was read from."""
READY, NOT_READY, NOT_CHECKED = "ready", "not_ready", "not_checked"


@dataclass(frozen=True)
class Client:
    id: str
    formats: tuple[str, ...]
    """The report's formats this client speaks."""


CLIENTS: tuple[Client, ...] = (
    Client(OPENAI, ("chat", "responses", "embeddings", "images")),
    Client(ANTHROPIC, ("messages",)),
    Client(GENAI, ("native", "embeddings-native")),
)
CLIENTS_BY_ID = {client.id: client for client in CLIENTS}


@dataclass(frozen=True)
class Requirement:
    """Whether `client` breaks, on `formats`, when a gateway shows `deviation` (a probe's failure tag)."""

    client: str
    formats: tuple[str, ...]
    deviation: str
    breaks: bool
    source: str
    """Where in the SDK's source this comes from: "file · function"."""
    why: Text


def _req(client: str, formats: tuple[str, ...], deviation: str, breaks: bool, source: str) -> Requirement:
    return Requirement(client, formats, deviation, breaks, source, Text(f"report.clients.why.{client.replace('-', '_')}.{deviation.replace('-', '_')}"))


REQUIREMENTS: tuple[Requirement, ...] = (
    _req(OPENAI, ("chat",), "no-done", False, "openai/_streaming.py · Stream.__stream__"),
    _req(OPENAI, ("chat",), "no-usage", False, "openai/types/chat/chat_completion_chunk.py · ChatCompletionChunk.usage"),
    _req(OPENAI, ("responses",), "no-usage", False, "openai/types/responses/response.py · Response.usage"),
    _req(ANTHROPIC, ("messages",), "no-usage", True, "anthropic/lib/streaming/_messages.py · accumulate_event"),
    _req(GENAI, ("native",), "no-usage", False, "google/genai/types.py · GenerateContentResponse.usage_metadata"),
    _req(OPENAI, ("chat", "responses"), "slow-first-token", False, "openai/_constants.py · DEFAULT_TIMEOUT"),
    _req(ANTHROPIC, ("messages",), "slow-first-token", False, "anthropic/_constants.py · DEFAULT_TIMEOUT"),
    _req(GENAI, ("native",), "slow-first-token", False, "google/genai/types.py · HttpOptions.timeout"),
    _req(OPENAI, ("chat",), "ignores-schema", True, "openai/lib/_parsing/_completions.py · _parse_content"),
    _req(OPENAI, ("chat",), "no-reasoning-tokens", False, "openai/types/completion_usage.py · CompletionTokensDetails.reasoning_tokens"),
    _req(GENAI, ("native",), "no-reasoning-tokens", False, "google/genai/types.py · GenerateContentResponseUsageMetadata.thoughts_token_count"),
)
_BY_KEY = {(r.client, fmt, r.deviation): r for r in REQUIREMENTS for fmt in r.formats}


def clients_of(fmt: str) -> list[Client]:
    return [client for client in CLIENTS if fmt in client.formats]


def requirement(client: str, fmt: str, deviation: str) -> Requirement | None:
    return _BY_KEY.get((client, fmt, deviation))


def broken_clients(result: CheckResult) -> tuple[str, ...]:
    """The clients a cell breaks: none unless it failed; a listed deviation breaks the clients
    `REQUIREMENTS` says it does, any other failure every client of the format."""
    if result.status != FAIL:
        return ()
    broken = []
    for client in clients_of(result.format):
        found = requirement(client.id, result.format, result.tag) if result.tag else None
        if found is None or found.breaks:
            broken.append(client.id)
    return tuple(broken)


def judge(result: CheckResult) -> CheckResult:
    """Fill a result's compatible verdict and the clients it breaks (from its strict verdict and tag)."""
    result.breaks = broken_clients(result)
    if result.status == FAIL and clients_of(result.format) and not result.breaks:
        result.compatible = PASS
    else:
        result.compatible = result.status
    return result


def judge_all(report: Report) -> Report:
    for result in report.results:
        judge(result)
    return report


@dataclass
class Readiness:
    """One client's row: the formats of its that the report checked, the judged cells there, and
    the failed cells that break it."""

    client: str
    formats: list[str]
    judged: int = 0
    breaking: list[CheckResult] = field(default_factory=list)

    @property
    def status(self) -> str:
        if not self.judged:
            return NOT_CHECKED
        return NOT_READY if self.breaking else READY


def readiness(report: Report) -> list[Readiness]:
    """One row per client in `CLIENTS` order (a client none of whose formats ran is "not checked")."""
    rows = []
    for client in CLIENTS:
        results = [r for r in report.results if r.format in client.formats]
        row = Readiness(client.id, [fmt for fmt in client.formats if any(r.format == fmt for r in results)])
        row.judged = sum(r.status in (PASS, FAIL) for r in results)
        row.breaking = [r for r in results if client.id in r.breaks]
        rows.append(row)
    return rows


def readiness_json(report: Report) -> list[dict[str, Any]]:
    """The rows as the report's JSON writes them, each with the requirements it was judged by."""
    return [{"client": row.client, "read_from": READ_FROM[row.client], "formats": row.formats, "status": row.status, "judged": row.judged,
             "breaking": [{"format": r.format, "model": r.model, "check": r.check, "tag": r.tag} for r in row.breaking],
             "requirements": [{"formats": list(q.formats), "deviation": q.deviation, "breaks": q.breaks, "source": q.source, "why": str(q.why)}
                              for q in REQUIREMENTS if q.client == row.client]}
            for row in readiness(report)]
