"""`create_app(config)`: the demo gateway's ASGI app (routes, auth, faults, error bodies)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from playground.demo_gateway import chat, embeddings
from playground.demo_gateway import images
from playground.demo_gateway.catalog import list_models
from playground.demo_gateway.common import HTTPProblem, bearer_key, openai_error, read_json_object
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.faults import (
    ECHO_FAULTS,
    HTML_PAGE,
    LONG_RETRY_AFTER_S,
    Fault,
    FaultInjector,
    broken_body,
    marker_in,
    parse_fault,
    prompt_text,
)
from playground.demo_gateway.messages import MessagesEndpoints
from playground.demo_gateway.text import ECHOED_KEY, STARTING_WORD
from playground.demo_gateway.native import NativeEndpoints, native_error
from playground.demo_gateway.pacing import PACE_HEADER, REQUEST_PACE, parse_pace
from playground.demo_gateway.quirks import active, on_answer, on_request, parse_quirks, starting_word
from playground.demo_gateway.report_quirks import with_report_quirks
from playground.demo_gateway.responses import ResponsesEndpoints
from playground.demo_gateway.video import VideoEndpoints

Handler = Callable[..., Awaitable[Response]]
AUTH_MESSAGE = "Invalid or missing API key. The demo gateway's key is set by DEMO_API_KEY."


def messages_error(status: int, error_type: str, message: str, _code: str | None = None, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"type": "error", "error": {"type": error_type, "message": message}}, status, headers=headers)


def count_tokens_auth_error(status: int, _type: str, message: str, _code: str | None = None, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": {"message": message, "type": "invalid_request_error"}}, status, headers=headers)


@dataclass(frozen=True)
class ErrorStyle:
    """How one interface words its errors (the spec gives each interface its own table)."""

    render: Callable[..., Response]
    invalid: str
    authentication: str
    faults: dict[int, tuple[int, str]]
    render_auth: Callable[..., Response] | None = None


OPENAI_STYLE = ErrorStyle(openai_error, "invalid_request_error", "authentication_error",
                          {429: (429, "rate_limit_error"), 500: (500, "upstream_error"), 503: (503, "service_unavailable")})
MESSAGES_STYLE = ErrorStyle(messages_error, "invalid_request", "authentication_error",
                            {429: (429, "rate_limit_error"), 500: (500, "upstream_error"), 503: (500, "svc_api_error")})
NATIVE_STYLE = ErrorStyle(native_error, "invalid", "unauthenticated", {429: (429, "rate_limit"), 500: (500, "internal"), 503: (503, "unavailable")})
COUNT_TOKENS_STYLE = ErrorStyle(messages_error, "invalid_request_error", "invalid_request_error", MESSAGES_STYLE.faults, count_tokens_auth_error)


def query_param(request: Request, name: str) -> str:
    value = request.query_params.get(name, "").strip()
    if not value:
        raise HTTPProblem(400, "invalid", f"The query parameter {name} is required.", code="missing_parameter")
    return value


def _fault_for(request: Request, body: dict[str, Any], config: DemoConfig) -> Fault | None:
    named = request.headers.get("x-demo-fault") or marker_in(prompt_text(body)) or config.fault
    return parse_fault(named)


def create_app(config: DemoConfig | None = None) -> Starlette:
    config = config or DemoConfig()
    injector = FaultInjector()
    quirks = parse_quirks(config.quirks)
    messages = MessagesEndpoints(config)
    video = VideoEndpoints(config)
    responses = ResponsesEndpoints(config)
    native = NativeEndpoints(config)

    async def native_call(body: dict[str, Any], fault: Fault | None, request: Request) -> Response:
        model, _, operation = request.path_params["target"].rpartition(":")
        prefix = request.url.path.split("/")[1]
        if operation in ("embedContent", "batchEmbedContents"):
            return await run_in_threadpool(embeddings.native_embeddings, prefix, model, operation, body)
        if prefix == "v1":
            raise HTTPProblem(404, "not_found", f"No route POST {request.url.path} on the demo gateway (generate content is on /v1beta).")
        return await native.generate(model, operation, body, fault)

    async def list_embeddings(body: dict[str, Any], _fault: Fault | None) -> Response:
        return await run_in_threadpool(embeddings.list_embeddings, body)

    def authorized(request: Request) -> bool:
        key = bearer_key(request) or request.headers.get("x-api-key")
        return key == config.api_key

    def caller_key(request: Request) -> str | None:
        return bearer_key(request) or request.headers.get("x-api-key") or request.headers.get("x-svc-api-key") or request.query_params.get("key")

    def authorized_native(request: Request) -> bool:
        """The native endpoints also take the key as `x-svc-api-key` or `key=` (spec: Authentication)."""
        key = bearer_key(request) or request.headers.get("x-svc-api-key") or request.query_params.get("key")
        return key == config.api_key

    def json_endpoint(handler: Handler, style: ErrorStyle, pass_request: bool = False,
                      auth: Callable[[Request], bool] = authorized) -> Callable[[Request], Awaitable[Response]]:
        """`handler(body, fault)` (plus the request when `pass_request`) behind auth, faults and error bodies."""
        async def endpoint(request: Request) -> Response:
            if not auth(request):
                return (style.render_auth or style.render)(401, style.authentication, AUTH_MESSAGE, "invalid_api_key")
            raw = await request.body()
            REQUEST_PACE.set(parse_pace(request.headers.get(PACE_HEADER)))
            try:
                body = on_request(quirks, request.url.path, await read_json_object(request))
                STARTING_WORD.set(starting_word(body))
                fault = _fault_for(request, body, config)
                status = injector.status_fault(fault, raw)
                if status is not None:
                    answer_status, kind = style.faults[status]
                    headers = {"retry-after-ms": str(config.retry_after_ms), "retry-after": "1"} if status == 429 else None
                    if fault is not None and fault.name == "rate_limit_long":
                        headers = {"retry-after": str(LONG_RETRY_AFTER_S)}
                    return style.render(answer_status, kind, f"Demo fault: the gateway answered {answer_status}.", None, headers)
                if fault is not None and fault.name == "html_error":
                    return HTMLResponse(HTML_PAGE, status_code=502)
                if fault is not None and fault.name in ECHO_FAULTS:
                    ECHOED_KEY.set(caller_key(request))
                if fault is not None and fault.name == "stall" and not body.get("stream"):
                    await asyncio.sleep(config.stall_seconds)  # a whole answer that never comes in time
                answer = await (handler(body, fault, request) if pass_request else handler(body, fault))
                return broken_body(fault, on_answer(quirks, request.url.path, body, answer, config.slow_first_token_s), config.stall_seconds)
            except HTTPProblem as problem:
                kind = style.invalid if problem.error_type == "invalid" else problem.error_type
                return style.render(problem.status, kind, problem.message, problem.code)

        return with_report_quirks(endpoint, lambda path, body: active(quirks, path, body)) if quirks else endpoint

    def get_endpoint(handler: Callable[..., Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        """`handler(request)` for a GET route, behind auth, with OpenAI-style errors."""
        async def endpoint(request: Request) -> Response:
            if not authorized(request):
                return openai_error(401, "authentication_error", AUTH_MESSAGE, "invalid_api_key")
            try:
                return await handler(request)
            except HTTPProblem as problem:
                kind = OPENAI_STYLE.invalid if problem.error_type == "invalid" else problem.error_type
                return openai_error(problem.status, kind, problem.message, problem.code)

        return endpoint

    async def video_file(request: Request) -> Response:
        return await video.file(request.path_params["task_id"], request.path_params["token"])

    async def models(request: Request) -> Response:
        if not authorized(request):
            return openai_error(401, "authentication_error", AUTH_MESSAGE, "invalid_api_key")
        if not config.list_models:
            return openai_error(404, "not_found_error", "No route GET /v1/models on this gateway.")
        return JSONResponse(list_models())

    async def health(_: Request) -> Response:
        return JSONResponse({"status": "ok", "service": "demo gateway"})

    async def not_found(request: Request, _exc: Exception) -> Response:
        return openai_error(404, "not_found_error", f"No route {request.method} {request.url.path} on the demo gateway.")

    routes = [
        Route("/health", health),
        Route("/v1/models", models),
        Route("/v1/chat/completions", json_endpoint(lambda body, fault: chat.handle(body, config, fault), OPENAI_STYLE), methods=["POST"]),
        Route("/v1/responses", json_endpoint(responses.create, OPENAI_STYLE, pass_request=True), methods=["POST"]),
        Route("/v1/messages", json_endpoint(messages.create, MESSAGES_STYLE), methods=["POST"]),
        Route("/v1beta/models/{target}", json_endpoint(native_call, NATIVE_STYLE, pass_request=True, auth=authorized_native), methods=["POST"]),
        Route("/v1/models/{target}", json_endpoint(native_call, NATIVE_STYLE, pass_request=True, auth=authorized_native), methods=["POST"]),
        Route("/v1/embeddings", json_endpoint(list_embeddings, OPENAI_STYLE), methods=["POST"]),
        Route("/v1/messages/count_tokens", json_endpoint(messages.count_tokens, COUNT_TOKENS_STYLE), methods=["POST"]),
        Route("/v1/images/generations", json_endpoint(images.generate, OPENAI_STYLE), methods=["POST"]),
        Route("/v1/video/generations", json_endpoint(video.submit, OPENAI_STYLE, pass_request=True), methods=["POST"]),
        Route("/v1/video/generations/download", get_endpoint(lambda request: video.download(query_param(request, "id")))),
        Route("/v1/video/generations/{task_id}", get_endpoint(lambda request: video.query(request.path_params["task_id"]))),
        Route("/files/video/{task_id}/{token}.mp4", video_file),
    ]
    return Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})
