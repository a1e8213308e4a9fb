"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/real_estate/lease_renewal/make_evidence.py

Needs Pillow (authoring time only; running the benchmark does not).

- ``day1/floorplan_level3.png``: the level-3 floor plan; the only place that gives unit 3.04's
  net lettable area (132 m²) — the draft lease wrongly says 148 m², which is unit 3.02's.
- ``day1/lease_draft_unit_3.04.pdf``: a scanned (image-only) lease page signed by the tenant only:
  rent EUR 24.50 per m² per month, 5 years from 1 May 2025, deposit three months' rent.
- ``day2/bank_receipts_2025-04-14.csv``: finance's export of incoming payments (the deposit).
- ``day3/lease_executed_unit_3.04.pdf``: the countersigned execution page (scan): area corrected to
  132 m², commencement struck through and changed by hand to 12 May 2025.
"""

from __future__ import annotations

import csv
import random
import time
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
U = F.unit
SCANNED = time.strptime("2025-04-11 16:30", "%Y-%m-%d %H:%M")  # fixed PDF dates (Pillow wants struct_time)
FONTS = Path("/usr/share/fonts/truetype/dejavu")
SANS = str(FONTS / "DejaVuSans.ttf")
SANS_BOLD = str(FONTS / "DejaVuSans-Bold.ttf")
SERIF = str(FONTS / "DejaVuSerif.ttf")
SERIF_BOLD = str(FONTS / "DejaVuSerif-Bold.ttf")
HAND = str(FONTS / "DejaVuSans-Oblique.ttf")

UNITS = [  # unit, area m², box on the plan (x0, y0, x1, y1)
    ("3.01", 118, (40, 60, 260, 300)),
    ("3.02", U.area_in_draft_lease, (260, 60, 540, 300)),  # the area the draft lease wrongly gives 3.04
    ("3.03", 96, (540, 60, 720, 300)),
    (U.id, U.area, (40, 380, 290, 620)),
    ("3.05", 104, (290, 380, 490, 620)),
    ("3.06", 160, (490, 380, 860, 620)),
]


def floorplan(path: Path) -> None:
    img = Image.new("RGB", (900, 700), (255, 255, 255))
    d = ImageDraw.Draw(img)
    title, label, small = (
        ImageFont.truetype(SANS_BOLD, 20),
        ImageFont.truetype(SANS_BOLD, 22),
        ImageFont.truetype(SANS, 15),
    )
    d.text((40, 18), "HARBOURSIDE COMMONS - LEVEL 3 - NET LETTABLE AREAS", fill=(20, 20, 20), font=title)
    d.rectangle([40, 60, 860, 620], outline=(0, 0, 0), width=5)
    d.rectangle([720, 60, 860, 300], fill=(225, 225, 225), outline=(0, 0, 0), width=3)  # core
    d.text((748, 160), "CORE / WC", fill=(70, 70, 70), font=small)
    d.rectangle([40, 300, 860, 380], fill=(240, 240, 240), outline=(0, 0, 0), width=3)  # corridor
    d.text((380, 330), "CORRIDOR", fill=(90, 90, 90), font=small)
    for unit, area, (x0, y0, x1, y1) in UNITS:
        d.rectangle([x0, y0, x1, y1], outline=(0, 0, 0), width=3)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        d.text((cx - 30, cy - 26), unit, fill=(0, 0, 0), font=label)
        d.text((cx - 34, cy + 6), f"{area} m²", fill=(40, 40, 40), font=small)
        door = (x0 + 30, y1 - 2, x0 + 70, y1 + 2) if y0 < 300 else (x0 + 30, y0 - 2, x0 + 70, y0 + 2)
        d.rectangle(door, fill=(255, 255, 255))
    d.text(
        (40, 640),
        "Areas: net lettable area (NLA) per gif/MF-G, surveyed 2024-11. Scale 1:200.",
        fill=(60, 60, 60),
        font=small,
    )
    d.line([(760, 660), (860, 660)], fill=(0, 0, 0), width=3)
    d.text((780, 668), "10 m", fill=(0, 0, 0), font=small)
    img.save(path, format="PNG", optimize=True)


Line = tuple[int, int, str, str, int]


def _page(lines: list[Line], seed: int, angle: float) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    page = Image.new("L", (800, 1130), 250)
    d = ImageDraw.Draw(page)
    for x, y, text, font, size in lines:
        d.text((x, y), text, fill=25, font=ImageFont.truetype(font, size))
    return page, d


def _scanned(page: Image.Image, seed: int, angle: float) -> Image.Image:
    rng = random.Random(seed)
    px = page.load()
    for _ in range(2200):
        px[rng.randrange(800), rng.randrange(1130)] = rng.randrange(90, 200)
    page = page.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=232)
    return page.filter(ImageFilter.GaussianBlur(0.6))


def _terms(area: str) -> list[Line]:
    return [
        (60, 50, "LEASE OF COMMERCIAL PREMISES", SERIF_BOLD, 26),
        (60, 92, "Harbourside Commons, Kaiufer 8, 20457 Hamburg", SERIF, 16),
        (60, 150, "Landlord:  Harbourside Commons Property GmbH,", SERIF, 15),
        (60, 172, "managed by Kestrel Property Partners", SERIF, 15),
        (60, 200, "Tenant:  Larkspur Studio Ltd", SERIF, 15),
        (60, 250, "1.  Premises:  Unit 3.04, Level 3, approx.", SERIF, 15),
        (415, 250, area, SERIF, 15),
        (60, 272, "     net lettable area (plan in Schedule 1).", SERIF, 15),
        (60, 305, "2.  Term:  five (5) years commencing on", SERIF, 15),
        (60, 340, f"3.  Rent:  EUR {U.rate:.2f} per m² NLA per month, exclusive of", SERIF, 15),
        (60, 362, "     service charge and VAT, payable monthly in advance.", SERIF, 15),
        (60, 395, "4.  Service charge:  per m² NLA per month at the rate set in", SERIF, 15),
        (60, 417, "     the Landlord's current building budget.", SERIF, 15),
        (60, 450, "5.  Deposit:  three (3) months' rent, payable before the", SERIF, 15),
        (60, 472, "     Landlord countersigns; held for the term of the lease.", SERIF, 15),
    ]


def lease_draft() -> Image.Image:
    lines = _terms(f"{U.area_in_draft_lease} m²") + [
        (410, 305, "1 May 2025.", SERIF, 15),
        (60, 600, "Signed for the Tenant", SERIF_BOLD, 15),
        (60, 680, "A. Lark, Director      Date: 11 April 2025", SERIF, 15),
        (60, 760, "Signed for the Landlord", SERIF_BOLD, 15),
        (60, 840, "______________________      Date: ____________", SERIF, 15),
        (60, 1040, "DRAFT FOR SIGNATURE - PAGE 1 OF 6", SERIF, 12),
    ]
    page, d = _page(lines, 3, 0.6)
    d.line([(70, 660), (110, 636), (150, 662), (200, 640), (240, 655)], fill=35, width=2)
    return _scanned(page, 3, 0.6)


def lease_executed() -> Image.Image:
    lines = _terms(f"{U.area} m²") + [
        (410, 305, "1 May 2025.", SERIF, 15),
        (60, 520, "Amended by hand before signature; both parties have initialled.", SERIF, 13),
        (60, 600, "Signed for the Tenant", SERIF_BOLD, 15),
        (60, 680, "A. Lark, Director      Date: 15 April 2025", SERIF, 15),
        (60, 760, "Signed for the Landlord", SERIF_BOLD, 15),
        (60, 840, "C. Fischer, Asset Manager      Date: 15 April 2025", SERIF, 15),
        (60, 1040, "EXECUTION COPY - PAGE 1 OF 6", SERIF, 12),
    ]
    page, d = _page(lines, 4, -0.4)
    d.line([(405, 315), (505, 313)], fill=20, width=3)  # "1 May 2025" struck through
    start = date.fromisoformat(U.lease_start)
    d.text((520, 296), f"{start.day} {start:%B %Y}", fill=30, font=ImageFont.truetype(HAND, 20))
    d.text((672, 302), "AL / CF", fill=60, font=ImageFont.truetype(HAND, 13))
    d.line([(70, 660), (110, 636), (150, 662), (200, 640), (240, 655)], fill=35, width=2)
    d.line([(70, 820), (100, 800), (130, 826), (175, 806), (215, 818)], fill=35, width=2)
    return _scanned(page, 4, -0.4)


def scan_pdf(pages: list[Image.Image], path: Path) -> None:
    """Wrap page images (JPEG q70) in a PDF with no text layer and no font resource, with fixed
    document dates so a re-run gives the same bytes (reportlab would add a default font object)."""
    pages[0].save(
        path,
        "PDF",
        save_all=True,
        append_images=pages[1:],
        resolution=96.0,
        quality=70,
        title=path.stem,
        creationDate=SCANNED,
        modDate=SCANNED,
    )


def bank_csv(path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["value_date", "counterparty", "reference", "amount_eur"])
        w.writerow(["2025-04-14", "NORDVIK LEGAL PARTNERS", "RENT APR UNIT 2.01", "4120.00"])
        w.writerow([U.deposit_received, "LARKSPUR STUDIO LTD", f"DEPOSIT UNIT {U.id} HARBOURSIDE", f"{U.deposit:.2f}"])
        w.writerow(["2025-04-14", "BLUEFIN DESIGN GMBH", "RENT APR UNIT 3.04", "3010.00"])


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        (HERE / sub).mkdir(parents=True, exist_ok=True)
    floorplan(HERE / "day1" / "floorplan_level3.png")
    scan_pdf([lease_draft()], HERE / "day1" / "lease_draft_unit_3.04.pdf")
    bank_csv(HERE / "day2" / "bank_receipts_2025-04-14.csv")
    scan_pdf([lease_executed()], HERE / "day3" / "lease_executed_unit_3.04.pdf")


if __name__ == "__main__":
    main()
