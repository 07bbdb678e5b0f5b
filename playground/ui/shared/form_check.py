"""Values from outside (a session file, a pasted curl command) checked as a whole before any of
them reaches the screen: each value must fit its component (a number box gets a finite number,
a dropdown one of its choices, a checkbox true or false, a text box text), and the tab's form
must build the same request a send builds. Problems name the field; nothing is rounded, reset
or dropped on the way (a value that would change is a problem too)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import gradio as gr

from playground.client.errors import GatewayError, RequestValidationError
from playground.client.validation import data_problems
from playground.ui.i18n import say

RequestCheck = Callable[[dict[str, Any], list[dict[str, Any]]], None]
"""(form values by field name, the conversation that would be sent) -> None; raises
`RequestValidationError` when the tab could not send them."""

_SKIP = object()


def _unwrap(value: Any) -> tuple[Any, Any]:
    """(value, choices from an update or None); `_SKIP` for an update that sets no value."""
    if isinstance(value, dict) and value.get("__type__") == "update":
        return value.get("value", _SKIP), value.get("choices")
    return value, None


def _choice_values(choices: Any) -> list[Any]:
    values = []
    for choice in choices or []:
        values.append(choice[1] if isinstance(choice, (tuple, list)) and len(choice) == 2 else choice)
    return values


def _number_problem(label: str, value: Any, component: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return say("check.not_number", label=label, value=repr(value))
    if not math.isfinite(value):
        return say("check.not_finite", label=label, value=value)
    low, high = getattr(component, "minimum", None), getattr(component, "maximum", None)
    if isinstance(component, gr.Slider) and ((low is not None and value < low) or (high is not None and value > high)):
        return say("check.outside", label=label, value=value, low=low, high=high)
    return None


def value_problem(label: str, component: Any, value: Any, choices: Any = None, check_choices: bool = True) -> str | None:
    """Why `value` cannot be shown in `component` as it is, or None (`check_choices` False: a
    choice only needs the right type, for fields whose choices come later with a model)."""
    if isinstance(component, (gr.Number, gr.Slider)):
        return _number_problem(label, value, component)
    if isinstance(component, gr.Checkbox):
        return None if isinstance(value, bool) else say("check.not_bool", label=label, value=repr(value))
    if isinstance(component, (gr.Dropdown, gr.Radio, gr.CheckboxGroup)):
        allowed = _choice_values(choices if choices is not None else component.choices)
        many = isinstance(component, gr.CheckboxGroup) or getattr(component, "multiselect", False)
        items = value if many and isinstance(value, list) else [value]
        if many and not isinstance(value, list):
            return say("check.not_list", label=label, value=repr(value))
        if (isinstance(component, gr.Dropdown) and component.allow_custom_value) or not check_choices:
            bad = [item for item in items if item is not None and not isinstance(item, (str, int, float))]
            return say("check.bad_value", label=label, value=repr(bad[0])) if bad else None
        bad = [item for item in items if item not in allowed and not (item in (None, "") and not many)]
        if bad:
            shown = ", ".join(repr(choice) for choice in allowed[:12])
            return say("check.not_a_choice", label=label, value=repr(bad[0]), choices=shown)
        return None
    if isinstance(component, (gr.Textbox, gr.Code, gr.Markdown)):
        return None if value is None or isinstance(value, str) else say("check.not_text", label=label, value=repr(value))
    return None


def values_problems(fields: dict[str, Any], values: dict[str, Any], check_choices: bool = True) -> list[str]:
    """Every value's fit to its component (by field name); updates are checked against the choices they bring."""
    problems = data_problems(values)
    for name, value in values.items():
        if name not in fields:
            continue
        plain, choices = _unwrap(value)
        if plain is _SKIP:
            continue
        problem = value_problem(name, fields[name], plain, choices, check_choices)
        if problem:
            problems.append(problem)
    return problems


def plain_values(values: dict[str, Any], fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The values themselves, out of any updates, as the page would send them back (an empty
    text box as "") for building the form."""
    plain = {name: value for name, raw in values.items() if (value := _unwrap(raw)[0]) is not _SKIP}
    texts = {name for name, component in (fields or {}).items() if isinstance(component, (gr.Textbox, gr.Code))}
    return {name: "" if value is None and name in texts else value for name, value in plain.items()}


def check_whole(fields: dict[str, Any], values: dict[str, Any], sent: list[dict[str, Any]], check: RequestCheck | None) -> None:
    """Raise `RequestValidationError` with every problem of `values` (and the conversation `sent`):
    first each value against its component, then the tab's own request check."""
    problems = values_problems(fields, values)
    if problems:
        raise RequestValidationError(problems)
    if check is None:
        return
    try:
        check(plain_values(values, fields), sent)
    except GatewayError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        raise RequestValidationError([say("check.no_request", kind=type(exc).__name__)]) from None


def turn_check(make_adapter: Callable[[dict[str, Any]], Any]) -> RequestCheck:
    """For a conversation tab: the form with the conversation and one more user message must
    build the request a send would build (the adapter's own rules and request model)."""

    def check(values: dict[str, Any], sent: list[dict[str, Any]]) -> None:
        adapter = make_adapter(values)
        adapter.build_request([*sent, adapter.user_message("(checking the loaded values)", [])])

    return check


def unchanged_problems(given: dict[str, Any], arrived: dict[str, Any], model: Any) -> list[str]:
    """Fields whose value would change on the way to the screen (a form that resets a value that
    does not fit): each is named with the value given and the one it would become."""
    problems = []
    for name, value in given.items():
        after, _ = _unwrap(arrived.get(name, value))
        if after is _SKIP or after == value or (value not in (None, "") and str(after) == str(value)):
            continue
        problems.append(say("check.would_change", name=name, value=repr(value), model=repr(model), after=repr(after)))
    return problems
