"""Regenerate the fraud-investigation task's evidence deterministically (the outputs are committed).

    python tasks/insurance/fraud_investigation/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the claim form, a
text PDF), Pillow (the insured's photos, each with the camera's date stamp burned into the pixels),
espeak-ng and ffmpeg (the recorded statement: fixed voices, speed and pitch, 16 kHz mono MP3,
bit-exact flags).

- day1/claim/claim_form_CLM-77120.pdf        text PDF: the loss and the four claimed items
- day1/claim/IMG_44xx.jpg                    photos: the camera timestamp is only in the pixels
- day2/claim/recorded_statement_CLM-77120.mp3  the insured states what he paid for the e-bike
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
FOLDER = TaskFolder(__file__)
F = FOLDER.facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSansMono-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def claim_form(path: Path) -> None:
    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    pdf.setTitle(f"Claim form {N.claim}")
    pdf.setFont("Helvetica-Bold", 15)
    pdf.drawString(50, 790, f"Larkspur Mutual - Home contents claim form   {N.claim}")
    pdf.setFont("Helvetica", 10.5)
    y = 762
    for line in [
        f"Policyholder: {N.insured}     Policy: {N.policy_no}",
        "Address: 14 Linden Close, Harrogate HG2 7QP",
        f"Date of loss: {F.loss.date}     Reported: {F.loss.reported}",
        f"What happened: {F.loss.description}. Door forced; items below taken.",
        "",
        "Item      Description                              Amount claimed (GBP)",
    ]:
        pdf.drawString(50, y, line)
        y -= 16
    total = 0.0
    for row in FOLDER.table("seed/items.csv"):
        pdf.drawString(50, y, row["Item ID"])
        pdf.drawString(110, y, row["Description"])
        pdf.drawRightString(420, y, f"{float(row['Claimed']):,.2f}")
        total += float(row["Claimed"])
        y -= 16
    pdf.drawString(110, y - 4, "Total claimed")
    pdf.drawRightString(420, y - 4, f"{total:,.2f}")
    y -= 40
    for line in [
        "I declare that the information given is true and complete. I understand that a false or",
        "exaggerated claim may be declined and the policy cancelled.",
        "",
        f"Signed: V. Harrow      Date: {F.loss.reported}",
    ]:
        pdf.drawString(50, y, line)
        y -= 16
    pdf.save()


def photo(path: Path, subject: str, taken: str, seed: int) -> None:
    """A phone snapshot: a rough scene and the camera's orange date stamp, bottom right."""
    rnd = random.Random(seed)
    w, h = 640, 480
    img = Image.new("RGB", (w, h), (118, 112, 104))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 330, w, h), fill=(84, 78, 70))  # floor / desk
    if "laptop" in subject:
        d.polygon([(170, 300), (470, 300), (500, 350), (140, 350)], fill=(196, 198, 202))
        d.rectangle((190, 130, 450, 300), fill=(170, 172, 178))
        d.rectangle((202, 142, 438, 290), fill=(28, 34, 48))
    elif "tool" in subject:
        d.rectangle((0, 150, w, 160), fill=(150, 120, 80))
        d.rectangle((150, 190, 500, 330), fill=(0, 122, 138))
        d.rectangle((300, 175, 350, 190), fill=(30, 30, 30))
    else:
        d.rectangle((120, 40, 520, 440), fill=(205, 205, 200))
        d.ellipse((290, 210, 350, 270), fill=(150, 140, 110))
        d.line((300, 230, 345, 255), fill=(40, 40, 40), width=5)
        d.line((318, 205, 335, 278), fill=(60, 60, 60), width=3)
    for _ in range(2500):
        x, y = rnd.randrange(w), rnd.randrange(h)
        v = rnd.randrange(-18, 18)
        r, g, b = img.getpixel((x, y))
        img.putpixel((x, y), (max(0, r + v), max(0, g + v), max(0, b + v)))
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    d = ImageDraw.Draw(img)
    stamp = taken.replace("-", "/")
    d.text((w - 250, h - 42), stamp, font=font(22, bold=True), fill=(255, 140, 30))
    img.save(path, format="JPEG", quality=72, optimize=True)


def statement(path: Path) -> None:
    s = F.statement
    lines = [
        ("en-gb", 150, 35, f"This is a recorded statement for claim {' '.join(N.claim)}, with Mr Victor Harrow."),
        ("en-gb", 150, 35, "Mr Harrow, tell me about the e-bike. When did you buy it, and what did you pay?"),
        ("en-us", 145, 60, f"I bought it second hand in March, from a man in Leeds. I paid {s.ebike_words} for it, cash."),
        ("en-gb", 150, 35, "And the night of the loss?"),
        ("en-us", 145, 60, "I locked the garage at about ten on the Saturday night, and on the Sunday morning the door had been forced."),
    ]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, (voice, speed, pitch, text) in enumerate(lines):
            part = Path(tmp) / f"p{i}.wav"
            subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-g", "6", "-w", str(part), text],
                           check=True)  # fmt: skip
            parts.append(part)
        listing = Path(tmp) / "list.txt"
        listing.write_text("".join(f"file '{p}'\n" for p in parts))
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", str(listing), "-ac", "1",
             "-ar", "16000", "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
        (HERE / sub / "claim").mkdir(parents=True)
    claim_form(HERE / "day1/claim/claim_form_CLM-77120.pdf")
    for n, p in enumerate(F.photos):
        photo(HERE / "day1/claim" / p["file"], p["subject"], p["taken"], 4400 + n)
    statement(HERE / "day2/claim/recorded_statement_CLM-77120.mp3")


if __name__ == "__main__":
    main()
