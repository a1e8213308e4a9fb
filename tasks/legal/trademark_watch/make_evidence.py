"""Regenerate the trademark-watch task's evidence deterministically (the outputs are committed).

    python tasks/legal/trademark_watch/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the two marks' images), espeak-ng + ffmpeg (the partner's dictated instructions, 16 kHz
mono MP3).

- day1/watch/markwatch_report_2025-09-08.pdf  text PDF: the watch service's two hits (serial,
  applicant, class, goods, publication date); the marks themselves are "see image"
- day1/watch/WM-1_98412337.png, WM-2_98377104.png  the marks as published: the only place that
  shows their literal elements
- day2/memos/calloway_instructions.mp3  spoken memo: which hit to oppose, which to drop, the
  draft letter's response period, and that nothing goes to the applicant before approval
- day3/receipt/ESTTA_receipt_98412337.pdf  text PDF: the filing receipt of the extension of time
  to oppose, with the extended deadline
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
A, B = F.hit_a, F.hit_b
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def us_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d:%B} {d.day}, {d.year}"


MEMO = (
    "Tessa, it's Ruth, about Monday's watch notice for Brindle Coffee. "
    "First, the Shiba Brew application, serial ending seven one zero four. That is restaurant services "
    "in class forty three, far enough from our goods. No action: close it on the docket and take its "
    "deadline off my calendar. "
    "Second, Brindle and Bean, serial ending three three seven. That is coffee in class thirty, the same "
    "goods as ours. We oppose. I will file the extension of time to oppose myself. "
    "Please draft a cease and desist letter to the applicant's counsel, Daniel Ortiz, asking them to "
    "withdraw the application within twenty one days, and mail me the draft. "
    "Do not send anything to Ortiz until I have approved it. "
    "And let the client's general counsel know that we recommend opposition, and ask for their date of first use. Thanks."
)


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def logo_a(path: Path) -> None:
    """A coffee bean with a brindle stripe, the words stacked beside it."""
    img = Image.new("RGB", (520, 260), (246, 239, 226))
    d = ImageDraw.Draw(img)
    d.ellipse((30, 50, 190, 220), fill=(92, 58, 33))
    for i in range(6):  # brindle stripes across the bean
        d.line((50 + 22 * i, 60, 30 + 22 * i, 210), fill=(140, 96, 52), width=5)
    d.arc((80, 55, 140, 215), 80, 280, fill=(246, 239, 226), width=6)
    d.text((215, 70), "BRINDLE", font=font("DejaVuSerif-Bold.ttf", 46), fill=(70, 42, 22))
    d.text((215, 128), "& BEAN", font=font("DejaVuSerif-Bold.ttf", 46), fill=(70, 42, 22))
    d.text((218, 196), "small-batch roasters", font=font("DejaVuSans.ttf", 17), fill=(120, 90, 60))
    img.filter(ImageFilter.SMOOTH).save(path, format="PNG", optimize=True)


def logo_b(path: Path) -> None:
    """A dog's head in a circle over the words."""
    img = Image.new("RGB", (420, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.ellipse((150, 20, 270, 140), outline=(200, 80, 30), width=6)
    d.polygon([(175, 60), (190, 35), (200, 65)], fill=(200, 80, 30))
    d.polygon([(220, 65), (232, 35), (245, 60)], fill=(200, 80, 30))
    d.ellipse((180, 60, 240, 120), fill=(230, 150, 80))
    d.text((95, 165), "SHIBA", font=font("DejaVuSans-Bold.ttf", 44), fill=(40, 40, 40))
    d.text((245, 165), "BREW", font=font("DejaVuSans.ttf", 44), fill=(200, 80, 30))
    d.text((120, 235), "kitchen & coffee bar", font=font("DejaVuSans.ttf", 18), fill=(90, 90, 90))
    img.save(path, format="PNG", optimize=True)


def watch_report(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("MarkWatch report 2025-09-08")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(50, 748, "MarkWatch Pro - Trademark Watch Report")
    c.setFont("Helvetica", 10)
    y = 728
    for line in [
        f"Report date: September 8, 2025      Watched mark: {F.client.mark} (US Reg. No. {F.client.reg_no})",
        f"Subscriber: Aldous & Penn LLP, for {F.client.name}",
        "Source: USPTO Official Gazette (Trademarks). Two new publications matched your watch.",
    ]:
        c.drawString(50, y, line)
        y -= 15
    for n, (hit, goods, who) in enumerate(
        [
            (A, "Coffee; roasted coffee beans; coffee-based beverages", f"Daniel Ortiz, Ortiz IP Law ({A.ortiz})"),
            (B, "Restaurant and cafe services; take-out restaurant services", "Shiba Hospitality Inc. (pro se)"),
        ],
        start=1,
    ):
        y -= 20
        c.setFont("Helvetica-Bold", 11)
        c.drawString(50, y, f"Hit {n}: Serial No. {hit.serial_display}")
        c.setFont("Helvetica", 10)
        for line in [
            f"Mark: design mark with words - see image WM-{n} (attached)",
            f"Applicant: {hit.applicant}",
            f"International Class: {hit['class']}     Goods/services: {goods}",
            f"Published for opposition: {us_date(hit.published)}",
            f"Correspondent: {who}",
            "Similarity score: " + ("high (sound, meaning)" if n == 1 else "medium (shared element)"),
        ]:
            y -= 15
            c.drawString(66, y, line)
    y -= 30
    c.setFont("Helvetica-Oblique", 9)
    c.drawString(50, y, "Deadlines are not computed by MarkWatch. Verify all dates against the Official Gazette.")
    c.save()


def filing_receipt(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("ESTTA filing receipt")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(50, 748, "United States Patent and Trademark Office - Trademark Trial and Appeal Board")
    c.setFont("Helvetica", 10)
    y = 725
    for line in [
        "ESTTA Tracking number: ESTTA1387215          Filing date: 09/10/2025",
        "",
        "Request for Extension of Time to File Opposition",
        f"Serial number: {A.serial}        Mark: {A.mark}",
        f"Applicant: {A.applicant}",
        f"Potential opposer: {F.client.name}",
        f"Original opposition deadline: {us_date(A.deadline)}",
        "",
        "Extension requested: 90 days, for good cause (settlement discussions; investigation of claim).",
        "",
        f"The request is GRANTED. The time to file an opposition is extended until {us_date(A.extended)}.",
        "",
        "Filer: Ruth Calloway, Aldous & Penn LLP (attorney of record for the potential opposer)",
    ]:
        c.drawString(50, y, line)
        y -= 16
    c.save()


def voice_memo(path: Path) -> None:
    """espeak-ng with a fixed voice, speed and pitch, then 16 kHz mono MP3 with bit-exact flags."""
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us+f3", "-s", "160", "-p", "50", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/watch", "day2/memos", "day3/receipt"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    watch_report(HERE / "day1/watch/markwatch_report_2025-09-08.pdf")
    logo_a(HERE / f"day1/watch/WM-1_{A.serial}.png")
    logo_b(HERE / f"day1/watch/WM-2_{B.serial}.png")
    voice_memo(HERE / "day2/memos/calloway_instructions.mp3")
    filing_receipt(HERE / f"day3/receipt/ESTTA_receipt_{A.serial}.pdf")


if __name__ == "__main__":
    main()
