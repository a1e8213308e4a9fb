"""Regenerate the data-sharing-agreement task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/data_sharing_agreement/make_evidence.py

Authoring-time tools only: Pillow (the DUA scans: pixels only, no text layer), reportlab (the DAC
minutes as a text PDF, and the wrappers of the scans), espeak-ng + ffmpeg (the DAC chair's voice note).

- day1/data/cohort_master.csv                   the cohort's master table (240 participants, identifiers included)
- day1/dac/DAC_minutes_2026-02-26.pdf           text PDF: the approved variables of DAR-0912 and DAR-0915
- day1/DUA-0912_signed.pdf                      image-only PDF: the DUA signed by the requester only
- day2/DUA-0912_countersigned.pdf               image-only PDF: signed by both, with the expiry date
- day2/voice_notes/dac_chair_2026-03-10_0745.mp3  the DAC chair adds one variable to DAR-0912
"""

from __future__ import annotations

import csv
import io
import random
import shutil
import subprocess
import tempfile
from datetime import date, timedelta
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
R = F.request


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def cohort(path: Path) -> None:
    rnd = random.Random(F.cohort.seed)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(F.cohort.columns)
        for i in range(F.cohort.participants):
            dob = date(2008, 1, 1) + timedelta(days=rnd.randrange(4 * 365))
            w.writerow([
                f"KV-{1001 + i}", f"4{rnd.randrange(10**8, 10**9)}", dob.isoformat(), dob.year,
                f"KV{rnd.randrange(1, 9)} {rnd.randrange(1, 9)}{'ABDEFGHJLNPQRSTUWXYZ'[rnd.randrange(20)]}{'ABDEFGHJLNPQRSTUWXYZ'[rnd.randrange(20)]}",
                "FM"[rnd.randrange(2)], rnd.randrange(17, 44), ["no", "yes"][rnd.random() < 0.22],
                rnd.randrange(2100, 4600), rnd.randrange(33, 42), rnd.randrange(0, 5),
                f"{rnd.uniform(18.5, 38.0):.1f}", rnd.randrange(1, 6),
            ])  # fmt: skip


def minutes(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("DAC minutes 26 February 2026")
    lines = [
        ("Helvetica-Bold", 14, f"{F.cohort.name} - Data Access Committee"),
        ("Helvetica", 10, "Minutes of the meeting of 26 February 2026 (chair: Prof. Miriam Holt)"),
        ("Helvetica", 10, ""),
        ("Helvetica-Bold", 11, f"1. {R.id} - {R.requester}, {R.institution}: '{R.project}'"),
        ("Helvetica", 10, "Decision: APPROVED, subject to a Data Use Agreement (current version) signed by the"),
        ("Helvetica", 10, "requester and the institution's authorised signatory. Approved variables:"),
        ("Helvetica", 10, "    " + ", ".join(F.approved.minutes)),
        ("Helvetica", 10, "Not approved: " + ", ".join(F.approved.refused) + " (identifying or not justified)."),
        ("Helvetica", 10, "Parity: the committee asked the applicant for a justification; decision deferred."),
        ("Helvetica", 10, ""),
        ("Helvetica-Bold", 11, "2. DAR-0915 - Tomasz Wrona, Vistula Medical University: 'Infant sex and gestation'"),
        ("Helvetica", 10, "Decision: APPROVED. Approved variables: study_id, sex, gestation_weeks, birth_year."),
        ("Helvetica", 10, ""),
        ("Helvetica-Bold", 11, "3. Any other business"),
        ("Helvetica", 10, "Withdrawn participants are excluded from every release, whenever they withdrew."),
    ]
    y = 800
    for face, size, text in lines:
        c.setFont(face, size)
        c.drawString(50, y, text)
        y -= size + 7
    c.save()


def dua_scan(path: Path, countersigned: bool) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(page)
    body, bold = font("DejaVuSans.ttf", 18), font("DejaVuSans-Bold.ttf", 22)
    hand = font("DejaVuSerif-Italic.ttf", 26)
    d.text((60, 50), f"{F.cohort.name.upper()}", font=bold, fill=20)
    d.text((60, 85), f"DATA USE AGREEMENT  {R.dua}   (template version {R.dua_version})", font=body, fill=25)
    d.line((60, 118, 790, 118), fill=60, width=2)
    y = 140
    for line in [
        f"Request: {R.id}  -  {R.project}",
        f"Recipient institution: {R.institution}",
        "The recipient shall use the data only for the approved project, shall not",
        "disclose them to any person not named in this agreement, and shall destroy",
        "them on or before the expiry date below, returning a destruction certificate.",
    ]:
        d.text((60, y), line, font=body, fill=20)
        y += 30
    y += 20
    d.text((60, y), "Agreement expiry / destruction date:", font=body, fill=20)
    if countersigned:
        end = date.fromisoformat(R.expiry)
        d.text((450, y - 4), f"{end.day} {end:%B %Y}", font=hand, fill=10)
    else:
        d.line((450, y + 22, 760, y + 22), fill=80, width=1)
    y += 80
    d.text((60, y), "1. Requester", font=bold, fill=20)
    d.text((60, y + 40), f"Name: {R.requester}", font=body, fill=20)
    d.text((60, y + 75), "Signature:", font=body, fill=20)
    d.text((200, y + 66), "L. Fischer", font=font("DejaVuSerif-Italic.ttf", 32), fill=15)
    s = date.fromisoformat(R.signed_requester)
    d.text((520, y + 75), f"Date: {s:%d/%m/%Y}", font=body, fill=20)
    y += 150
    d.text((60, y), "2. Authorised signatory of the recipient institution", font=bold, fill=20)
    d.text((60, y + 40), "Name and title:", font=body, fill=20)
    d.text((60, y + 75), "Signature:", font=body, fill=20)
    d.text((520, y + 75), "Date:", font=body, fill=20)
    if countersigned:
        c = date.fromisoformat(R.signed_institution)
        d.text((230, y + 34), R.signatory, font=hand, fill=10)
        d.text((200, y + 66), "H. Wendt", font=font("DejaVuSerif-Italic.ttf", 32), fill=15)
        d.text((580, y + 75), f"{c:%d/%m/%Y}", font=body, fill=20)
        d.ellipse((560, y + 120, 760, y + 220), outline=100, width=4)
        d.text((585, y + 155), "UNIV. MITTELFELD", font=font("DejaVuSans-Bold.ttf", 16), fill=100)
    else:
        for dy in (62, 97):
            d.line((220 if dy == 62 else 180, y + dy, 500, y + dy), fill=90, width=1)
    rnd = random.Random(912 + countersigned)
    for _ in range(2200):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(0.5 if countersigned else -0.7, resample=Image.BICUBIC, expand=False, fillcolor=232)
    page = page.filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=60, optimize=True)
    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    pdf.setTitle("scan")
    aw, ah = A4
    pdf.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    pdf.save()


VOICE = (
    "Kwame, it's Miriam Holt, Tuesday morning. About the Fischer request, D A R oh nine one two. Dr Fischer sent "
    "the justification for parity, and the committee agreed it by email yesterday, so parity is now approved for "
    "that release as well. Nothing else changes: still no postcode and no date of birth. Thanks."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "50", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/data", "day1/dac", "day2/voice_notes"):
        (HERE / sub).mkdir(parents=True)
    cohort(HERE / "day1/data/cohort_master.csv")
    minutes(HERE / "day1/dac/DAC_minutes_2026-02-26.pdf")
    dua_scan(HERE / "day1/DUA-0912_signed.pdf", countersigned=False)
    dua_scan(HERE / "day2/DUA-0912_countersigned.pdf", countersigned=True)
    voice_note(HERE / "day2/voice_notes/dac_chair_2026-03-10_0745.mp3")


if __name__ == "__main__":
    main()
