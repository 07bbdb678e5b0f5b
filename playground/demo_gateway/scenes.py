"""The demo's pictures: a prompt read against a small vocabulary (subjects, colours, time of day,
indoors or out, English and Chinese) and drawn as a simple scene, so "a red apple" shows a red
apple and "the blue sea" a blue sea. Images and video frames are drawn from the same scene; in a
video the things that move (boats, cars, birds, clouds, fish, balloons, rain) move with time."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from playground.demo_gateway.scene_shapes import SHAPES, Colour, moon

HEAD = 300
SUBJECTS: dict[str, tuple[str, str, Colour]] = {
    # name: (English words, Chinese words, default colour)
    "apple": ("apple|apples", "苹果", (205, 30, 35)),
    "sun": ("sun|sunny|sunshine", "太阳|阳光", (250, 205, 50)),
    "moon": ("moon", "月亮|月", (245, 240, 200)),
    "star": ("star|stars|starry", "星星|星空", (250, 240, 170)),
    "tree": ("tree|trees|forest|woods|park|garden", "树|森林|公园|花园", (55, 145, 70)),
    "house": ("house|houses|home|cottage|village|town|cabin", "房子|房屋|小屋|村庄|小镇", (235, 215, 175)),
    "mountain": ("mountain|mountains|hill|hills|peak", "山|山峰|高山", (120, 125, 150)),
    "cat": ("cat|cats|kitten|kitty", "猫|小猫", (230, 140, 50)),
    "dog": ("dog|dogs|puppy", "狗|小狗", (160, 110, 60)),
    "lighthouse": ("lighthouse", "灯塔", (245, 245, 240)),
    "boat": ("boat|boats|ship|sailboat|yacht|harbour|harbor|port", "船|小船|帆船|港口|海港", (170, 80, 40)),
    "flower": ("flower|flowers|rose|roses|tulip|blossom", "花|鲜花|玫瑰", (225, 70, 140)),
    "bird": ("bird|birds|gull|gulls|seagull", "鸟|小鸟|海鸥", (40, 40, 50)),
    "fish": ("fish|fishes", "鱼", (250, 140, 40)),
    "cloud": ("cloud|clouds|cloudy", "云|白云", (250, 250, 252)),
    "car": ("car|cars|taxi", "汽车|小汽车|车", (40, 90, 200)),
    "city": ("city|street|buildings|skyline|skyscraper", "城市|街道|大楼|高楼", (110, 115, 135)),
    "balloon": ("balloon|balloons", "气球", (220, 40, 60)),
    "heart": ("heart|hearts", "爱心|心形", (215, 30, 70)),
}
COLOURS: dict[str, tuple[str, Colour]] = {
    "red": ("红", (205, 30, 35)), "orange": ("橙", (240, 130, 30)), "yellow": ("黄", (245, 210, 40)),
    "green": ("绿", (50, 160, 70)), "blue": ("蓝", (30, 90, 200)), "purple": ("紫", (130, 60, 170)),
    "violet": ("紫罗兰", (140, 80, 200)), "pink": ("粉", (240, 130, 170)), "white": ("白", (245, 245, 245)),
    "black": ("黑", (30, 30, 35)), "brown": ("棕", (130, 85, 45)), "grey": ("灰", (130, 130, 135)),
    "gray": ("灰色", (130, 130, 135)), "gold": ("金", (220, 180, 50)),
}
SEA = "sea|ocean|waves|beach|coast|harbour|harbor|port|lake|cliff|bay", "海|大海|海洋|海浪|海滩|海边|港口|海港|湖"
INDOORS = "room|corner|kitchen|indoors|inside|table|desk|sofa|reading|bedroom|still life", "房间|角落|厨房|室内|桌子|书房"
TIMES = {
    "night": ("night|midnight|starry", "夜|夜晚|晚上|深夜", ((15, 20, 55), (45, 50, 100))),
    "dusk": ("dusk|sunset|evening|twilight", "黄昏|日落|傍晚|夕阳", ((70, 50, 120), (250, 140, 70))),
    "dawn": ("dawn|sunrise|morning", "日出|清晨|早晨|黎明", ((120, 150, 210), (250, 200, 150))),
}
DAY_SKY = ((110, 170, 235), (200, 225, 245))
MOVING = {"boat": 0.5, "car": 0.7, "bird": 0.9, "cloud": 0.25, "fish": 0.6, "balloon": 0.0}


@dataclass(frozen=True)
class Scene:
    subjects: tuple[tuple[str, Colour], ...]
    sea: bool
    indoors: bool
    time: str
    rain: bool
    snow: bool

    @property
    def known(self) -> bool:
        return bool(self.subjects) or self.sea


def _positions(text: str, words: str, zh: bool) -> list[int]:
    if zh:
        return [m.start() for w in words.split("|") for m in re.finditer(re.escape(w), text)]
    return [m.start() for w in words.split("|") for m in re.finditer(rf"\b{re.escape(w)}\b", text)]


def read(prompt: str) -> Scene:
    """What a prompt asks to be drawn (only the first characters are read)."""
    text = prompt[:HEAD].lower()
    zh = bool(re.search(r"[\u4e00-\u9fff]", text))
    found: list[tuple[int, str, Colour]] = []
    for name, (english, chinese, colour) in SUBJECTS.items():
        spots = _positions(text, english, False) + (_positions(text, chinese, True) if zh else [])
        if spots:
            found.append((min(spots), name, colour))
    found.sort()
    coloured: list[tuple[str, Colour]] = []
    for position, name, colour in found:
        before = text[max(0, position - 14): position]
        for word, (chinese, shade) in COLOURS.items():
            if re.search(rf"\b{word}\b", before) or (zh and chinese in before):
                colour = shade
        coloured.append((name, colour))
    time = next((t for t, (en, cn, _) in TIMES.items() if _positions(text, en, False) or (zh and _positions(text, cn, True))), "day")
    sea = bool(_positions(text, SEA[0], False) or (zh and _positions(text, SEA[1], True)))
    indoors = bool(_positions(text, INDOORS[0], False) or (zh and _positions(text, INDOORS[1], True)))
    rain = bool(re.search(r"\brain|\brainy|\bstorm", text) or "雨" in text)
    snow = bool(re.search(r"\bsnow", text) or "雪" in text)
    return Scene(tuple(coloured[:5]), sea, indoors and not sea, time, rain, snow)


def _gradient(size: tuple[int, int], top: Colour, bottom: Colour) -> Image.Image:
    mask = Image.linear_gradient("L").resize(size)
    return Image.composite(Image.new("RGB", size, bottom), Image.new("RGB", size, top), mask)


def _still_life(scene: Scene) -> bool:
    """Objects alone (an apple, a heart): drawn large on a plain backdrop."""
    outdoor = {"tree", "house", "mountain", "lighthouse", "boat", "city", "car", "sun", "moon", "star", "cloud", "bird"}
    return not scene.sea and not any(name in outdoor for name, _ in scene.subjects) and scene.time == "day" and not scene.rain


def background(scene: Scene, size: tuple[int, int]) -> tuple[Image.Image, float]:
    """The backdrop and the y of its horizon (where things stand)."""
    w, h = size
    if scene.indoors or (_still_life(scene) and scene.subjects and all(n != "fish" for n, _ in scene.subjects)):
        image = Image.new("RGB", size, (236, 228, 212) if scene.indoors else (244, 240, 232))
        ImageDraw.Draw(image).rectangle([0, h * 0.72, w, h], fill=(170, 130, 90) if scene.indoors else (225, 218, 205))
        return image, h * 0.8
    if scene.subjects and all(n == "fish" for n, _ in scene.subjects) and not scene.sea:
        return _gradient(size, (40, 120, 190), (10, 50, 110)), h * 0.9
    top, bottom = TIMES[scene.time][2] if scene.time in TIMES else DAY_SKY
    image = _gradient(size, top, bottom)
    draw = ImageDraw.Draw(image)
    horizon = h * 0.55
    if scene.sea:
        sea_colour = (25, 80, 170) if scene.time == "day" else (20, 45, 100)
        draw.rectangle([0, horizon, w, h], fill=sea_colour)
        for row in range(6):
            y = horizon + (h - horizon) * (row + 0.5) / 6
            for k in range(0, w, max(8, w // 12)):
                draw.arc([k, y - h * 0.01, k + w // 12, y + h * 0.015], 200, 340, fill=(90, 150, 220), width=max(1, h // 300))
        if any(n in ("lighthouse", "house", "city") for n, _ in scene.subjects):
            draw.polygon([(0, h), (0, horizon - h * 0.05), (w * 0.42, horizon - h * 0.02), (w * 0.5, h)], fill=(95, 85, 75))
    elif any(n in ("city", "car") for n, _ in scene.subjects):
        draw.rectangle([0, horizon, w, h], fill=(120, 120, 125))
        draw.rectangle([0, horizon + (h - horizon) * 0.45, w, horizon + (h - horizon) * 0.5], fill=(235, 235, 235))
    else:
        draw.rectangle([0, horizon, w, h], fill=(85, 160, 75) if scene.time == "day" else (45, 80, 50))
    return image, horizon


def draw(scene: Scene, size: tuple[int, int], variant: int = 0, t: float = 0.0,
         backdrop: tuple[Image.Image, float] | None = None) -> Image.Image:
    """The scene at `size`; `variant` moves things about (image n of 4), `t` (0-1) is a video's time;
    `backdrop` is `background(scene, size)` made once for many frames."""
    image, horizon = (backdrop[0].copy(), backdrop[1]) if backdrop is not None else background(scene, size)
    w, h = size
    d = ImageDraw.Draw(image)
    rng = random.Random(hashlib.sha256(f"{scene}|{variant}".encode()).digest())
    unit = min(w, h)
    if scene.time == "night" or any(n == "star" for n, _ in scene.subjects):
        for _ in range(40):
            x, y, r = rng.random() * w, rng.random() * horizon * 0.9, unit * 0.004
            d.ellipse([x - r, y - r, x + r, y + r], fill=(250, 245, 200))
    sky_things = [(n, c) for n, c in scene.subjects if n in ("sun", "moon", "cloud", "bird", "star", "balloon")]
    ground_things = [(n, c) for n, c in scene.subjects if (n, c) not in sky_things]
    if (scene.time == "dusk" or not scene.known) and not any(n == "sun" for n, _ in scene.subjects):
        sky_things.append(("sun", (250, 150, 60)))
    still = _still_life(scene) and len(ground_things) <= 2
    for index, (name, colour) in enumerate(ground_things):
        slots = len(ground_things)
        x = w * (index + 0.5) / slots + (rng.random() - 0.5) * w * 0.08
        size_factor = 0.55 if still else 0.32 if name in ("lighthouse", "city", "mountain") else 0.22
        s = unit * size_factor * (0.9 + rng.random() * 0.2)
        y = horizon + (0 if name in ("lighthouse", "city", "mountain", "house", "tree") else h * 0.06)
        if name == "boat":
            y = horizon + (h - horizon) * 0.45 if scene.sea else y
        if name == "fish":
            y = horizon * 0.6 if not scene.sea else horizon + (h - horizon) * 0.6
        speed = MOVING.get(name)
        if speed and scene.sea and name == "boat":
            x = w * 0.5 + s / 2 + (x + t * speed * w) % (w * 0.5 - s)
        elif speed:
            x = (x + t * speed * w) % (w + s) - s / 2
        if scene.sea and name not in ("boat", "fish", "bird", "cloud"):
            x, y = w * (0.06 + 0.3 * (index + 0.5) / slots), horizon - h * 0.02
        if still and name != "fish":
            y = h * 0.88 if name == "apple" else h * 0.92
            s = unit * (0.5 if name == "apple" else 0.7) / (1 if name == "apple" else 1.2)
            if name == "apple":
                s = unit * 0.56
        SHAPES[name](d, x, y, s, colour)
    for index, (name, colour) in enumerate(sky_things):
        x = w * (0.2 + 0.6 * (index + 0.5) / max(1, len(sky_things))) + (rng.random() - 0.5) * w * 0.1
        y = horizon * (0.3 + rng.random() * 0.15)
        s = unit * (0.16 if name in ("sun", "moon") else 0.1)
        speed = MOVING.get(name)
        if speed:
            x = (x + t * speed * w) % (w + s) - s / 2
        if name == "balloon":
            y -= t * horizon * 0.4
        if name == "sun" and scene.time == "dusk":
            y = horizon - s * 0.3
        if name == "moon":
            sky = (TIMES[scene.time][2][0] if scene.time in TIMES else DAY_SKY[0])
            moon(d, x, y, s, colour, sky)
        else:
            SHAPES[name](d, x, y, s, colour)
    if scene.rain or scene.snow:
        for _ in range(60):
            x, y0 = rng.random() * w, rng.random() * h
            y = (y0 + t * h * 2) % h
            if scene.snow:
                r = unit * 0.006
                d.ellipse([x - r, y - r, x + r, y + r], fill=(250, 250, 255))
            else:
                d.line([x, y, x - unit * 0.01, y + unit * 0.04], fill=(170, 190, 220), width=max(1, unit // 400))
    return image


def describe(scene: Scene, zh: bool) -> str:
    """What was drawn, in words (for a caption or a revised prompt)."""
    names = {"apple": "苹果", "sun": "太阳", "moon": "月亮", "star": "星星", "tree": "树", "house": "房子", "mountain": "山",
             "cat": "猫", "dog": "狗", "lighthouse": "灯塔", "boat": "船", "flower": "花", "bird": "鸟", "fish": "鱼", "cloud": "云",
             "car": "汽车", "city": "城市", "balloon": "气球", "heart": "爱心"}
    things = [names[n] if zh else n for n, _ in scene.subjects]
    if scene.sea:
        things.append("大海" if zh else "the sea")
    if not things:
        return ("离线演示的小词汇里没有这个主题，画的是一幅简单的风景" if zh
                else "a simple landscape: the subject is not in the offline demo's small drawing vocabulary")
    return ("、".join(things) if zh else ", ".join(things))


def caption(prompt: str) -> str:
    """A sentence saying what the picture for `prompt` shows, in the prompt's language."""
    scene = read(prompt)
    zh = bool(re.search(r"[\u4e00-\u9fff]", prompt[:HEAD]))
    if not scene.known:
        return ("这是一幅简单的风景：离线演示只会画少数主题（苹果、大海、灯塔、猫、树、房子、山、船、花、鸟等）。" if zh else
                "Here is a simple landscape: the offline demo draws only a small set of subjects (an apple, the sea, a "
                "lighthouse, a cat, trees, houses, mountains, boats, flowers, birds and a few more).")
    return f"这是一幅简单的画：{describe(scene, True)}。" if zh else f"Here is a simple drawing: {describe(scene, False)}."
