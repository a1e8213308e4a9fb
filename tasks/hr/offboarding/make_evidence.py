"""Regenerate the offboarding task's evidence deterministically (the outputs are committed).

    python tasks/hr/offboarding/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the photo of the signed equipment loan form: pixels, no text layer), espeak-ng + ffmpeg
(Legal's voicemail, 16 kHz mono MP3).

- day1/legal/OFF-0091_Legal_approval.pdf     text PDF: approval, the meeting's date and time, PILON
- day1/files/Contract_AG-5521.pdf            text PDF: salary, notice period, holiday entitlement
- day2/it/IMG_loan_form_AG-5521.jpg          photo: asset tags, where each item is, one returned (struck)
- day3/legal/Helena_Brandt_voicemail.mp3     spoken: an ex gratia payment of 2,000 as its own line
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
C, K = F.case, F.contract
FONTS = Path("/usr/share/fonts/truetype/dejavu")
LOCATION = {"in meeting": "with employee", "courier": "home office"}


def document(path: Path, title: str, head: list[str], body: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, head[0])
    c.setFont("Helvetica", 9)
    for i, line in enumerate(head[1:]):
        c.drawString(60, 775 - 12 * i, line)
    y = 735
    for line in body:
        if line.startswith("## "):
            y -= 4
            c.setFont("Helvetica-Bold", 11)
            c.drawString(60, y, line[3:])
        else:
            c.setFont("Helvetica", 10)
            c.drawString(60, y, line)
        y -= 15
    c.save()


def approval(path: Path) -> None:
    day = date.fromisoformat(C.approved_date)
    document(path, "Legal approval OFF-0091", ["Ashgrove Logistics Ltd - Legal", "PRIVILEGED AND CONFIDENTIAL - employment counsel"], [
        "Date: 13 April 2026        To: HR Operations (D. Achebe), HR Business Partner (R. Mbeki)",
        "",
        f"## Approval to proceed - {C.employee} ({C.employee_id}), case {C.id}",
        "Ground: capability. The performance improvement plan (January - March 2026) was not met; the",
        "process followed the capability policy and the final review was held on 9 April 2026.",
        "",
        "## The meeting",
        f"Date: {day:%A %d %B %Y}        Time: {C.meeting_time} (UK)",
        "Present: the line manager (C. Harrity) and the HR business partner (R. Mbeki).",
        "The employee may be accompanied by a trade union representative or colleague.",
        "",
        "## Terms",
        "Termination with immediate effect on the meeting date. Contractual notice is paid in lieu (PILON).",
        "Final pay per the runbook. No garden leave.",
        "",
        "## Until the meeting",
        "Strictly confidential. The employee must not be told, or given any hint, before the meeting.",
        "Access is revoked at the start of the meeting, not before.",
        "",
        "H. Brandt, Employment Counsel",
    ])  # fmt: skip


def contract(path: Path) -> None:
    document(path, "Contract of employment AG-5521", ["Ashgrove Logistics Ltd", "Statement of main terms of employment"], [
        f"Employee: {C.employee}        Employee no.: {C.employee_id}",
        "Job title: Senior Account Manager        Start of continuous employment: 3 March 2020",
        "",
        "## Pay",
        f"Basic salary: GBP {K.annual_salary:,} a year, paid monthly in arrears on the last working day.",
        "",
        "## Holidays",
        f"{K.holiday_days} working days a year plus bank holidays. The leave year runs from 1 January to 31 December.",
        "On termination, accrued untaken holiday is paid at 1/260 of the annual salary per day.",
        "",
        "## Notice",
        f"After the probation period, {K.notice_months} month's notice by either party. The company may pay",
        "basic salary in lieu of all or part of the notice period.",
        "",
        "Signed: G. Strickland, 28 February 2020        For the company: HR Director",
    ])  # fmt: skip


def loan_form(path: Path) -> None:
    w, h = 820, 900
    paper = Image.new("RGB", (w, h), (248, 247, 240))
    d = ImageDraw.Draw(paper)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 24)
    reg = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 17)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSansCondensed-Oblique.ttf"), 21)
    ink = (25, 35, 120)
    d.text((40, 30), "ASHGROVE LOGISTICS - IT EQUIPMENT LOAN FORM", font=bold, fill=(20, 20, 20))
    d.text((40, 72), f"Employee: {C.employee}     No.: {C.employee_id}", font=reg, fill=(30, 30, 30))
    cols = (40, 200, 470, 660)
    y = 120
    for x, head in zip(cols, ("Asset tag", "Item", "Location", "Issued")):
        d.text((x, y), head, font=ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 17), fill=(20, 20, 20))
    d.line((36, y + 28, w - 36, y + 28), fill=(60, 60, 60), width=2)
    rows = [(tag, item, LOCATION[method]) for tag, item, method in F.equipment.loaned]
    rows.insert(2, (F.equipment.returned, "Mobile phone (old)", "with employee"))
    issued = ["03/2020", "11/2024", "03/2020", "03/2020", "06/2022", "06/2022", "06/2022"]
    y += 44
    for (tag, item, where), when in zip(rows, issued):
        for x, text in zip(cols, (tag, item, where, when)):
            d.text((x, y), text, font=hand, fill=ink)
        if tag == F.equipment.returned:
            d.line((36, y + 13, w - 60, y + 11), fill=(200, 30, 30), width=3)
            d.text((470, y + 30), "returned 02/2026 - YD", font=ImageFont.truetype(str(FONTS / "DejaVuSansCondensed-Oblique.ttf"), 16), fill=(200, 30, 30))  # fmt: skip
            y += 24
        d.line((36, y + 36, w - 36, y + 36), fill=(200, 200, 200), width=1)
        y += 50
    y += 30
    d.text(
        (40, y),
        "I confirm I have received the equipment above and will return it on request.",
        font=reg,
        fill=(30, 30, 30),
    )
    d.text((40, y + 50), "Signed:", font=reg, fill=(30, 30, 30))
    d.text(
        (130, y + 40),
        "G. Strickland",
        font=ImageFont.truetype(str(FONTS / "DejaVuSansCondensed-Oblique.ttf"), 30),
        fill=ink,
    )
    rnd = random.Random(5521)
    photo = Image.new("RGB", (940, 1020), (140, 132, 120))
    photo.paste(paper.rotate(1.9, resample=Image.BICUBIC, expand=True, fillcolor=(140, 132, 120)), (40, 40))
    px = photo.load()
    for _ in range(9000):
        x, yy = rnd.randrange(photo.width), rnd.randrange(photo.height)
        r, g, b = px[x, yy]
        n = rnd.randrange(-18, 19)
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    photo.filter(ImageFilter.GaussianBlur(0.7)).save(path, format="JPEG", quality=60, optimize=True)


def voicemail(path: Path) -> None:
    text = (
        "Hi Dominic, it's Helena from Legal, about Gavin Strickland. We've agreed with his union "
        "representative that, subject to him signing the settlement agreement, he will receive an ex gratia "
        "payment of two thousand pounds on top of his contractual pay. Please put it into the final pay as a "
        "separate line, and in the letter. Everything else stays as in my approval memo. Thanks, bye."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "58", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/legal", "day1/files", "day2/it", "day3/legal"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    approval(HERE / "day1/legal/OFF-0091_Legal_approval.pdf")
    contract(HERE / "day1/files/Contract_AG-5521.pdf")
    loan_form(HERE / "day2/it/IMG_loan_form_AG-5521.jpg")
    voicemail(HERE / "day3/legal/Helena_Brandt_voicemail.mp3")


if __name__ == "__main__":
    main()
