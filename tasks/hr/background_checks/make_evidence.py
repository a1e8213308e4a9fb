"""Regenerate the background-checks task's evidence deterministically (the outputs are committed).

    python tasks/hr/background_checks/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the scanned consent
forms: pixels, no text layer), reportlab (the agency's reports and the FCRA summary: text PDFs),
espeak-ng + ffmpeg (the candidate's voicemail, 16 kHz mono MP3).

- day1/consents/BG-310{1,2,4}_consent.jpg        scans: BG-3102's signature and date boxes are empty
- day1/templates/Summary_of_Rights_FCRA.pdf      text PDF: the summary of rights (template)
- day2/silent/BG-3102_consent_resigned.jpg       scan: Devon's re-signed form (appears silently)
- day2/reports/ClearPath_BG-3101.pdf, _BG-3103.pdf   text PDFs: clear / a 2021 Ohio DUI
- day3/voicemail/voicemail_+16145550187.mp3      spoken: Marcus disputes the record, gives his birth date
- day4/reports/ClearPath_BG-3103_corrected.pdf, _BG-3104.pdf   text PDFs: record removed / a 2015 offence
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, style: str = "") -> ImageFont.FreeTypeFont:
    name = {"": "DejaVuSans", "b": "DejaVuSans-Bold", "h": "DejaVuSansCondensed-Oblique"}[style]
    return ImageFont.truetype(str(FONTS / f"{name}.ttf"), size)


def us(day: str) -> str:
    return date.fromisoformat(day).strftime("%m/%d/%Y")


def consent(path: Path, who: object, signed: str | None, seed: int) -> None:
    w, h = 720, 940
    page = Image.new("L", (w, h), 247)
    d = ImageDraw.Draw(page)
    d.text((36, 30), "MARLOWE DATA SYSTEMS", font=font(24, "b"), fill=20)
    d.text((36, 66), "Disclosure Regarding Background Investigation", font=font(19, "b"), fill=25)
    body = [
        "Marlowe Data Systems may obtain information about you from a",
        "consumer reporting agency (ClearPath Screening) for employment",
        "purposes. This may include criminal history and, for driving",
        "roles, your motor vehicle record.",
        "",
        "AUTHORIZATION: By signing below, I authorize the procurement",
        "of consumer reports about me for employment purposes.",
    ]
    y = 112
    for line in body:
        d.text((36, y), line, font=font(16), fill=40)
        y += 26
    y += 20
    fields = [
        ("Full name", who.name),
        ("Case", who.case),
        ("Date of birth", us(who.dob)),
        ("SSN (last 4)", f"XXX-XX-{who.ssn4}"),
        ("Signature", "signature" if signed else ""),
        ("Date", us(signed) if signed else ""),
    ]
    for label, value in fields:
        d.text((36, y), label, font=font(17, "b"), fill=30)
        d.line((230, y + 26, 660, y + 26), fill=90, width=1)
        if label == "Signature" and value:
            first, last = who.name.split(" ", 1)
            d.text((240, y - 8), f"{first[0]}. {last}", font=font(32, "h"), fill=15)
        elif value:
            d.text((240, y), value, font=font(20, "h"), fill=15)
        y += 62
    rnd = random.Random(seed)
    for _ in range(1500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.6 if seed % 2 else -0.5, resample=Image.BICUBIC, fillcolor=235).filter(ImageFilter.GaussianBlur(0.6))  # fmt: skip
    page.save(path, format="JPEG", quality=55, optimize=True)


def pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 750
    for line in lines:
        if line.startswith("# "):
            c.setFont("Helvetica-Bold", 14)
            c.drawString(54, y, line[2:])
            y -= 22
            continue
        if line.startswith("## "):
            y -= 4
            c.setFont("Helvetica-Bold", 11)
            c.drawString(54, y, line[3:])
        else:
            c.setFont("Helvetica", 10)
            c.drawString(54, y, line)
        y -= 15
    c.save()


def report(path: Path, who: object, dated: str, criminal: list[str], mvr: list[str], note: list[str] = ()) -> None:  # noqa: B006
    pdf(path, f"ClearPath report {who.case}", [
        "# ClearPath Screening - Consumer Report",
        f"Report date: {dated}        Client: Marlowe Data Systems        Client reference: {who.case}",
        f"Subject: {who.name}        SSN: XXX-XX-{who.ssn4}",
        "",
        "## Criminal records (county and statewide searches, 7 years and older where reportable)",
        *criminal,
        "",
        "## Motor vehicle record",
        *mvr,
        "",
        *note,
        "",
        "This report was prepared under the Fair Credit Reporting Act. The subject may dispute the",
        "completeness or accuracy of any information with ClearPath Screening.",
    ])  # fmt: skip


def rights(path: Path) -> None:
    pdf(path, "Summary of Your Rights Under the FCRA", [
        "# A Summary of Your Rights Under the Fair Credit Reporting Act",
        "The federal Fair Credit Reporting Act (FCRA) promotes the accuracy, fairness and privacy of",
        "information in the files of consumer reporting agencies.",
        "",
        "- You must be told if information in your file has been used against you.",
        "- You have the right to know what is in your file.",
        "- You have the right to dispute incomplete or inaccurate information.",
        "- Consumer reporting agencies must correct or delete inaccurate, incomplete or unverifiable",
        "  information, usually within 30 days.",
        "- Consumer reporting agencies may not report outdated negative information.",
        "- Access to your file is limited; you must give consent for reports to be provided to employers.",
        "",
        "For more information, visit the Consumer Financial Protection Bureau.",
    ])  # fmt: skip


def voicemail(path: Path) -> None:
    m = F.marcus
    text = (
        "Hi, this is Marcus Bell, I'm a candidate for the delivery driver job, case B G thirty one oh three. "
        "I got your letter about my background report. That D U I conviction in Ohio is not mine. "
        "I have never lived in Ohio. My date of birth is March fourteenth, nineteen ninety one, and the person "
        f"in that court record was born in {m.record_dob_year[:2]} {m.record_dob_year[2:]}. Please have the screening "
        "company check it again. You can call me back on six one four, five five five, oh one eight seven. Thank you."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "158", "-p", "42", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/consents", "day1/templates", "day2/silent", "day2/reports", "day3/voicemail", "day4/reports"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    a, dv, m, p = F.alicia, F.devon, F.marcus, F.priya
    consent(HERE / "day1/consents/BG-3101_consent.jpg", a, "2026-05-01", 3101)
    consent(HERE / "day1/consents/BG-3102_consent.jpg", dv, None, 3102)
    consent(HERE / "day1/consents/BG-3104_consent.jpg", p, "2026-05-02", 3104)
    consent(HERE / "day2/silent/BG-3102_consent_resigned.jpg", dv, "2026-05-04", 3112)
    rights(HERE / "day1/templates/Summary_of_Rights_FCRA.pdf")
    none = ["No records found."]
    clean = ["No driving record: not requested for this package."]
    report(HERE / "day2/reports/ClearPath_BG-3101.pdf", a, "05/04/2026", none, clean)
    dui = [
        f"State of Ohio v. Marcus Bell - Franklin County Municipal Court, case {m.court_case}",
        f"Offense: OVI / driving under the influence (misdemeanor, 1st degree)   Convicted: {us(m.conviction)}",
        "Sentence: fine, 6-month licence suspension (completed)",
        "Identifiers matched: full name; year of birth (court record redacts the full date).",
    ]
    report(HERE / "day2/reports/ClearPath_BG-3103.pdf", m, "05/04/2026", dui,
           ["Commercial driver licence (PA): valid, class A, 0 points."])  # fmt: skip
    report(HERE / "day4/reports/ClearPath_BG-3103_corrected.pdf", m, "05/07/2026", none,
           ["Commercial driver licence (PA): valid, class A, 0 points."],
           ["## Reinvestigation (corrected report)",
            f"The Franklin County record previously reported belongs to a different person (born {m.record_dob_year})",
            "and has been removed from this report."])  # fmt: skip
    theft = [
        f"State of Illinois v. Priya Natarajan - Cook County Circuit Court, case {p.court_case}",
        f"Offense: retail theft (misdemeanor)   Convicted: {us(p.old_offence)}   Sentence: court supervision",
    ]
    report(HERE / "day4/reports/ClearPath_BG-3104.pdf", p, "05/07/2026", theft,
           ["Driver licence (IL): valid, class D, 0 points."])  # fmt: skip
    voicemail(HERE / "day3/voicemail/voicemail_+16145550187.mp3")


if __name__ == "__main__":
    main()
