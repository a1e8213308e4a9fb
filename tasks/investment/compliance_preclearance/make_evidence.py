"""Regenerate the pre-clearance task's evidence deterministically (the outputs are committed).

    python tasks/investment/compliance_preclearance/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): espeak-ng + ffmpeg (a trader's
voice memo, 16 kHz mono MP3), Pillow + reportlab (a scanned broker statement: a grey raster page in a
PDF, no text layer), Pillow + ffmpeg (a desk screen capture, libx264, one thread, bit-exact flags).

- day1/memos/becker_voice_memo_2025-11-10.mp3        the request: sell 800 ORFD (spoken only)
- day1/statements/northline_becker_2025-10.pdf       October statement: ORFD bought 10/28/2025
- day3/surveillance/desk7_capture_2025-11-07.mp4     the QSEN order filled at 09:41:07 (video only)
- day4/tickets/rahman_halx_order_ticket.png          an order ticket screenshot: buy 300 HALX (pixels only)
"""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")

MEMO = (
    "Hi Helena, it's Tom Becker on the rates desk, Monday morning. I'd like pre-clearance to "
    f"{F.memo.side} eight hundred shares of {F.memo.issuer}, ticker O R F D, in my Northline account. "
    "It's for a house deposit, so the sooner the better. Thanks a lot."
)


def font(size: int, bold: bool = False, mono: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSansMono.ttf" if mono else ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
    return ImageFont.truetype(str(FONTS / name), size)


def voice_memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "memo.wav"
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "165", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1",
             "-c:a", "libmp3lame", "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact",
             "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def statement(path: Path) -> None:
    """A duplicate broker statement as compliance receives it: printed, scanned, no text layer."""
    w, h = 850, 1100
    page = Image.new("L", (w, h), 248)
    d = ImageDraw.Draw(page)
    d.text((60, 50), "NORTHLINE BROKERAGE", font=font(28, bold=True), fill=20)
    d.text((60, 90), "Account statement - duplicate copy for employer compliance", font=font(17), fill=50)
    d.line((60, 120, 790, 120), fill=60, width=2)
    y = 140
    for k, v in [
        ("Account holder", "Thomas J. Becker"),
        ("Account no.", F.statement.account),
        ("Period", "10/01/2025 - 10/31/2025"),
        ("Employer", "Calder Ridge Capital (duplicate statements on file)"),
    ]:
        d.text((60, y), k, font=font(17), fill=30)
        d.text((260, y), v, font=font(17), fill=10)
        y += 30
    y += 20
    d.text((60, y), "Activity", font=font(20, bold=True), fill=20)
    y += 36
    cols = (60, 200, 290, 400, 520, 660)
    for x, head in zip(cols, ("Trade date", "Action", "Symbol", "Quantity", "Price", "Amount")):
        d.text((x, y), head, font=font(15, bold=True), fill=25)
    y += 30
    activity = [
        ("10/06/2025", "SELL", "VXT", "200", "18.95", "3,790.00"),
        ("10/14/2025", "DIV", "ORSN", "", "", "42.17"),
        (F.statement.orfd_bought, "BUY", F.memo.ticker, f"{F.memo.quantity}", "41.20", "-32,960.00"),
        ("10/30/2025", "INT", "CASH", "", "", "3.08"),
    ]
    for row in activity:
        for x, v in zip(cols, row):
            d.text((x, y), v, font=font(16, mono=True), fill=8)
        y += 28
    y += 30
    d.text((60, y), "Positions at 10/31/2025", font=font(20, bold=True), fill=20)
    y += 36
    for x, head in zip((60, 200, 330, 470), ("Symbol", "Quantity", "Price", "Market value")):
        d.text((x, y), head, font=font(15, bold=True), fill=25)
    y += 30
    for row in (("ORSN", "1,100", "22.61", "24,871.00"), (F.memo.ticker, f"{F.memo.quantity}", "40.75", "32,600.00")):
        for x, v in zip((60, 200, 330, 470), row):
            d.text((x, y), v, font=font(16, mono=True), fill=8)
        y += 28
    d.text((60, 1030), "Northline Brokerage LLC - member FINRA/SIPC - page 1 of 1", font=font(14), fill=60)
    rnd = random.Random(4471)
    for _ in range(1600):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(120, 200))
    page = page.rotate(0.7, resample=Image.BICUBIC, expand=False, fillcolor=235)
    page = page.filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=65, optimize=True)
    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1)
    c.setTitle("scan_0412")
    aw, ah = LETTER
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=aw, height=ah)
    c.save()


W, H, FPS = 480, 272, 5


def screen(i: int) -> Image.Image:
    """The order blotter of the broker's trading app on desk 7, as the desk recorder captured it."""
    img = Image.new("RGB", (W, H), (18, 22, 30))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 24), fill=(32, 60, 110))
    d.text((8, 4), "Northline Trader  -  Orders", font=font(13, bold=True), fill=(240, 240, 240))
    second = 5 + i // FPS
    d.text((312, 4), f"11/07/2025 09:41:{second:02d} ET", font=font(12, mono=True), fill=(255, 220, 120))
    heads = ("Time", "Side", "Symbol", "Qty", "Limit", "Status")
    xs = (8, 92, 140, 210, 262, 330)
    for x, head in zip(xs, heads):
        d.text((x, 34), head, font=font(12, bold=True), fill=(150, 170, 200))
    filled = i >= 8
    rows = [
        ("09:12:44", "SELL", "ORSN", "100", "22.90", "CANCELLED"),
        (F.violation.order_seconds, "BUY", F.violation.ticker, f"{F.violation.quantity}", "27.40",
         "FILLED" if filled else "WORKING"),
    ]  # fmt: skip
    for r, row in enumerate(rows):
        y = 58 + r * 24
        if r == 1:
            d.rectangle((4, y - 3, W - 4, y + 19), fill=(40, 70, 50) if filled else (60, 60, 40))
        for x, v in zip(xs, row):
            d.text((x, y), v, font=font(13, mono=True), fill=(230, 230, 230))
    d.text((8, H - 22), "REC desk 7", font=font(11), fill=(220, 60, 60))
    return img


def capture(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(4 * FPS):
            screen(i).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def ticket(path: Path) -> None:
    """A phone screenshot of a broker app's order ticket, not yet sent."""
    img = Image.new("RGB", (360, 420), (245, 246, 248))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 360, 48), fill=(12, 84, 72))
    d.text((16, 14), "Harbor Direct  -  New order", font=font(16, bold=True), fill=(255, 255, 255))
    rows = [("Account", "HD-88120-7"), ("Symbol", F.ticket.ticker), ("Action", "Buy"), ("Quantity", f"{F.ticket.quantity}"),
            ("Order type", "Limit"), ("Limit price", F.ticket.limit), ("Time in force", "Day")]  # fmt: skip
    for i, (k, v) in enumerate(rows):
        y = 66 + i * 40
        d.text((18, y), k, font=font(14), fill=(90, 90, 95))
        d.text((190, y), v, font=font(16, bold=True), fill=(20, 20, 25))
        d.line((16, y + 30, 344, y + 30), fill=(220, 220, 225))
    d.rounded_rectangle((18, 360, 342, 402), radius=8, fill=(12, 84, 72))
    d.text((120, 371), "Review order", font=font(15, bold=True), fill=(255, 255, 255))
    img.save(path, format="PNG", optimize=True)


def main() -> None:
    for sub in ("day1/memos", "day1/statements", "day3/surveillance", "day4/tickets"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    voice_memo(HERE / F.names.memo)
    statement(HERE / F.names.statement)
    capture(HERE / F.names.capture)
    ticket(HERE / F.names.ticket)


if __name__ == "__main__":
    main()
