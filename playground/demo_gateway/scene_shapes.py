"""The shapes the demo's pictures are drawn with: one small function per subject of its
vocabulary, each drawn at a centre x, a base line y (where it stands) and a size, in a colour."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

Colour = tuple[int, int, int]
Draw = ImageDraw.ImageDraw


def _shade(colour: Colour, factor: float) -> Colour:
    return (min(255, int(colour[0] * factor)), min(255, int(colour[1] * factor)), min(255, int(colour[2] * factor)))


def apple(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    r = s / 2
    d.ellipse([x - r, y - 2 * r, x + r, y], fill=c, outline=_shade(c, 0.7), width=max(1, int(s / 60)))
    d.ellipse([x - r * 0.55, y - r * 1.6, x - r * 0.15, y - r * 1.1], fill=_shade(c, 1.35))
    d.line([x, y - 2 * r, x + r * 0.1, y - 2.4 * r], fill=(90, 60, 30), width=max(2, int(s / 25)))
    d.ellipse([x + r * 0.1, y - 2.45 * r, x + r * 0.6, y - 2.15 * r], fill=(60, 150, 60))


def sun(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    r = s / 2
    for k in range(12):
        a = k * math.pi / 6
        d.line([x + math.cos(a) * r * 1.2, y + math.sin(a) * r * 1.2, x + math.cos(a) * r * 1.6, y + math.sin(a) * r * 1.6],
               fill=c, width=max(2, int(s / 18)))
    d.ellipse([x - r, y - r, x + r, y + r], fill=c)


def moon(d: Draw, x: float, y: float, s: float, c: Colour, sky: Colour = (20, 24, 60)) -> None:
    r = s / 2
    d.ellipse([x - r, y - r, x + r, y + r], fill=c)
    d.ellipse([x - r * 0.4, y - r * 1.05, x + r * 1.4, y + r * 0.8], fill=sky)


def star(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    r = s / 2
    d.polygon([(x, y - r), (x + r * 0.25, y - r * 0.25), (x + r, y), (x + r * 0.25, y + r * 0.25), (x, y + r),
               (x - r * 0.25, y + r * 0.25), (x - r, y), (x - r * 0.25, y - r * 0.25)], fill=c)


def tree(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.rectangle([x - s * 0.08, y - s * 0.45, x + s * 0.08, y], fill=(110, 75, 40))
    d.ellipse([x - s * 0.38, y - s * 1.1, x + s * 0.38, y - s * 0.35], fill=c)
    d.ellipse([x - s * 0.28, y - s * 1.3, x + s * 0.2, y - s * 0.8], fill=_shade(c, 1.15))


def house(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    w = s * 0.45
    d.rectangle([x - w, y - s * 0.7, x + w, y], fill=c, outline=_shade(c, 0.6), width=max(1, int(s / 80)))
    d.polygon([(x - w * 1.2, y - s * 0.7), (x, y - s * 1.15), (x + w * 1.2, y - s * 0.7)], fill=(170, 60, 50))
    d.rectangle([x - w * 0.25, y - s * 0.38, x + w * 0.15, y], fill=(100, 65, 40))
    d.rectangle([x + w * 0.35, y - s * 0.55, x + w * 0.8, y - s * 0.3], fill=(250, 230, 140))


def mountain(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.polygon([(x - s, y), (x, y - s * 1.1), (x + s, y)], fill=c)
    d.polygon([(x - s * 0.28, y - s * 0.8), (x, y - s * 1.1), (x + s * 0.28, y - s * 0.8), (x + s * 0.1, y - s * 0.72),
               (x - s * 0.1, y - s * 0.78)], fill=(245, 245, 250))


def cat(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.ellipse([x - s * 0.35, y - s * 0.6, x + s * 0.35, y], fill=c)
    d.ellipse([x - s * 0.22, y - s * 0.95, x + s * 0.22, y - s * 0.52], fill=c)
    d.polygon([(x - s * 0.2, y - s * 0.85), (x - s * 0.16, y - s * 1.08), (x - s * 0.04, y - s * 0.92)], fill=c)
    d.polygon([(x + s * 0.2, y - s * 0.85), (x + s * 0.16, y - s * 1.08), (x + s * 0.04, y - s * 0.92)], fill=c)
    d.line([x + s * 0.3, y - s * 0.1, x + s * 0.6, y - s * 0.5], fill=c, width=max(3, int(s / 12)))
    for dx in (-0.09, 0.09):
        d.ellipse([x + s * dx - s * 0.03, y - s * 0.8, x + s * dx + s * 0.03, y - s * 0.74], fill=(40, 160, 60))


def dog(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.ellipse([x - s * 0.4, y - s * 0.6, x + s * 0.3, y - s * 0.2], fill=c)
    for dx in (-0.3, -0.15, 0.1, 0.22):
        d.rectangle([x + s * dx, y - s * 0.3, x + s * (dx + 0.07), y], fill=c)
    d.ellipse([x + s * 0.15, y - s * 0.85, x + s * 0.5, y - s * 0.5], fill=c)
    d.ellipse([x + s * 0.12, y - s * 0.8, x + s * 0.24, y - s * 0.55], fill=_shade(c, 0.6))
    d.ellipse([x + s * 0.42, y - s * 0.68, x + s * 0.5, y - s * 0.6], fill=(30, 30, 30))


def lighthouse(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    top, bottom = y - s * 1.3, y
    d.polygon([(x - s * 0.2, bottom), (x - s * 0.12, top), (x + s * 0.12, top), (x + s * 0.2, bottom)], fill=c)
    for k in range(1, 4, 2):
        a, b = top + (bottom - top) * k / 5, top + (bottom - top) * (k + 1) / 5
        d.rectangle([x - s * 0.2, a, x + s * 0.2, b], fill=(200, 40, 40))
    d.rectangle([x - s * 0.15, top - s * 0.18, x + s * 0.15, top], fill=(255, 225, 120))
    d.polygon([(x - s * 0.18, top - s * 0.18), (x, top - s * 0.32), (x + s * 0.18, top - s * 0.18)], fill=(60, 60, 70))
    d.polygon([(x + s * 0.15, top - s * 0.14), (x + s * 1.2, top - s * 0.3), (x + s * 1.2, top + s * 0.05)], fill=(255, 240, 170))


def boat(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.polygon([(x - s * 0.5, y - s * 0.2), (x + s * 0.5, y - s * 0.2), (x + s * 0.35, y), (x - s * 0.35, y)], fill=c)
    d.line([x, y - s * 0.2, x, y - s * 0.95], fill=(90, 60, 40), width=max(2, int(s / 30)))
    d.polygon([(x + s * 0.03, y - s * 0.92), (x + s * 0.4, y - s * 0.28), (x + s * 0.03, y - s * 0.28)], fill=(250, 250, 245))


def flower(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.line([x, y, x, y - s * 0.6], fill=(50, 140, 60), width=max(2, int(s / 20)))
    r = s * 0.13
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0), (0.7, 0.7), (-0.7, -0.7), (0.7, -0.7), (-0.7, 0.7)):
        cx, cy = x + dx * r * 1.2, y - s * 0.7 + dy * r * 1.2
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=c)
    d.ellipse([x - r * 0.8, y - s * 0.7 - r * 0.8, x + r * 0.8, y - s * 0.7 + r * 0.8], fill=(250, 210, 60))


def bird(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    w = max(2, int(s / 14))
    d.arc([x - s * 0.5, y - s * 0.2, x, y + s * 0.2], 200, 340, fill=c, width=w)
    d.arc([x, y - s * 0.2, x + s * 0.5, y + s * 0.2], 200, 340, fill=c, width=w)


def fish(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.ellipse([x - s * 0.4, y - s * 0.2, x + s * 0.25, y + s * 0.2], fill=c)
    d.polygon([(x + s * 0.2, y), (x + s * 0.45, y - s * 0.2), (x + s * 0.45, y + s * 0.2)], fill=c)
    d.ellipse([x - s * 0.3, y - s * 0.07, x - s * 0.22, y + s * 0.01], fill=(20, 20, 20))


def cloud(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    for dx, dy, r in ((-0.3, 0, 0.22), (0, -0.1, 0.3), (0.3, 0, 0.22), (0.1, 0.05, 0.25)):
        d.ellipse([x + s * (dx - r), y + s * (dy - r), x + s * (dx + r), y + s * (dy + r)], fill=c)


def car(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.rounded_rectangle([x - s * 0.5, y - s * 0.35, x + s * 0.5, y - s * 0.1], radius=s * 0.06, fill=c)
    d.polygon([(x - s * 0.28, y - s * 0.35), (x - s * 0.15, y - s * 0.55), (x + s * 0.2, y - s * 0.55), (x + s * 0.32, y - s * 0.35)], fill=c)
    d.polygon([(x - s * 0.12, y - s * 0.37), (x - s * 0.06, y - s * 0.5), (x + s * 0.16, y - s * 0.5), (x + s * 0.24, y - s * 0.37)], fill=(190, 220, 240))
    for dx in (-0.3, 0.3):
        d.ellipse([x + s * (dx - 0.1), y - s * 0.2, x + s * (dx + 0.1), y], fill=(30, 30, 30))


def building(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    for dx, h in ((-0.45, 1.0), (-0.15, 1.5), (0.15, 1.2), (0.45, 0.8)):
        left, right, top = x + s * (dx - 0.14), x + s * (dx + 0.14), y - s * h
        d.rectangle([left, top, right, y], fill=_shade(c, 0.85 + 0.1 * dx))
        for wy in range(1, int(h * 6)):
            d.rectangle([left + s * 0.05, top + s * wy * 0.16, right - s * 0.05, top + s * (wy * 0.16 + 0.06)], fill=(250, 230, 150))


def balloon(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    d.line([x, y - s * 0.2, x + s * 0.05, y + s * 0.5], fill=(80, 80, 80), width=max(1, int(s / 60)))
    d.ellipse([x - s * 0.25, y - s * 0.85, x + s * 0.25, y - s * 0.2], fill=c)


def heart(d: Draw, x: float, y: float, s: float, c: Colour) -> None:
    r = s * 0.25
    d.ellipse([x - 2 * r, y - s * 0.9, x, y - s * 0.9 + 2 * r], fill=c)
    d.ellipse([x, y - s * 0.9, x + 2 * r, y - s * 0.9 + 2 * r], fill=c)
    d.polygon([(x - 2 * r + r * 0.05, y - s * 0.9 + r * 1.3), (x + 2 * r - r * 0.05, y - s * 0.9 + r * 1.3), (x, y - s * 0.05)], fill=c)


SHAPES: dict[str, Callable[[Draw, float, float, float, Colour], None]] = {
    "apple": apple, "sun": sun, "moon": moon, "star": star, "tree": tree, "house": house, "mountain": mountain, "cat": cat,
    "dog": dog, "lighthouse": lighthouse, "boat": boat, "flower": flower, "bird": bird, "fish": fish, "cloud": cloud,
    "car": car, "city": building, "balloon": balloon, "heart": heart,
}
