"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/content_operation/launch_calendar/make_evidence.py

Needs Pillow, espeak-ng and ffmpeg (authoring-time only; running the benchmark does not).
Outputs:
- day1/driftwood_teaser_v1.mp4: the creator's 6-second teaser reel (640x360, 10 fps, H.264, no
  audio). Only the product slide (2.0-3.9 s) shows the SKU, the price (the old 149) and the on-sale date.
- day1/kai_voice_note.wav: the creator's voice note (espeak-ng, en-gb, 160 wpm, pitch 45; 16 kHz
  mono) correcting the price on the slide to 129 euros and confirming the SKU and the date.
- day3/driftwood_teaser_v2.mp4: the re-export: price fixed, but the SKU on the slide now has two
  digits swapped (TW-DM-204).
Video and audio are written with ffmpeg's bit-exact flags and a single encoder thread, so a re-run
on the same ffmpeg/libx264/espeak-ng build gives the same bytes (another build may differ).
"""

from __future__ import annotations

import math
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
DEJAVU = "/usr/share/fonts/truetype/dejavu/"
W, H, FPS, SECONDS = 640, 360, 10, 6
BITEXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]
VOICE_NOTE = (
    "Hi Ines, Kai here. Quick fix for the teaser. The price on the product slide is the old one. "
    "The launch price is one hundred and twenty nine euros. The SKU and the on-sale date on the slide are right."
)


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(DEJAVU + name, size)


def waves(d: ImageDraw.ImageDraw, t: float, base: int, colour: tuple[int, int, int]) -> None:
    for k in range(3):
        pts = [(x, base + k * 18 + 8 * math.sin(x / 38 + t * 3 + k)) for x in range(0, W + 8, 8)]
        d.line(pts, fill=colour, width=3)


def speaker(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    d.rounded_rectangle([x, y, x + 170, y + 190], radius=40, fill=(139, 98, 62), outline=(90, 60, 35), width=4)
    d.rounded_rectangle([x + 18, y + 20, x + 152, y + 150], radius=26, fill=(60, 60, 64))
    for i in range(7):
        for j in range(6):
            d.ellipse([x + 30 + i * 17, y + 32 + j * 19, x + 36 + i * 17, y + 38 + j * 19], fill=(35, 35, 38))
    d.ellipse([x + 75, y + 160, x + 95, y + 180], fill=(230, 220, 200))


def frame(i: int, sku: str, price: str) -> Image.Image:
    t = i / FPS
    img = Image.new("RGB", (W, H), (10, 52, 64))
    d = ImageDraw.Draw(img)
    if t < 2.0:
        waves(d, t, 250, (40, 130, 150))
        d.text((W // 2, 140), "TIDEWATER", font=font("DejaVuSans-Bold.ttf", 54), fill=(235, 245, 245), anchor="mm")
        d.text((W // 2, 195), "presents", font=font("DejaVuSans.ttf", 26), fill=(170, 210, 215), anchor="mm")
    elif t < 4.0:
        img.paste((242, 236, 224), (0, 0, W, H))
        speaker(d, 48, 80)
        d.text((260, 70), "Driftwood Mini", font=font("DejaVuSans-Bold.ttf", 40), fill=(20, 40, 48))
        d.text((262, 135), f"SKU  {sku}", font=font("DejaVuSansMono-Bold.ttf", 28), fill=(20, 40, 48))
        d.text((262, 180), f"\u20ac{price}", font=font("DejaVuSans-Bold.ttf", 52), fill=(190, 70, 40))
        d.text(
            (262, 258),
            f"On sale {date.fromisoformat(F.launch.on_sale):%d.%m.%Y}",
            font=font("DejaVuSans.ttf", 28),
            fill=(20, 40, 48),
        )
        d.text(
            (262, 300),
            "12 h battery  \u00b7  floats  \u00b7  IP67",
            font=font("DejaVuSans.ttf", 18),
            fill=(90, 100, 105),
        )
    else:
        waves(d, t, 230, (40, 130, 150))
        d.text(
            (W // 2, 150),
            "Sound that floats.",
            font=font("DejaVuSerif-Bold.ttf", 44),
            fill=(235, 245, 245),
            anchor="mm",
        )
        d.text((W // 2, 205), "Driftwood Mini", font=font("DejaVuSans.ttf", 24), fill=(170, 210, 215), anchor="mm")
    return img


def reel(path: Path, sku: str, price: str) -> None:
    raw = b"".join(frame(i, sku, price).tobytes() for i in range(FPS * SECONDS))
    cmd = [
        "ffmpeg",
        "-loglevel",
        "error",
        "-y",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "rgb24",
        "-s",
        f"{W}x{H}",
        "-r",
        str(FPS),
        "-i",
        "-",
        "-c:v",
        "libx264",
        "-preset",
        "medium",
        "-crf",
        "30",
        "-pix_fmt",
        "yuv420p",
        "-threads",
        "1",
        "-x264-params",
        "threads=1:lookahead-threads=1",
        *BITEXACT,
        "-movflags",
        "+faststart",
        str(path),
    ]
    subprocess.run(cmd, input=raw, check=True)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "voice.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(raw), VOICE_NOTE], check=True)
        subprocess.run(
            ["ffmpeg", "-loglevel", "error", "-y", "-i", str(raw), "-ar", "16000", "-ac", "1", *BITEXACT, str(path)],
            check=True,
        )


def main() -> None:
    (HERE / "day1").mkdir(parents=True, exist_ok=True)
    (HERE / "day3").mkdir(parents=True, exist_ok=True)
    reel(HERE / "day1" / "driftwood_teaser_v1.mp4", F.launch.sku, str(F.launch.old_price))
    voice_note(HERE / "day1" / "kai_voice_note.wav")  # says F.launch.price in words
    reel(HERE / "day3" / "driftwood_teaser_v2.mp4", F.launch.v2_sku, str(F.launch.price))


if __name__ == "__main__":
    main()
