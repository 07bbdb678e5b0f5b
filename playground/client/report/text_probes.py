"""Probes of the text formats' answers: plain answer, stream conformance, stop reason and
max-token truncation, system prompt, sampling parameters, JSON-schema output, image and
document input, and time to first token. Each raises `Fail` with what was expected and what
arrived, or returns a one-line note."""

from __future__ import annotations

import base64
import io
import json

from playground.client.intent import Intent
from playground.client.results import TextResult
from playground.client.report.probe import EMPTY, NONE, Fail, Probe, Skip, excerpt, usage_problem
from playground.client.stream_check import check_stream
from playground.client import catalog
from playground.client.report import compat_probes
from playground.client.texts import Text, joined

STOP_REASONS = frozenset({"stop", "end_turn", "STOP", "completed", "stop_sequence"})
LENGTH_REASONS = frozenset({"length", "max_tokens", "MAX_TOKENS", "max_output_tokens", "incomplete"})
QUESTION = "In one sentence: what is the capital of France?"
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
          "required": ["city", "population"], "additionalProperties": False}


def _shape(result: object) -> tuple[bool, bool, bool]:
    return bool(getattr(result, "text", "")), bool(getattr(result, "finish_reason", None)), getattr(result, "usage", None) is not None


def _no_usage(result: TextResult) -> bool:
    """No usage at all, or usage without a token count (a stream whose usage fields were left out)."""
    return result.usage is None or (result.usage.input_tokens is None and result.usage.output_tokens is None)


async def plain(probe: Probe) -> str:
    whole = await probe.create(probe.request(Intent(QUESTION, stream=False)))
    streamed = await probe.stream(probe.request(Intent(QUESTION)))
    for answer, result in ((Text("report.plain.whole"), whole), (Text("report.plain.streamed"), streamed)):
        if not result.text.strip():
            raise Fail(Text("report.plain.no_text", answer=answer), Text("report.plain.expected_text"), excerpt(result.text) if result.text else EMPTY)
        if not result.finish_reason:
            raise Fail(Text("report.plain.no_finish_reason", answer=answer), Text("report.plain.expected_finish_reason"), NONE)
        problem = usage_problem(result)
        if problem:
            raise Fail(Text("report.plain.usage_problem", answer=answer, problem=problem), Text("report.plain.expected_usage"),
                       excerpt(result.usage.__dict__ if result.usage else Text("report.no_usage")), tag="no-usage" if _no_usage(result) else "")
    if _shape(whole) != _shape(streamed) or (whole.finish_reason in STOP_REASONS) != (streamed.finish_reason in STOP_REASONS):
        raise Fail(Text("report.plain.shapes_differ"), Text("report.plain.finish", reason=whole.finish_reason), Text("report.plain.finish", reason=streamed.finish_reason))
    return Text("report.plain.passed", whole=len(whole.text), streamed=len(streamed.text), reason=streamed.finish_reason)


async def stream(probe: Probe) -> str:
    result = await probe.stream(probe.request(Intent(QUESTION)))
    exchange = probe.exchanges[-1]
    violations = check_stream(exchange.url, exchange.events) or []
    if violations:
        tag = "no-done" if any("[DONE]" in v.rule for v in violations) else ""
        first = violations[0].rule
        broken = Text("report.stream.rule_and_more", rule=first, more=len(violations) - 1) if len(violations) > 1 else first
        raise Fail(Text("report.stream.in_section", rule=broken, section=Text(f"report.stream.section.{probe.format}")), Text("report.stream.expected"),
                   joined(Text("report.stream.violation", index=v.index, rule=v.rule) for v in violations[:5]), tag=tag)
    if not result.complete:
        raise Fail(Text("report.stream.in_section", rule=Text("report.stream.no_end_marker"), section=Text(f"report.stream.section.{probe.format}")),
                   Text("report.stream.expected_end_marker"), Text("report.stream.events_no_end", events=len(exchange.events)))
    return Text("report.stream.passed", events=len(exchange.events))


async def finish(probe: Probe) -> str:
    normal = await probe.create(probe.request(Intent(QUESTION, stream=False)))
    if normal.finish_reason not in STOP_REASONS:
        raise Fail(Text("report.finish.normal_ended", reason=repr(normal.finish_reason)), Text("report.finish.expected_stop_reason", reasons=', '.join(sorted(STOP_REASONS))), str(normal.finish_reason))
    cut = await probe.create(probe.request(Intent("Count slowly from one to fifty, in words.", max_tokens=5, stream=False)))
    if cut.finish_reason not in LENGTH_REASONS:
        raise Fail(Text("report.finish.cut_ended", reason=repr(cut.finish_reason)), Text("report.finish.expected_length_reason", reasons=', '.join(sorted(LENGTH_REASONS))),
                   f"{cut.finish_reason}: {excerpt(cut.text, 80)}")
    if cut.usage and cut.usage.output_tokens and cut.usage.output_tokens > 5 + (cut.usage.reasoning_tokens or 0):
        raise Fail(Text("report.finish.cut_too_long"), Text("report.finish.expected_at_most_5"), str(cut.usage.output_tokens))
    return Text("report.finish.passed", normal=normal.finish_reason, cut=cut.finish_reason)


async def system(probe: Probe) -> str:
    word = f"ZEBRA{probe.nonce[-4:]}"
    result = await probe.create(probe.request(Intent("Name one colour.", system=f'Start every answer with the word "{word}".', stream=False)))
    if word.lower() not in result.text.lower():
        raise Fail(Text("report.system.ignored"), Text("report.system.expected", word=word), excerpt(result.text))
    return Text("report.system.passed", word=word)


def _sampling_fields(fmt: str) -> dict[str, object]:
    if fmt == "native":
        return {}
    return {"top_p": 0.9}


async def sampling(probe: Probe) -> str:
    intent = Intent(QUESTION, temperature=0.3, stream=False)
    request = probe.request(intent, **_sampling_fields(probe.format))
    if probe.format == "native":
        body = request.to_body()
        body["generationConfig"]["topP"] = 0.9
        request = type(request).build(model=probe.model, **body)
    result = await probe.create(request)
    if not result.text.strip():
        raise Fail(Text("report.sampling.no_answer"), Text("report.an_answer"), EMPTY)
    return Text("report.sampling.passed")


async def json_schema(probe: Probe) -> str:
    request = probe.request(Intent("Give a city and its population.", stream=False),
                            response_format={"type": "json_schema", "json_schema": {"name": "city", "schema": SCHEMA}})
    result = await probe.create(request)
    try:
        answer = json.loads(result.text)
    except ValueError:
        raise Fail(Text("report.json_schema.not_json"), Text("report.json_schema.expected"), excerpt(result.text), tag="ignores-schema") from None
    import jsonschema

    try:
        jsonschema.validate(answer, SCHEMA)
    except jsonschema.ValidationError as error:
        path = "/".join(str(step) for step in error.absolute_path) or "/"
        raise Fail(Text("report.json_schema.does_not_fit_at", path=path, problem=error.message), json.dumps(SCHEMA), excerpt(answer), tag="ignores-schema") from None
    return Text("report.json_schema.passed")


def tiny_png() -> str:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (200, 40, 90)).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


async def image(probe: Probe) -> str:
    info = catalog.find(probe.model)
    if info is not None and not info.vision:
        raise Skip(Text("report.image.model_takes_no_images", model=probe.model))
    without = await probe.create(probe.request(Intent("What colour is this picture?", stream=False)))
    seen = await probe.create(probe.request(Intent("What colour is this picture?", image=tiny_png(), stream=False)))
    if not seen.text.strip():
        raise Fail(Text("report.image.no_answer"), Text("report.an_answer"), EMPTY)
    return _reached(Text("report.attachment.image"), without, seen)


def _reached(attachment: Text, without: TextResult, seen: TextResult) -> str:
    """The attachment reached the model: it was counted in the input tokens, or it changed the answer."""
    before = without.usage.input_tokens if without.usage else None
    after = seen.usage.input_tokens if seen.usage else None
    if before is not None and after is not None and after > before:
        return Text("report.attachment.counted", before=before, after=after, attachment=attachment)
    if seen.text.strip() != without.text.strip():
        return Text("report.attachment.changed_answer", attachment=attachment, before=before, after=after)
    raise Fail(Text("report.attachment.no_difference", attachment=attachment), Text("report.attachment.expected", tokens=before), Text("report.attachment.arrived", tokens=after))


def tiny_pdf() -> str:
    pdf = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj "
           b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
    return "data:application/pdf;base64," + base64.b64encode(pdf).decode("ascii")


async def document(probe: Probe) -> str:
    question = "What is in this document?"
    without = await probe.create(probe.request(Intent(question, stream=False)))
    content = [{"type": "input_text", "text": question}, {"type": "input_file", "filename": "report-probe.pdf", "file_data": tiny_pdf()}]
    request = type(probe.request(Intent(question, stream=False))).build(model=probe.model, input=[{"role": "user", "content": content}], stream=False)
    seen = await probe.create(request)
    if not seen.text.strip():
        raise Fail(Text("report.document.no_answer"), Text("report.an_answer"), EMPTY)
    return _reached(Text("report.attachment.document"), without, seen)


async def ttft(probe: Probe) -> str:
    result = await probe.stream(probe.request(Intent(QUESTION)))
    if result.first_token_at is None:
        raise Fail(Text("report.ttft.no_token"), Text("report.ttft.expected_first_token", budget=probe.ttft_budget_s), NONE)
    if result.first_token_at > probe.ttft_budget_s:
        raise Fail(Text("report.ttft.took", seconds=result.first_token_at), Text("report.ttft.at_most", budget=probe.ttft_budget_s),
                   f"{result.first_token_at:.2f} s", tag="slow-first-token")
    return Text("report.ttft.passed", ms=result.first_token_at * 1000)


PROBES = {"plain": plain, "stream": stream, "finish": finish, "system": system, "sampling": sampling,
          "json_schema": json_schema, "image": image, "document": document, "ttft": ttft, **compat_probes.PROBES}
