"""Lab features in a real browser: clickable examples on every tab, the stream timeline."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import import_curl, load_session_file, open_tab, save_session_file

pytestmark = pytest.mark.browser


def test_chat_example_fills_the_form_and_gets_a_thinking_reply(page: Page) -> None:
    page.click("#chat-example-0")
    expect(page.locator("#chat-input textarea")).to_have_value("What has keys but can't open locks? Think it through.")
    expect(page.locator("#chat-model input")).to_have_value("gx-2.5-flash-thinking")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-chatbot")).to_contain_text("Thinking", timeout=30_000)
    expect(page.locator("#chat-metrics")).to_contain_text("finish: stop", timeout=30_000)


def test_chat_timeline_shows_every_event_and_the_validator_verdict(page: Page) -> None:
    page.fill("#chat-input textarea", "hello timeline")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-metrics")).to_contain_text("finish: stop", timeout=30_000)
    page.click("#chat-inspector")
    page.get_by_role("tab", name="Timeline").first.click()
    timeline = page.locator("#chat-inspector-timeline")
    expect(timeline).to_contain_text("follows the protocol rules", timeout=5_000)
    expect(timeline).to_contain_text("chat.completion.chunk")
    assert timeline.locator("svg line.mark").count() > 5


def test_messages_example_thinks_before_answering(page: Page) -> None:
    open_tab(page, "Messages", "#messages-input textarea")
    page.click("#messages-example-0")
    expect(page.locator("#messages-thinking input")).to_be_checked()
    page.locator("#messages-input textarea").press("Enter")
    expect(page.locator("#messages-chatbot")).to_contain_text("Thinking", timeout=30_000)
    expect(page.locator("#messages-metrics")).to_contain_text("finish: end_turn", timeout=30_000)


def test_video_example_starts_a_job(page: Page) -> None:
    open_tab(page, "Video", "#video-prompt textarea")
    page.click("#video-example-0")
    expect(page.locator("#video-prompt textarea")).to_have_value("A paper boat drifting down a rainy street, close-up")
    page.click("#video-submit")
    expect(page.locator("#video-board .video-job").first).to_contain_text("paper boat", timeout=30_000)


def test_preset_saved_in_the_browser_comes_back_after_a_reload(page: Page) -> None:
    page.click("#chat-presets")
    page.fill("#chat-system textarea", "Answer like a pirate.")
    page.fill("#chat-preset-name textarea", "pirate")
    page.click("#chat-preset-save")
    expect(page.locator("#chat-preset-status")).to_contain_text("Saved “pirate”")
    page.fill("#chat-system textarea", "")
    page.reload()
    page.wait_for_selector("#chat-input textarea")
    page.click("#chat-presets")
    page.locator("#chat-preset-pick input").click()
    page.get_by_role("option", name="pirate", exact=True).click()
    expect(page.locator("#chat-system textarea")).to_have_value("Answer like a pirate.")
    stored = page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    assert "sk-" not in stored and "pirate" not in stored  # the BrowserState value is obscured, and holds no key


def test_curl_import_opens_the_messages_tab_filled_and_sends(page: Page) -> None:
    command = """curl https://api.example.com/v1/messages \\
     --header "x-api-key: sk-pasted-0000-1111" \\
     --header "content-type: application/json" \\
     --data '{"model": "cl-haiku-4-5-20251001", "max_tokens": 777, "system": "Be brief.",
              "messages": [{"role": "user", "content": "Hello from curl"}], "metadata": {"user_id": "u-7"}}'"""
    import_curl(page, command)
    expect(page.locator("#curl-status")).to_contain_text("Opened the Messages tab")
    expect(page.locator("#messages-input textarea")).to_have_value("Hello from curl")
    expect(page.locator("#messages-model input")).to_have_value("cl-haiku-4-5-20251001")
    expect(page.locator("#messages-max-tokens input")).to_have_value("777")
    expect(page.locator("#curl-command textarea")).to_have_value("")
    assert "sk-pasted-0000-1111" not in page.locator("body").inner_text()
    # the pasted host does not resolve from here: the base URL (and so the key) stay, and the status says so
    expect(page.locator("#curl-status")).to_contain_text("does not resolve")
    page.click("#connection-panel")
    expect(page.locator("#connection-url textarea")).to_have_value("")
    expect(page.locator("#connection-key input")).to_have_value("")
    page.fill("#connection-url textarea", "")
    page.fill("#connection-key input", "")
    page.locator("#messages-input textarea").press("Enter")
    expect(page.locator("#messages-chatbot")).to_contain_text("Hello from curl", timeout=30_000)
    expect(page.locator("#messages-metrics")).to_contain_text("finish", timeout=30_000)
    page.click("#messages-inspector")
    expect(page.locator("#messages-inspector-request")).to_contain_text('"user_id": "u-7"')


def test_a_saved_session_loads_into_a_fresh_browser_and_continues(page: Page, browser: object, app_server: object, tmp_path: object) -> None:
    page.fill("#chat-system textarea", "Answer in one line.")
    page.fill("#chat-input textarea", "remember the word kumquat")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    saved = save_session_file(page, "chat", tmp_path)
    assert "sk-server-secret" not in Path(saved).read_text(encoding="utf-8")

    fresh = browser.new_context().new_page()  # type: ignore[attr-defined]
    fresh.goto(app_server.url)  # type: ignore[attr-defined]
    fresh.wait_for_selector("#chat-input textarea")
    load_session_file(fresh, "chat", saved)
    expect(fresh.locator("#chat-chatbot")).to_contain_text("remember the word kumquat")
    expect(fresh.locator("#chat-system textarea")).to_have_value("Answer in one line.")
    fresh.fill("#chat-input textarea", "and now?")
    fresh.locator("#chat-input textarea").press("Enter")
    expect(fresh.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    fresh.click("#chat-inspector")
    expect(fresh.locator("#chat-inspector-request")).to_contain_text("kumquat")
    fresh.context.close()


def test_responses_example_shows_a_reasoning_summary(page: Page) -> None:
    open_tab(page, "Responses", "#responses-input textarea")
    page.click("#responses-example-0")
    expect(page.locator("#responses-input textarea")).to_have_value("Why is the sky blue? Reason it out.")
    page.locator("#responses-input textarea").press("Enter")
    expect(page.locator("#responses-chatbot")).to_contain_text("Thinking", timeout=30_000)
    expect(page.locator("#responses-metrics")).to_contain_text("finish: completed", timeout=30_000)


def test_compare_example_runs_every_column(page: Page) -> None:
    open_tab(page, "Compare", "#compare-message textarea")
    page.click("#compare-example-0")
    expect(page.locator("#compare-message textarea")).to_have_value("What has keys but can't open locks? Answer in one sentence.")
    page.click("#compare-send")
    expect(page.locator("#compare-table")).to_contain_text("time to first token", timeout=30_000)
    expect(page.locator("#compare-chat-3 .message.bot").last).to_contain_text("keys", timeout=5_000)


def test_images_example_makes_a_wide_picture(page: Page) -> None:
    open_tab(page, "Images", "#images-prompt textarea")
    page.click("#images-example-0")
    expect(page.locator("#images-prompt textarea")).to_have_value("A lighthouse on a cliff at dusk, wide cinematic shot")
    page.click("#images-generate")
    expect(page.locator("#images-delivered")).to_contain_text("✓ ratio 16:9", timeout=30_000)
    expect(page.locator("#images-gallery img").first).to_be_visible()


def test_a_curl_command_opens_the_images_tab_and_generates(page: Page) -> None:
    import_curl(page, """curl https://gw.example/v1/images/generations -H "Authorization: Bearer sk-pasted-4242" \\
  -d '{"model": "gx-2.5-flash-image", "prompt": "A red kite over dunes", "size": "4:3", "n": 2, "user": "demo-7"}'""")
    expect(page.locator("#images-prompt textarea")).to_have_value("A red kite over dunes", timeout=30_000)
    page.click("#connection-panel")
    page.fill("#connection-url textarea", "")  # back to the demo gateway (the pasted host is not reachable here) and its key
    page.fill("#connection-key input", "")
    page.click("#images-generate")
    expect(page.locator("#images-delivered")).to_contain_text("✓ 2 of 2 images", timeout=30_000)
    assert "sk-pasted-4242" not in page.content()


def test_a_curl_command_opens_the_video_tab_with_the_model_s_fields(page: Page) -> None:
    import_curl(page, """curl https://gw.example/v1/video/generations -H "Authorization: Bearer sk-pasted-5151" \\
  -d '{"model": "vidB-3.0-fast-generate-001", "prompt": "Waves at dawn", "durationSeconds": 6, "aspectRatio": "9:16", "resolution": "720p"}'""")
    expect(page.locator("#video-prompt textarea")).to_have_value("Waves at dawn", timeout=30_000)
    expect(page.locator("#video-model input")).to_have_value("vidB-3.0-fast-generate-001")
    expect(page.locator("#video-model-notes")).to_contain_text("vidB-3.0-fast-generate-001", timeout=30_000)  # the model's change event ran: it must keep what fits
    expect(page.locator("#video-duration input")).to_have_value("6")
    expect(page.locator("#video-ratio input")).to_have_value("9:16")
    expect(page.locator("#video-resolution input")).to_have_value("720p")


def test_a_saved_video_form_loads_with_its_model_s_fields(page: Page, tmp_path: object) -> None:
    import_curl(page, """curl https://gw.example/v1/video/generations -d '{"model": "vidC2.5-t2v-preview", "prompt": "Lanterns", "duration": 10, "resolution": "1080p"}'""")
    expect(page.locator("#video-resolution input")).to_have_value("1080p", timeout=30_000)
    saved = save_session_file(page, "video", tmp_path)
    page.reload()
    open_tab(page, "Video", "#video-prompt textarea")
    expect(page.locator("#video-model input")).to_have_value("vidA-2")
    load_session_file(page, "video", saved)
    expect(page.locator("#video-model input")).to_have_value("vidC2.5-t2v-preview")
    expect(page.locator("#video-model-notes")).to_contain_text("vidC2.5-t2v-preview", timeout=30_000)
    expect(page.locator("#video-duration input")).to_have_value("10")
    expect(page.locator("#video-resolution input")).to_have_value("1080p")
    expect(page.locator("#video-prompt textarea")).to_have_value("Lanterns")
