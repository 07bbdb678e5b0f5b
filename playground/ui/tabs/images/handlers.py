"""The Images tab's handlers: the form, the session's generations (with a capped history), and
generate / refine / select / restore as plain async functions over plain values.

A generation sends `prompt` alone, or, with reference images, one user turn in `contents`
(text then images). Refine continues from a chosen result: the turns so far (or the earlier
prompt), the image as the model's turn, then the new instruction.

Stop works inside the running event (like the text tabs' Stop): `begin` arms an event, `stop`
sets it, and the call waiting on the gateway is cancelled where it waits. Cancelling the Gradio
event from the page instead sometimes left an error badge and a spinning progress bar.

Then the handlers the tab's events run (`layout` wires them), which turn those into the page's
updates: module functions, and `ImagesHandlers` for the two that call the gateway."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr
from PIL import Image

from playground.client.curl_import import CurlRequest
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.images import (
    GeneratedImage,
    ImageRequest,
    ImagesResult,
    refine_contents,
    user_turn,
)
from playground.client.media import image_data_url, named_copies
from playground.ui.i18n.client_words import word
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.i18n import say
from playground.ui.shared.forms import parse_json_field
from playground.ui.shared.links import MAX_SETTING, opened_with
from playground.ui.tabs.images.state import NOT_SET, Generation, ImagesSession, Outcome
from playground.ui.shared.render import error_text, plain
from playground.ui.shared.stopping import unless_stopped
from playground.ui.shared.widgets import Inspector, banner_update
from playground.ui.tabs.images.views import delivered_html, gallery_items, history_items, images_word, nothing_delivered_html, ratio_preview_html

MAX_REFERENCES = 4
THUMBNAIL_PX = 256
FORM_FIELDS = ("prompt", "model", "ratio", "tier", "n", "quality", "mime_type", "modalities", "extra_fields")


def _set(value: Any) -> Any:
    """A dropdown's "(not set)" or an empty box means: leave the field out."""
    if value is None or (isinstance(value, str) and value.strip() in ("", NOT_SET)):
        return None
    return value.strip() if isinstance(value, str) else value


PROMPT_STAND_IN = "(a prompt is typed before Generate)"
"""What checking loaded values uses for an empty prompt: the prompt is typed, not a setting."""


@dataclass
class ImageForm:
    prompt: str = ""
    model: str = "gx-2.5-flash-image"
    ratio: str | None = "1:1"
    tier: str | None = "1K"
    n: float | None = 1
    quality: str | None = NOT_SET
    mime_type: str | None = "image/png"
    modalities: str | None = NOT_SET
    references: list[str] | None = None
    extra_fields: str = ""
    """A JSON object of fields the form has no control for; a `contents` there is the request's turns."""

    def settings(self) -> dict[str, Any]:
        """The plain values of the form (what history restores and presets keep)."""
        return {name: getattr(self, name) for name in FORM_FIELDS}

    def fields(self) -> dict[str, Any]:
        n = self.n
        if isinstance(n, float) and n.is_integer():
            n = int(n)
        return {"model": (self.model or "").strip(), "size": _set(self.ratio), "image_size": _set(self.tier), "n": n,
                "quality": _set(self.quality), "mime_type": _set(self.mime_type), "response_modalities": _set(self.modalities),
                "response_format": "b64_json"}

    def extra(self) -> dict[str, Any]:
        """The Extra fields editor's object, without `contents` (see `request`)."""
        problems: list[str] = []
        extra = parse_json_field("Extra fields", self.extra_fields, dict, problems) or {}
        controlled = sorted(set(extra) & (set(self.fields()) | {"prompt"}))
        if controlled:
            problems.append(f"Extra fields: {', '.join(controlled)} has its own control above; set it there")
        if problems:
            raise RequestValidationError(problems)
        return {name: value for name, value in extra.items() if name != "contents"}

    def request(self) -> ImageRequest:
        """Text-to-image, image-to-image when reference images are attached (checked like uploads),
        or the turns of a `contents` given in Extra fields (an imported call)."""
        references = [path for path in self.references or [] if path]
        if len(references) > MAX_REFERENCES:
            raise RequestValidationError([f"attach at most {MAX_REFERENCES} reference images"])
        self.extra()
        contents = (parse_json_field("Extra fields", self.extra_fields, dict, []) or {}).get("contents")
        if contents is not None:
            if references:
                raise RequestValidationError(["give reference images or a contents list in Extra fields, not both"])
            return ImageRequest.build(prompt=self.prompt or None, contents=contents, **self.fields())
        if not references:
            return ImageRequest.build(prompt=self.prompt, **self.fields())
        return ImageRequest.build(contents=[user_turn(self.prompt or "", [image_data_url(path) for path in references])], **self.fields())


STOPPED = "images.stopped"
"""The catalogue key of the note shown when Stop is pressed."""


def begin(session: ImagesSession) -> None:
    """Arm Stop for the call about to start (called before the queued event runs)."""
    session.stop.arm()


def stop(session: ImagesSession) -> None:
    """Give up waiting for the running call (or the one about to start)."""
    session.stop.press()


def _thumbnail(path: Path) -> Path:
    """A small WebP beside the results, for the history strip only (the results are never re-encoded)."""
    target = path.parent / "thumbnails" / (hashlib.sha256(str(path).encode()).hexdigest()[:24] + ".webp")
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with Image.open(path) as image:
            image.thumbnail((THUMBNAIL_PX, THUMBNAIL_PX))
            image.convert("RGB").save(target, format="WEBP", quality=80)
    return target


def problems_notice(result: ImagesResult) -> str:
    if not result.problems:
        return ""
    return word("**Some images of the answer could not be used** — " + plain("; ".join(result.problems)) + ". The others are shown.")


async def _run(client: GatewayClient, defaults: ServerDefaults, session: ImagesSession, url: str, key: str,
               generation: Generation, request: ImageRequest, extra: dict[str, Any] | None = None) -> Outcome:
    try:
        conn = resolve_connection(defaults, url, key)
    except GatewayError as error:
        return Outcome(error_text(error))
    try:
        stopped, answer = await unless_stopped(client.images.generate(conn, request, extra), session.stop.event)
    except GatewayError as error:
        return Outcome(error_text(error), exchange=error.exchange)
    if stopped or answer is None:
        return Outcome(notice=say(STOPPED))
    generation.result, generation.exchange = answer
    generation.thumbnail = await asyncio.to_thread(_thumbnail, generation.result.images[0].path)
    generation.downloads = await asyncio.to_thread(named_copies, [image.path for image in generation.result.images], generation.prompt)
    session.made += 1
    generation.number = session.made
    session.add(generation)
    return Outcome("", problems_notice(generation.result), generation.exchange, generation)


async def generate(client: GatewayClient, defaults: ServerDefaults, session: ImagesSession, url: str, key: str, form: ImageForm) -> Outcome:
    """Text-to-image (or image-to-image with references); the result becomes the shown generation."""
    try:
        request = form.request()
        extra = form.extra()
    except GatewayError as error:
        return Outcome(error_text(error))
    asked = request.to_body()
    contents = asked.pop("contents", None)
    generation = Generation(0, "image-to-image" if contents else "text", form.prompt.strip(), form.settings(), asked, contents)
    return await _run(client, defaults, session, url, key, generation, request, extra)


_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}


def refine_count(instruction: str) -> int:
    """How many pictures a refine asks for: one, unless the instruction names more
    ("three versions", "4 variations")."""
    match = re.search(r"\b(two|three|four|[2-4])\s+(?:\w+\s+)?(?:versions|variations|variants|options|pictures|images|takes)\b",
                      instruction.lower())
    return _COUNT_WORDS[match.group(1)] if match else 1


async def refine(client: GatewayClient, defaults: ServerDefaults, session: ImagesSession, url: str, key: str, form: ImageForm,
                 instruction: str) -> Outcome:
    """Continue from the picked image of the shown generation with a new instruction (multi-turn)."""
    earlier = session.shown
    source = earlier.image(session.selected) if earlier else None
    if earlier is None or source is None:
        return Outcome(error_text(RequestValidationError(["generate an image and pick it in the gallery first"])))
    try:
        if not (instruction or "").strip():
            raise RequestValidationError(["type what to change in the picked image"])
        contents = refine_contents(earlier.contents, earlier.prompt, source.path, instruction.strip())
        request = ImageRequest.build(contents=contents, **{**form.fields(), "n": refine_count(instruction)})
        extra = form.extra()
    except GatewayError as error:
        return Outcome(error_text(error))
    asked = request.to_body()
    asked.pop("contents", None)
    generation = Generation(0, "refine", instruction.strip(), form.settings(), asked, contents, source=source.path)
    return await _run(client, defaults, session, url, key, generation, request, extra)


def select(session: ImagesSession, index: int | None) -> GeneratedImage | None:
    """Pick an image of the shown generation (the one refine continues from)."""
    session.selected = index
    return session.shown.image(index) if session.shown else None


def restore(session: ImagesSession, index: int) -> Generation | None:
    """Show a generation of the history again (its images, settings and call)."""
    generation = session.from_history(index)
    if generation is not None:
        session.shown, session.selected = generation, 0
    return generation


def image_form_values(body: Any) -> dict[str, Any]:
    """Form values (every field of `ImageForm` but the uploads) for a pasted request body; fields
    without a control, `contents` included, go into Extra fields."""
    rest = dict(body) if isinstance(body, dict) else {}
    if rest.get("response_format", "b64_json") != "b64_json":
        raise RequestValidationError([f"response_format {rest['response_format']!r}: this family only returns b64_json"])
    rest.pop("response_format", None)
    values = {"prompt": rest.pop("prompt", ""), "model": rest.pop("model", ImageForm.model), "ratio": rest.pop("size", NOT_SET),
              "tier": rest.pop("image_size", NOT_SET), "n": rest.pop("n", 1), "quality": rest.pop("quality", NOT_SET),
              "mime_type": rest.pop("mime_type", NOT_SET), "modalities": rest.pop("response_modalities", NOT_SET)}
    values["extra_fields"] = json.dumps(rest, indent=2, ensure_ascii=False) if rest else ""
    return values


def check_form(values: dict[str, Any], sent: list[dict[str, Any]]) -> None:
    """A saved or imported form checked as Generate would check it (an empty prompt stands in)."""
    ImageForm(**{**values, "prompt": values.get("prompt") or PROMPT_STAND_IN}).request()


def form_from_curl(request: CurlRequest) -> list[Any]:
    """An imported curl command's body as the form's values, in `FORM_FIELDS` order."""
    values = image_form_values(request.body)
    return [values[name] for name in FORM_FIELDS]


SHOWN_COUNT = 8
"""`shown`'s outputs: gallery, downloads, delivered, picked, history, the refine row, source, result."""
RESTORE_COUNT = len(FORM_FIELDS) + 3 + SHOWN_COUNT + 5
"""`restore_generation`'s outputs: the form, status, error, notice, `shown`'s, the inspector's five."""


def status_line(generation: Generation) -> str:
    result, exchange = generation.result, generation.exchange
    count = len(result.images) if result else 0
    took = say("images.status_took", seconds=f"{exchange.finished_at:.1f}") if exchange is not None and exchange.finished_at is not None else ""
    what = say("images.refined" if generation.kind == "refine" else "images.generated")
    return say("images.status", number=generation.number, count=count, images=images_word(count), what=what, took=took,
               model=generation.asked.get("model", ""))


def shown(state: ImagesSession) -> tuple[Any, ...]:
    """The generation on show: gallery, downloads, delivered, picked, history, the refine row, source, result."""
    generation = state.shown
    items = gallery_items(generation)
    is_refine = generation is not None and generation.kind == "refine" and bool(items)
    files = [str(path) for path in generation.downloads] if generation is not None and generation.downloads else [path for path, _ in items]
    return (items, files or None, delivered_html(generation), items[0][0] if items else None,
            history_items(state.history), gr.update(visible=is_refine),
            str(generation.source) if is_refine and generation else None, items[0][0] if is_refine else None)


def finished(state: ImagesSession, outcome: Outcome) -> tuple[Any, ...]:
    """After Generate or Refine: error, notice, status, `shown`'s outputs, the inspector."""
    if outcome.generation is None and outcome.error:  # nothing delivered: no stale gallery or "✓ 4 of 4" stays
        failed = ([], None, nothing_delivered_html(), gr.skip(), gr.skip(), gr.update(visible=False), None, None)
        return (banner_update(outcome.error), banner_update(outcome.notice), "", *failed, *Inspector.values(outcome.exchange))
    if outcome.generation is None:
        return (banner_update(outcome.error), banner_update(outcome.notice), "", *(gr.skip(),) * SHOWN_COUNT,
                *Inspector.values(outcome.exchange))
    return (banner_update(""), banner_update(outcome.notice), status_line(outcome.generation), *shown(state), *Inspector.values(outcome.exchange))


def waiting(state: ImagesSession) -> tuple[Any, ...]:
    """Before Generate or Refine: Stop armed, the banners cleared, "waiting" in the status."""
    begin(state)
    return banner_update(""), banner_update(""), say("images.say.waiting_gateway_stop_gives_up")


def stop_clicked(state: ImagesSession) -> tuple[Any, ...]:
    stop(state)
    return banner_update(say(STOPPED)), ""


def pick_image(state: ImagesSession, evt: gr.SelectData) -> Any:
    """A result clicked in the gallery becomes the picture Refine starts from."""
    image = select(state, evt.index if isinstance(evt.index, int) else None)
    return str(image.path) if image is not None else gr.skip()


def restore_generation(state: ImagesSession, evt: gr.SelectData) -> tuple[Any, ...]:
    """A generation clicked in the history: its settings back in the form, and it on show."""
    generation = restore(state, evt.index if isinstance(evt.index, int) else -1)
    if generation is None:
        return (gr.skip(),) * RESTORE_COUNT
    settings = [generation.settings.get(name, gr.skip()) for name in FORM_FIELDS]
    return (*settings, status_line(generation), banner_update(""), banner_update(""), *shown(state), *Inspector.values(generation.exchange))


@dataclass(frozen=True)
class ImagesHandlers:
    """Generate and Refine, with the client and the server's defaults."""

    client: GatewayClient
    defaults: ServerDefaults

    async def generate_images(self, state: ImagesSession, url: str, key: str, text: str, model_id: str, ratio_text: str, tier_text: str,
                              count: float, quality_text: str, mime: str, modes: str, extra_text: str, files: list[str] | None,
                              progress: Any = gr.Progress()) -> tuple[Any, ...]:
        form = ImageForm(text, model_id, ratio_text, tier_text, count, quality_text, mime, modes, files, extra_text)
        progress(0.1, desc=say("images.progress_generate", count=int(count or 1), images=images_word(int(count or 1))))
        return finished(state, await generate(self.client, self.defaults, state, url, key, form))

    async def refine_image(self, state: ImagesSession, url: str, key: str, change: str, text: str, model_id: str, ratio_text: str,
                           tier_text: str, count: float, quality_text: str, mime: str, modes: str, extra_text: str,
                           progress: Any = gr.Progress()) -> tuple[Any, ...]:
        form = ImageForm(text, model_id, ratio_text, tier_text, count, quality_text, mime, modes, extra_fields=extra_text)
        progress(0.1, desc=say("images.progress_refine"))
        return finished(state, await refine(self.client, self.defaults, state, url, key, form, change))


FIRST_RATIO, FIRST_TIER = "1:1", "1K"
"""The ratio and size tier the form is built with."""


def first_preview(request: gr.Request) -> Any:
    """On the page's load: the ratio preview of the form as the page shows it, in the visitor's language
    (the layout's is in the first locale): the built ratio, or the one the page's link gives it
    (`links.setting_value`'s rule for a picker of values of its own), reading nothing from the page.
    A link that picks a preset is left to the preset's change events."""
    linked = opened_with(request, "images")
    if "preset" in linked:
        return gr.skip()
    ratio = linked.get("ratio", FIRST_RATIO)
    return ratio_preview_html(ratio if len(ratio) <= MAX_SETTING and ratio.isprintable() else FIRST_RATIO, FIRST_TIER)
