"""Regenerate the capacity-planning task's evidence deterministically (the outputs are committed).

    python tasks/pm/capacity_planning/make_evidence.py

Authoring-time tools only: reportlab (the text PDF), Pillow (the photo of the leave board: a JPEG
with no text layer), espeak-ng + ffmpeg (the VP's voice memo, 16 kHz mono MP3, bit-exact flags).

- day1/Quillmark_office_holidays_2026.pdf  text PDF: every office's 2026 holidays (Q3 ones among them)
- day1/cobalt_leave_board.jpg              photo: Cobalt's Q3 leave (one entry crossed out)
- day2/helga_memo_2026-06-09.mp3           spoken: a move to part time and a new hire's start date
"""

from __future__ import annotations

import io
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

HOLIDAYS = [
    ("All offices", "2026-01-01", "New Year's Day"),
    ("All offices", F.calendar.company_day, "Quillmark Day (company day off)"),
    ("All offices", "2026-12-25", "Christmas Day"),
    ("London", "2026-04-03", "Good Friday"),
    ("London", "2026-04-06", "Easter Monday"),
    ("London", "2026-05-04", "Early May bank holiday"),
    ("London", "2026-05-25", "Spring bank holiday"),
    *(("London", d, "Summer bank holiday") for d in F.calendar.london),
    ("London", "2026-12-28", "Boxing Day (substitute)"),
    ("Dublin", "2026-03-17", "St Patrick's Day"),
    ("Dublin", "2026-04-06", "Easter Monday"),
    ("Dublin", "2026-05-04", "May bank holiday"),
    ("Dublin", "2026-06-01", "June bank holiday"),
    (("Dublin", F.calendar.dublin[0], "August bank holiday")),
    (("Dublin", F.calendar.dublin[1], "Office move day (Dublin office closed)")),
    ("Dublin", "2026-10-26", "October bank holiday"),
    ("Krakow", "2026-08-15", "Assumption Day (Saturday)"),
    ("Krakow", "2026-11-11", "Independence Day"),
]


def holidays_pdf(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Quillmark office holidays 2026")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Quillmark Systems - office holiday calendar 2026")
    c.setFont("Helvetica", 9.5)
    c.drawString(60, 774, "People Operations, issued 12 January 2026. Weekday closures only count against capacity.")
    y = 740
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((60, "Office"), (170, "Date"), (260, "Holiday")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for office, day, name in sorted(HOLIDAYS, key=lambda h: (h[1], h[0])):
        y -= 17
        c.drawString(60, y, office)
        c.drawString(170, y, day)
        c.drawString(260, y, name)
    c.save()


BOARD = [(name, days) for name, days in F.board.leave]
WHEN = {"Marta Zielinska": "22-24 Jul", "Ines Duarte": "10-21 Aug", "Piotr Lis": "7-11 Sep"}


def leave_board(path: Path) -> None:
    """A phone photo of a whiteboard: marker text, glare, a slight tilt; one entry crossed out."""
    w, h = 900, 600
    img = Image.new("RGB", (w, h), (236, 238, 232))
    d = ImageDraw.Draw(img)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 30)
    big = ImageFont.truetype(str(FONTS / "DejaVuSans-BoldOblique.ttf"), 38)
    d.text((60, 40), "COBALT - LEAVE Q3", font=big, fill=(20, 60, 150))
    d.line((60, 92, 560, 92), fill=(20, 60, 150), width=3)
    y = 130
    for name, days in BOARD:
        d.text((70, y), f"{name.split()[0]}", font=hand, fill=(25, 25, 25))
        d.text((300, y), WHEN[name], font=hand, fill=(25, 25, 25))
        d.text((560, y), f"{days} d", font=hand, fill=(170, 30, 30))
        y += 70
    d.text((70, y), "Ben", font=hand, fill=(25, 25, 25))
    d.text((300, y), "3-7 Aug", font=hand, fill=(25, 25, 25))
    d.text((560, y), "5 d", font=hand, fill=(170, 30, 30))
    d.line((60, y + 20, 680, y + 22), fill=(25, 25, 25), width=4)
    d.text(
        (700, y + 2),
        "cancelled",
        font=ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 22),
        fill=(170, 30, 30),
    )
    d.text(
        (60, 520),
        "(all working days - M.Z.)",
        font=ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 22),
        fill=(60, 60, 60),
    )
    rnd = random.Random(3117)
    for _ in range(2500):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        g = rnd.randrange(200, 235)
        d.point((x, yy), fill=(g, g, g - 5))
    glare = Image.new("L", (w, h), 0)
    ImageDraw.Draw(glare).ellipse((520, -80, 980, 260), fill=70)
    glare = glare.filter(ImageFilter.GaussianBlur(60))
    img = Image.composite(Image.new("RGB", (w, h), (255, 255, 255)), img, glare)
    img = img.rotate(1.8, resample=Image.BICUBIC, expand=False, fillcolor=(90, 84, 78)).filter(
        ImageFilter.GaussianBlur(0.7)
    )
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=72, optimize=True)
    path.write_bytes(buf.getvalue())


MEMO = (
    "Hi Tobias, it's Helga, Tuesday morning. Two headcount changes for the third quarter. "
    "First, Sven Aalto in Atlas takes over as on-call lead, so from the first of July he counts as half time for "
    "project work, zero point five. "
    "Second, Beacon's new hire on requisition R 1 1 8 has signed. She starts on Monday the third of August, full time, "
    "in the London office. Nothing else changes. Thanks."
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "50", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    holidays_pdf(HERE / "day1/Quillmark_office_holidays_2026.pdf")
    leave_board(HERE / "day1/cobalt_leave_board.jpg")
    memo(HERE / "day2/helga_memo_2026-06-09.mp3")


if __name__ == "__main__":
    main()
