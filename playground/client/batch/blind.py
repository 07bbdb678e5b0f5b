"""What keeps a blind A/B vote blind: a pair whose shown answers name a model (either column's own)
is not a blind comparison, and a vote on it is dropped with the reason.

A model is named when an answer holds, as a whole word (case ignored), the column's model id, the id
without a thinking suffix (`-thinking-4096`) or without a date snapshot (`-20250929`).
"""

from __future__ import annotations

import re

from playground.client.catalog import base_model
from playground.client.texts import Text

_SNAPSHOT = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2})$")


def model_names(model: str) -> set[str]:
    """The names an answer could give `model` by: its id, without a thinking suffix or a date snapshot."""
    model = model.strip()
    base = base_model(model)
    return {name.casefold() for name in (model, base, _SNAPSHOT.sub("", base)) if len(name) >= 2}


def _names(answer: str, name: str) -> bool:
    return re.search(rf"(?<![0-9a-z]){re.escape(name)}(?![0-9a-z])", answer.casefold()) is not None


def named_model(answers: dict[str, str], models: list[str]) -> Text | None:
    """Why a vote on these shown answers ({"A": text, "B": text}) is dropped: the first answer that
    names one of `models` (the two columns' models), or None when neither does."""
    for label, answer in answers.items():
        for model in models:
            for name in sorted(model_names(model), key=len, reverse=True):
                if _names(answer, name):
                    return Text("blind.answer_names_model", answer=label, model=name)
    return None
