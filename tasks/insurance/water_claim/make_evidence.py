"""Regenerate the water-damage claim task's evidence deterministically (the outputs are committed).

    python tasks/insurance/water_claim/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the photos and the video frames), ffmpeg (libx264, one thread, bit-exact flags).

- day1/uploads/IMG_2041.jpg, IMG_2043.jpg, IMG_2047.jpg  the policyholder's photos (kitchen floor with
  the contractor's tape marks 3.20 m x 4.50 m, the split pipe, the stained basement carpet)
- day1/uploads/VID_2049.mp4  a 5 s basement walkthrough; for one second it shows the washing machine's
  rating plate (manufactured 01/2014 — the claimant says "bought 2023")
- day1/policy/HO-558213_policy_schedule.pdf  text PDF: limits, deductibles, settlement basis
- day2/DryFast_invoice_DF-3317.pdf  text PDF: emergency drying invoice
- day3/Site_inspection_report_CLM-2025-0412.pdf  text PDF: the inspector's findings
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
CLAIM, POLICY = F.claim.number, F.claim.policy
WIDTH, LENGTH = F.evidence.floor_marked  # the taped area on the kitchen floor, metres
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono-Bold.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def stamp(img: Image.Image, text: str) -> None:
    """The camera's orange date stamp in the bottom-right corner."""
    d = ImageDraw.Draw(img)
    f = font(max(16, img.width // 34), mono=True)
    w = d.textlength(text, font=f)
    d.text((img.width - w - 18, img.height - f.size - 16), text, font=f, fill=(255, 150, 40))


def grain(img: Image.Image, seed: int, amount: int = 2500) -> Image.Image:
    rnd = random.Random(seed)
    d = ImageDraw.Draw(img)
    for _ in range(amount):
        x, y = rnd.randrange(img.width), rnd.randrange(img.height)
        v = rnd.randrange(-28, 28)
        r, g, b = img.getpixel((x, y))
        d.point((x, y), fill=(max(0, min(255, r + v)), max(0, min(255, g + v)), max(0, min(255, b + v))))
    return img.filter(ImageFilter.GaussianBlur(0.7))


def save_jpeg(img: Image.Image, path: Path) -> None:
    img.save(path, format="JPEG", quality=70, optimize=True)


# -- photos ------------------------------------------------------------------------------------
def kitchen_floor(path: Path) -> None:
    img = Image.new("RGB", (900, 675), (182, 146, 104))
    d = ImageDraw.Draw(img)
    # kitchen base units along the top
    d.rectangle((0, 0, 900, 150), fill=(236, 232, 224))
    for x in range(0, 900, 180):
        d.rectangle((x + 6, 10, x + 174, 140), outline=(170, 170, 165), width=3)
        d.rectangle((x + 80, 60, x + 100, 66), fill=(120, 120, 120))
    d.rectangle((0, 140, 900, 156), fill=(60, 60, 60))
    # laminate planks
    rnd = random.Random(41)
    for y in range(156, 675, 46):
        off = rnd.randrange(0, 240)
        d.line((0, y, 900, y), fill=(140, 108, 72), width=2)
        for x in range(-off, 900, 260):
            d.line((x, y, x, y + 46), fill=(140, 108, 72), width=2)
    # water-darkened, buckled area outlined with blue tape by the drying contractor
    d.polygon([(120, 210), (640, 200), (700, 560), (150, 600)], fill=(118, 88, 58))
    for k in range(6):
        d.line((160 + k * 85, 230, 175 + k * 85, 570), fill=(95, 70, 45), width=3)
    box = (100, 190, 720, 610)
    d.rectangle(box, outline=(40, 90, 200), width=9)
    # marker notes on the tape + a yellow tape measure along the top edge
    d.rectangle((300, 160, 520, 186), fill=(250, 250, 245))
    d.text((318, 160), f"{WIDTH} m", font=font(22, bold=True), fill=(20, 20, 20))
    side = Image.new("RGBA", (220, 30), (250, 250, 245, 255))
    ImageDraw.Draw(side).text((40, 1), f"{LENGTH} m", font=font(22, bold=True), fill=(20, 20, 20))
    img.paste(side.rotate(90, expand=True), (728, 290))
    d.rectangle((100, 616, 720, 640), fill=(245, 205, 40))
    for i, x in enumerate(range(100, 721, 31)):
        d.line((x, 616, x, 628 if i % 5 else 634), fill=(30, 30, 30), width=2)
    d.text((20, 620), "", font=font(14))
    img = grain(img, 2041)
    stamp(img, "2025-03-08 08:05")
    save_jpeg(img, path)


def split_pipe(path: Path) -> None:
    img = Image.new("RGB", (900, 675), (70, 64, 58))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 900, 90), fill=(200, 196, 188))  # underside of the sink
    d.rectangle((0, 560, 900, 675), fill=(110, 100, 92))  # cabinet floor, wet
    d.ellipse((180, 585, 760, 660), fill=(92, 96, 104))
    # copper supply pipe with a split
    d.line((120, 140, 120, 420), fill=(184, 115, 51), width=34)
    d.line((120, 420, 760, 420), fill=(184, 115, 51), width=34)
    d.line((760, 420, 760, 560), fill=(184, 115, 51), width=34)
    d.polygon([(380, 405), (455, 398), (470, 412), (445, 436), (385, 440), (372, 424)], fill=(25, 18, 12))
    d.line((385, 421, 462, 414), fill=(230, 230, 230), width=2)
    for k in range(9):  # drips
        d.ellipse((400 + k * 7, 450 + k * 12, 410 + k * 7, 462 + k * 12), fill=(150, 170, 190))
    d.rectangle((560, 140, 700, 260), fill=(230, 60, 50))  # the isolation valve tag
    d.text((575, 180), "STOP", font=font(34, bold=True), fill=(255, 255, 255))
    img = grain(img, 2043)
    stamp(img, "2025-03-08 07:58")
    save_jpeg(img, path)


def basement_carpet(path: Path) -> None:
    img = Image.new("RGB", (900, 675), (104, 112, 128))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 900, 230), fill=(196, 192, 180))  # foundation wall
    d.rectangle((0, 215, 900, 236), fill=(240, 238, 230))  # skirting
    for y in range(60, 215, 38):
        d.line((0, y, 900, y), fill=(176, 172, 160), width=2)
    # old tide marks: concentric brown rings spreading from the wall
    for k, shade in enumerate([(120, 96, 70), (132, 110, 84), (112, 92, 70), (126, 104, 80)]):
        d.ellipse((140 - k * 40, 200 - k * 30, 700 + k * 60, 420 + k * 50), outline=shade, width=7)
    d.ellipse((260, 236, 560, 340), fill=(86, 80, 80))
    d.rectangle((0, 0, 60, 230), fill=(150, 150, 140))  # the wall's damp patch
    img = grain(img, 2047, 4000)
    stamp(img, "2025-03-08 09:20")
    save_jpeg(img, path)


# -- video -------------------------------------------------------------------------------------
W, H, FPS = 640, 360, 10


def basement_scene(shift: int) -> Image.Image:
    """A wide strip of the basement; the camera pans across it."""
    strip = Image.new("RGB", (1600, H), (188, 184, 172))
    d = ImageDraw.Draw(strip)
    d.rectangle((0, 230, 1600, H), fill=(96, 104, 118))  # wet floor / carpet
    for x in range(0, 1600, 80):
        d.line((x, 230, x - 40, H), fill=(120, 128, 140), width=2)
    d.rectangle((380, 90, 560, 300), fill=(244, 244, 246), outline=(150, 150, 150), width=3)  # washing machine
    d.ellipse((420, 150, 520, 250), fill=(80, 90, 110), outline=(200, 200, 200), width=6)
    d.rectangle((390, 100, 550, 128), fill=(220, 220, 224))
    d.line((900, 40, 900, 230), fill=(184, 115, 51), width=14)  # pipe run
    for k in range(4):
        d.ellipse((1100 + k * 70, 250 + k * 12, 1260 + k * 90, 320 + k * 10), outline=(122, 100, 78), width=5)
    return strip.crop((shift, 0, shift + W, H))


def rating_plate(jitter: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (236, 236, 238))
    d = ImageDraw.Draw(img)
    x0, y0 = 70 + jitter, 40 + jitter // 2
    d.rounded_rectangle((x0, y0, x0 + 500, y0 + 280), radius=14, fill=(205, 208, 212), outline=(120, 120, 125), width=4)
    d.text((x0 + 24, y0 + 16), "BOSCH", font=font(40, bold=True), fill=(180, 20, 30))
    lines = [
        "Type  WAW28590",
        "E-Nr  WAW28590GB/04",
        f"FD 9401        Mfd. {F.evidence.washer_made}",
        "230 V ~ 50 Hz   2300 W   10 A",
        "Made in Germany    IPX4",
    ]
    for i, line in enumerate(lines):
        d.text((x0 + 26, y0 + 80 + i * 38), line, font=font(25, mono=True), fill=(25, 25, 30))
    return img


def rec_overlay(img: Image.Image, second: int) -> Image.Image:
    d = ImageDraw.Draw(img)
    d.ellipse((14, 14, 30, 30), fill=(220, 30, 30))
    d.text((38, 10), f"REC  08/03/2025 09:14:{10 + second:02d}", font=font(18, mono=True), fill=(255, 255, 255))
    return img


def walkthrough(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        frames = []
        for i in range(5 * FPS):
            if i < 2 * FPS:
                img = basement_scene(i * 14)
            elif i < 3 * FPS:
                img = rating_plate((i % 3) * 2)
            else:
                img = basement_scene(560 + (i - 3 * FPS) * 20)
            img = rec_overlay(img, i // FPS)
            name = Path(tmp) / f"f{i:03d}.png"
            img.save(name)
            frames.append(name)
        subprocess.run(
            [
                "ffmpeg",
                "-y",
                "-loglevel",
                "error",
                "-framerate",
                str(FPS),
                "-i",
                str(Path(tmp) / "f%03d.png"),
                "-c:v",
                "libx264",
                "-preset",
                "medium",
                "-crf",
                "26",
                "-pix_fmt",
                "yuv420p",
                "-threads",
                "1",
                "-fflags",
                "+bitexact",
                "-flags:v",
                "+bitexact",
                "-map_metadata",
                "-1",
                str(path),
            ],
            check=True,
        )


# -- text PDFs ---------------------------------------------------------------------------------
def _lines(c: canvas.Canvas, y: float, lines: list[str], size: float = 10.5, x: float = 60, step: float = 15) -> float:
    c.setFont("Helvetica", size)
    for line in lines:
        if line.startswith("## "):
            y -= 6
            c.setFont("Helvetica-Bold", size + 1)
            c.drawString(x, y, line[3:])
            c.setFont("Helvetica", size)
        else:
            c.drawString(x, y, line)
        y -= step
    return y


def policy(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Meridian Mutual HomeShield policy schedule {POLICY}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Meridian Mutual Insurance - HomeShield Home Policy")
    _lines(
        c,
        765,
        [
            "## Policy schedule",
            f"Policy number: {POLICY}            Policyholder: Daniel Brooks",
            "Insured address: 14 Alder Lane, Kingsbridge KB3 9RT",
            "Period of insurance: 01/05/2024 to 30/04/2025 (both days inclusive)",
            "",
            "## Sums insured",
            "Section A - Buildings: EUR 350,000          Section B - Contents: EUR 60,000",
            "",
            "## Deductibles (the first part of each claim you pay)",
            "Standard deductible, each and every claim: EUR 250",
            f"Escape of water (Section A3 / B3), each and every claim: EUR {Decimal(F.policy.deductible):,.0f} (replaces the standard deductible)",
            "Subsidence: EUR 1,000",
            "",
            "## A3 / B3 Escape of water - what is covered",
            "Loss or damage caused by water suddenly and accidentally escaping from a fixed water or heating",
            "installation, washing machine, dishwasher or water tank, including the reasonable cost of emergency",
            "measures (water extraction and drying) taken to prevent further damage.",
            "",
            "## A3 / B3 Escape of water - what is not covered",
            "a) damage caused by continuous or repeated seepage or leakage of water over a period of 14 days or more;",
            "b) the cost of repairing the installation or appliance from which the water escaped;",
            "c) damage while the home is unoccupied for more than 60 consecutive days.",
        ],
    )
    c.showPage()
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 790, "HomeShield policy wording - extract")
    _lines(
        c,
        765,
        [
            "## 7. Basis of claims settlement",
            "7.1 Buildings: we pay the cost of repair or replacement to the same standard (new for old) at the",
            "    insurer's current unit costs, for the area actually damaged.",
            "7.2 Contents: we pay the cost of replacing as new, less a deduction for wear and tear for:",
            f"    domestic appliances, electronics and computers: {Decimal(F.policy.wear_per_year) * 100:.0f}% of the replacement cost for each full year",
            f"    since manufacture, up to a maximum deduction of {Decimal(F.policy.wear_max) * 100:.0f}%;",
            "    loose carpets and rugs (contents): 5% per full year since purchase, up to a maximum of 50%.",
            "    The age of an appliance is taken from its manufacturer's rating plate where available.",
            "7.3 Emergency measures: reasonable, necessary costs as invoiced.",
            "7.4 The deductible shown in the schedule is taken off the total of each claim.",
            "",
            "## 8. Claims conditions",
            "8.1 Tell us as soon as possible; give us the evidence we reasonably ask for.",
            "8.2 We may appoint an inspector or loss adjuster to visit the property before we decide a claim.",
        ],
    )
    c.save()


def dryfast_invoice(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("DryFast Restoration invoice DF-3317")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "DryFast Restoration Ltd")
    y = _lines(
        c,
        765,
        [
            "Unit 4, Quay Road Trading Estate, Kingsbridge  -  VAT included",
            "",
            "INVOICE DF-3317                                  Date: 10/03/2025",
            f"Customer: Daniel Brooks, 14 Alder Lane, Kingsbridge   (insurer claim ref {CLAIM})",
            "",
            "Emergency call-out, water extraction (kitchen, basement), 08/03/2025      EUR   375.00",
            "Dehumidifier and air-mover hire, 5 days x EUR 175.00                       EUR   875.00",
            "Moisture mapping and drying certificate                                    EUR   200.00",
            "",
        ],
    )
    c.setFont("Helvetica-Bold", 12)
    c.drawString(
        60,
        y - 6,
        f"TOTAL DUE                                                       EUR {Decimal(F.evidence.drying_total):,}",
    )
    c.setFont("Helvetica", 9)
    c.drawString(60, 80, "Payment within 14 days. We are happy to invoice your insurer directly.")
    c.save()


def inspection_report(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Site inspection report {CLAIM}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Meridian Mutual - Field Inspection Report")
    _lines(
        c,
        765,
        [
            f"Claim: {CLAIM}      Policy: {POLICY}      Insured: Daniel Brooks",
            "Visit: 12/03/2025 10:00-11:40, 14 Alder Lane      Inspector: Tom Reyes",
            "",
            "## Cause of loss",
            "A 15 mm copper cold supply pipe in the kitchen sink unit split after freezing during the cold night",
            "of 7-8 March (outside wall, uninsulated run). Sudden and accidental escape of water. The insured",
            "shut the stopcock at about 07:50 on 08/03. Pipe since repaired by the insured's plumber (not covered).",
            "",
            "## Findings by item",
            f"Kitchen laminate flooring: damaged area as marked by DryFast, {WIDTH} m x {LENGTH} m; the rest of the",
            "  kitchen floor is dry and sound (moisture readings < 12%). Replace the marked area only.",
            "Kitchen base cabinets: two units under and beside the sink swollen at the base; replace both.",
            "Washing machine (basement): water entered the control module; beyond economic repair.",
            "Basement carpet: dark tide marks in several rings, rotted underlay and rust staining on the",
            "  gripper strips along the foundation wall. Moisture reading of the wall 38% at skirting height.",
            "  This is long-standing seepage through the foundation wall over months, not water from the",
            "  kitchen burst, which did not reach this side of the basement. Not related to this loss.",
            "Emergency drying (DryFast): reasonable and necessary; equipment on site 5 days, confirmed.",
            "",
            "## Recommendation",
            "Cover confirmed under A3/B3 for the kitchen flooring, cabinets, washing machine and drying.",
            "Basement carpet: exclusion A3/B3 (a) applies - continuous or repeated seepage over 14 days or more.",
        ],
        size=10,
    )
    c.save()


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
    (HERE / "day1/uploads").mkdir(parents=True)
    (HERE / "day1/policy").mkdir(parents=True)
    (HERE / "day2").mkdir()
    (HERE / "day3").mkdir()
    kitchen_floor(HERE / "day1/uploads/IMG_2041.jpg")
    split_pipe(HERE / "day1/uploads/IMG_2043.jpg")
    basement_carpet(HERE / "day1/uploads/IMG_2047.jpg")
    walkthrough(HERE / "day1/uploads/VID_2049.mp4")
    policy(HERE / "day1/policy/HO-558213_policy_schedule.pdf")
    dryfast_invoice(HERE / "day2/DryFast_invoice_DF-3317.pdf")
    inspection_report(HERE / "day3/Site_inspection_report_CLM-2025-0412.pdf")


if __name__ == "__main__":
    main()
