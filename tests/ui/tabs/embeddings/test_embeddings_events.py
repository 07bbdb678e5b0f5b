"""The Embeddings tab's events, called as the page runs them (`handlers.EmbeddingsHandlers` and
the module functions `layout` wires): Embed with Stop armed and pressed, the text exports on
request, and a form imported from curl or a session file checked as Embed checks it."""

from __future__ import annotations

from dataclasses import astuple
from typing import Any

import pytest

from playground.client.curl_import import parse_curl
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.ui.i18n import english
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.stopping import StopSwitch
from playground.ui.tabs.embeddings import handlers
from playground.ui.tabs.embeddings.handlers import EmbeddingsForm

DOCUMENTS = "Sourdough bread needs flour, water and a starter.\nThe train to Berlin leaves at nine.\nBake the bread in a hot oven."


def no_progress(*_: Any, **__: Any) -> None:
    return None


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


async def test_embed_shows_every_view_and_stop_skips_them(client: GatewayClient, defaults: ServerDefaults) -> None:
    wired, switch = handlers.EmbeddingsHandlers(client, defaults), StopSwitch()
    assert handlers.arm_stop(switch)["visible"] is False and switch.event is not None and not switch.event.is_set()
    shown = await wired.embed(switch, "", "", *astuple(EmbeddingsForm(texts=DOCUMENTS, query="bread")), progress=no_progress)
    assert len(shown) == handlers.RUN_OUTPUTS and shown[0]["visible"] is False and "<td" in shown[2] and "<circle" in shown[3]
    assert shown[5]["data"] and shown[7]["visible"] is False, "small inputs come with their text exports"
    notice = handlers.stop_clicked(switch)
    assert notice["value"] == english("embeddings.stopped") and switch.event.is_set()
    stopped = await wired.embed(switch, "", "", *astuple(EmbeddingsForm(texts=DOCUMENTS)), progress=no_progress)
    assert len(stopped) == handlers.RUN_OUTPUTS and all(skipped(v) for v in stopped)
    refused = await wired.embed(StopSwitch(), "", "", *astuple(EmbeddingsForm(texts="")), progress=no_progress)
    assert refused[0]["visible"] is True and all(skipped(v) for v in refused[1:9])


def test_text_exports_without_vectors_say_why() -> None:
    files, button, error = handlers.write_text_exports(None)
    assert skipped(files) and skipped(button) and error["visible"] is True and "embed some texts first" in error["value"]


def test_a_curl_command_fills_the_form_in_its_field_order() -> None:
    request = parse_curl("curl https://gw/v1/embeddings -H 'Authorization: Bearer sk-x' -d '{\"model\": \"m-1\", \"input\": [\"a\", \"b\"]}'")
    values = handlers.curl_form_values(request)
    form = EmbeddingsForm(*values)
    assert form.texts == "a\nb" and form.list_model == "m-1" and form.native_model == EmbeddingsForm().native_model
    handlers.check_values({**vars(form)}, [])
    with pytest.raises(RequestValidationError):
        handlers.check_values({**vars(form), "extra_fields": "[1, 2]"}, [])
