"""Regenerate the podcast-QA task's evidence deterministically (the outputs are committed).

    python tasks/content_operation/podcast_episode_qa/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the cover exports: PNG, text only in pixels), espeak-ng + ffmpeg (the host's sponsor
reads, 16 kHz mono MP3 with bit-exact flags).

- day1/Halden_Q4_brief_NSK.pdf        text PDF: the sponsor's snapshot of the brief (pre-amendment code)
- day1/NSK_Q4_rate_card.pdf           text PDF: internal rate card, every deal's IO number and value
- day1/NSK-047_sponsor_read_v1.mp3    spoken read: the wrong discount figure, the original code
- day1/NSK-047_cover_v1.png           cover export showing the template's old episode number
- day2/NSK-047_sponsor_read_v2.mp3    pickup: figure fixed, still the pre-amendment code
- day2/NSK-047_cover_v2.png           cover export with the right episode number
- day3/NSK-047_sponsor_read_v3.mp3    pickup 2: matches the amended brief
"""

from __future__ import annotations

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
BITEXACT = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1"]
WORDS = {10: "ten", 15: "fifteen", 20: "twenty", 25: "twenty five"}
SPOKEN_CODE = {"KITCHEN15": "kitchen fifteen", "NIGHTSHIFT15": "night shift fifteen"}


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def read_script(discount: int, code: str) -> str:
    return (
        "Hey night owls. This episode of Night Shift Kitchen is brought to you by Halden Knives. "
        "Halden makes hand forged chef's knives, and every one comes with free lifetime sharpening. "
        f"Right now our listeners get {WORDS[discount]} percent off their first order. "
        f"Go to halden knives dot example slash night shift, and use the code {SPOKEN_CODE[code]} at checkout. "
        f"That's {WORDS[discount]} percent off, with the code {SPOKEN_CODE[code]}. Halden Knives. Sharp for life."
    )


def sponsor_read(path: Path, discount: int, code: str, pitch: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "read.wav"
        script = read_script(discount, code)
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "158", "-p", str(pitch), "-w", str(wav), script], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "24k", *BITEXACT, str(path)],
            check=True,
        )  # fmt: skip


def cover(path: Path, number: int) -> None:
    """A 360 px square cover: show name, episode number and title exist only as pixels."""
    img = Image.new("RGB", (360, 360), (22, 24, 48))
    d = ImageDraw.Draw(img)
    d.ellipse((262, 22, 342, 102), fill=(238, 196, 92))  # the moon
    d.ellipse((282, 12, 362, 92), fill=(22, 24, 48))
    d.text((24, 40), "NIGHT SHIFT", font=font("DejaVuSans-Bold.ttf", 30), fill=(240, 236, 220))
    d.text((24, 76), "KITCHEN", font=font("DejaVuSans-Bold.ttf", 30), fill=(240, 236, 220))
    d.rounded_rectangle((24, 150, 160, 200), radius=10, fill=(200, 70, 60))
    d.text((92, 175), f"EP {number}", font=font("DejaVuSansMono-Bold.ttf", 30), fill=(255, 255, 255), anchor="mm")
    d.text((24, 230), F.episode.title, font=font("DejaVuSerif-Bold.ttf", 22), fill=(238, 196, 92))
    d.text((24, 264), f"with {F.episode.guest}", font=font("DejaVuSans.ttf", 18), fill=(200, 200, 215))
    d.text((24, 322), "a Lanternfish Audio show", font=font("DejaVuSans.ttf", 13), fill=(150, 150, 170))
    img.quantize(colors=48, dither=Image.Dither.NONE).save(path, format="PNG", optimize=True)


def lines_pdf(path: Path, title: str, heading: str, lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, heading)
    c.setFont("Helvetica", 10.5)
    y = 760
    for line in lines:
        if line.startswith("## "):
            c.setFont("Helvetica-Bold", 11.5)
            c.drawString(60, y, line[3:])
            c.setFont("Helvetica", 10.5)
        else:
            c.drawString(60, y, line)
        y -= 16
    c.save()


def brief_pdf(path: Path) -> None:
    b = F.brief
    lines_pdf(
        path,
        f"{b.id} sponsor brief",
        f"{b.sponsor} - podcast sponsorship brief {b.id}",
        [
            f"Show: Night Shift Kitchen (Lanternfish Audio)      Episode: {F.episode.id}",
            f"Insertion order: {b.io}      Version 1, issued 10 October 2025",
            f"Sponsor contact: {F.sponsor.name}, {F.sponsor.email}",
            "",
            "## Offer",
            f"- {b.discount}% off the customer's first order",
            f"- Promo code: {b.code}",
            f"- Landing page: {b.url}",
            f"- Offer ends: {b.offer_ends}",
            "",
            "## Talking points (host read, 45-60 seconds, in the host's own words)",
            "- Hand-forged chef's knives; free lifetime sharpening on every knife.",
            "- State the discount and the promo code exactly as above, twice.",
            "",
            "## Do not",
            "- Claim any other discount or code, or call Halden 'the best knife in the world'.",
            "",
            "## Approval",
            "- The sponsor approves the final recorded read in writing before release.",
        ],
    )


def rate_card_pdf(path: Path) -> None:
    lines = ["INTERNAL - Lanternfish Audio ad sales. Do not forward outside the company.", "",
             "## Night Shift Kitchen, Q4 2025 host-read deals"]  # fmt: skip
    for sponsor, episode, io, value, _domain in F.rate_card.deals:
        lines.append(f"- {io}   {sponsor:<14}  {episode}   flat fee GBP {value:,}")
    lines += ["", "Rates are negotiated per sponsor; never quote one sponsor's rate to another."]
    lines_pdf(path, "NSK Q4 rate card", "Night Shift Kitchen - Q4 rate card", lines)


def main() -> None:
    for sub in ("day1", "day2", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    r = F.reads
    brief_pdf(HERE / "day1/Halden_Q4_brief_NSK.pdf")
    rate_card_pdf(HERE / "day1/NSK_Q4_rate_card.pdf")
    sponsor_read(HERE / "day1/NSK-047_sponsor_read_v1.mp3", r.v1_discount, r.v1_code, 38)
    cover(HERE / "day1/NSK-047_cover_v1.png", F.cover.v1_number)
    sponsor_read(HERE / "day2/NSK-047_sponsor_read_v2.mp3", r.v2_discount, r.v2_code, 40)
    cover(HERE / "day2/NSK-047_cover_v2.png", F.cover.v2_number)
    sponsor_read(HERE / "day3/NSK-047_sponsor_read_v3.mp3", r.v3_discount, r.v3_code, 42)


if __name__ == "__main__":
    main()
