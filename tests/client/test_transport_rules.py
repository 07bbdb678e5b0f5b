"""Backoff, Retry-After, redaction and error mapping rules of the transport and error tree."""

from __future__ import annotations

import httpx
import pytest

from playground.client import errors
from playground.client.exchange import redact_headers, redact_url
from playground.client.transport import Connection, backoff_delay


@pytest.mark.parametrize(("attempt", "low", "high"), [(0, 0.375, 0.625), (1, 0.75, 1.25), (5, 6.0, 10.0), (9, 6.0, 10.0)])
def test_backoff_doubles_with_jitter_and_caps_at_8s(attempt: int, low: float, high: float) -> None:
    delays = {backoff_delay(attempt) for _ in range(50)}
    assert all(low <= d <= high for d in delays) and len(delays) > 1


def test_retry_after_headers_win_but_are_capped() -> None:
    assert backoff_delay(0, httpx.Headers({"retry-after-ms": "250"})) == 0.25
    assert backoff_delay(0, httpx.Headers({"retry-after": "3"})) == 3.0
    assert backoff_delay(0, httpx.Headers({"retry-after-ms": "250", "retry-after": "9"})) == 0.25
    assert backoff_delay(0, httpx.Headers({"retry-after": "600"})) <= 0.625
    assert backoff_delay(0, httpx.Headers({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})) <= 0.625


def test_redaction_of_headers_urls_and_text() -> None:
    shown = redact_headers({"Authorization": "Bearer sk-123", "x-svc-api-key": "sk-123", "Accept": "json"})
    assert shown == {"Authorization": "Bearer ***", "x-svc-api-key": "***", "Accept": "json"}
    assert redact_url("http://h/v1beta/models/m:streamGenerateContent?alt=sse&key=sk-123") == "http://h/v1beta/models/m:streamGenerateContent?alt=sse&key=***"
    assert Connection("http://h", "sk-123456").redact("bad key sk-123456 given") == "bad key *** given"


@pytest.mark.parametrize(
    ("status", "body", "cls", "message", "kind"),
    [
        (400, {"error": {"type": "invalid_request", "message": "max_tokens missing"}}, errors.BadRequestError, "max_tokens missing", "invalid_request"),
        (401, {"error": {"message": "bad key", "type": "authentication_error"}}, errors.AuthenticationError, "bad key", "authentication_error"),
        (401, {"type": "error", "error": {"type": "invalid_request_error", "message": "x-api-key"}}, errors.AuthenticationError, "x-api-key", "invalid_request_error"),
        (404, {"error": {"message": "no model", "code": "model_not_found"}}, errors.NotFoundError, "no model", "model_not_found"),
        (429, {"error": {"type": "rate_limit_error", "message": "slow down"}}, errors.RateLimitError, "slow down", "rate_limit_error"),
        (500, {"error": {"type": "upstream_error", "message": "boom"}}, errors.ServerError, "boom", "upstream_error"),
        (502, "<html>Bad gateway</html>", errors.ServerError, "Bad gateway", None),
        (503, {"detail": "maintenance"}, errors.ServerError, "maintenance", None),
        (418, {}, errors.APIStatusError, "no error message", None),
    ],
)
def test_status_and_body_map_to_the_error_tree(status: int, body: object, cls: type, message: str, kind: str | None) -> None:
    error = errors.error_from_status(status, body)
    assert type(error) is cls and error.status == status and error.error_type == kind
    assert message in str(error) and f"HTTP {status}" in str(error)
