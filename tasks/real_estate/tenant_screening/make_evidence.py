"""Regenerate the tenant-screening task's evidence deterministically (the outputs are committed).

    python tasks/real_estate/tenant_screening/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs), Pillow
(the phone photo of a pay stub, no text layer), espeak-ng + ffmpeg (the applicant's voicemail, 16 kHz mono MP3).

- day1/Gonzalez_paystub.jpg          photo of Maria's pay stub: biweekly gross (her income is only here)
- day1/Gonzalez_voucher_letter.pdf   text PDF: the housing authority's voucher letter (tenant portion)
- day2/Gonzalez_provider_letter.pdf  text PDF: the provider's letter supporting an assistance animal
- day3/voicemail_gonzalez_2026-04-15.mp3  Maria withdraws her application
"""

from __future__ import annotations

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
M = F.applicants.maria

VOICEMAIL = (
    "Hi Jordan, this is Maria Gonzalez, I applied for apartment four B at the Linden. I'm so sorry, but my company "
    "is transferring me to Denver at the end of the month, so I have to withdraw my application. Please cancel "
    "Thursday's lease signing too, and give the apartment to someone else. Thank you for everything."
)


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


def voucher_letter(path: Path) -> None:
    text_pdf(path, "Housing Choice Voucher - rent determination", [
        "# Home Forward - Housing Choice Voucher Program",
        "135 SW Ash St, Portland OR 97204",
        "",
        "Date: April 8, 2026",
        f"Voucher holder: {M.name}        Voucher no. HCV-2026-07781",
        "Bedroom size: 2        Voucher issued: 03/30/2026, expires 05/29/2026",
        "",
        f"Rent determination for: The Linden, unit {F.unit.id}, contract rent ${F.unit.rent:,.2f} a month",
        f"   Housing assistance payment (paid by Home Forward to the owner):  ${F.unit.rent - M.tenant_portion:,.2f}",
        f"   Tenant portion (paid by the family to the owner):                   ${M.tenant_portion:,.2f}",
        "",
        "This determination is subject to a passed inspection and an executed HAP contract.",
        "Questions: your housing specialist, Dana Whitlock, (503) 555-0136.",
    ])  # fmt: skip


def provider_letter(path: Path) -> None:
    text_pdf(path, "Letter - assistance animal", [
        "# Cascade Counseling Associates",
        "2210 NE Broadway, Portland OR 97232",
        "",
        "April 13, 2026",
        "",
        "To whom it may concern,",
        "",
        f"{M.name} has been under my care since 2024. She has a disability, and her dog, Pepper, a",
        "six-year-old beagle mix, provides support that alleviates symptoms of that disability.",
        "I recommend that she be allowed to keep her assistance animal in her home.",
        "",
        "Sincerely,",
        "Hannah Okoro, LCSW (Oregon licence L7042)",
    ])  # fmt: skip


def paystub_photo(path: Path) -> None:
    """A pay stub photographed on a kitchen table: the gross and the pay frequency only in pixels."""
    rnd = random.Random(412)
    w, h = 720, 560
    img = Image.new("RGB", (w, h), (176, 140, 98))
    paper = Image.new("RGB", (620, 470), (250, 250, 246))
    d = ImageDraw.Draw(paper)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 19)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 15)
    d.text((20, 18), "RIVERBEND MEDICAL GROUP - EARNINGS STATEMENT", font=bold, fill=(25, 25, 25))
    d.text((20, 50), f"Employee: {M.name.upper()}      Emp. no. 20417", font=mid, fill=(40, 40, 40))
    d.text((20, 74), "Position: Medical assistant      Pay frequency: BIWEEKLY", font=mid, fill=(40, 40, 40))
    d.text((20, 98), "Pay period: 03/23/2026 - 04/05/2026     Pay date: 04/10/2026", font=mid, fill=(40, 40, 40))
    d.line((20, 130, 600, 130), fill=(120, 120, 120), width=2)
    rows = [
        ("EARNINGS", "HOURS", "THIS PERIOD", "YTD"),
        ("Regular", "80.00", M.biweekly, "16,100.00"),
        ("GROSS PAY", "", M.biweekly, "16,100.00"),
        ("Federal tax", "", "-211.40", "-1,479.80"),
        ("OR state tax", "", "-160.35", "-1,122.45"),
        ("FICA", "", "-175.95", "-1,231.65"),
        ("NET PAY", "", "1,752.30", "12,266.10"),
    ]
    y = 145
    for label, hours, period, ytd in rows:
        f = bold if label in ("EARNINGS", "GROSS PAY", "NET PAY") else mono
        d.text((20, y), label, font=f, fill=(20, 20, 20))
        d.text((220, y), hours, font=mono, fill=(20, 20, 20))
        d.text(
            (330, y),
            f"{float(period.replace(',', '')):,.2f}" if period[0] in "-0123456789" else period,
            font=f,
            fill=(20, 20, 20),
        )
        d.text((480, y), ytd, font=f, fill=(20, 20, 20))
        y += 34
    d.text((20, 420), "Direct deposit: ****4471", font=mid, fill=(70, 70, 70))
    paper = paper.rotate(-3, resample=Image.BICUBIC, expand=True, fillcolor=(176, 140, 98))
    img.paste(paper, (30, 20))
    px = img.load()
    for _ in range(4000):
        x, y = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, y]
        k = rnd.randrange(-16, 16)
        px[x, y] = (max(0, min(255, r + k)), max(0, min(255, g + k)), max(0, min(255, b + k)))
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=70, optimize=True)


def voicemail(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us+f2", "-s", "160", "-p", "55", "-w", str(wav), VOICEMAIL], check=True)
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
    paystub_photo(HERE / "day1/Gonzalez_paystub.jpg")
    voucher_letter(HERE / "day1/Gonzalez_voucher_letter.pdf")
    provider_letter(HERE / "day2/Gonzalez_provider_letter.pdf")
    voicemail(HERE / "day3/voicemail_gonzalez_2026-04-15.mp3")


if __name__ == "__main__":
    main()
