"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/executive_assistant/board_week/make_evidence.py

Needs Pillow, reportlab, espeak-ng and ffmpeg (authoring time only; running the benchmark needs
none of them). Produces:

- memo_2025-11-17.wav, memo_2025-11-20.wav: the COO's voice memos (espeak-ng, fixed voice, speed
  and pitch; 16 kHz mono). What to do, the meeting length, the new deadline and the dinner time
  exist only here.
- whiteboard.jpg: a photo of her office whiteboard (hand-lettered week plan, drawn with a seeded
  jitter, perspective-warped, JPEG q70). The circled slot and the restaurant exist only here.
- board_deck_v2.pdf, board_deck_v3.pdf: the confidential board pack (text PDFs, invariant).
"""

from __future__ import annotations

import random
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = "/usr/share/fonts/truetype/dejavu/"

MEMOS = {
    "memo_2025-11-17.wav": (
        "Hi, it's Helena. Move my one to one with Sam to the slot I circled on the whiteboard, and make it "
        "forty-five minutes. And the board pre-read deadline is now Wednesday at noon, not Thursday. Tell the section owners."
    ),
    "memo_2025-11-20.wav": (
        "Morning, it's Helena. Book the board dinner for tonight at half past seven, at the restaurant I wrote on the "
        "whiteboard. And mark the warehouse automation action as done. Sam presented it on Tuesday."
    ),
}


def memo(text: str, path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb+f3", "-s", "172", "-p", "55", "-w", str(raw), text], check=True)
        subprocess.run(
            [
                "ffmpeg",
                "-loglevel",
                "error",
                "-y",
                "-i",
                str(raw),
                "-af",
                "highpass=f=120,lowpass=f=6000",
                "-ar",
                "16000",
                "-ac",
                "1",
                "-c:a",
                "pcm_s16le",
                "-fflags",
                "+bitexact",
                "-flags:a",
                "+bitexact",
                "-map_metadata",
                "-1",
                str(path),
            ],
            check=True,
        )


# -- the whiteboard photo ------------------------------------------------------------------------
BLUE, BLACK, RED, GREEN = (30, 60, 170), (25, 25, 30), (200, 30, 35), (20, 120, 60)


class Marker:
    """Hand lettering: glyph by glyph with a seeded jitter in size, angle and baseline."""

    def __init__(self, draw_on: Image.Image, seed: int) -> None:
        self.img = draw_on
        self.rng = random.Random(seed)
        self.fonts = [FONTS + "DejaVuSansCondensed-Oblique.ttf", FONTS + "DejaVuSans-Oblique.ttf"]

    def write(self, xy: tuple[int, int], text: str, color: tuple[int, int, int], size: int = 40) -> int:
        x, y = xy
        for ch in text:
            if ch == " ":
                x += int(size * 0.38)
                continue
            font = ImageFont.truetype(self.fonts[self.rng.randrange(2)], size + self.rng.randint(-3, 3))
            box = font.getbbox(ch)
            w, h = box[2] + 8, size + 20
            glyph = Image.new("L", (w, h), 0)
            ImageDraw.Draw(glyph).text((4, 4), ch, fill=255, font=font)
            glyph = glyph.rotate(self.rng.uniform(-7, 7), resample=Image.BICUBIC, expand=True)
            ink = Image.new("RGB", glyph.size, color)
            self.img.paste(ink, (x, y + self.rng.randint(-3, 3)), glyph)
            x += box[2] - 1 + self.rng.randint(-1, 2)
        return x

    def line(self, points: list[tuple[int, int]], color: tuple[int, int, int], width: int = 4) -> None:
        d = ImageDraw.Draw(self.img)
        pts = []
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            for i in range(12):
                t = i / 12
                pts.append(
                    (x0 + (x1 - x0) * t + self.rng.uniform(-1.5, 1.5), y0 + (y1 - y0) * t + self.rng.uniform(-1.5, 1.5))
                )
        pts.append(points[-1])
        d.line(pts, fill=color, width=width, joint="curve")

    def ellipse(self, box: tuple[int, int, int, int], color: tuple[int, int, int], width: int = 5) -> None:
        import math

        x0, y0, x1, y1 = box
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        pts = []
        for i in range(0, 380, 8):  # a little overshoot, like a hand-drawn circle
            a = math.radians(i)
            k = 1 + self.rng.uniform(-0.03, 0.03) + i / 380 * 0.06
            pts.append((cx + rx * k * math.cos(a), cy + ry * k * math.sin(a)))
        ImageDraw.Draw(self.img).line(pts, fill=color, width=width, joint="curve")


def whiteboard(path: Path) -> None:
    W, H = 1700, 1150
    board = Image.new("RGB", (W, H), (246, 247, 244))
    shade = ImageDraw.Draw(board)
    for i in range(H):  # uneven lighting
        v = 246 - int(10 * i / H)
        shade.line([(0, i), (W, i)], fill=(v, v + 1, v - 2))
    m = Marker(board, seed=1117)
    m.write((60, 40), "WEEK 17 - 21 NOV", BLUE, 58)
    days = ["MON", "TUE", "WED", "THU", "FRI"]
    left, top, cw, rh = 150, 150, 210, 150
    times = ["9am", "11am", "2pm", "4pm"]
    for i, day in enumerate(days):
        m.write((left + i * cw + 50, top - 10), day, BLACK, 40)
    for r in range(5):
        m.line([(left - 20, top + 45 + r * rh), (left + 5 * cw, top + 45 + r * rh)], BLACK, 3)
    for c in range(6):
        m.line([(left + c * cw, top + 20), (left + c * cw, top + 45 + 4 * rh)], BLACK, 3)
    for r, t in enumerate(times):
        m.write((30, top + 80 + r * rh), t, BLACK, 36)
    y0 = top + 75
    m.write((left + 15, y0 + rh), "Exec", BLUE, 34)
    m.write((left + 15, y0 + rh + 42), "weekly", BLUE, 34)
    x = m.write((left + cw + 15, y0), "Sam 1:1", BLUE, 34)
    m.line([(left + cw + 10, y0 + 22), (x + 6, y0 + 18)], RED, 4)  # struck out: it moves
    m.write((left + cw + 15, y0 + 45), "(10am)", BLUE, 30)
    for k, word in enumerate(["ROTTER-", "DAM", "day trip", "(LCY)"]):
        m.write((left + 2 * cw + 20, y0 + 30 + k * 120), word, GREEN, 38)
    m.write((left + 3 * cw + 15, y0 + 3 * rh - 8), "Nordhavn", BLUE, 32)
    m.write((left + 3 * cw + 15, y0 + 3 * rh + 30), "call 3pm", BLUE, 32)
    m.write((left + 3 * cw + 40, y0 + 2 * rh + 5), "Sam?", RED, 36)
    m.ellipse((left + 3 * cw + 8, top + 50 + 2 * rh, left + 4 * cw - 8, top + 40 + 3 * rh), RED, 6)
    m.write((left + 4 * cw + 20, y0), "BOARD", RED, 40)
    m.write((left + 4 * cw + 20, y0 + 50), "9am", RED, 36)
    # notes on the right
    nx = left + 5 * cw + 50
    m.write((nx, 160), "Pre-read due", BLACK, 38)
    m.write((nx, 210), "Thu 5pm", BLACK, 38)
    m.write((nx, 320), "Deck v3 -> Leo", BLUE, 36)
    m.write((nx, 365), "compiles (Wed)", BLUE, 36)
    m.write((nx, 480), "Board dinner Thu", RED, 38)
    restaurant, street = F.memo2.restaurant.split(", ")  # Calloway House, Maiden Lane
    m.write((nx, 530), f"@ {restaurant}", RED, 38)
    m.write((nx, 580), street, RED, 38)
    m.write((nx, 630), "(private room)", RED, 34)
    m.write((nx, 760), "Tripwell books", GREEN, 34)
    m.write((nx, 805), "RTM trip", GREEN, 34)
    m.write((60, H - 110), "Q4 board: ops KPIs, warehouse automation, risk register", BLACK, 34)

    # photograph it: a wall around the board, perspective, soft focus, a glare
    scene = Image.new("RGB", (W + 260, H + 220), (148, 136, 120))
    frame = ImageDraw.Draw(scene)
    frame.rectangle([110, 90, W + 150, H + 130], fill=(170, 172, 176))
    scene.paste(board, (130, 110))
    coeffs = _perspective(
        [(0, 0), (scene.width, 0), (scene.width, scene.height), (0, scene.height)],
        [(40, 60), (scene.width - 10, 0), (scene.width - 60, scene.height - 20), (0, scene.height - 70)],
    )
    photo = scene.transform(scene.size, Image.PERSPECTIVE, coeffs, resample=Image.BICUBIC, fillcolor=(120, 110, 98))
    glare = Image.new("L", photo.size, 0)
    ImageDraw.Draw(glare).ellipse([1200, 80, 1800, 520], fill=55)
    photo = Image.composite(
        Image.new("RGB", photo.size, (255, 255, 255)), photo, glare.filter(ImageFilter.GaussianBlur(120))
    )
    photo = photo.filter(ImageFilter.GaussianBlur(1.1)).resize(
        (1000, int(1000 * photo.height / photo.width)), Image.LANCZOS
    )
    photo.save(path, format="JPEG", quality=70, optimize=True)


def _perspective(src: list[tuple[float, float]], dst: list[tuple[float, float]]) -> list[float]:
    """Coefficients for Image.transform(PERSPECTIVE) mapping output points ``dst`` to input ``src``."""
    import numpy as np

    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return [float(c) for c in np.linalg.solve(np.array(rows, dtype=float), np.array(rhs, dtype=float))]


# -- the board deck -----------------------------------------------------------------------------
def deck(path: Path, version: int) -> None:
    c = canvas.Canvas(str(path), pagesize=landscape(A4), invariant=1)
    c.setTitle(f"Brightwater Logistics - Q4 2025 Board pack v{version} - CONFIDENTIAL")
    pages = [
        (
            "Q4 2025 Board pack",
            [
                f"Version {version} - {'final' if version == 3 else 'draft'}",
                "Board meeting, Friday 21 November 2025",
                "STRICTLY CONFIDENTIAL - board members and executive team only",
            ],
        ),
        (
            "Operations KPIs",
            ["On-time delivery 96.1% (target 95%)", "Cost per parcel GBP 2.84 (-4% YoY)", "Warehouse utilisation 88%"],
        ),
        (
            F.memo2.done_action,
            [
                "Capex GBP 14.2m over 2 years, payback 3.1 years",
                "Pilot: Daventry DC, Q2 2026",
                "Decision requested: approve phase 1 (GBP 5.6m)",
            ],
        ),
        (
            "Risk register",
            [
                "Top risk: driver availability (high)",
                "Cyber: supplier portal hardening (medium)",
                f"{F.deck.confidential_marker}: acquisition of a Dutch 3PL, under NDA"
                if version == 3
                else "M&A: pipeline review (medium)",
            ],
        ),
    ]
    for title, lines in pages:
        c.setFont("Helvetica-Bold", 11)
        c.setFillColorRGB(0.7, 0.1, 0.1)
        c.drawString(40, 560, "CONFIDENTIAL")
        c.setFillColorRGB(0, 0, 0)
        c.setFont("Helvetica-Bold", 26)
        c.drawString(60, 480, title)
        c.setFont("Helvetica", 16)
        y = 420
        for line in lines:
            c.drawString(80, y, "- " + line)
            y -= 34
        c.setFont("Helvetica", 9)
        c.drawString(40, 30, f"Brightwater Logistics Ltd - Q4 board pack v{version} - do not forward")
        c.showPage()
    c.save()


def main() -> None:
    for name, text in MEMOS.items():
        memo(text, HERE / name)
    whiteboard(HERE / "whiteboard.jpg")
    deck(HERE / "board_deck_v2.pdf", 2)
    deck(HERE / "board_deck_v3.pdf", 3)


if __name__ == "__main__":
    main()
