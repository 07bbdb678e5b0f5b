"""`create_app(config)`: the demo gateway's ASGI app (routes, auth, faults, error bodies)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from playground.demo_gateway import chat
from playground.demo_gateway.catalog import list_models
from playground.demo_gateway.common import HTTPProblem, bearer_key, openai_error, read_json_object
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.faults import Fault, FaultInjector, last_user_text, marker_in, parse_fault

Handler = Callable[[dict[str, Any], DemoConfig, Fault | None], Awaitable[Response]]


def _fault_for(request: Request, body: dict[str, Any], config: DemoConfig) -> Fault | None:
    named = request.headers.get("x-demo-fault") or marker_in(last_user_text(body.get("messages"))) or config.fault
    return parse_fault(named)


def create_app(config: DemoConfig | None = None) -> Starlette:
    config = config or DemoConfig()
    injector = FaultInjector()

    def authorized(request: Request) -> bool:
        return bearer_key(request) == config.api_key

    def auth_error() -> Response:
        return openai_error(401, "authentication_error", "Invalid or missing API key. The demo gateway's key is set by DEMO_API_KEY.", "invalid_api_key")

    def json_endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            if not authorized(request):
                return auth_error()
            raw = await request.body()
            try:
                body = await read_json_object(request)
                fault = _fault_for(request, body, config)
                status = injector.status_fault(fault, raw)
                if status is not None:
                    headers = {"retry-after-ms": str(config.retry_after_ms), "retry-after": "1"} if status == 429 else None
                    kind = {429: "rate_limit_error", 500: "upstream_error", 503: "service_unavailable"}[status]
                    return openai_error(status, kind, f"Demo fault: the gateway answered {status}.", headers=headers)
                return await handler(body, config, fault)
            except HTTPProblem as problem:
                return openai_error(problem.status, problem.error_type, problem.message, problem.code)

        return endpoint

    async def models(request: Request) -> Response:
        if not authorized(request):
            return auth_error()
        return JSONResponse(list_models())

    async def health(_: Request) -> Response:
        return JSONResponse({"status": "ok", "service": "demo gateway"})

    async def not_found(request: Request, _exc: Exception) -> Response:
        return openai_error(404, "not_found_error", f"No route {request.method} {request.url.path} on the demo gateway.")

    routes = [
        Route("/health", health),
        Route("/v1/models", models),
        Route("/v1/chat/completions", json_endpoint(chat.handle), methods=["POST"]),
    ]
    return Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found})


