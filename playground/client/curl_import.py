"""Reading a pasted curl command: method, URL, headers, JSON body, the key, and which interface
of the gateway it calls.

Understands the shapes documentation and browsers write: `-H`/`--header`, `-d`/`--data`/
`--data-raw`/`--data-binary`/`--json`, `-X`/`--request`, `--url`, combined short flags (`-sSN`),
values attached to flags (`-XPOST`), line continuations (`\\`, `^`, backtick), single, double and
ANSI-C (`$'…'`) quotes. The key (Bearer, `x-svc-api-key`, `x-api-key`, `api-key` or `key=`) is
taken out of the headers and URL, so nothing shown afterwards contains it.
"""

from __future__ import annotations

import codecs
import re
import shlex
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from playground.client.errors import RequestValidationError
from playground.client.validation import strict_json
from playground.client.texts import Text

DATA_FLAGS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--json"})
VALUE_FLAGS = frozenset({"-X", "--request", "-H", "--header", "--url", "-u", "--user", "-o", "--output", "-m", "--max-time",
                         "--connect-timeout", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "--retry"}) | DATA_FLAGS
KEY_HEADERS = {"authorization": "bearer", "x-svc-api-key": "header", "x-api-key": "bearer", "api-key": "bearer"}
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'", re.DOTALL)
_PLACEHOLDER = re.compile(r"^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$|^<[^>]*>$")
MAX_COMMAND_CHARS = 2_000_000

INTERFACES = (
    ("/v1/chat/completions", "chat"),
    ("/v1/responses", "responses"),
    ("/v1/messages/count_tokens", "count_tokens"),
    ("/v1/messages", "messages"),
    ("/v1/embeddings", "embeddings"),
    ("/v1/images/generations", "images"),
    ("/v1/video/generations", "video"),
)


@dataclass
class CurlRequest:
    method: str
    url: str
    headers: dict[str, str]
    body: Any
    api_key: str | None = field(default=None, repr=False)
    auth_style: str = "bearer"

    @property
    def base_url(self) -> str:
        parts = urlsplit(self.url)
        path = parts.path
        for marker in ("/v1beta/", "/v1/"):
            if marker in path:
                path = path[: path.index(marker)]
                break
        return urlunsplit((parts.scheme, parts.netloc, path.rstrip("/"), "", ""))

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    @property
    def interface(self) -> str | None:
        """chat, responses, messages, count_tokens, native, native_embeddings, embeddings, images, video."""
        path = self.path
        if ":streamGenerateContent" in path or ":generateContent" in path:
            return "native"
        if ":embedContent" in path or ":batchEmbedContents" in path:
            return "native_embeddings"
        for suffix, name in INTERFACES:
            if path.endswith(suffix) or (name == "video" and suffix in path):
                return name
        return None

    @property
    def model(self) -> str | None:
        """The model named in the path (native) or in the body."""
        match = re.search(r"/models/([^/:]+):", self.path)
        if match:
            return match.group(1)
        return self.body.get("model") if isinstance(self.body, dict) else None


def _join_lines(command: str) -> str:
    command = re.sub(r"[ \t]*(\\|\^|`)\r?\n[ \t]*", " ", command)
    return command.replace("\r\n", " ").replace("\n", " ").strip()


def _ansi_c(match: re.Match[str]) -> str:
    raw = match.group(1)
    try:
        decoded = codecs.decode(raw.encode("latin-1", "backslashreplace"), "unicode_escape")
    except UnicodeDecodeError as exc:
        raise RequestValidationError([Text("curl.broken_escape", reason=exc.reason)]) from None
    try:
        decoded = decoded.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        pass
    return shlex.quote(decoded)


_SPACE = re.compile(r"\s*")
_WORD = re.compile(r"""(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\])+""", re.DOTALL)
_PIECE = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([^\s'"\\]+)""", re.DOTALL)
_IN_DOUBLE_QUOTES = re.compile(r"""\\([\\"])""")


def _piece(match: re.Match[str]) -> str:
    single, double, escaped, plain = match.groups()
    if single is not None:
        return single
    if double is not None:
        return _IN_DOUBLE_QUOTES.sub(r"\1", double)
    return escaped if escaped is not None else plain


def _split(text: str) -> list[str]:
    """POSIX shell words (as `shlex.split` reads them) in linear time: `shlex` takes seconds per
    100 kB quoted body, and a command may be 2 MB."""
    words: list[str] = []
    position = 0
    while True:
        spaces = _SPACE.match(text, position)
        assert spaces is not None  # `\s*` matches (maybe nothing) at every position
        position = spaces.end()
        if position >= len(text):
            return words
        word = _WORD.match(text, position)
        if word is None:
            raise RequestValidationError([Text("curl.unclosed_quote", position=position + 1)])
        words.append("".join(_piece(piece) for piece in _PIECE.finditer(word.group())))
        position = word.end()


def _tokens(command: str) -> list[str]:
    text = _ANSI_C.sub(_ansi_c, _join_lines(command))
    tokens = _split(text)
    if not tokens or tokens[0].rsplit("/", 1)[-1] not in ("curl", "curl.exe"):
        raise RequestValidationError([Text("curl.not_curl")])
    return tokens[1:]


def _split_flag(token: str) -> tuple[str, str | None]:
    """`-XPOST` -> ('-X', 'POST'); `-sSN` stays; long flags never carry a value."""
    if token.startswith("--") or len(token) <= 2 or not token.startswith("-"):
        return token, None
    flag = token[:2]
    if flag in VALUE_FLAGS:
        return flag, token[2:]
    return token, None


def parse_curl(command: str) -> CurlRequest:
    """Parse a curl command; raises `RequestValidationError` with what to fix."""
    if len(command) > MAX_COMMAND_CHARS:
        raise RequestValidationError([Text("curl.too_long", limit=MAX_COMMAND_CHARS)])
    tokens = _tokens(command)
    method: str | None = None
    url: str | None = None
    headers: dict[str, str] = {}
    data: list[str] = []
    index = 0
    while index < len(tokens):
        flag, value = _split_flag(tokens[index])
        index += 1
        if flag in VALUE_FLAGS and value is None:
            if index >= len(tokens):
                raise RequestValidationError([Text("curl.needs_value", flag=flag)])
            value = tokens[index]
            index += 1
        if flag in ("-X", "--request"):
            method = (value or "").upper()
        elif flag in ("-H", "--header"):
            name, _, header_value = (value or "").partition(":")
            headers[name.strip()] = header_value.strip()
        elif flag in DATA_FLAGS:
            if (value or "").startswith("@") and flag != "--data-raw":
                raise RequestValidationError([Text("curl.body_from_file", flag=flag, path=value)])
            data.append(value or "")
            if flag == "--json":
                headers.setdefault("Content-Type", "application/json")
        elif flag == "--url":
            url = value
        elif not flag.startswith("-") and url is None:
            url = flag
    if not url:
        raise RequestValidationError([Text("curl.no_url")])
    if not url.startswith(("http://", "https://")):
        url = "http://" + url
    body = _json_body("&".join(data)) if data else None
    request = CurlRequest(method or ("POST" if data else "GET"), url, headers, body)
    _take_key(request)
    return request


def _json_body(text: str) -> Any:
    try:
        return strict_json(text)
    except RequestValidationError as error:
        raise RequestValidationError([Text("curl.body_not_json", problem=problem[:160]) for problem in error.problems]) from None


def _take_key(request: CurlRequest) -> None:
    """Move the key out of headers and URL into `api_key` (placeholders like $KEY are dropped)."""
    for name in list(request.headers):
        style = KEY_HEADERS.get(name.lower())
        if style is None:
            continue
        value = request.headers.pop(name)
        if name.lower() == "authorization":
            scheme, _, value = value.partition(" ")
            if scheme.lower() != "bearer":
                continue
        request.api_key, request.auth_style = value.strip(), style
    parts = urlsplit(request.url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in query if k != "key"]
    if len(kept) != len(query):
        request.api_key = next(v for k, v in query if k == "key")
        request.auth_style = "query"
        request.url = urlunsplit(parts._replace(query=urlencode(kept)))
    if request.api_key and _PLACEHOLDER.match(request.api_key):
        request.api_key = None
