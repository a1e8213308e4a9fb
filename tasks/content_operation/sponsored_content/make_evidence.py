"""Regenerate the sponsored-content task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/sponsored_content/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (video frames and the
live-post screenshots: pixels only), espeak-ng (the creators' voices), ffmpeg (libx264 + AAC, one
thread, bit-exact flags), reportlab (the invoices, text PDFs).

- day1/drafts/avacooks_D-01_reel_v1.mp4     Ava says it is a paid partnership within 3 seconds
- day1/drafts/benbrews_D-02_tiktok_v1.mp4   Ben never says it is an ad (he only thanks the brand)
- day2/drafts/benbrews_D-02_tiktok_v2.mp4   Ben's re-cut: "Ad. This is a paid partnership..." first
- day3/drafts/chloemakes_D-04_reel_v1.mp4   Chloe says "this is an ad" first
  (no frame of any video shows a written disclosure: only the soundtrack tells)
- day4/live/avacooks_D-01_live.png          the live reel: #ad first, "Paid partnership" label, its URL
- day4/live/benbrews_D-02_live.png          the live TikTok: the caption lost its #ad; its URL
- day5/invoices/*.pdf                       Talentloop's invoice for Ava; Ben's (still billing the dropped story)
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import wave
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")
FPS = 2

SCRIPTS = {
    N.ava_video: ("en-gb", 165, 55, (236, 214, 190), "@avacooks", [
        "Hi, it's Ava! Quick heads up: this video is an ad, a paid partnership with Nimbus Oat.",
        "Today I'm making a maple oat latte with the new Barista Blend.",
        "Steam it, pour it, and slow mornings taste better. See you tomorrow!",
    ]),
    N.ben_video_v1: ("en-us", 170, 35, (190, 214, 236), "@benbrews", [
        "Morning, coffee people. Cold brew season never ends in my kitchen.",
        "I've been using the new Nimbus Oat Barista Blend, and it actually holds up over ice.",
        "Pour it slow and watch that swirl. Big thanks to Nimbus Oat for sending me some to try. Link in bio.",
    ]),
    N.ben_video_v2: ("en-us", 170, 35, (190, 214, 236), "@benbrews", [
        "Ad. This is a paid partnership with Nimbus Oat.",
        "Morning, coffee people. Cold brew season never ends in my kitchen.",
        "The new Barista Blend actually holds up over ice. Pour it slow and watch that swirl. Link in bio.",
    ]),
    N.chloe_video: ("en-gb", 160, 60, (240, 200, 210), "@chloemakes", [
        "This is an ad for Nimbus Oat.",
        "Golden hour, a warm oat latte, and a little bit of foam art.",
        "The Barista Blend froths like a dream. Tag me if you try it!",
    ]),
}  # fmt: skip


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def frame(bg: tuple[int, int, int], handle: str, i: int) -> Image.Image:
    """A portrait phone frame: a kitchen counter, a cup that fills up, the handle and a draft mark."""
    w, h = 180, 320
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 220, w, h), fill=(120, 90, 70))
    level = min(60, 4 * i)
    d.rectangle((60, 140, 120, 220), outline=(250, 250, 250), width=3)
    d.rectangle((63, 217 - level, 117, 217), fill=(200, 170, 130))
    d.text((8, 8), handle, font=font(13, True), fill=(40, 40, 40))
    d.text((8, 298), "DRAFT - not for posting", font=font(10), fill=(250, 250, 250))
    return img


def video(rel: str) -> None:
    voice, speed, pitch, bg, handle, lines = SCRIPTS[rel]
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "voice.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", str(wav), " ".join(lines)],
                       check=True)  # fmt: skip
        with wave.open(str(wav)) as wf:
            seconds = wf.getnframes() / wf.getframerate()
        for i in range(int(seconds * FPS) + 1):
            frame(bg, handle, i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-i", str(wav), "-c:v", "libx264", "-preset", "medium", "-crf", "30", "-pix_fmt", "yuv420p",
             "-threads", "1", "-c:a", "aac", "-ar", "16000", "-ac", "1", "-b:a", "24k", "-shortest",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1",
             str(HERE / rel)],
            check=True,
        )  # fmt: skip


def browser(url: str, w: int = 420, h: int = 560) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 34), fill=(230, 232, 235))
    d.rounded_rectangle((10, 6, w - 10, 28), radius=10, fill=(255, 255, 255))
    d.text((20, 10), url.removeprefix("https://"), font=font(11), fill=(60, 64, 67))
    return img, d


def live_instagram(path: Path) -> None:
    img, d = browser(F.live.ava_url)
    d.ellipse((12, 44, 44, 76), fill=(236, 180, 140))
    d.text((52, 46), "avacooks", font=font(14, True), fill=(20, 20, 20))
    d.text((52, 64), "Paid partnership with nimbusoat", font=font(11), fill=(80, 80, 80))
    d.rectangle((0, 86, 420, 396), fill=(236, 214, 190))
    d.rectangle((170, 200, 250, 330), outline=(255, 255, 255), width=4)
    d.rectangle((174, 250, 246, 326), fill=(200, 170, 130))
    d.text((12, 404), "1,284 likes", font=font(13, True), fill=(20, 20, 20))
    d.text((12, 426), "avacooks #ad Slow mornings taste better with the", font=font(12), fill=(20, 20, 20))
    d.text((12, 444), "new Nimbus Oat Barista Blend. Maple oat latte,", font=font(12), fill=(20, 20, 20))
    d.text((12, 462), "recipe below ... more", font=font(12), fill=(120, 120, 120))
    d.text((12, 490), "5 November  -  View all 96 comments", font=font(11), fill=(140, 140, 140))
    img.quantize(colors=64, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def live_tiktok(path: Path) -> None:
    img, d = browser(F.live.ben_url)
    d.rectangle((0, 34, 420, 560), fill=(18, 18, 18))
    d.rectangle((110, 60, 310, 420), fill=(190, 214, 236))
    d.rectangle((180, 230, 240, 330), outline=(250, 250, 250), width=3)
    d.rectangle((183, 280, 237, 327), fill=(200, 170, 130))
    d.text((20, 436), "benbrews", font=font(14, True), fill=(255, 255, 255))
    d.text((20, 458), "cold brew season never ends @nimbusoat", font=font(12), fill=(235, 235, 235))
    d.text((20, 476), "#OatMorning #coldbrew #oatmilk", font=font(12), fill=(235, 235, 235))
    d.text((20, 500), "original sound - benbrews", font=font(11), fill=(170, 170, 170))
    d.text((330, 436), "3,412", font=font(12, True), fill=(255, 255, 255))
    img.quantize(colors=64, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def invoice(path: Path, head: list[str], number: str, lines: list[tuple[str, int]], bank: str) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"Invoice {number}")
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, head[0])
    c.setFont("Helvetica", 10)
    y = 772
    for line in head[1:]:
        c.drawString(60, y, line)
        y -= 14
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 700, f"INVOICE {number}")
    c.setFont("Helvetica", 10.5)
    for i, line in enumerate(["Date: 6 November 2025", "Bill to: Nimbus Oat Ltd, 4 Mill Yard, Bristol BS1 6QA",
                              "Campaign: #OatMorning (Barista Blend launch)", "Terms: 30 days"]):  # fmt: skip
        c.drawString(60, 680 - 15 * i, line)
    y = 600
    c.setFont("Helvetica-Bold", 10.5)
    c.drawString(60, y, "Description")
    c.drawRightString(520, y, "Amount (GBP)")
    c.setFont("Helvetica", 10.5)
    for text, amount in lines:
        y -= 18
        c.drawString(60, y, text)
        c.drawRightString(520, y, f"{amount:,.2f}")
    y -= 26
    c.setFont("Helvetica-Bold", 11)
    c.drawString(60, y, "Total due")
    c.drawRightString(520, y, f"{sum(a for _, a in lines):,.2f}")
    c.setFont("Helvetica", 9.5)
    c.drawString(60, y - 40, bank)
    c.save()


def main() -> None:
    for sub in ("day1/drafts", "day2/drafts", "day3/drafts", "day4/live", "day5/invoices"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    for rel in SCRIPTS:
        video(rel)
    live_instagram(HERE / N.ava_live)
    live_tiktok(HERE / N.ben_live)
    invoice(HERE / N.ava_invoice, ["Talentloop Ltd", "Talent management - 22 Cheshire Street, London E2 6EH",
            "VAT not applicable"], F.invoices.ava_number,
            [("Ava Lindqvist (@avacooks) - Instagram Reel, #OatMorning", F.invoices.ava_amount)],
            "Pay to: Talentloop Ltd, sort code 20-45-77, account 53118842")  # fmt: skip
    fee = F.invoices.ben_amount - F.invoices.ben_story_line
    invoice(HERE / N.ben_invoice, ["Ben Osei", "Content creator (@benbrews) - Flat 3, 9 Wilton Road, Leeds LS6 1AE"],
            F.invoices.ben_number,
            [("TikTok video, #OatMorning", fee), ("Instagram Story, #OatMorning", F.invoices.ben_story_line)],
            "Pay to: B Osei, sort code 40-11-62, account 71940326")  # fmt: skip


if __name__ == "__main__":
    main()
