"""Regenerate the beta-programme task's evidence deterministically (the outputs are committed).

    python tasks/pm/beta_program/make_evidence.py

Authoring-time tools only: Pillow (the frames of the screen recording; the scanned NDA page),
reportlab (the wrapper of the scan: an image-only PDF), ffmpeg (libx264, one thread, bit-exact
flags; the memo as 16 kHz mono MP3) and espeak-ng (the QA lead's voice memo).

- day2/ade_bello_sync_bug.mp4          video: a note emptied by a sync conflict; the build in the About bar
- day2/BT-2207_NDA_countersigned.pdf   image-only PDF: the countersigned NDA and its signature date
- day3/jonas_beta5_memo.mp3            spoken: which feedback rows beta.5 fixes, and one duplicate
- day3/FB-0536_settings.png            image: what a tester circled in Settings (a misspelt label)
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
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, *, bold: bool = False, italic: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else ("DejaVuSans-Oblique.ttf" if italic else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


# -- the screen recording (video) -----------------------------------------------------------------
NOTE = ["Q2 launch plan", "", "- confirm venue by 12 May", "- send press kit draft", "- budget: see sheet"]
FPS = 2


def app_frame(i: int) -> Image.Image:
    img = Image.new("RGB", (640, 400), (246, 246, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 640, 28), fill=(52, 58, 70))
    d.text(
        (10, 6),
        f"Driftnote 3.0.0-{F.builds.beta4} hotfix (build {F.builds.bug_build})  -  About",
        font=font(12),
        fill=(230, 232, 236),
    )
    d.rectangle((0, 28, 150, 400), fill=(232, 234, 238))
    for n, name in enumerate(["Inbox", "Q2 launch plan", "Reading list", "Recipes"]):
        d.text((14, 44 + n * 26), name, font=font(13, bold=(n == 1)), fill=(40, 44, 52))
    stage = i // (2 * FPS)  # 0: note, 1: tablet back online, 2: conflict resolved, 3: empty
    if stage <= 1:
        for n, line in enumerate(NOTE):
            d.text((170, 50 + n * 26), line, font=font(15, bold=(n == 0)), fill=(25, 25, 30))
    else:
        d.text((170, 50), "Q2 launch plan", font=font(15, bold=True), fill=(25, 25, 30))
        d.text((170, 90), "This note is empty.", font=font(14, italic=True), fill=(150, 150, 158))
    if stage >= 1:
        d.rectangle((380, 340, 630, 390), fill=(40, 44, 52))
        msg = "Tablet back online - syncing..." if stage == 1 else "Sync conflict resolved (kept: tablet)"
        d.text((390, 356), msg, font=font(12), fill=(240, 240, 240))
    x = 200 + 20 * i
    d.polygon([(x, 200), (x, 218), (x + 5, 213), (x + 12, 220)], fill=(0, 0, 0))
    return img


def recording(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(8 * FPS):
            app_frame(i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the countersigned NDA (a scan: image-only PDF) -----------------------------------------------
def nda_scan(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((60, 60), "LUMENWAVE GmbH - BETA TESTER NON-DISCLOSURE AGREEMENT", font=font(19, bold=True), fill=20)
    d.text((60, 100), "Programme: Driftnote 3.0 beta (all builds until general availability)", font=font(17), fill=30)
    lines = [
        f"Tester ID: {F.testers.marco}",
        "Tester: Marco Silva, Silva Consulting, Porto",
        "",
        "1. The tester keeps all builds, features, screenshots and feedback confidential.",
        "2. This agreement runs for twelve months from the tester's signature.",
        "3. Lumenwave may end the tester's participation at any time.",
        "",
    ]
    y = 160
    for line in lines:
        d.text((60, y), line, font=font(17), fill=25)
        y += 34
    day, month, year = F.testers.marco_nda_date.split("-")[2], "May", F.testers.marco_nda_date.split("-")[0]
    d.text((60, y + 20), "Signed by the tester:", font=font(16), fill=30)
    d.text((330, y + 10), "M. Silva", font=font(30, italic=True), fill=10)
    d.text((60, y + 60), f"Date of signature: {int(day)} {month} {year}", font=font(17, bold=True), fill=15)
    d.text((60, y + 140), "Countersigned for Lumenwave:", font=font(16), fill=30)
    d.text((330, y + 130), "S. Marin", font=font(30, italic=True), fill=10)
    d.text((60, y + 180), "Sofia Marin, Legal Counsel - 5 May 2026", font=font(16), fill=30)
    rnd = random.Random(2207)
    for _ in range(1500):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, fillcolor=235).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=70, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan_0505")
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=A4[0], height=A4[1])
    c.save()


# -- a tester's screenshot (image) ---------------------------------------------------------------
def settings_screenshot(path: Path) -> None:
    img = Image.new("RGB", (560, 320), (246, 246, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 560, 28), fill=(52, 58, 70))
    d.text((10, 6), "Driftnote - Settings", font=font(12), fill=(230, 232, 236))
    for n, (label, value) in enumerate([("Account", "lena.fischer"), ("Syncronisation", "Every 5 minutes"),
                                        ("Theme", "Dark"), ("Language", "English (UK)")]):  # fmt: skip
        d.text((30, 60 + n * 50), label, font=font(15, bold=True), fill=(30, 30, 36))
        d.text((260, 60 + n * 50), value, font=font(15), fill=(60, 60, 70))
    d.ellipse((16, 100, 200, 144), outline=(220, 30, 30), width=3)
    d.text((210, 280), "spelling? - L.F.", font=font(14, italic=True), fill=(220, 30, 30))
    img = img.quantize(colors=32, dither=Image.Dither.NONE)
    img.save(path, format="PNG", optimize=True)


# -- the QA lead's voice memo (audio) -------------------------------------------------------------
def spoken(fb: str) -> str:
    return "F B " + " ".join(fb.split("-")[1])


MEMO = (
    f"Hi Amara, Jonas here. Quick summary of what QA confirmed on beta five. "
    f"Fixed in beta five: {spoken(F.triage.fixed[0])}, the crash when exporting to PDF, and {spoken(F.triage.fixed[1])}, "
    f"Ade's sync data loss. {spoken(F.triage.duplicate)} is the same bug as {spoken(F.triage.duplicate_of)}, please mark it "
    f"as a duplicate. And careful: {spoken(F.triage.duplicate_of)} itself is not fixed yet, it needs a server change. That's it."
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day2", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    recording(HERE / "day2/ade_bello_sync_bug.mp4")
    nda_scan(HERE / "day2/BT-2207_NDA_countersigned.pdf")
    memo(HERE / "day3/jonas_beta5_memo.mp3")
    settings_screenshot(HERE / "day3/FB-0536_settings.png")


if __name__ == "__main__":
    main()
