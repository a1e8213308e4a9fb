"""Regenerate the premium-audit task's evidence deterministically (the outputs are committed).

    python tasks/insurance/premium_audit/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs), Pillow
(the jobsite photo, no text layer), espeak-ng + ffmpeg (the bookkeeper's voicemail, 16 kHz mono MP3).

- day1/Brightline_payroll_register_2025.csv   the insured's payroll register (regular and overtime pay)
- day1/Brightline_941_1099_ledger_2025.pdf    text PDF: quarterly wages (941) and subcontractor payments by quarter
- day2/Ridge_Roofing_COI.pdf                  text PDF: the roofer's certificate (cover only from 1 April 2025)
- day2/voicemail_nand_2026-02-09.mp3          the bookkeeper: ColorCraft Painting has no insurance at all
- day3/jobsite_signin_2025-10.jpg             the auditor's photo of the jobsite crew sign-in board: the
  "office coordinator" signed in for framing and sheathing
"""

from __future__ import annotations

import csv
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
A, S = F.audit, F.subs

REGISTER = [
    # employee, title, regular pay, overtime pay (time and a half)
    ("Karen Brightman", "President (officer) - supervises the jobsites", 240000, 0),
    ("Luis Ferreira", "Lead carpenter", 62000, 9450),
    ("Jamal Reed", "Carpenter", 51700, 7200),
    ("Ana Sousa", "Carpenter apprentice", 39200, 0),
    ("Tom Kowalczyk", "Painter", 44800, 4800),
    (F.reclass.employee, "Office coordinator", 46300, 0),
    ("Priya Nand", "Bookkeeper", 52000, 0),
    ("Sam Oyelaran", "Estimator (outside sales)", 63750, 0),
]
QUARTERS = {  # subcontractor payments by quarter (the 1099 ledger)
    S.colorcraft.name: (10000, 12000, 11500, 8500),
    S.ridge.name: (S.ridge.q1, 21000, 15300, 8000),
}
VOICEMAIL = (
    "Hi Rafael, it's Priya Nand at Brightline Builders. About the certificates you asked for. I've mailed you "
    "Ridge Roofing's certificate. Color Craft Painting never gave us one. I called the owner this morning, and he "
    "says he doesn't carry workers comp at all, he works with his two nephews. Sorry about that. "
    "Call me if you need anything else."
)


def register(path: Path) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Employee", "Title", "Regular Pay", "Overtime Pay (1.5x)", "Gross Pay"])
        for name, title, regular, overtime in REGISTER:
            w.writerow([name, title, f"{regular:.2f}", f"{overtime:.2f}", f"{regular + overtime:.2f}"])


def text_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 740
    for line in lines:
        bold = line.startswith("# ")
        c.setFont("Helvetica-Bold" if bold else "Helvetica", 13 if bold else 10.5)
        c.drawString(60, y, line[2:] if bold else line)
        y -= 16
    c.save()


def ledger(path: Path) -> None:
    gross = sum(r + o for _, _, r, o in REGISTER)
    quarters = (0.24, 0.26, 0.27, 0.23)
    wages = [round(gross * q, 2) for q in quarters[:3]]
    wages.append(round(gross - sum(wages), 2))
    lines = [
        f"# {A.insured} - payroll and subcontractor summary 2025",
        "Prepared by Priya Nand, bookkeeper, for the workers' compensation audit",
        "",
        "Form 941 wages by quarter (all employees)",
        *(f"   Q{i + 1} 2025: {w:,.2f}" for i, w in enumerate(wages)),
        f"   Total 2025: {gross:,.2f} (agrees with the payroll register)",
        "",
        "1099 subcontractor payments by quarter",
        "   Vendor                         Q1         Q2         Q3         Q4        Total",
    ]
    for name, qs in QUARTERS.items():
        lines.append(f"   {name:<26}" + "".join(f"{q:>11,.2f}" for q in qs) + f"{sum(qs):>13,.2f}")
    lines += ["", "Materials suppliers (lumber, paint, shingles) are not listed: purchases only, no labour."]
    text_pdf(path, "Brightline Builders 2025 payroll summary", lines)


def coi(path: Path) -> None:
    text_pdf(path, "Certificate of liability insurance - Ridge Roofing Co", [
        "# CERTIFICATE OF LIABILITY INSURANCE",
        "Date issued: 02/09/2026",
        "",
        f"Insured: {S.ridge.name}, 880 Carlisle Pike, Mechanicsburg PA 17050",
        f"Certificate holder: {A.insured}",
        "",
        "Coverage                      Policy number      Effective     Expiration",
        "Commercial general liability  GL-RR-77310        01/01/2025    01/01/2026",
        "Workers compensation          WC-RR-55120        04/01/2025    04/01/2026",
        "   (statutory limits, Pennsylvania)",
        "",
        "Producer: Cumberland Valley Insurance Agency",
        "This certificate is issued as a matter of information only.",
    ])  # fmt: skip


def signin_photo(path: Path) -> None:
    """A phone photo of the jobsite's crew sign-in whiteboard (October 2025), marker handwriting."""
    rnd = random.Random(118840)
    w, h = 720, 540
    img = Image.new("RGB", (w, h), (150, 138, 120))  # the site trailer wall
    board = Image.new("RGB", (640, 460), (236, 238, 240))
    d = ImageDraw.Draw(board)
    title = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 22)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 21)
    d.text((20, 16), "BRIGHTLINE - 14 ORCHARD LN - CREW SIGN-IN", font=title, fill=(20, 40, 120))
    d.text((20, 50), "week of 10/13/25", font=hand, fill=(20, 40, 120))
    rows = [
        ("MON", "L. FERREIRA", "framing 2nd fl"),
        ("MON", "J. REED", "framing 2nd fl"),
        ("MON", "D. WHITAKER", "framing 2nd fl"),
        ("TUE", "A. SOUSA", "framing / blocking"),
        ("TUE", "D. WHITAKER", "wall sheathing"),
        ("WED", "T. KOWALCZYK", "prime garage walls"),
        ("WED", "L. FERREIRA", "stairs"),
        ("THU", "D. WHITAKER", "framing - porch"),
    ]
    y = 92
    for day, who, what in rows:
        d.text((24, y), day, font=hand, fill=(15, 15, 15))
        d.text((100, y), who, font=hand, fill=(15, 15, 15))
        d.text((330, y), what, font=hand, fill=(15, 15, 15))
        d.line((20, y + 38, 620, y + 38), fill=(200, 200, 205))
        y += 44
    board = board.rotate(-1.8, resample=Image.BICUBIC, expand=True, fillcolor=(150, 138, 120))
    img.paste(board, (30, 25))
    px = img.load()
    for _ in range(4000):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, yy]
        k = rnd.randrange(-20, 20)
        px[x, yy] = (max(0, min(255, r + k)), max(0, min(255, g + k)), max(0, min(255, b + k)))
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    img.save(path, format="JPEG", quality=70, optimize=True)


def voicemail(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us+f3", "-s", "160", "-p", "50", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "16k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    register(HERE / "day1/Brightline_payroll_register_2025.csv")
    ledger(HERE / "day1/Brightline_941_1099_ledger_2025.pdf")
    coi(HERE / "day2/Ridge_Roofing_COI.pdf")
    voicemail(HERE / "day2/voicemail_nand_2026-02-09.mp3")
    signin_photo(HERE / "day3/jobsite_signin_2025-10.jpg")


if __name__ == "__main__":
    main()
