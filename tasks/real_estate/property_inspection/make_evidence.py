"""Regenerate the property-inspection task's evidence deterministically (the outputs are committed).

    python tasks/real_estate/property_inspection/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the inventory photos, JPEGs with no text layer), espeak-ng + ffmpeg (the tenant's
voicemail, 16 kHz mono MP3).

- day1/inventory/movein_living.jpg, movein_bedroom.jpg  move-in photos (June 2023): the carpet
  stain is already there; the blind is intact
- day1/checkout/moveout_living.jpg, moveout_bedroom.jpg  check-out photos: the same stain, a
  scuffed and holed wall; the blind hanging broken
- day1/checkout/TEN-4418_checkout_report.pdf  text PDF: the clerk's findings (no view on causes)
- day1/checkout/Brightside_quote_BPS-2291.pdf  text PDF: the contractor's prices
- day2/voicemail/price_2025-06-23_1812.mp3  the tenant: the blind was reported in March (MT-5530)
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
T, Q = F.tenancy, F.quote


def text_pdf(path: Path, title: str, heading: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, heading)
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in lines:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def photo(path: Path, seed: int, scene) -> None:
    w, h = 480, 360
    img = Image.new("RGB", (w, h), (226, 220, 204))  # wall
    d = ImageDraw.Draw(img)
    scene(d)
    rnd = random.Random(seed)
    for _ in range(900):
        v = rnd.randrange(110, 210)
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=(v, v, v))
    img.filter(ImageFilter.GaussianBlur(0.6)).save(path, format="JPEG", quality=66, optimize=True)


def living(damaged: bool):
    def scene(d: ImageDraw.ImageDraw) -> None:
        d.rectangle((0, 250, 480, 360), fill=(110, 128, 150))  # blue carpet
        d.ellipse((300, 285, 380, 325), fill=(92, 76, 62))  # the stain by the sofa: in both photos
        d.rectangle((40, 190, 220, 260), fill=(90, 70, 60))  # sofa
        d.rectangle((280, 60, 420, 160), outline=(120, 110, 90), width=4)  # picture frame outline
        if damaged:
            for x, y in ((250, 90), (262, 96), (440, 120), (448, 112)):
                d.ellipse((x, y, x + 9, y + 9), fill=(60, 52, 46))  # screw holes
            for n in range(6):
                d.line((60 + n * 22, 120 + n * 3, 140 + n * 22, 160 + n * 2), fill=(150, 140, 128), width=5)  # scuffs
            d.polygon([(330, 170), (400, 172), (395, 215), (340, 205)], fill=(196, 150, 150))  # a patch of red paint

    return scene


def bedroom(damaged: bool):
    def scene(d: ImageDraw.ImageDraw) -> None:
        d.rectangle((0, 270, 480, 360), fill=(150, 130, 110))  # floor
        d.rectangle((140, 40, 340, 230), fill=(170, 200, 230))  # window
        d.rectangle((130, 30, 350, 44), fill=(90, 90, 90))  # blind head rail
        if damaged:
            d.polygon([(136, 44), (260, 44), (180, 190), (136, 200)], fill=(236, 236, 230))  # slats hanging at an angle
            d.line((300, 44, 300, 250), fill=(90, 90, 90), width=2)  # snapped cord
        else:
            d.rectangle((136, 44, 344, 150), fill=(236, 236, 230))  # blind half down, level
            for y in range(50, 150, 10):
                d.line((136, y, 344, y), fill=(200, 200, 194), width=1)
        d.rectangle((30, 220, 120, 300), fill=(120, 90, 60))  # chest of drawers

    return scene


def voicemail(path: Path) -> None:
    speech = (
        "Hello, this is Jonah Price, I was the tenant at Flat 3, 27 Orchard Row, until last Friday. "
        "About the deposit: the bedroom blind was not me. The cord snapped in March and I reported it to "
        "your maintenance line straight away, the ticket number was M T 5 5 3 0, and nobody ever came to "
        "fix it. If you want to talk it through I am free on Wednesday at eleven in the morning, or on "
        "Thursday at three in the afternoon. Thanks, bye."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), speech], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/inventory", "day1/checkout", "day2/voicemail"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    photo(HERE / "day1/inventory/movein_living.jpg", 1, living(False))
    photo(HERE / "day1/inventory/movein_bedroom.jpg", 2, bedroom(False))
    photo(HERE / "day1/checkout/moveout_living.jpg", 3, living(True))
    photo(HERE / "day1/checkout/moveout_bedroom.jpg", 4, bedroom(True))
    text_pdf(
        HERE / f"day1/checkout/{T.ref}_checkout_report.pdf",
        f"Check-out report {T.ref}",
        f"Lindenhall Lettings - Check-out report {T.ref}",
        [
            f"Property: {T.property}      Tenant: {T.tenant}      Tenancy ended: {T.ended}",
            "Clerk: Oliver Stone      Inspected: 20 June 2025, 16:00",
            "",
            "Living room: carpet - stain approx. 40 x 25 cm beside the sofa. Walls - scuffing along the",
            "  sofa wall, four screw holes, a patch of red paint on the chimney breast. Photo moveout_living.",
            "Bedroom: window blind - slats hanging, cord snapped. Photo moveout_bedroom.",
            "Kitchen: oven and hob greasy; extractor filter not cleaned.",
            "Bathroom: limescale on screen and taps.",
            "Cleaning overall: below standard (kitchen, bathroom).",
            "",
            "Compare with the move-in inventory photos of 2 June 2023 (inventory folder).",
            "Keys: 2 sets returned. Meters: electricity 48213, gas 10977.",
        ],
    )
    text_pdf(
        HERE / f"day1/checkout/Brightside_quote_{Q.ref}.pdf",
        f"Quote {Q.ref}",
        f"Brightside Property Services - Quote {Q.ref}",
        [
            f"For: Lindenhall Lettings, {T.property}      Date: 21 June 2025",
            "",
            f"1. Living room carpet: deep clean and stain treatment ......... GBP {Q.carpet}",
            f"2. Living room: fill holes, repaint walls and chimney breast .. GBP {Q.repaint}",
            f"3. Bedroom: supply and fit replacement roller blind ........... GBP {Q.blind}",
            f"4. End-of-tenancy clean (kitchen and bathroom) ................ GBP {Q.clean}",
            "",
            f"Total GBP {Q.claimed}. Prices include materials; valid 30 days.",
        ],
    )
    voicemail(HERE / "day2/voicemail/price_2025-06-23_1812.mp3")


if __name__ == "__main__":
    main()
