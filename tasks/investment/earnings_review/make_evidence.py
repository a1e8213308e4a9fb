"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/investment/earnings_review/make_evidence.py

Needs openpyxl, reportlab, espeak-ng and ffmpeg (authoring time only; running the benchmark
needs none of them). Produces:

- day1/CRVN_working_model.xlsx: the analyst's working model (quarterly revenue build, FY25
  estimate, EPS) and the fund's CRVN position (shares, last close, NAV). Zip entry timestamps
  and the document properties are pinned so the file is byte-identical on every run.
- day2/CRVN_Q3_2025_press_release.pdf: Corvane's Q3 release (text PDF). It reports Q3 actuals
  but leaves the outlook to the call.
- day2/CRVN_Q3_2025_call_outlook.wav: the CFO's outlook remark from the call (espeak-ng, fixed
  voice/speed/pitch, 16 kHz mono, phone band-pass). The revised FY25 guidance exists only here.
"""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
import zipfile
from datetime import datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
PINNED = datetime(2025, 10, 17, 18, 5, 0)

# -- facts (the ones a reader takes from these files are in facts.toml) ----------------------------
QUARTERS = [  # quarter, revenue $M, non-GAAP EPS $, status
    ("Q1 2025", 98.2, 0.52, "actual"),
    ("Q2 2025", 100.8, 0.53, "actual"),
    ("Q3 2025E", F.model.q3_est, 0.54, "estimate"),
    ("Q4 2025E", 108.5, 0.59, "estimate"),
]
SHARES_HELD = F.model.shares
LAST_CLOSE = F.model.last_close
NAV_MUSD = F.model.nav_musd

CALL_OUTLOOK = (
    "Turning to the outlook. For full year twenty twenty-five, we now expect revenue "
    "of four hundred fourteen to four hundred twenty million dollars, "
    "up from our prior range of four hundred to four hundred ten million."
)


def working_model(path: Path) -> None:
    wb = Workbook()
    bold = Font(bold=True)
    head = PatternFill("solid", fgColor="DDE6F0")

    ws = wb.active
    ws.title = "Estimates"
    ws.append(["Corvane Instruments (CRVN) - working model", "", "", ""])
    ws["A1"].font = Font(bold=True, size=13)
    ws.append(["Analyst: P. Raman   Last edit: 2025-10-17   NOT the published estimates (see research portal)"])
    ws.append([])
    ws.append(["Quarter", "Revenue ($M)", "Non-GAAP EPS ($)", "Status"])
    for cell in ws[4]:
        cell.font, cell.fill = bold, head
    for q in QUARTERS:
        ws.append(list(q))
    fy_rev = round(sum(q[1] for q in QUARTERS), 1)
    fy_eps = round(sum(q[2] for q in QUARTERS), 2)
    ws.append(["FY 2025E", fy_rev, fy_eps, "estimate"])
    for cell in ws[ws.max_row]:
        cell.font = bold
    ws.append([])
    ws.append(
        [
            "Company FY25 revenue guidance (given 2025-07-29)",
            f"{F.guidance.previous_low} - {F.guidance.previous_high}",
            "",
            "",
        ]
    )
    ws.column_dimensions["A"].width = 46
    for col in "BCD":
        ws.column_dimensions[col].width = 18

    pos = wb.create_sheet("Position")
    pos.append(["Fund", "Larchmont Peak Long/Short Fund"])
    pos.append(["Ticker", "CRVN"])
    pos.append(["Shares held (as of 2025-10-17 close)", SHARES_HELD])
    pos.append(["Last close ($)", LAST_CLOSE])
    pos.append(["Fund NAV ($M, 2025-10-17)", NAV_MUSD])
    pos.append(["Internal concentration limit (shares)", 200_000])
    for row in pos.iter_rows():
        row[0].font = bold
    pos.column_dimensions["A"].width = 42
    pos.column_dimensions["B"].width = 32

    notes = wb.create_sheet("Notes")
    notes.append(["Thesis: order book for process-analytics instruments re-accelerating; Q4 seasonally strongest."])
    notes.append(["Watch: FY guide raise on the Q3 call; gross margin ~44-45%."])

    wb.properties.creator = "Priya Raman"
    wb.properties.lastModifiedBy = "Priya Raman"
    wb.properties.created = PINNED
    buf = io.BytesIO()
    wb.save(buf)
    path.write_bytes(pin_zip(buf.getvalue()))


def pin_zip(data: bytes) -> bytes:
    """Rewrite an xlsx with fixed entry timestamps and a fixed 'modified' property."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    stamp = PINNED.strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                text = re.sub(
                    r"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)", rf"\g<1>{stamp}\g<2>", body.decode("utf-8")
                )
                body = text.encode("utf-8")
            zi = zipfile.ZipInfo(info.filename, date_time=PINNED.timetuple()[:6])
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, body)
    return out.getvalue()


def press_release(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("Corvane Instruments Reports Third Quarter 2025 Results")
    c.setAuthor("Corvane Instruments, Inc.")
    y = 740
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, y, "Corvane Instruments Reports Third Quarter 2025 Results")
    y -= 22
    c.setFont("Helvetica", 10)
    c.drawString(
        60, y, "BOSTON, Oct. 21, 2025 -- Corvane Instruments, Inc. (NASDAQ: CRVN), a maker of process-analytics"
    )
    y -= 14
    c.drawString(60, y, "instruments, today reported financial results for the third quarter ended September 27, 2025.")
    y -= 28
    c.setFont("Helvetica-Bold", 11)
    c.drawString(60, y, "Third quarter highlights")
    c.setFont("Helvetica", 10)
    for line in [
        f"- Revenue of ${F.release.revenue} million, up 9% year over year; orders of $111.4 million (book-to-bill 1.08).",
        f"- GAAP diluted EPS of $0.51; non-GAAP diluted EPS of ${F.release.eps}.",
        "- GAAP gross margin 43.1%; non-GAAP gross margin 44.6%.",
        "- Operating cash flow of $18.9 million; cash and investments of $241.0 million at quarter end.",
    ]:
        y -= 16
        c.drawString(70, y, line)
    y -= 30
    c.setFont("Helvetica-Bold", 11)
    c.drawString(60, y, "Summary (unaudited, $ millions except per-share data)")
    y -= 18
    c.setFont("Helvetica", 10)
    rows = [
        ("", "Q3 2025", "Q3 2024"),
        ("Revenue", str(F.release.revenue), "94.7"),
        ("GAAP net income", "17.3", "14.9"),
        ("GAAP diluted EPS", "0.51", "0.44"),
        ("Non-GAAP diluted EPS", str(F.release.eps), "0.49"),
        ("Diluted shares (millions)", "33.9", "33.8"),
    ]
    for label, a, b in rows:
        c.drawString(70, y, label)
        c.drawRightString(360, y, a)
        c.drawRightString(450, y, b)
        y -= 15
    y -= 20
    c.setFont("Helvetica-Bold", 11)
    c.drawString(60, y, "Outlook")
    c.setFont("Helvetica", 10)
    y -= 16
    c.drawString(
        70, y, "Management will discuss its full-year 2025 outlook on the conference call today at 5:00 p.m. ET."
    )
    y -= 14
    c.drawString(70, y, "A replay will be available on the investor relations website.")
    c.setFont("Helvetica", 8)
    c.drawString(60, 70, "Non-GAAP measures exclude stock-based compensation and amortization of acquired intangibles.")
    c.save()


def call_outlook(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(
            ["espeak-ng", "-v", "en-us", "-s", "168", "-p", "38", "-a", "120", "-w", str(raw), CALL_OUTLOOK], check=True
        )
        subprocess.run(
            [
                "ffmpeg",
                "-loglevel",
                "error",
                "-y",
                "-i",
                str(raw),
                "-af",
                "highpass=f=250,lowpass=f=3600",
                "-ar",
                "16000",
                "-ac",
                "1",
                "-c:a",
                "pcm_s16le",
                "-fflags",
                "+bitexact",
                "-flags:a",
                "+bitexact",
                "-map_metadata",
                "-1",
                str(path),
            ],
            check=True,
        )


def main() -> None:
    day1, day2 = HERE / "day1", HERE / "day2"
    day1.mkdir(exist_ok=True)
    day2.mkdir(exist_ok=True)
    working_model(day1 / "CRVN_working_model.xlsx")
    press_release(day2 / "CRVN_Q3_2025_press_release.pdf")
    call_outlook(day2 / "CRVN_Q3_2025_call_outlook.wav")


if __name__ == "__main__":
    main()
