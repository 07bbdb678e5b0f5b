"""The spec's error rules per format, as the error checks judge them: which HTTP statuses a bad
body, a wrong key, an unknown model and a rate limit get, and the shape of the error body, each
rule with the spec section it comes from (named in every failure).

- chat completions (Errors, Chat completions): the SDK's kinds: AuthenticationError is HTTP 401,
  NotFoundError 404; the body the OpenAI error object `{error {message, type|code}}`;
- messages (Errors, Messages interface): `{error {type, message}}`, the type the table gives for
  the status (400 `invalid_request`, the vendor's `invalid_request_error` accepted; 401
  `authentication_error`; 429 `rate_limit_error`; 500 `upstream_error` / `svc_api_error`);
- count_tokens (Errors, Token counting): a missing parameter `{type "error", error {type
  "invalid_request_error", message}}`, a wrong key `{error {message, type "invalid_request_error"}}`;
- native (Errors, Native text): an HTTP status and `error.message`;
- responses, embeddings, images: not shown by the spec: an error object with a message and a type
  or code, as the OpenAI-style interfaces send (be liberal in what is accepted).
"""

from __future__ import annotations

from typing import Any

from playground.client.texts import Text

BAD_BODY, UNKNOWN_MODEL, WRONG_KEY, RATE_LIMIT = "bad_body", "unknown_model", "wrong_key", "rate_limit"
COUNT_TOKENS = "count_tokens"
"""The messages format's token counting, which has its own error bodies."""

MESSAGES_TYPES_BY_STATUS = {400: frozenset({"invalid_request", "invalid_request_error"}), 401: frozenset({"authentication_error"}),
                            429: frozenset({"rate_limit_error"}), 500: frozenset({"upstream_error", "svc_api_error"})}
MESSAGES_ERROR_TYPES = frozenset({"invalid_request", "invalid_request_error", "authentication_error", "rate_limit_error",
                                  "upstream_error", "svc_api_error", "not_found_error", "permission_error"})
OPENAI_STYLE = frozenset({"chat", "responses", "embeddings", "images"})

SECTION_CHAT = Text("report.spec.errors_chat")
SECTION_MESSAGES = Text("report.spec.errors_messages")
SECTION_COUNT_TOKENS = Text("report.spec.errors_count_tokens")
SECTION_NATIVE = Text("report.spec.errors_native")
SECTION_NOT_SHOWN = Text("report.spec.errors_not_shown")
SECTION_AUTH = Text("report.spec.authentication")


def section(fmt: str) -> str:
    """The spec section whose rules an error of `fmt` is judged by."""
    return {"chat": SECTION_CHAT, "messages": SECTION_MESSAGES, COUNT_TOKENS: SECTION_COUNT_TOKENS,
            "native": SECTION_NATIVE}.get(fmt, SECTION_NOT_SHOWN)


def statuses(fmt: str, kind: str) -> tuple[int, ...]:
    """The HTTP statuses the spec allows for `kind` of error on `fmt` (the first is the usual one)."""
    if kind == RATE_LIMIT:
        return (429,)
    if kind == WRONG_KEY:
        return (401,) if fmt in ("chat", "messages") else (401, 403)
    if kind == UNKNOWN_MODEL:
        return (404,) if fmt == "chat" else (404, 400)
    return (400,) if fmt in ("messages", COUNT_TOKENS) else (400, 422)


def status_section(fmt: str, kind: str) -> str:
    """Where the status rule of `kind` on `fmt` comes from."""
    return SECTION_AUTH if kind == WRONG_KEY and fmt not in ("chat", "messages") else section(fmt)


def body_problem(fmt: str, kind: str, status: int, body: Any) -> str | None:
    """Why an error body is not the one the spec draws for `fmt` (None: it is)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return Text("report.errors.no_error_object")
    if not isinstance(error.get("message"), str) or not error["message"].strip():
        return Text("report.errors.no_message")
    if fmt == "messages":
        allowed = MESSAGES_TYPES_BY_STATUS.get(status, MESSAGES_ERROR_TYPES)
        if error.get("type") not in allowed:
            return Text("report.errors.type_not_for_status", type=repr(error.get("type")), status=status, allowed=" / ".join(sorted(allowed)))
    if fmt == COUNT_TOKENS:
        if error.get("type") != "invalid_request_error":
            return Text("report.errors.type_not_for_status", type=repr(error.get("type")), status=status, allowed="invalid_request_error")
        if kind == BAD_BODY and body.get("type") != "error":
            return Text("report.errors.count_tokens_not_typed_error", type=repr(body.get("type")))
    if fmt in OPENAI_STYLE and not isinstance(error.get("type") or error.get("code"), str):
        return Text("report.errors.no_type_or_code")
    return None
