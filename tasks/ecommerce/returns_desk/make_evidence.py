"""Regenerate this task's evidence files deterministically (run once; the outputs are committed).

    python tasks/ecommerce/returns_desk/make_evidence.py

Needs Pillow (authoring-time only; running the benchmark does not).
Outputs:
- day1/orders_2025-11-16.csv, day1/refunds_2025-11-16.csv: the shop's order and refund exports.
- day1/parcel_LL-48213.jpg: a customer's photo of a crushed parcel; the order number is printed
  only on its shipping label (her mail does not give it, and she has two recent orders).
- day2/parcelwise_tracking_2025-11-17.csv: the carrier's tracking export (delivery proof for the
  order under chargeback).
- day3/parcel_LL-48240.jpg: a second customer's photo of a split parcel.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts  # the figures the checkers and the solution read too
DEJAVU = "/usr/share/fonts/truetype/dejavu/"

# order_id, order_date, delivered_date, customer_name, customer_email, sku, item, qty, unit_price_eur, shipping_eur, payment_method, status
ORDERS = [
    (
        "LL-47912",
        "2025-10-21",
        "2025-10-24",
        "Jonas Weber",
        "jonas.weber@mailbox.example",
        "LL-TEA-01",
        "Stoneware teapot, ash",
        1,
        "39.00",
        "4.90",
        "card",
        "delivered",
    ),
    (
        "LL-47990",
        "2025-10-28",
        "2025-10-31",
        "Hannah Reed",
        "hannah.reed@mailbox.example",
        "LL-THR-07",
        "Linen throw, sand",
        1,
        "58.00",
        "6.00",
        "card",
        "delivered",
    ),
    (
        "LL-48003",
        "2025-10-29",
        "2025-11-01",
        "Ole Hansen",
        "ole.hansen@mailbox.example",
        "LL-VAS-02",
        "Glass vase, smoke",
        1,
        "29.50",
        "4.90",
        "paypal",
        "delivered",
    ),
    (
        "LL-48020",
        "2025-10-30",
        "2025-11-03",
        "Mia Schulz",
        "mia.schulz@mailbox.example",
        "LL-NAP-04",
        "Cotton napkins, set of 4",
        3,
        "12.00",
        "4.90",
        "card",
        "delivered",
    ),
    (
        "LL-48056",
        "2025-11-04",
        "2025-11-07",
        "Dmitri Volkov",
        "d.volkov@mailbox.example",
        "LL-CAN-03",
        "Brass candle holder set",
        1,
        "104.60",
        "7.90",
        "card",
        "delivered",
    ),
    (
        "LL-48102",
        "2025-11-06",
        "2025-11-10",
        "Elif Demir",
        "elif.demir@mailbox.example",
        "LL-CUS-11",
        "Wool cushion cover, rust",
        2,
        "24.50",
        "4.90",
        "card",
        "delivered",
    ),
    (
        "LL-48131",
        "2025-11-07",
        "2025-11-11",
        "Lena Fischer",
        "lena.fischer@mailbox.example",
        "LL-RUG-05",
        "Jute rug 120x180",
        1,
        "89.00",
        "9.90",
        "paypal",
        "delivered",
    ),
    (
        "LL-48177",
        "2025-11-10",
        "2025-11-13",
        "Marco Bianchi",
        "marco.bianchi@posteo.example",
        "LL-BRD-02",
        "Oak serving board",
        2,
        "34.00",
        "5.90",
        "card",
        "delivered",
    ),
    (
        "LL-48190",
        "2025-11-11",
        "2025-11-14",
        "Aisha Khan",
        "aisha.khan@mailbox.example",
        "LL-MUG-09",
        "Speckled mug, set of 2",
        1,
        "26.00",
        "4.90",
        "card",
        "delivered",
    ),
    (
        "LL-48213",
        "2025-11-12",
        "2025-11-15",
        "Elif Demir",
        "elif.demir@mailbox.example",
        "LL-LMP-04",
        "Ceramic table lamp, moss",
        1,
        "89.00",
        "6.90",
        "card",
        "delivered",
    ),
    (
        "LL-48240",
        "2025-11-13",
        "",
        "Grace Lin",
        "grace.lin@mailbox.example",
        "LL-TBL-01",
        "Walnut side table",
        1,
        "249.00",
        "14.90",
        "card",
        "shipped",
    ),
    (
        "LL-48262",
        "2025-11-14",
        "",
        "Tom Becker",
        "tom.becker@mailbox.example",
        "LL-BSK-03",
        "Seagrass basket, large",
        2,
        "32.00",
        "5.90",
        "paypal",
        "shipped",
    ),
]
REFUNDS = [  # refund_id, order_id, amount_eur, executed_on, reason
    ("R-3290", "LL-47912", "43.90", "2025-11-05", "damaged in transit"),
    (
        F.earlier_refund.refund_id,
        F.earlier_refund.order,
        F.earlier_refund.amount,
        "2025-11-14",
        "item not as described",
    ),
    ("R-3311", "LL-48020", "12.00", "2025-11-14", "return, 1 item"),
]
TRACKING = [  # tracking_no, order_id, status, last_event_at, signed_by
    ("PW-7741-0871-22", "LL-48020", "delivered", "2025-11-03 11:40", "M. SCHULZ"),
    (F.tracking.tracking_no, F.chargeback.order, "delivered", F.tracking.delivered_at, F.tracking.signed_by),
    ("PW-7741-1009-71", "LL-48102", "delivered", "2025-11-10 09:55", "NEIGHBOUR NO. 14"),
    ("PW-7741-1134-40", "LL-48177", "delivered", "2025-11-13 16:21", "M. BIANCHI"),
    ("PW-7741-1187-03", "LL-48213", "delivered - damage noted", "2025-11-15 12:03", "E. DEMIR"),
    ("PW-7741-1201-96", "LL-48240", "out for delivery", "2025-11-17 07:30", ""),
]


def money(cents: int) -> str:
    return f"{cents / 100:.2f}"


def write_csv(path: Path, header: list[str], rows: list[tuple]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def orders_csv(path: Path) -> None:
    rows = []
    for oid, od, dd, name, mail, sku, item, qty, unit, ship, pay, status in ORDERS:
        total = qty * round(float(unit) * 100) + round(float(ship) * 100)
        rows.append((oid, od, dd, name, mail, sku, item, qty, unit, ship, money(total), pay, status))
        # the figures the checkers expect (facts.toml): a damaged or disputed order's total, a returned unit's price
        due = {**F.due, F.chargeback.order: F.chargeback.amount}.get(oid)
        assert due in (None, money(total), unit), (
            f"{oid}: facts.toml says {due}, the export {money(total)} (unit {unit})"
        )
    write_csv(
        path,
        [
            "order_id",
            "order_date",
            "delivered_date",
            "customer_name",
            "customer_email",
            "sku",
            "item",
            "qty",
            "unit_price_eur",
            "shipping_eur",
            "order_total_eur",
            "payment_method",
            "status",
        ],
        rows,
    )


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(DEJAVU + name, size)


def label(order_id: str, tracking: str, name: str, street: str, city: str, piece: str) -> Image.Image:
    img = Image.new("RGB", (360, 250), (252, 252, 248))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 359, 249], outline=(30, 30, 30), width=3)
    d.rectangle([0, 0, 359, 38], fill=(25, 25, 25))
    d.text((10, 6), "PARCELWISE  24h", font=font("DejaVuSans-Bold.ttf", 22), fill=(250, 250, 250))
    d.text((262, 10), piece, font=font("DejaVuSans-Bold.ttf", 18), fill=(250, 250, 250))
    d.text((10, 46), "SHIP TO", font=font("DejaVuSans.ttf", 11), fill=(60, 60, 60))
    d.text((10, 60), name, font=font("DejaVuSans-Bold.ttf", 18), fill=(10, 10, 10))
    d.text((10, 82), street, font=font("DejaVuSans.ttf", 15), fill=(10, 10, 10))
    d.text((10, 100), city, font=font("DejaVuSans.ttf", 15), fill=(10, 10, 10))
    d.text((10, 124), "FROM Lark & Lumen Home, Fulfilment Leipzig", font=font("DejaVuSans.ttf", 11), fill=(60, 60, 60))
    d.text((10, 144), f"REF  {order_id}", font=font("DejaVuSansMono-Bold.ttf", 24), fill=(10, 10, 10))
    x = 12
    rng = random.Random(order_id)
    while x < 346:
        w = rng.choice((2, 2, 3, 4))
        d.rectangle([x, 180, x + w - 1, 222], fill=(10, 10, 10))
        x += w + rng.choice((2, 3, 4))
    d.text((70, 226), tracking, font=font("DejaVuSansMono.ttf", 15), fill=(10, 10, 10))
    return img


def parcel_photo(path: Path, seed: int, lbl: Image.Image, crush: str) -> None:
    rng = random.Random(seed)
    img = Image.new("RGB", (960, 720), (120, 92, 66))
    d = ImageDraw.Draw(img)
    for y in range(0, 720, 90):  # floor boards
        shade = 110 + rng.randrange(25)
        d.rectangle([0, y, 960, y + 88], fill=(shade, int(shade * 0.78), int(shade * 0.56)))
        d.line([(0, y + 88), (960, y + 88)], fill=(70, 52, 36), width=2)
    front = [(150, 250), (700, 250), (700, 640), (150, 640)]
    top = [(150, 250), (300, 130), (850, 130), (700, 250)]
    side = [(700, 250), (850, 130), (850, 510), (700, 640)]
    d.polygon(top, fill=(196, 158, 110))
    d.polygon(side, fill=(150, 115, 75))
    d.polygon(front, fill=(178, 139, 92))
    d.rectangle([405, 130, 445, 250], fill=(214, 190, 150))  # tape
    if crush == "corner":
        d.polygon([(560, 250), (700, 250), (850, 130), (780, 130), (700, 330), (610, 300)], fill=(120, 88, 55))
        for k in range(6):
            d.line([(600 + k * 14, 255), (690 - k * 6, 340 + k * 8)], fill=(95, 68, 40), width=3)
        d.polygon([(700, 330), (700, 450), (760, 380)], fill=(90, 64, 38))
    else:
        d.polygon(
            [(470, 600), (520, 566), (560, 590), (610, 556), (660, 584), (698, 570), (698, 640), (470, 640)],
            fill=(52, 36, 22),
        )
        d.polygon([(700, 400), (780, 330), (850, 300), (850, 380), (760, 450), (700, 470)], fill=(118, 88, 56))
        for k in range(5):
            d.line([(520 + k * 34, 548), (500 + k * 36, 600)], fill=(95, 68, 40), width=3)
    d.text((190, 580), "FRAGILE  \u2191\u2191", font=font("DejaVuSans-Bold.ttf", 30), fill=(160, 30, 30))
    tilted = lbl.rotate(3.5, resample=Image.BICUBIC, expand=True, fillcolor=(178, 139, 92))
    img.paste(tilted, (220, 290))
    for _ in range(2500):
        x, y = rng.randrange(960), rng.randrange(720)
        r, g, b = img.getpixel((x, y))
        delta = rng.randrange(-18, 18)
        img.putpixel((x, y), (max(0, min(255, r + delta)), max(0, min(255, g + delta)), max(0, min(255, b + delta))))
    img = img.filter(ImageFilter.GaussianBlur(0.9))
    img.save(path, format="JPEG", quality=70, optimize=True)


def main() -> None:
    day1, day2, day3 = HERE / "day1", HERE / "day2", HERE / "day3"
    for folder in (day1, day2, day3):
        folder.mkdir(parents=True, exist_ok=True)
    orders_csv(day1 / "orders_2025-11-16.csv")
    write_csv(
        day1 / "refunds_2025-11-16.csv", ["refund_id", "order_id", "amount_eur", "executed_on", "reason"], REFUNDS
    )
    write_csv(
        day2 / "parcelwise_tracking_2025-11-17.csv",
        ["tracking_no", "order_id", "status", "last_event_at", "signed_by"],
        TRACKING,
    )
    parcel_photo(
        day1 / "parcel_LL-48213.jpg",
        5,
        label("LL-48213", "PW-7741-1187-03", "Elif Demir", "Kastanienallee 12", "10435 Berlin", "1/1"),
        "corner",
    )
    parcel_photo(
        day3 / "parcel_LL-48240.jpg",
        9,
        label("LL-48240", "PW-7741-1201-96", "Grace Lin", "Lindenstrasse 3", "04109 Leipzig", "1/1"),
        "split",
    )


if __name__ == "__main__":
    main()
