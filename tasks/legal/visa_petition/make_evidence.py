"""Regenerate the visa-petition task's evidence deterministically (the outputs are committed).

    python tasks/legal/visa_petition/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the passport data
page and the degree certificate: JPEG scans, no text layer), reportlab (text PDFs: the employer's
letters, the attorney's signature page), espeak-ng + ffmpeg (the dictation, 16 kHz mono MP3).

- day1/intake/passport_mehta.jpg              passport number, date of birth, expiry exist only here
- day1/intake/degree_certificate_mehta.jpg    the degree and its year (2016) exist only here
- day1/intake/employer_letter_M-2291.pdf      text PDF: job title, salary; wrongly says 2017
- day3/intake/employer_letter_M-2291_rev2.pdf text PDF: the corrected letter
- day2/dictation/reyes_2026-04-07.mp3         the attorney's instructions: fee, review slot
- day4/signed/M-2291_attorney_signature_page.pdf  text PDF: the signature page
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
N, B, L = F.names, F.beneficiary, F.letter
FONTS = Path("/usr/share/fonts/truetype/dejavu")

DICTATION = (
    f"Nadia, it's Sam, about the Mehta petition, matter M 2 2 9 1. First, we'll request premium processing, "
    f"so the filing fee is {F.dictation.fee:,} dollars; put that on the checklist. Second, book me thirty minutes "
    "on Thursday at two p m to review the packet; I'll sign at the end of that review. Third, and this matters: "
    "nothing gets filed and nothing goes to the agency until I have signed. Thanks."
)


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def scan(img: Image.Image, path: Path, seed: int) -> None:
    """Scanner artefacts (speckle, slight skew, blur), seeded: the same bytes every run."""
    rnd = random.Random(seed)
    d = ImageDraw.Draw(img)
    for _ in range(900):
        d.point((rnd.randrange(img.width), rnd.randrange(img.height)), fill=rnd.randrange(120, 200))
    img = img.rotate(-0.6, resample=Image.BICUBIC, fillcolor=235).filter(ImageFilter.GaussianBlur(0.5))
    img.save(path, format="JPEG", quality=62, optimize=True)


def d_m_y(iso: str) -> str:
    return date.fromisoformat(iso).strftime("%d %b %Y").upper()


def passport(path: Path) -> None:
    w, h = 720, 480
    img = Image.new("L", (w, h), 232)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 46), fill=200)
    d.text((20, 12), "REPUBLIC OF UTOPIA  -  PASSPORT / PASSEPORT", font=font("DejaVuSans-Bold.ttf", 18), fill=30)
    d.rectangle((24, 70, 194, 290), fill=180, outline=90)
    d.ellipse((64, 100, 154, 190), fill=150)
    d.rectangle((54, 200, 164, 290), fill=150)
    small, val = font("DejaVuSans.ttf", 11), font("DejaVuSansMono-Bold.ttf", 16)
    surname, given = B.name.split()[-1].upper(), " ".join(B.name.split()[:-1]).upper()
    fields = [
        ("Type / Type", "P", "Code / Code", "UTO", "Passport No. / No. du passeport", B.passport),
        ("Surname / Nom", surname, None, None, None, None),
        ("Given names / Prenoms", given, None, None, None, None),
        ("Nationality / Nationalite", "UTOPIAN", "Sex / Sexe", "M", None, None),
        ("Date of birth / Date de naissance", d_m_y(B.dob), "Place of birth", "NORTH HARBOR", None, None),
        ("Date of issue / Date de delivrance", d_m_y("2021-02-12"), None, None, None, None),
        ("Date of expiry / Date d'expiration", d_m_y(B.expiry), "Authority", "MFA UTOPIA", None, None),
    ]
    y = 64
    for a, av, b, bv, c, cv in fields:
        d.text((220, y), a, font=small, fill=70)
        d.text((220, y + 13), av, font=val, fill=10)
        if b:
            d.text((400 if c else 470, y), b, font=small, fill=70)
            d.text((400 if c else 470, y + 13), bv, font=val, fill=10)
        if c:
            d.text((500, y), c, font=small, fill=70)
            d.text((500, y + 13), cv, font=val, fill=10)
        y += 36
    mono = font("DejaVuSansMono.ttf", 17)
    dob, exp = date.fromisoformat(B.dob).strftime("%y%m%d"), date.fromisoformat(B.expiry).strftime("%y%m%d")
    mrz1 = f"P<UTO{surname}<<{given.replace(' ', '<')}".ljust(44, "<")
    mrz2 = f"{B.passport}<4UTO{dob}2M{exp}7<<<<<<<<<<<<<<06"[:44]
    d.rectangle((0, 392, w, h), fill=245)
    d.text((20, 404), mrz1, font=mono, fill=20)
    d.text((20, 432), mrz2, font=mono, fill=20)
    scan(img, path, 4817)


def degree(path: Path) -> None:
    w, h = 760, 540
    img = Image.new("L", (w, h), 240)
    d = ImageDraw.Draw(img)
    d.rectangle((14, 14, w - 14, h - 14), outline=90, width=4)
    d.rectangle((24, 24, w - 24, h - 24), outline=140, width=1)

    def centre(y: int, text: str, f: ImageFont.FreeTypeFont, fill: int = 20) -> None:
        tw = d.textlength(text, font=f)
        d.text(((w - tw) / 2, y), text, font=f, fill=fill)

    centre(56, B.school.upper(), font("DejaVuSerif-Bold.ttf", 26))
    centre(110, "upon the recommendation of the Faculty of Engineering", font("DejaVuSerif-Italic.ttf", 15), 50)
    centre(140, "hereby confers upon", font("DejaVuSerif-Italic.ttf", 15), 50)
    centre(178, B.name, font("DejaVuSerif-Bold.ttf", 30))
    centre(236, "the degree of", font("DejaVuSerif-Italic.ttf", 15), 50)
    centre(268, B.degree, font("DejaVuSerif-Bold.ttf", 24))
    centre(318, "with all the rights and privileges thereto pertaining.", font("DejaVuSerif-Italic.ttf", 14), 50)
    centre(356, f"Given at Port Kestrel on the fourteenth day of June {B.degree_year}", font("DejaVuSerif.ttf", 16), 30)
    d.line((90, 460, 300, 460), fill=60)
    d.line((460, 460, 670, 460), fill=60)
    d.text((120, 468), "President", font=font("DejaVuSerif.ttf", 13), fill=50)
    d.text((500, 468), "Registrar", font=font("DejaVuSerif.ttf", 13), fill=50)
    d.text((320, 478), f"Reg. no. KIT-{B.degree_year}-08841", font=font("DejaVuSans.ttf", 10), fill=70)
    scan(img, path, 2016)


def employer_letter(path: Path, year: int, revision: str) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"Brightwave Robotics - support letter {F.matter.id}{revision}")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 730, "Brightwave Robotics, Inc.")
    c.setFont("Helvetica", 9)
    c.drawString(72, 716, "400 Foundry Street, Bridgeport, CT 06604")
    c.setFont("Helvetica", 10.5)
    lines = [
        f"April {3 if not revision else 8}, 2026{revision}",
        "",
        "Office of Skilled Worker Visas",
        "",
        f"Re: Petition for {B.name}, SW-1 skilled worker classification",
        "",
        f"Brightwave Robotics, Inc. offers {B.name} the full-time position of {L.title},",
        f"at an annual salary of ${L.salary:,}, starting October 1, 2026. The position requires at least",
        "a master's degree in mechatronics, robotics or a closely related field.",
        "",
        f"Mr. Mehta holds a {B.degree} from the {B.school}, awarded in {year}.",
        "He will design motion-control systems for our warehouse robotics line.",
        "",
        "Sincerely,",
        "",
        "Olivia Grant, HR Business Partner, for Brightwave Robotics, Inc.",
    ]
    y = 680
    for line in lines:
        c.drawString(72, y, line)
        y -= 16
    c.save()


def signature_page(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle(f"Attorney signature page {F.matter.id}")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(72, 720, f"SW-1 petition {F.matter.id} - attorney of record: signature page")
    c.setFont("Helvetica", 10.5)
    for i, line in enumerate([
        f"Petitioner: Brightwave Robotics, Inc.     Beneficiary: {B.name}",
        "I have reviewed this petition and the supporting documents and sign it as attorney of record.",
        "",
        "Signed: /s/ Samuel Reyes, Marlow & Quint LLP          Date: April 9, 2026",
    ]):  # fmt: skip
        c.drawString(72, 690 - 18 * i, line)
    c.save()


def dictation(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "d.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "35", "-w", str(wav), DICTATION], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/intake", "day2/dictation", "day3/intake", "day4/signed"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    passport(HERE / "day1" / N.passport)
    degree(HERE / "day1" / N.degree)
    employer_letter(HERE / "day1" / N.letter_v1, L.wrong_year, "")
    employer_letter(HERE / "day3" / N.letter_v2, B.degree_year, " (revision 2)")
    dictation(HERE / "day2" / N.dictation)
    signature_page(HERE / "day4" / N.signed)


if __name__ == "__main__":
    main()
