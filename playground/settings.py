"""Configuration read from the environment and an optional `.env` file.

Owns: every knob the app reads at start-up. Nothing here talks to the network.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
import os
from dataclasses import dataclass, field
from pathlib import Path

DEMO_API_KEY = "demo-key"


def _read_dotenv(path: Path) -> dict[str, str]:
    """Parse `KEY=VALUE` lines (optional quotes, `#` comments); missing file -> empty."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def _float(env: dict[str, str], name: str, default: float, *, allow_zero: bool = False) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise ValueError(f"{name} must be a number, got {raw!r}") from exc
    if value < 0 or (value == 0 and not allow_zero):
        bound = "0 or more" if allow_zero else "greater than 0"
        raise ValueError(f"{name} must be {bound}, got {raw!r}")
    return value


def default_data_dir(env: Mapping[str, str]) -> Path:
    """`PLAYGROUND_DATA_DIR`, else the user's data folder: where the local store lives."""
    return Path(env.get("PLAYGROUND_DATA_DIR", "").strip() or Path.home() / ".local" / "share" / "gateway-playground")


def _int(env: dict[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise ValueError(f"{name} must be a whole number (0 = no limit), got {raw!r}")
    return int(raw)


SPACE_PROXIES = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7")
"""Where a Space's proxy connects from: private and shared address space, never loopback."""


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _proxies(env: dict[str, str], on_space: bool) -> tuple[Network, ...]:
    """PLAYGROUND_TRUSTED_PROXIES: addresses and networks; empty: the Space's proxy on a Space, else none."""
    raw = env.get("PLAYGROUND_TRUSTED_PROXIES", "").strip()
    if raw.lower() == "none":
        return ()
    entries = [entry.strip() for entry in raw.split(",") if entry.strip()] or (list(SPACE_PROXIES) if on_space else [])
    try:
        return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)
    except ValueError:
        raise ValueError(f"PLAYGROUND_TRUSTED_PROXIES takes addresses and networks (10.0.0.0/8) separated by commas, or none; got {raw!r}") from None


@dataclass(frozen=True)
class Settings:
    """Start-up configuration. `gateway_base_url` None means: run the demo gateway."""

    gateway_base_url: str | None = None
    gateway_api_key: str | None = field(default=None, repr=False)
    connect_timeout: float = 5.0
    read_timeout: float = 60.0
    server_name: str = "127.0.0.1"
    server_port: int = 7860
    demo_token_delay: float = 0.03
    demo_api_key: str = field(default=DEMO_API_KEY, repr=False)
    demo_quirks: tuple[str, ...] = ()
    hosted: bool = False
    allowed_hosts: tuple[str, ...] = ()
    max_upload_mb: float = 50.0
    max_request_mb: float = 80.0
    requests_per_minute: int = 0
    concurrent_calls: int = 0
    video_jobs_per_session: int = 20
    upstream_concurrency: int = 128
    session_capacity: int = 500
    session_release_s: float = 180.0
    """A closed page's session state is released this many seconds after its heartbeat closed; 0 = never
    (Gradio's own: its `gr.State` values after an hour)."""
    batch_max_rows: int = 10_000
    batch_concurrency: int = 8
    uploads_per_minute: int = 0
    media_budget_mb: float = 0.0
    """The most disk the visitors' files (uploads and what the app made for them) may take; 0 = no limit."""
    file_max_age_min: float = 60.0
    """Files no live page session holds are deleted after this many minutes."""
    trusted_proxies: tuple[Network, ...] = ()
    """The proxies whose X-Forwarded-For is believed (`ui.visitor_identity`)."""
    data_dir: Path = field(default_factory=lambda: default_data_dir(os.environ))
    """Where the app keeps what must outlive a restart (batch run files)."""
    mcp_server_url: str | None = None
    """The MCP server the text tabs offer tools from by default; None means: run the demo MCP server."""
    mcp_server_token: str | None = field(default=None, repr=False)
    """Its credential (sent as a bearer token), kept like the gateway key."""
    mcp_call_timeout: float = 30.0

    @property
    def uses_demo_gateway(self) -> bool:
        return self.gateway_base_url is None

    @property
    def mode(self) -> str:
        return "hosted" if self.hosted else "local"

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, dotenv: Path | None = Path(".env")) -> Settings:
        """Read settings; real environment variables win over `.env` entries."""
        env = _read_dotenv(dotenv) if dotenv is not None else {}
        env.update(os.environ if environ is None else environ)
        base_url = env.get("GATEWAY_BASE_URL", "").strip().rstrip("/") or None
        port_raw = env.get("GRADIO_SERVER_PORT", "").strip()
        hosted = bool(env.get("SPACE_ID", "").strip()) or env.get("PLAYGROUND_HOSTED", "").strip().lower() in ("1", "true", "yes")
        allowed = tuple(h.strip() for h in env.get("GATEWAY_ALLOWED_HOSTS", "").split(",") if h.strip())
        on_space = bool(env.get("SPACE_ID", "").strip())
        return cls(
            hosted=hosted,
            allowed_hosts=allowed,
            max_upload_mb=_float(env, "PLAYGROUND_MAX_UPLOAD_MB", 50.0),
            max_request_mb=_float(env, "PLAYGROUND_MAX_REQUEST_MB", 80.0),
            requests_per_minute=_int(env, "PLAYGROUND_REQUESTS_PER_MINUTE", 30 if hosted else 0),
            concurrent_calls=_int(env, "PLAYGROUND_CONCURRENT_CALLS", 4 if hosted else 0),
            video_jobs_per_session=_int(env, "PLAYGROUND_VIDEO_JOBS_PER_SESSION", 3 if hosted else 20),
            upstream_concurrency=_int(env, "PLAYGROUND_UPSTREAM_CONCURRENCY", 64 if hosted else 128),
            session_capacity=_int(env, "PLAYGROUND_SESSION_CAPACITY", 500),
            session_release_s=_float(env, "PLAYGROUND_SESSION_RELEASE_S", 180.0, allow_zero=True),
            batch_max_rows=max(1, _int(env, "PLAYGROUND_BATCH_MAX_ROWS", 1_000 if hosted else 10_000)),
            batch_concurrency=max(1, _int(env, "PLAYGROUND_BATCH_CONCURRENCY", 4 if hosted else 8)),
            uploads_per_minute=_int(env, "PLAYGROUND_UPLOADS_PER_MINUTE", 20 if hosted else 0),
            media_budget_mb=_float(env, "PLAYGROUND_MEDIA_BUDGET_MB", 2000.0 if hosted else 0.0, allow_zero=True),
            file_max_age_min=_float(env, "PLAYGROUND_FILE_MAX_AGE_MIN", 60.0),
            trusted_proxies=_proxies(env, on_space),
            data_dir=default_data_dir(env),
            gateway_base_url=base_url,
            gateway_api_key=env.get("GATEWAY_API_KEY", "").strip() or None,
            connect_timeout=_float(env, "GATEWAY_CONNECT_TIMEOUT", 5.0),
            read_timeout=_float(env, "GATEWAY_READ_TIMEOUT", 60.0),
            server_name=env.get("GRADIO_SERVER_NAME", "").strip() or "127.0.0.1",
            server_port=int(port_raw) if port_raw else 7860,
            demo_token_delay=_float(env, "DEMO_TOKEN_DELAY", 0.03, allow_zero=True),
            demo_api_key=env.get("DEMO_API_KEY", "").strip() or DEMO_API_KEY,
            demo_quirks=tuple(q.strip() for q in env.get("DEMO_QUIRKS", "").split(",") if q.strip()),
            mcp_server_url=env.get("MCP_SERVER_URL", "").strip() or None,
            mcp_server_token=env.get("MCP_SERVER_TOKEN", "").strip() or None,
            mcp_call_timeout=_float(env, "MCP_CALL_TIMEOUT", 30.0),
        )
