"""What the Images tab shows, as plain values: the aspect-ratio preview box, the table of what
was delivered against what was asked (with a mark where it was not honoured), gallery and
history items. No Gradio here; every upstream string is escaped."""

from __future__ import annotations

import html
import math

from playground.client.images import TIER_PIXELS, GeneratedImage, parse_ratio
from playground.ui.i18n import say
from playground.ui.tabs.images.state import NOT_SET, Generation
from playground.ui.web.shown_files import shown_path

RATIOS = ("1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3", "4:5", "5:4", "21:9")
RATIO_TOLERANCE = 0.02
PREVIEW_BOX = 96


def expected_pixels(ratio: tuple[int, int], tier: str) -> tuple[int, int]:
    """Pixels when the tier is the long side (the demo gateway's reading; real models vary)."""
    long_side, (w, h) = TIER_PIXELS[tier], ratio
    return (long_side, max(1, round(long_side * h / w))) if w >= h else (max(1, round(long_side * w / h)), long_side)


def ratio_preview_html(ratio_text: str | None, tier: str | None) -> str:
    """A box drawn at the chosen aspect ratio, with the pixel size the tier suggests."""
    ratio = parse_ratio(ratio_text)
    if ratio is None:
        label = say("imgview.default_shape") if ratio_text in (None, "", NOT_SET) else say("imgview.not_ratio")
        return f'<div class="ratio-preview"><div class="ratio-box ratio-unknown">?</div><span>{html.escape(label)}</span></div>'
    w, h = ratio
    scale = PREVIEW_BOX / max(w, h)
    width, height = max(4, round(w * scale)), max(4, round(h * scale))
    pixels = ""
    if tier in TIER_PIXELS:
        px_w, px_h = expected_pixels(ratio, tier)
        pixels = say("imgview.about", width=px_w, height=px_h, tier=tier)
    return (f'<div class="ratio-preview" data-ratio="{w}:{h}"><div class="ratio-box" style="width:{width}px;height:{height}px">'
            f"{w}:{h}</div><span>{w}:{h}{pixels}</span></div>")


BYTE_UNITS = ("B", "KB", "MB", "GB", "PB")


def human_bytes(size: int) -> str:
    """A file size exactly as Gradio's file list beside the table writes it (1 KB = 1024 B,
    one decimal), so the two never show different numbers for one file."""
    value, unit = float(size), 0
    while value > 1024 and unit < len(BYTE_UNITS) - 1:
        value /= 1024
        unit += 1
    return f"{value:.1f} {BYTE_UNITS[unit]}"


def images_word(count: int) -> str:
    """The catalogue's word for `count` images ("image" or "images"; the Chinese measure word either way)."""
    return say("images.one" if count == 1 else "images.many")


def nothing_delivered_html() -> str:
    """The results panel after a request that delivered nothing: no stale table stays."""
    return say("imgview.nothing")


def ratio_name(width: int, height: int) -> str:
    """`16:9` when the pixels are within 2% of a common ratio, else the reduced ratio."""
    for text in RATIOS:
        ratio = parse_ratio(text)
        assert ratio is not None  # every entry of RATIOS is a W:H ratio
        w, h = ratio
        if abs(width / height - w / h) <= RATIO_TOLERANCE * w / h:
            return text
    divisor = math.gcd(width, height)
    return f"{width // divisor}:{height // divisor}" if max(width, height) // divisor <= 64 else f"{width / height:.3f}:1"


def ratio_honoured(image: GeneratedImage, asked: tuple[int, int]) -> bool:
    w, h = asked
    return abs(image.width / image.height - w / h) <= RATIO_TOLERANCE * w / h


def tier_honoured(image: GeneratedImage, tier: str) -> bool:
    """The tier's long side (within 5%), or about its area (real models pick their own sizes)."""
    side = TIER_PIXELS[tier]
    return abs(max(image.width, image.height) - side) <= 0.05 * side or 0.45 <= image.width * image.height / side**2 <= 1.6


def _mark(ok: bool, text: str) -> str:
    kind = "honoured" if ok else "not-honoured"
    return f'<span class="mark {kind}">{"✓" if ok else "⚠"} {html.escape(text)}</span>'


def image_checks(image: GeneratedImage, generation: Generation) -> list[str]:
    asked = generation.asked
    marks = []
    ratio = parse_ratio(asked.get("size"))
    if ratio is not None:
        ok = ratio_honoured(image, ratio)
        asked_ratio = f"{ratio[0]}:{ratio[1]}"
        marks.append(_mark(ok, say("imgview.ratio", ratio=asked_ratio) if ok else
                           say("imgview.asked_got", asked=asked_ratio, got=ratio_name(image.width, image.height))))
    tier = asked.get("image_size")
    if tier in TIER_PIXELS:
        long_side = say("imgview.long_side", pixels=max(image.width, image.height))
        marks.append(_mark(tier_honoured(image, tier), say("imgview.size", tier=tier) if tier_honoured(image, tier) else
                           say("imgview.asked_got", asked=tier, got=long_side)))
    mime = asked.get("mime_type")
    if mime:
        marks.append(_mark(image.mime_type == mime, say("imgview.type", mime=mime) if image.mime_type == mime else
                           say("imgview.asked_got", asked=mime, got=image.mime_type)))
    return marks


def delivered_html(generation: Generation | None) -> str:
    """Per image: pixels, ratio, type, bytes, how it arrived; against what was asked."""
    if generation is None or generation.result is None:
        return say("imgview.empty")
    images, asked = generation.result.images, generation.asked
    wanted = int(asked.get("n") or 1)
    count = _mark(len(images) == wanted, say("imgview.count", delivered=len(images), wanted=wanted, images=images_word(wanted)) +
                  ("" if "n" in asked else say("imgview.n_not_sent")))
    asked_text = " · ".join(html.escape(f"{name} {asked[name]}") for name in ("size", "image_size", "n", "mime_type", "quality") if name in asked)
    rows = []
    for number, image in enumerate(images, start=1):
        rows.append(
            f'<tr data-index="{number - 1}" data-width="{image.width}" data-height="{image.height}"><td>{number}</td>'
            f"<td>{image.width}×{image.height}</td><td>{html.escape(ratio_name(image.width, image.height))}</td>"
            f"<td>{html.escape(image.mime_type)}</td><td>{human_bytes(image.size)}</td><td>{html.escape(delivered_words(image.delivered_as))}</td>"
            f'<td>{" ".join(image_checks(image, generation)) or "—"}</td></tr>')
    heads = "".join(f"<th>{say(f'imgview.th.{name}')}</th>" for name in ("pixels", "ratio", "type", "size", "as", "vs_asked"))
    return (f'<div class="images-delivered"><p>{say("imgview.asked", asked=asked_text or say("imgview.defaults"), count=count)}</p>'
            f"<table><thead><tr><th>#</th>{heads}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def gallery_items(generation: Generation | None) -> list[tuple[str, str]]:
    """(path, caption) per image: the revised prompt when the gateway gave one."""
    if generation is None or generation.result is None:
        return []
    return [(path, image.revised_prompt or say("imgview.image_n", number=number)) for number, image in enumerate(generation.result.images, start=1)
            if (path := shown_path(image.path)) is not None]


def settings_line(generation: Generation) -> str:
    asked = generation.asked
    parts = [asked.get("size") or say("imgview.default_ratio"), asked.get("image_size") or say("imgview.default_size"), f"×{asked.get('n', 1)}"]
    return " · ".join(str(part) for part in parts)


def history_items(history: list[Generation]) -> list[tuple[str, str]]:
    """One thumbnail per generation, newest first: its first image, the prompt and settings."""
    items = []
    for generation in reversed(history):
        if generation.result is None or not generation.result.images:
            continue
        prompt = generation.prompt if len(generation.prompt) <= 60 else generation.prompt[:59] + "…"
        kind = say("imgview.refine") if generation.kind == "refine" else ""
        path = shown_path(generation.thumbnail or generation.result.images[0].path)
        if path is None:
            continue
        items.append((path, f"#{generation.number} {kind}{prompt} — {settings_line(generation)}"))
    return items


def delivered_words(delivered_as: str) -> str:
    """How an image came, in words, with the answer's own key: a link to fetch (`url`) or the bytes inside the answer."""
    return say("imgview.as_link" if delivered_as == "url" else "imgview.as_embedded", field=delivered_as)
