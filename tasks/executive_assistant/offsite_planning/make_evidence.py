"""Regenerate the offsite-planning task's evidence deterministically (the outputs are committed).

    python tasks/executive_assistant/offsite_planning/make_evidence.py

Authoring-time tools only: reportlab (text PDFs), Pillow (the site-visit photo: pixels only, no
text layer), espeak-ng + ffmpeg (the CEO's voice memo, 16 kHz mono MP3).

- day1/quote/HL-Q-4471_quote.pdf        text PDF: the venue's two room options and their rates
- day1/site_visit/IMG_2231.jpg          photo: the Birch Room door sign (boardroom capacity 10)
- day3/voice_memos/daniel_2026-03-11_0805.mp3  spoken: approved, Oak Hall, but no private dinner
- day4/invoice/INV-HL-2291.pdf          text PDF: the deposit invoice (30% of the day-1 total)
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
Q = F.quote
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    "Hi Maya, it's Daniel, Wednesday morning, about the leadership offsite. I've seen the Q1 forecast "
    "and the venue budget is approved: go with the Oak Hall option at Harrowgate. One change: drop the "
    "private dinner at the Lodge. I'll take everyone to a restaurant in town on the Thursday evening "
    "and pay for that separately. So confirm the venue without the dinner, and raise the deposit with "
    "finance. Thanks."
)


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def _lines(c: canvas.Canvas, y: float, lines: list[str], size: float = 10.5, x: float = 60) -> float:
    c.setFont("Helvetica", size)
    for line in lines:
        c.drawString(x, y, line)
        y -= 15
    return y


def quote(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Quote {Q.number}")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 790, "Harrowgate Lodge - Meetings & Events")
    c.setFont("Helvetica", 9)
    c.drawString(60, 776, "Harrowgate Lane, Nether Wyke, North Yorkshire  -  events@harrowgate-lodge.example")
    y = _lines(
        c,
        740,
        [
            f"Quote {Q.number}                                   Date: 6 March 2026",
            "Client: Kestrel Analytics Ltd, attn. Maya Lindqvist (Chief of Staff)",
            "Event: Leadership offsite, Thursday 16 - Friday 17 April 2026 (2 days, 1 night)",
            "",
            "Meeting room options (one room for both days):",
        ],
    )
    y -= 6
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((70, "Option code"), (160, "Room"), (260, "Layouts"), (430, "Room hire per day")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for code, room, layouts, rate in (
        (Q.birch_code, "Birch Room", "recommended for groups up to 14", Q.birch_room_per_day),
        (Q.oak_code, "Oak Hall", "boardroom up to 20, theatre 60", Q.oak_room_per_day),
    ):
        y -= 16
        c.drawString(70, y, code)
        c.drawString(160, y, room)
        c.drawString(260, y, layouts)
        c.drawString(430, y, f"GBP {rate:,.2f}")
    y -= 28
    y = _lines(
        c,
        y,
        [
            "Included with either option (per person):",
            f"  Day delegate package (coffee, lunch, AV, water): GBP {Q.delegate_rate:.2f} per person per day",
            f"  Accommodation, single occupancy, bed & breakfast: GBP {Q.room_night:.2f} per room per night",
            f"  Private dinner in the Library (three courses, Thursday): GBP {Q.dinner_pp:.2f} per person",
            "",
            "All prices in GBP and include VAT.",
            "",
            "Our Events team recommends the Birch Room for your group: a quieter wing at a lower room rate.",
            "",
            "To confirm: reply to this quote's e-mail thread stating the option code and the total.",
            f"A deposit of {Q.deposit_percent}% of the venue total is invoiced on confirmation; the balance",
            "is invoiced after the event. Provisional holds are released after the date in our cover e-mail.",
            "",
            "Erin Walsh, Events Manager",
        ],
    )
    c.save()


def sign_photo(path: Path) -> None:
    """A phone photo of the brass-coloured door sign beside the Birch Room: pixels only."""
    w, h = 720, 540
    img = Image.new("RGB", (w, h), (214, 205, 188))  # painted wall
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 150, h), fill=(120, 84, 52))  # the door frame
    d.rectangle((20, 0, 140, h), fill=(146, 104, 66))
    d.ellipse((110, 260, 132, 282), fill=(200, 170, 90))  # door handle
    x0, y0 = 230, 90
    d.rounded_rectangle((x0 + 6, y0 + 8, x0 + 426, y0 + 348), radius=16, fill=(150, 140, 120))  # shadow
    d.rounded_rectangle((x0, y0, x0 + 420, y0 + 340), radius=16, fill=(196, 164, 86), outline=(120, 96, 40), width=5)
    d.text((x0 + 40, y0 + 24), "BIRCH ROOM", font=font(42, bold=True), fill=(40, 30, 10))
    d.line((x0 + 30, y0 + 84, x0 + 390, y0 + 84), fill=(90, 70, 30), width=3)
    d.text((x0 + 40, y0 + 100), "Maximum capacity", font=font(24), fill=(45, 35, 12))
    rows = [("Boardroom", F.sign.birch_boardroom), ("Theatre", F.sign.birch_theatre), ("Cabaret", 8)]
    for i, (layout, n) in enumerate(rows):
        d.text((x0 + 50, y0 + 150 + i * 44), layout, font=font(28), fill=(30, 22, 8))
        d.text((x0 + 300, y0 + 150 + i * 44), str(n), font=font(30, bold=True), fill=(30, 22, 8))
    d.text((x0 + 40, y0 + 296), "Fire Safety Order 2005", font=font(16), fill=(70, 55, 25))
    rnd = random.Random(2231)
    for _ in range(3000):
        x, y = rnd.randrange(w), rnd.randrange(h)
        v = rnd.randrange(-18, 18)
        r, g, b = img.getpixel((x, y))
        img.putpixel((x, y), (max(0, r + v), max(0, g + v), max(0, b + v)))
    img = img.rotate(2.5, resample=Image.BICUBIC, fillcolor=(200, 192, 176)).filter(ImageFilter.GaussianBlur(0.8))
    img.save(path, format="JPEG", quality=72, optimize=True)


def voice_memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def invoice(path: Path) -> None:
    b = F.budget
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Invoice {F.payment.invoice}")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 790, "Harrowgate Lodge - INVOICE")
    _lines(
        c,
        750,
        [
            f"Invoice no.: {F.payment.invoice}                 Date: 12 March 2026",
            "Bill to: Kestrel Analytics Ltd, 40 Marlowe Street, London EC2A 4LT",
            f"Your quote: {Q.number}, option {Q.oak_code} (Oak Hall), 16-17 April 2026",
            "",
            "Description                                                        Amount (GBP)",
            f"Meeting room hire, Oak Hall, 2 days                                   {b.room:,.2f}",
            f"Day delegate package, 12 persons x 2 days                              {b.delegates:,.2f}",
            f"Accommodation B&B, 12 rooms x 1 night                                  {b.rooms:,.2f}",
            f"Private dinner, 12 persons                                               {b.dinner:,.2f}",
            f"Venue total                                                             {b.total:,.2f}",
            "",
            f"DEPOSIT DUE NOW ({Q.deposit_percent}% of the venue total):                   GBP {float(b.wrong_deposit):,.2f}",
            "",
            "Payment within 14 days to Harrowgate Lodge Ltd, sort code 40-11-62, account 55120983.",
        ],
    )
    c.save()


def main() -> None:
    for sub in ("day1/quote", "day1/site_visit", "day3/voice_memos", "day4/invoice"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    quote(HERE / F.names.quote_pdf)
    sign_photo(HERE / F.names.sign_photo)
    voice_memo(HERE / F.names.memo)
    invoice(HERE / F.names.invoice_pdf)


if __name__ == "__main__":
    main()
