"""Regenerate the executive-travel task's evidence deterministically (the outputs are committed).

    python tasks/executive_assistant/executive_travel/make_evidence.py

Authoring-time tools only: reportlab (text PDFs), Pillow (the passport scan: pixels only, no text
layer), espeak-ng + ffmpeg (the hotel's voicemail, 16 kHz mono MP3).

- day1/passport/robert_tan_passport.jpg        scan: the data page (number, birth date, expiry)
- day1/itinerary/Skyline_TR-2291_options.pdf   text PDF: three fare options with codes and flights
- day3/voicemail/hotel_2026-04-22_0912.mp3     spoken: the Bay wing rate is gone on the 21st; the
  Harbour wing at 395 for all nights
- day4/eticket/eticket_618-2401937765.pdf      text PDF: the e-ticket (ticket number, fare)
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
P = F.passport
FONTS = Path("/usr/share/fonts/truetype/dejavu")

VOICEMAIL = (
    "Good morning, this is Priya from reservations at the Marina Bayview Hotel, calling for Ines Carvalho "
    f"about booking M B H, {' '.join(F.hotel.booking.split('-')[1])}, for Mister Robert Tan. I'm sorry, the Bay wing "
    f"corporate rate is no longer available for the night of the twenty first of May: that night would be "
    f"{F.hotel.peak_night_rate} Singapore dollars. Alternatively we can move Mister Tan to a Harbour wing room for "
    f"all four nights at {F.hotel.harbour_rate} Singapore dollars per night. Please let us know by email which "
    "you prefer. Thank you, goodbye."
)


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def passport(path: Path) -> None:
    """A flatbed scan of a passport data page: pixels only."""
    w, h = 900, 640
    img = Image.new("RGB", (w, h), (236, 236, 232))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((40, 40, 860, 600), radius=18, fill=(222, 214, 226), outline=(150, 140, 160), width=3)
    for y in range(60, 590, 14):  # guilloche-like background lines
        d.line((50, y, 850, y + 30), fill=(210, 200, 216), width=1)
    d.text(
        (70, 60), "UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND", font=font(18, bold=True), fill=(70, 40, 90)
    )
    d.text((70, 88), "PASSPORT    Type P    Code GBR", font=font(16), fill=(70, 50, 90))
    d.rectangle((70, 130, 260, 380), fill=(180, 170, 170), outline=(120, 110, 120))  # photo
    d.ellipse((120, 170, 210, 270), fill=(150, 130, 120))
    d.rectangle((105, 270, 225, 380), fill=(90, 90, 110))
    fields = [
        ("Passport No.", P.number),
        ("Surname", P.surname),
        ("Given names", P.given),
        ("Nationality", "BRITISH CITIZEN"),
        ("Date of birth", P.dob),
        ("Date of issue", P.issued),
        ("Date of expiry", P.expiry_printed),
        ("Authority", "HMPO"),
    ]
    for i, (label, value) in enumerate(fields):
        y = 125 + i * 38
        d.text((300, y), label, font=font(13), fill=(90, 70, 110))
        d.text((300, y + 15), value, font=font(19, bold=True), fill=(20, 15, 30))
    mrz1 = f"P<GBR{P.surname}<<{P.given.replace(' ', '<')}".ljust(44, "<")
    mrz2 = f"{P.number}<GBR7103145M2610027<<<<<<<<<<<<<<02"[:44].ljust(44, "<")
    d.text((70, 500), mrz1, font=font(21, mono=True), fill=(15, 15, 15))
    d.text((70, 535), mrz2, font=font(21, mono=True), fill=(15, 15, 15))
    rnd = random.Random(561294)
    for _ in range(4000):
        x, y = rnd.randrange(w), rnd.randrange(h)
        v = rnd.randrange(-20, 20)
        r, g, b = img.getpixel((x, y))
        img.putpixel((x, y), (max(0, min(255, r + v)), max(0, min(255, g + v)), max(0, min(255, b + v))))
    img = img.rotate(-1.2, resample=Image.BICUBIC, fillcolor=(240, 240, 238)).filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=70, optimize=True)


def _lines(c: canvas.Canvas, y: float, lines: list[str], size: float = 10.5, x: float = 60) -> float:
    c.setFont("Helvetica", size)
    for line in lines:
        c.drawString(x, y, line)
        y -= 15
    return y


def itinerary(path: Path) -> None:
    fa, fl = F.fares, F.flights
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Skyline Travel - {F.names.trip} options")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 790, "Skyline Travel - Corporate fare options")
    _lines(
        c,
        760,
        [
            f"Client: Norvale Energy plc   Traveller: Mr Robert Tan   Trip: {F.names.trip}",
            "Route: London Heathrow (LHR) - Singapore Changi (SIN) - London Heathrow, Singapore Airlines",
            "",
            f"Option A  fare code {fa.flex_code}   Business, fully flexible   GBP {fa.flex:,.2f} return",
            "   SQ317  Sun 17 May  LHR 20:40  ->  SIN Mon 18 May 17:05",
            "   SQ318  Sat 23 May  SIN 08:45  ->  LHR 15:20",
            "   Changes free of charge, fully refundable.",
            "",
            f"Option B  fare code {fa.premium_code}   Premium economy   GBP {fa.premium:,.2f} return",
            f"   {fl.out}  Sun 17 May  LHR 11:25  ->  SIN Mon 18 May 07:50",
            f"   {fl.back}  Fri 22 May  SIN 23:55  ->  LHR Sat 23 May 06:25",
            "",
            f"Option C  fare code {fa.saver_code}   Business saver   GBP {fa.saver:,.2f} return",
            f"   {fl.out}  Sun 17 May  LHR 11:25  ->  SIN Mon 18 May 07:50",
            f"   {fl.back}  Fri 22 May  SIN 23:55  ->  LHR Sat 23 May 06:25",
            "   Changes GBP 250 plus any fare difference; non-refundable.",
            "",
            "All times local. Fares include taxes and are guaranteed until Friday 24 April.",
            "To ticket: reply in the e-mail thread with the fare code.",
        ],
    )
    c.save()


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "55", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def eticket(path: Path) -> None:
    fl = F.flights
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"E-ticket {F.ticket.number}")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 790, "Singapore Airlines - Electronic ticket receipt")
    _lines(
        c,
        760,
        [
            "Passenger: TAN/ROBERT WEI MR",
            f"Ticket number: {F.ticket.number}      Issued by: Skyline Travel, London      Date: 23 APR 2026",
            f"Fare basis: {F.fares.saver_code}      Fare: GBP {F.fares.saver:,.2f} (taxes included)",
            "",
            f"{fl.out}  17MAY  LHR 11:25  SIN 07:50+1   Business  Confirmed",
            f"{fl.back}  22MAY  SIN 23:55  LHR 06:25+1   Business  Confirmed",
            "",
            "Changes GBP 250 plus fare difference. Non-refundable.",
        ],
    )
    c.save()


def main() -> None:
    for sub in ("day1/passport", "day1/itinerary", "day3/voicemail", "day4/eticket"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    passport(HERE / F.names.passport_scan)
    itinerary(HERE / F.names.itinerary_pdf)
    voicemail(HERE / F.names.voicemail)
    eticket(HERE / F.names.eticket_pdf)


if __name__ == "__main__":
    main()
