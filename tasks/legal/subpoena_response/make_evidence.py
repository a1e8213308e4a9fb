"""Regenerate the subpoena task's evidence deterministically (the outputs are committed).

    python tasks/legal/subpoena_response/make_evidence.py

Authoring-time tools only: Pillow (the photographed subpoena, pixels only), reportlab (the cover
letter, a text PDF), espeak-ng + ffmpeg (the issuing counsel's voicemail, 16 kHz mono MP3).

- day1/service/subpoena_photo.jpg         photo: return date 10/30/2026 10:00 a.m., period 1/1/2024-3/31/2025, requests
- day1/service/Calloway_cover_letter.pdf  text PDF: the cover letter (no dates or period: "see Schedule A")
- day2/voicemail/jblake_2026-10-12_1630.mp3  the agreement: custodians Park and Osei only, production on 6 November
- day3/collection/SUB-2026-014_index.csv  the collection index (doc_id, custodian, date, type, author, recipients, subject)
"""

from __future__ import annotations

import csv
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
S = F.subpoena
FONTS = Path("/usr/share/fonts/truetype/dejavu")

VOICEMAIL = (
    "Hi Rafael, this is Jordan Blake at Calloway and Reyes, about our subpoena to Harlow Biotech in Meridian versus "
    "Castell. Following Naomi's call yesterday, we agree to limit the custodians to two people, Lena Park and Marcus "
    "Osei; we no longer need anything from your Q A team. And we will extend the production date to Friday, "
    "November sixth, same time, ten a m. Please confirm that by email. Thanks."
)

NAOMI = "naomi.feld@harlowbio.example"
PARK = "lena.park@harlowbio.example"
OSEI = "marcus.osei@harlowbio.example"
CASTELL = "ops@castell-labs.example"
INDEX = [
    ("HB-0001", "Lena Park", "2023-11-14", "email", PARK, CASTELL, "HX-40 pricing for 2024"),
    ("HB-0002", "Lena Park", "2024-02-06", "email", PARK, CASTELL, "HX-40 lot 24-017 shipment"),
    ("HB-0003", "Lena Park", "2024-05-21", "email", PARK, NAOMI, F.review.privileged_subjects[0]),
    ("HB-0004", "Marcus Osei", "2024-06-03", "email", OSEI, CASTELL, "HX-40 deviation report lot 24-031"),
    ("HB-0005", "Marcus Osei", "2024-06-04", "email", OSEI, f"{NAOMI}; {PARK}", F.review.privileged_subjects[1]),
    ("HB-0006", "Marcus Osei", "2024-09-12", "spreadsheet", OSEI, "", "Castell account forecast Q4 2024"),
    ("HB-0007", "Lena Park", "2024-11-28", "memo", "i.novak@stroudhale.example", f"{NAOMI}; {PARK}", F.review.privileged_subjects[2]),
    ("HB-0008", "Lena Park", "2025-01-15", "email", PARK, CASTELL, "HX-40 Q1 2025 allocation"),
    ("HB-0009", "Marcus Osei", "2025-03-30", "email", OSEI, CASTELL, "Lot 25-004 certificate of analysis"),
    ("HB-0010", "Marcus Osei", "2025-04-02", "email", OSEI, CASTELL, "HX-40 April 2025 order"),
]  # fmt: skip


def font(size: int, *, bold: bool = False, serif: bool = True) -> ImageFont.FreeTypeFont:
    if serif:
        name = "DejaVuSerif-Bold.ttf" if bold else "DejaVuSerif.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def us(day: str) -> str:
    d = date.fromisoformat(day)
    return f"{d.month}/{d.day}/{d.year}"


def subpoena_photo(path: Path) -> None:
    w, h = 900, 1160
    page = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(page)
    centre = [
        (40, "UNITED STATES DISTRICT COURT", font(26, bold=True)),
        (76, "for the District of Delaware", font(20)),
        (120, "Meridian Pharma Inc. v. Castell Labs LLC", font(20, bold=True)),
        (150, "Civil Action No. 1:26-cv-00871", font(18)),
        (196, "SUBPOENA TO PRODUCE DOCUMENTS, INFORMATION, OR OBJECTS", font(19, bold=True)),
        (222, "IN A CIVIL ACTION", font(19, bold=True)),
    ]
    for y, text, f in centre:
        d.text(((w - d.textlength(text, font=f)) / 2, y), text, font=f, fill=20)
    y = 270
    body = [
        "To: Harlow Biotech Inc., 400 Quarry Road, Newark, DE 19711",
        "",
        "YOU ARE COMMANDED to produce at the time, date, and place set forth below the",
        "documents described in Schedule A, and to permit inspection and copying.",
    ]
    for line in body:
        d.text((60, y), line, font=font(17), fill=25)
        y += 28
    y += 10
    d.rectangle((60, y, w - 60, y + 70), outline=40, width=2)
    d.line((560, y, 560, y + 70), fill=40, width=2)
    d.text((72, y + 8), "Place: Calloway & Reyes LLP, 1200 Market St.,", font=font(16), fill=20)
    d.text((72, y + 36), "Wilmington, DE 19801", font=font(16), fill=20)
    d.text((572, y + 8), "Date and Time:", font=font(16), fill=20)
    d.text((572, y + 36), f"{us(S.return_date)} 10:00 a.m.", font=font(18, bold=True), fill=10)
    y += 110
    d.text((60, y), "SCHEDULE A", font=font(19, bold=True), fill=20)
    y += 36
    sched = [
        f"Time period: unless stated otherwise, {us(S.period_start)} through {us(S.period_end)}.",
        "1. All communications between Harlow Biotech and Castell Labs concerning",
        "   reagent HX-40 (orders, shipments, pricing, allocation).",
        "2. All documents concerning quality deviations of HX-40 lots shipped to Castell.",
        "3. All documents of employees responsible for the Castell Labs account.",
    ]
    for line in sched:
        d.text((60, y), line, font=font(16), fill=25)
        y += 30
    d.text(
        (60, 1040),
        "Date: 10/02/2026     Attorney for Plaintiff: Jordan Blake, Calloway & Reyes LLP",
        font=font(14),
        fill=40,
    )
    rnd = random.Random(2614)
    for _ in range(2600):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(150, 215))
    photo = Image.new("L", (w + 120, h + 120), 70)
    photo.paste(page.rotate(2.2, resample=Image.BICUBIC, expand=False, fillcolor=70), (60, 60))
    photo = photo.filter(ImageFilter.GaussianBlur(0.8)).resize(((w + 120) * 3 // 4, (h + 120) * 3 // 4))
    photo.save(path, format="JPEG", quality=70, optimize=True)


def cover_letter(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("Calloway & Reyes - subpoena cover letter")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 740, "Calloway & Reyes LLP")
    c.setFont("Helvetica", 10.5)
    y = 710
    for line in [
        "1200 Market Street, Wilmington, DE 19801",
        "",
        "Harlow Biotech Inc., Legal Department",
        "",
        "Re: Meridian Pharma Inc. v. Castell Labs LLC, C.A. No. 1:26-cv-00871 (D. Del.)",
        "",
        "Dear Sir or Madam,",
        "",
        "Enclosed please find a subpoena to produce documents served on Harlow Biotech Inc. in the",
        "above action. Harlow is not a party. The requests, the relevant time period and the date for",
        "production are set out in the subpoena and its Schedule A.",
        "",
        "We are willing to discuss the scope of the requests and a reasonable schedule. Please",
        "contact the undersigned.",
        "",
        "Sincerely,",
        "Jordan Blake",
    ]:
        c.drawString(60, y, line)
        y -= 15
    c.save()


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "165", "-p", "40", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def index(path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["doc_id", "custodian", "date", "type", "author", "recipients", "subject"])
        w.writerows(INDEX)


def main() -> None:
    for sub in ("day1/service", "day2/voicemail", "day3/collection"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    subpoena_photo(HERE / "day1/service/subpoena_photo.jpg")
    cover_letter(HERE / "day1/service/Calloway_cover_letter.pdf")
    voicemail(HERE / "day2/voicemail/jblake_2026-10-12_1630.mp3")
    index(HERE / "day3/collection/SUB-2026-014_index.csv")


if __name__ == "__main__":
    main()
