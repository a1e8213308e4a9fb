"""Regenerate the core-facility task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/core_facility_booking/make_evidence.py

Authoring-time tools only: Pillow (the photographed assessment form: pixels only), reportlab (the
price list, a text PDF), espeak-ng + ffmpeg (the staff scientist's voice note, 16 kHz mono MP3).

- day2/assessment_form_2026-06-01.jpg      photo: Marco Ruiz passes the STED independent-use assessment
- day3/voice_notes/grant_2026-06-03_0815.mp3  the STED depletion laser is down until Tuesday 9 June 14:00
- day4/AIC_price_list_2025-26.pdf          text PDF: hourly rates per instrument
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
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def assessment(path: Path) -> None:
    rnd = random.Random(2317)
    img = Image.new("RGB", (760, 980), (205, 200, 190))
    d = ImageDraw.Draw(img)
    d.rectangle((40, 30, 720, 950), fill=(248, 247, 242))
    bold, body, hand = font("DejaVuSans-Bold.ttf", 24), font("DejaVuSans.ttf", 19), font("DejaVuSerif-Italic.ttf", 26)
    d.text((70, 60), "ADVANCED IMAGING CORE", font=bold, fill=(20, 20, 20))
    d.text((70, 98), "Instrument sign-off assessment", font=body, fill=(40, 40, 40))
    d.line((70, 132, 690, 132), fill=(90, 90, 90), width=2)
    rows = [("Trainee", F.ruiz.name), ("User ID", F.ruiz.user_id), ("Instrument", "STED (Abberior)"),
            ("Assessment", "independent use"), ("Date", "01/06/2026")]  # fmt: skip
    y = 160
    for k, v in rows:
        d.text((70, y), f"{k}:", font=body, fill=(40, 40, 40))
        d.text((280, y - 4), v, font=hand, fill=(20, 30, 120))
        y += 52
    y += 10
    for item in ("Laser safety interlocks", "Depletion alignment check", "Sample mounting", "Shutdown procedure"):
        d.rectangle((70, y + 4, 88, y + 22), outline=(40, 40, 40), width=2)
        d.line((72, y + 14, 79, y + 21), fill=(20, 30, 120), width=3)
        d.line((79, y + 21, 90, y + 2), fill=(20, 30, 120), width=3)
        d.text((105, y), item, font=body, fill=(40, 40, 40))
        y += 40
    y += 20
    d.text((70, y), "Result:", font=body, fill=(40, 40, 40))
    d.text((200, y - 8), "PASS - independent", font=font("DejaVuSerif-BoldItalic.ttf", 30), fill=(20, 30, 120))
    y += 80
    d.text((70, y), "Assessor:", font=body, fill=(40, 40, 40))
    d.text((200, y - 8), "O. Grant", font=font("DejaVuSerif-Italic.ttf", 32), fill=(20, 30, 120))
    for _ in range(900):
        d.point((rnd.randrange(760), rnd.randrange(980)), fill=(rnd.randrange(150, 220),) * 3)
    img = img.rotate(1.5, resample=Image.BICUBIC, expand=False, fillcolor=(190, 185, 175))
    img.filter(ImageFilter.GaussianBlur(0.7)).resize((608, 784)).save(path, format="JPEG", quality=68, optimize=True)


VOICE = (
    "Clara, Oliver here, quarter past eight on Wednesday. Bad news on the STED: the seven seven five nanometre "
    "depletion laser failed this morning. From now until the engineer has replaced it, on Tuesday the ninth, "
    "we can't do any STED imaging; I'd say bookings from Tuesday two p.m. onwards are safe. Confocal mode on the "
    "STED still works fine, so leave the confocal-mode sessions alone. Can you sort out the bookings and tell "
    "people? Thanks."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "42", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def price_list(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("AIC price list 2025/26")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(50, 795, "Advanced Imaging Core - internal recharge rates 2025/26")
    c.setFont("Helvetica", 10)
    c.drawString(50, 778, "Per booked hour, internal groups, VAT not applicable. Valid 1 August 2025 - 31 July 2026.")
    y = 745
    for inst in F.core.instruments:
        c.drawString(70, y, inst)
        c.drawString(250, y, f"GBP {F.core.rates_gbp[inst]:.2f} per hour")
        y -= 18
    y -= 12
    c.drawString(
        50, y, f"No-shows are charged at {float(F.core.no_show_share):.0%} of the booked time; cancellations are free."
    )
    c.save()


def main() -> None:
    for sub in ("day2", "day3", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day2", "day3/voice_notes", "day4"):
        (HERE / sub).mkdir(parents=True)
    assessment(HERE / "day2/assessment_form_2026-06-01.jpg")
    voice_note(HERE / "day3/voice_notes/grant_2026-06-03_0815.mp3")
    price_list(HERE / "day4/AIC_price_list_2025-26.pdf")


if __name__ == "__main__":
    main()
