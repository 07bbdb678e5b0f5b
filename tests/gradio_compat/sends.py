"""Two sends on the real app's Chat tab, as the page makes them: one answered (the reply's text) and
one refused by the gateway (what the page shows in the error banner, `page_diffs.shown`). Run in
this process by the tests, and by `patches_off_run` in a process whose Gradio claims another version."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx

from bench.app_queue import CHAT_FORM, chat_chain, open_session, page_events
from tests.gradio_compat.page_diffs import handed_on, shown

NO_VARIABLES = {"headers": ["variable", "value"], "data": [], "metadata": None}


async def answered_and_refused(url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=60) as http:
        config, events = await page_events(http, url)
        session = await open_session(http, url, events)
        reply = await chat_chain(http, url, events.send, "Please repeat tokone", session)
        send = next(d for d in config["dependencies"] if d["id"] == events.send)
        elem_ids = {c["id"]: c.get("props", {}).get("elem_id") for c in config["components"]}
        data = [{"text": "hello", "files": []}, None, *CHAT_FORM, NO_VARIABLES, "", "sk-not-the-demo-key"]
        outputs = await handed_on(http, url, events.send, data, uuid.uuid4().hex[:12])
    banner = shown(outputs[[elem_ids[i] for i in send["outputs"]].index("chat-error")])
    return {"reply": reply.text, "closing_repeats_the_chat": "tokone" in json.dumps(reply.closing), "banner": banner}
