""""View code": curl and Python snippets that reproduce a recorded exchange, key redacted."""

from __future__ import annotations

import json
from typing import Any

import orjson

from playground.client.transport import Exchange
from playground.ui.shared.own_addresses import shown_to_reader

KEY_VARIABLE = "GATEWAY_API_KEY"
_SKIPPED_HEADERS = frozenset({"host", "content-length", "accept-encoding", "connection", "user-agent", "authorization", "x-svc-api-key",
                              "content-type"})
"""Headers the snippets write themselves (the key, the JSON content type) or that the tool adds."""
KEY_QUERY_REDACTED = "key=***"
MAX_SHOWN_STRING = 160
MAX_EXACT_BODY_CHARS = 1_000_000
"""Generated code carries the exact body up to this size; a larger one (big attachments) is
shortened for display, and the code says so."""


def shorten_long_strings(value: Any, limit: int = MAX_SHOWN_STRING) -> Any:
    """Replace huge strings (base64 images) with a head and a length note, for display."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]}…({len(value) - limit} more characters)"
    if isinstance(value, dict):
        return {k: shorten_long_strings(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [shorten_long_strings(v, limit) for v in value]
    return value


_PYTHON_WORDS = {"true": "True", "false": "False", "null": "None"}
_WORD_ENDINGS = tuple((f"{word}{end}", f"{python}{end}") for word, python in _PYTHON_WORDS.items() for end in (",\n", "\n"))
"""In indented JSON a word ends its line (maybe with a comma); a line that ends inside a string
cannot exist (a string's line breaks are `\\n`), and a string value's line ends with its quote."""


def indented_json(value: Any) -> str:
    """JSON data indented by two, non-ASCII kept (orjson: a request of a thousand messages is
    shown on every turn, and `json.dumps` with an indent is its pure-Python encoder)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # what orjson does not take (keys that are not strings, integers past 64 bits)
        return json.dumps(value, indent=2, ensure_ascii=False)


def python_literal(value: Any) -> str:
    """JSON data as a Python literal: indented JSON with `true`, `false` and `null` spelled the
    Python way outside strings (JSON's string escapes mean the same in Python)."""
    text = indented_json(value) + "\n"
    for word, python in _WORD_ENDINGS:
        text = text.replace(word, python)
    return text[:-1]


def code_body(exchange: Exchange) -> tuple[Any, str, str]:
    """(body for generated code, the same as one line of JSON, a note when it had to be shortened).
    `json.dumps` without an indent is its C encoder: a thousand messages take about half a millisecond."""
    text = json.dumps(exchange.request_body, ensure_ascii=False)
    if len(text) <= MAX_EXACT_BODY_CHARS:
        return exchange.request_body, text, ""
    shown = shorten_long_strings(exchange.request_body)
    return shown, json.dumps(shown, ensure_ascii=False), f"body shortened for display: {len(text) / 1e6:.1f} MB of data not shown"


def _extra_headers(exchange: Exchange) -> dict[str, str]:
    return {k: v for k, v in exchange.request_headers.items() if k.lower() not in _SKIPPED_HEADERS}


def _streamed(exchange: Exchange) -> bool:
    """Whether the call asked for a stream: events arrived, or the request said so (a stream the
    gateway refused before its first event is still exported in streaming form)."""
    body = exchange.request_body
    return bool(exchange.events) or (isinstance(body, dict) and body.get("stream") is True) or ":streamGenerateContent" in exchange.url


def _key_header(exchange: Exchange) -> str | None:
    """The header that carries the key in this exchange (None when it travels as `key=`)."""
    names = {name.lower() for name in exchange.request_headers}
    if "x-svc-api-key" in names:
        return "x-svc-api-key"
    if "authorization" in names or KEY_QUERY_REDACTED not in exchange.url:
        return "Authorization"
    return None


def curl_snippet(exchange: Exchange) -> str:
    url = exchange.url.replace(KEY_QUERY_REDACTED, f"key=${{{KEY_VARIABLE}}}")
    quote = '"' if url != exchange.url else "'"
    lines = [f"curl -sS {'-N ' if _streamed(exchange) else ''}-X {exchange.method} {quote}{url}{quote} \\"]
    header = _key_header(exchange)
    if header == "Authorization":
        lines.append(f'  -H "Authorization: Bearer ${KEY_VARIABLE}" \\')
    elif header:
        lines.append(f'  -H "{header}: ${KEY_VARIABLE}" \\')
    for name, value in _extra_headers(exchange).items():
        lines.append(f"  -H '{name}: {value}' \\")
    if exchange.request_body is not None:
        _, text, note = code_body(exchange)
        lines.append("  -H 'Content-Type: application/json' \\")
        body = text.replace("'", "'\\''")
        lines.append(f"  -d '{body}'")
        if note:
            lines.insert(0, f"# {note}")
    else:
        lines[-1] = lines[-1].removesuffix(" \\")
    return shown_to_reader("\n".join(lines))


def python_snippet(exchange: Exchange) -> str:
    shown, _, note = code_body(exchange)
    body = python_literal(shown)
    header = _key_header(exchange)
    url = exchange.url.replace(KEY_QUERY_REDACTED, "key={key}")
    url_expr = f'f"{url}"' if url != exchange.url else f'"{url}"'
    call_args = f'"{exchange.method}", {url_expr}, headers=headers'
    if exchange.request_body is not None:
        call_args += ", json=body"
    if header == "Authorization":
        headers_line = 'headers = {"Authorization": f"Bearer {key}"}'
    elif header:
        headers_line = f'headers = {{"{header}": key}}'
    else:
        headers_line = "headers = {}"
    head = [
        *([f"# {note}"] if note else []),
        "import json",
        "import os",
        "",
        "import httpx",
        "",
        f'key = os.environ["{KEY_VARIABLE}"]',
        headers_line,
    ]
    if exchange.request_body is not None:
        head.append(f"body = {body}")
    head.append("")
    if _streamed(exchange):
        head += [
            f"with httpx.stream({call_args}, timeout=60) as response:",
            "    response.raise_for_status()",
            "    for line in response.iter_lines():",
            '        if line.startswith("data: "):',
            '            print(line[len("data: "):])',
        ]
    else:
        head += [
            f"response = httpx.request({call_args}, timeout=60)",
            "response.raise_for_status()",
            "print(json.dumps(response.json(), indent=2, ensure_ascii=False))",
        ]
    return shown_to_reader("\n".join(head))
