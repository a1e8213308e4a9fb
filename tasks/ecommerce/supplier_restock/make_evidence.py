"""Regenerate the supplier-restock task's evidence deterministically (the outputs are committed).

    python tasks/ecommerce/supplier_restock/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (text PDFs),
Pillow (the cycle-count photo and the video frames), ffmpeg (libx264, one thread, bit-exact flags).

- day1/quotes/AK-Q-25-0417_Alpenkraft.pdf, BOS-7781_Bergmann.pdf  text PDFs: the two stove quotes
  (price, lead time, minimum order)
- day1/cycle_count/IMG_0505_aisle_C.jpg  photo of two bins with the count tags clipped on: the stove
  bin was counted at 64 (the Stock tab says 140); the lantern tag agrees with the book
- day3/receiving/VID_0507_PO-3107.mp4  6 s at the dock: the Norrsken pallet (12 cartons), three of
  them crushed, and for two seconds the receiving tag "12 CTN in / 3 CTN damaged"
- day3/invoices/INV-NT-88412.pdf  text PDF: Norrsken bills 120 units at 56.20
- day4/confirmations/AB-25-1193_Alpenkraft.pdf  text PDF: the order confirmation at 19.10
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
FONTS = Path("/usr/share/fonts/truetype/dejavu")
FPS = 8
W, H = 480, 272


def font(size: int, bold: bool = False, mono: bool = False, oblique: bool = False) -> ImageFont.FreeTypeFont:
    if mono:
        name = "DejaVuSansMono-Bold.ttf"
    elif oblique:
        name = "DejaVuSans-BoldOblique.ttf"
    else:
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def grain(img: Image.Image, seed: int, amount: int = 2500) -> Image.Image:
    rnd = random.Random(seed)
    d = ImageDraw.Draw(img)
    for _ in range(amount):
        x, y = rnd.randrange(img.width), rnd.randrange(img.height)
        v = rnd.randrange(-24, 24)
        r, g, b = img.getpixel((x, y))
        d.point((x, y), fill=(max(0, min(255, r + v)), max(0, min(255, g + v)), max(0, min(255, b + v))))
    return img.filter(ImageFilter.GaussianBlur(0.6))


# -- the cycle-count photo ------------------------------------------------------------------------
def count_tag(sku: str, bin_: str, counted: int) -> Image.Image:
    """A yellow count tag, filled in with a marker (a bold oblique face), as an RGBA card."""
    tag = Image.new("RGBA", (250, 190), (250, 226, 90, 255))
    d = ImageDraw.Draw(tag)
    d.rectangle((0, 0, 249, 189), outline=(150, 120, 30), width=3)
    d.ellipse((115, 8, 135, 28), fill=(60, 60, 60))  # the punched hole
    d.text((14, 34), "CYCLE COUNT", font=font(16, bold=True), fill=(60, 50, 20))
    d.text((14, 58), f"SKU  {sku}", font=font(17, oblique=True), fill=(20, 30, 120))
    d.text((14, 84), f"Bin  {bin_}", font=font(17, oblique=True), fill=(20, 30, 120))
    d.text((14, 112), "Counted:", font=font(16, bold=True), fill=(60, 50, 20))
    d.text((108, 104), str(counted), font=font(34, oblique=True), fill=(20, 30, 120))
    d.text((14, 156), "05.05.  D.O.", font=font(15, oblique=True), fill=(20, 30, 120))
    return tag


def cycle_count_photo(path: Path) -> None:
    img = Image.new("RGB", (900, 640), (92, 98, 110))
    d = ImageDraw.Draw(img)
    # orange racking uprights and two beam levels
    for x in (20, 440, 860):
        d.rectangle((x, 0, x + 22, 640), fill=(222, 110, 30))
    for y in (70, 360):
        d.rectangle((0, y, 900, y + 20), fill=(30, 80, 160))
    # cartons in the two bins: stoves (left, nearly empty) and lanterns (right, full)
    rnd = random.Random(505)
    for k in range(3):
        d.rectangle((70 + k * 110, 240, 170 + k * 110, 358), fill=(190, 150, 100), outline=(120, 90, 60), width=2)
    for row in range(2):
        for k in range(3):
            x0, y0 = 480 + k * 120 + rnd.randrange(-4, 4), 130 + row * 115
            d.rectangle((x0, y0, x0 + 110, y0 + 110), fill=(200, 160, 110), outline=(120, 90, 60), width=2)
    # bin labels on the beam (printed, small)
    for x, text in ((60, F.count.bin), (480, "C-15-1")):
        d.rectangle((x, 383, x + 170, 412), fill=(250, 250, 250))
        d.text((x + 8, 386), text, font=font(20, bold=True), fill=(10, 10, 10))
        for k in range(30):  # a barcode
            d.line((x + 100 + k * 2, 388, x + 100 + k * 2, 408), fill=(0, 0, 0) if (k * 7) % 3 else (250, 250, 250))
    # the count tags, clipped to the beam, slightly turned
    for (x, y, angle), (sku, bin_, counted) in zip(
        ((80, 420, 3), (500, 425, -4)),
        ((F.count.sku, F.count.bin, F.count.counted), (F.count.other_sku, "C-15-1", F.count.other_counted)),
    ):
        tag = count_tag(sku, bin_, counted).rotate(angle, resample=Image.BICUBIC, expand=True)
        img.paste(tag, (x, y), tag)
    img = grain(img, 505)
    d = ImageDraw.Draw(img)
    d.text((700, 610), "2025-05-05 06:48", font=font(18, mono=True), fill=(255, 150, 40))
    img.save(path, format="JPEG", quality=72, optimize=True)


# -- the receiving video --------------------------------------------------------------------------
def pallet_scene(pan: int, crushed: int) -> Image.Image:
    """The pallet of 12 cartons (4 x 3) on the dock; ``crushed`` of them dented and taped red."""
    img = Image.new("RGB", (W, H), (150, 150, 146))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, 90), fill=(88, 92, 100))  # dock door
    for y in range(0, 90, 12):
        d.line((0, y, W, y), fill=(70, 74, 82), width=2)
    x0 = 70 - pan
    d.rectangle((x0, 226, x0 + 340, 244), fill=(170, 130, 80))  # the pallet
    for k in range(4):
        d.rectangle((x0 + 10 + k * 84, 244, x0 + 34 + k * 84, 256), fill=(140, 105, 60))
    damaged = {(0, 1), (2, 3), (1, 2)}  # (row, column) of the crushed cartons
    assert len(damaged) == crushed
    for row in range(3):
        for col in range(4):
            bx, by = x0 + col * 85, 86 + row * 47
            if (row, col) in damaged:
                d.polygon([(bx + 2, by + 10), (bx + 80, by + 2), (bx + 82, by + 45), (bx + 6, by + 44)],
                          fill=(150, 110, 70), outline=(90, 60, 30))  # fmt: skip
                d.line((bx + 10, by + 12, bx + 70, by + 38), fill=(90, 60, 30), width=3)
                d.rectangle((bx + 20, by + 18, bx + 64, by + 28), fill=(210, 30, 30))
            else:
                d.rectangle((bx + 2, by + 2, bx + 82, by + 45), fill=(196, 156, 104), outline=(120, 90, 60), width=2)
                d.text((bx + 12, by + 16), "NORRSKEN", font=font(10, bold=True), fill=(60, 50, 40))
    return img


def receiving_tag(jitter: int) -> Image.Image:
    img = Image.new("RGB", (W, H), (120, 124, 128))
    d = ImageDraw.Draw(img)
    x0, y0 = 60 + jitter, 24 + jitter // 2
    d.rectangle((x0, y0, x0 + 360, y0 + 226), fill=(250, 250, 246), outline=(60, 60, 60), width=3)
    d.text((x0 + 16, y0 + 12), "GOODS RECEIVING TAG", font=font(18, bold=True), fill=(20, 20, 20))
    lines = [
        (f"PO  {F.pallet.po}", (20, 20, 20)),
        ("Supplier  Norrsken", (20, 20, 20)),
        (f"{F.pallet.cartons} CTN in", (20, 30, 120)),
        (f"{F.pallet.damaged_cartons} CTN damaged", (200, 20, 20)),
        ("crushed - quarantine Q2", (20, 30, 120)),
    ]
    for i, (line, colour) in enumerate(lines):
        d.text((x0 + 18, y0 + 48 + i * 34), line, font=font(20, oblique=i >= 2), fill=colour)
    return img


def timestamp(img: Image.Image, second: int) -> Image.Image:
    d = ImageDraw.Draw(img)
    d.text((8, H - 22), f"DOCK 2  2025-05-07 07:12:{20 + second:02d}", font=font(13, mono=True), fill=(255, 255, 255))
    return img


def receiving_video(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(6 * FPS):
            if i < 3 * FPS:
                img = pallet_scene(i * 2, F.pallet.damaged_cartons)
            elif i < 5 * FPS:
                img = receiving_tag((i % 3) * 2)
            else:
                img = pallet_scene(48 - (i - 5 * FPS) * 3, F.pallet.damaged_cartons)
            timestamp(img, i // FPS).save(Path(tmp) / f"f{i:03d}.png")
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-framerate", str(FPS), "-i", str(Path(tmp) / "f%03d.png"),
             "-c:v", "libx264", "-preset", "medium", "-crf", "28", "-pix_fmt", "yuv420p", "-threads", "1",
             "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


# -- text PDFs ------------------------------------------------------------------------------------
def _doc(path: Path, title: str, letterhead: list[str], lines: list[str]) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(title)
    c.setFont("Helvetica-Bold", 15)
    c.drawString(60, 790, letterhead[0])
    c.setFont("Helvetica", 9)
    for i, line in enumerate(letterhead[1:]):
        c.drawString(60, 775 - i * 12, line)
    y = 730
    for line in lines:
        if line.startswith("## "):
            y -= 4
            c.setFont("Helvetica-Bold", 11.5)
            c.drawString(60, y, line[3:])
        else:
            c.setFont("Helvetica", 10.5)
            c.drawString(60, y, line)
        y -= 16
    c.save()


def eur(value: Decimal) -> str:
    return f"EUR {value:,.2f}"


def quote(path: Path, q: Any, head: list[str], extra: list[str]) -> None:
    moq_total = Decimal(q["unit_price"]) * q["moq"]
    _doc(
        path,
        f"Quotation {q['ref']}",
        head,
        [
            f"## QUOTATION {q['ref']}",
            "Date: 2 May 2025",
            "Customer: Fernhill Outdoor GmbH, Purchasing (Tomasz Wren)",
            f"Valid until: {q['valid_until']}",
            "",
            "## Item",
            f"Trailblaze compact gas stove, your SKU {F.count.sku}, case of 24",
            f"Unit price: {eur(Decimal(q['unit_price']))} per unit, net, DAP Munich",
            f"Minimum order quantity: {q['moq']} units (example: {q['moq']} units = {eur(moq_total)})",
            f"Lead time: {q['lead_days']} days from order",
            "",
            *extra,
        ],
    )


def invoice(path: Path) -> None:
    inv = F.invoice
    _doc(
        path,
        f"Invoice {inv.number}",
        ["Norrsken Textiles AB", "Hamngatan 14, 411 14 Goteborg, Sweden  -  VAT SE556677889901"],
        [
            f"## INVOICE {inv.number}",
            "Invoice date: 7 May 2025        Due: 6 June 2025 (30 days net)",
            "Bill to: Fernhill Outdoor GmbH, Accounts Payable, Munich",
            f"Your order: {F.pallet.po}          Delivery: 7 May 2025, 1 pallet",
            "",
            "## Lines",
            f"{F.pallet.sku}  Nordlys down sleeping bag -5C",
            f"   {inv.qty} units x {eur(Decimal(inv.unit_price))} = {eur(Decimal(inv.invoiced))}",
            "",
            f"Total due (intra-EU reverse charge, no VAT): {eur(Decimal(inv.invoiced))}",
            "",
            "Unit price per our price list valid from 1 May 2025.",
            "Bank: SEB Goteborg, IBAN SE35 5000 0000 0549 1000 0003",
        ],
    )


def confirmation(path: Path) -> None:
    c = F.confirmation
    _doc(
        path,
        f"Order confirmation {c.number}",
        ["Alpenkraft GmbH", "Industriestrasse 8, 6020 Innsbruck, Austria  -  sales@alpenkraft.example"],
        [
            f"## ORDER CONFIRMATION {c.number}",
            "Date: 7 May 2025",
            f"Your purchase order: {F.stove.po} of 6 May 2025",
            "",
            "## Confirmed",
            f"{F.count.sku}  Trailblaze compact gas stove",
            f"   {F.stove.qty} units x {eur(Decimal(c.unit_price))} = {eur(Decimal(c.total))}",
            f"Delivery: {F.lead.delivery} (lead time {F.lead.after} days)",
            "",
            "Prices per our list valid from 1 May 2025. Where this confirmation differs from",
            "your order, the confirmation applies unless you object within 3 working days.",
        ],
    )


def main() -> None:
    for sub in ("day1/quotes", "day1/cycle_count", "day3/receiving", "day3/invoices", "day4/confirmations"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    ak, bos = F.quotes.alpenkraft, F.quotes.bergmann
    quote(HERE / ak.file, ak, ["Alpenkraft GmbH", "Industriestrasse 8, 6020 Innsbruck, Austria"],
          ["Payment: 30 days net. Quoted prices are firm for the validity of this quotation."])  # fmt: skip
    quote(HERE / bos.file, bos, ["Bergmann Outdoor Supply", "Hafenweg 22, 28197 Bremen, Germany"],
          ["Payment: 45 days net. Sea freight from the manufacturer; lead time as stated."])  # fmt: skip
    cycle_count_photo(HERE / "day1/cycle_count/IMG_0505_aisle_C.jpg")
    receiving_video(HERE / F.pallet.video)
    invoice(HERE / F.invoice.file)
    confirmation(HERE / F.confirmation.file)


if __name__ == "__main__":
    main()
