"""Regenerate the video-channel task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/video_channel_ops/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (thumbnails and the
scanned licence certificates: pixels only), reportlab (wraps each scan in a PDF without a text
layer), espeak-ng + ffmpeg (the host's voice memo, 16 kHz mono MP3).

- day1/licences/BW-55102_certificate.pdf   scan: Neon Drift, master owned by Harborline Records
  (administered by Beatwell), online video incl. monetised YouTube: covers claim CID-88412
- day1/licences/BW-55140_certificate.pdf   scan: Glass Harbour, podcasts and radio only, online
  video excluded: does not cover claim CID-88430
- day1/thumbnails/TS-121_thumb_{A,B,C}.png the three candidates (facts.toml [thumbnails])
- day3/voice_memos/priya_2025-12-03_0812.mp3  the new discount code and where the sponsor line goes
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    "Hi Owen, it's Priya, quick one before my train. Two changes for the T S one twenty one description. "
    "VoltCraft changed the discount code. It is now solder twenty, that's S O L D E R, two zero, "
    "not volt fifteen any more. And the sponsor line has to be the very first line of the description, "
    "with the link. Everything else can stay. Thanks!"
)

CERTS = {
    N.cert_55102: [
        ("Licence no.", "BW-55102"),
        ("Track", "Neon Drift"),
        ("Artist", "Kalei"),
        ("Master owner", "Harborline Records"),
        ("", "(administered worldwide by Beatwell Music)"),
        ("Licensee", "Tinker & Solder Media Ltd"),
        ("Permitted media", "Online video incl. monetised YouTube,"),
        ("", "social media clips"),
        ("Territory", "Worldwide"),
        ("Term", "Perpetual, for productions published"),
        ("", "1 Jan 2025 - 31 Dec 2025"),
    ],
    N.cert_55140: [
        ("Licence no.", "BW-55140"),
        ("Track", "Glass Harbour"),
        ("Artist", "Lumen Fields"),
        ("Master owner", "Meridian Sound"),
        ("", "(administered in the UK by Beatwell Music)"),
        ("Licensee", "Tinker & Solder Media Ltd"),
        ("Permitted media", "Podcasts and radio only."),
        ("", "ONLINE VIDEO NOT PERMITTED"),
        ("Territory", "United Kingdom"),
        ("Term", "12 months from 1 Mar 2025"),
    ],
}


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def certificate(path: Path, rows: list[tuple[str, str]], seed: int) -> None:
    """A printed certificate, scanned: a grey raster page in a PDF, no text layer."""
    w, h = 680, 880
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((50, 40), "BEATWELL MUSIC", font=font(26, bold=True), fill=25)
    d.text((50, 76), "Synchronisation Licence Certificate", font=font(17), fill=40)
    d.line((50, 108, 630, 108), fill=60, width=2)
    y = 134
    for key, value in rows:
        d.text((50, y), key, font=font(15), fill=45)
        d.text((230, y), value, font=font(15, bold=bool(key)), fill=10)
        y += 32
    y += 30
    d.text((50, y), "Uses outside the permitted media and territory require a new licence.", font=font(12), fill=40)
    d.text((50, y + 22), "Quote the licence no. in any Content ID dispute.", font=font(12), fill=40)
    d.text((50, 820), "Beatwell Music Ltd  -  licensing@beatwell.example  -  page 1 of 1", font=font(11), fill=60)
    d.ellipse((470, 640, 610, 780), outline=90, width=3)
    d.text((492, 700), "BEATWELL", font=font(14, bold=True), fill=90)
    rnd = random.Random(seed)
    for _ in range(1400):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=55, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def thumbnail(path: Path, text: str, sponsor_logo: bool, bg: tuple[int, int, int]) -> None:
    w, h = 320, 180
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    d.rectangle((190, 40, 300, 150), fill=(120, 80, 50), outline=(60, 40, 20), width=3)  # the radio
    d.ellipse((205, 60, 255, 110), fill=(200, 180, 140))
    for x in range(265, 295, 8):
        d.line((x, 60, x, 140), fill=(60, 40, 20), width=2)
    d.rectangle((6, 6, 40, 26), fill=(20, 20, 20))
    d.text((10, 9), "T&S", font=font(11, bold=True), fill=(255, 200, 0))  # the channel bug
    words = text.split()
    lines = [" ".join(words[i : i + 2]) for i in range(0, len(words), 2)]
    for i, line in enumerate(lines):
        d.text((12, 40 + i * 34), line, font=font(24, bold=True), fill=(255, 255, 255), stroke_width=2,
               stroke_fill=(0, 0, 0))  # fmt: skip
    if sponsor_logo:
        d.rectangle((230, 150, 314, 174), fill=(255, 255, 255))
        d.text((236, 154), "VoltCraft", font=font(12, bold=True), fill=(220, 30, 30))
    img.quantize(colors=48, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def voice_memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "55", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/licences", "day1/thumbnails", "day3/voice_memos"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    for i, (rel, rows) in enumerate(CERTS.items()):
        certificate(HERE / rel, rows, 5510 + i)
    colours = {"A": (30, 90, 160), "B": (160, 60, 40), "C": (40, 120, 80)}
    for (option, text, logo), rel in zip(F.thumbnails.rows, (N.thumb_a, N.thumb_b, N.thumb_c)):
        thumbnail(HERE / rel, text, logo == "yes", colours[option])
    voice_memo(HERE / N.memo)


if __name__ == "__main__":
    main()
