"""Regenerate the IACUC-protocol task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/iacuc_protocol/make_evidence.py

Authoring-time tools only: reportlab (the amendment form, a text PDF), Pillow (the cage-card photo:
pixels only), espeak-ng + ffmpeg (the attending veterinarian's voice note, 16 kHz mono MP3).

- day1/AM_request_P-2025-118_Hart.pdf        text PDF: the PI's amendment request (160 animals, social defeat)
- day2/cage_card_C-4471.jpg                  photo: the cage card, count corrected by hand from 4 to 6
- day3/voice_notes/okonjo_2026-04-08_0750.mp3  the vet's pre-review: conditions and pain category
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
P, A = F.protocol, F.amendment


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def form(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Amendment request {P.id}")
    y = 800
    for face, size, text in [
        ("Helvetica-Bold", 14, "Brackenridge University IACUC - Protocol amendment request"),
        ("Helvetica", 10, "Submitted 5 April 2026 by Prof. Julian Hart (PI)"),
        ("Helvetica", 10, ""),
        ("Helvetica-Bold", 11, f"Protocol: {P.id} - {P.title}"),
        ("Helvetica", 10, f"Currently approved: {P.approved} mice (C57BL/6J), pain category {P.pain_before}"),
        ("Helvetica", 10, ""),
        ("Helvetica-Bold", 11, "Requested changes"),
        ("Helvetica", 10, f"1. Increase the total number of animals from {P.approved} to {A.requested_animals}."),
        ("Helvetica", 10, f"2. Add a {A.procedure} procedure: 10 minutes' daily exposure to an aggressive CD-1"),
        ("Helvetica", 10, "   resident for 10 consecutive days, followed by sensory contact through a divider."),
        ("Helvetica", 10, "   Proposed pain category: D. Humane endpoint proposed: 20% weight loss from baseline."),
        ("Helvetica", 10, ""),
        ("Helvetica-Bold", 11, "Justification"),
        ("Helvetica", 10, "Social defeat produces a more ethologically relevant chronic stress than restraint;"),
        ("Helvetica", 10, "comparing both paradigms needs two extra groups of 20 animals (power analysis attached)."),
        ("Helvetica", 10, ""),
        ("Helvetica", 10, "Personnel: unchanged (J. Hart, K. Morrow). Housing: Room B-214."),
    ]:
        c.setFont(face, size)
        c.drawString(50, y, text)
        y -= size + 7
    c.save()


def cage_card(path: Path) -> None:
    rnd = random.Random(4471)
    img = Image.new("RGB", (720, 480), (150, 160, 170))
    d = ImageDraw.Draw(img)
    for x in range(0, 720, 18):  # the cage's wire lid behind the card holder
        d.line((x, 0, x + 40, 480), fill=(120, 128, 136), width=3)
    d.rectangle((110, 60, 610, 420), fill=(250, 246, 200), outline=(80, 80, 80), width=3)
    bold, body = font("DejaVuSans-Bold.ttf", 24), font("DejaVuSans.ttf", 21)
    hand = font("DejaVuSerif-BoldItalic.ttf", 34)
    d.text((130, 75), "BRACKENRIDGE VIVARIUM", font=bold, fill=(30, 30, 30))
    d.line((125, 110, 595, 110), fill=(80, 80, 80), width=2)
    rows = [("Cage", F.cage.id), ("Protocol", P.id), ("PI", "Hart"), ("Strain", "C57BL/6J"), ("Sex", "M"),
            ("DOB", "19/01/2026"), ("Room", F.cage.room)]  # fmt: skip
    y = 122
    for k, v in rows:
        d.text((135, y), f"{k}:", font=body, fill=(40, 40, 40))
        d.text((290, y), v, font=body, fill=(20, 20, 20))
        y += 34
    d.text((135, y + 4), "No. of animals:", font=body, fill=(40, 40, 40))
    d.text((330, y - 2), str(F.cage.census_count), font=hand, fill=(40, 40, 140))
    d.line((322, y + 20, 362, y + 8), fill=(200, 20, 20), width=4)  # struck through
    d.text((385, y - 4), str(F.cage.photo_count), font=hand, fill=(200, 20, 20))
    d.text((440, y + 8), "(recounted 6/4 SR)", font=font("DejaVuSans.ttf", 15), fill=(200, 20, 20))
    for _ in range(700):
        x, yy = rnd.randrange(720), rnd.randrange(480)
        d.point((x, yy), fill=(rnd.randrange(100, 200),) * 3)
    img = img.rotate(-2.0, resample=Image.BICUBIC, expand=False, fillcolor=(140, 150, 160))
    img.filter(ImageFilter.GaussianBlur(0.8)).save(path, format="JPEG", quality=70, optimize=True)


VOICE = (
    "Noor, it's Paul Okonjo, Wednesday morning, my pre-review of the Hart amendment, the social defeat one. "
    "It's acceptable with two conditions. First, daily weight checks, and the humane endpoint is fifteen percent "
    "weight loss from baseline, not twenty. Second, any bite wound gets meloxicam, five milligrams per kilo, and a "
    "vet check the same day. With that I'd put the procedure in pain category E, not D. Fine to go to the full "
    "committee. Thanks."
)


def voice_note(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "note.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "38", "-w", str(wav), VOICE], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1", "day2", "day3/voice_notes"):
        (HERE / sub).mkdir(parents=True)
    form(HERE / "day1/AM_request_P-2025-118_Hart.pdf")
    cage_card(HERE / "day2/cage_card_C-4471.jpg")
    voice_note(HERE / "day3/voice_notes/okonjo_2026-04-08_0750.mp3")


if __name__ == "__main__":
    main()
