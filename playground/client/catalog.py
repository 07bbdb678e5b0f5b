"""Model ids the spec names, their families, thinking suffix variants and capabilities.

This is the offline fallback for model pickers; when the gateway answers `GET /v1/models`
its list is used instead (merged with these, see `merge_model_ids`).
"""

from __future__ import annotations

from dataclasses import dataclass

THINKING_SUFFIXES = ("-thinking", "-nothinking", "-thinking-low", "-thinking-high")


@dataclass(frozen=True)
class ModelInfo:
    id: str
    family: str
    interfaces: tuple[str, ...]
    reasoning: bool = False
    thinking_suffixes: bool = False
    vision: bool = True


CHAT_MODELS: tuple[ModelInfo, ...] = (
    ModelInfo("gx-2.5-flash", "gx", ("chat", "native"), thinking_suffixes=True),
    ModelInfo("gx-2.5-pro", "gx", ("chat", "native"), reasoning=True, thinking_suffixes=True),
    ModelInfo("gx-3-pro-preview", "gx", ("chat", "native"), reasoning=True, thinking_suffixes=True),
    ModelInfo("gpt-4o-mini", "gpt", ("chat", "responses")),
    ModelInfo("gpt-4.1", "gpt", ("chat", "responses")),
    ModelInfo("o4-mini", "gpt", ("chat", "responses"), reasoning=True),
    ModelInfo("cl-sonnet-4-5-20250929", "cl", ("chat", "messages")),
    ModelInfo("cl-haiku-4-5-20251001", "cl", ("chat", "messages")),
    ModelInfo("cl-opus-4-5-20251101", "cl", ("chat", "messages")),
    ModelInfo("cl-opus-4-1-20250805", "cl", ("messages",)),
    ModelInfo("cl-sonnet-4-20250514", "cl", ("messages",)),
    ModelInfo("qwen-plus", "qwen", ("chat",)),
    ModelInfo("deepseek-reasoner", "deepseek", ("chat",), reasoning=True, vision=False),
)

EMBEDDING_MODELS = ("text-embedding-3-small", "text-embedding-3-large", "text-embedding-ada-002", "gx-embedding-001", "text-embedding-004")
IMAGE_MODELS = ("gx-2.5-flash-image", "gx-3-pro-image-preview")


def thinking_variants(model_id: str) -> list[str]:
    """`-thinking`, `-nothinking`, `-thinking-low`, `-thinking-high` and one budget example."""
    return [model_id + suffix for suffix in THINKING_SUFFIXES] + [f"{model_id}-thinking-8192"]


def base_model(model_id: str) -> str:
    """Strip a thinking suffix: `gx-2.5-pro-thinking-4096` -> `gx-2.5-pro`."""
    for marker in ("-nothinking", "-thinking"):
        head, sep, _ = model_id.partition(marker)
        if sep:
            return head
    return model_id


def chat_model_ids() -> list[str]:
    ids: list[str] = []
    for info in CHAT_MODELS:
        if "chat" not in info.interfaces:
            continue
        ids.append(info.id)
        if info.thinking_suffixes:
            ids.extend(thinking_variants(info.id))
    return ids


def find(model_id: str) -> ModelInfo | None:
    base = base_model(model_id)
    return next((info for info in CHAT_MODELS if info.id == base), None)


def merge_model_ids(from_gateway: list[str], fallback: list[str]) -> list[str]:
    """Gateway's list first (its order), then catalog ids it did not mention."""
    seen = dict.fromkeys(from_gateway)
    for model_id in fallback:
        seen.setdefault(model_id)
    return list(seen)


MESSAGES_MODELS = tuple(info.id for info in CHAT_MODELS if "messages" in info.interfaces)
CACHED_READ_DISCOUNT = 0.9


def cache_minimum(model_id: str) -> int:
    """Fewest prefix tokens the messages format caches: 2048 for the small model, else 1024."""
    return 2048 if "haiku" in model_id else 1024
