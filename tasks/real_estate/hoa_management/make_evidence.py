"""Regenerate the HOA task's evidence deterministically (the outputs are committed).

    python tasks/real_estate/hoa_management/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs), Pillow
(the inspection photos, no text layer), espeak-ng + ffmpeg (a director's voicemail, 16 kHz mono MP3).

- day1/Willow_Creek_reserve_study_2026.pdf     text PDF: components, costs, the fully funded balance
- day1/AquaTech_quote_Q-8841.pdf               text PDF: the pool resurfacing quote
- day1/inspection/IMG_0914_0{1..4}.jpg         Monday's drive-by: 2214 (boat trailer in the driveway), 2231
  (a shed in the side yard), 2240 (nothing wrong), 2252 (dead lawn and weeds); the house numbers and the
  violations are only in the pixels
- day2/voicemail_reid_2026-09-14.mp3           Marcus Reid withholds his consent to UWC-2026-07
- day3/IMG_2214_driveway.jpg                    the owner's photo: the trailer is gone
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
R = F.resolution

VOICEMAIL = (
    "Hi Paula, it's Marcus Reid from the Willow Creek board, about the pool consent, U W C 2026 0 7. I'm not "
    "going to consent by email to a forty six thousand dollar job. I want a second bid and a discussion at a "
    "board meeting. So please record that I do not consent. Thanks."
)
COMPONENTS = [  # component, useful life, remaining life, replacement cost
    (R.component, 12, 0, R.study_cost),
    ("Asphalt seal coat and striping", 4, 2, 28500),
    ("Clubhouse roof (asphalt shingle)", 25, 9, 61000),
    ("Pool deck resurfacing", 15, 3, 37800),
    ("Perimeter fence (wood)", 18, 6, 72400),
    ("Clubhouse HVAC", 15, 11, 18600),
    ("Playground equipment", 15, 5, 45200),
]


def text_pdf(path: Path, title: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    y = 740
    for line in lines:
        bold = line.startswith("# ")
        c.setFont(
            "Helvetica-Bold" if bold else "Courier" if line.startswith("   ") else "Helvetica", 13 if bold else 10
        )
        c.drawString(60, y, line[2:] if bold else line)
        y -= 16
    c.save()


def reserve_study(path: Path) -> None:
    rows = [f"   {name:<36}{life:>5}{rem:>6}{cost:>12,}" for name, life, rem, cost in COMPONENTS]
    text_pdf(path, "Willow Creek HOA reserve study 2026", [
        "# Willow Creek Homeowners Association - Reserve Study Update 2026",
        "Prepared by Frontier Reserve Consultants, level II update (no site visit), July 2026",
        "",
        "Component inventory (useful life, remaining life in years, current replacement cost USD):",
        "   Component                            Life  Rem.        Cost",
        *rows,
        "",
        f"Fully funded balance as of September 2026: ${F.reserve.fully_funded:,}",
        "Recommended annual contribution 2027: $41,600",
        "",
        "Percent funded = reserve fund balance / fully funded balance.",
    ])  # fmt: skip


def quote(path: Path) -> None:
    text_pdf(path, f"{R.vendor} quote {R.quote_id}", [
        f"# {R.vendor} - Quotation {R.quote_id}",
        "Date: September 8, 2026        Valid 30 days",
        "Customer: Willow Creek HOA, clubhouse pool, 2200 Willow Bend Dr",
        "",
        "Scope: drain pool; remove failed plaster; bond coat; new white marcite plaster;",
        "tile line repairs (12 lf); start-up chemistry and 3 service visits.",
        "",
        f"Total: ${R.quote:,.2f}        Deposit on signature: 30 %",
        "",
        "To accept, sign and return this quotation with the deposit.",
    ])  # fmt: skip


def house(number: str, scene: str, seed: int) -> Image.Image:
    """A street-side photo of a house: the number is on the mailbox post; the scene shows the issue."""
    rnd = random.Random(seed)
    w, h = 480, 320
    img = Image.new("RGB", (w, h), (160, 196, 228))  # sky
    d = ImageDraw.Draw(img)
    lawn = (150, 140, 70) if scene == "lawn" else (78, 140, 60)
    d.rectangle((0, 190, w, h), fill=lawn)
    d.rectangle((120, 90, 380, 200), fill=(214, 200, 176), outline=(90, 80, 70))  # the house
    d.polygon([(105, 92), (250, 30), (395, 92)], fill=(96, 70, 60))  # the roof
    d.rectangle((280, 130, 360, 200), fill=(236, 236, 230), outline=(120, 120, 120))  # the garage door
    d.polygon([(280, 200), (360, 200), (400, h), (250, h)], fill=(170, 170, 165))  # the driveway
    d.rectangle((150, 120, 190, 150), fill=(120, 160, 200))  # windows
    d.rectangle((210, 120, 250, 150), fill=(120, 160, 200))
    if scene == "lawn":
        for _ in range(260):
            x, y = rnd.randrange(0, w), rnd.randrange(200, h)
            d.line((x, y, x + rnd.randrange(-3, 4), y - rnd.randrange(4, 10)), fill=(60, 110, 40), width=2)
    if scene == "trailer":
        d.rectangle((265, 250, 395, 262), fill=(60, 60, 60))  # trailer frame
        d.ellipse((285, 255, 305, 275), fill=(20, 20, 20))
        d.ellipse((355, 255, 375, 275), fill=(20, 20, 20))
        d.polygon([(262, 222), (400, 222), (385, 250), (275, 250)], fill=(240, 240, 245))  # the hull
        d.rectangle((300, 205, 340, 222), fill=(40, 70, 130))
    if scene == "shed":
        d.rectangle((400, 150, 465, 205), fill=(120, 82, 50), outline=(70, 50, 30))
        d.polygon([(395, 152), (432, 128), (470, 152)], fill=(80, 60, 50))
        d.rectangle((422, 170, 442, 205), fill=(90, 60, 36))
    d.rectangle((60, 230, 66, 290), fill=(60, 60, 60))  # the mailbox post
    d.rectangle((40, 210, 90, 232), fill=(30, 30, 30))
    d.rectangle((28, 236, 98, 256), fill=(245, 245, 240))  # the number plate
    d.text((32, 238), number, font=ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 15), fill=(10, 10, 10))
    px = img.load()
    for _ in range(2500):
        x, y = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, y]
        k = rnd.randrange(-14, 14)
        px[x, y] = (max(0, min(255, r + k)), max(0, min(255, g + k)), max(0, min(255, b + k)))
    return img.filter(ImageFilter.GaussianBlur(0.6))


def voicemail(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "vm.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "35", "-w", str(wav), VOICEMAIL], check=True)
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
    (HERE / "day1/inspection").mkdir(parents=True)
    (HERE / "day2").mkdir()
    (HERE / "day3").mkdir()
    reserve_study(HERE / "day1/Willow_Creek_reserve_study_2026.pdf")
    quote(HERE / "day1/AquaTech_quote_Q-8841.pdf")
    shots = [("2214", "trailer"), ("2231", "shed"), ("2240", "clean"), ("2252", "lawn")]
    for i, (number, scene) in enumerate(shots, start=1):
        house(number, scene, 914 + i).save(
            HERE / f"day1/inspection/IMG_0914_0{i}.jpg", format="JPEG", quality=68, optimize=True
        )
    voicemail(HERE / "day2/voicemail_reid_2026-09-14.mp3")
    house("2214", "clean", 2214).save(HERE / "day3/IMG_2214_driveway.jpg", format="JPEG", quality=68, optimize=True)


if __name__ == "__main__":
    main()
