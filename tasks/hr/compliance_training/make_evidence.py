"""Regenerate the compliance-training task's evidence deterministically (the outputs are committed).

    python tasks/hr/compliance_training/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (certificates, video
frames, the scan), reportlab (the wrapper of the scan), espeak-ng and ffmpeg (the voicemail: fixed
voice, speed and pitch, 16 kHz mono, bit-exact flags; the clip: libx264, one thread, bit-exact).

- day1/certificates/cert_E-50x.(png|jpg)       LMS certificate screenshots (pixels only): version,
  completion date, certificate number
- day1/video/team_session_DPIS_excerpt.mp4      4 s of the recording Hugo's team watched: the title
  card names the retired version 3.8
- day2/certificates/cert_E-505.png, day4/certificates/cert_E-504.png   more certificates
- day3/voicemail/VM_Selma_Aydin_20251107.mp3    Selma: Marco is on approved sick leave (only here)
- day4/certificates/cert_E-506_scan.pdf         image-only PDF: a printed certificate, scanned
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")
NAMES = {"E-501": "Lena Vermeer", "E-502": "Marco Bianchi", "E-503": "Yusuf Demir", "E-504": "Joris Smit",
         "E-505": "Eva Lindqvist", "E-506": "Nadia Kaplan"}  # fmt: skip


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "serif": "DejaVuSerif.ttf",
             "hand": "DejaVuSerif-Italic.ttf"}  # fmt: skip
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def long_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d:%B %Y}"


def certificate(emp: str) -> Image.Image:
    version, completed, number = F.certificates[emp]
    img = Image.new("RGB", (760, 460), (255, 255, 252))
    d = ImageDraw.Draw(img)
    d.rectangle((12, 12, 748, 448), outline=(30, 70, 120), width=4)
    d.text((40, 36), "ORRIN LEARNING - CERTIFICATE OF COMPLETION", font=font(22, "bold"), fill=(30, 70, 120))
    d.text((40, 96), "This certifies that", font=font(17), fill=(60, 60, 60))
    d.text((40, 124), f"{NAMES[emp]}  ({emp})", font=font(30, "serif"), fill=(10, 10, 10))
    d.text((40, 186), "has completed the e-learning course", font=font(17), fill=(60, 60, 60))
    d.text((40, 214), "Data Protection & Information Security (DPIS)", font=font(22, "bold"), fill=(10, 10, 10))
    d.text((40, 270), f"Course version {version}", font=font(20), fill=(10, 10, 10))
    d.text((40, 304), f"Completed on {long_date(completed)}", font=font(20), fill=(10, 10, 10))
    d.text((40, 384), f"Certificate no. {number}", font=font(16), fill=(60, 60, 60))
    d.text((470, 384), "Orrin Medical L&D", font=font(16, "hand"), fill=(60, 60, 60))
    return img


def save_png(img: Image.Image, path: Path) -> None:
    img.convert("P", palette=Image.ADAPTIVE, colors=32).save(path, format="PNG", optimize=True)


def save_jpg(img: Image.Image, path: Path) -> None:
    img.save(path, format="JPEG", quality=70, optimize=True)


# -- the team-session recording: a title card, then a slide ---------------------------------------
W, H, FPS = 480, 270, 10


def frame(kind: str, i: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (18, 44, 78) if kind == "title" else (245, 245, 240))
    d = ImageDraw.Draw(img)
    if kind == "title":
        d.text((30, 60), "DPIS", font=font(44, "bold"), fill=(255, 255, 255))
        d.text((30, 120), "Data Protection & Information Security", font=font(19), fill=(220, 230, 245))
        d.text((30, 160), f"Version {F.video.version}  ({F.video.edition})", font=font(21, "bold"), fill=(255, 210, 90))
    else:
        d.text((24, 24), "Module 1 - What is personal data?", font=font(20, "bold"), fill=(18, 44, 78))
        for n, line in enumerate(["Names, e-mail addresses, IDs", "Health data: special category",
                                  "Pseudonymised data is still personal"]):  # fmt: skip
            d.text((40, 80 + n * 40), f"- {line}", font=font(17), fill=(30, 30, 30))
    d.text((W - 90, H - 24), f"00:0{i // FPS}:{(i % FPS) * 6:02d}", font=font(12), fill=(150, 150, 150))
    return img


def clip(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(4 * FPS):
            frame("title" if 8 <= i < 20 else "slide", i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "30", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the voicemail ---------------------------------------------------------------------------------
def voicemail(path: Path) -> None:
    lv = F.leave
    text = (
        "Hi Beatrix, it's Selma Aydin from Regulatory. It's about Marco Bianchi, employee E, five, oh, two. "
        f"He has been on approved sick leave since {long_date(lv.first_day)}, and he is off until "
        f"Friday {long_date(lv.last_day)}. Please hold off any access suspension for him until he is back. "
        "Thanks, bye."
    )
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "155", "-p", "45", "-w", str(raw), text], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(raw), "-ac", "1", "-ar", "16000", "-c:a", "libmp3lame", "-b:a", "24k",
             "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- a printed certificate, scanned: image-only PDF ------------------------------------------------
def scanned(path: Path, emp: str) -> None:
    page = Image.new("L", (850, 1100), 246)
    page.paste(certificate(emp).convert("L"), (45, 160))
    d = ImageDraw.Draw(page)
    rnd = random.Random(506)
    for _ in range(1600):
        d.point((rnd.randrange(850), rnd.randrange(1100)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.8, resample=Image.BICUBIC, fillcolor=236).filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=60, optimize=True)
    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    pdf.setTitle("scan_1111_0815")
    pw, ph = A4
    pdf.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=pw, height=ph)
    pdf.save()


def main() -> None:
    for sub in ("day1", "day2", "day3", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/certificates", "day1/video", "day2/certificates", "day3/voicemail", "day4/certificates"):
        (HERE / sub).mkdir(parents=True)
    save_png(certificate("E-501"), HERE / "day1/certificates/cert_E-501.png")
    save_jpg(certificate("E-502"), HERE / "day1/certificates/cert_E-502.jpg")
    save_png(certificate("E-503"), HERE / "day1/certificates/cert_E-503.png")
    clip(HERE / "day1/video/team_session_DPIS_excerpt.mp4")
    save_png(certificate("E-505"), HERE / "day2/certificates/cert_E-505.png")
    voicemail(HERE / "day3/voicemail/VM_Selma_Aydin_20251107.mp3")
    save_png(certificate("E-504"), HERE / "day4/certificates/cert_E-504.png")
    scanned(HERE / "day4/certificates/cert_E-506_scan.pdf", "E-506")


if __name__ == "__main__":
    main()
