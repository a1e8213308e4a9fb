"""Regenerate the portfolio-rebalance task's evidence deterministically (the outputs are committed).

    python tasks/investment/portfolio_rebalance/make_evidence.py

Authoring-time tools only: Pillow + reportlab (the custodian's statement is rendered to a grey
JPEG, photocopied-looking, wrapped in a PDF with no text layer), espeak-ng + ffmpeg (the portfolio
manager's voice memo, 16 kHz mono MP3, bit-exact flags).

- day1/custody/Northgate_holdings_BG-0417_2025-09-26.pdf  image-only PDF: the share counts per line
- day2/voice/julian_reyes_2025-09-30_0755.mp3  spoken approval with one instruction (hold a sale)
- day4/desk/EMS_fills_2025-10-01.png  a screenshot of the dealing desk's execution system: the fills
  (filled quantities and average prices, one partial) are only in the pixels
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
NAMES = {"ULVR": "Unilever plc", "AZN": "AstraZeneca plc", "SHEL": "Shell plc", "HSBA": "HSBC Holdings plc", "REL": "RELX plc",
         "DGE": "Diageo plc", "LSEG": "London Stock Exchange Group", "BA.": "BAE Systems plc", "GSK": "GSK plc",
         "RIO": "Rio Tinto plc", "NG.": "National Grid plc", "CASH": "GBP cash (client money)"}  # fmt: skip


def statement(path: Path) -> None:
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    bold = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 24)
    mid = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 17)
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 18)
    d.text((60, 50), "NORTHGATE CUSTODY SERVICES", font=bold, fill=20)
    d.text((60, 86), "Statement of holdings - close of business 26/09/2025", font=mid, fill=40)
    d.text((60, 116), "Account BG-0417  Ashcombe Capital - Balanced Growth (model)", font=mid, fill=40)
    d.line((60, 146, 790, 146), fill=60, width=2)
    d.text((60, 160), "Security", font=bold, fill=20)
    d.text((430, 160), "ISIN / ref", font=bold, fill=20)
    d.text((640, 160), "Quantity", font=bold, fill=20)
    y = 204
    for i, (ticker, shares, _price, _target) in enumerate(F.holdings.rows):
        d.text((60, y), f"{NAMES[ticker]} ({ticker})", font=mid, fill=15)
        d.text((430, y), f"GB00{(i * 7919) % 10000:04d}{i:02d}X", font=mono, fill=30)
        d.text((640, y), f"{shares:>10,}", font=mono, fill=5)
        y += 44
    d.text((60, y + 30), "Quantities are settled positions. Pending trades are not included.", font=mid, fill=40)
    d.text((60, 1030), "Northgate Custody Services Ltd - page 1 of 1 - ref NCS/ST/0417/0926", font=mid, fill=60)
    rnd = random.Random(417)
    for _ in range(2000):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=70, optimize=True)
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("scan0926")
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=A4[0], height=A4[1])
    c.save()


MEMO = (
    "Miriam, Julian here, Tuesday morning, on the Balanced Growth rebalance. I've looked at your proposal and "
    "it's approved, with one exception: do not sell the AstraZeneca, hold off on that line until after their "
    "results next week. Everything else as you proposed. Thanks."
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "m.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "165", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "32k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def fills_screenshot(path: Path) -> None:
    """The execution management system's order grid, as the desk screenshots it."""
    img = Image.new("RGB", (640, 250), (28, 32, 40))
    d = ImageDraw.Draw(img)
    head = ImageFont.truetype(str(FONTS / "DejaVuSans-Bold.ttf"), 14)
    mono = ImageFont.truetype(str(FONTS / "DejaVuSansMono.ttf"), 14)
    d.rectangle((0, 0, 640, 26), fill=(52, 60, 76))
    d.text((10, 5), "EMS - Orders - Account BG-0417 - Trade date 01/10/2025", font=head, fill=(230, 230, 235))
    cols = [(10, "Ticker"), (90, "Side"), (150, "Ordered"), (250, "Filled"), (350, "Avg Px"), (450, "Status")]
    for x, name in cols:
        d.text((x, 40), name, font=head, fill=(150, 180, 220))
    ordered = {t: n for t, _side, n in F.trades.proposed}
    y = 70
    for ticker, side, filled, price in F.fills.rows:
        done = filled == ordered[ticker]
        colour = (120, 220, 140) if done else (240, 200, 90)
        for x, text in zip(
            [c[0] for c in cols],
            [ticker, side.upper(), f"{ordered[ticker]:,}", f"{filled:,}", price, "FILLED" if done else "PART"],
        ):
            d.text((x, y), text, font=mono, fill=colour)
        y += 32
    d.text((10, 225), "Closed 16:30 BST. Residual orders expire at close.", font=mono, fill=(150, 150, 160))
    img.save(path, format="PNG", optimize=True)


def main() -> None:
    for sub in ("day1/custody", "day2/voice", "day4/desk"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    statement(HERE / "day1/custody/Northgate_holdings_BG-0417_2025-09-26.pdf")
    memo(HERE / "day2/voice/julian_reyes_2025-09-30_0755.mp3")
    fills_screenshot(HERE / "day4/desk/EMS_fills_2025-10-01.png")


if __name__ == "__main__":
    main()
