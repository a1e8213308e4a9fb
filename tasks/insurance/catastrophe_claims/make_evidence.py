"""Regenerate the CAT-claims task's evidence deterministically (the outputs are committed).

    python tasks/insurance/catastrophe_claims/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the scanned field
sheets and the test-square photos, no text layer), reportlab (the wrapper of each scanned sheet),
espeak-ng + ffmpeg (the insured's voicemail, 16 kHz mono MP3).

- day1/voicemail/VM_2026-06-15_0652.mp3  Laura Pham's voicemail: water through the nursery ceiling
  (her claim's KB text says weathertight: only this recording makes it P1)
- day2/inspections/CLM-26-41187_field_sheet.pdf, _test_square.jpg  Tess's ladder-assist sheet (squares,
  material, hits per slope) and the north-slope test square: 46 SQ architectural, 11 hits -> replace
- day2/inspections/CLM-26-41219_field_sheet.pdf, _test_square.jpg  24 SQ 3-tab, at most 5 hits -> repair
- day3/inspections/CLM-26-41203_field_sheet.pdf, _test_square.jpg  30 SQ 3-tab, 9 hits on the south -> replace
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
MATERIAL = {"architectural": "Laminated architectural shingle", "three_tab": "3-tab asphalt shingle"}
SLOPES = ("N", "S", "E", "W")

VOICEMAIL = (
    f"Hi, this is {F.claims.c.insured}, at four eighteen Larkspur Lane, calling about my hail claim. "
    "Since the rain last night, water is dripping through the ceiling in our baby's nursery, and the ceiling is "
    "starting to sag. We have a three week old at home, so we have all moved into the living room. "
    "Please can someone come out as soon as possible. My number is three one six, five five five, zero one four two. "
    "Thank you."
)


def field_sheet(path: Path, claim: dict, sheet: dict, seed: int, notes: list[str]) -> None:
    """Tess's handwritten ladder-assist sheet, photocopied and scanned: a grey raster, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 22)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 19)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 23)
    d.text((60, 50), "PRAIRIE SHIELD MUTUAL - LADDER ASSIST FIELD SHEET", font=bold, fill=20)
    d.line((60, 92, 790, 92), fill=60, width=2)
    rows = [
        ("Claim no.", claim["id"]),
        ("Property", f"{claim['address']}, Brookfield KS"),
        ("Inspected", "06/16/2026" if claim["id"] != F.claims.b.id else "06/17/2026"),
        ("Inspector", "T. Romero (ladder assist)"),
        ("Roof covering", MATERIAL[sheet["material"]]),
        ("Total squares", f"{sheet['squares']} SQ (measured, incl. waste)"),
    ]
    y = 120
    for k, v in rows:
        d.text((60, y), k, font=mid, fill=40)
        d.line((250, y + 24, 790, y + 24), fill=150, width=1)
        d.text((260, y - 2), v, font=hand, fill=15)
        y += 46
    y += 20
    d.text((60, y), "Test squares, 10 ft x 10 ft, hail hits counted:", font=mid, fill=30)
    y += 40
    for slope, hits in zip(SLOPES, sheet["hits"]):
        d.rectangle((90, y, 330, y + 40), outline=90, width=1)
        d.text((100, y + 8), f"Slope {slope}", font=mid, fill=30)
        d.text((240, y + 5), str(hits), font=hand, fill=10)
        y += 48
    y += 24
    for line in notes:
        d.text((60, y), line, font=hand, fill=20)
        y += 34
    d.text((60, 1030), "Sketch and photos in the claim file.        T.R.", font=mid, fill=50)
    rnd = random.Random(seed)
    for _ in range(500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=232)
    page = page.filter(ImageFilter.GaussianBlur(0.5)).resize((680, 880), Image.LANCZOS)
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=55, optimize=True)
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"scan {claim['id']}")
    aw, ah = letter
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def test_square_photo(path: Path, slope: str, hits: int, seed: int) -> None:
    """A roof photo: shingle courses, a chalked 10x10 test square, each hit circled, the count chalked."""
    rnd = random.Random(seed)
    w, h = 640, 480
    img = Image.new("RGB", (w, h), (70, 72, 78))
    d = ImageDraw.Draw(img)
    for row, y in enumerate(range(0, h, 24)):  # shingle courses
        off = (row % 2) * 30
        for x in range(-off, w, 60):
            g = 60 + rnd.randrange(25)
            d.rectangle((x + 1, y + 1, x + 58, y + 22), fill=(g, g + 2, g + 8))
    for _ in range(2500):  # granules
        x, y = rnd.randrange(w), rnd.randrange(h)
        g = rnd.randrange(40, 130)
        d.point((x, y), fill=(g, g, g))
    d.rectangle((120, 70, 520, 430), outline=(235, 235, 225), width=4)  # the chalked test square
    hand = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 40)
    d.text((135, 80), f"{slope}  {hits}", font=hand, fill=(240, 240, 230))
    placed: list[tuple[int, int]] = []
    while len(placed) < hits:
        x, y = rnd.randrange(160, 490), rnd.randrange(150, 400)
        if all((x - a) ** 2 + (y - b) ** 2 > 45**2 for a, b in placed):
            placed.append((x, y))
    for x, y in placed:
        d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=(35, 35, 38))  # the bruise
        d.ellipse((x - 18, y - 18, x + 18, y + 18), outline=(240, 240, 230), width=3)  # the chalk circle
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    img.save(path, format="JPEG", quality=72, optimize=True)


def voicemail(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "55", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "16k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/voicemail", "day2/inspections", "day3/inspections"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    voicemail(HERE / "day1/voicemail/VM_2026-06-15_0652.mp3")
    jobs = [
        ("day2", F.claims.a, F.inspections.a, 41187,
         ["Limb hole approx. 4 x 6 ft over kitchen, decking broken,", "tarp holding. Hail bruising all slopes."]),
        ("day2", F.claims.c, F.inspections.c, 41219,
         ["Leak at the nursery: flashing at the vent stack lifted,", "resealed today. Hail bruising light."]),
        ("day3", F.claims.b, F.inspections.b, 41203,
         ["Gutters and screens dented as reported.", "South slope heavily bruised."]),
    ]  # fmt: skip
    for day, claim, sheet, seed, notes in jobs:
        field_sheet(HERE / f"{day}/inspections/{claim['id']}_field_sheet.pdf", claim, sheet, seed, notes)
        worst = max(range(4), key=lambda i: sheet["hits"][i])
        test_square_photo(
            HERE / f"{day}/inspections/{claim['id']}_test_square.jpg", SLOPES[worst], sheet["hits"][worst], seed
        )


if __name__ == "__main__":
    main()
