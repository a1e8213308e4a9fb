"""Regenerate the election-night task's evidence deterministically (the outputs are committed).

    python tasks/journalist/election_night/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the county's
statement, a text PDF), Pillow (the photo of the posted tally and the video frames: pixels only),
espeak-ng + ffmpeg (the clerk's spoken briefing; libx264 one thread and AAC, bit-exact flags).

- day1/county/early_mail_statement.pdf   text PDF: early in-person and mail ballots per candidate
  (two rows the desk must add up)
- day2/photos/P-17_posted_tally.jpg      phone photo of the tally sheet taped to precinct P-17's door:
  the counts our reporter saw before the county posted them
- day3/video/clerk_briefing_0015.mp4     the clerk's 12:15 a.m. briefing: slides and speech give the
  provisional ballots still to count (1,240) and the certification meeting (Fri 14 Nov, 10 a.m.)
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
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
CANDIDATES = ("Dolores ALVAREZ", "Thomas BRENNAN", "Grace CHOI")


def statement(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle("Statement of votes cast - early and mail ballots")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 740, "LAKESHORE COUNTY BOARD OF ELECTIONS")
    c.setFont("Helvetica", 10.5)
    y = 716
    for line in [
        "General Election, November 4, 2025 - Unofficial results",
        "Statement of votes cast: EARLY IN-PERSON and MAIL ballots (counted centrally)",
        "Contest: Mayor, City of Lakeshore (vote for one)",
        "Released 9:02 p.m. These ballots are NOT included in the precinct results feed.",
    ]:
        c.drawString(60, y, line)
        y -= 16
    y -= 10
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((60, "Ballot type"), (230, CANDIDATES[0]), (350, CANDIDATES[1]), (470, CANDIDATES[2])):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for label, row in (("Early in-person", F.early.in_person), ("Mail", F.early.mail)):
        y -= 18
        c.drawString(60, y, label)
        for x, v in zip((230, 350, 470), row):
            c.drawString(x, y, f"{v:,}")
    y -= 40
    c.drawString(60, y, "Write-ins and over/under votes are reported separately and are not part of this statement.")
    c.drawString(60, y - 16, "Issued by the Office of the County Clerk, Elections Division.")
    c.save()


def posted_tally(path: Path) -> None:
    """A printed tally form taped to a door, filled in by hand, photographed at an angle at night."""
    rnd = random.Random(17)
    w, h = 720, 900
    img = Image.new("RGB", (w, h), (92, 64, 48))  # a wooden door
    d = ImageDraw.Draw(img)
    for x in range(0, w, 6):
        d.line((x, 0, x + rnd.randrange(-4, 5), h), fill=(80 + rnd.randrange(25), 55 + rnd.randrange(15), 40), width=3)
    sheet = Image.new("RGB", (520, 680), (240, 240, 232))
    s = ImageDraw.Draw(sheet)
    head = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 19)
    reg = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 15)
    hand = ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 28)
    s.text((30, 24), "PRECINCT RESULTS TALLY", font=head, fill=(20, 20, 20))
    s.text((30, 52), "Lakeshore County - General Election 11/04/2025", font=reg, fill=(40, 40, 40))
    s.text((30, 84), "Precinct:", font=reg, fill=(40, 40, 40))
    s.text((120, 72), "P-17", font=hand, fill=(20, 30, 120))
    s.text((30, 124), "MAYOR (vote for one)", font=head, fill=(20, 20, 20))
    y = 170
    for name, votes in zip(CANDIDATES, F.p17.votes):
        s.rectangle((28, y - 6, 490, y + 40), outline=(90, 90, 90), width=1)
        s.text((40, y + 6), name, font=reg, fill=(30, 30, 30))
        s.text((330, y - 2), str(votes), font=hand, fill=(20, 30, 120))
        y += 56
    s.text((40, y + 10), "Total ballots cast", font=reg, fill=(30, 30, 30))
    s.text((330, y), str(sum(F.p17.votes)), font=hand, fill=(20, 30, 120))
    s.text((30, y + 90), "Judges:", font=reg, fill=(40, 40, 40))
    s.text(
        (110, y + 80),
        F.p17.judges,
        font=ImageFont.truetype(str(FONTS / "DejaVuSerif-Italic.ttf"), 20),
        fill=(20, 30, 120),
    )
    s.text((30, 640), "Post on the polling place door at close of count.", font=reg, fill=(90, 90, 90))
    sheet = sheet.rotate(-3, resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0))
    mask = Image.new("L", (520, 680), 255).rotate(-3, resample=Image.BICUBIC, expand=True, fillcolor=0)
    img.paste(sheet, (90, 90), mask)
    d = ImageDraw.Draw(img)
    for x0 in (110, 560):  # tape
        d.rectangle((x0, 80, x0 + 70, 110), fill=(225, 220, 190))
    px = img.load()
    for yy in range(h):  # flash falloff: darker towards the bottom
        k = 1.0 - 0.35 * yy / h
        for x in range(0, w, 1):
            r, g, b = px[x, yy]
            px[x, yy] = (int(r * k), int(g * k), int(b * k))
    for _ in range(7000):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        n = rnd.randrange(-20, 21)
        r, g, b = px[x, yy]
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    img.filter(ImageFilter.GaussianBlur(0.6)).save(path, format="JPEG", quality=70, optimize=True)


SLIDES = [
    ("LAKESHORE COUNTY ELECTIONS", ["Results briefing", "Wednesday 12:15 a.m."]),
    ("Provisional ballots", ["Cast on Election Day: 1,240", "To be adjudicated", "before they are counted"]),
    ("Certification", ["Canvass board meets", "Friday, November 14", "10:00 a.m., Room 210"]),
]
SPEECH = (
    "Good evening. This is the county clerk with an update on the count. All early and mail ballots are "
    "counted. In addition, one thousand two hundred and forty provisional ballots were cast today. They will "
    "be adjudicated over the coming days and are not yet in any total. The canvass board will meet to certify "
    "the results on Friday, November the fourteenth, at ten in the morning, in room two ten of the county building."
)


def briefing_video(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        big = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 26)
        mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 22)
        for i, (title, lines) in enumerate(SLIDES):
            img = Image.new("RGB", (480, 270), (18, 40, 78))
            d = ImageDraw.Draw(img)
            d.rectangle((0, 0, 480, 50), fill=(200, 160, 40))
            d.text((18, 10), title, font=big, fill=(15, 15, 15))
            for k, line in enumerate(lines):
                d.text((24, 80 + 44 * k), line, font=mid, fill=(240, 240, 240))
            img.save(Path(tmp) / f"s{i}.png")
        wav = Path(tmp) / "speech.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "45", "-w", str(wav), SPEECH], check=True)
        listing = Path(tmp) / "slides.txt"
        listing.write_text("".join(f"file 's{i}.png'\nduration 9\n" for i in range(len(SLIDES))) + "file 's2.png'\n")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", str(listing), "-i", str(wav),
             "-vf", "fps=5,format=yuv420p", "-c:v", "libx264", "-preset", "medium", "-crf", "30", "-threads", "1",
             "-c:a", "aac", "-b:a", "32k", "-ar", "16000", "-ac", "1", "-shortest",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/county", "day2/photos", "day3/video"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    statement(HERE / "day1/county/early_mail_statement.pdf")
    posted_tally(HERE / "day2/photos/P-17_posted_tally.jpg")
    briefing_video(HERE / "day3/video/clerk_briefing_0015.mp4")


if __name__ == "__main__":
    main()
