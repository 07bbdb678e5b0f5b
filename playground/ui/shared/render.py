"""Pure formatting for every tab: chatbot messages from a result, errors, metrics, inspector."""

from __future__ import annotations

import json
import re
from typing import Any

from playground.client.errors import GatewayError
from playground.client.results import TextResult
from playground.client.transport import Exchange
from playground.ui.shared.codegen import indented_json, shorten_long_strings
from playground.ui.shared.own_addresses import shown_to_reader
from playground.ui.i18n.client_words import word
from playground.ui.i18n import EN, say, visitor_locale
from playground.ui.web.shown_files import shown_paths

THINKING_TITLE = EN["answer.thinking"]
"""The thinking message's title in the source language (what `say("answer.thinking")` writes for it)."""


def flatten_text(content: Any) -> str:
    """Chatbot content (a string, a part dict, or a list of `text`/`file` parts) -> its text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        if content.get("type") == "text" or "text" in content:
            return str(content.get("text", ""))
        return ""
    if isinstance(content, (list, tuple)):
        return "".join(flatten_text(part) for part in content)
    return str(content)


def pretty_arguments(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), indent=2, ensure_ascii=False)
    except ValueError:
        return arguments


def result_messages(result: TextResult, done: bool) -> list[dict[str, Any]]:
    """Chatbot messages showing a (partial) result: thinking, answer text, tool calls."""
    messages: list[dict[str, Any]] = []
    if result.reasoning:
        thinking_done = done or bool(result.text) or bool(result.tool_calls)
        messages.append(
            {
                "role": "assistant",
                "content": result.reasoning,
                "metadata": {"title": say("answer.thinking"), "status": "done" if thinking_done else "pending"},
            }
        )
    if result.text or not (result.tool_calls or result.reasoning):
        messages.append({"role": "assistant", "content": result.text})
    for path in shown_paths(result.files):
        messages.append({"role": "assistant", "content": [{"path": path}]})
    links = [f"[{plain(source['title'][:120])}]({source['url']})" for source in result.sources
             if source["url"].startswith(("https://", "http://")) and not any(c in source["url"] for c in " ()<>")]
    if links:
        messages.append({"role": "assistant", "content": say("answer.sources") + " · ".join(dict.fromkeys(links))})
    for call in result.tool_calls:
        messages.append(
            {
                "role": "assistant",
                "content": f"```json\n{pretty_arguments(call.arguments)}\n```",
                "metadata": {"title": say("answer.tool_call", name=call.name or "…"), "status": "done" if done else "pending"},
            }
        )
    return messages


def settle_pending(history: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """After Stop: no thinking or tool-call message should keep spinning."""
    settled = []
    for message in history or []:
        metadata = message.get("metadata") or {}
        if metadata.get("status") == "pending":
            message = {**message, "metadata": {**metadata, "status": "done"}}
        settled.append(message)
    return settled


_MARKDOWN_SPECIALS = re.compile(r"([\\`*\[\]#|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")


def plain(text: str) -> str:
    """Text shown inside Markdown exactly as it is: no markup, no HTML, no links."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIALS.sub(r"\\\1", escaped)


def code(text: str) -> str:
    """Text shown inside Markdown as a code span, exactly as it is: nothing is escaped inside one (a
    backslash or `&amp;` would show as typed), so its fence is longer than any run of backticks in it."""
    flat = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def error_text(error: BaseException) -> str:
    """What a person reads in the error banner: our heading, then the message as plain text
    (it may quote the gateway, whose words are never rendered)."""
    if isinstance(error, GatewayError):
        return f"**{error_heading(error)}** — {plain(error_words(error))}"
    return say("error.ours")


def error_words(error: GatewayError) -> str:
    """The error's message and what to do, in the visitor's language (`client_words.word`), the
    server's private addresses in words for a hosted page's visitor (`own_addresses`)."""
    return shown_to_reader(visitor_locale().sentence_gap.join(part for part in (word(error.message), word(error.hint)) if part))


def error_heading(error: GatewayError) -> str:
    """The error's heading in the visitor's language: the catalogue's words for the class that
    wrote the heading (`error.<Class>`), else the heading as the client wrote it."""
    owner = next((cls for cls in type(error).__mro__ if "title" in vars(cls)), type(error))
    key = f"error.{owner.__name__}"
    if key in EN and error.title == vars(owner)["title"]:
        return say(key)
    return word(error.title)


def inspector_request(exchange: Exchange | None) -> str:
    if exchange is None:
        return ""
    shown = {
        "method": exchange.method,
        "url": exchange.url,
        "headers": exchange.request_headers,
        "body": shorten_long_strings(exchange.request_body),
    }
    return shown_to_reader(indented_json(shown))


def inspector_response(exchange: Exchange | None) -> str:
    """Status, then raw events with their times (or the response body)."""
    if exchange is None:
        return ""
    lines = [f"HTTP {exchange.status if exchange.status is not None else '—'} · {exchange.attempts} attempt(s)"]
    if len(exchange.attempt_outcomes) > 1:
        lines.append("attempts: " + " → ".join(exchange.attempt_outcomes))
    if exchange.error:
        lines.append(f"error: {exchange.error}")
    lines.extend(f"note: {note}" for note in exchange.notes)
    for event in exchange.events:
        name = f"event: {event.event}  " if event.event else ""
        lines.append(f"+{event.at:8.3f}s  {name}data: {event.data}")
    if not exchange.events and exchange.response_body is not None:
        lines.append(json.dumps(shorten_long_strings(exchange.response_body), indent=2, ensure_ascii=False))
    return shown_to_reader("\n".join(lines))
