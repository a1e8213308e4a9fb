"""Regenerate the listing-compliance task's evidence deterministically (the outputs are committed).

    python tasks/ecommerce/listing_compliance/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (packaging photos and
the scanned pages, grey rasters with no text layer), reportlab (the wrappers of the scans),
espeak-ng + ffmpeg (the category manager's voice memo, 16 kHz mono MP3).

- day1/submissions/LST-50417/IMG_4471.jpg  the blocks' box: CE mark, the 0-3 symbol and "not
  suitable for children under 36 months" (the listing says 6+ months)
- day1/submissions/LST-50422/IMG_0932.jpg  the face-oil bottle: a COSMOS NATURAL mark (the listing
  claims COSMOS ORGANIC)
- day1/submissions/LST-50431/IMG_2210.jpg  the charger's box: model VH-65C, CE and UKCA marks
- day1/submissions/LST-50431/VH-65C_certificate_of_conformity.pdf  image-only PDF: the certificate
  number and the model it covers
- day3/documents/BN-2207_EN71_test_report.pdf  image-only PDF: EN 71-1 and -2 PASS, EN 71-3 FAIL
- day4/voice/jun_takeda_2025-06-05_0815.mp3  the appeal decision: the strike comes off; relisting
  only without organic wording; Volta may go live again once GS is gone
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False, mono: bool = False, serif: bool = False) -> ImageFont.FreeTypeFont:
    if mono:
        name = "DejaVuSansMono.ttf"
    elif serif:
        name = "DejaVuSerif-Bold.ttf" if bold else "DejaVuSerif.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def grain(img: Image.Image, seed: int, amount: int = 2200) -> Image.Image:
    rnd = random.Random(seed)
    d = ImageDraw.Draw(img)
    for _ in range(amount):
        x, y = rnd.randrange(img.width), rnd.randrange(img.height)
        v = rnd.randrange(-22, 22)
        r, g, b = img.getpixel((x, y))
        d.point((x, y), fill=(max(0, min(255, r + v)), max(0, min(255, g + v)), max(0, min(255, b + v))))
    return img.filter(ImageFilter.GaussianBlur(0.6))


def ce_mark(d: ImageDraw.ImageDraw, x: int, y: int, size: int, colour: tuple[int, int, int]) -> None:
    """The CE mark: two open circles (drawn as arcs), the E with a middle bar."""
    w = max(3, size // 7)
    d.arc((x, y, x + size, y + size), 45, 315, fill=colour, width=w)
    ex = x + int(size * 1.1)
    d.arc((ex, y, ex + size, y + size), 45, 315, fill=colour, width=w)
    d.line((ex + size // 4, y + size // 2, ex + size - 2, y + size // 2), fill=colour, width=w)


def save_jpeg(img: Image.Image, path: Path) -> None:
    img.save(path, format="JPEG", quality=72, optimize=True)


# -- packaging photos -----------------------------------------------------------------------------
def blocks_box(path: Path) -> None:
    img = Image.new("RGB", (900, 640), (214, 206, 190))  # a table top
    d = ImageDraw.Draw(img)
    d.polygon([(120, 60), (780, 80), (770, 600), (110, 580)], fill=(250, 248, 240))  # the box front
    for k, colour in enumerate([(230, 60, 60), (250, 170, 40), (250, 220, 60), (80, 180, 90), (60, 120, 220)]):
        d.rectangle((170 + k * 70, 140 + (k % 2) * 20, 230 + k * 70, 200 + (k % 2) * 20), fill=colour)
    d.text((170, 240), "Rainbow Stacking Blocks", font=font(40, bold=True), fill=(40, 40, 90))
    d.text((170, 292), "20 wooden blocks  -  item BN-2207", font=font(22), fill=(60, 60, 60))
    d.text((170, 330), "BrightNest", font=font(26, bold=True), fill=(230, 120, 30))
    # the age-warning symbol: a circle, a child's face, a bar across, "0-3"
    cx, cy = 230, 470
    d.ellipse((cx - 58, cy - 58, cx + 58, cy + 58), outline=(20, 20, 20), width=7)
    d.ellipse((cx - 26, cy - 30, cx + 26, cy + 18), outline=(20, 20, 20), width=4)
    d.text((cx - 24, cy + 14), "0-3", font=font(22, bold=True), fill=(20, 20, 20))
    d.line((cx - 40, cy - 40, cx + 40, cy + 40), fill=(20, 20, 20), width=7)
    d.text((310, 420), "WARNING:", font=font(22, bold=True), fill=(180, 20, 20))
    d.text((310, 450), "Not suitable for children", font=font(21), fill=(20, 20, 20))
    d.text((310, 476), "under 36 months. Small parts.", font=font(21), fill=(20, 20, 20))
    d.text((310, 502), "Choking hazard.", font=font(21), fill=(20, 20, 20))
    d.rounded_rectangle((650, 420, 760, 500), radius=12, fill=(40, 40, 90))
    d.text((672, 432), "3+", font=font(46, bold=True), fill=(255, 255, 255))
    ce_mark(d, 665, 520, 40, (20, 20, 20))
    save_jpeg(grain(img, 4471), path)


def oil_bottle(path: Path) -> None:
    img = Image.new("RGB", (640, 860), (232, 228, 236))
    d = ImageDraw.Draw(img)
    d.rectangle((270, 40, 370, 130), fill=(30, 30, 30))  # the dropper cap
    d.rounded_rectangle((190, 120, 450, 800), radius=40, fill=(120, 80, 150))  # violet glass
    d.rectangle((205, 260, 435, 700), fill=(248, 246, 240))  # the label
    d.text((225, 280), "PureLeaf", font=font(34, bold=True, serif=True), fill=(60, 90, 60))
    d.text((225, 330), "Lavender", font=font(30, serif=True), fill=(90, 60, 120))
    d.text((225, 368), "Face Oil", font=font(30, serif=True), fill=(90, 60, 120))
    d.text((225, 414), "30 ml  e", font=font(20), fill=(40, 40, 40))
    # the COSMOS mark: a round seal with the word NATURAL under it
    d.ellipse((240, 455, 400, 605), outline=(40, 110, 60), width=6)
    d.text((265, 513), "COSMOS", font=font(22, bold=True), fill=(40, 110, 60))
    d.text((262, 612), "NATURAL", font=font(28, bold=True), fill=(40, 110, 60))
    d.text((226, 650), "certified by Ecocert Greenlife", font=font(13), fill=(60, 60, 60))
    save_jpeg(grain(img, 932), path)


def charger_box(path: Path) -> None:
    img = Image.new("RGB", (900, 600), (70, 74, 82))
    d = ImageDraw.Draw(img)
    d.rectangle((140, 70, 760, 540), fill=(246, 246, 246))
    d.text((180, 100), "VOLTA", font=font(44, bold=True), fill=(240, 120, 20))
    d.text((180, 165), "65W USB-C GaN charger", font=font(30, bold=True), fill=(30, 30, 30))
    d.text((180, 215), f"Model {F.charger.model}", font=font(26), fill=(30, 30, 30))
    d.text((180, 255), "Input 100-240V~ 50/60Hz 1.6A", font=font(18), fill=(60, 60, 60))
    d.text((180, 282), "Output 5V/3A 9V/3A 15V/3A 20V/3.25A", font=font(18), fill=(60, 60, 60))
    d.rounded_rectangle((480, 320, 700, 470), radius=18, fill=(225, 225, 228))  # the charger itself
    ce_mark(d, 200, 420, 60, (20, 20, 20))
    d.rectangle((360, 420, 430, 490), outline=(20, 20, 20), width=5)  # the UKCA mark
    d.text((368, 424), "UK", font=font(26, bold=True), fill=(20, 20, 20))
    d.text((368, 456), "CA", font=font(26, bold=True), fill=(20, 20, 20))
    save_jpeg(grain(img, 2210), path)


# -- scanned documents (no text layer) ------------------------------------------------------------
def scanned_pdf(page: Image.Image, path: Path, seed: int, title: str) -> None:
    rnd = random.Random(seed)
    d = ImageDraw.Draw(page)
    for _ in range(1600):
        d.point((rnd.randrange(page.width), rnd.randrange(page.height)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=236)
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=68, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def certificate(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.rectangle((40, 40, w - 40, h - 40), outline=60, width=4)
    d.text((120, 90), "CERTIFICATE OF CONFORMITY", font=font(36, bold=True, serif=True), fill=20)
    d.text((250, 150), "Brandt & Lowe Testing Ltd - Notified Body 2917", font=font(18), fill=40)
    rows = [
        ("Certificate No.", F.charger.certificate),
        ("Holder", "Volta Home Electrics Ltd, Leeds, UK"),
        ("Product", "USB-C power adapter (GaN), 65 W"),
        ("Model", F.charger.model),
        ("Standards", "EN IEC 62368-1:2020+A11:2020"),
        ("", "EN IEC 61000-3-2:2019, EN 55032:2015"),
        ("Marks", "CE, UKCA"),
        ("Issued", "2025-04-30"),
        ("Valid until", F.charger.valid_until),
    ]
    y = 250
    for k, v in rows:
        d.text((100, y), k, font=font(21, bold=True), fill=30)
        d.text((330, y), v, font=font(21), fill=10)
        y += 52
    d.text((100, y + 40), "The product listed above has been assessed and found to conform", font=font(18), fill=30)
    d.text((100, y + 68), "with the requirements of the standards stated.", font=font(18), fill=30)
    d.ellipse((560, 860, 720, 1020), outline=90, width=5)
    d.text((590, 925), "B&L 2917", font=font(20, bold=True), fill=90)
    d.text((100, 960), "signed: Dr H. Lowe, Certification Manager", font=font(17), fill=40)
    scanned_pdf(page, path, 4417, "scan_0430")


def test_report(path: Path) -> None:
    b = F.blocks
    w, h = 850, 1100
    page = Image.new("L", (w, h), 250)
    d = ImageDraw.Draw(page)
    d.text((70, 60), "SGS Hong Kong - Toys & Juvenile Products", font=font(26, bold=True), fill=20)
    d.text((70, 100), "TEST REPORT", font=font(22, bold=True), fill=30)
    d.line((70, 135, 780, 135), fill=60, width=2)
    rows = [
        ("Report No.", b.report),
        ("Date", "2025-06-03"),
        ("Applicant", "BrightNest Toys Ltd"),
        ("Sample", "Rainbow stacking blocks, item BN-2207"),
        ("Age grading", "36 months and over"),
    ]
    y = 160
    for k, v in rows:
        d.text((70, y), k, font=font(19, bold=True), fill=30)
        d.text((250, y), v, font=font(19), fill=10)
        y += 38
    y += 25
    for x, head in ((70, "Test"), (420, "Result"), (680, "Verdict")):
        d.text((x, y), head, font=font(20, bold=True), fill=20)
    y += 42
    results = [
        ("EN 71-1:2014+A1:2018 mechanical", "-", "PASS"),
        ("EN 71-2:2020 flammability", "-", "PASS"),
        ("EN 71-3:2019 lead (Pb) migration", f"{b.lead_result} mg/kg (limit {b.lead_limit})", "FAIL"),
        ("EN 71-3:2019 other elements", "below limits", "PASS"),
    ]
    for test, result, verdict in results:
        d.text((70, y), test, font=font(17), fill=15)
        d.text((420, y), result, font=font(17, mono=True), fill=10)
        d.text((680, y), verdict, font=font(19, bold=True), fill=10)
        y += 40
    y += 30
    d.text(
        (70, y),
        "Conclusion: the sample does NOT comply with EN 71-3:2019 (green paint, coating).",
        font=font(17),
        fill=20,
    )
    d.text((70, 1020), "This report shall not be reproduced except in full.   Page 1 of 1", font=font(15), fill=40)
    scanned_pdf(page, path, 118734, "scan_0603")


# -- the voice memo -------------------------------------------------------------------------------
def memo_text() -> str:
    return (
        "Hi Amara, it's Jun, Thursday morning, quarter past eight. Two things. First, PureLeaf's appeal on the "
        "lavender face oil. I've gone through it with them, and the strike comes off whatever happens, so they're "
        f"back at {F.memo.strikes_after} strikes and out of account review. The relisting is a separate thing: "
        "they can go live again only if there is no organic wording anywhere, not in the claims and not in the "
        "product title. If there is, keep it down and tell them why. Second, Volta's sixty five watt charger: if the "
        "G S mark is really gone from the claims, it can go live again, the certificate covers the model. "
        "That's all, thanks."
    )


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), memo_text()], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/submissions", "day3/documents", "day4/voice"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    for listing in (F.blocks.listing, F.oil.listing, F.charger.listing):
        (HERE / "day1/submissions" / listing).mkdir()
    blocks_box(HERE / F.blocks.photo)
    oil_bottle(HERE / F.oil.photo)
    charger_box(HERE / F.charger.photo)
    certificate(HERE / F.charger.certificate_file)
    test_report(HERE / F.blocks.report_file)
    voice_memo(HERE / F.names.memo)


if __name__ == "__main__":
    main()
