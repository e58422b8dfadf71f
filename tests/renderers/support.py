"""Helpers for the renderer tests: decode pictures and read colours at layout positions."""

from __future__ import annotations

import io

from PIL import Image

from renderers.theme import RGB

Point = tuple[int, int]


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def distance(a: RGB, b: RGB) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5


def pixel(image: Image.Image, xy: Point) -> RGB:
    """One pixel of an RGB picture (Pillow's getpixel is typed for every mode at once)."""
    value = image.getpixel(xy)
    assert isinstance(value, tuple) and len(value) == 3, value
    return value


def colour_at(image: Image.Image, xy: Point, spread: int = 2) -> RGB:
    """The average colour of a small square around ``xy`` (robust to one odd pixel)."""
    x, y = xy
    pixels = [
        pixel(image, (x + dx, y + dy))
        for dx in range(-spread, spread + 1)
        for dy in range(-spread, spread + 1)
    ]
    r, g, b = (round(sum(p[i] for p in pixels) / len(pixels)) for i in range(3))
    return r, g, b


def is_colour(image: Image.Image, xy: Point, expected: RGB, tolerance: float = 18) -> bool:
    return distance(colour_at(image, xy), expected) <= tolerance


def count_near(
    image: Image.Image, box: tuple[int, int, int, int], colour: RGB, tolerance: float = 30
) -> int:
    """How many pixels inside ``box`` are within ``tolerance`` of ``colour``."""
    data = image.crop(box).tobytes()
    limit = tolerance * tolerance
    r, g, b = colour
    return sum(
        1
        for i in range(0, len(data), 3)
        if (data[i] - r) ** 2 + (data[i + 1] - g) ** 2 + (data[i + 2] - b) ** 2 <= limit
    )
