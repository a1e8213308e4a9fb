"""Regenerate the UGC rights task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/ugc_rights_clearance/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the creators'
photos and the scanned release forms: pixels only), reportlab (wraps each scan in a PDF without a
text layer), espeak-ng + ffmpeg (the campaign manager's voice memo, 16 kHz mono MP3).

- day1/releases/*.pdf   model releases, scanned: which use box is ticked (advertising, or organic
  social only) is only in the pixels; Lea Brandt's first form ticks "organic social only"
- day4/releases/UGC-301_release_L-Brandt_v2.pdf   her new form: advertising ticked
- day1/photos/*.jpg     the four photos; UGC-302 shows a WAVELINE logo on a parasol
- day3/retouch/UGC-302_wanderwithjo_retouched.jpg   the same photo, logo removed
- day3/voice_memos/jonah_placements_2025-06-04.mp3  the new placement plan (facts.toml [placements])
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
    "Nina, it's Jonah, quick change to the summer placements. The billboard at Leeds station gets U G C three "
    "oh four now. Meta carousel card one stays U G C three oh two, once the retouch is done. Card two gets U G C "
    "three oh three instead. And the Instagram organic post gets U G C three oh one. Update the plan and approve "
    "whatever is cleared. Cheers."
)


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    name = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "hand": "DejaVuSans-Oblique.ttf"}[kind]
    return ImageFont.truetype(str(FONTS / name), size)


def release(path: Path, asset: str, person: str, advertising: bool, signed: str, seed: int) -> None:
    w, h = 600, 760
    page = Image.new("L", (w, h), 247)
    d = ImageDraw.Draw(page)
    d.text((40, 36), "PEBBLECOVE TRAVEL", font=font(22, "bold"), fill=25)
    d.text((40, 68), "Model release - user-generated content", font=font(15), fill=40)
    d.line((40, 96, 560, 96), fill=60, width=2)
    rows = [("Content", f"{asset} (photo)"), ("Person shown", ""), ("Date", "")]
    y = 118
    for key, _ in rows:
        d.text((40, y), key, font=font(14), fill=40)
        d.line((190, y + 18, 540, y + 18), fill=120)
        y += 40
    d.text((196, 114), f"{asset} (photo)", font=font(16, "hand"), fill=10)
    d.text((196, 154), person, font=font(17, "hand"), fill=10)
    d.text((196, 194), signed, font=font(16, "hand"), fill=10)
    d.text((40, 260), "I allow Pebblecove Travel to use my likeness in the content above for:", font=font(13), fill=30)
    for i, label in enumerate(["Advertising (online, print and outdoor)", "Organic social media posts only"]):
        by = 296 + i * 40
        d.rectangle((50, by, 70, by + 20), outline=30, width=2)
        d.text((84, by + 1), label, font=font(14), fill=25)
        if (i == 0) == advertising:
            d.line((52, by + 10, 59, by + 18), fill=0, width=3)
            d.line((59, by + 18, 72, by - 4), fill=0, width=3)
    d.text((40, 400), "This release does not expire. It covers the content named above only.", font=font(12), fill=40)
    d.text((40, 470), "Signature", font=font(14), fill=40)
    d.line((190, 488, 540, 488), fill=120)
    d.text((200, 462), person.split()[0][0] + ". " + person.split()[-1], font=font(22, "hand"), fill=5)
    rnd = random.Random(seed)
    for _ in range(300):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(130, 200))
    page = page.rotate(0.5, resample=Image.BICUBIC, fillcolor=235).filter(ImageFilter.GaussianBlur(0.4))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=40, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def person(d: ImageDraw.ImageDraw, x: int, y: int, shirt: tuple[int, int, int]) -> None:
    d.ellipse((x - 10, y - 40, x + 10, y - 20), fill=(230, 190, 160))
    d.rectangle((x - 12, y - 20, x + 12, y + 20), fill=shirt)
    d.line((x - 8, y + 20, x - 10, y + 45), fill=(50, 50, 80), width=5)
    d.line((x + 8, y + 20, x + 10, y + 45), fill=(50, 50, 80), width=5)


def photo(path: Path, scene: str, logo: bool = True) -> None:
    w, h = 400, 266
    img = Image.new("RGB", (w, h), (150, 200, 235))
    d = ImageDraw.Draw(img)
    if scene == "boat":
        d.rectangle((0, 150, w, h), fill=(40, 110, 160))
        d.polygon([(80, 170), (320, 170), (290, 210), (110, 210)], fill=(240, 240, 240))
        d.line((200, 60, 200, 170), fill=(80, 60, 40), width=4)
        d.polygon([(205, 65), (205, 160), (280, 160)], fill=(250, 250, 245))
        person(d, 150, 145, (220, 80, 60))
        person(d, 250, 145, (60, 140, 90))
    elif scene == "beach":
        d.rectangle((0, 140, w, 190), fill=(40, 120, 170))
        d.rectangle((0, 190, w, h), fill=(235, 215, 160))
        d.pieslice((170, 80, 330, 180), 180, 360, fill=(240, 120, 40))
        d.line((250, 130, 250, 230), fill=(90, 70, 50), width=4)
        if logo:
            d.text((204, 104), F.day1.logo, font=font(18, "bold"), fill=(255, 255, 255))
        d.rectangle((60, 215, 150, 235), fill=(250, 250, 250))
    elif scene == "mountain":
        d.polygon([(0, 230), (120, 70), (230, 230)], fill=(110, 120, 130))
        d.polygon([(150, 230), (290, 50), (400, 230)], fill=(90, 100, 115))
        d.polygon([(270, 75), (290, 50), (312, 78)], fill=(250, 250, 250))
        d.rectangle((0, 230, w, h), fill=(80, 130, 70))
    else:  # coast path walker
        d.rectangle((0, 120, w, h), fill=(40, 110, 160))
        d.polygon([(0, 266), (0, 150), (180, 170), (400, 266)], fill=(90, 150, 80))
        person(d, 140, 190, (230, 180, 40))
    img.filter(ImageFilter.GaussianBlur(0.6)).save(path, format="JPEG", quality=70, optimize=True)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/releases", "day1/photos", "day3/retouch", "day3/voice_memos", "day4/releases"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    lea = F.creators.second_person
    release(HERE / N.release_301_maya, "UGC-301", "Maya Lund", True, "28 May 2025", 301)
    release(HERE / N.release_301_lea, "UGC-301", lea, False, "28 May 2025", 302)
    release(HERE / N.release_304_ada, "UGC-304", "Ada Quist", True, "30 May 2025", 304)
    release(HERE / N.release_301_lea_new, "UGC-301", lea, True, "4 June 2025", 305)
    photo(HERE / N.photo_301, "boat")
    photo(HERE / N.photo_302, "beach")
    photo(HERE / N.photo_303, "mountain")
    photo(HERE / N.photo_304, "coast")
    photo(HERE / N.photo_302_retouched, "beach", logo=False)
    memo(HERE / N.memo)


if __name__ == "__main__":
    main()
