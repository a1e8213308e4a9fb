"""Regenerate the moderation task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/community_moderation/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the report
screenshots: PNG, text only in pixels; the scanned minutes page), reportlab (the minutes'
image-only PDF wrapper), espeak-ng + ffmpeg (the voice post).

- day1/screenshots/R-301.png ... R-304.png  the moderation tool's screenshot of each reported post: a
  header with the report and its reporter, then the post as members saw it (author, time, text)
- day2/screenshots/R-305.png                the report that arrives overnight: a voice post, whose words
  are only in day2/screenshots/R-305_voice.mp3 (espeak-ng, 16 kHz mono MP3, bit-exact)
- day3/escalation_minutes_2025-11-13.pdf    image-only PDF: the signed minutes of the escalation review
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def screenshot(path: Path, report: dict) -> None:
    """The moderation tool's view of one report: reporter header, then the post card."""
    lines = textwrap.wrap(report.get("shown", report["text"]), width=62)
    h = 172 + 24 * len(lines)
    img = Image.new("RGB", (640, h), (246, 244, 240))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 640, 40), fill=(64, 52, 96))
    d.text((14, 11), f"Loomhall mod tools  |  Report {report['id']}", font=font(15, True), fill=(255, 255, 255))
    d.text((14, 50), f"reported by @{report['reporter']}   reason: {report['reported_for']}", font=font(13),
           fill=(120, 60, 60))  # fmt: skip
    d.rounded_rectangle((12, 76, 628, h - 12), radius=8, fill=(255, 255, 255), outline=(210, 205, 200))
    d.ellipse((24, 88, 56, 120), fill=(150, 170, 200))
    d.text((66, 88), f"@{report['author']}", font=font(15, True), fill=(30, 30, 40))
    d.text((66, 108), f"{report['posted']}  -  Pattern Talk", font=font(12), fill=(120, 120, 130))
    y = 132
    for line in lines:
        d.text((28, y), line, font=font(15), fill=(25, 25, 30))
        y += 24
    d.text((28, h - 32), f"post {report['post']}", font=font(11), fill=(150, 150, 160))
    img.quantize(colors=64, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def voice_post(path: Path, text: str) -> None:
    """A member's voice post: espeak-ng with a fixed voice, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "voice.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-p", "30", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def minutes_pdf(path: Path) -> None:
    """Typed minutes, signed, photocopied and scanned: a grey raster page, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    r301, r304 = F.reports.r301, F.reports.r304
    d.text((60, 60), "LOOMHALL - TRUST & SAFETY", font=font(26, True), fill=20)
    d.text((60, 100), "Escalation review: minutes", font=font(20), fill=30)
    d.line((60, 136, 790, 136), fill=60, width=2)
    y = 160
    for line in [
        f"Date: {F.minutes.date}",
        "Present: M. Vega (T&S lead), K. Asante (T&S lead)",
        "Quorum: two T&S leads - decisions below are binding.",
        "",
        f"1. {r301.id}  @{r301.author}  (clause {r301.clause}, personal information)",
        "    Proposed: permanent ban.",
        "    Decision: APPROVED. Carry out the ban today.",
        "",
        f"2. {r304.id}  @{r304.author}  (clause {r304.clause}, harassment)",
        "    Ban requested by H. Lindqvist (Community Director) by mail.",
        "    Decision: REJECTED. Keep the 7-day suspension; no ban.",
        "",
        "3. R-288 @thread_ripper: ban carried out 05/11, no further action.",
        "",
        "Actions: M. Vega to carry out item 1 and notify the member.",
    ]:
        d.text((60, y), line, font=font(19), fill=15)
        y += 34
    d.text((60, 900), "Signed:", font=font(18), fill=30)
    d.line((150, 930, 380, 915), fill=40, width=2)  # two signatures
    d.line((430, 925, 650, 910), fill=40, width=2)
    d.text((150, 940), "M. Vega", font=font(15), fill=40)
    d.text((430, 940), "K. Asante", font=font(15), fill=40)
    rnd = random.Random(1113)  # scanner speckle: seeded, the same bytes every run
    for _ in range(2200):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=60, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan_0457")
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=A4[0], height=A4[1])
    c.save()


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
    for sub in ("day1/screenshots", "day2/screenshots", "day3"):
        (HERE / sub).mkdir(parents=True)
    for key in ("r301", "r302", "r303", "r304"):
        report = dict(F.reports[key])
        screenshot(HERE / f"day1/screenshots/{report['id']}.png", report)
    screenshot(HERE / "day2/screenshots/R-305.png", dict(F.reports.r305))
    voice_post(HERE / "day2/screenshots/R-305_voice.mp3", F.reports.r305.text)
    minutes_pdf(HERE / "day3/escalation_minutes_2025-11-13.pdf")


if __name__ == "__main__":
    main()
