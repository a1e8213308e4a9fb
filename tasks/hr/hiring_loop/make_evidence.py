"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/hr/hiring_loop/make_evidence.py

Needs openpyxl, Pillow and reportlab (authoring-time only; running the benchmark does not).
Outputs:
- day1/scorecards_REQ-2207.xlsx: the ATS scorecard export (sheet Scorecards, one row per
  interviewer and candidate, with a superseded draft row that must not count; sheet Panel with
  the interviewers' addresses). Zip entry times and workbook properties are pinned.
- day3/comp_exception_C-102.pdf: the VP People's signed compensation-exception form, scanned
  (an image-only PDF: no text layer). The approved base differs from the amount requested.
- day4/bgc_certificate_C-102.pdf: the screening provider's clearance certificate, scanned.
"""

from __future__ import annotations

import io
import math
import random
import re
import zipfile
from datetime import datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
DEJAVU = "/usr/share/fonts/truetype/dejavu/"
SANS, BOLD, SERIF, MONO = (
    DEJAVU + f for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf")
)
PINNED = datetime(2025, 3, 7, 18, 5, 0)

ROLES = {
    "Nadia Haddad": "Bar raiser, Staff Engineer",
    "Owen Clarke": "Senior Data Engineer",
    "Sofia Lindgren": "Analytics Engineering Lead",
    "Rahul Mehta": "Platform Engineer",
}
PANEL = [(p["name"], p["email"], ROLES[p["name"]]) for p in F.panel]  # name, address (checked), role
CANDIDATES = {
    "C-101": "Amara Osei",
    F.candidate.id: F.candidate.name,
    "C-103": "Lucia Ferreira",
    "C-104": "Daniel Achterberg",
}
ROUNDS = {
    "Nadia Haddad": "Values & bar raiser",
    "Owen Clarke": "Coding",
    "Sofia Lindgren": "Stakeholder case",
    "Rahul Mehta": "System design",
}
# (candidate, interviewer, Technical, System Design, Collaboration, Ownership, Recommendation, Status, submitted)
SCORECARDS = [
    ("C-101", "Nadia Haddad", 4, 3, 1, 2, "Strong No", "submitted", "2025-03-06 17:40"),
    ("C-101", "Owen Clarke", 4, 4, 4, 3, "Strong Yes", "submitted", "2025-03-06 16:05"),
    ("C-101", "Sofia Lindgren", 4, 3, 4, 4, "Yes", "submitted", "2025-03-06 18:12"),
    ("C-101", "Rahul Mehta", 4, 4, 3, 4, "Strong Yes", "submitted", "2025-03-07 09:20"),
    ("C-102", "Nadia Haddad", 3, 3, 4, 3, "Yes", "submitted", "2025-03-05 17:02"),
    ("C-102", "Owen Clarke", 4, 3, 3, 3, "Yes", "submitted", "2025-03-05 15:44"),
    ("C-102", "Sofia Lindgren", 3, 4, 4, 3, "Strong Yes", "submitted", "2025-03-05 18:30"),
    ("C-102", "Rahul Mehta", 3, 3, 3, 4, "Yes", "submitted", "2025-03-06 08:55"),
    ("C-103", "Nadia Haddad", 3, 3, 3, 3, "Yes", "submitted", "2025-03-04 17:15"),
    ("C-103", "Owen Clarke", 1, 1, 2, 1, "No", "draft - superseded", "2025-03-04 12:10"),
    ("C-103", "Owen Clarke", 3, 3, 4, 3, "Yes", "submitted", "2025-03-04 16:58"),
    ("C-103", "Sofia Lindgren", 3, 2, 3, 3, "No", "submitted", "2025-03-04 18:40"),
    ("C-103", "Rahul Mehta", 3, 3, 4, 3, "Yes", "submitted", "2025-03-05 09:03"),
    ("C-104", "Nadia Haddad", 3, 2, 3, 3, "No", "submitted", "2025-03-03 17:30"),
    ("C-104", "Owen Clarke", 2, 3, 3, 3, "No", "submitted", "2025-03-03 15:20"),
    ("C-104", "Sofia Lindgren", 3, 3, 3, 3, "Yes", "submitted", "2025-03-03 18:01"),
    ("C-104", "Rahul Mehta", 3, 2, 3, 3, "No", "submitted", "2025-03-04 08:47"),
]


def pin_zip(data: bytes) -> bytes:
    """Rewrite an xlsx (zip) with fixed entry times and order, so re-runs give the same bytes."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            pinned = zipfile.ZipInfo(info.filename, date_time=(2025, 3, 7, 18, 5, 0))
            pinned.compress_type = zipfile.ZIP_DEFLATED
            pinned.external_attr = 0o600 << 16
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps "modified" with the wall clock on save
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*(<)", rb"\g<1>2025-03-07T18:05:00Z\g<2>", body)
            dst.writestr(pinned, body)
    return out.getvalue()


def scorecards_xlsx(path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Scorecards"
    header = [
        "Candidate ID",
        "Candidate",
        "Interviewer",
        "Round",
        "Technical",
        "System Design",
        "Collaboration",
        "Ownership",
        "Recommendation",
        "Status",
        "Submitted",
    ]
    ws.append(header)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for cid, who, t, sd, col, own, rec, status, when in SCORECARDS:
        ws.append([cid, CANDIDATES[cid], who, ROUNDS[who], t, sd, col, own, rec, status, when])
    for col, width in zip("ABCDEFGHIJK", (12, 18, 16, 20, 10, 13, 13, 10, 15, 18, 17)):
        ws.column_dimensions[col].width = width
    ws.append([])
    ws.append(["Scale: 1 = strong concern, 2 = concern, 3 = meets the bar, 4 = exceeds the bar"])
    panel = wb.create_sheet("Panel")
    panel.append(["Interviewer", "Email", "Role"])
    for cell in panel[1]:
        cell.font = Font(bold=True)
    for row in PANEL:
        panel.append(list(row))
    panel.column_dimensions["A"].width = 18
    panel.column_dimensions["B"].width = 36
    panel.column_dimensions["C"].width = 28
    wb.properties.creator = "Greenlight ATS export"
    wb.properties.created = PINNED
    wb.properties.modified = PINNED
    wb.properties.lastModifiedBy = "Greenlight ATS export"
    buf = io.BytesIO()
    wb.save(buf)
    path.write_bytes(pin_zip(buf.getvalue()))


# -- scans ----------------------------------------------------------------------------------------
def font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def signature(d: ImageDraw.ImageDraw, x: int, y: int, seed: int, width: int = 230) -> None:
    """A handwritten-looking scribble (deterministic)."""
    rng = random.Random(seed)
    pts = []
    for i in range(90):
        t = i / 89
        pts.append(
            (
                x + t * width + 10 * math.sin(t * 17 + seed),
                y + 18 * math.sin(t * 11.0 + seed) * (1 - t * 0.4) + rng.uniform(-2, 2),
            )
        )
    d.line(pts, fill=(20, 30, 90), width=3, joint="curve")
    d.line([(x + 20, y + 26), (x + width - 30, y + 20)], fill=(20, 30, 90), width=2)


def scan_finish(page: Image.Image, seed: int, angle: float) -> Image.Image:
    """Make a clean page look scanned: grey paper, slight skew, speckles, soft blur; greyscale."""
    rng = random.Random(seed)
    d = ImageDraw.Draw(page)
    w, h = page.size
    for _ in range(900):
        x, y = rng.randrange(w), rng.randrange(h)
        g = rng.randrange(150, 215)
        d.point((x, y), fill=(g, g, g))
    page = page.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=(236, 236, 232))
    page = page.filter(ImageFilter.GaussianBlur(0.7))
    return page.convert("L")


def image_pdf(img: Image.Image, path: Path, title: str) -> None:
    """Wrap a greyscale scan (JPEG, quality 70) in a one-page A4 PDF without any text layer."""
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=70, optimize=True)
    buf.seek(0)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(title)
    c.setAuthor("Scanner")
    w, h = A4
    c.drawImage(ImageReader(buf), 0, 0, width=w, height=h)
    c.showPage()
    c.save()


def comp_exception(path: Path) -> None:
    page = Image.new("RGB", (850, 1200), (246, 245, 240))
    d = ImageDraw.Draw(page)
    d.text((60, 60), "FERNHOLLOW ANALYTICS GmbH", font=font(BOLD, 30), fill=(25, 25, 25))
    d.text((60, 104), "People & Culture  -  Compensation Exception Form", font=font(SANS, 20), fill=(40, 40, 40))
    d.line([(60, 140), (790, 140)], fill=(60, 60, 60), width=2)
    rows = [
        ("Requisition", "REQ-2207  Senior Data Engineer (level L5)"),
        ("Candidate", f"{F.candidate.id}  {F.candidate.name}"),
        ("Hiring manager", "Tomasz Wisniewski"),
        ("Band (L5, 2025)", f"EUR {F.offer.band_min:,} - {F.offer.band_max_refreshed:,}"),
        ("Requested base salary", f"EUR {F.offer.requested:,}"),
        ("Reason", "Competing offer; strong debrief"),
    ]
    y = 180
    for label, value in rows:
        d.text((60, y), label, font=font(SANS, 20), fill=(70, 70, 70))
        d.text((330, y), value, font=font(SERIF, 21), fill=(15, 15, 15))
        y += 46
    d.line([(60, y + 10), (790, y + 10)], fill=(120, 120, 120), width=1)
    y += 40
    d.text((60, y), "DECISION", font=font(BOLD, 24), fill=(20, 20, 20))
    y += 50
    d.rectangle([60, y, 84, y + 24], outline=(20, 20, 20), width=2)
    d.text((96, y - 2), "Approved as requested", font=font(SANS, 20), fill=(40, 40, 40))
    y += 44
    d.rectangle([60, y, 84, y + 24], outline=(20, 20, 20), width=2)
    d.line([(63, y + 3), (81, y + 21)], fill=(20, 30, 90), width=3)
    d.line([(81, y + 3), (63, y + 21)], fill=(20, 30, 90), width=3)
    d.text((96, y - 2), "Approved with changes:", font=font(SANS, 20), fill=(40, 40, 40))
    y += 46
    d.text((110, y), f"Approved base salary:   EUR {F.offer.approved_base:,}", font=font(SERIF, 24), fill=(10, 10, 10))
    y += 40
    d.text((110, y), f"Sign-on bonus (one-off): EUR {F.offer.sign_on:,}", font=font(SERIF, 24), fill=(10, 10, 10))
    y += 36
    d.text((110, y), "repayable pro rata if leaving within 12 months", font=font(SANS, 17), fill=(60, 60, 60))
    y += 44
    d.rectangle([60, y, 84, y + 24], outline=(20, 20, 20), width=2)
    d.text((96, y - 2), "Declined", font=font(SANS, 20), fill=(40, 40, 40))
    y += 90
    d.text((60, y), "VP People", font=font(SANS, 18), fill=(70, 70, 70))
    d.text((60, y + 28), "Helen Brandt", font=font(SERIF, 22), fill=(15, 15, 15))
    signature(d, 320, y + 20, seed=7)
    d.text((600, y + 28), "12.03.2025", font=font(SERIF, 22), fill=(15, 15, 15))
    d.line([(300, y + 60), (560, y + 60)], fill=(90, 90, 90), width=1)
    d.text((300, y + 66), "signature", font=font(SANS, 14), fill=(100, 100, 100))
    d.text(
        (60, 1130),
        "Form PC-07 rev. 2024-11  -  file with the candidate record",
        font=font(SANS, 14),
        fill=(110, 110, 110),
    )
    image_pdf(scan_finish(page, seed=11, angle=-0.8), path, "Scan 2025-03-12 0914")


def bgc_certificate(path: Path) -> None:
    page = Image.new("RGB", (850, 1200), (248, 247, 243))
    d = ImageDraw.Draw(page)
    d.rectangle([40, 40, 810, 1160], outline=(40, 70, 60), width=4)
    d.text((80, 80), "VERITAS SCREENING SERVICES", font=font(BOLD, 30), fill=(30, 60, 50))
    d.text((80, 124), "Pre-employment screening - certificate of result", font=font(SANS, 20), fill=(50, 50, 50))
    rows = [
        ("Certificate No.", F.candidate.certificate),
        ("Client", "Fernhollow Analytics GmbH"),
        ("Subject", f"{F.candidate.name} (client ref. {F.candidate.id})"),
        ("Checks", "Identity, right to work, education,"),
        ("", "employment history 2016-2025, references"),
        ("Issued", "13.03.2025"),
    ]
    y = 210
    for label, value in rows:
        d.text((80, y), label, font=font(SANS, 20), fill=(80, 80, 80))
        d.text((320, y), value, font=font(MONO if label.startswith("Cert") else SERIF, 22), fill=(10, 10, 10))
        y += 48
    y += 30
    d.text((80, y), "OVERALL RESULT:", font=font(BOLD, 28), fill=(20, 20, 20))
    d.rounded_rectangle([380, y - 10, 560, y + 40], radius=8, outline=(30, 110, 60), width=4)
    d.text((402, y - 4), "CLEAR", font=font(BOLD, 32), fill=(30, 110, 60))
    y += 90
    d.text((80, y), "Note: employment 2021-2023 (Kestrel Data GmbH) verified", font=font(SANS, 18), fill=(60, 60, 60))
    d.text(
        (80, y + 28), "from payslips supplied by the candidate on 12.03.2025.", font=font(SANS, 18), fill=(60, 60, 60)
    )
    y += 120
    d.text((80, y), "Authorised signatory", font=font(SANS, 18), fill=(80, 80, 80))
    signature(d, 320, y - 6, seed=3, width=200)
    d.ellipse([600, y - 60, 760, y + 100], outline=(120, 40, 40), width=3)
    d.text((628, y + 5), "VERITAS", font=font(BOLD, 22), fill=(120, 40, 40))
    image_pdf(scan_finish(page, seed=29, angle=0.6), path, "Scan 2025-03-13 0802")


def main() -> None:
    for sub in ("day1", "day3", "day4"):
        (HERE / sub).mkdir(parents=True, exist_ok=True)
    scorecards_xlsx(HERE / "day1" / "scorecards_REQ-2207.xlsx")
    comp_exception(HERE / "day3" / "comp_exception_C-102.pdf")
    bgc_certificate(HERE / "day4" / "bgc_certificate_C-102.pdf")


if __name__ == "__main__":
    main()
