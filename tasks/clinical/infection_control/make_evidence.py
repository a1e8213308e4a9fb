"""Regenerate the infection-control task's evidence deterministically (the outputs are committed).

    python tasks/clinical/infection_control/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the whiteboard photo
and the scanned lab report, both raster: no text layer), reportlab (the scan's PDF wrapper),
espeak-ng + ffmpeg (the microbiologist's voice memo, 16 kHz mono MP3).

- day1/ward/ward9_whiteboard_2025-11-03.jpg    photo of the ward whiteboard: the weekend bed moves
- day1/lab/ward9_norovirus_pcr_2025-11-03.pdf   image-only PDF: the five PCR results
- day2/memo/mehta_memo_2025-11-04.mp3           spoken memo: the HPT's outbreak reference, instructions
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
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
REF = F.outbreak.ref  # "OB-2025-117"

RESULT_TEXT = {
    "detected": "Norovirus GII RNA DETECTED",
    "not detected": "Norovirus GI/GII RNA not detected",
    "unsuitable": "SAMPLE UNSUITABLE - insufficient, please repeat",
}

MOVES = [
    # when, mrn, from, to
    ("Sat 14:00", "P-3311", "B5", "SR1"),
    ("Sun 22:00", "P-3318", "B6", "A2"),
    ("Mon 06:30", "P-3318", "A2", "SR3"),
    ("Mon 07:15", F.contact.mrn, F.contact.bed_before, F.contact.bed_now),
]

MEMO = (
    "Hi Siobhan, it's Arjun Mehta, Tuesday morning, about Ward 9. Three things. "
    "First, I declared the outbreak to the health protection team by phone last night. "
    f"Their outbreak reference is O B, {' '.join(REF.split('-')[1])}, {' '.join(REF.split('-')[2])}. "
    "Please send them the written notification today, counts only, as our policy says, and quote that reference. "
    "Second, Walter Price in B 8 is still symptomatic, so he stays a suspected case whatever the P C R said. "
    "Third, no bay reopens without my written clearance. I'll write once the terminal cleans are done. Thanks."
)


def whiteboard(path: Path) -> None:
    """A phone photo of the ward whiteboard: marker handwriting-ish text, glare, a slight tilt."""
    w, h = 900, 600
    img = Image.new("RGB", (w, h), (236, 238, 234))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 26), fill=(150, 150, 155))  # frame
    d.rectangle((0, h - 30, w, h), fill=(150, 150, 155))
    marker = ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 30)
    big = ImageFont.truetype(str(FONTS / "DejaVuSans-BoldOblique.ttf"), 36)
    d.text((40, 40), "WARD 9 - BED MOVES", font=big, fill=(20, 40, 140))
    d.line((40, 86, 520, 86), fill=(20, 40, 140), width=3)
    y = 110
    for when, mrn, src, dst in MOVES:
        d.text((40, y), f"{when}   {mrn}   {src}  ->  {dst}", font=marker, fill=(25, 25, 30))
        y += 58
    d.text((40, y + 20), "Bays A + B CLOSED - no admissions", font=marker, fill=(170, 20, 20))
    d.text((560, 40), "Nurse in charge: BA", font=ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 22),
           fill=(20, 100, 40))  # fmt: skip
    d.text((600, 480), "Domestics: Bay A clean Mon pm", font=ImageFont.truetype(str(FONTS / "DejaVuSans-Oblique.ttf"), 18),
           fill=(20, 100, 40))  # fmt: skip
    rnd = random.Random(3301)  # seeded: the same bytes every run
    glare = Image.new("L", (w, h), 0)
    ImageDraw.Draw(glare).ellipse((620, 120, 860, 300), fill=70)
    img = Image.composite(Image.new("RGB", (w, h), (255, 255, 255)), img, glare.filter(ImageFilter.GaussianBlur(40)))
    d = ImageDraw.Draw(img)
    for _ in range(900):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        d.point((x, yy), fill=(rnd.randrange(170, 230),) * 3)
    img = img.rotate(1.6, resample=Image.BICUBIC, expand=False, fillcolor=(90, 90, 95))
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=72, optimize=True)


def lab_scan(path: Path) -> None:
    """The analyser printout, scanned: a grey raster page, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 24)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 18)
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 17)
    small = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 14)
    d.text((60, 50), "CASTLEGATE ROYAL INFIRMARY - VIROLOGY", font=bold, fill=20)
    d.text((60, 86), "Gastrointestinal PCR panel - batch report", font=mid, fill=40)
    d.line((60, 116, 790, 116), fill=60, width=2)
    d.text((60, 132), "Location: Ward 9 (care of the elderly)   Received: 02/11/2025   Run: 03/11/2025 05:40",
           font=small, fill=30)  # fmt: skip
    y = 180
    d.text((60, y), "Hosp. no.", font=mid, fill=20)
    d.text((200, y), "Lab no.", font=mid, fill=20)
    d.text((340, y), "Result", font=mid, fill=20)
    y += 40
    for n, case in enumerate(F.cases):
        d.text((60, y), case["mrn"], font=mono, fill=5)
        d.text((200, y), f"25-1102-{410 + n}", font=mono, fill=25)
        d.text((340, y), RESULT_TEXT[case["result"]], font=mono, fill=5)
        y += 44
    y += 30
    d.text((60, y), "Norovirus GII detected: report to infection prevention and control.", font=small, fill=30)
    d.text((60, 1030), "Validated: P. Ashworth, Clinical Scientist      Page 1 of 1", font=small, fill=40)
    rnd = random.Random(3311)
    for _ in range(1600):
        x, yy = rnd.randrange(w), rnd.randrange(h)
        d.point((x, yy), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=232)
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=68, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan0411")
    aw, ah = A4
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/ward", "day1/lab", "day2/memo"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    whiteboard(HERE / "day1/ward" / F.names.whiteboard)
    lab_scan(HERE / "day1/lab" / F.names.lab_scan)
    voice_memo(HERE / "day2/memo" / F.names.memo)


if __name__ == "__main__":
    main()
