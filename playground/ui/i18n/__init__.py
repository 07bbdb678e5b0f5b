"""The interface's words in English and Simplified Chinese: one catalogue, read through `t(key)`.

Gradio's `I18n` translates in the browser, by the browser's language (`zh-CN`, `zh`, `zh-Hans` get
Chinese, anything else English); the header's language switch changes it on the spot and the
browser remembers the choice. Only words written by us are here: what a gateway sends (answers,
error messages, model names) is shown as it arrives. Wire names (`top_p`, `tool_choice`) stay as
they are in both languages. `CONVERTED_MODULES` are the modules that write no interface text
outside this catalogue (a test checks them).
"""

from __future__ import annotations

from http.cookies import CookieError, SimpleCookie
from collections.abc import Callable, Iterable
from typing import Any

import gradio as gr

from playground.gradio_compat import I18nText, current_request

from playground.ui.i18n.notes import EN_NOTES, ZH_NOTES
from playground.ui.i18n.tabs import EN_TABS
from playground.ui.i18n.tabs_zh import ZH_TABS
from playground.ui.i18n.views import CHOICE_KEYS, EN_VIEWS, ZH_VIEWS
from playground.ui.i18n.web import EN_WEB, ZH_WEB
from playground.ui.i18n.zh import ZH
from playground.ui.i18n.language import LANGUAGE_COOKIE, LANGUAGE_VALUES, is_chinese

EN: dict[str, str] = {
    # header, connection, tabs
    "header.title": "# Gateway Playground\nTry every model family and interface of the gateway from your browser.",
    "header.tour": "Tour",
    "header.keys": "?",
    "header.language": "Language",
    "connection.panel": "Connection",
    "connection.url": "Base URL",
    "connection.key": "API key",
    "connection.remember": "Remember the key in this browser",
    "connection.remember_info": "Kept in this browser's local storage, obscured but not encrypted: anyone using this browser profile could recover it.",
    "connection.test": "Test connection",
    "tab.chat": "Chat", "tab.responses": "Responses", "tab.messages": "Messages", "tab.native": "Native",
    "tab.embeddings": "Embeddings", "tab.images": "Images", "tab.compare": "Compare", "tab.report": "Report", "tab.video": "Video",
    # shared widgets
    "inspector.panel": "Inspector and code",
    "inspector.request_tab": "Request",
    "inspector.request": "Request (key redacted)",
    "inspector.response_tab": "Response / events",
    "inspector.response": "Status and raw events",
    "inspector.timeline_tab": "Timeline",
    "inspector.timeline_empty": "Stream a reply to see its events on a time line, checked against the format's rules.",
    "inspector.curl": "curl",
    "inspector.python_tab": "Python",
    "inspector.python": "Python (httpx)",
    "conversation.idle": "Type a message (Enter sends)",
    "conversation.replying": "A reply is on its way (Esc stops it)…",
    "conversation.tool_result": "Tool result",
    "conversation.tool_example": 'e.g. {"temperature_c": 21}',
    "conversation.tool_send": "Send tool result and continue",
    "conversation.stop": "Stop",
    "conversation.retry": "Retry",
    "conversation.clear": "Clear",
    "conversation.to_batch": "Send this prompt to Batch (to run it over a data set)",
    "branches.button": "Branch from the clicked message",
    "branches.picker": "Branches",
    "presets.panel": "Presets",
    "presets.pick": "Load a preset",
    "presets.name": "Save the settings as",
    "presets.name_example": "e.g. terse JSON answers",
    "presets.save": "Save preset",
    "presets.delete": "Delete preset",
    "presets.note": "Presets are kept in this browser only when you save one; keys are never kept.",
    "session.panel": "Save or load this session",
    "session.save": "Save to a file",
    "session.load": "Load a saved file",
    "session.download": "Saved session (settings and conversation; never the key)",
    "developer.panel": "Developer",
    "developer.markers": ("**Demo gateway test markers** (ignored by real gateways): put `[[fault:NAME]]` in a prompt to make the demo "
                          "fail on purpose (for example `[[fault:cut]]` cuts a stream, `[[fault:status:429]]` answers *too many requests*); "
                          "the word *forbidden* makes a picture or video request be refused."),
    "developer.video_markers": "`[[video_mb:50]]` in a video prompt makes the demo's result about 50 MB (to try big downloads).",
    "links.copy": "Copy link to this tab",
    "links.box": "Link (copied; it holds the tab, model, preset and text, never your key)",
    "curl.panel": "Import a curl command",
    "curl.command": "curl command (from the gateway's docs or a browser's “copy as curl”)",
    "curl.open": "Open it in the right tab",
    "curl.open_keep": "Open it, keep my base URL",
    # the guide
    "guide.tour": """### A two-minute tour
1. **Pick a tab** at the top: each is one way of talking to the gateway (Chat, Responses, Messages, Native,
   Embeddings, Images, Compare, Video).
2. **Press an example**: the buttons under the conversation fill in the question and the settings for you.
3. **Send it and watch it stream**: the answer appears word by word; **Stop** (or Esc) halts it, and what
   arrived stays.
4. **Open "Inspector and code"** below the answer: the exact request, every event that came back, and
   the same call as Python or curl.

The built-in demo gateway answers the examples offline, so nothing here costs anything. To use a real
gateway, type its address and key in the connection panel at the top.""",
    "guide.close": "Close the tour",
    "guide.shortcuts": """### Keyboard shortcuts
| Keys | What they do |
|---|---|
| **Ctrl+Enter** (⌘+Enter on a Mac) | Send, from any text box of the tab |
| **Esc** | Stop the answer that is arriving |
| **Ctrl+Shift+R** (⌘+Shift+R) | Retry the last message |
| **Enter** in the message box | Send (Shift+Enter starts a new line) |""",
    "guide.shortcuts_close": "Close",
    # the Chat tab
    "chat.placeholder": "Send a message to start. Try a `-thinking` model to see reasoning.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
    "chat.example.riddle": "Ask a thinking model a riddle",
    "chat.example.riddle_explains": "See the model reason in a **Thinking** section before it answers.",
    "chat.example.weather": "Let the model call a weather tool",
    "chat.example.weather_explains": "The model asks for `get_weather`; you type the result and it answers with it.",
    "chat.example.json": "Answer as JSON",
    "chat.example.json_explains": "Structured output: the reply follows a JSON Schema you give.",
    "chat.example.stop": "Stop a long answer",
    "chat.example.stop_explains": "A long reply: press **Stop** (or Esc) halfway; what arrived stays on screen.",
    "chat.model": "Model",
    "chat.system": "System prompt",
    "chat.stream": "Stream the reply",
    "chat.usage": "Ask for usage in the stream",
    "chat.usage_info": "stream_options.include_usage: OpenAI-style gateways send token counts only when asked",
    "chat.parameters": "Parameters",
    "chat.temperature": "Temperature (randomness)",
    "chat.top_p": "Top P (share of likely words considered)",
    "chat.max_tokens": "Longest answer in tokens (0 = not set)",
    "chat.effort": "Reasoning effort",
    "chat.tools_panel": "Tools and structured output",
    "chat.tools": "Tools (JSON array; empty = no tools)",
    "chat.insert_tool": "Insert an example tool",
    "chat.tool_choice": "When to call a tool (tool_choice, or a tool name)",
    "chat.schema": "Answer as JSON following this schema (response_format json_schema; empty = free text)",
    "chat.extensions": "JSON object with any of: thinking, enable_thinking, svc_thinking_to_content, parameters, extra_body, generationConfig, web_search_options, search_parameters",
    # the Responses tab
    "responses.placeholder": "Responses format. Attach images or documents (PDF, text) with the clip.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
    "responses.example.summary": "See a reasoning summary",
    "responses.example.summary_explains": "A reasoning model thinks first; its summary shows in the **Thinking** section.",
    "responses.example.chain": "Chain two turns",
    "responses.example.chain_explains": "Tick “Continue with previous_response_id”: the second turn sends only itself.",
    "responses.example.search": "Search the web",
    "responses.example.search_explains": "The web search tool: the answer cites its sources as links.",
    "responses.example.weather": "Let the model call a weather tool",
    "responses.example.weather_explains": "The model calls `get_weather`; type the result and it answers with it.",
    "responses.instructions": "Instructions (system)",
    "responses.chain": "Continue with previous_response_id",
    "responses.chain_info": "On: only the new turn is sent and the gateway remembers the rest. Off: the whole conversation is resent.",
    "responses.reasoning": "Reasoning",
    "responses.reasoning_note": "Applies to reasoning models only (o4-mini, gx-2.5-pro, gx-3-pro-preview, deepseek-reasoner); others ignore it.",
    "responses.effort": "Reasoning effort (reasoning.effort)",
    "responses.summary": "Reasoning summary (reasoning.summary, shown as Thinking)",
    "responses.max_tokens": "Longest answer in tokens (max_output_tokens; 0 = not set)",
    "responses.tools_panel": "Tools",
    "responses.tools": "Function tools (JSON array; empty = none)",
    "responses.tool_format": "Send function tools as",
    "responses.web_search": "Web search (web_search_preview)",
    "responses.context_size": "How much to search (search_context_size)",
    "responses.extensions": "JSON object with any of: parallel_tool_calls, max_tool_calls, truncation, metadata, user, previous_response_id",
    # the Native tab
    "native.example.think": "Think, then answer",
    "native.example.think_explains": "A thinking budget: the model's thoughts show in the **Thinking** section.",
    "native.example.draw": "Draw a picture",
    "native.example.draw_explains": "Image output: the answer comes with a generated picture you can download.",
    "native.example.ground": "Ground it in a web search",
    "native.example.ground_explains": "The grounding search tool: citations [1] [2] and the sources as links.",
    "native.example.weather": "Let the model call a weather tool",
    "native.example.weather_explains": "A function call: type the result and the model answers with it.",
    "native.placeholder": "Native generate-content format (`gx` models): thoughts, images, grounding, functions.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
    "native.model": "Model (goes in the URL path)",
    "native.model_info": "The image models (gx-…-image…) draw: picking one turns on image output.",
    "native.system": "System instruction",
    "native.images": "Answer with pictures too",
    "native.images_info": "Sends responseModalities: TEXT and IMAGE",
    "native.thinking": "Thinking",
    "native.thinking_info": "thinkingConfig",
    "native.budget": "How much the model may think (tokens)",
    "native.budget_info": "thinkingBudget; -1 lets the model decide",
    "native.generation": "Generation config",
    "native.top_k": "topK (0 = not set)",
    "native.max_tokens": "Longest answer in tokens (maxOutputTokens; 0 = not set)",
    "native.functions": "Functions (functionDeclarations: JSON array of {name, description, parameters})",
    "native.mode": "When to call a function (functionCallingConfig.mode)",
    "native.search": "Grounding search (svcSearch)",
    "native.safety_panel": "Safety settings and key",
    "native.safety": "safetySettings (JSON array of {\"category\", \"threshold\"})",
    "native.auth": "Send the key as",
    "native.auth_info": "The native endpoints take any of the three; a key in the URL is hidden everywhere it is shown.",
    "native.extensions": "Extension fields: JSON object with any of cachedContent, generationConfig (merged), toolConfig",
    # the Messages tab
    "messages.example.think": "Think before answering",
    "messages.example.think_explains": "Extended thinking: the model's reasoning appears in a **Thinking** section.",
    "messages.example.cache": "Cache a long document and ask twice",
    "messages.example.cache_explains": "Send, then press **Retry**: the second request reads the cached document (90% cheaper).",
    "messages.example.weather_explains": "The model asks for `get_weather`; you type the result and it answers with it.",
    "messages.example.search_explains": "The built-in web search tool: the answer cites what it found.",
    "messages.max_tokens": "Longest answer in tokens (max_tokens, required, > 0)",
    "messages.thinking": "Extended thinking",
    "messages.thinking_advice": "With thinking on, the spec recommends temperature 1.0 and top_p 0; budget_tokens must be greater than 1024 and below max_tokens.",
    "messages.budget": "How much the model may think (budget_tokens)",
    "messages.sampling": "Sampling and stop sequences",
    "messages.top_k": "top_k (0 = not set)",
    "messages.stops": "Stop at these words (stop_sequences: one per line or comma separated)",
    "messages.tools": "Function tools (JSON array of {\"name\", \"description\", \"input_schema\"})",
    "messages.web_search": "Web search tool (web_search_20250305)",
    "messages.max_uses": "At most this many searches (max_uses, 2-10 suggested)",
    "messages.city": "Searcher's city (user_location city)",
    "messages.country": "Country (user_location country)",
    "messages.parallel": "One tool call at a time (disable_parallel_tool_use)",
    "messages.cache_lab": "Prompt-cache lab",
    "messages.cache_note": "Mark cache breakpoints, send, then send again: the first request writes the prefix to the cache (creation tokens), later identical prefixes read it (read tokens, 90% cheaper). Prefixes below 1024 tokens (2048 for haiku) are not cached; `ephemeral` lasts 5 minutes, `persistent` 1 hour.",
    "messages.cache_system": "Cache breakpoint on the system prompt",
    "messages.cache_last": "Cache breakpoint on the last message",
    "messages.cache_type": "How long to keep it (cache_control type)",
    "messages.fill": "Fill the system prompt with a long document (~1,800 tokens)",
    "messages.extensions": "JSON object with any of: metadata, mcp_servers, context_management, cache_control",
    "messages.placeholder": "Messages format (`cl` models). Turn on thinking, try tools, or open the prompt-cache lab.\n\nEdit or delete one of your messages with its pencil; the clip attaches files.",
}


for _part_en, _part_zh in ((EN_TABS, ZH_TABS), (EN_NOTES, ZH_NOTES), (EN_VIEWS, ZH_VIEWS), (EN_WEB, ZH_WEB)):
    assert not (_part_en.keys() & EN.keys()), f"keys given twice: {sorted(_part_en.keys() & EN.keys())}"
    EN.update(_part_en)
    ZH.update(_part_zh)
CHINESE_LOCALES = ("zh-CN", "zh", "zh-Hans", "zh-SG")
I18N = gr.I18n(en=EN, **{locale: ZH for locale in CHINESE_LOCALES})
CONVERTED_MODULES = (
    "playground.ui.app", "playground.ui.shared.widgets", "playground.ui.tabs.batch.columns", "playground.ui.conversation.panel",
    "playground.ui.conversation.handlers", "playground.ui.shared.presets",
    "playground.ui.session_files.panel", "playground.ui.shared.developer", "playground.ui.shared.guide", "playground.ui.shared.links",
    "playground.ui.conversation.branches", "playground.ui.shared.curl_panel", "playground.ui.shared.examples", "playground.ui.tabs.chat.layout",
    "playground.ui.tabs.responses.layout", "playground.ui.tabs.native.layout", "playground.ui.tabs.messages.layout",
    "playground.ui.tabs.embeddings.layout", "playground.ui.tabs.images.layout", "playground.ui.tabs.compare.layout", "playground.ui.tabs.video.layout",
    "playground.ui.tabs.video.form", "playground.ui.tabs.report.layout", "playground.ui.tabs.report.views", "playground.ui.tabs.batch.layout",
    "playground.ui.tabs.batch.views", "playground.ui.shared.column_picker", "playground.ui.conversation.template_vars", "playground.ui.shared.prices",
)


def t(key: str) -> I18nText:
    """The interface text `key`, translated in the browser; an unknown key fails at once."""
    if key not in EN:
        raise KeyError(f"no interface text {key!r} in playground/ui/i18n/__init__.py")
    return I18N(key)


def choices(values: Iterable[Any], label: Callable[[str], Any] | None = None) -> list[Any]:
    """A Radio's or Dropdown's choices whose values the code reads back: a value with a catalogue
    word (`i18n_views.CHOICE_KEYS`) becomes (that word, the value); any other stays as it is. The
    word is `t` (translated in the browser) for the layout; an event's update passes `say`."""
    word = label or t
    return [(word(CHOICE_KEYS[value]), value) if isinstance(value, str) and value in CHOICE_KEYS else value for value in values]


def english(key: str) -> str:
    """The English text of `key`."""
    return EN[key]


def request_language(cookie_header: str | None, accept_language: str | None) -> str:
    """"zh" or "en" for a request: the header switch's choice (its cookie, when it names a language
    the switch offers), else the browser's Accept-Language."""
    try:
        cookie = SimpleCookie(cookie_header or "").get(LANGUAGE_COOKIE)
    except CookieError:
        cookie = None
    choice = cookie.value if cookie is not None and cookie.value in LANGUAGE_VALUES else accept_language
    return "zh" if is_chinese(choice) else "en"


def visitor_language() -> str:
    """`request_language` of the event being handled; "en" outside an event (tests calling handlers directly)."""
    request = current_request()
    if request is None:
        return "en"
    try:
        headers = request.headers
        return request_language(headers.get("cookie"), headers.get("accept-language"))
    except (AttributeError, KeyError, ValueError):
        return "en"


def say_in(language: str, key: str, **values: Any) -> str:
    """The catalogue's text `key` in `language` ("zh" or "en"), with `values` filled in."""
    text = (ZH if language == "zh" else EN)[key]
    return text.format(**values) if values else text


def say(key: str, **values: Any) -> str:
    """Text a handler builds at run time, in the visitor's language (`visitor_language`), with
    `values` filled into the catalogue's `{name}` places. One helper for every tab: the browser
    translates only whole texts (Gradio's `I18nData`, one per value, no values inside), so texts
    with numbers or several parts are chosen here."""
    return say_in(visitor_language(), key, **values)
