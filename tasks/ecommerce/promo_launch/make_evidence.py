"""Regenerate the promo-launch task's evidence and catalogue deterministically (outputs committed).

    python tasks/ecommerce/promo_launch/make_evidence.py

Authoring-time tools only: espeak-ng + ffmpeg (the commercial director's voice memo, 16 kHz mono
MP3, bit-exact flags), reportlab (legal's review memo), Pillow (the agency's two banners).

- seed/products.csv                        the catalogue (fixed seed; the special rows of facts.toml)
- day1/brief/greta_lowe_2025-09-22_0810.mp3  spoken brief: discounts per category, dates, exclusions
- day2/legal/Autumn_CookOff_terms_review.pdf  text PDF: legal's conditions (end time, gift cards)
- day3/creative/autumn_banner_v1.png       banner v1: a wrong discount claim and end date, only in pixels
- day4/creative/autumn_banner_v2.png       banner v2: corrected
"""

from __future__ import annotations

import csv
import random
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
P, C = F.promo, F.catalogue
FONTS = Path("/usr/share/fonts/truetype/dejavu")

KINDS = {
    "cookware": ("CW", 101, ["Frying pan 24 cm", "Frying pan 28 cm", "Saute pan", "Stock pot 6 L", "Saucepan set", "Wok 30 cm",
                             "Griddle pan", "Milk pan", "Casserole 4 L", "Skillet 26 cm", "Shallow casserole", "Steamer insert",
                             "Omelette pan", "Braiser 3 L"]),
    "bakeware": ("BW", 201, ["Loaf tin 2 lb", "Springform tin", "Muffin tray", "Baking sheet", "Roasting tin", "Pie dish",
                             "Cooling rack", "Bundt tin", "Brownie tin", "Sandwich tins (pair)"]),
    "utensils": ("UT", 301, ["Spatula set", "Balloon whisk", "Tongs", "Ladle", "Peeler", "Masher", "Grater", "Pastry brush"]),
    "tableware": ("TW", 401, ["Dinner plates (4)", "Pasta bowls (4)", "Mugs (4)", "Serving platter", "Salad bowl", "Side plates (4)",
                              "Jug 1 L", "Butter dish"]),
}  # fmt: skip
SPECIAL = {  # sku: (brand, cost ratio or fixed cost, clearance)
    "CW-103": ("Castiron Atelier", 0.45, "no"), "CW-109": ("Castiron Atelier", 0.42, "no"),
    "CW-107": ("Marlowe", 0.63, "no"),  # 20% off leaves 21.25% margin: below the floor
    "BW-205": ("Hearth & Oak", 0.66, "no"),  # 15% off leaves 22.4%: below the floor
    "BW-207": ("Marlowe", 0.40, "yes"),  # clearance
}  # fmt: skip


def products(path: Path) -> None:
    rnd = random.Random(C.seed)
    rows = []
    for cat, (prefix, first, names) in KINDS.items():
        for i, name in enumerate(names):
            sku = f"{prefix}-{first + i}"
            price = rnd.choice([18, 22, 24, 28, 32, 36, 42, 45, 48, 54, 58, 64, 72, 85, 95, 110, 129, 149])
            brand, ratio, clearance = SPECIAL.get(
                sku, (rnd.choice(["Marlowe", "Hearth & Oak", "Copperleaf"]), rnd.uniform(0.36, 0.54), "no")
            )
            if sku == C.cost_rise_sku:
                price, brand, cost = 64, "Marlowe", C.cost_rise_from
            else:
                cost = f"{price * ratio:.2f}"
            rows.append([sku, name, brand, cat, f"{price:.2f}", cost, clearance])
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["SKU", "Product", "Brand", "Category", "Price", "Unit Cost", "Clearance"])
        w.writerows(rows)


MEMO = (
    "Hi Ada, Greta here, Monday morning, the Autumn Cook-Off. Here's what we agreed with the board. "
    "Twenty percent off all cookware, and fifteen percent off all bakeware. Nothing else is in the promotion. "
    "It runs from Friday the twenty sixth of September to Sunday the fifth of October. Exclude the Castiron "
    "Atelier brand completely, they won't fund it, and exclude anything that's already on clearance. And as "
    "always, the margin floor in the playbook applies. Thanks!"
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "m.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "50", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def terms_review(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Autumn Cook-Off - terms review")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Marlowe Kitchen Co. - Legal")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 770, "Review of the Autumn Cook-Off promotion rules (22 September draft)")
    c.setFont("Helvetica", 10.5)
    y = 740
    for line in [
        "Reviewer: Leo Farrant, Legal Counsel        Date: 23 September 2025",
        "",
        "Outcome: APPROVED subject to the conditions below, to be applied to both rules before launch.",
        "",
        "1. Exclusions: add gift cards (they are not goods; discounting them breaches our issuing terms).",
        "2. The end is 23:59 on Sunday 5 October 2025 (UK time); state it in that form on every creative.",
        "3. A discount claim on a banner must be the exact rate for the category; no 'up to' wording.",
        "4. Status of both rules: legal-approved once conditions 1-2 are in the rules.",
        "",
        "No other changes.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def banner(path: Path, claim: str, end: str, seed: int) -> None:
    rnd = random.Random(seed)
    img = Image.new("RGB", (728, 240), (120, 58, 30))
    d = ImageDraw.Draw(img)
    for _ in range(40):  # autumn leaves
        x, y, r = rnd.randrange(728), rnd.randrange(240), rnd.randrange(6, 16)
        d.ellipse((x, y, x + r, y + r // 2), fill=rnd.choice([(200, 110, 40), (170, 70, 30), (220, 160, 60)]))
    d.rectangle((20, 20, 708, 220), outline=(250, 230, 200), width=3)
    d.text(
        (44, 36),
        "MARLOWE KITCHEN - AUTUMN COOK-OFF",
        font=ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 24),
        fill=(250, 240, 220),
    )
    d.text((44, 90), claim, font=ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 30), fill=(255, 255, 255))
    d.text((44, 150), end, font=ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 22), fill=(250, 230, 200))
    d.text((500, 190), "T&Cs apply", font=ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 14), fill=(250, 230, 200))
    img.save(path, format="PNG", optimize=True)


def main() -> None:
    for sub in ("day1/brief", "day2/legal", "day3/creative", "day4/creative"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    products(HERE / "seed/products.csv")
    memo(HERE / "day1/brief/greta_lowe_2025-09-22_0810.mp3")
    terms_review(HERE / "day2/legal/Autumn_CookOff_terms_review.pdf")
    banner(HERE / "day3/creative/autumn_banner_v1.png", F.banner.v1_claim, F.banner.v1_end, 1)
    banner(HERE / "day4/creative/autumn_banner_v2.png", F.banner.v2_claim, F.banner.v2_end, 2)


if __name__ == "__main__":
    main()
