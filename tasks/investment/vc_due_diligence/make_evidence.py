"""Regenerate the VC due-diligence task's evidence deterministically (the outputs are committed).

    python tasks/investment/vc_due_diligence/make_evidence.py

Authoring-time tools only: reportlab (the pitch deck, text PDF; the wrapper of the scan), Pillow
(the scanned cap table: a grey JPEG page, no text layer), espeak-ng + ffmpeg (the founder call:
two voices, 16 kHz mono MP3, bit-exact flags).

- day1/dataroom/Brindle_Health_deck_2025.pdf        text PDF: the founders' claims (78% founders, GBP 2.9m "ARR")
- day1/dataroom/Brindle_cap_table_2025-09-30.pdf    image-only PDF: holders and share counts
- day1/dataroom/financials_monthly.csv              first upload: Q3 net burn averaging 165k
- day2/dataroom_v2/financials_monthly.csv           the silent re-upload: Q3 burn restated (210k average)
- day2/call/brindle_founder_call_2025-10-07.mp3     the founders on the call: contracted ARR, a lost customer,
  an angel's convertible note that is on no document
- day3/reference/Hollins_order_form.jpg             a phone photo of the reference customer's signed order form:
  the annual fee is only in the pixels
"""

from __future__ import annotations

import csv
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
FONTS = Path("/usr/share/fonts/truetype/dejavu")
MONTHS = ["2025-01", "2025-02", "2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09"]


def deck(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=landscape(A4), invariant=1)
    c.setTitle("Brindle Health - Seed+ deck 2025")
    slides = [
        ("Brindle Health", ["Scheduling and patient messaging for independent clinics", "Seed+ round, October 2025"]),
        ("Traction", [f"GBP {F.financials.deck_arr}m ARR", "140 clinics live, 98% logo retention", "Net revenue retention 118%"]),
        ("Team & ownership", ["Elena Vasquez (CEO), Owen Tierney (CFO/COO)",
                              f"Founders own {F.cap_table.deck_claim_pct}% fully diluted", "ESOP 10% of fully diluted"]),
        ("Use of funds", ["Raise GBP 4m: product 45%, sales 40%, G&A 15%", "18+ months of runway"]),
    ]  # fmt: skip
    for title, lines in slides:
        c.setFont("Helvetica-Bold", 30)
        c.drawString(60, 500, title)
        c.setFont("Helvetica", 18)
        for i, line in enumerate(lines):
            c.drawString(80, 430 - i * 40, line)
        c.showPage()
    c.save()


def cap_table(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 24)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 17)
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 18)
    d.text((60, 60), "BRINDLE HEALTH LTD - CAPITALISATION TABLE", font=bold, fill=20)
    d.text((60, 98), "As at 30 September 2025 (fully diluted). Signed copy for the data room.", font=mid, fill=40)
    d.line((60, 130, 790, 130), fill=60, width=2)
    d.text((60, 146), "Holder", font=bold, fill=20)
    d.text((470, 146), "Class", font=bold, fill=20)
    d.text((640, 146), "Shares", font=bold, fill=20)
    y = 196
    for holder, cls, shares in F.cap_table.holders:
        d.text((60, y), holder, font=mid, fill=15)
        d.text((470, y), cls, font=mid, fill=15)
        d.text((620, y), f"{shares:>11,}", font=mono, fill=5)
        y += 46
    d.line((60, y + 4, 790, y + 4), fill=60, width=1)
    d.text((60, y + 16), "Total (fully diluted)", font=bold, fill=15)
    d.text((620, y + 16), f"{F.cap_table.fully_diluted:>11,}", font=mono, fill=5)
    d.text((60, y + 80), "Certified correct: O. Tierney, Director", font=mid, fill=40)
    d.line((420, y + 100, 640, y + 88), fill=60, width=2)
    rnd = random.Random(1100)
    for _ in range(1800):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(-0.6, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=70, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan_captable")
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=A4[0], height=A4[1])
    c.save()


def financials(path: Path, q3: list[int]) -> None:
    burn = [182000, 176000, 171000, 168000, 166000, 163000, *q3]
    cash = [4250000]
    for b in burn[1:]:
        cash.append(cash[-1] - b)
    shift = F.financials.cash - cash[-1]  # the bank balance at the end of September is the same in both uploads
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["month", "revenue", "operating_costs", "net_burn", "cash_end"])
        for m, b, cash_end in zip(MONTHS, burn, cash):
            revenue = 150000 + 6000 * MONTHS.index(m)
            w.writerow([m, revenue, revenue + b, b, cash_end + shift])


CALL = [
    ("en-gb", "Noa: Thanks both. First, revenue. The deck says two point nine million of ARR. What is contracted today?"),
    ("en-us", "Elena: Contracted ARR is two point four million pounds. The two point nine includes signed pilots that have not converted yet."),
    ("en-gb", "Noa: Understood. Any customer losses this year?"),
    ("en-us", "Elena: One. We lost Norcliff Clinics in March, our second largest customer. They were acquired and moved to the buyer's system."),
    ("en-gb", "Noa: And apart from the cap table in the data room, any other instruments?"),
    ("en-us", "Owen: Yes, one thing that is not on the cap table. An angel lent us five hundred thousand pounds on a convertible note last year. It converts at this round. I will send you the terms."),
]  # fmt: skip


def founder_call(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for i, (voice, text) in enumerate(CALL):
            wav = Path(tmp) / f"p{i}.wav"
            subprocess.run(["espeak-ng", "-v", voice, "-s", "170", "-p", "45" if voice == "en-gb" else "60", "-w", str(wav),
                            text.split(": ", 1)[1]], check=True)  # fmt: skip
            parts.append(wav)
        lst = Path(tmp) / "list.txt"
        lst.write_text("".join(f"file '{p}'\n" for p in parts))
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-f", "concat", "-safe", "0", "-i", str(lst), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def order_form(path: Path) -> None:
    rnd = random.Random(96)
    img = Image.new("RGB", (600, 460), (92, 84, 74))  # a desk
    form = Image.new("RGB", (460, 380), (250, 249, 244))
    d = ImageDraw.Draw(form)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 18)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 14)
    d.text((20, 16), "BRINDLE HEALTH - ORDER FORM", font=bold, fill=(30, 60, 110))
    rows = [("Customer", "Hollins Dental Group (9 practices)"), ("Product", "Brindle Scheduling + Messaging"),
            ("Term", "01/02/2025 - 31/01/2026"), ("Annual fee", f"GBP {F.answers.largest_acv:,} + VAT"),
            ("Billing", "annually in advance"), ("Renewal", "12 months, 60 days' notice")]  # fmt: skip
    y = 64
    for k, v in rows:
        d.text((20, y), k, font=mid, fill=(90, 90, 90))
        d.text((150, y), v, font=mid, fill=(15, 15, 15))
        y += 34
    d.text((20, y + 20), "Signed for the customer:", font=mid, fill=(90, 90, 90))
    d.line((210, y + 36, 400, y + 24), fill=(20, 30, 120), width=3)
    form = form.rotate(2.5, resample=Image.BICUBIC, expand=True, fillcolor=(92, 84, 74))
    img.paste(form, (60, 30))
    d = ImageDraw.Draw(img)
    for _ in range(1500):
        x, yy = rnd.randrange(600), rnd.randrange(460)
        r, g, b = img.getpixel((x, yy))
        v = rnd.randrange(-30, 30)
        d.point((x, yy), fill=(max(0, min(255, r + v)), max(0, min(255, g + v)), max(0, min(255, b + v))))
    img.filter(ImageFilter.GaussianBlur(0.5)).save(path, format="JPEG", quality=72, optimize=True)


def main() -> None:
    for sub in ("day1/dataroom", "day2/dataroom_v2", "day2/call", "day3/reference"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    deck(HERE / "day1/dataroom/Brindle_Health_deck_2025.pdf")
    cap_table(HERE / "day1/dataroom/Brindle_cap_table_2025-09-30.pdf")
    financials(HERE / "day1/dataroom/financials_monthly.csv", [160000, 165000, 170000])
    financials(HERE / "day2/dataroom_v2/financials_monthly.csv", [205000, 210000, 215000])
    founder_call(HERE / "day2/call/brindle_founder_call_2025-10-07.mp3")
    order_form(HERE / "day3/reference/Hollins_order_form.jpg")


if __name__ == "__main__":
    main()
