"""Fetching a video URL: redirects are followed (CDNs use them) and no key is ever sent."""

from __future__ import annotations

from pathlib import Path

import httpx

from playground.client.transport import Transport
from playground.client.video import VideoAPI, VideoTask

CLIP = (Path(__file__).resolve().parents[2] / "assets" / "video" / "demo-1x1.mp4").read_bytes()


async def test_redirects_are_followed_without_credentials(tmp_path: Path) -> None:
    seen: list[httpx.Request] = []

    def cdn(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/signed/v.mp4":
            return httpx.Response(302, headers={"location": "https://cdn.example/real/v.mp4"})
        return httpx.Response(200, content=CLIP, headers={"content-type": "video/mp4"})

    transport = Transport(http=httpx.AsyncClient(transport=httpx.MockTransport(cdn)))
    saved = await VideoAPI(transport).save_result(None, VideoTask("vidb-1", "succeeded", url="https://files.example/signed/v.mp4"), tmp_path)  # type: ignore[arg-type]
    assert saved.path.read_bytes() == CLIP
    assert [str(r.url) for r in seen] == ["https://files.example/signed/v.mp4", "https://cdn.example/real/v.mp4"]
    assert all("authorization" not in r.headers for r in seen)
    await transport.aclose()
