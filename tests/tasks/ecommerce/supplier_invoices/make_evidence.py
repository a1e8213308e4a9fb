"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/ecommerce/supplier_invoices/make_evidence.py

Needs reportlab and Pillow (authoring-time only; running the benchmark does not).
Text PDFs for most invoices, one scanned-looking PNG (a photographed paper invoice), CSV purchase
orders, and a day-2 credit note and amended PO list.
"""

from __future__ import annotations

import csv
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

HERE = Path(__file__).parent
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

POS = [
    # po_id, supplier, description, total (EUR)
    ("PO-7001", "Nordlicht Packaging GmbH", "Shipping cartons 40x30x20, 2,000 pcs", "1840.00"),
    ("PO-7002", "Alba Textiles S.L.", "Organic cotton tote bags, 500 pcs", "2375.00"),
    ("PO-7003", "Kettle & Co. Ltd", "Ceramic mugs, glazed, 300 pcs", "1290.00"),
    ("PO-7004", "Vireo Logistics B.V.", "Pallet storage, March", "960.00"),
]
# day 2: procurement approved a change order on PO-7004 (extra pallets) without telling anyone
PO_7004_AMENDED = "1130.50"

INVOICES = [
    # invoice_id, supplier, po_id, lines [(text, qty, unit)], date
    ("INV-1001", "Nordlicht Packaging GmbH", "PO-7001", [("Shipping cartons 40x30x20", 2000, "0.92")], "2025-03-28"),
    ("INV-1002", "Alba Textiles S.L.", "PO-7002", [("Organic cotton tote bag", 500, "4.75")], "2025-03-29"),
    (
        "INV-1003",
        "Kettle & Co. Ltd",
        "PO-7003",
        [("Ceramic mug, glazed", 300, "4.30"), ("Express freight", 1, "145.00")],
        "2025-03-31",
    ),
    (
        "INV-1004",
        "Vireo Logistics B.V.",
        "PO-7004",
        [("Pallet storage, March (34 pallets)", 34, "33.25")],
        "2025-03-31",
    ),
]
# a paper invoice photographed on a desk: no PO reference at all
SCAN = ("INV-1005", "Brightside Cleaning Services", "", [("Office deep clean, 2 visits", 2, "187.50")], "2025-04-01")


def total(lines: list[tuple[str, int, str]]) -> str:
    cents = sum(q * round(float(u) * 100) for _, q, u in lines)
    return f"{cents / 100:.2f}"


def invoice_pdf(inv: tuple, path: Path) -> None:
    inv_id, supplier, po, lines, date = inv
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)  # invariant: byte-identical output
    c.setTitle(f"Invoice {inv_id}")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 780, supplier)
    c.setFont("Helvetica", 11)
    c.drawString(60, 750, f"INVOICE {inv_id}")
    c.drawString(60, 734, f"Date: {date}")
    c.drawString(60, 718, f"Your order: {po}" if po else "Your order: -")
    c.drawString(60, 690, "Bill to: Harbor & Pine Home Goods, Accounts Payable")
    y = 650
    c.drawString(60, y, "Description")
    c.drawString(340, y, "Qty")
    c.drawString(400, y, "Unit EUR")
    c.drawString(480, y, "Amount EUR")
    for text, qty, unit in lines:
        y -= 20
        amount = f"{qty * round(float(unit) * 100) / 100:.2f}"
        c.drawString(60, y, text)
        c.drawString(340, y, str(qty))
        c.drawString(400, y, unit)
        c.drawString(480, y, amount)
    y -= 36
    c.setFont("Helvetica-Bold", 12)
    c.drawString(340, y, "TOTAL DUE EUR")
    c.drawString(480, y, total(lines))
    c.setFont("Helvetica", 9)
    c.drawString(60, 80, "Payment terms: 30 days net. VAT reverse charge.")
    c.save()


def invoice_scan(inv: tuple, path: Path) -> None:
    inv_id, supplier, _po, lines, date = inv
    img = Image.new("RGB", (900, 1100), (226, 219, 205))  # a desk
    paper = Image.new("RGB", (760, 980), (250, 248, 240))
    d = ImageDraw.Draw(paper)
    big, mid = ImageFont.truetype(FONT, 34), ImageFont.truetype(FONT, 24)
    d.text((40, 40), supplier, fill=(20, 20, 60), font=big)
    d.text((40, 110), f"Invoice no. {inv_id}", fill=(0, 0, 0), font=mid)
    d.text((40, 150), f"Date {date}", fill=(0, 0, 0), font=mid)
    d.text((40, 230), "Harbor & Pine Home Goods", fill=(0, 0, 0), font=mid)
    y = 320
    for text, qty, unit in lines:
        d.text((40, y), f"{text}", fill=(0, 0, 0), font=mid)
        d.text((40, y + 34), f"{qty} x {unit} EUR", fill=(0, 0, 0), font=mid)
        y += 90
    d.text((40, y + 40), f"TOTAL EUR {total(lines)}", fill=(0, 0, 0), font=big)
    d.text((40, 900), "Thank you - cash or transfer", fill=(90, 90, 90), font=mid)
    paper = paper.rotate(2.5, resample=Image.BICUBIC, expand=True, fillcolor=(226, 219, 205))
    img.paste(paper, (40, 30))
    img = img.filter(ImageFilter.GaussianBlur(0.8))
    img.save(path, format="PNG", optimize=True)


def po_csv(path: Path, amended: bool) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["po_id", "supplier", "description", "total_eur", "status"])
        for po, supplier, desc, amount in POS:
            if amended and po == "PO-7004":
                w.writerow([po, supplier, desc + " + change order CO-2 (5 extra pallets)", PO_7004_AMENDED, "approved"])
            else:
                w.writerow([po, supplier, desc, amount, "approved"])


def credit_note(path: Path) -> None:
    c = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    c.setTitle("Credit note CN-88 for INV-1003")
    c.setFont("Helvetica-Bold", 16)
    c.drawString(60, 780, "Kettle & Co. Ltd")
    c.setFont("Helvetica", 11)
    c.drawString(60, 750, "CREDIT NOTE CN-88")
    c.drawString(60, 734, "Date: 2025-04-07")
    c.drawString(60, 718, "Relates to invoice: INV-1003 (your order PO-7003)")
    c.drawString(60, 680, "Express freight was charged in error. We credit the full freight charge.")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(60, 640, "CREDIT EUR 145.00")
    c.save()


def main() -> None:
    day1, day2 = HERE / "day1", HERE / "day2"
    (day1 / "invoices").mkdir(parents=True, exist_ok=True)
    (day2 / "credit_notes").mkdir(parents=True, exist_ok=True)
    (HERE / "silent").mkdir(exist_ok=True)
    po_csv(day1 / "purchase_orders.csv", amended=False)
    for inv in INVOICES:
        invoice_pdf(inv, day1 / "invoices" / f"{inv[0]}.pdf")
    invoice_scan(SCAN, day1 / "invoices" / f"{SCAN[0]}.png")
    credit_note(day2 / "credit_notes" / "CN-88.pdf")
    po_csv(HERE / "silent" / "purchase_orders.csv", amended=True)


if __name__ == "__main__":
    main()
