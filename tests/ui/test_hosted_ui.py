"""Hosted mode in the UI layer: base URLs and keys people type, the API listing, limits per session."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from playground.client.gateway import GatewayClient
from playground.client.errors import RequestValidationError
from playground.demo_gateway.server import RunningGateway, free_port
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults, SessionQuotas, badge_text, resolve_connection
from playground.ui.shared.connection import test_connection as connection_status
from playground.ui.tabs.video.board import VideoBoard, VideoJob
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm
from playground.ui.tabs.video.handlers import submit_job
from tests.conftest import DEMO_KEY

DEFAULTS = ServerDefaults("http://127.0.0.1:9", "server-key", demo=True)


@pytest.mark.parametrize(("url", "words"), [
    ("http://[::1", "not a valid address"),
    ("http://gw.example:99999", "not a valid address"),
    ("http://gw.example:abc", "not a valid address"),
    ("http://gw.example\r\nX-Injected: 1", "line breaks"),
    ("http://" + "a" * 100_000 + ".example", "at most 2,048"),
    ("http://user:pass@gw.example", "user name or password"),
    ("http://gw.example/v1?", "remove the ? or # part"),
    ("http://gw.example/internal/admin?x=1", "remove the ? or # part"),
    ("http://gw.example/#frag", "remove the ? or # part"),
    ("ftp://gw.example", "must start with http"),
    ("http://:8080", "no host"),
])
def test_base_urls_that_cannot_be_used_get_a_clear_message(url: str, words: str) -> None:
    with pytest.raises(RequestValidationError) as caught:
        resolve_connection(DEFAULTS, url, "")
    assert words in str(caught.value)


@pytest.mark.parametrize("key", ["sk-\n-injected", "sk-ключ", "sk-\x00null", "k" * 5000])
def test_keys_that_cannot_be_sent_are_refused_without_echo(key: str) -> None:
    with pytest.raises(RequestValidationError) as caught:
        resolve_connection(DEFAULTS, "https://gw.example", key)
    assert key not in str(caught.value) and "API key" in str(caught.value)


def test_a_typed_key_goes_only_with_the_typed_url_and_the_server_key_only_to_its_url() -> None:
    assert resolve_connection(DEFAULTS, "", "").api_key == "server-key"
    assert resolve_connection(DEFAULTS, "https://elsewhere.example", "").api_key is None
    assert resolve_connection(DEFAULTS, "https://elsewhere.example", "sk-mine").api_key == "sk-mine"


def test_the_badge_says_which_mode() -> None:
    assert "Public app" in badge_text(ServerDefaults("http://x", hosted=True), "")
    assert "Local mode" in badge_text(DEFAULTS, "")


HOSTED_DEMO = ServerDefaults("http://127.0.0.1:9", "server-key", demo=True, hosted=True, quotas=SessionQuotas(30, 4),
                             video_jobs_per_session=3, uploads_per_minute=20)


def test_a_visitor_reads_their_limits_up_front_and_no_operator_words() -> None:
    badge = badge_text(HOSTED_DEMO, "")
    assert "Each visitor can make 30 requests a minute; 4 calls at once; 3 video jobs at once; 20 uploads a minute." in badge
    assert "per-session" not in badge
    assert not re.search(r"\b[A-Z]+_[A-Z_]+\b", badge), badge  # no setting's name
    assert "127.0.0.1" not in badge and "open **Connection**" in badge
    assert "Each visitor" not in badge_text(ServerDefaults("http://x", hosted=True, video_jobs_per_session=0), "")  # no limits set: none stated
    assert "Each visitor" not in badge_text(DEFAULTS, "")  # locally there are none to state


async def test_the_connection_status_names_the_hosted_demo_gateway_in_words(client: GatewayClient, gateway: RunningGateway) -> None:
    hosted = ServerDefaults(gateway.url, DEMO_KEY, demo=True, hosted=True)
    status, _ = await connection_status(client, hosted, "", "")
    local, _ = await connection_status(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), "", "")
    assert "Connected to the built-in demo gateway in" in status and gateway.url not in status
    assert f"Connected to `{gateway.url}` in" in local


def test_the_gradio_api_lists_nothing(gateway: RunningGateway) -> None:
    blocks = configure_queue(build_app(Settings(), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(Settings(max_upload_mb=1)))
    try:
        info = httpx.get(f"http://127.0.0.1:{port}/gradio_api/info").json()
        assert info["named_endpoints"] == {} and info["unnamed_endpoints"] == {}
        too_big = httpx.post(f"http://127.0.0.1:{port}/gradio_api/upload", files={"files": ("big.png", b"x" * 1_500_000, "image/png")})
        assert too_big.status_code == 413
        small = httpx.post(f"http://127.0.0.1:{port}/gradio_api/upload", files={"files": ("ok.png", b"x" * 1000, "image/png")})
        assert small.status_code == 200
    finally:
        blocks.close()


async def test_video_jobs_per_session(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True, video_jobs_per_session=1)
    board = VideoBoard()
    board.add(VideoJob("video_running", "vidA-2", "p", 0.0))
    values: dict[str, Any] = {name: None for name in FIELD_NAMES}
    values.update(model="vidA-2", mode="text", prompt="another", duration=4)
    outcome = await submit_job(client, defaults, board, "", "", VideoForm(**values))
    assert "PLAYGROUND_VIDEO_JOBS_PER_SESSION" in outcome.error and list(board.jobs) == ["video_running"]


async def test_a_message_over_the_visitors_limit_is_not_shown_as_sent_and_stays_in_its_box(gateway: RunningGateway, monkeypatch: Any) -> None:
    """Issue 40: refused messages stacked into one unanswered bubble. A send the visitor's limit
    refuses leaves the chat as it was (what it shows is what the next request sends), keeps the
    message in the box and says why in the banner, however often it is pressed."""
    from playground.client.limits import SessionQuota
    from playground.ui.shared.render import flatten_text
    from tests.ui.page_model import PageModel
    quota = SessionQuota(requests_per_minute=1)
    monkeypatch.setattr(SessionQuotas, "for_current_session", lambda self: quota)
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True, hosted=True, quotas=SessionQuotas(requests_per_minute=1))
    page = PageModel(build_app(Settings(hosted=True, read_timeout=10), defaults))
    draft, chat = page.component("chat-input"), page.component("chat-chatbot")
    page.set(draft, {"text": "What is 6 times 7?", "files": []})
    await page.run(page.dependency(draft, "submit"))
    answered = [flatten_text(turn["content"]) for turn in page.get(chat)]
    assert len(answered) == 2 and "42" in answered[1]
    for attempt in ("And 8 times 9?", "And 8 times 9?"):
        page.set(draft, {"text": attempt, "files": []})
        await page.run(page.dependency(draft, "submit"))
        assert [flatten_text(turn["content"]) for turn in page.get(chat)] == answered
        assert page.get(draft)["text"] == attempt
        assert "requests in the last minute" in page.get(page.component("chat-error"))
