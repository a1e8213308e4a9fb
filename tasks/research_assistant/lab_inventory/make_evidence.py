"""Regenerate the lab-inventory task's evidence deterministically (the outputs are committed).

    python tasks/research_assistant/lab_inventory/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): Pillow (the label photos:
bottles drawn, then tilted, blurred and speckled like phone photos, no text layer), reportlab (the
recall notice, a text PDF), espeak-ng + ffmpeg (the safety officer's voice memo, 16 kHz mono MP3).

- day1/label_photos/IMG_3101.jpg ... IMG_3105.jpg  the manufacturer labels of the six bottles still
  "label check pending": lot numbers and expiry dates, next to the lab's CH-nnnn sticker
- day2/Solvex_recall_notice_2025-03-10.pdf  text PDF: the sodium azide recall (no lot numbers: those
  go to the safety officer only)
- day2/rostami_2025-03-11_0805.mp3  spoken memo: the recalled lot, and when he can inspect the cabinets
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
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
L = F.labels
FONTS = Path("/usr/share/fonts/truetype/dejavu")

# item -> (supplier, catalogue no., grade line, size, glass colour, hazard pictograms)
BOTTLES = {
    "CH-0412": ("SOLVEX", "E1230-1L", "ACS reagent, BHT-stabilised", "1 L", (120, 70, 25), ("FLAM", "HARM")),
    "CH-0415": ("SOLVEX", "T4411-2.5L", "anhydrous, inhibitor-free", "2.5 L", (118, 72, 28), ("FLAM", "HARM")),
    "CH-0433": ("SOLVEX", "S2002-100G", "ReagentPlus, >=99.5%", "100 g", (235, 235, 228), ("TOX", "ENV")),
    "CH-0434": ("SOLVEX", "S2002-100G", "ReagentPlus, >=99.5%", "100 g", (235, 235, 228), ("TOX", "ENV")),
    "CH-0440": ("BIOMAR", "AB-4019", "40%, 29:1, electrophoresis", "500 mL", (238, 238, 238), ("TOX", "HARM")),
    "CH-0447": ("BIOMAR", "PH-0227", "equilibrated with Tris, pH 8.0", "100 mL", (115, 68, 26), ("TOX", "CORR")),
}

RECALL = [
    "## URGENT: PRODUCT RECALL - please forward to your chemical safety officer",
    "Date: 10 March 2025            Reference: SLS-RC-2025-007",
    f"Product: {F.recall.product}, ReagentPlus, >=99.5%",
    "",
    "## Reason for the recall",
    "During a routine check we found that a drum liner used for some lots was contaminated with",
    "lead residues. Lead azide forms on contact and is shock-sensitive: affected bottles must not be",
    "used, opened further, or shaken.",
    "",
    "## Affected lots",
    "The lot numbers concerned have been sent by registered letter to the safety officer named on",
    "each customer account. Please ask your safety officer which of your bottles are affected.",
    "",
    "## What to do",
    "1. Stop using the affected bottles and quarantine them in a cool, locked cabinet.",
    "2. Do not dispose of affected product through your waste contractor. Solvex collects it free",
    "   of charge under a return authorisation (RMA) that we issue to your safety officer.",
    "3. Record the RMA number against each bottle until it is collected.",
    "",
    "Other lots of S2002 and all other Solvex azide products are not affected.",
    "",
    "Solvex Life Science - Product Quality & Regulatory Affairs - recalls@solvex.example",
]

MEMO = (
    "Hi Ines, it's Hamid, Tuesday, just after eight. Two things for the lab three fourteen audit. "
    "First, the Solvex recall for sodium azide, the one hundred gram bottles. The affected lot is "
    "S A, two two nine one, B. Again: S A, two two nine one, B. If you have a bottle from that lot, "
    "quarantine it, and put it on your disposal request, so that it is covered by my inspection. I will "
    "decide what happens to it when I sign. Second, I would like to inspect the flammables and toxics "
    "cabinets with you tomorrow, Wednesday morning, for forty five minutes. I am free between nine and "
    "eleven. Take the earliest slot that suits you, and send me an invitation. I will sign the disposal "
    "request after the inspection. Thanks."
)


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def pictogram(d: ImageDraw.ImageDraw, cx: int, cy: int, label: str) -> None:
    r = 26
    d.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=(255, 255, 255), outline=(200, 20, 20))
    d.polygon([(cx, cy - r + 4), (cx + r - 4, cy), (cx, cy + r - 4), (cx - r + 4, cy)], outline=(200, 20, 20))
    d.text((cx - 13, cy - 6), label[:4], font=font(10, bold=True), fill=(20, 20, 20))


def bottle(d: ImageDraw.ImageDraw, x0: int, item: str) -> None:
    """One bottle at x0: glass, the manufacturer's label, the lab's yellow CH sticker."""
    supplier, cat, grade, size, glass, hazards = BOTTLES[item]
    chemical, lot, expiry = L.bottles[item]
    d.rounded_rectangle((x0 + 95, 40, x0 + 185, 95), radius=8, fill=(30, 30, 34))  # cap
    d.rounded_rectangle((x0, 90, x0 + 280, 560), radius=38, fill=glass, outline=(60, 50, 40), width=2)
    d.rectangle((x0 + 14, 170, x0 + 266, 470), fill=(250, 250, 246), outline=(120, 120, 120))
    d.text((x0 + 24, 178), supplier, font=font(20, bold=True), fill=(10, 60, 140))
    d.text((x0 + 24, 206), chemical, font=font(19, bold=True), fill=(10, 10, 10))
    d.text((x0 + 24, 232), grade, font=font(11), fill=(40, 40, 40))
    d.text((x0 + 24, 250), f"Cat. {cat}    {size}", font=font(13), fill=(30, 30, 30))
    for i, h in enumerate(hazards):
        pictogram(d, x0 + 52 + i * 62, 310, h)
    d.text((x0 + 24, 356), f"LOT  {lot}", font=font(19, mono=True), fill=(0, 0, 0))
    d.text((x0 + 24, 384), f"EXP  {expiry}", font=font(19, mono=True), fill=(0, 0, 0))
    d.text((x0 + 24, 418), "Store below 25 C. Keep tightly closed.", font=font(10), fill=(70, 70, 70))
    d.rectangle((x0 + 60, 490, x0 + 220, 535), fill=(250, 214, 40), outline=(140, 110, 0))  # the lab's sticker
    d.text((x0 + 70, 494), "ALTAMIRA IBE 3.14", font=font(10, bold=True), fill=(40, 30, 0))
    d.text((x0 + 78, 508), item, font=font(20, bold=True, mono=True), fill=(0, 0, 0))


def label_photo(path: Path, items: list[str], seed: int) -> None:
    w = 340 * len(items) + 60
    img = Image.new("RGB", (w, 620), (168, 160, 146))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 560, w, 620), fill=(120, 112, 100))  # the shelf
    for i, item in enumerate(items):
        bottle(d, 40 + i * 340, item)
    rnd = random.Random(seed)
    img = img.rotate(rnd.uniform(-4.0, 4.0), resample=Image.Resampling.BICUBIC, fillcolor=(150, 142, 128))
    px = img.load()
    for _ in range(4000):
        x, y = rnd.randrange(img.width), rnd.randrange(img.height)
        r, g, b = px[x, y]
        n = rnd.randrange(-30, 30)
        px[x, y] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    img = img.resize((int(img.width * 0.8), int(img.height * 0.8)), Image.Resampling.LANCZOS)
    img.save(path, format="JPEG", quality=70, optimize=True)


def recall_notice(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle("Solvex Life Science - product recall SLS-RC-2025-007")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 790, "Solvex Life Science")
    c.setFont("Helvetica", 9)
    c.drawString(60, 776, "Parc Tecnologic 12, 08290 Cerdanyola  -  customer service +34 935 000 410")
    y = 745
    for line in RECALL:
        if line.startswith("## "):
            y -= 4
            c.setFont("Helvetica-Bold", 11)
            c.drawString(60, y, line[3:])
        else:
            c.setFont("Helvetica", 10.5)
            c.drawString(60, y, line)
        y -= 15
    c.save()


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1", "day2"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    (HERE / "day1/label_photos").mkdir(parents=True)
    (HERE / "day2").mkdir()
    for n, (name, items) in enumerate(sorted(L.photos.items())):
        label_photo(HERE / "day1/label_photos" / name, list(items), seed=3101 + n)
    recall_notice(HERE / "day2/Solvex_recall_notice_2025-03-10.pdf")
    voice_memo(HERE / "day2/rostami_2025-03-11_0805.mp3")


if __name__ == "__main__":
    main()
