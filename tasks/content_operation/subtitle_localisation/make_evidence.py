"""Regenerate the subtitle-localisation task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/subtitle_localisation/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the trailer's frames,
the French poster), espeak-ng + ffmpeg (the narration, muxed into the MP4: libx264 with one thread,
AAC, bit-exact flags), reportlab (the release plan, a text PDF).

- day1/ember_falls_trailer_v3.mp4  10 s, 480x270: a "presents" card, the title over a burning
  waterfall, and an end card with the release date (burned in only); narration on the sound track
  (spoken only: "Twelve years ago ... the Warden returns")
- day1/subs/ember_falls_de_v1.srt, ember_falls_fr_v1.srt  the vendor's first files
- day1/Ember_Falls_release_plan_CONFIDENTIAL.pdf  internal: deal values, unannounced dates
- day2/subs/ember_falls_de_v2.srt, ember_falls_fr_v2.srt;  day3/subs/ember_falls_fr_v3.srt
- day4/ember_falls_poster_fr.png  the French distributor's poster (title, tagline, date in pixels)
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
W, H, FPS, SECONDS = 480, 270, 10, 10
NARRATION_START_MS = 2100
BITEXACT = ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def centred(d: ImageDraw.ImageDraw, y: int, text: str, f: ImageFont.FreeTypeFont, fill: tuple[int, int, int]) -> None:
    d.text((W // 2, y), text, font=f, fill=fill, anchor="mm")


def frame(i: int, embers: list[tuple[int, int, int]]) -> Image.Image:
    t = i / FPS
    img = Image.new("RGB", (W, H), (0, 0, 0))
    d = ImageDraw.Draw(img)
    if t < 2.0:
        centred(d, 120, "NORTHLIGHT PICTURES", font("DejaVuSans-Bold.ttf", 26), (225, 225, 230))
        centred(d, 155, "presents", font("DejaVuSerif.ttf", 18), (170, 170, 180))
    elif t < 7.0:
        d.rectangle((0, 0, W, H), fill=(18, 22, 30))
        d.polygon([(0, 270), (0, 90), (150, 60), (190, 270)], fill=(40, 44, 50))  # cliffs
        d.polygon([(480, 270), (480, 80), (300, 55), (270, 270)], fill=(36, 40, 46))
        d.rectangle((190, 60, 280, 270), fill=(90, 120, 150))  # the falls
        for x0, y0, speed in embers:  # rising embers
            y = (y0 - int(t * speed)) % H
            d.ellipse((x0, y, x0 + 3, y + 3), fill=(255, 140, 40))
        if t >= 4.8:
            centred(d, 125, "EMBER FALLS", font("DejaVuSerif-Bold.ttf", 40), (250, 235, 210))
    else:
        centred(d, 110, "EMBER FALLS", font("DejaVuSerif-Bold.ttf", 34), (250, 235, 210))
        centred(d, 165, F.trailer.card_release, font("DejaVuSans-Bold.ttf", 22), (255, 170, 60))
    return img


def trailer(path: Path) -> None:
    rnd = random.Random(314)  # seeded embers: the same frames every run
    embers = [(rnd.randrange(W), rnd.randrange(H), rnd.randrange(20, 60)) for _ in range(60)]
    raw = b"".join(frame(i, embers).tobytes() for i in range(FPS * SECONDS))
    narration = f"{F.trailer.narration_1} {F.trailer.narration_2}"
    with tempfile.TemporaryDirectory() as tmp:
        frames, wav = Path(tmp) / "frames.rgb", Path(tmp) / "voice.wav"
        frames.write_bytes(raw)
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "140", "-p", "35", "-w", str(wav), narration], check=True)
        subprocess.run(
            ["ffmpeg", "-loglevel", "error", "-y",
             "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", f"{W}x{H}", "-r", str(FPS), "-i", str(frames),
             "-i", str(wav),
             "-filter_complex", f"[1:a]adelay={NARRATION_START_MS},apad,atrim=0:{SECONDS},aresample=16000[a]",
             "-map", "0:v", "-map", "[a]",
             "-c:v", "libx264", "-preset", "medium", "-crf", "32", "-pix_fmt", "yuv420p",
             "-threads", "1", "-x264-params", "threads=1:lookahead-threads=1",
             "-c:a", "aac", "-b:a", "32k", "-ac", "1",
             *BITEXACT, "-movflags", "+faststart", "-t", str(SECONDS), str(path)],
            check=True,
        )  # fmt: skip


def srt(path: Path, cues: list[str]) -> None:
    blocks = [f"{n}\n{timing}\n{text}\n" for n, (timing, text) in enumerate(zip(F.subs.timings, cues), start=1)]
    path.write_text("\n".join(blocks), encoding="utf-8")


def release_plan(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("Ember Falls international release plan")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, "Ember Falls - international release plan")
    c.setFont("Helvetica-Bold", 10)
    c.drawString(60, 772, "CONFIDENTIAL - Northlight Pictures internal. Do not forward.")
    y = 740
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((60, "Territory"), (140, "Distributor"), (290, "Release"), (370, "Deal"), (500, "Announced")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for territory, distributor, release, deal, announced in F.plan.territories:
        y -= 18
        for x, value in ((60, territory), (140, distributor), (290, release), (370, deal), (500, announced)):
            c.drawString(x, y, value)
    y -= 36
    c.drawString(60, y, f"Streaming window (all territories, not announced): from {F.plan.streaming}.")
    c.drawString(60, y - 16, "Release dates of announced territories are public; everything else on this page is not.")
    c.save()


def poster(path: Path) -> None:
    img = Image.new("RGB", (300, 450), (20, 16, 14))
    d = ImageDraw.Draw(img)
    d.rectangle((110, 40, 190, 330), fill=(80, 110, 140))  # the falls
    rnd = random.Random(1403)
    for _ in range(90):
        x, y = rnd.randrange(300), rnd.randrange(60, 340)
        d.ellipse((x, y, x + 3, y + 3), fill=(255, 130, 40))
    d.text((150, 300), F.poster.tagline, font=font("DejaVuSans-Bold.ttf", 17), fill=(255, 200, 120), anchor="mm")
    d.text((150, 352), F.poster.title, font=font("DejaVuSerif-Bold.ttf", 34), fill=(250, 235, 210), anchor="mm")
    d.text((150, 395), F.poster.date, font=font("DejaVuSans.ttf", 14), fill=(220, 220, 220), anchor="mm")
    d.text((150, 430), "CINÉFEU DISTRIBUTION", font=font("DejaVuSans.ttf", 10), fill=(150, 150, 150), anchor="mm")
    img.quantize(colors=64, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def main() -> None:
    for sub in ("day1", "day2", "day3", "day4"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
    for sub in ("day1/subs", "day2/subs", "day3/subs", "day4"):
        (HERE / sub).mkdir(parents=True)
    trailer(HERE / "day1/ember_falls_trailer_v3.mp4")
    release_plan(HERE / "day1/Ember_Falls_release_plan_CONFIDENTIAL.pdf")
    for day, name in (("day1", "de_v1"), ("day1", "fr_v1"), ("day2", "de_v2"), ("day2", "fr_v2"), ("day3", "fr_v3")):
        srt(HERE / f"{day}/subs/ember_falls_{name}.srt", list(F.subs[name]))
    poster(HERE / f"day4/{F.names.poster}")


if __name__ == "__main__":
    main()
