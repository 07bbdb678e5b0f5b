"""Gradio's launch check gives up at its first 3 s timeout; the app's check keeps asking for a
while, so a loaded machine that builds the page slowly still starts the app."""

from __future__ import annotations

from gradio import networking

from playground.gradio_compat import launch


def test_a_slow_page_is_asked_again_until_it_answers(monkeypatch) -> None:
    answers = iter([False, False, True])
    asked: list[str] = []
    monkeypatch.setattr(networking, "url_ok", lambda url: asked.append(url) or next(answers))
    monkeypatch.setattr(launch.time, "sleep", lambda seconds: None)
    launch.patient_launch_check()
    assert networking.url_ok("http://127.0.0.1:1/") is True
    assert len(asked) == 3


def test_a_page_that_never_answers_is_reported_after_the_deadline(monkeypatch) -> None:
    clock = iter(range(0, 1000, 10))
    monkeypatch.setattr(networking, "url_ok", lambda url: False)
    monkeypatch.setattr(launch.time, "sleep", lambda seconds: None)
    monkeypatch.setattr(launch.time, "monotonic", lambda: float(next(clock)))
    launch.patient_launch_check()
    assert networking.url_ok("http://127.0.0.1:1/") is False
