"""The curl parser on the command shapes people paste (docs, browsers' "copy as curl", shells)."""

from __future__ import annotations

import pytest

from playground.client.curl_import import parse_curl
from playground.client.errors import RequestValidationError

KEY = "sk-pasted-key-5555"
CHAT_BODY = '{"model": "gx-2.5-flash", "messages": [{"role": "user", "content": "Hi"}]}'

SHAPES = [
    # (name, command, method, url, interface, key, auth style)
    ("openai docs, line continuations", f"""curl https://gw.example.com/v1/chat/completions \\
  -H "Content-Type: application/json" \\
  -H "Authorization: Bearer {KEY}" \\
  -d '{CHAT_BODY}'""", "POST", "https://gw.example.com/v1/chat/completions", "chat", KEY, "bearer"),
    ("env variable key", f"""curl https://gw.example.com/v1/chat/completions -H "Authorization: Bearer $GATEWAY_API_KEY" -d '{CHAT_BODY}'""",
     "POST", "https://gw.example.com/v1/chat/completions", "chat", None, "bearer"),
    ("braced env key", f"""curl https://gw/v1/chat/completions -H "Authorization: Bearer ${{OPENAI_API_KEY}}" -d '{CHAT_BODY}'""",
     "POST", "https://gw/v1/chat/completions", "chat", None, "bearer"),
    ("anthropic docs, x-api-key", f"""curl https://gw.example.com/v1/messages \\
     --header "x-api-key: {KEY}" \\
     --header "anthropic-version: 2023-06-01" \\
     --header "content-type: application/json" \\
     --data '{{"model": "cl-sonnet-4-5-20250929", "max_tokens": 1024, "messages": [{{"role": "user", "content": "Hello"}}]}}'""",
     "POST", "https://gw.example.com/v1/messages", "messages", KEY, "bearer"),
    ("chrome copy as curl (bash)", f"""curl 'https://gw.example.com/v1/responses' \\
  -H 'accept: */*' \\
  -H 'authorization: Bearer {KEY}' \\
  -H 'content-type: application/json' \\
  --data-raw $'{{"model":"gpt-4.1","input":"it\\'s a test"}}' \\
  --compressed""", "POST", "https://gw.example.com/v1/responses", "responses", KEY, "bearer"),
    ("firefox copy as curl", f"""curl 'https://gw.example.com/v1/embeddings' -X POST -H 'User-Agent: Mozilla/5.0' -H 'Accept: */*' -H 'Authorization: Bearer {KEY}' -H 'Content-Type: application/json' --data-raw '{{"model":"text-embedding-3-small","input":"hello"}}'""",
     "POST", "https://gw.example.com/v1/embeddings", "embeddings", KEY, "bearer"),
    ("windows cmd carets", f"""curl "https://gw.example.com/v1/chat/completions" ^
  -H "Authorization: Bearer {KEY}" ^
  -H "Content-Type: application/json" ^
  -d "{{\\"model\\": \\"gx-2.5-flash\\", \\"messages\\": [{{\\"role\\": \\"user\\", \\"content\\": \\"Hi\\"}}]}}\"""",
     "POST", "https://gw.example.com/v1/chat/completions", "chat", KEY, "bearer"),
    ("native with key= query", f"""curl "https://gw.example.com/v1beta/models/gx-2.5-flash:streamGenerateContent?alt=sse&key={KEY}" -H 'Content-Type: application/json' -d '{{"contents":[{{"role":"user","parts":[{{"text":"Hi"}}]}}]}}'""",
     "POST", "https://gw.example.com/v1beta/models/gx-2.5-flash:streamGenerateContent?alt=sse", "native", KEY, "query"),
    ("native with x-svc-api-key", f"""curl -sS https://gw.example.com/v1beta/models/gx-2.5-pro:generateContent -H "x-svc-api-key: {KEY}" -d '{{"contents":[]}}'""",
     "POST", "https://gw.example.com/v1beta/models/gx-2.5-pro:generateContent", "native", KEY, "header"),
    ("combined short flags and -N", f"""curl -sSN -X POST https://gw.example.com/v1/chat/completions -H "Authorization: Bearer {KEY}" -d '{CHAT_BODY}'""",
     "POST", "https://gw.example.com/v1/chat/completions", "chat", KEY, "bearer"),
    ("attached flag values", f"""curl -XPOST -H'Authorization: Bearer {KEY}' -d'{CHAT_BODY}' https://gw.example.com/v1/chat/completions""",
     "POST", "https://gw.example.com/v1/chat/completions", "chat", KEY, "bearer"),
    ("--json flag", f"""curl --json '{{"model":"gx-2.5-flash-image","prompt":"a cat","response_format":"b64_json"}}' -H "Authorization: Bearer {KEY}" https://gw.example.com/v1/images/generations""",
     "POST", "https://gw.example.com/v1/images/generations", "images", KEY, "bearer"),
    ("--url and --request", f"""curl --request POST --url https://gw.example.com/v1/messages/count_tokens --header 'authorization: Bearer {KEY}' --data '{{"model":"cl-haiku-4-5-20251001","messages":[]}}'""",
     "POST", "https://gw.example.com/v1/messages/count_tokens", "count_tokens", KEY, "bearer"),
    ("GET video query, no body", f"""curl https://gw.example.com/v1/video/generations/video_123 -H "Authorization: Bearer {KEY}\"""",
     "GET", "https://gw.example.com/v1/video/generations/video_123", "video", KEY, "bearer"),
    ("native batch embeddings on /v1", f"""curl -X POST "https://gw.example.com/v1/models/gx-embedding-001:batchEmbedContents" -H "Authorization: Bearer {KEY}" --data-binary '{{"requests":[{{"content":{{"parts":[{{"text":"a"}}]}}}}]}}'""",
     "POST", "https://gw.example.com/v1/models/gx-embedding-001:batchEmbedContents", "native_embeddings", KEY, "bearer"),
    ("powershell backticks", f"""curl.exe https://gw.example.com/v1/chat/completions `
  -H "Authorization: Bearer {KEY}" `
  -d '{CHAT_BODY}'""", "POST", "https://gw.example.com/v1/chat/completions", "chat", KEY, "bearer"),
    ("gateway under a path prefix", f"""curl http://127.0.0.1:8000/proxy/v1/chat/completions -H "Authorization: Bearer {KEY}" -d '{CHAT_BODY}'""",
     "POST", "http://127.0.0.1:8000/proxy/v1/chat/completions", "chat", KEY, "bearer"),
]


@pytest.mark.parametrize(("name", "command", "method", "url", "interface", "key", "style"), SHAPES, ids=[s[0] for s in SHAPES])
def test_command_shapes(name: str, command: str, method: str, url: str, interface: str, key: str | None, style: str) -> None:
    request = parse_curl(command)
    assert request.method == method
    assert request.url == url
    assert request.interface == interface
    assert request.api_key == key
    assert request.auth_style == style
    shown = repr(request) + request.url + str(request.headers) + str(request.body)
    assert KEY not in shown
    assert request.body is None or isinstance(request.body, dict)


def test_body_and_base_url() -> None:
    request = parse_curl(SHAPES[0][1])
    assert request.body == {"model": "gx-2.5-flash", "messages": [{"role": "user", "content": "Hi"}]}
    assert request.base_url == "https://gw.example.com" and request.model == "gx-2.5-flash"
    assert parse_curl(SHAPES[4][1]).body == {"model": "gpt-4.1", "input": "it's a test"}
    assert parse_curl(SHAPES[7][1]).model == "gx-2.5-flash"
    assert parse_curl(SHAPES[-1][1]).base_url == "http://127.0.0.1:8000/proxy"
    assert parse_curl(SHAPES[3][1]).headers == {"anthropic-version": "2023-06-01", "content-type": "application/json"}


@pytest.mark.parametrize(("command", "message"), [
    ("wget https://gw/v1/chat/completions", "starts with curl"),
    ("curl -H 'Authorization: Bearer x'", "no URL"),
    ("curl https://gw/v1/chat/completions -d '{not json'", "not JSON"),
    ("curl https://gw/v1/chat/completions -d @body.json", "reads a file"),
    ("curl 'https://gw/v1/chat/completions", "quotes"),
    ("curl https://gw/v1/chat/completions -H", "needs a value"),
])
def test_broken_commands_say_what_to_fix(command: str, message: str) -> None:
    with pytest.raises(RequestValidationError) as caught:
        parse_curl(command)
    assert message in str(caught.value)
