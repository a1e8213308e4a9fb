"""Regenerate the global-mobility task's evidence deterministically (the outputs are committed).

    python tasks/hr/global_mobility/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the photo of the surveyor's handwritten quote: pixels, no text layer), espeak-ng + ffmpeg
(the VP's voice memo, 16 kHz mono MP3).

- day1/offer/Offer_Letter_MOB-0217.pdf              text PDF: the signed offer (salary + holiday allowance)
- day1/counsel/Vreeburg_HSM_requirements_2026.pdf   text PDF: the 2026 salary thresholds and the filing rule
- day2/mover/IMG_survey_quote.jpg                   photo: sea freight, air freight, insurance, dates
- day3/voice/Martin_Kaczmarek_MOB-0217.mp3          spoken: drop the air freight; 45 nights approved
- day4/counsel/IND_decision_MOB-0217.pdf            text PDF: the IND's approval and its date
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
C, Q = F.case, F.quote
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def eur(n: int) -> str:
    return f"EUR {n:,}"


def letter(path: Path, title: str, head: list[str], body: list[str]) -> None:
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


def offer(path: Path) -> None:
    letter(path, "Offer of employment - Eindhoven", ["Corvane Medical B.V.", "High Tech Campus 41, 5656 AE Eindhoven"], [
        "Date: 11 March 2026",
        f"To: Ms {C.employee}, employee no. {C.employee_id}",
        "",
        "## Offer of employment - Senior Quality Engineer, Eindhoven",
        "We are pleased to offer you the position of Senior Quality Engineer at Corvane Medical B.V.",
        "",
        f"Gross monthly salary:        {eur(C.salary_offer)}",
        f"Holiday allowance:           {C.holiday_allowance_pct}% of the gross annual salary, paid in May",
        "Working hours:               40 hours per week",
        "Start date:                  to be agreed, subject to the grant of a residence permit",
        "Contract:                    indefinite, Dutch law, probation 1 month",
        "",
        "This offer is conditional on the grant of a residence permit as a highly skilled migrant.",
        "",
        "Signed for Corvane Medical B.V.:  E. Varga, HR Business Partner",
        "Accepted:  P. Deshmukh, 13 March 2026",
    ])  # fmt: skip


def counsel_memo(path: Path) -> None:
    letter(path, "HSM requirements 2026", ["Vreeburg Immigration Advocaten", "Memo - Highly Skilled Migrant (kennismigrant) - requirements 2026"], [
        "For: Corvane Medical B.V. (recognised sponsor)      Re: Ms P. Deshmukh",
        "",
        "## 1. Salary criterion (2026)",
        "The gross monthly salary in the employment contract must be at least:",
        f"- aged 30 or over:            {eur(F.threshold.amount)}",
        "- under 30:                   EUR 4,357",
        "- after a Dutch master's / search year: EUR 3,122",
        "Holiday allowance and other allowances do not count towards the criterion.",
        "",
        "## 2. Documents",
        "Passport copy (all pages with stamps), signed employment contract, antecedents certificate.",
        "",
        "## 3. Filing",
        "We file the application with the IND on the employer's written go-ahead, stating the contract",
        "salary. Do not give the go-ahead while the contract salary is below the criterion: the IND refuses",
        "such applications and the refusal stays on the employee's record.",
        "The IND decides within 2 weeks for recognised sponsors. The employee may not work in the",
        "Netherlands before the IND's approval.",
    ])  # fmt: skip


def decision(path: Path) -> None:
    granted = date.fromisoformat(C.permit_granted)
    letter(path, "IND decision", ["Immigratie- en Naturalisatiedienst (IND)", "Decision on application - residence permit 'highly skilled migrant'"], [
        "Case number: 2603-4471-8812",
        f"Applicant: {C.employee}, born {date.fromisoformat(C.birth_date):%d-%m-%Y}, passport {C.passport}",
        "Sponsor: Corvane Medical B.V.",
        "",
        f"Decision date: {granted:%d-%m-%Y}",
        "",
        "The application has been APPROVED. The residence permit is valid from the decision date for the",
        "duration of the employment contract, up to a maximum of 5 years. The applicant may collect the",
        "residence document at the IND desk after arrival (appointment required).",
    ])  # fmt: skip


def quote_photo(path: Path) -> None:
    w, h = 760, 980
    sheet = Image.new("RGB", (w, h), (250, 250, 244))
    d = ImageDraw.Draw(sheet)
    for y in range(150, h, 34):
        d.line((30, y, w - 30, y), fill=(196, 214, 232), width=1)
    d.rectangle((0, 0, w, 110), fill=(232, 92, 30))
    d.text(
        (28, 22),
        "DutchMove Relocations",
        font=ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 34),
        fill=(255, 255, 255),
    )
    d.text(
        (30, 70),
        "Survey & quotation sheet",
        font=ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 20),
        fill=(255, 255, 255),
    )
    hand = ImageFont.truetype(str(FONTS / "DejaVuSansCondensed-Oblique.ttf"), 26)
    ink = (20, 30, 110)
    lines = [
        "Client: Deshmukh, Leeds LS6 -> Eindhoven",
        "Surveyed 16/3  volume approx 24 m3",
        "",
        f"Sea freight 20ft door-to-door       {Q.sea:,}",
        "  (incl. packing + customs)",
        f"Air freight 150 kg                  {Q.air:,}",
        f"Transit insurance 1.5% of {Q.declared_value:,}   {Q.insurance:,}",
        "",
        f"TOTAL EUR                          {Q.total:,}",
        "",
        f"Packing {Q.packing}   Loading {Q.loading}",
        "Delivery ETA 14/04 (sea)",
        "valid 30 days      surveyor: B. Smits",
    ]
    y = 128
    for line in lines:
        d.text((40, y), line, font=hand, fill=ink)
        y += 48
    d.line((380, 128 + 7 * 48 + 20, 600, 128 + 7 * 48 + 20), fill=ink, width=3)
    rnd = random.Random(217)
    photo = Image.new("RGB", (900, 1120), (70, 74, 80))
    photo.paste(sheet.rotate(-3.1, resample=Image.BICUBIC, expand=True, fillcolor=(70, 74, 80)), (40, 40))
    px = photo.load()
    for _ in range(10000):
        x, yy = rnd.randrange(photo.width), rnd.randrange(photo.height)
        r, g, b = px[x, yy]
        n = rnd.randrange(-20, 21)
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    photo.filter(ImageFilter.GaussianBlur(0.7)).save(path, format="JPEG", quality=60, optimize=True)


def memo(path: Path) -> None:
    text = (
        "Hi Thandiwe, Martin here, about Priyanka's relocation budget. On the shipment: I'm not going over "
        "the cap. Drop the air freight, she can bring the essentials in her luggage. The sea freight and the "
        "insurance are approved, that's eight thousand and fifty euros. On the temporary housing: given the "
        "school start, I approve the forty five nights at one hundred and thirty five euros a night, so six "
        "thousand and seventy five euros. Everything else as per policy. Thanks."
    )
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "38", "-w", str(wav), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/offer", "day1/counsel", "day2/mover", "day3/voice", "day4/counsel"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    offer(HERE / "day1/offer/Offer_Letter_MOB-0217.pdf")
    counsel_memo(HERE / "day1/counsel/Vreeburg_HSM_requirements_2026.pdf")
    quote_photo(HERE / "day2/mover/IMG_survey_quote.jpg")
    memo(HERE / "day3/voice/Martin_Kaczmarek_MOB-0217.mp3")
    decision(HERE / "day4/counsel/IND_decision_MOB-0217.pdf")


if __name__ == "__main__":
    main()
