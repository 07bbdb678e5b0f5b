"""The exception tree of the client.

    GatewayError                      anything the client raises on purpose
    ├── RequestValidationError        a request broke the spec's rules; nothing was sent
    ├── APIConnectionError            no answer: refused, reset, DNS, TLS
    │   └── APITimeoutError           connect timeout, or the server went silent
    ├── UnexpectedResponseError       a success status whose body is not what the interface returns
    ├── PromptBlockedError            the gateway refused the prompt itself (native blockReason)
    ├── GatewayMovedError             a redirect the client does not follow (another host, a POST after 301/302/303)
    ├── APIStatusError                the gateway answered with an error status
    │   ├── ErrorInAnswerError        an error object inside a success (HTTP 200) answer
    │   ├── BadRequestError           400, 422
    │   ├── AuthenticationError       401, 403
    │   ├── NotFoundError             404 (unknown model or path)
    │   ├── RateLimitError            429
    │   └── ServerError               5xx (upstream or gateway failure)
    ├── StreamError                   a stream went wrong after it started
    │   ├── IncompleteStreamError     ended (or broke) before its end marker
    │   ├── StreamEventError          the gateway sent an error event inside the stream
    │   └── MalformedEventError       an event could not be parsed
    ├── VideoTaskFailed               a video task ended `failed` (keeps error.code, error.message)
    ├── PollError                     polling a video task gave up
    │   ├── PollDeadlineError         the task did not finish before the deadline
    │   └── TooManyFailedPolls        several queries in a row failed
    └── DownloadError                 a finished video could not be saved
        ├── CorruptDownloadError      bad base64, not an MP4, or sizes that do not match
        └── DownloadTooLargeError     bigger than the size cap

Every error has a `user_message` that says what happened and what to do. Error text never
contains the API key (see `redact`).
"""

from __future__ import annotations

import html
import re
from typing import Any


class GatewayError(Exception):
    """Base class; `str(err)` is safe to show to a person."""

    title = "Something went wrong"
    exchange: Any = None
    """The call's `transport.Exchange` when there was one (the inspector shows it)."""
    partial: Any = None
    """The result so far (`results.TextResult`) when the error ended a stream that had started."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def hint(self) -> str:
        """What to do next. Read-only: a subclass sets a constant `hint = "..."` or computes it in
        a property of its own."""
        return "Check the request and try again."

    @property
    def user_message(self) -> str:
        return f"{self.message} {self.hint}".strip()


class RequestValidationError(GatewayError):
    title = "Please check the request"
    hint = "Fix what is named above and try again; nothing was sent."

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("Invalid request: " + "; ".join(problems) + ".")


class APIConnectionError(GatewayError):
    title = "Could not reach the gateway"
    hint = "Check the base URL and that the gateway is running, then retry."


class APITimeoutError(APIConnectionError):
    title = "The gateway did not answer in time"
    hint = "The gateway did not answer in time; retry, or raise the timeout in the settings."


class UnexpectedResponseError(GatewayError):
    """The gateway said success but the body is not the interface's answer (not JSON, an HTML
    page, an event stream, an error object, or the wrong shape)."""

    title = "The gateway's answer could not be read"
    hint = "The inspector shows what arrived; check the base URL points at the gateway, then retry."


class PromptBlockedError(GatewayError):
    """The gateway refused the prompt before generating anything (native
    `promptFeedback.blockReason`). Not a failure of the call: the same prompt is blocked again."""

    title = "The prompt was blocked"
    hint = "Sending the same prompt again will be blocked again: change the prompt (or the safety settings) first."
    partial: Any = None
    """The result so far (its usage: the prompt's tokens were counted)."""

    def __init__(self, reason: str, detail: Any = None) -> None:
        self.reason = reason
        shown = f": {detail}" if isinstance(detail, str) and detail.strip() else ""
        super().__init__(f"The gateway blocked the prompt before answering (reason: {reason}){shown}.")
class GatewayMovedError(GatewayError):
    """The gateway answered with a redirect that is not followed: to another host (the key is not
    sent there), a POST after 301/302/303 (it would arrive as a GET), too many hops, or no target."""

    title = "The gateway moved"
    hint = "Put the new address in the Base URL box of the connection panel (if you trust it), then retry."

    def __init__(self, message: str, status: int, target: str | None = None, suggested_base_url: str | None = None) -> None:
        self.status = status
        self.target = target
        self.suggested_base_url = suggested_base_url
        super().__init__(message)


class APIStatusError(GatewayError):
    """An HTTP error answer. Keeps the gateway's own error type and message."""

    title = "The gateway returned an error"

    def __init__(self, status: int, message: str, error_type: str | None = None, body: Any = None) -> None:
        self.status = status
        self.error_type = error_type
        self.body = body
        kind = f" {error_type}" if error_type and error_type != str(status) else ""
        super().__init__(f"HTTP {status}{kind}: {message}")

    @property
    def hint(self) -> str:
        return "Check the request parameters."


class ErrorInAnswerError(APIStatusError):
    """A success status whose body is an error object: the gateway accepted the request, then
    reported that it failed."""

    title = "The gateway reported an error inside a successful answer"
    hint = "The request was accepted, then failed at the gateway or its upstream: retry, or change the request if it fails again."

    def __init__(self, status: int, message: str, error_type: str | None = None, body: Any = None) -> None:
        super().__init__(status, message, error_type, body)
        kind = f"{error_type}: " if error_type else ""
        self.message = f"{kind}{message} (inside an HTTP {status} answer)"
        self.args = (self.message,)


_IN_ANSWER: dict[type[APIStatusError], type[ErrorInAnswerError]] = {}


def in_answer(cls: type[APIStatusError]) -> type[ErrorInAnswerError]:
    """The error-inside-a-success class that is also `cls` (a code 500 in the body is a ServerError too)."""
    if cls is APIStatusError or issubclass(cls, ErrorInAnswerError):
        return ErrorInAnswerError
    if cls not in _IN_ANSWER:
        _IN_ANSWER[cls] = type(f"{cls.__name__}InAnswer", (ErrorInAnswerError, cls), {})
    return _IN_ANSWER[cls]


class BadRequestError(APIStatusError):
    title = "The gateway rejected the request"
    hint = "The gateway rejected the request: check the parameters."


class AuthenticationError(APIStatusError):
    title = "The API key was not accepted"
    hint = "Check the API key in the connection panel."


class NotFoundError(APIStatusError):
    title = "Not found on the gateway"

    @property
    def hint(self) -> str:
        url = getattr(self.exchange, "url", "") or ""
        if "/video/generations/" in url:
            return "The gateway knows no task with this id: check the id, and that it was made on this gateway with this key."
        if url.rstrip("/").endswith("/v1/models"):
            return "This gateway does not list its models."
        return "Check the model name and the base URL (the gateway has no such model or path)."


class RateLimitError(APIStatusError):
    title = "Too many requests"
    retry_after: float | None = None
    """Seconds the gateway asked to wait (Retry-After), when it said."""

    @property
    def hint(self) -> str:
        if self.retry_after is not None:
            return f"The gateway asks to wait about {self.retry_after:.0f} s before trying again."
        return "The gateway is rate limiting; wait a moment and retry."


class ServerError(APIStatusError):
    title = "The gateway failed"
    hint = "The gateway or its upstream failed; retry in a moment."


class StreamError(GatewayError):
    """Something went wrong inside a stream; the output received so far is kept by the caller."""

    title = "The reply stopped early"
    partial: Any = None
    """The result so far (`results.TextResult`), attached by the stream."""

    @property
    def hint(self) -> str:
        partial = self.partial
        if partial is not None and (getattr(partial, "text", None) or getattr(partial, "reasoning", None) or getattr(partial, "tool_calls", None)):
            return "The partial output is kept; press Retry to send again."
        return "Nothing of the reply arrived; press Retry to send again."


class IncompleteStreamError(StreamError):
    pass


class StreamEventError(StreamError):
    title = "The gateway reported an error during the reply"

    def __init__(self, message: str, error_type: str | None = None) -> None:
        self.error_type = error_type
        kind = f" ({error_type})" if error_type else ""
        super().__init__(f"The gateway reported an error in the stream{kind}: {message}")


class MalformedEventError(StreamError):
    title = "The gateway sent something unreadable"


class VideoTaskFailed(GatewayError):
    title = "The video job failed"
    hint = "Change the prompt or the parameters and submit again."

    def __init__(self, task_id: str, code: int | None, message: str) -> None:
        self.task_id = task_id
        self.code = code
        shown = f" (code {code})" if code is not None else ""
        super().__init__(f"Video task {task_id} failed{shown}: {message}")


class PollError(GatewayError):
    title = "Stopped checking on the video job"
    hint = "The job may still be running on the gateway: paste its task id under Resume to check again."


class PollDeadlineError(PollError):
    pass


class TooManyFailedPolls(PollError):
    pass


class DownloadError(GatewayError):
    title = "The video could not be saved"
    hint = "The video was not saved; try the download again."


class CorruptDownloadError(DownloadError):
    pass


class DownloadTooLargeError(DownloadError):
    title = "The video is too large"
    hint = "Raise the size cap if you trust this gateway, or pick a shorter or smaller video."


_STATUS_CLASSES: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: AuthenticationError,
    404: NotFoundError,
    422: BadRequestError,
    429: RateLimitError,
}


def error_from_status(status: int, body: Any) -> APIStatusError:
    """Map an HTTP status and a (decoded or raw) error body to the right exception."""
    message, error_type = extract_error(body)
    if not message:
        message = "no error message in the response"
    if status < 400:
        return ErrorInAnswerError(status, message, error_type, body)
    return _class_for(status)(status, message, error_type, body)


def _status_code(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 6:
        return int(value)
    return None


def error_in_answer(body: Any, answer_keys: tuple[str, ...] = ()) -> APIStatusError | None:
    """The error a gateway put inside a success (HTTP 200) answer, or None.

    Recognises `{"error": {...}}` / `{"error": "text"}` and the envelope some gateways wrap every
    answer in, `{"code": <not 0 or 200>, "msg" | "message": ..., "data": null}`. A body that
    carries one of `answer_keys` (with a value) is an answer, not an error. The error keeps the
    gateway's own message and code; its class follows that code when it is an HTTP error code."""
    if not isinstance(body, dict) or any(body.get(key) is not None for key in answer_keys):
        return None
    if body.get("error"):
        inner = body["error"]
        code = _status_code(inner.get("code")) if isinstance(inner, dict) else None
        message, error_type = extract_error(body)
        cls = _class_for(code) if code is not None and 400 <= code < 600 else APIStatusError
        return in_answer(cls)(200, message or "no error message in the response", error_type or (f"code {code}" if code else None), body)
    code = _status_code(body.get("code", body.get("status_code")))
    said = body.get("msg") if body.get("msg") is not None else body.get("message")
    if code is None or code in (0, 200) or not isinstance(said, (str, int, float)) or body.get("data"):
        return None
    return in_answer(_class_for(code))(200, plain_excerpt(str(said)) or "no error message in the response", f"code {code}", body)


def _class_for(code: int) -> type[APIStatusError]:
    return _STATUS_CLASSES.get(code) or (ServerError if code >= 500 else APIStatusError)


def extract_error(body: Any) -> tuple[str, str | None]:
    """Pull (message, type) out of the error shapes gateways send.

    Handles `{"error": {"message", "type"}}`, `{"type": "error", "error": {...}}`,
    `{"error": "text"}`, `{"message": ...}`, `{"detail": ...}` and plain text.
    """
    if isinstance(body, dict):
        inner = body.get("error")
        if isinstance(inner, dict):
            message = inner.get("message") or inner.get("detail") or ""
            return str(message), _label(inner)
        if isinstance(inner, str):
            return inner, _label(body)
        for key in ("message", "detail"):
            if body.get(key):
                return str(body[key]), _label(body)
        return "", None
    if isinstance(body, (bytes, bytearray)):
        body = body.decode("utf-8", "replace")
    if isinstance(body, str):
        return plain_excerpt(body), None
    return "", None


def _label(error: dict[str, Any]) -> str | None:
    """The error's name: its `type`, else a named `code` (`server_error`), else a `status` name
    (`UNAVAILABLE`); the generic type "error" and numeric codes (the HTTP status again) are no
    name, unless nothing else is given."""
    for key in ("type", "code", "status"):
        value = error.get(key)
        if isinstance(value, str) and value.strip() and value != "error" and not value.isdigit():
            return value
    code = error.get("code")
    return str(code) if isinstance(code, int) and not isinstance(code, bool) else None


EXCERPT_CHARS = 300
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAGS = re.compile(r"<(script|style)[^>]*>.*?</\1>|<[^>]+>", re.IGNORECASE | re.DOTALL)


def plain_excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """Upstream text as a short plain line: an HTML page becomes its title (or its text)."""
    if "<" in text and ">" in text:
        title = _TITLE.search(text)
        text = title.group(1) if title else _TAGS.sub(" ", text)
        text = html.unescape(text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
