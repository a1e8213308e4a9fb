"""Regenerate the vendor-redline task's evidence deterministically (the outputs are committed).

    python tasks/legal/vendor_redline/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the text PDF and
the wrapper of the scanned page), Pillow (the scan is a grey raster with handwriting and no text
layer), openpyxl (the playbook; the zip is re-packed with fixed timestamps so the bytes are stable).

- day1/Corvid_MSA_v2_vendor_draft.pdf          text PDF: the vendor's draft v2 (the clauses under review)
- day1/playbook/Halcyon_vendor_playbook_2025.xlsx  xlsx: preferred / fallback / escalate positions
- day4/Corvid_MSA_Amendment1_signed_scan.pdf   image-only PDF: Amendment No. 1 as signed by the vendor,
  with a handwritten, initialled change to clause 9.3 and the vendor's signature block
"""

from __future__ import annotations

import io
import random
import re
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
CAP = F.fee.renegotiated  # what our v3 proposed: 9.1 = the current annual fee, 9.3 = three times it
SUPER_CAP = 3 * CAP
FONTS = Path("/usr/share/fonts/truetype/dejavu")

CLAUSES = [
    (
        "1. Definitions",
        [
            '"Customer Data" means all data, including Personal Data, that Customer or its users submit to the Service.',
            '"Fees" means the subscription fees set out in the Order Form.',
        ],
    ),
    (
        "2. Services",
        [
            '2.1 Corvid provides the Corvid Insight analytics platform (the "Service") as described in Schedule 1.',
            "2.2 Corvid shall meet the service levels in Schedule 2 (99.5% monthly availability).",
        ],
    ),
    (
        "3. Term and renewal",
        [
            "3.1 This Agreement starts on the Effective Date and runs for an initial term of thirty-six (36) months.",
            "3.2 Thereafter it automatically renews for successive renewal periods of twelve (12) months unless",
            "    either party gives the other at least sixty (60) days' written notice before the end of the",
            "    then-current term.",
        ],
    ),
    (
        "4. Fees and payment",
        [
            "4.1 Customer shall pay the annual Fees stated in the Order Form, invoiced annually in advance.",
            "4.2 Invoices are payable within forty-five (45) days of receipt of a correct invoice.",
            "4.3 Corvid may increase the Fees once per contract year, by no more than four percent (4%), on",
            "    ninety (90) days' written notice.",
        ],
    ),
    (
        "5. Data protection",
        [
            "5.1 Corvid processes Personal Data only on Customer's documented instructions (Schedule 3, DPA).",
            "5.2 Corvid shall notify Customer of a Personal Data Breach without undue delay and in any event",
            "    within seven (7) days after becoming aware of it.",
            "5.3 Corvid shall keep Customer Data within the European Economic Area.",
            "5.4 Corvid shall give Customer thirty (30) days' prior written notice of any new sub-processor;",
            "    Customer may object on reasonable grounds within that period.",
        ],
    ),
    (
        "6. Confidentiality",
        [
            "6.1 Each party keeps the other's Confidential Information confidential for five (5) years after termination.",
        ],
    ),
    (
        "7. Warranties",
        [
            "7.1 Corvid warrants that the Service will perform materially in accordance with the Documentation.",
        ],
    ),
    (
        "8. Indemnities",
        [
            "8.1 Corvid indemnifies Customer against third-party claims that the Service infringes intellectual",
            "    property rights.",
        ],
    ),
    (
        "9. Limitation of liability",
        [
            "9.1 Each party's total aggregate liability arising out of or in connection with this Agreement shall",
            "    not exceed the Fees paid by Customer in the six (6) months preceding the event giving rise to the claim.",
            "9.2 Neither party excludes liability for death or personal injury caused by negligence, or for fraud.",
        ],
    ),
    (
        "10. Governing law and jurisdiction",
        [
            "10.1 This Agreement is governed by the laws of the State of Delaware, and the courts of Wilmington,",
            "     Delaware have exclusive jurisdiction.",
        ],
    ),
]

PLAYBOOK = [
    ("Topic", "Preferred", "Fallback (associate may accept)", "Escalate to the GC when"),
    (
        "Auto-renewal",
        "No automatic renewal",
        "Renewal periods of 12 months or less with at least 60 days' notice",
        "Renewal periods over 12 months, or notice under 60 days",
    ),
    ("Payment terms", "Net 45 days or longer", "Net 30 days", "Shorter than net 30 days"),
    ("Price increases", "Fixed for the initial term", "Up to 5% per year, on notice", "More than 5% per year"),
    ("Breach notification", "Within 48 hours", "Within 72 hours", "Longer than 72 hours"),
    (
        "Sub-processors",
        "Prior written consent",
        "30 days' prior written notice with a right to object",
        "Notice by website only, or no right to object",
    ),
    ("Liability cap", "24 months' fees or more", "12 months' fees", "Less than 12 months' fees"),
    ("Governing law", "German law, Munich courts", "England and Wales, or Ireland", "Any other law"),
]

FIXED = (2025, 1, 6, 9, 0, 0)


def draft_pdf(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Corvid Analytics - Master Subscription Agreement - vendor draft v2")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 795, "MASTER SUBSCRIPTION AGREEMENT")
    c.setFont("Helvetica", 10)
    c.drawString(60, 778, 'between Corvid Analytics Ltd ("Corvid") and Halcyon Health Technologies GmbH ("Customer")')
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(
        60,
        764,
        "Vendor draft v2 - Baxter & Lowe LLP for Corvid, 9 May 2025 - responds to Customer draft v1 - subject to contract",
    )
    y = 738
    for heading, lines in CLAUSES:
        if y < 110:
            c.showPage()
            y = 790
        c.setFont("Helvetica-Bold", 10.5)
        c.drawString(60, y, heading)
        y -= 15
        c.setFont("Helvetica", 9.5)
        for line in lines:
            c.drawString(66, y, line)
            y -= 13
        y -= 8
    c.setFont("Helvetica", 9)
    c.drawString(60, 60, "Schedules 1-3 and the Order Form are unchanged from v1 and not reproduced here.")
    c.save()


def playbook_xlsx(path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Positions"
    for row in PLAYBOOK:
        ws.append(list(row))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for col, width in zip("ABCD", (20, 30, 52, 48)):
        ws.column_dimensions[col].width = width
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            cell.alignment = Alignment(wrap_text=True, vertical="top")
    notes = wb.create_sheet("How to use")
    for line in [
        ["Halcyon Health Technologies - Legal - vendor contract playbook 2025 (owner: Elena Voss, General Counsel)"],
        ["Rate each clause of a vendor draft against this table, in the clause tracker's Playbook status column:"],
        [
            "preferred = meets the Preferred position; fallback = meets the Fallback position; escalate = falls in the last column."
        ],
        [
            "Escalations go to the GC before we answer the counterparty. Internal document: never share with counterparties."
        ],
    ]:
        notes.append(line)
    stamp = datetime(*FIXED)
    wb.properties.creator = "Elena Voss"
    wb.properties.created = stamp
    wb.properties.modified = stamp
    raw = io.BytesIO()
    wb.save(raw)
    # re-pack: fixed entry timestamps and the fixed modified date (openpyxl stamps both with "now")
    src = zipfile.ZipFile(io.BytesIO(raw.getvalue()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name in sorted(src.namelist()):
            data = src.read(name)
            if name == "docProps/core.xml":
                data = re.sub(rb"<dcterms:modified([^>]*)>[^<]*<", rb"<dcterms:modified\1>2025-01-06T09:00:00Z<", data)
            info = zipfile.ZipInfo(name, date_time=FIXED)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data)


def signed_scan(path: Path) -> None:
    """The vendor's signed Amendment No. 1, printed, signed in ink and scanned: no text layer."""
    w, h = 850, 1100
    page = Image.new("RGB", (w, h), (248, 247, 242))
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 24)
    serif = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 17)
    small = ImageFont.truetype(str(FONTS / "DejaVuSerif.ttf"), 14)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 24)
    ink = (28, 45, 140)
    d.text((60, 50), "AMENDMENT No. 1", font=bold, fill=(15, 15, 15))
    d.text(
        (60, 86), "to the Master Subscription Agreement (vendor draft v2 of 9 May 2025)", font=serif, fill=(20, 20, 20)
    )
    d.text(
        (60, 110), "between Corvid Analytics Ltd and Halcyon Health Technologies GmbH", font=serif, fill=(20, 20, 20)
    )
    d.text((60, 160), "The parties agree that draft v2 is amended as follows:", font=serif, fill=(20, 20, 20))
    rows = [
        ("5.2", "Personal Data Breach notification: within seventy-two (72) hours"),
        ("", "after Corvid becomes aware of the breach."),
        ("9.1", f"Aggregate liability cap: EUR {CAP:,}."),
        ("9.3", f"(new) Data-protection super-cap: EUR {SUPER_CAP:,} for breaches of"),
        ("", "clause 5 and Schedule 3."),
        ("10", "Governing law: England and Wales; courts of London."),
    ]
    y = 205
    strike_y = None
    for num, text in rows:
        if num == "9.3":
            y += 46  # room above the line for the handwritten correction
        d.text((70, y), num, font=serif, fill=(15, 15, 15))
        d.text((130, y), text, font=serif, fill=(15, 15, 15))
        if num == "9.3":
            strike_y = y
        y += 32
    d.text((70, y + 10), "All other clauses remain as in draft v2.", font=serif, fill=(20, 20, 20))
    # handwritten correction of the super-cap, struck through and initialled
    x0 = 130 + int(d.textlength("(new) Data-protection super-cap: ", font=serif))
    x1 = x0 + int(d.textlength(f"EUR {SUPER_CAP:,}", font=serif))
    d.line((x0 - 4, strike_y + 12, x1 + 4, strike_y + 9), fill=ink, width=3)
    d.line((x0 - 4, strike_y + 6, x1 + 4, strike_y + 15), fill=ink, width=2)
    note = Image.new("RGBA", (260, 44), (0, 0, 0, 0))
    ImageDraw.Draw(note).text((4, 4), f"EUR {F.amendment.super_cap_signed:,}  LM", font=hand, fill=ink + (255,))
    page.paste(
        note.rotate(4, expand=True, resample=Image.BICUBIC),
        (x0 - 6, strike_y - 52),
        note.rotate(4, expand=True, resample=Image.BICUBIC),
    )
    # signature blocks
    y = 560
    d.text((60, y), "Signed for and on behalf of Corvid Analytics Ltd", font=serif, fill=(15, 15, 15))
    sig = [(100, 650), (130, 612), (150, 660), (178, 618), (196, 652), (230, 626), (262, 646), (300, 630), (340, 640)]
    d.line(sig, fill=ink, width=3, joint="curve")
    d.line((90, 670, 420, 670), fill=(60, 60, 60), width=1)
    d.text((60, 680), f"Name:  {F.amendment.signed_by}", font=serif, fill=(15, 15, 15))
    d.text((60, 706), "Title:  Sales Director", font=serif, fill=(15, 15, 15))
    d.text((60, 732), "Date:   14 May 2025", font=serif, fill=(15, 15, 15))
    y = 800
    d.text((60, y), "Signed for and on behalf of Halcyon Health Technologies GmbH", font=serif, fill=(15, 15, 15))
    d.line((90, 880, 420, 880), fill=(60, 60, 60), width=1)
    d.text((60, 890), "Name:  ____________________", font=serif, fill=(15, 15, 15))
    d.text((60, 916), "Title:  ____________________", font=serif, fill=(15, 15, 15))
    d.text((60, 942), "Date:   ____________________", font=serif, fill=(15, 15, 15))
    d.text((60, 1040), "Corvid / Halcyon MSA - Amendment No. 1 - page 1 of 1", font=small, fill=(70, 70, 70))
    rnd = random.Random(93)
    for _ in range(2200):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        v = rnd.randrange(130, 210)
        d.point((x, yy), fill=(v, v, v))
    page = page.rotate(0.9, resample=Image.BICUBIC, expand=False, fillcolor=(236, 236, 232))
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=70, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("SCAN_20250514_1622")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def main() -> None:
    for sub in ("day1", "day4"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
    (HERE / "day1/playbook").mkdir(parents=True)
    (HERE / "day4").mkdir(parents=True)
    draft_pdf(HERE / "day1/Corvid_MSA_v2_vendor_draft.pdf")
    playbook_xlsx(HERE / "day1/playbook/Halcyon_vendor_playbook_2025.xlsx")
    signed_scan(HERE / "day4/Corvid_MSA_Amendment1_signed_scan.pdf")


if __name__ == "__main__":
    main()
