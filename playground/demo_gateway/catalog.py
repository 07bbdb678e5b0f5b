"""The demo gateway's own model list, read from the spec (independent of the client's)."""

from __future__ import annotations

import re
import time

CHAT_MODELS = {
    "gx-2.5-flash": {"owned_by": "gx", "reasoning": False, "suffixes": True},
    "gx-2.5-pro": {"owned_by": "gx", "reasoning": True, "suffixes": True},
    "gx-3-pro-preview": {"owned_by": "gx", "reasoning": True, "suffixes": True},
    "gpt-4o-mini": {"owned_by": "gpt", "reasoning": False, "suffixes": False},
    "gpt-4.1": {"owned_by": "gpt", "reasoning": False, "suffixes": False},
    "o4-mini": {"owned_by": "gpt", "reasoning": True, "suffixes": False},
    "cl-sonnet-4-5-20250929": {"owned_by": "cl", "reasoning": False, "suffixes": False},
    "cl-haiku-4-5-20251001": {"owned_by": "cl", "reasoning": False, "suffixes": False},
    "cl-opus-4-5-20251101": {"owned_by": "cl", "reasoning": False, "suffixes": False},
    "qwen-plus": {"owned_by": "qwen", "reasoning": False, "suffixes": False},
    "deepseek-reasoner": {"owned_by": "deepseek", "reasoning": True, "suffixes": False},
}

IMAGE_MODELS = ("gx-2.5-flash-image", "gx-3-pro-image-preview")
"""The `gx` image family: `/v1/images/generations`, and image output through generate-content."""

_SUFFIX = re.compile(r"^(?P<base>.+?)-(?P<mode>nothinking|thinking(?:-(?P<level>low|high|\d+))?)$")
CREATED = int(time.mktime((2025, 1, 1, 0, 0, 0, 0, 0, 0)))


def resolve_chat_model(model: str) -> tuple[str, str | None] | None:
    """(base model, thinking mode) for a served id, None if unknown.

    Thinking mode: None (model default), "off", "on", "low", "high" or a budget as digits.
    """
    if model in CHAT_MODELS:
        return model, None
    match = _SUFFIX.match(model)
    if not match or match["base"] not in CHAT_MODELS or not CHAT_MODELS[match["base"]]["suffixes"]:
        return None
    if match["mode"] == "nothinking":
        return match["base"], "off"
    return match["base"], match["level"] or "on"


def list_models() -> dict[str, object]:
    data = [{"id": model_id, "object": "model", "created": CREATED, "owned_by": info["owned_by"]} for model_id, info in CHAT_MODELS.items()]
    return {"object": "list", "data": data}
