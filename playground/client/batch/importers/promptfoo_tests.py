"""promptfoo's CSV test files: a column per variable, and `__expected` columns (`__expected1`,
`__expected2`, ...) each holding one assertion written as `type: value` (`contains: Paris`,
`similar(0.8): text`, `grade: rubric` for llm-rubric, `fn:` for JavaScript, a bare `is-json`);
a value without a known type is an `equals` assertion, as promptfoo reads it."""

from __future__ import annotations

import re
from typing import Any

CSV_ASSERTION = re.compile(r"__expected\d*")
_TYPED = re.compile(r"(?P<type>[a-z][a-z0-9-]*)(?:\((?P<threshold>\d+(?:\.\d+)?)\))?(?::\s?(?P<value>.*))?", re.DOTALL)
ALIASES = {"fn": "javascript", "eval": "javascript", "grade": "llm-rubric"}
WITHOUT_VALUE = frozenset({"is-json", "contains-json", "is-xml", "contains-xml", "is-sql", "contains-sql", "is-valid-openai-tools-call",
                           "is-valid-openai-function-call", "is-refusal", "not-is-refusal", "perplexity", "is-html", "contains-html"})
KNOWN = frozenset({"equals", "contains", "icontains", "not-contains", "not-icontains", "contains-any", "icontains-any", "contains-all",
                   "icontains-all", "starts-with", "regex", "not-regex", "is-json", "contains-json", "similar", "not-similar", "llm-rubric",
                   "latency", "cost", "javascript", "python", "webhook", "levenshtein", "rouge-n", "bleu", "gleu", "meteor",
                   "model-graded-closedqa", "factuality", "answer-relevance", "classifier", "moderation", "perplexity", "perplexity-score",
                   "not-equals", "is-xml", "contains-xml", "is-sql", "contains-sql", "g-eval", "select-best", "is-refusal"})
THRESHOLD_KINDS = frozenset({"similar", "not-similar", "latency", "cost", "levenshtein", "perplexity", "classifier", "rouge-n", "bleu"})


def csv_assertion(text: str) -> dict[str, Any]:
    """One `__expected` cell as a promptfoo assertion."""
    match = _TYPED.fullmatch(text)
    if match:
        kind = ALIASES.get(match["type"], match["type"])
        if kind in KNOWN and (match["value"] is not None or kind in WITHOUT_VALUE):
            item: dict[str, Any] = {"type": kind}
            if match["value"] is not None:
                item["value"] = match["value"]
            if match["threshold"] is not None:
                item["threshold"] = float(match["threshold"])
            if kind in ("latency", "cost") and "value" in item and "threshold" not in item:
                try:
                    item["threshold"] = float(item.pop("value"))
                except ValueError:
                    pass
            return item
    return {"type": "equals", "value": text}
