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
from playground.client.report.probe import Fail, Probe, Skip, excerpt, usage_problem
from playground.client.stream_check import check_stream
from playground.client import catalog

STOP_REASONS = frozenset({"stop", "end_turn", "STOP", "completed", "stop_sequence"})
LENGTH_REASONS = frozenset({"length", "max_tokens", "MAX_TOKENS", "max_output_tokens", "incomplete"})
QUESTION = "In one sentence: what is the capital of France?"
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
          "required": ["city", "population"], "additionalProperties": False}


def _shape(result: object) -> tuple[bool, bool, bool]:
    return bool(getattr(result, "text", "")), bool(getattr(result, "finish_reason", None)), getattr(result, "usage", None) is not None


async def plain(probe: Probe) -> str:
    whole = await probe.create(probe.request(Intent(QUESTION, stream=False)))
    streamed = await probe.stream(probe.request(Intent(QUESTION)))
    for name, result in (("whole", whole), ("streamed", streamed)):
        if not result.text.strip():
            raise Fail(f"the {name} answer has no text", "a non-empty answer", excerpt(result.text or "(empty)"))
        if not result.finish_reason:
            raise Fail(f"the {name} answer has no finish reason", "a finish reason", "none")
        problem = usage_problem(result)
        if problem:
            raise Fail(f"{name} answer: {problem}", "usage with input and output tokens above zero, total their sum",
                       excerpt(result.usage.__dict__ if result.usage else "no usage"), tag="no-usage" if result.usage is None else "")
    if _shape(whole) != _shape(streamed) or (whole.finish_reason in STOP_REASONS) != (streamed.finish_reason in STOP_REASONS):
        raise Fail("the streamed answer does not have the whole answer's shape", f"finish {whole.finish_reason}", f"finish {streamed.finish_reason}")
    return f"{len(whole.text)} and {len(streamed.text)} characters; finish {streamed.finish_reason}"


async def stream(probe: Probe) -> str:
    result = await probe.stream(probe.request(Intent(QUESTION)))
    exchange = probe.exchanges[-1]
    violations = check_stream(exchange.url, exchange.events) or []
    if violations:
        tag = "no-done" if any("[DONE]" in v.rule for v in violations) else ""
        raise Fail(violations[0].rule + (f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""),
                   "the format's event order, its end marker, one finish reason, nothing after the end",
                   "; ".join(str(v) for v in violations[:5]), tag=tag)
    if not result.complete:
        raise Fail("the stream ended before its end marker", "the format's end marker", f"{len(exchange.events)} events, no end")
    return f"{len(exchange.events)} events, all in order"


async def finish(probe: Probe) -> str:
    normal = await probe.create(probe.request(Intent(QUESTION, stream=False)))
    if normal.finish_reason not in STOP_REASONS:
        raise Fail(f"a normal answer ended with {normal.finish_reason!r}", "a stop reason (" + ", ".join(sorted(STOP_REASONS)) + ")", str(normal.finish_reason))
    cut = await probe.create(probe.request(Intent("Count slowly from one to fifty, in words.", max_tokens=5, stream=False)))
    if cut.finish_reason not in LENGTH_REASONS:
        raise Fail(f"an answer cut at 5 tokens ended with {cut.finish_reason!r}", "a length reason (" + ", ".join(sorted(LENGTH_REASONS)) + ")",
                   f"{cut.finish_reason}: {excerpt(cut.text, 80)}")
    if cut.usage and cut.usage.output_tokens and cut.usage.output_tokens > 5 + (cut.usage.reasoning_tokens or 0):
        raise Fail("the cut answer counts more output tokens than allowed", "at most 5 output tokens", str(cut.usage.output_tokens))
    return f"{normal.finish_reason}, then {cut.finish_reason} at 5 tokens"


async def system(probe: Probe) -> str:
    word = f"ZEBRA{probe.nonce[-4:]}"
    result = await probe.create(probe.request(Intent("Name one colour.", system=f'Start every answer with the word "{word}".', stream=False)))
    if word.lower() not in result.text.lower():
        raise Fail("the answer ignores the system prompt", f"an answer starting with {word}", excerpt(result.text))
    return f"the answer carries {word}"


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
        raise Fail("no answer with temperature 0.3 and top_p 0.9", "an answer", "(empty)")
    return "temperature 0.3 and top_p 0.9 accepted"


async def json_schema(probe: Probe) -> str:
    request = probe.request(Intent("Give a city and its population.", stream=False),
                            response_format={"type": "json_schema", "json_schema": {"name": "city", "schema": SCHEMA}})
    result = await probe.create(request)
    try:
        answer = json.loads(result.text)
    except ValueError:
        raise Fail("the answer is not JSON", "JSON valid against the schema", excerpt(result.text), tag="ignores-schema") from None
    import jsonschema

    try:
        jsonschema.validate(answer, SCHEMA)
    except jsonschema.ValidationError as error:
        raise Fail(f"the JSON does not fit the schema: {error.message}", json.dumps(SCHEMA), excerpt(answer), tag="ignores-schema") from None
    return "valid against the schema"


def tiny_png() -> str:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (200, 40, 90)).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


async def image(probe: Probe) -> str:
    info = catalog.find(probe.model)
    if info is not None and not info.vision:
        raise Skip(f"{probe.model} takes no images (catalog)")
    without = await probe.create(probe.request(Intent("What colour is this picture?", stream=False)))
    seen = await probe.create(probe.request(Intent("What colour is this picture?", image=tiny_png(), stream=False)))
    if not seen.text.strip():
        raise Fail("no answer to a question with an image", "an answer", "(empty)")
    return _reached("image", without, seen)


def _reached(what: str, without: TextResult, seen: TextResult) -> str:
    """The attachment reached the model: it was counted in the input tokens, or it changed the answer."""
    before = without.usage.input_tokens if without.usage else None
    after = seen.usage.input_tokens if seen.usage else None
    if before is not None and after is not None and after > before:
        return f"input tokens {before} -> {after} with the {what}"
    if seen.text.strip() != without.text.strip():
        return f"the answer changed with the {what} (input tokens {before} -> {after})"
    raise Fail(f"the {what} made no difference", f"more than {before} input tokens, or another answer", f"{after} input tokens, the same answer")


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
        raise Fail("no answer to a question with a document", "an answer", "(empty)")
    return _reached("document", without, seen)


async def ttft(probe: Probe) -> str:
    result = await probe.stream(probe.request(Intent(QUESTION)))
    if result.first_token_at is None:
        raise Fail("no token arrived", f"a first token within {probe.ttft_budget_s:g} s", "none")
    if result.first_token_at > probe.ttft_budget_s:
        raise Fail(f"the first token took {result.first_token_at:.2f} s", f"at most {probe.ttft_budget_s:g} s",
                   f"{result.first_token_at:.2f} s", tag="slow-first-token")
    return f"first token after {result.first_token_at * 1000:.0f} ms"


PROBES = {"plain": plain, "stream": stream, "finish": finish, "system": system, "sampling": sampling,
          "json_schema": json_schema, "image": image, "document": document, "ttft": ttft}
