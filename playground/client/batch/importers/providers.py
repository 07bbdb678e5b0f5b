"""promptfoo providers as Batch columns: `openai:chat:MODEL` (and `openai:MODEL`) is chat
completions, `openai:responses:MODEL` the responses format, `anthropic:messages:MODEL` messages,
`google:MODEL`, `vertex:MODEL` and `gemini:MODEL` the native format; the `id:` + `config:` form
(and promptfoo's `{id: config}` map) carries temperature and the output token limit into the
column's own settings. A model is named as the gateway names it: the spec writes a vendor's product
word in a model id as its neutral token (`claude-sonnet-4-5-20250929` is `cl-sonnet-4-5-20250929`,
`gemini-2.5-flash` is `gx-2.5-flash`). What a provider cannot bring (another provider kind, code, connection
settings) is named, never guessed."""

from __future__ import annotations

import math
from typing import Any

from playground.client.batch.importers.bounds import mapping
from playground.client.batch.plan import ColumnSettings
from playground.client.texts import Text

FORMATS_BY_PREFIX = {
    ("openai", "chat"): "chat",
    ("openai", "responses"): "responses",
    ("anthropic", "messages"): "messages",
}
NATIVE_PREFIXES = ("google", "vertex", "gemini")
OPENAI_OTHER_KINDS = ("completion", "embedding", "embeddings", "assistant", "realtime", "image", "moderation", "transcription", "agents")
TOKEN_KEYS = ("max_tokens", "max_output_tokens", "max_completion_tokens", "maxOutputTokens")
CONNECTION_KEYS = frozenset({"apiKey", "apiKeyEnvar", "apiBaseUrl", "apiHost", "baseUrl", "organization", "headers", "region", "projectId"})

VENDOR_WORDS = {"claude": "cl", "gemini": "gx"}
"""A model id's leading product word and the neutral token the gateway writes for it (gateway-api.md)."""

Column = tuple[tuple[str, str], ColumnSettings]


def gateway_model(model: str) -> str:
    """`model` as the gateway names it (`claude-…` -> `cl-…`, `gemini-…` -> `gx-…`; any other as it is)."""
    word, dash, rest = model.partition("-")
    return f"{VENDOR_WORDS[word.lower()]}-{rest}" if dash and rest and word.lower() in VENDOR_WORDS else model


def column_of(provider_id: str) -> tuple[str, str] | str:
    """(format, model) for a provider id, or why it is not a column here."""
    text = provider_id.strip()
    if text.startswith(("file://", "exec:", "python:", "golang:", "http:", "https:", "ws:", "wss:")) or text.endswith((".js", ".ts", ".py", ".mjs")):
        return Text("import.provider_code", provider=text[:80])
    parts = text.split(":")
    if len(parts) >= 3 and (parts[0], parts[1]) in FORMATS_BY_PREFIX:
        return FORMATS_BY_PREFIX[(parts[0], parts[1])], gateway_model(":".join(parts[2:]).strip())
    if parts[0] == "openai" and len(parts) == 2 and parts[1] and parts[1] not in OPENAI_OTHER_KINDS:
        return "chat", parts[1].strip()
    if parts[0] in NATIVE_PREFIXES and len(parts) >= 2:
        model = parts[-1].strip()
        if model:
            return "native", gateway_model(model)
    return Text("import.provider_unknown", provider=text[:80])


def columns_of(providers: Any, where: str, unmapped: list[str]) -> list[Column]:
    """Every provider that maps, in order; the others named in `unmapped`."""
    items = providers if isinstance(providers, list) else [providers] if providers is not None else []
    found: list[Column] = []
    for index, item in enumerate(items):
        here = f"{where}[{index}]"
        mapped = _one(item, here, unmapped)
        if mapped is not None:
            found.append(mapped)
    return found


def _one(item: Any, where: str, unmapped: list[str]) -> Column | None:
    config: dict[str, Any] = {}
    if isinstance(item, str):
        provider_id = item
    elif isinstance(item, dict) and isinstance(item.get("id"), str):
        provider_id, config = item["id"], mapping(item.get("config"))
    elif isinstance(item, dict) and len(item) == 1 and isinstance(next(iter(item)), str):
        provider_id, value = next(iter(item.items()))
        config = mapping(mapping(value).get("config", value))
    else:
        unmapped.append(Text("import.provider_shape", where=where))
        return None
    column = column_of(provider_id)
    if isinstance(column, str):
        unmapped.append(Text("import.unmapped_at", where=where, reason=column))
        return None
    if not column[1]:
        unmapped.append(Text("import.unmapped_at", where=where, reason=Text("import.provider_unknown", provider=provider_id[:80])))
        return None
    return column, _settings(config, where, unmapped)


def _settings(config: dict[str, Any], where: str, unmapped: list[str]) -> ColumnSettings:
    temperature = config.get("temperature")
    if temperature is not None and (isinstance(temperature, bool) or not isinstance(temperature, (int, float))
                                    or not math.isfinite(temperature) or not 0 <= temperature <= 2):
        unmapped.append(Text("import.provider_setting", where=where, name="temperature"))
        temperature = None
    generation: dict[str, Any] = mapping(config.get("generationConfig"))
    tokens = next((source[key] for source in (config, generation) for key in TOKEN_KEYS if key in source), None)
    if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= 1_000_000):
        unmapped.append(Text("import.provider_setting", where=where, name="max_tokens"))
        tokens = None
    if temperature is None and isinstance(generation.get("temperature"), (int, float)) and 0 <= generation["temperature"] <= 2:
        temperature = generation["temperature"]
    read = {"temperature", "generationConfig", *TOKEN_KEYS}
    connection = sorted(key for key in config if key in CONNECTION_KEYS)
    others = sorted(key for key in config if key not in read and key not in CONNECTION_KEYS)
    if connection:
        unmapped.append(Text("import.provider_connection", where=where, names=", ".join(connection)))
    if others:
        unmapped.append(Text("import.provider_config", where=where, names=", ".join(others)[:200]))
    return ColumnSettings(float(temperature) if temperature is not None else None, tokens, None)
