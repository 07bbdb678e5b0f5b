"""Who owns what a visitor makes (a Batch run, its votes, its exports).

In hosted mode the owner is the visitor behind the request as `visitors.visitor_of` names it
(address-bound: a new Gradio session or a new tab is the same visitor, another address is
another visitor), written as a digest so files on disk hold no address. On a person's own machine
everyone is one owner, `EVERYONE` (""), and may open everything, as before owners existed.
"""

from __future__ import annotations

import hashlib
from typing import Any

from playground.gradio_compat import current_request
from playground.ui.web.visitors import visitor_of

EVERYONE = ""
"""The owner in local mode: one person, every run theirs."""


def owner_of(request: Any, hosted: bool) -> str | None:
    """The owner a request acts as: `EVERYONE` locally; hosted, the visitor's digest, or None
    when the request names no visitor (it then owns and opens nothing)."""
    if not hosted:
        return EVERYONE
    visitor = visitor_of(request)
    if not visitor:
        return None
    return "visitor:" + hashlib.sha256(f"gateway-playground owner\n{visitor}".encode()).hexdigest()[:32]


def current_owner(hosted: bool) -> str | None:
    """`owner_of` the request of the event being handled (Gradio's request context, as the
    per-visitor limits read it)."""
    return owner_of(current_request(), hosted)


def may_open(owner: str, requester: str | None) -> bool:
    """Whether `requester` (from `owner_of`) may read what `owner` made: locally everything;
    hosted, only what the same visitor made (a run that names nobody is nobody's)."""
    if requester is None:
        return False
    return requester in (EVERYONE, owner)
