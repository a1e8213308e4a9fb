"""Regenerate the expense-reconciliation task's evidence deterministically (the outputs are committed).

    python tasks/executive_assistant/expense_reconciliation/make_evidence.py

Authoring-time tools only (running the benchmark needs none of them): reportlab (the card statement,
a text PDF), Pillow (receipt photos: pixels only), espeak-ng + ffmpeg (Rafael's voice memo, 16 kHz
mono MP3, bit-exact flags).

- day1/statement/card_statement_2025-09.pdf   the corporate card statement (the lines of seed/lines.csv)
- day1/receipts/*.jpg   phone photos of five receipts: the Eurostar ticket, the hotel folio (a minibar
  line), the brasserie bill (3 covers), the Lufthansa receipt, the bar bill (drinks only)
- day2/memo/rafael_memo_1007.mp3   who was at the brasserie dinner and why; the Amazon charge is personal
- day3/bureau_direct_duplicate_0925.jpg   the merchant's duplicate receipt for the missing one
"""

from __future__ import annotations

import csv
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
F = TaskFolder(__file__).facts
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / name), size)


def statement(path: Path) -> None:
    with (HERE / "seed/lines.csv").open(encoding="utf-8", newline="") as f:
        lines = list(csv.DictReader(f))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle(f"Statement {F.card.statement}")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(60, 790, "NORDBANK CORPORATE CARD - MONTHLY STATEMENT")
    c.setFont("Helvetica", 10)
    y = 768
    for line in [f"Statement {F.card.statement}   Period 01/09/2025 - 30/09/2025",
                 f"Cardholder: RAFAEL MOREAU   Card {F.card.number}", "Company: Quillon Software SAS"]:  # fmt: skip
        c.drawString(60, y, line)
        y -= 14
    y -= 14
    c.setFont("Helvetica-Bold", 10)
    for x, head in ((60, "Ref"), (130, "Date"), (210, "Merchant"), (470, "Amount EUR")):
        c.drawString(x, y, head)
    c.setFont("Helvetica", 10)
    for row in lines:
        y -= 16
        c.drawString(60, y, row["Txn ID"])
        c.drawString(130, y, row["Date"])
        c.drawString(210, y, row["Merchant"])
        c.drawRightString(530, y, row["Amount (EUR)"])
    y -= 24
    c.setFont("Helvetica-Bold", 10)
    c.drawString(210, y, "Total charged this period")
    c.drawRightString(530, y, F.card.total)
    c.setFont("Helvetica", 9)
    c.drawString(60, 60, "Settled in full by Quillon Software SAS by direct debit on 10/10/2025.")
    c.save()


def receipt(path: Path, seed: int, lines: list[str], width: int = 360) -> None:
    """A paper receipt, photographed on a table: slight rotation, shadow, noise."""
    rnd = random.Random(seed)
    mono = font("DejaVuSansMono.ttf", 15)
    bold = font("DejaVuSansMono-Bold.ttf", 16)
    height = 40 + 24 * len(lines)
    paper = Image.new("RGB", (width, height), (246, 244, 238))
    d = ImageDraw.Draw(paper)
    y = 20
    for line in lines:
        f = bold if line.startswith("*") else mono
        d.text((18, y), line.lstrip("*"), font=f, fill=(35, 35, 35))
        y += 24
    paper = paper.rotate(rnd.uniform(-4, 4), resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0))
    mask = Image.eval(paper.convert("L"), lambda v: 255 if v > 0 else 0)
    table = Image.new("RGB", (paper.size[0] + 80, paper.size[1] + 80), (58, 64, 72))
    table.paste((30, 34, 40), (48, 48, paper.size[0] + 48, paper.size[1] + 48), mask)
    table.paste(paper, (40, 40), mask)
    px = table.load()
    for _ in range(3500):
        x, yy = rnd.randrange(table.size[0]), rnd.randrange(table.size[1])
        n = rnd.randrange(-16, 17)
        r, g, b = px[x, yy]
        px[x, yy] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    table.filter(ImageFilter.GaussianBlur(0.5)).save(path, format="JPEG", quality=68, optimize=True)


RECEIPTS = {
    "eurostar_0903.jpg": ["*EUROSTAR", "E-ticket receipt", "03/09/2025  08:01", "London St Pancras", "  -> Paris Gare du Nord",
                          "Standard Premier, coach 9 seat 61", "Passenger: R. MOREAU", "", "*TOTAL      EUR 189.00", "Paid: card ****4417"],
    "hotel_marceau_folio.jpg": ["*HOTEL MARCEAU ****", "12 rue Marceau, 75008 Paris", "Folio 55120  Room 407", "M. Rafael MOREAU",
                                "Arr 03/09/2025  Dep 06/09/2025", "", "03/09 Chambre            218.00", "04/09 Chambre            218.00",
                                "05/09 Chambre            218.00", "Taxe de sejour 3 x 4.00   12.00", f"05/09 Minibar             {F.hotel.minibar}",
                                "05/09 Blanchisserie        44.00", "", "*TOTAL              EUR 744.00", "Carte ****4417  06/09/2025"],
    "brasserie_lumen_0911.jpg": ["*BRASSERIE LUMEN", "8 place du Marche, Paris 2e", "11/09/2025  20:14   Table 12",
                                 f"Couverts: {F.dinner.covers}", "", "3 Menu du marche   3 x 42.00  126.00", "1 Chablis 1er cru          58.00",
                                 "3 Cafe            3 x  3.80   11.40", "1 Eau minerale              9.20", "", "*TOTAL TTC           EUR 204.60",
                                 "Carte ****4417"],
    "lufthansa_0918.jpg": ["*LUFTHANSA", "Receipt / Beleg", "18/09/2025", "LH1029  CDG -> FRA  Economy", "LH1032  FRA -> CDG  Economy",
                           "Passenger: MOREAU/RAFAEL MR", "", "*TOTAL      EUR 312.40", "Card ****4417"],
    "bar_americano_0926.jpg": ["*BAR AMERICANO", "Via Brera 4 - Milano", "26/09/2025  22:47", "", "3 Negroni       3 x 18.00  54.00",
                               "1 Old Fashioned           10.00", "", "*TOTALE             EUR 64.00", "Carta ****4417"],
}  # fmt: skip
DUPLICATE = ["*BUREAU DIRECT", "DUPLICATA / DUPLICATE", "Commande W-88214  25/09/2025", "Livraison: Quillon Software, Paris",
             "1 Toner HP 410A noir         41.90", "", "*TOTAL TTC           EUR 41.90", "Paye par carte ****4417"]  # fmt: skip

MEMO = (
    "Hi, it's Rafael, about September's expenses. The Brasserie Lumen dinner on the eleventh was with two people "
    "from Halvorsen Group, Ingrid Dahl and Per Moen, and the purpose was the contract renewal negotiation. "
    "The Amazon charge on the fifteenth is personal, I bought a present on the wrong card, so put it down as "
    "personal and I'll repay it. Everything else from the Paris trip is business. Thanks."
)


def memo(path: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "m.wav"
        subprocess.run(["espeak-ng", "-v", "en-gb", "-s", "160", "-p", "35", "-w", str(wav), MEMO], check=True)
        subprocess.run(
            ["ffmpeg", "-y", "-loglevel", "error", "-i", str(wav), "-ar", "16000", "-ac", "1", "-c:a", "libmp3lame",
             "-b:a", "24k", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-map_metadata", "-1", str(path)],
            check=True,
        )  # fmt: skip


def main() -> None:
    for sub in ("day1/statement", "day1/receipts", "day2/memo", "day3"):
        target = HERE / sub
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    statement(HERE / "day1/statement/card_statement_2025-09.pdf")
    for i, (name, lines) in enumerate(RECEIPTS.items()):
        receipt(HERE / f"day1/receipts/{name}", 900 + i, lines)
    memo(HERE / "day2/memo/rafael_memo_1007.mp3")
    receipt(HERE / f"day3/{F.duplicate.file}", 925, DUPLICATE)


if __name__ == "__main__":
    main()
