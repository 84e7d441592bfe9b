#!/usr/bin/python3
"""Renders the Trainscope icon (the design of trainscope.svg) to the PNG sizes the
app and the .desktop file use. Run with Debian's /usr/bin/python3 (PIL)."""
import os
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
S = 1024  # drawn large, then downsampled for smooth edges


def render():
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # Rounded tile, dark slate.
    d.rounded_rectangle((48, 48, S - 48, S - 48), radius=190, fill=(33, 44, 66, 255))
    # Timeline lanes: nested operator bars.
    bars = [
        (170, 560, 860, 630, (78, 121, 167)),
        (170, 650, 480, 710, (118, 183, 178)),
        (500, 650, 860, 710, (242, 142, 43)),
        (200, 730, 330, 790, (89, 161, 79)),
        (520, 730, 700, 790, (225, 87, 89)),
        (720, 730, 840, 790, (237, 201, 72)),
    ]
    for x0, y0, x1, y1, color in bars:
        d.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=color + (255,))
    # Throughput curve rising over the lanes.
    points = [(170, 470), (290, 420), (390, 445), (500, 330), (620, 300), (730, 210), (860, 180)]
    d.line(points, fill=(255, 255, 255, 255), width=42, joint="curve")
    for x, y in (points[0], points[-1]):
        d.ellipse((x - 30, y - 30, x + 30, y + 30), fill=(255, 255, 255, 255))
    return img


def main():
    big = render()
    for size in (16, 32, 48, 64, 128, 256):
        big.resize((size, size), Image.LANCZOS).save(os.path.join(HERE, f"trainscope-{size}.png"))


if __name__ == "__main__":
    main()
