"""Regenerate the chargeback-disputes task's evidence deterministically (the outputs are committed).

    python tasks/ecommerce/chargeback_disputes/make_evidence.py

Authoring-time tools only: Pillow (the courier's delivery photos: JPEG, the house number only in
pixels), reportlab (the carrier's tracking scan, a text PDF), espeak-ng + ffmpeg (the controller's
voicemail, 16 kHz mono MP3).

- day1/pod/LG-50412_delivery.jpg, day1/pod/LG-50439_delivery.jpg   delivery photos (door numbers 12 and 47)
- day1/carrier/swiftline_pod_extract.pdf                             the carrier's delivery scan (both say delivered)
- day3/voicemail/tomas_reyes_2026-03-11_0806.mp3                     the reversal reference of the duplicate capture
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def delivery_photo(path: Path, door: str, tracking: str, stamp: str, seed: int, tint: tuple[int, int, int]) -> None:
    """A courier's doorstep photo: brick wall, a front door with its house number, a parcel."""
    rnd = random.Random(seed)
    w, h = 480, 360
    img = Image.new("RGB", (w, h), (150, 78, 60))
    d = ImageDraw.Draw(img)
    for y in range(0, 300, 18):  # brick courses
        off = 0 if (y // 18) % 2 else 22
        for x in range(-off, w, 44):
            shade = rnd.randrange(-14, 14)
            d.rectangle((x + 2, y + 2, x + 42, y + 16), fill=(158 + shade, 84 + shade // 2, 64 + shade // 2))
    d.rectangle((0, 300, w, h), fill=(112, 112, 108))  # doorstep / pavement
    d.rectangle((150, 40, 330, 300), fill=tint, outline=(40, 40, 40), width=4)  # the door
    d.rectangle((172, 70, 308, 160), outline=(30, 30, 30), width=3)
    d.rectangle((172, 180, 308, 280), outline=(30, 30, 30), width=3)
    d.ellipse((296, 190, 310, 204), fill=(200, 170, 60))  # handle
    d.rounded_rectangle((360, 100, 430, 150), radius=6, fill=(235, 235, 228), outline=(60, 60, 60), width=2)
    d.text((395, 125), door, font=font(34, bold=True), fill=(20, 20, 24), anchor="mm")  # the house number plate
    d.polygon([(60, 290), (150, 290), (170, 330), (80, 330)], fill=(190, 150, 100))  # parcel
    d.rectangle((80, 330, 170, 352), fill=(170, 130, 85))
    d.line((105, 290, 125, 352), fill=(220, 200, 160), width=4)
    d.rectangle((0, 0, w, 24), fill=(20, 20, 20))
    d.text((8, 4), f"SWIFTLINE POD  {stamp}  {tracking}", font=font(13), fill=(250, 250, 250))
    for _ in range(900):
        d.point((rnd.randrange(w), rnd.randrange(24, h)), fill=(rnd.randrange(90, 200),) * 3)
    img = img.filter(ImageFilter.GaussianBlur(0.5))
    img.save(path, format="JPEG", quality=72, optimize=True)


def carrier_scan(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Swiftline proof-of-delivery extract")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Swiftline Parcel - Proof of delivery extract")
    c.setFont("Helvetica", 9.5)
    c.drawString(60, 774, "Requested by Larkspur Goods B.V. (account SW-22817) on 06/03/2026")
    y = 735
    for a in (F.cb_a, F.cb_b):
        c.setFont("Helvetica-Bold", 11)
        c.drawString(60, y, f"Consignment {a.tracking}   (shipper reference {a.order})")
        c.setFont("Helvetica", 10)
        for line in [
            f"Recipient on label: {a.customer}, {a.street}",
            "02/03/2026 21:40  Received at hub Nieuwegein",
            "03/03/2026 07:55  Out for delivery",
            "03/03/2026 14:12  Delivered - left at front door (safe place), photo taken",
            "Signature: not required (safe-place delivery)   GPS fix: within 40 m of the label address",
        ]:
            y -= 16
            c.drawString(72, y, line)
        y -= 34
    c.setFont("Helvetica", 9)
    c.drawString(60, y, "Delivery photos are supplied separately as JPEG files named by shipper reference.")
    c.save()


VOICEMAIL = (
    "Hi Dana, it's Tomas, Wednesday just after eight. About the new duplicate processing case on order "
    "L G 5 0 5 0 2. The settlement report shows the payment retry captured it twice, but the second capture "
    f"was reversed on {F.cb_e.reversal_date}, before the dispute was raised. The reversal reference is "
    "R V 6 6 2 0. I repeat, R V 6 6 2 0. So contest it as credit issued, and put the reversal reference and "
    "the date in the packet. And please don't refund anything on that order. Thanks."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/pod", "day1/carrier", "day3/voicemail"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    stamp = "03/03/2026 14:12"
    delivery_photo(
        HERE / f"day1/pod/{F.cb_a.order}_delivery.jpg", F.cb_a.door, F.cb_a.tracking, stamp, 50412, (30, 70, 50)
    )
    delivery_photo(
        HERE / f"day1/pod/{F.cb_b.order}_delivery.jpg", F.cb_b.door, F.cb_b.tracking, stamp, 50439, (40, 50, 110)
    )
    carrier_scan(HERE / "day1/carrier/swiftline_pod_extract.pdf")
    voicemail(HERE / "day3/voicemail/tomas_reyes_2026-03-11_0806.mp3")


if __name__ == "__main__":
    main()
