"""Regenerate the corrections-desk task's evidence deterministically (the outputs are committed).

    python tasks/journalist/corrections_desk/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (a reader's screenshot
of the published article: a PNG, pixels only), reportlab (a reader's letter, a text PDF), espeak-ng +
ffmpeg (a source's voicemail, 16 kHz mono MP3).

- day1/complaints/beck_screenshot_2025-11-01.png  the article as published: headline, photo, caption;
  the sign on the building in the photo names it (Hollins Park Library), the caption does not
- day1/post/lyle_letter_2025-10-31.pdf            a reader's letter (her address, phone and email)
- day1/voicemail/sorel_2025-11-03_0812.mp3        the quoted source: she said 14 staff, not 40
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")

VOICEMAIL = (
    "Hello, this is a message for the readers' editor. My name is Ana Sorel, from the Library Workers' Union. "
    "I am calling about Jo Pratt's article on the Kestrel Road library closure. The article quotes me as saying "
    "forty staff will lose their jobs. That is wrong. I said fourteen. One, four. Fourteen staff. Forty would be "
    "nearly every library worker in the borough, and people are frightened enough already. Please correct it. "
    "You can call me back on oh seven seven oh oh, nine oh oh, six six two. Thank you."
)


def font(size: int, bold: bool = False, serif: bool = False) -> ImageFont.FreeTypeFont:
    name = (
        ("DejaVuSerif-Bold.ttf" if bold else "DejaVuSerif.ttf")
        if serif
        else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    )
    return ImageFont.truetype(str(FONTS / name), size)


def screenshot(path: Path) -> None:
    """A phone-width browser screenshot of the article; the building's sign is part of the photo."""
    w, h = 560, 720
    img = Image.new("RGB", (w, h), (250, 250, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 34), fill=(232, 232, 232))
    d.rounded_rectangle((12, 6, w - 12, 28), radius=10, fill=(255, 255, 255))
    d.text((24, 9), "riversidechronicle.example/news/kestrel-road-library", font=font(12), fill=(90, 90, 90))
    d.text((20, 46), "The Riverside Chronicle", font=font(26, bold=True, serif=True), fill=(15, 15, 15))
    d.line((20, 84, w - 20, 84), fill=(30, 30, 30), width=2)
    y = 96
    for line in ("Council plans to close", "Kestrel Road library"):
        d.text((20, y), line, font=font(27, bold=True, serif=True), fill=(10, 10, 10))
        y += 34
    d.text((20, y + 6), f"By Jo Pratt  |  {F.article.published}", font=font(12), fill=(110, 110, 110))
    # the photo: a brick library with its name over the door
    top = y + 34
    photo = Image.new("RGB", (w - 40, 300), (150, 190, 225))
    p = ImageDraw.Draw(photo)
    p.rectangle((0, 230, w - 40, 300), fill=(120, 120, 115))
    p.rectangle((60, 70, 460, 240), fill=(150, 72, 52))
    for bx in range(60, 460, 24):
        for by in range(70, 240, 12):
            p.line((bx, by, bx + 22, by), fill=(128, 60, 44))
    p.polygon([(40, 72), (250, 18), (480, 72)], fill=(80, 80, 88))
    p.rectangle((120, 86, 400, 122), fill=(236, 232, 220), outline=(60, 60, 60), width=2)
    p.text((134, 92), F.finding.building.upper(), font=font(19, bold=True), fill=(25, 35, 60))
    p.rectangle((226, 160, 294, 240), fill=(60, 45, 35))
    for wx in (90, 150, 330, 390):
        p.rectangle((wx, 150, wx + 40, 200), fill=(190, 215, 235), outline=(235, 235, 235), width=3)
    rnd = random.Random(101)
    for _ in range(900):
        p.point((rnd.randrange(w - 40), rnd.randrange(300)), fill=(rnd.randrange(90, 170),) * 3)
    img.paste(photo, (20, top))
    cy = top + 308
    first, _, credit = F.article.caption.partition(". ")
    d.text((20, cy), first + ".", font=font(12), fill=(80, 80, 80))
    d.text((20, cy + 16), credit, font=font(12), fill=(80, 80, 80))
    y = cy + 48
    body = [
        "The council will close Kestrel Road library in April under",
        "a review of the borough's library estate, the cabinet",
        f"confirmed on Wednesday. The library has {F.article.members} active members.",
        "",
        F.article.quote[:58],
        F.article.quote[58:],
    ]
    for line in body:
        d.text((20, y), line, font=font(15, serif=True), fill=(20, 20, 20))
        y += 22
    img.save(path, format="PNG", optimize=True)


def letter(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Letter to the editor")
    c.setAuthor(F.lyle.name)
    c.setFont("Helvetica", 10.5)
    y = 790
    for line in [
        F.lyle.name,
        F.lyle.address,
        f"Riverside {F.lyle.postcode}",
        f"Tel {F.lyle.phone}",
        F.lyle.email,
        "",
        "31 October 2025",
        "",
        "The Readers' Editor, The Riverside Chronicle",
        "",
        "Dear Sir or Madam,",
        "",
        f'Your article of 30 October, "{F.names.headline}", says the library has {F.article.members}',
        f"members. That is simply wrong. The council's own figures show {F.finding.members_registered} members,",
        "twice as many, and by understating it you make the closure look more reasonable than it is.",
        "I expect a correction. I am happy to be contacted by email.",
        "",
        "Yours faithfully,",
        "",
        F.lyle.name,
    ]:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def voicemail(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb+f3", "-s", "160", "-p", "55", "-w", str(wav), VOICEMAIL], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/complaints", "day1/post", "day1/voicemail"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    screenshot(HERE / F.names.screenshot)
    letter(HERE / F.names.letter)
    voicemail(HERE / F.names.voicemail)


if __name__ == "__main__":
    main()
