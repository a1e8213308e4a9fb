"""Regenerate the usability-study task's evidence deterministically (the outputs are committed).

    python tasks/pm/usability_study/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the scanned consent
forms: grey JPEGs, no text layer), espeak-ng + ffmpeg (the researcher's dictated notes and the
participant's clip, 16 kHz mono MP3), reportlab (finance's text PDF).

- day2/consent/consent_<surname>.jpg  five scanned forms: ticked boxes and signatures exist only here
  (Kelly left the recording box empty; Sandvik did not sign)
- day3/clips/UXS-14_P01_excerpt.mp3   dictated notes (times on task, outcomes) and the participant,
  who says her first name
- day4/finance/UXS-14_incentive_approval.pdf  text PDF: the approved incentive rates
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
F = FOLDER.facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
SCREENER = {r["Resp ID"]: r for r in FOLDER.table("seed/screener.csv")}

NOTES = (
    "Kofi here, notes on session P 0 1, Tuesday morning. Task one, find the amount saved towards the holiday goal: "
    f"success, {F.clip.task1_seconds} seconds, no help needed. Task two, set up a round up rule into the holiday goal: "
    f"{F.clip.task2_seconds} seconds, and she only got there after I hinted at the settings menu, so log it as assisted. "
    "She looked for the round up option on the goal page first. Here is what she said."
)
QUOTE = (
    "Honestly, I'm Grace, I've banked with you for years, and I would never think to look under settings for that. "
    "I expected it on the goal itself."
)


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def consent_form(path: Path, name: str, recording: bool, signed: bool, seed: int) -> None:
    """A printed form filled in by hand, then scanned: a grey raster, no text layer."""
    w, h = 560, 720
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((40, 36), "TIDEWELL BANK", font=font("DejaVuSans-Bold.ttf", 20), fill=25)
    d.text((40, 64), "Research participation consent", font=font("DejaVuSans.ttf", 15), fill=35)
    d.text((40, 86), "Study UXS-14  Savings Goals v2 usability sessions", font=font("DejaVuSans.ttf", 12), fill=45)
    d.line((40, 110, 520, 110), fill=70, width=2)
    body = font("DejaVuSans.ttf", 12)
    d.text((40, 130), "Participant name:", font=body, fill=30)
    hand = font("DejaVuSerif-Italic.ttf", 19)
    d.text((170, 124), name, font=hand, fill=15)
    d.line((165, 148, 520, 148), fill=90)
    boxes = [
        ("I agree to take part in this usability session.", True),
        ("I agree to the audio recording of my session.", recording),
        ("I understand I can withdraw at any time.", True),
    ]
    y = 180
    rnd = random.Random(seed)
    for text, ticked in boxes:
        d.rectangle((40, y, 58, y + 18), outline=30, width=2)
        if ticked:
            dx = rnd.randrange(-2, 3)
            d.line((42 + dx, y + 9, 48 + dx, y + 17, 64 + dx, y - 6), fill=10, width=3)
        d.text((70, y + 1), text, font=body, fill=30)
        y += 40
    d.text(
        (40, 320),
        "Your data is used only by Tidewell's research team and deleted after 12 months.",
        font=font("DejaVuSans.ttf", 10),
        fill=60,
    )
    d.text((40, 380), "Signature:", font=body, fill=30)
    d.line((120, 400, 360, 400), fill=90)
    if signed:
        pts = [(130 + i * 9, 392 - rnd.randrange(0, 22)) for i in range(22)]
        d.line(pts, fill=15, width=2)
    d.text((380, 380), "Date:", font=body, fill=30)
    d.text((425, 376), "14/03/26", font=hand, fill=15)
    d.line((420, 400, 520, 400), fill=90)
    for _ in range(700):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(130, 210))
    page = page.rotate(rnd.choice((-0.7, 0.5, 0.9)), resample=Image.BICUBIC, fillcolor=236)
    page = page.filter(ImageFilter.GaussianBlur(0.5))
    page.save(path, format="JPEG", quality=60, optimize=True)


def speak(text: str, voice: str, wav: Path, speed: int, pitch: int) -> None:
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(wav), text], check=True)


def clip(path: Path) -> None:
    """Kofi's dictation (en-gb) then the participant (a higher en-us voice), 16 kHz mono MP3."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = Path(tmp) / "a.wav", Path(tmp) / "b.wav"
        speak(NOTES, "en-gb", a, 160, 35)
        speak(QUOTE, "en-us+f3", b, 150, 60)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(a), "-i", str(b),
             "-filter_complex", "[0:a]aresample=16000[x];[1:a]aresample=16000[y];[x][y]concat=n=2:v=0:a=1[out]",
             "-map", "[out]", "-ac", "1", "-c:a", "libmp3lame", "-b:a", "32k", "-fflags", "+bitexact",
             "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def approval(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("UXS-14 incentive approval")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(60, 790, "Tidewell Bank - Finance: research incentive approval")
    c.setFont("Helvetica", 10.5)
    lines = [
        "Study: UXS-14 Savings Goals v2 usability sessions      Approved by: Hannah Cole, 19 March 2026",
        "",
        f"Budget for participant incentives: GBP {F.incentives.budget} (gift vouchers, paid through the research panel).",
        "",
        "Approved rates per participant (use these outcome labels on the payment list):",
        f"   attended       - took part in the session                                   GBP {F.incentives.attended}",
        f"   late cancel    - cancelled with less than 24 hours' notice             GBP {F.incentives.late_cancel}",
        f"   withdrawn      - withdrew or never gave valid consent                  GBP {F.incentives.withdrawn}",
        "   no-show        - did not turn up without notice                               GBP 0",
        "",
        "Finance pays against the payment list from research operations; research operations",
        "does not mark payments as paid. Do not exceed the budget without a new approval.",
    ]
    y = 760
    for line in lines:
        c.drawString(60, y, line)
        y -= 16
    c.save()


def main() -> None:
    for sub in ("day2/consent", "day3/clips", "day4/finance"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    for n, (resp, pseudo, _slot) in enumerate(F.recruit.eligible):
        name = SCREENER[resp]["Name"]
        state = F.consent.expected[pseudo]
        surname = name.split()[-1].lower()
        consent_form(HERE / "day2/consent" / f"consent_{surname}.jpg", name, state != "no recording",
                     resp != F.consent.unsigned, 1400 + n)  # fmt: skip
    clip(HERE / "day3" / F.names.clip)
    approval(HERE / "day4" / F.names.approval)


if __name__ == "__main__":
    main()
