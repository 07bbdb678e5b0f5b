"""A plan holding text that cannot be sent or saved (a lone surrogate, from a session file or a
prompt moved from Chat) is refused naming where, before a run file exists; a run file is never
left empty by a fact that cannot be written (issue 35: Run failed with `UnicodeEncodeError` and
left a 0-byte run file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.client.batch.dataset import Dataset
from playground.client.batch.plan import Plan, PlanError
from playground.client.batch.store import RunFile


def test_a_plan_with_a_lone_surrogate_is_refused_and_no_run_file_is_made(tmp_path: Path) -> None:
    broken = Plan("Say {{q}}", "", Dataset(["q"], [{"q": "fine"}, {"q": "bad \udc80"}]), [("chat", "gx-2.5-flash")])
    blocking, _ = broken.problems(10, 4)
    assert blocking == ["row 2 of the data set holds a broken character (a lone surrogate, not valid UTF-8) that cannot be sent or saved; remove it"]
    with pytest.raises(PlanError, match="the system prompt holds a broken character"):
        Plan.from_dict(json.loads(json.dumps(dict(broken.to_dict(), system="x \ud800", dataset={"columns": ["q"], "rows": [{"q": "x"}]}))), 10)
    with pytest.raises(UnicodeEncodeError):
        RunFile.create(tmp_path / "runs", broken.to_dict())
    assert list((tmp_path / "runs").iterdir()) == [], "no empty run file is left behind"
