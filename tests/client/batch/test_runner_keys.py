"""A cell's request key is the one runs kept before wrote: a resume with the cache on reuses the
answers of a run started by an earlier version (the key is `sha256(format + JSON with sorted keys,
non-ASCII kept)`, its first 32 hex digits)."""

from __future__ import annotations

import hashlib

from playground.client.batch.runner import request_key


def test_the_request_key_is_the_sorted_json_digest_runs_already_hold() -> None:
    body = {"model": "gx-2.5-flash", "messages": [{"role": "user", "content": "Qu'est-ce que 2 + 2 ? — « réponse »"}],
            "stream": True, "temperature": 0.5, "a": {"z": None, "b": [1, 2.25, "x"]}}
    written = '{"a": {"b": [1, 2.25, "x"], "z": null}, "messages": [{"content": "Qu\'est-ce que 2 + 2 ? — « réponse »", "role": "user"}], ' \
              '"model": "gx-2.5-flash", "stream": true, "temperature": 0.5}'
    assert request_key("chat", body) == hashlib.sha256(("chat" + written).encode()).hexdigest()[:32]
    assert request_key("chat", body) != request_key("messages", body)
