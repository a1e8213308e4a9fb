"""Regenerate the life-claim task's evidence deterministically (the outputs are committed).

    python tasks/insurance/life_claim/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs, and the
wrapper of the scanned certificate), Pillow (the scanned death certificate and the phone photo of the
assignment form, no text layer), espeak-ng + ffmpeg (the reviewer's voice memo, 16 kHz mono MP3).

- day1/claim_packet/Kessler_claimant_statement.pdf  text PDF: Martha's claimant statement (no cause of death)
- day1/claim_packet/Kessler_death_certificate.pdf   image-only PDF: date, cause (part I), contributing
  conditions (part II), manner, and the tobacco box ticked "Yes"
- day3/Kessler_APS_Dr_Patel.pdf                      text PDF: the attending physician's statement
- day3/assignment_form.jpg                            phone photo: the funeral home's assignment, amount
  and signatures (Martha signed; the second beneficiary line is blank)
- day4/rahman_2026-03-19_memo.mp3                     the unit's decision and the payment date
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
CLAIM, B = F.claim, F.beneficiaries

MEMO = (
    "Claire, it's Aisha Rahman from the contestable claims unit, about the Kessler claim, C L 2026 0 3 1 1. "
    "I have finished the contestable review. There is no material misrepresentation. He quit smoking in June "
    "twenty nineteen, more than twelve months before the application, and the C O P D was diagnosed in November "
    "twenty twenty five, after the policy was issued. So the review is cleared as of today, and the claim can "
    "be paid. Payments will release on Friday, the twentieth of March, so use that as the payment date for the "
    "interest. Thanks."
)


def text_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 740
    for line in lines:
        if line.startswith("# "):
            c.setFont("Helvetica-Bold", 13)
            line = line[2:]
        else:
            c.setFont("Helvetica", 10.5)
        c.drawString(60, y, line)
        y -= 16
    c.save()


def claimant_statement(path: Path) -> None:
    text_pdf(path, "Claimant statement - Robert Kessler", [
        "# Harborview Life Assurance - Claimant's Statement (death claim)",
        "",
        f"Policy number: {CLAIM.policy}",
        f"Insured: {CLAIM.insured}, born 19 July 1961",
        "Date of death: March 2, 2026        Place of death: Hartford Hospital, Hartford CT",
        "",
        f"Claimant: {B.martha.name}    Relationship to the insured: {B.martha.relationship}",
        "Address: 27 Linden Terrace, West Hartford CT 06107",
        f"Email: {B.martha.email}    Phone: (860) 555-0178",
        "",
        "Other people who may have an interest in the proceeds: my husband's daughter, Emily Kessler.",
        "Payment method requested: check mailed to the address above.",
        "",
        "I certify that the information above is true to the best of my knowledge.",
        "",
        f"Signed: {B.martha.name}        Date: March 12, 2026",
        "",
        "Enclosed: certified copy of the certificate of death.",
    ])  # fmt: skip


def aps(path: Path) -> None:
    text_pdf(path, "Attending physician statement - Kessler", [
        "# Attending Physician Statement",
        "Riverside Family Practice, 410 Farmington Ave, Hartford CT 06105",
        "",
        f"Patient: {CLAIM.insured}    DOB 07/19/1961    Chart no. {CLAIM.aps_chart}",
        "Requested by: Harborview Life Assurance, Contestable Claims Unit (A. Rahman)",
        "Records reviewed: 2017 to 2026",
        "",
        "Tobacco: former smoker, about 20 pack-years. Quit in June 2019 (nicotine patch course);",
        "   documented as non-smoker at the annual visits of 2021, 2023 and 2025.",
        "Respiratory: no respiratory diagnosis before 2025. Spirometry on 11/04/2025:",
        "   FEV1/FVC 0.62, COPD GOLD 2 diagnosed on that date; inhaler started.",
        "Cardiac: no cardiac diagnosis or cardiac medication on record. Lipids treated since 2020.",
        "",
        "Last visit: 02/17/2026 (COPD review, stable).",
        "",
        "Signed: Anil Patel, MD        Date: 03/17/2026",
    ])  # fmt: skip


def death_certificate(path: Path) -> None:
    """A certified copy, photocopied and scanned: a grey raster page, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 246)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSerif-Bold.ttf"), 24)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 16)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 13)
    typed = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 18)
    d.text((200, 40), "STATE OF CONNECTICUT", font=bold, fill=20)
    d.text((235, 74), "CERTIFICATE OF DEATH", font=bold, fill=20)
    d.text((300, 108), "Department of Public Health", font=small, fill=50)
    fields = [
        ("1. Decedent's legal name", CLAIM.insured.upper()),
        ("2. Sex / 3. Date of birth", "M        07/19/1961"),
        ("4. Date of death", "03/02/2026"),
        ("5. Place of death", "Hartford Hospital, Hartford CT (inpatient)"),
        ("6. Marital status / spouse", f"Married - {B.martha.name.upper()}"),
        ("7. Informant", f"{B.martha.name}, spouse"),
    ]
    y = 150
    for label, value in fields:
        d.rectangle((50, y, 800, y + 52), outline=90)
        d.text((58, y + 4), label, font=small, fill=60)
        d.text((70, y + 24), value, font=typed, fill=10)
        y += 52
    y += 16
    d.text((58, y), "PART I. Chain of events leading directly to death", font=mid, fill=30)
    y += 28
    d.rectangle((50, y, 800, y + 44), outline=90)
    d.text((58, y + 4), "a. Immediate cause", font=small, fill=60)
    d.text((230, y + 14), CLAIM.cause.upper(), font=typed, fill=10)
    y += 44
    d.rectangle((50, y, 800, y + 44), outline=90)
    d.text((58, y + 4), "b. Due to", font=small, fill=60)
    d.text((230, y + 14), "CORONARY ARTERY DISEASE", font=typed, fill=10)
    y += 60
    d.text((58, y), "PART II. Other significant conditions contributing to death", font=mid, fill=30)
    y += 26
    d.rectangle((50, y, 800, y + 40), outline=90)
    d.text((70, y + 10), CLAIM.contributing.upper(), font=typed, fill=10)
    y += 60
    d.text((58, y), "32. Manner of death:", font=mid, fill=30)
    for i, opt in enumerate(["Natural", "Accident", "Suicide", "Homicide", "Pending"]):
        x = 250 + i * 105
        d.rectangle((x, y + 2, x + 16, y + 18), outline=40, width=2)
        if opt == "Natural":
            d.line((x + 2, y + 4, x + 14, y + 16), fill=10, width=3)
            d.line((x + 14, y + 4, x + 2, y + 16), fill=10, width=3)
        d.text((x + 22, y), opt, font=mid, fill=30)
    y += 44
    d.text((58, y), "35. Did tobacco use contribute to death?", font=mid, fill=30)
    for i, opt in enumerate(["Yes", "No", "Probably", "Unknown"]):
        x = 420 + i * 95
        d.rectangle((x, y + 2, x + 16, y + 18), outline=40, width=2)
        if opt == "Yes":
            d.line((x + 2, y + 4, x + 14, y + 16), fill=10, width=3)
            d.line((x + 14, y + 4, x + 2, y + 16), fill=10, width=3)
        d.text((x + 22, y), opt, font=mid, fill=30)
    y += 60
    d.text(
        (58, y), "Certifier: R. Okafor, MD, Hartford Hospital        Date certified: 03/03/2026", font=small, fill=40
    )
    d.text(
        (58, y + 24),
        "CERTIFIED COPY - issued 03/09/2026 - Registrar of Vital Statistics, Hartford",
        font=small,
        fill=40,
    )
    rnd = random.Random(4471982)
    for _ in range(500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(-0.6, resample=Image.BICUBIC, expand=False, fillcolor=230)
    page = page.filter(ImageFilter.GaussianBlur(0.5)).resize((680, 880), Image.LANCZOS)
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=55, optimize=True)
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle("scan 0309")
    aw, ah = letter
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def assignment_photo(path: Path) -> None:
    """The funeral home's assignment form, photographed on a desk: amount and signatures only here."""
    w, h = 720, 900
    img = Image.new("RGB", (w, h), (96, 74, 52))  # the desk
    paper = Image.new("RGB", (620, 800), (247, 245, 238))
    d = ImageDraw.Draw(paper)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 20)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 22)
    d.text((30, 30), "GREENWAY FUNERAL HOME", font=bold, fill=(30, 30, 30))
    d.text((30, 60), "Assignment of Life Insurance Proceeds", font=mid, fill=(40, 40, 40))
    lines = [
        ("Insured (deceased)", CLAIM.insured),
        ("Insurance company", "Harborview Life Assurance"),
        ("Policy number", CLAIM.policy),
        ("Amount assigned", f"${float(F.funeral.assignment):,.2f}"),
    ]
    y = 110
    for label, value in lines:
        d.text((30, y), label, font=mid, fill=(60, 60, 60))
        d.line((230, y + 22, 590, y + 22), fill=(120, 120, 120))
        d.text((240, y - 2), value, font=hand, fill=(20, 30, 90))
        y += 52
    body = [
        "The undersigned beneficiary(ies) assign to Greenway Funeral",
        "Home the amount above from the proceeds of the policy, for",
        "funeral goods and services, and direct the insurer to pay it",
        "to Greenway Funeral Home.",
    ]
    for line in body:
        d.text((30, y), line, font=mid, fill=(50, 50, 50))
        y += 22
    y += 30
    for label, signed in (("Beneficiary 1", True), ("Beneficiary 2", False)):
        d.text((30, y), label, font=mid, fill=(60, 60, 60))
        d.line((160, y + 24, 420, y + 24), fill=(120, 120, 120))
        d.line((450, y + 24, 590, y + 24), fill=(120, 120, 120))
        if signed:
            d.text((170, y - 4), B.martha.name, font=hand, fill=(20, 30, 90))
            d.text((455, y - 2), "03/10/2026", font=hand, fill=(20, 30, 90))
        d.text((160, y + 28), "signature / printed name", font=mid, fill=(110, 110, 110))
        d.text((450, y + 28), "date", font=mid, fill=(110, 110, 110))
        y += 80
    d.text((30, 740), "Funeral director: P. Greenway    Lic. FD-2291", font=mid, fill=(70, 70, 70))
    paper = paper.rotate(2.5, resample=Image.BICUBIC, expand=True, fillcolor=(96, 74, 52))
    img.paste(paper, (30, 20))
    rnd = random.Random(12480)
    px = img.load()
    for _ in range(3000):
        x, y = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, y]
        k = rnd.randrange(-18, 18)
        px[x, y] = (max(0, min(255, r + k)), max(0, min(255, g + k)), max(0, min(255, b + k)))
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=70, optimize=True)


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "165", "-p", "45", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "16k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/claim_packet", "day3", "day4"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    claimant_statement(HERE / "day1/claim_packet/Kessler_claimant_statement.pdf")
    death_certificate(HERE / "day1/claim_packet/Kessler_death_certificate.pdf")
    aps(HERE / "day3/Kessler_APS_Dr_Patel.pdf")
    assignment_photo(HERE / "day3/assignment_form.jpg")
    voice_memo(HERE / "day4/rahman_2026-03-19_memo.mp3")


if __name__ == "__main__":
    main()
