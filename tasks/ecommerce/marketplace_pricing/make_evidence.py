"""Regenerate the marketplace-pricing task's evidence deterministically (the outputs are committed).

    python tasks/ecommerce/marketplace_pricing/make_evidence.py

Authoring-time tools only: Pillow (the listing screenshots), espeak-ng + ffmpeg (the voice note,
16 kHz mono MP3, bit-exact flags), reportlab (the reseller agreement schedule).

- day1/screens/*.png                 three marketplace listing screenshots flagged by the price monitor:
  the advertised prices are only in the pixels (the monitor's text capture failed)
- day1/policy/Schedule3_MAP_enforcement.pdf  text PDF: the enforcement ladder (warning, 90-day window,
  escalation, suspension only with the head of channel sales' approval)
- day2/voice/hannah_cole_2025-06-10_0815.mp3  Hannah's approval: the suspension dates are only spoken
- day3/competitor_prices_2025-06-11.csv  the competitor price feed Jo mails on day 3
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def listing(path: Path, shop: str, colour: tuple[int, int, int], title: str, sku: str, price: str, extra: str) -> None:
    """A browser screenshot of a marketplace listing: shop bar, product tile, price, seller box."""
    img = Image.new("RGB", (560, 380), (250, 250, 250))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 560, 26), fill=(222, 224, 228))
    d.rounded_rectangle((70, 5, 480, 21), radius=6, fill=(255, 255, 255))
    d.text(
        (80, 7),
        f"https://www.{shop.lower().replace(' ', '')}.example/p/{sku.lower()}",
        font=font(10),
        fill=(90, 90, 90),
    )
    d.rectangle((0, 26, 560, 64), fill=colour)
    d.text((16, 34), shop, font=font(20, bold=True), fill=(255, 255, 255))
    d.rectangle((16, 80, 206, 270), fill=(232, 234, 238), outline=(200, 200, 200))
    d.ellipse((56, 120, 166, 230), outline=(60, 60, 60), width=8)
    d.text((226, 82), "Coldharbour Audio", font=font(13), fill=(90, 90, 90))
    d.text((226, 102), title, font=font(15, bold=True), fill=(20, 20, 20))
    d.text((226, 128), f"Model: {sku}", font=font(12), fill=(70, 70, 70))
    d.text((226, 160), f"\u00a3{price}", font=font(32, bold=True), fill=(180, 20, 30))
    d.text((226, 204), extra, font=font(12), fill=(30, 120, 40))
    d.rounded_rectangle((226, 232, 400, 266), radius=8, fill=(250, 190, 40))
    d.text((262, 240), "Add to basket", font=font(14, bold=True), fill=(20, 20, 20))
    d.text(
        (16, 300), "Sold and dispatched by " + shop + "  |  4.6 stars (1,204 ratings)", font=font(12), fill=(60, 60, 60)
    )
    d.text((16, 350), "Captured 09/06/2025 06:12 by PriceWatch", font=font(10), fill=(140, 140, 140))
    img.save(path, format="PNG", optimize=True)


def screenshots(folder: Path) -> None:
    a, c, b = F.violation_a, F.compliant, F.violation_b
    listing(
        folder / a.screenshot, a.reseller, (20, 90, 160), a.product, a.sku, a.advertised, "Summer deal - free delivery"
    )
    listing(folder / c.screenshot, c.reseller, (200, 70, 20), "S210 Bookshelf Speakers (Walnut, pair)", c.sku, c.advertised,
            "In stock - delivered Wednesday")  # fmt: skip
    listing(
        folder / b.screenshot, b.reseller, (40, 130, 90), b.product, b.sku, b.advertised, "Price drop! Was \u00a354.99"
    )


def schedule(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Reseller Agreement - Schedule 3 - MAP enforcement")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Coldharbour Audio Ltd - Authorised Reseller Agreement")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 770, "Schedule 3: Minimum Advertised Price (MAP) enforcement")
    c.setFont("Helvetica", 10.5)
    y = 740
    for line in [
        "3.1 A violation is any advertisement of a Coldharbour product below its MAP in the current Price Book.",
        "    Advertising at exactly the MAP is compliant.",
        "3.2 First violation within any rolling 90-day window: written warning naming the product, the",
        "    advertised price and the MAP; the reseller must correct the listing within 48 hours.",
        "3.3 Second violation within 90 days of the last warning: the case is escalated to the Head of",
        "    Channel Sales. Supply may be suspended only with her written or recorded approval, which",
        "    sets the suspension period. Until then no suspension is applied or announced.",
        "3.4 A suspension notice states the product, the advertised price, the MAP and the suspension",
        "    period (first and last day), with the Head of Channel Sales in copy.",
        "3.5 Warnings older than 90 days do not count towards escalation.",
        "3.6 Enforcement correspondence is between Coldharbour and the reseller concerned only: it never",
        "    names other resellers, their prices or cases, nor Coldharbour's costs or price floors.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


VOICE = (
    "Hi Rafael, it's Hannah, Tuesday morning. About Nimbus Electricals and the earbuds: yes, I approve the "
    "suspension. Suspend their supply for thirty days, starting Monday the sixteenth of June, so the last day "
    "is Tuesday the fifteenth of July. Send them the notice today and copy me in. Thanks."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "v.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "60", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def feed(path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["captured", "sku", "competitor", "price_gbp", "in_stock"])
        for sku, who, price in F.repricing.feed:
            w.writerow(["2025-06-11 05:00", sku, who, price, "yes"])


def main() -> None:
    for sub in ("day1/screens", "day1/policy", "day2/voice", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    screenshots(HERE / "day1/screens")
    schedule(HERE / "day1/policy/Schedule3_MAP_enforcement.pdf")
    voice_note(HERE / "day2/voice/hannah_cole_2025-06-10_0815.mp3")
    feed(HERE / "day3/competitor_prices_2025-06-11.csv")


if __name__ == "__main__":
    main()
