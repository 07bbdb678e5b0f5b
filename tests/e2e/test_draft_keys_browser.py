"""The message box in a real browser asks the server nothing a person would not see (issue 41):
a message without placeholders, typed and sent, costs the send alone; the Variables panel and
the Messages token count still follow every way the box changes (typing, a send, deleting the
text, Clear, an example, a link's `?q=`); and the page's placeholder tokens are the parser's."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, Request, expect

from playground.client.batch.template import TOKEN_PATTERN
from playground.ui.conversation.draft_keys import EMPTY_MESSAGE, variables_key_js
from tests.e2e.conftest import RunningApp
from tests.e2e.pages import open_tab, settled

pytestmark = pytest.mark.browser

_SERVER_FNS = """(ids) => {
  const config = window.gradio_config;
  const byElem = Object.fromEntries(config.components.filter((c) => c.props && c.props.elem_id).map((c) => [c.props.elem_id, c.id]));
  const watched = ids.map((id) => byElem[id]);
  return config.dependencies.filter((d) => d.backend_fn && d.targets.some(([id, event]) => watched.includes(id) && event === "change")).map((d) => d.id);
}"""


def server_calls(page: Page) -> list[int]:
    """The fn_index of every server event the page starts from now on (queued or not)."""
    seen: list[int] = []

    def record(request: Request) -> None:
        if request.method == "POST" and ("/run/predict" in request.url or "/queue/join" in request.url):
            seen.append(json.loads(request.post_data or "{}").get("fn_index", -1))
    page.on("request", record)
    return seen


def watchers(page: Page, *elem_ids: str) -> set[int]:
    """The server events a `change` of these components starts."""
    return set(page.evaluate(_SERVER_FNS, list(elem_ids)))


def send(page: Page, prefix: str, text: str) -> None:
    box = page.locator(f"#{prefix}-input textarea")
    box.press_sequentially(text)
    box.press("Enter")
    expect(box).to_have_value("", timeout=30_000)
    expect(page.locator(f"#{prefix}-metrics")).to_contain_text("finish", timeout=30_000)


def test_a_message_without_placeholders_typed_and_sent_asks_only_for_the_send(page: Page) -> None:
    panel = watchers(page, "chat-input", "chat-variables-key", "chat-system")
    assert panel, "the Variables panel still has its server event"
    calls = server_calls(page)
    send(page, "chat", "Please repeat hello")
    send(page, "chat", "Please repeat again")
    page.wait_for_timeout(500)
    assert calls and not set(calls) & panel  # neither the typing nor the send's emptying of the box
    expect(page.locator("#chat-variables")).to_be_hidden()


def test_a_fresh_pages_first_send_runs_nothing_on_the_tool_call_line(page: Page) -> None:
    """The send's first update empties the tool-call line; it starts empty, so no `change` runs the
    mocked tools' and the MCP panel's events beside the first reply (each status message of an event
    costs the page a pass over its loading statuses, issue 41)."""
    tool_call = watchers(page, "chat-tool-call")
    assert tool_call, "the mocked tools and the MCP panel still follow the tool-call line"
    calls = server_calls(page)
    send(page, "chat", "Please repeat hello")
    page.wait_for_timeout(1000)
    assert calls and not set(calls) & tool_call, f"a first send ran {calls}; on the tool-call line: {tool_call}"


def test_the_variables_panel_follows_the_box_whoever_changes_it(page: Page, app_server: RunningApp) -> None:
    box, panel, table = page.locator("#chat-input textarea"), page.locator("#chat-variables"), page.locator("#chat-variables-table")
    box.press_sequentially("Weather in {{city}}")
    expect(panel).to_be_visible(timeout=30_000)
    expect(table).to_contain_text("city")
    table.locator("[data-testid=cell-0-1]").dblclick()
    page.keyboard.type("Oslo")
    page.keyboard.press("Enter")
    page.wait_for_timeout(500)
    box.press("Enter")
    expect(page.locator("#chat-chatbot .message.user").last).to_contain_text("Weather in Oslo", timeout=30_000)
    expect(box).to_have_value("")
    expect(panel).to_be_visible()  # the message just sent still counts: its value stays
    expect(table).to_contain_text("Oslo")
    box.press_sequentially("plain")
    expect(panel).to_be_hidden(timeout=30_000)
    box.fill("")  # deleted by hand: the last message sent counts again (the server says so)
    expect(panel).to_be_visible(timeout=30_000)
    expect(table).to_contain_text("Oslo")
    box.fill("Hello {{name}}")
    expect(table).to_contain_text("name", timeout=30_000)
    page.click("#chat-clear")  # a new conversation: the box emptied and nothing sent before
    expect(box).to_have_value("", timeout=30_000)
    expect(panel).to_be_hidden(timeout=30_000)
    box.fill("Dear {{who}}")
    expect(table).to_contain_text("who", timeout=30_000)
    page.click("#chat-example-0")  # an example's message has no placeholders
    expect(box).not_to_have_value("Dear {{who}}", timeout=30_000)
    expect(panel).to_be_hidden(timeout=30_000)

    page.goto(f"{app_server.url}/?tab=chat&q={quote('Tell {{name}} about {{topic}}')}")
    expect(page.locator("#chat-input textarea")).to_have_value("Tell {{name}} about {{topic}}", timeout=30_000)
    expect(page.locator("#chat-variables")).to_be_visible(timeout=30_000)
    expect(page.locator("#chat-variables-table")).to_contain_text("topic")


def test_the_token_count_follows_the_message_and_keeps_the_sent_request_after_a_send(page: Page) -> None:
    open_tab(page, "Messages", "#messages-input textarea")
    count, box = page.locator("#messages-token-count"), page.locator("#messages-input textarea")
    counting = watchers(page, "messages-draft-key")
    assert counting, "the token count still has its server event"
    box.press_sequentially("How far is the moon?")
    before = settled(page, "#messages-token-count")
    assert "input tokens" in before
    calls = server_calls(page)
    box.press("Enter")
    expect(page.locator("#messages-metrics")).to_contain_text("finish", timeout=30_000)
    page.wait_for_timeout(1000)
    assert not set(calls) & counting and count.inner_text() == before  # the request just sent, not counted again
    box.fill("How far is the moon?")  # the same words again: now after a whole turn, so more tokens
    expect(count).not_to_have_text(before, timeout=30_000)
    assert int(re.sub(r"\D", "", count.inner_text().split("input")[0])) > int(re.sub(r"\D", "", before.split("input")[0]))
    page.click("#messages-clear")
    expect(count).to_contain_text("type a message", timeout=30_000)


TEXTS = ["x", "", " ", "\u2028\u3000", "\ufeff", "\x1c", "a\x85", "{{", "{{ a }}", "\\{{x}}", "{{a}}{{b}} {{a}}", "{{a\n}}", "{{}}",
         "x {{{y}}}", "{{ spaced name }} and {{ten}", "déjà {{ville}} 東京 {{都市}}"]


@pytest.mark.parametrize("system", ["", "Be {{mood}} {{"])
def test_the_page_reads_placeholders_as_the_parser_does(page: Page, system: str) -> None:
    script = variables_key_js("probe")
    got = page.evaluate(f"(texts) => texts.map((text) => ({script})({{text, files: []}}, {json.dumps(system)}))", TEXTS)
    tokens = [[m.group(0) for m in re.finditer(TOKEN_PATTERN, text)] for text in TEXTS]
    expected = [json.dumps([found if text.strip() else EMPTY_MESSAGE, [m.group(0) for m in re.finditer(TOKEN_PATTERN, system)]],
                           separators=(",", ":"), ensure_ascii=False) for text, found in zip(TEXTS, tokens)]
    assert got == expected
