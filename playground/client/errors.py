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

from playground.client.texts import Items, Text

import html
import re
from typing import Any


class GatewayError(Exception):
    """Base class; `str(err)` is safe to show to a person."""

    title: str = Text("errors.something_went_wrong")
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
        return Text("errors.check_request_try_again")

    @property
    def user_message(self) -> str:
        return f"{self.message} {self.hint}".strip()


class ProblemsError(ValueError):
    """Input that cannot be used (a plan, a suite, a prompt, mocked tools): every problem, each
    naming what and where."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


class RequestValidationError(GatewayError):
    title = Text("errors.please_check_request")
    hint = Text("errors.fix_what_named_above_try")

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(Text("errors.invalid_request", problems=Items(problems)))


class APIConnectionError(GatewayError):
    title = Text("errors.could_not_reach_gateway")
    hint = Text("errors.check_base_url_gateway_running")


class APITimeoutError(APIConnectionError):
    title = Text("errors.gateway_did_not_answer_time")
    hint = Text("errors.gateway_did_not_answer_time_2")


class UnexpectedResponseError(GatewayError):
    """The gateway said success but the body is not the interface's answer (not JSON, an HTML
    page, an event stream, an error object, or the wrong shape)."""

    title = Text("errors.gateway_answer_could_not_read")
    hint = Text("errors.inspector_shows_what_arrived_check")


class PromptBlockedError(GatewayError):
    """The gateway refused the prompt before generating anything (native
    `promptFeedback.blockReason`). Not a failure of the call: the same prompt is blocked again."""

    title = Text("errors.prompt_blocked")
    hint = Text("errors.sending_same_prompt_again_will")
    partial: Any = None
    """The result so far (its usage: the prompt's tokens were counted)."""

    def __init__(self, reason: str, detail: Any = None) -> None:
        self.reason = reason
        shown = f": {detail}" if isinstance(detail, str) and detail.strip() else ""
        super().__init__(Text("errors.gateway_blocked_prompt_before_answering", reason=reason, shown=shown))
class GatewayMovedError(GatewayError):
    """The gateway answered with a redirect that is not followed: to another host (the key is not
    sent there), a POST after 301/302/303 (it would arrive as a GET), too many hops, or no target."""

    title = Text("errors.gateway_moved")
    hint = Text("errors.put_new_address_base_url")

    def __init__(self, message: str, status: int, target: str | None = None, suggested_base_url: str | None = None) -> None:
        self.status = status
        self.target = target
        self.suggested_base_url = suggested_base_url
        super().__init__(message)


class APIStatusError(GatewayError):
    """An HTTP error answer. Keeps the gateway's own error type and message."""

    title = Text("errors.gateway_returned_error")

    def __init__(self, status: int, message: str, error_type: str | None = None, body: Any = None) -> None:
        self.status = status
        self.error_type = error_type
        self.body = body
        kind = f" {error_type}" if error_type and error_type != str(status) else ""
        super().__init__(f"HTTP {status}{kind}: {message}")

    @property
    def hint(self) -> str:
        return Text("errors.check_request_parameters")


class ErrorInAnswerError(APIStatusError):
    """A success status whose body is an error object: the gateway accepted the request, then
    reported that it failed."""

    title = Text("errors.gateway_reported_error_inside_successful")
    hint = Text("errors.request_accepted_then_failed_gateway")

    def __init__(self, status: int, message: str, error_type: str | None = None, body: Any = None) -> None:
        super().__init__(status, message, error_type, body)
        kind = f"{error_type}: " if error_type else ""
        self.message = Text("errors.inside_http_answer", kind=kind, message=message, status=status)
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
    title = Text("errors.gateway_rejected_request")
    hint = Text("errors.gateway_rejected_request_check_parameters")


class AuthenticationError(APIStatusError):
    title = Text("errors.api_key_not_accepted")
    hint = Text("errors.check_api_key_connection_panel")


class NotFoundError(APIStatusError):
    title = Text("errors.not_found_gateway")

    @property
    def hint(self) -> str:
        url = getattr(self.exchange, "url", "") or ""
        if "/video/generations/" in url:
            return Text("errors.gateway_knows_no_task_id")
        if url.rstrip("/").endswith("/v1/models"):
            return Text("errors.gateway_does_not_list_models")
        return Text("errors.check_model_name_base_url")


class RateLimitError(APIStatusError):
    title = Text("errors.too_many_requests")
    retry_after: float | None = None
    """Seconds the gateway asked to wait (Retry-After), when it said."""

    @property
    def hint(self) -> str:
        if self.retry_after is not None:
            return Text("errors.gateway_asks_wait_about_before", retry_after=self.retry_after)
        return Text("errors.gateway_rate_limiting_wait_moment")


class ServerError(APIStatusError):
    title = Text("errors.gateway_failed")
    hint = Text("errors.gateway_upstream_failed_retry_moment")


class StreamError(GatewayError):
    """Something went wrong inside a stream; the output received so far is kept by the caller."""

    title = Text("errors.reply_stopped_early")
    partial: Any = None
    """The result so far (`results.TextResult`), attached by the stream."""

    @property
    def hint(self) -> str:
        partial = self.partial
        if partial is not None and (getattr(partial, "text", None) or getattr(partial, "reasoning", None) or getattr(partial, "tool_calls", None)):
            return Text("errors.partial_output_kept_press_retry")
        return Text("errors.nothing_reply_arrived_press_retry")


class IncompleteStreamError(StreamError):
    pass


class StreamEventError(StreamError):
    title = Text("errors.gateway_reported_error_during_reply")

    def __init__(self, message: str, error_type: str | None = None) -> None:
        self.error_type = error_type
        kind = f" ({error_type})" if error_type else ""
        super().__init__(Text("errors.gateway_reported_error_stream", kind=kind, message=message))


class MalformedEventError(StreamError):
    title = Text("errors.gateway_sent_something_unreadable")


class VideoTaskFailed(GatewayError):
    title = Text("errors.video_job_failed")
    hint = Text("errors.change_prompt_parameters_submit_again")

    def __init__(self, task_id: str, code: int | None, message: str) -> None:
        self.task_id = task_id
        self.code = code
        shown = f" (code {code})" if code is not None else ""
        super().__init__(Text("errors.video_task_failed", task_id=task_id, shown=shown, message=message))


class PollError(GatewayError):
    title = Text("errors.stopped_checking_video_job")
    hint = Text("errors.job_may_still_running_gateway")


class PollDeadlineError(PollError):
    pass


class TooManyFailedPolls(PollError):
    pass


class DownloadError(GatewayError):
    title = Text("errors.video_could_not_saved")
    hint = Text("errors.video_not_saved_try_download")


class CorruptDownloadError(DownloadError):
    pass


class DownloadTooLargeError(DownloadError):
    title = Text("errors.video_too_large")
    hint = Text("errors.raise_size_cap_if_you")


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
        message = Text("errors.no_error_message_response")
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
        return in_answer(cls)(200, message or Text("errors.no_error_message_response"), error_type or (f"code {code}" if code else None), body)
    code = _status_code(body.get("code", body.get("status_code")))
    said = body.get("msg") if body.get("msg") is not None else body.get("message")
    if code is None or code in (0, 200) or not isinstance(said, (str, int, float)) or body.get("data"):
        return None
    return in_answer(_class_for(code))(200, plain_excerpt(str(said)) or Text("errors.no_error_message_response"), f"code {code}", body)


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
