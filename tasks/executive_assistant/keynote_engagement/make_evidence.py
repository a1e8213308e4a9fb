"""Regenerate the keynote task's evidence deterministically (the outputs are committed).

    python tasks/executive_assistant/keynote_engagement/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the scanned speaker
pack and the rehearsal-schedule screenshot: pixels only), reportlab (the PDFs), espeak-ng + ffmpeg
(Ayesha's voice memo, 16 kHz mono MP3, bit-exact flags). The background inbox and month are made by
make_background.py.

- day1/speaker_pack_NAS2025.pdf   scanned page, no text layer: slide and AV-form deadlines, the slide
  limit, and the check-in rule (45 minutes before the slot, 15 minutes)
- day1/rehearsal_schedule.png     screenshot of the organiser's rehearsal grid: Wed 22 Oct 16:00 or 17:30
- day1/memo_av_needs.mp3          Ayesha's AV requirements (handheld mic, clicker, confidence monitor,
  demo video with sound, USB-C laptop)
- day3/Karim_keynote_v3.pdf       the comms team's draft: 24 slides, slide 19 internal (Project Kestrel)
- day4/Karim_keynote_v4.pdf       the cleared deck: 18 slides
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
P = F.pack
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def speaker_pack(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "NORTHERN AUTOMATION SUMMIT 2025 - LISBON", font=font("DejaVuSans-Bold.ttf", 24), fill=20)
    d.text((60, 88), "Speaker pack: keynote speakers", font=font("DejaVuSans.ttf", 19), fill=40)
    d.line((60, 122, 790, 122), fill=60, width=2)
    lines = [
        ("Deadlines", True),
        ("AV requirements form: by Wednesday 15 October 2025 (reply to the speaker team)", False),
        (f"Final slides: by Friday 17 October 2025, {P.slides_due_time} CET, by reply to our upload mail", False),
        ("", False),
        ("Slides", True),
        (f"16:9, PDF or PPTX, at most {P.max_slides} slides for a 45-minute keynote.", False),
        ("Embedded video: tell us on the AV form if it has sound.", False),
        ("", False),
        ("On the day", True),
        (f"Check in at the speaker desk {P.checkin_before} minutes before your slot", False),
        (f"(allow {P.checkin_minutes} minutes for mic fitting and a sound check).", False),
        ("Rehearsal slots: see the rehearsal schedule sent with this pack.", False),
        ("", False),
        ("Venue", True),
        (F.keynote.venue, False),
        ("Rua do Congresso 1, Lisbon. Speaker entrance on the river side.", False),
    ]
    y = 150
    for text, bold in lines:
        d.text(
            (60, y), text, font=font("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", 19 if bold else 17), fill=15
        )
        y += 36 if bold else 30
    d.text((60, 1040), "NAS 2025 speaker team - speakers@nas-summit.example", font=font("DejaVuSans.ttf", 14), fill=60)
    rnd = random.Random(2025)
    for _ in range(1500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 210))
    page = page.rotate(0.7, resample=Image.BICUBIC, fillcolor=235).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=65, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan_nas_pack")
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=A4[0], height=A4[1])
    c.save()


def rehearsal_schedule(path: Path) -> None:
    img = Image.new("RGB", (640, 300), (250, 250, 252))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 640, 44), fill=(30, 60, 110))
    d.text(
        (16, 10),
        "NAS 2025 - Auditorium 1 rehearsals, Wed 22 Oct",
        font=font("DejaVuSans-Bold.ttf", 19),
        fill=(255, 255, 255),
    )
    rows = [("14:30", "Okonkwo (booked)"), ("16:00", "OPEN - keynote: Karim"), ("16:30", "Lindahl (booked)"),
            ("17:30", "OPEN - keynote: Karim"), ("18:00", "Venue closes to speakers")]  # fmt: skip
    y = 60
    for t, what in rows:
        fill = (225, 245, 228) if "OPEN" in what else (238, 238, 240)
        d.rectangle((16, y, 624, y + 36), fill=fill, outline=(200, 200, 205))
        d.text((28, y + 8), t, font=font("DejaVuSansMono-Bold.ttf", 17), fill=(20, 20, 20))
        d.text((110, y + 8), what, font=font("DejaVuSans.ttf", 17), fill=(20, 20, 20))
        y += 44
    d.text(
        (16, 280),
        f"Slots are {P.rehearsal_minutes} minutes. Pick one by reply.",
        font=font("DejaVuSans.ttf", 13),
        fill=(90, 90, 90),
    )
    img.save(path, format="PNG", optimize=True)


MEMO = (
    "Hi, it's Ayesha, for the summit A V form. I want a handheld microphone, not a lapel one, because I walk "
    "around the stage. I need a clicker, and a confidence monitor please. The robot demo video on slide twelve "
    "has sound, so they need audio playback from my laptop. And I'll present from my own laptop, which only has "
    "U S B C, so ask for a U S B C to H D M I adapter. Thanks."
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "m.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "60", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


TOPICS = [
    "Why factories stall", "The cost of a stopped line", "What robots still get wrong", "Sensing at the edge",
    "Fleet learning", "Safety by design", "Three customer stories", "Demo: pick-and-place", "Uptime numbers",
    "Integration in weeks, not months", "People and robots", "Robot demo video", "Open interfaces", "Energy use",
    "Our 2025 results", "What we learned", "Partners", "Where next", "Project Kestrel: launch plan",
    "Hiring", "Research", "Community", "Thank you", "Questions",
]  # fmt: skip


def deck(path: Path, version: str, pages: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=landscape(A4), invariant=1)
    c.setTitle(f"Karim keynote {version}")
    w, h = landscape(A4)
    for n, title in enumerate(pages, 1):
        internal = "Kestrel" in title
        c.setFont("Helvetica-Bold", 26)
        c.drawString(60, h - 90, title)
        c.setFont("Helvetica", 14)
        if internal:
            c.setFillColorRGB(0.7, 0.1, 0.1)
            c.drawString(60, h - 130, "INTERNAL - NOT FOR EXTERNAL SHARING")
            c.setFillColorRGB(0, 0, 0)
            c.drawString(60, h - 170, f"{F.deck.codename}: general availability {F.deck.launch}, 3 pilot customers")
        else:
            c.drawString(60, h - 130, "Dr Ayesha Karim, CTO, Tessera Robotics - Northern Automation Summit 2025")
        c.setFont("Helvetica", 10)
        c.drawString(w - 120, 30, f"{version}  {n}/{len(pages)}")
        c.showPage()
    c.save()


def main() -> None:
    for sub in ("day1", "day3", "day4"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    speaker_pack(HERE / "day1/speaker_pack_NAS2025.pdf")
    rehearsal_schedule(HERE / "day1/rehearsal_schedule.png")
    memo(HERE / "day1/memo_av_needs.mp3")
    assert len(TOPICS) == F.deck.v3_pages and TOPICS.index("Project Kestrel: launch plan") + 1 == F.deck.internal_page
    deck(HERE / "day3/Karim_keynote_v3.pdf", "v3", TOPICS)
    v4 = [
        t
        for t in TOPICS
        if "Kestrel" not in t and t not in ("Hiring", "Research", "Community", "Energy use", "Partners")
    ]
    assert len(v4) == F.deck.v4_pages
    deck(HERE / "day4/Karim_keynote_v4.pdf", "v4", v4)


if __name__ == "__main__":
    main()
