"""Regenerate the capital-call task's evidence deterministically (the outputs are committed).

    python tasks/investment/capital_call/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the text-PDF NAV
pack, and the wrapper of the scanned agreement) and Pillow (the scan and the bank screenshot).

- day1/subscriptions/Harrow_subscription_agreement_signed.pdf  image-only PDF: the signature page
  of Harrow's subscription agreement with its commitment amount (pixels only)
- day4/bank/incoming_wires_2026-03-12.png   screenshot of the fund's bank portal: the wires received
  (pixels only; Harrow's arrived net of bank charges, Oakfield's is missing)
- day4/admin/Corbel_NAV_pack_Q1-2026_flash.pdf  text PDF: the administrator's flash NAV pack, which
  books the whole call as received
"""

from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
N = F.names
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(size: int, kind: str = "sans") -> ImageFont.FreeTypeFont:
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "serif": "DejaVuSerif.ttf",
             "hand": "DejaVuSerif-Italic.ttf", "mono": "DejaVuSansMono.ttf"}  # fmt: skip
    return ImageFont.truetype(str(FONTS / files[kind]), size)


def usd(value: int) -> str:
    return f"{value:,.2f}"


# -- image-only PDF: the subscription agreement's signature page ---------------------------------
def subscription(path: Path) -> None:
    s, lp = F.subscription, F.lps[F.subscription.lp]
    w, h = 850, 1100
    page = Image.new("L", (w, h), 250)
    d = ImageDraw.Draw(page)
    d.text((70, 50), "SUBSCRIPTION AGREEMENT - SIGNATURE PAGE", font=font(24, "bold"), fill=20)
    d.text((70, 88), F.names.fund, font=font(19, "serif"), fill=30)
    d.line((70, 122, 780, 122), fill=60, width=2)
    body = [
        "The undersigned hereby subscribes for a limited partnership interest in the",
        "Partnership on the terms of the Limited Partnership Agreement and agrees to",
        "contribute capital up to its Capital Commitment when called by the General Partner.",
        "",
        "Admitted at the second closing. Investor number assigned by the GP: " + lp.id,
    ]
    y = 145
    for line in body:
        d.text((70, y), line, font=font(17, "serif"), fill=30)
        y += 28
    d.text((70, y + 20), "Name of Investor:", font=font(18, "bold"), fill=20)
    d.text((300, y + 20), lp.name, font=font(18, "serif"), fill=20)
    d.text((70, y + 80), "Capital Commitment:", font=font(18, "bold"), fill=20)
    d.rectangle((295, y + 66, 700, y + 126), outline=40, width=3)
    d.text((315, y + 76), f"USD {lp.commitment:,}", font=font(32, "hand"), fill=10)  # filled in by hand
    d.text((300, y + 136), f"({s.commitment_words})", font=font(16, "hand"), fill=25)
    d.text((70, y + 210), "Signed:", font=font(18, "bold"), fill=20)
    d.text((300, y + 196), "G. Adeyemi", font=font(34, "hand"), fill=15)
    d.text((300, y + 246), s.signatory, font=font(16, "serif"), fill=30)
    d.text((300, y + 274), f"Date: {s.signed}", font=font(16, "serif"), fill=30)
    d.text((70, y + 350), "Accepted by the General Partner:", font=font(18, "bold"), fill=20)
    d.text((420, y + 336), "D. Okafor", font=font(34, "hand"), fill=15)
    d.text((70, 1040), "Page 38 of 38 - Investor copy", font=font(14), fill=60)
    rnd = random.Random(505)
    for _ in range(1800):
        d.point((rnd.randrange(w), rnd.randrange(h)), fill=rnd.randrange(110, 200))
    page = page.rotate(-0.5, resample=Image.BICUBIC, expand=False, fillcolor=236).filter(ImageFilter.GaussianBlur(0.5))
    buf = io.BytesIO()
    page.save(buf, format="JPEG", quality=58, optimize=True)
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle("scan_0302_1104")
    pw, ph = letter
    c.drawImage(ImageReader(io.BytesIO(buf.getvalue())), 0, 0, width=pw, height=ph)
    c.save()


# -- PNG: the bank portal's incoming wires ---------------------------------------------------------
def wires(path: Path) -> None:
    b, rec = F.bank, F.expected.received
    rows = [(b.wire_times[k], F.lps[k].name, f"{N.call}-{k}", usd(rec[k]))
            for k in ("LP01", "LP04", "LP03", "LP05")]  # fmt: skip
    rows.insert(2, ("12:07", b.noise["from"], b.noise.ref, b.noise.amount))
    w, h = 900, 400
    img = Image.new("RGB", (w, h), (244, 246, 249))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, 52), fill=(18, 52, 86))
    d.text((20, 14), f"{b.name}  |  Treasury Online", font=font(20, "bold"), fill=(255, 255, 255))
    d.text((20, 66), f"Incoming wires - account {b.account} (Larchmont Ridge Growth Fund III LP)", font=font(16, "bold"),
           fill=(20, 30, 40))  # fmt: skip
    d.text(
        (20, 92),
        "Value date 12-Mar-2026   Status: credited   Amounts in USD, as credited",
        font=font(14),
        fill=(70, 80, 90),
    )
    heads = ((20, "Time"), (90, "Ordering customer"), (470, "Reference"), (700, "Amount credited"))
    d.rectangle((10, 124, w - 10, 152), fill=(220, 226, 234))
    for x, t in heads:
        d.text((x, 130), t, font=font(14, "bold"), fill=(20, 30, 40))
    y = 162
    for i, (t, who, ref, amt) in enumerate(rows):
        if i % 2:
            d.rectangle((10, y - 6, w - 10, y + 26), fill=(233, 237, 243))
        for x, text in ((20, t), (90, who[:40]), (470, ref)):
            d.text((x, y), text, font=font(14, "mono"), fill=(20, 30, 40))
        d.text((860 - d.textlength(amt, font=font(14, "mono")), y), amt, font=font(14, "mono"), fill=(20, 30, 40))
        y += 34
    d.text((20, y + 12), "Charges: beneficiary bank charges are deducted by the ordering bank where applicable.",
           font=font(12), fill=(90, 100, 110))  # fmt: skip
    img.save(path, format="PNG", optimize=True)


# -- text PDF: the administrator's flash NAV pack --------------------------------------------------
def nav_pack(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=letter, invariant=1)
    c.setTitle("Flash NAV pack Q1 2026")
    c.setFont("Helvetica-Bold", 14)
    c.drawString(50, 740, f"{F.nav.administrator} - Flash NAV pack (draft)")
    c.setFont("Helvetica", 10)
    c.drawString(50, 722, f"{N.fund}   Period: Q1 2026 to date   Prepared 12 Mar 2026, 17:00 ET")
    y = 690
    lines = [
        ("Cash at bank, opening (per administrator)", F.nav.cash_prior),
        (f"Capital contributions - Call {N.call} (called {F.call_terms.notice_date})", usd(F.nav.booked)),
        ("Investments at fair value", "see schedule 2"),
        ("Management fee accrued, Q1", "see schedule 4"),
    ]
    for label, value in lines:
        c.drawString(50, y, label)
        c.drawRightString(560, y, value)
        y -= 18
    y -= 14
    for line in [
        "Basis: capital contributions are booked on the call date as received in full. Receipts are",
        "not yet matched to the bank statement for this flash; the GP is asked to confirm receipts per",
        "investor before the pack is finalised, and to report any break (called less received).",
    ]:
        c.drawString(50, y, line)
        y -= 14
    c.save()


def main() -> None:
    for sub in ("day1", "day4"):
        if (HERE / sub).exists():
            shutil.rmtree(HERE / sub)
    for sub in ("day1/subscriptions", "day4/bank", "day4/admin"):
        (HERE / sub).mkdir(parents=True)
    subscription(HERE / "day1" / N.subscription)
    wires(HERE / "day4" / N.wires)
    nav_pack(HERE / "day4" / N.nav_pack)


if __name__ == "__main__":
    main()
