"""Regenerate the ESG-screening task's evidence deterministically (the outputs are committed).

    python tasks/investment/esg_screening/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the news photo and
the video frames), reportlab (the NGO's text PDF), espeak-ng + ffmpeg (the voice memo, 16 kHz mono
MP3; the drone clip, libx264 with one thread and bit-exact flags).

- day1/news/ellis_river_spill_photo.jpg      a press photo: the outfall sign shows who runs the site
  (the article names another company); pixels only
- day2/ngo/RiverWatch_briefing_Ellis_April2026.pdf  text PDF: the site's earlier release (date, volume)
- day2/ngo/RiverWatch_drone_Ellis_2026-04-18.mp4    5 s drone clip: for about a second a map overlay
  shows the plume inside the protected estuary's boundary
- day2/site_visit/costa_port_ellis_2026-04-20.mp3   spoken site-visit memo: the operator's volume
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
N = F.names
I = F.incident  # noqa: E741
FONTS = Path("/usr/share/fonts/truetype/dejavu")
MEMO = (
    "Site visit memo. Rafael Costa, Port Ellis, Monday the twentieth of April. "
    "I met the plant manager at the Port Ellis works this morning. "
    f"He confirmed that Friday's release from outfall three was about {I.volume_words} of iron oxide slurry, "
    "measured from the tank levels, and that the regulator has opened an investigation. "
    "Clean-up crews were still working on the foreshore. He would not comment on earlier releases. End of memo."
)


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "cond": "DejaVuSansCondensed-Bold.ttf"}
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def river_scene(w: int, h: int, rnd: random.Random) -> Image.Image:
    img = Image.new("RGB", (w, h), (120, 140, 110))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, h * 0.35), fill=(170, 190, 205))  # sky
    d.polygon([(0, h * 0.55), (w, h * 0.48), (w, h), (0, h)], fill=(70, 95, 110))  # river
    d.polygon([(w * 0.1, h * 0.62), (w * 0.55, h * 0.52), (w * 0.9, h * 0.7), (w * 0.3, h * 0.95)], fill=(186, 98, 38))
    for _ in range(900):
        x, y = rnd.randrange(w), rnd.randrange(int(h * 0.35), h)
        d.point((x, y), fill=(rnd.randrange(60, 200), rnd.randrange(60, 160), rnd.randrange(30, 120)))
    return img


# -- the press photo ------------------------------------------------------------------------------
def photo(path: Path) -> None:
    rnd = random.Random(417)
    img = river_scene(720, 480, rnd)
    d = ImageDraw.Draw(img)
    d.rectangle((60, 120, 250, 330), fill=(90, 90, 95))  # outfall structure
    d.ellipse((120, 260, 190, 320), fill=(30, 30, 30))
    d.rectangle((300, 150, 640, 262), fill=(245, 245, 240), outline=(20, 60, 120), width=5)  # the sign
    d.text((316, 160), "NORVANE CHEMICALS", font=font(28, "bold"), fill=(20, 60, 120))
    d.text((316, 198), N.site.upper() + " - OUTFALL 3", font=font(20, "bold"), fill=(30, 30, 30))
    d.text((316, 230), "Permit EP-7731  No unauthorised access", font=font(14), fill=(60, 60, 60))
    d.line((470, 262, 470, 330), fill=(80, 80, 80), width=6)
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    img.save(path, format="JPEG", quality=60, optimize=True)


# -- the NGO briefing (text PDF) --------------------------------------------------------------------
def briefing(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("RiverWatch briefing - Ellis river discharges")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(50, 790, "RiverWatch Alliance - Briefing: discharges to the Ellis river")
    c.setFont("Helvetica", 10)
    c.drawString(
        50, 772, "Published 21 April 2026. Sources: regulator's public register, our volunteers, site photographs."
    )
    y = 740
    rows = [
        ("Site", "Date", "Operator", "Release", "Source"),
        (
            N.site,
            I.prior_date,
            "Norvane Chemicals",
            f"{I.prior_litres:,} litres, caustic rinse water",
            "regulator register",
        ),
        (N.site, I.date, "Norvane Chemicals", "not disclosed by the operator", "volunteers, press photo"),
        ("Ellis Mill (disused)", "2024-02-02", "-", "oil sheen, source unknown", "volunteers"),
    ]
    for i, row in enumerate(rows):
        c.setFont("Helvetica-Bold" if i == 0 else "Helvetica", 9)
        for x, text in zip((50, 150, 215, 320, 480), row, strict=True):
            c.drawString(x, y, text)
        y -= 16
    y -= 14
    for line in [
        "Both Port Ellis releases came from outfall 3. Press reports on 18 April named Calloway Resins, whose",
        "plant is 4 km upstream; the outfall sign in the published photograph is Norvane's.",
        "Our drone footage of 18 April is available to investors on request (attached to our mail).",
        "We call on Norvane's shareholders to press for an independent audit of outfall 3.",
    ]:
        c.drawString(50, y, line)
        y -= 14
    c.save()


# -- the drone clip -------------------------------------------------------------------------------
W, H, FPS = 480, 270, 10


def drone_clip(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(5 * FPS):
            rnd = random.Random(1800 + i % 4)
            frame = river_scene(W, H, rnd)
            d = ImageDraw.Draw(frame)
            d.text(
                (8, 6),
                f"RiverWatch UAV  18-04-2026  10:{12 + i // 10:02d}",
                font=font(13, "bold"),
                fill=(255, 255, 255),
            )
            if 22 <= i < 33:  # the map overlay, about one second
                d.line([(0, 150), (140, 138), (300, 150), (480, 132)], fill=(255, 235, 0), width=4)
                d.rectangle((250, 196, 474, 248), fill=(0, 0, 0))
                d.text((258, 202), I.protected_area.upper(), font=font(15, "bold"), fill=(255, 235, 0))
                d.text((258, 224), "PROTECTED AREA BOUNDARY ---", font=font(12, "bold"), fill=(255, 235, 0))
            frame.save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "30", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- the voice memo -------------------------------------------------------------------------------
def voice_memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "45", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/news", "day2/ngo", "day2/site_visit"):
        (HERE / sub).mkdir(parents=True)
    photo(HERE / "day1" / N.photo)
    briefing(HERE / "day2" / N.ngo_report)
    drone_clip(HERE / "day2" / N.drone)
    voice_memo(HERE / "day2" / N.memo)


if __name__ == "__main__":
    main()
