"""Regenerate the product-recall task's evidence and order table deterministically (outputs committed).

    python tasks/ecommerce/product_recall/make_evidence.py

Authoring-time tools only: Pillow (the quarantine-tag photo), reportlab (the supplier's 8D interim
report), espeak-ng + ffmpeg (the customer's voicemail, 16 kHz mono MP3, bit-exact flags).

- seed/orders.csv                              the direct customers' WarmNest orders (fixed seed):
  order, customer, e-mail, batch, quantity, ship date; the incident customer's order among them
- day1/goods_in/quarantine_tag_TH-4471.jpg     photo of the goods-in quarantine tag: the affected
  batch numbers are only in the pixels
- day1/supplier/Shenfa_8D_interim_TH-4471.pdf  text PDF: root cause, hazard (scalds/burns, no fire)
- day2/voicemail/customer_2025-07-07_1730.mp3  spoken: the customer's order, her batch and her injury
"""

from __future__ import annotations

import csv
import random
import shutil
import subprocess
import tempfile
from datetime import date, timedelta
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")

FIRST = ["Olivia", "Amara", "Grace", "Hannah", "Isla", "Sophie", "Ella", "Mia", "Leah", "Zara", "Chloe", "Ruby", "Aisha",
         "Freya", "Lucy", "Maya", "Nina", "Holly", "Erin", "Keira", "Tom", "James", "Ravi", "Owen", "Dan", "Sam", "Jack"]  # fmt: skip
LAST = ["Hughes", "Patel", "Turner", "Brooks", "Khan", "Reid", "Walsh", "Moss", "Price", "Byrne", "Shah", "Lowe", "Grant",
        "Doyle", "Fraser", "Nash", "Quinn", "Ellis", "Marsh", "Hale", "Pike", "Rowe", "Stone", "Webb", "Yates", "Frost"]  # fmt: skip
DOMAINS = ["postbox.example", "mailhub.example", "inbox-uk.example", "homeweb.example"]


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def orders(path: Path) -> None:
    rnd = random.Random(F.orders.seed)
    names: list[str] = []
    while len(names) < F.orders.count:
        n = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
        if n not in names and n not in (F.incident.customer, F.orders.late_customer):
            names.append(n)
    names[11] = F.incident.customer  # ORD-7712
    batches = [b for b in F.batches.all if b != "B2508"]
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Order ID", "Customer", "Email", "Batch", "Qty", "Ship Date", "Channel", "Notified"])
        for i, name in enumerate(names):
            oid = f"ORD-{7701 + i}"
            batch = F.incident.order == oid and "B2505" or rnd.choice(batches)
            email = f"{name.lower().replace(' ', '.')}@{rnd.choice(DOMAINS)}"
            shipped = date(2025, 4, 22) + timedelta(days=rnd.randrange(0, 70))
            w.writerow([oid, name, email, batch, rnd.choice([1, 1, 1, 2]), shipped.isoformat(),
                        rnd.choice(["webshop", "webshop", "marketplace"]), "false"])  # fmt: skip


def quarantine_tag(path: Path) -> None:
    rnd = random.Random(4471)
    img = Image.new("RGB", (640, 480), (96, 102, 110))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 300, 640, 480), fill=(70, 74, 80))  # pallet shadow
    for k in range(4):
        d.rectangle((20 + k * 150, 40, 160 + k * 150, 290), fill=(188, 150, 104), outline=(120, 90, 60), width=3)
    tag = Image.new("RGB", (400, 300), (236, 64, 52))
    t = ImageDraw.Draw(tag)
    t.rectangle((8, 8, 392, 292), outline=(255, 255, 255), width=3)
    t.text((24, 18), "QUARANTINE - HOLD", font=font(28, bold=True), fill=(255, 255, 255))
    t.text((24, 64), f"Thermostat lot {F.product.thermostat_lot}", font=font(18), fill=(255, 255, 255))
    t.text((24, 92), "(Kessler KT-90, drifts high)", font=font(15), fill=(255, 240, 240))
    t.text((24, 128), "Fitted in WarmNest batches:", font=font(18, bold=True), fill=(255, 255, 255))
    t.text((24, 158), "  ".join(F.batches.affected), font=font(30, bold=True), fill=(255, 255, 160))
    t.text((24, 214), "DO NOT SHIP - QA release only", font=font(17, bold=True), fill=(255, 255, 255))
    t.text((24, 250), "Tagged 04/07/2025  N. Sule (QA)", font=font(14), fill=(255, 230, 230))
    tag = tag.rotate(-3.5, resample=Image.BICUBIC, expand=True, fillcolor=(188, 150, 104))
    img.paste(tag, (120, 70))
    d = ImageDraw.Draw(img)
    for _ in range(2200):
        x, y = rnd.randrange(640), rnd.randrange(480)
        v = rnd.randrange(-35, 35)
        r, g, b = img.getpixel((x, y))
        d.point((x, y), fill=(max(0, min(255, r + v)), max(0, min(255, g + v)), max(0, min(255, b + v))))
    img.filter(ImageFilter.GaussianBlur(0.6)).save(path, format="JPEG", quality=72, optimize=True)


def eight_d(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"8D interim report - thermostat lot {F.product.thermostat_lot}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Shenfa Appliance Co. - Quality Department")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 770, f"8D interim report: WarmNest (customer SKU {F.product.sku}) overheating")
    c.setFont("Helvetica", 10.5)
    y = 740
    for line in [
        "Customer: Pebblecroft Home Ltd        Report date: 4 July 2025        CONFIDENTIAL - supplier/customer only",
        "",
        "D2 Problem: units overheat in use; water-bath temperature measured up to 85 C (specification 40 C).",
        f"D4 Root cause: thermostat lot {F.product.thermostat_lot} (Kessler KT-90) switches off 40-45 C too late;",
        "   incoming inspection sampled resistance only, not switching temperature.",
        "D3 Containment: lot quarantined at our plant; your goods-in has tagged the finished batches it went into.",
        "Hazard assessment: scalds / burns to the user or the infant from the bottle, the water or the casing.",
        "   No fire or electrical-shock risk (the thermal fuse and the insulation are unaffected).",
        "D5 Corrective action (planned): new thermostat lot, 100% switching test at end of line.",
        "",
        "Zhang Wei, Quality Manager, Shenfa Appliance Co.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


VOICEMAIL = (
    "Hello, this is Priya Lal, order number O R D seven seven one two. I'm calling about the WarmNest bottle "
    "warmer. Yesterday evening it got far too hot. The water was boiling hot and I scalded my hand taking the "
    "bottle out. It's a minor burn, I've put cream on it and I'm fine, and the baby wasn't hurt. The label "
    "underneath says batch B two five zero five. I've stopped using it. Please call me back. Thank you."
)


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "58", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/goods_in", "day1/supplier", "day2/voicemail"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    orders(HERE / "seed/orders.csv")
    quarantine_tag(HERE / "day1/goods_in" / f"quarantine_tag_{F.product.thermostat_lot}.jpg")
    eight_d(HERE / "day1/supplier" / f"Shenfa_8D_interim_{F.product.thermostat_lot}.pdf")
    voicemail(HERE / "day2/voicemail/customer_2025-07-07_1730.mp3")


if __name__ == "__main__":
    main()
