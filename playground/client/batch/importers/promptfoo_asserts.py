"""promptfoo assertions as Batch graders. Each maps to one grader kind with the same verdict where
the playground has one (`contains` is case-sensitive, so it becomes an escaped regex; the
`-any`/`-all` forms and `starts-with` regexes too); `equals` compares normalised text (looser
than promptfoo's exact match: the docs' mapping table says so). Code (`javascript`, `python`,
`webhook`), transforms and the kinds the playground has no grader for are named, never run."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import regex

from playground.client.batch.graders import MAX_PATTERN_CHARS
from playground.client.batch.importers.bounds import SuiteFiles, load_json, load_yaml, scalar_text
from playground.client.batch.importers.providers import column_of, gateway_model
from playground.client.batch.importers.suite import DEFAULT_EMBEDDING_MODEL
from playground.client.texts import Text

CODE_KINDS = frozenset({"javascript", "python", "webhook", "ruby"})


@dataclass(frozen=True)
class Assertion:
    """One mapped assertion: the grader kind and its options (the same for every row it is
    grouped with), and its value for the row it came from ("" for kinds without one)."""

    kind: str
    value: str
    threshold: float | None = None
    model: str = ""
    prices: str = ""

    @property
    def options(self) -> tuple[str, float | None, str, str]:
        return self.kind, self.threshold, self.model, self.prices


@dataclass(frozen=True)
class Context:
    files: SuiteFiles
    templates: dict[str, Any]
    grading_model: str
    prices: str


def _texts(value: Any) -> list[str] | None:
    if isinstance(value, list) and value and all(isinstance(item, (str, int, float)) and not isinstance(item, bool) for item in value):
        return [str(item) for item in value]
    if isinstance(value, str) and value.strip():
        return [part.strip() for part in value.split(",") if part.strip()]
    return None


def _pattern(body: str, flags: str = "") -> str | None:
    pattern = (f"(?{flags})" if flags else "") + body
    return pattern if len(pattern) <= MAX_PATTERN_CHARS else None


def _escaped(value: str) -> str:
    return str(regex.escape(value, special_only=True, literal_spaces=True))


def _threshold(item: dict[str, Any]) -> float | None:
    value = item.get("threshold")
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _grading_model(item: dict[str, Any], ctx: Context, where: str, unmapped: list[str]) -> str:
    provider = item.get("provider")
    if provider is None:
        return ctx.grading_model
    provider_id = provider if isinstance(provider, str) else provider.get("id") if isinstance(provider, dict) else None
    column = column_of(provider_id) if isinstance(provider_id, str) else None
    if isinstance(column, tuple) and column[1]:
        return column[1]
    unmapped.append(Text("import.grading_provider", where=where))
    return ctx.grading_model


def _string_kinds(kind: str, value: Any) -> Assertion | str:
    """contains, icontains, not-…, starts-with, the -any / -all forms: as contains or a regex."""
    text = scalar_text(value) if not isinstance(value, (list, dict)) else None
    if kind in ("icontains", "not-icontains") and text:
        return Assertion("contains" if kind == "icontains" else "not_contains", text)
    if kind in ("contains", "not-contains", "starts-with") and text:
        if "{{" in text:  # a template is filled per row: the case-folded grader keeps it readable
            return Assertion("contains", text) if kind == "contains" else Text("import.assert_template", kind=kind)
        body = {"contains": _escaped(text), "not-contains": rf"\A(?!.*?{_escaped(text)})", "starts-with": rf"\A{_escaped(text)}"}[kind]
        pattern = _pattern(body, "s" if kind == "not-contains" else "")
        return Assertion("regex", pattern) if pattern else Text("import.assert_too_long", kind=kind, limit=MAX_PATTERN_CHARS)
    items = _texts(value)
    if kind in ("contains-any", "icontains-any", "contains-all", "icontains-all") and items:
        escaped = [_escaped(item) for item in items]
        body = f"(?:{'|'.join(escaped)})" if kind.endswith("-any") else r"\A" + "".join(f"(?=.*?{item})" for item in escaped)
        pattern = _pattern(body, ("i" if kind.startswith("i") else "") + ("s" if kind.endswith("-all") else ""))
        return Assertion("regex", pattern) if pattern else Text("import.assert_too_long", kind=kind, limit=MAX_PATTERN_CHARS)
    return Text("import.assert_needs_value", kind=kind)


def _json_kinds(kind: str, value: Any, ctx: Context, where: str) -> Assertion | str:
    if isinstance(value, str) and value.startswith("file://"):
        name = ctx.files.resolve(value, where)
        if not name.endswith((".json", ".yaml", ".yml")):
            return Text("import.assert_file_kind", kind=kind, name=name)
        text = ctx.files.text(name)
        value = load_json(text, name) if name.endswith(".json") else load_yaml(text, name)
    if value in (None, ""):
        return Assertion("json" if kind == "is-json" else "contains_json", "")
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return Text("import.assert_schema", kind=kind)
    if not isinstance(value, dict):
        return Text("import.assert_schema", kind=kind)
    return Assertion("schema" if kind == "is-json" else "contains_json", json.dumps(value, ensure_ascii=False))


def map_assertion(item: Any, where: str, ctx: Context, unmapped: list[str]) -> Assertion | None:
    """The grader an assertion becomes, or None with its reason added to `unmapped`."""
    mapped = _map(item, where, ctx, unmapped)
    if isinstance(mapped, Assertion):
        return mapped
    unmapped.append(Text("import.unmapped_at", where=where, reason=mapped))
    return None


def _map(item: Any, where: str, ctx: Context, unmapped: list[str]) -> Assertion | str:
    if isinstance(item, dict) and isinstance(item.get("$ref"), str):
        name = item["$ref"].removeprefix("#/assertionTemplates/")
        if item["$ref"] == name or not isinstance(ctx.templates.get(name), dict):
            return Text("import.assert_ref", ref=item["$ref"][:80])
        item = {**ctx.templates[name], **{k: v for k, v in item.items() if k != "$ref"}}
    if not isinstance(item, dict) or not isinstance(item.get("type"), str):
        return Text("import.assert_shape")
    kind, value = item["type"].strip(), item.get("value")
    if kind in CODE_KINDS or (kind.startswith("not-") and kind[4:] in CODE_KINDS):
        return Text("import.assert_code", kind=kind)
    if isinstance(value, str) and value.startswith("file://") and kind not in ("is-json", "contains-json"):
        if value.split("?")[0].endswith((".js", ".ts", ".py", ".mjs", ".cjs")):
            return Text("import.assert_code", kind=kind)
        value = ctx.files.text(ctx.files.resolve(value, where)).strip()
    if "transform" in item:
        return Text("import.assert_transform", kind=kind)
    handlers: dict[str, Callable[[], Assertion | str]] = {
        "equals": lambda: Assertion("equals", scalar_text(value) or "") if value is not None else Text("import.assert_needs_value", kind=kind),
        "regex": lambda: Assertion("regex", value) if isinstance(value, str) and value and len(value) <= MAX_PATTERN_CHARS
        else Text("import.assert_needs_value", kind=kind),
        "is-json": lambda: _json_kinds(kind, value, ctx, where),
        "contains-json": lambda: _json_kinds(kind, value, ctx, where),
        "similar": lambda: Assertion("similar", scalar_text(value) or "", _threshold(item) if _threshold(item) is not None else 0.75,
                                     _embedding_model(item)) if isinstance(value, str) and value.strip()
        else Text("import.assert_needs_value", kind=kind),
        "llm-rubric": lambda: Assertion("model", value, None, _grading_model(item, ctx, where, unmapped)) if isinstance(value, str) and value.strip()
        else Text("import.assert_needs_value", kind=kind),
        "latency": lambda: Assertion("latency", "", _threshold(item)) if _threshold(item) is not None else Text("import.assert_threshold", kind=kind),
        "cost": lambda: Assertion("cost", "", _threshold(item), prices=ctx.prices) if _threshold(item) is not None
        else Text("import.assert_threshold", kind=kind),
    }
    if kind in handlers:
        return handlers[kind]()
    if kind in ("contains", "icontains", "not-contains", "not-icontains", "starts-with", "contains-any", "icontains-any", "contains-all", "icontains-all"):
        return _string_kinds(kind, value)
    return Text("import.assert_unknown", kind=kind[:40])


def _embedding_model(item: dict[str, Any]) -> str:
    provider = item.get("provider")
    provider_id = provider if isinstance(provider, str) else provider.get("id") if isinstance(provider, dict) else ""
    if isinstance(provider_id, str) and ":" in provider_id:
        return gateway_model(provider_id.rsplit(":", 1)[-1]) or DEFAULT_EMBEDDING_MODEL
    return DEFAULT_EMBEDDING_MODEL
