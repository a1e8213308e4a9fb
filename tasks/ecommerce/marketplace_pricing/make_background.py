"""Regenerate Rafael's price book and busy inbox deterministically (run once; the outputs are committed).

    python tasks/ecommerce/marketplace_pricing/make_background.py

Produces, with a fixed seed:

- seed/price_book.csv (SKU, Product, Category, MAP, Our Price, Floor, Unit Cost, Repricer, Status):
  300 products; the task's SKUs (facts.toml [violation_*], [compliant], [repricing]) among them
  with the figures of facts.toml, every other SKU generated. Every row has Our Price >= MAP.
- seed/background_mail.csv (date, from, to, cc, subject, body): ~230 mails in his INBOX from
  12 May to the morning of 9 June — marketplace newsletters, the price monitor's earlier daily
  digests, repricer run reports, colleagues' other threads, reseller order admin.

What the checkers and the solution rely on, kept by construction: no generated SKU equals a task
SKU; no background mail goes to an outside address, carries an attachment, or names a task SKU,
the task resellers' cases, the suspension dates or a subject the solution looks up ("Nimbus",
"competitor price feed", "Repricing approved"); every generated Repricer is "fixed" or "off" except
the task's five "match-lowest" rows, so the day-3 feed alone decides which rows are repriced.
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
SEED = 20250609
DOMAIN = "coldharbour-audio.example"
USER = f"rafael.ortiz@{DOMAIN}"
BST = timezone(timedelta(hours=1))
rng = random.Random(SEED)


def pick(seq: list[str] | tuple[str, ...]) -> str:
    return seq[rng.randrange(len(seq))]


# -- the price book -------------------------------------------------------------------------------
CATEGORIES = {
    "H": ("headphones", ["Wireless Headphones", "Studio Headphones", "On-Ear Headphones", "Kids Headphones"], (39, 349)),
    "E": ("earbuds", ["True Wireless Earbuds", "Sport Earbuds", "Wired Earphones"], (19, 199)),
    "S": ("speakers", ["Bookshelf Speakers (pair)", "Portable Speaker", "Smart Speaker", "Floorstanding Speakers (pair)"], (49, 899)),
    "B": ("soundbars", ["Soundbar", "Soundbar + Subwoofer"], (149, 799)),
    "T": ("turntables", ["Turntable", "Belt-Drive Turntable"], (129, 599)),
    "A": ("accessories", ["Headphone Stand", "Replacement Ear Pads", "Speaker Cable 3 m", "Carry Case", "Wall Bracket"], (9, 59)),
}  # fmt: skip
COLOURS = {"BLK": "Black", "WHT": "White", "BLU": "Blue", "WAL": "Walnut", "OAK": "Oak", "GRY": "Grey", "RED": "Red"}


def task_rows() -> dict[str, dict[str, str]]:
    rows = {}
    for v in (F.violation_a, F.violation_b, F.violation_c):
        rows[v.sku] = {"Product": v.get("product", ""), "MAP": v.map, "Our Price": v.map, "Floor": v.floor, "Unit Cost": v.cost,
                       "Repricer": "off"}  # fmt: skip
    rows[F.violation_c.sku]["Product"] = "T300 Belt-Drive Turntable (Oak)"
    rows[F.compliant.sku] = {"Product": "S210 Bookshelf Speakers (Walnut, pair)", "MAP": F.compliant.map, "Our Price": "159.00",
                             "Floor": "120.00", "Unit Cost": "66.10", "Repricer": "off"}  # fmt: skip
    names = {"B": "Soundbar", "H": "Wireless Headphones", "E": "True Wireless Earbuds", "S": "Portable Speaker",
             "T": "Turntable", "A": "Headphone Stand"}  # fmt: skip
    for sku, ours, mapp, floor, repricer in F.repricing.skus:
        model, colour = sku.split("-")[1], sku.split("-")[2]
        rows[sku] = {"Product": f"{model} {names[model[0]]} ({COLOURS[colour]})", "MAP": mapp, "Our Price": ours, "Floor": floor,
                     "Unit Cost": f"{float(mapp) * 0.45:.2f}", "Repricer": repricer}  # fmt: skip
    return rows


def price_book() -> list[list[str]]:
    fixed = task_rows()
    skus: dict[str, dict[str, str]] = {}
    while len(skus) < 300 - len(fixed):
        letter = pick(list(CATEGORIES))
        cat, kinds, (lo, hi) = CATEGORIES[letter]
        colour = pick(list(COLOURS))
        sku = f"CHA-{letter}{rng.randrange(10, 99)}{rng.choice('05')}-{colour}"
        if sku in fixed or sku in skus:
            continue
        mapp = rng.randrange(lo, hi) + pick([0.0, 0.99, 0.0, 0.49])
        ours = mapp + pick([0, 0, 0, 5, 10, 20])
        skus[sku] = {"Product": f"{sku.split('-')[1]} {pick(kinds)} ({COLOURS[colour]})", "MAP": f"{mapp:.2f}",
                     "Our Price": f"{ours:.2f}", "Floor": f"{mapp * rng.uniform(0.78, 1.04):.2f}",
                     "Unit Cost": f"{mapp * rng.uniform(0.38, 0.52):.2f}", "Repricer": pick(["fixed", "fixed", "off"])}  # fmt: skip
    skus.update(fixed)
    out = []
    for sku in sorted(skus):
        r = skus[sku]
        cat = CATEGORIES[sku[4]][0]
        status = "active" if sku in fixed or rng.random() > 0.08 else "discontinued"
        out.append(
            [sku, r["Product"], cat, r["MAP"], r["Our Price"], r["Floor"], r["Unit Cost"], r["Repricer"], status]
        )
    return out


# -- the inbox ------------------------------------------------------------------------------------
MAILS: list[tuple[str, str, str, str, str, str]] = []
START, END = date(2025, 5, 12), date(2025, 6, 9)
DAYS = [START + timedelta(days=i) for i in range((END - START).days)]
WORKDAYS = [d for d in DAYS if d.weekday() < 5 and d != date(2025, 5, 26)]


def mail(day: date, hour: int, sender: str, subject: str, body: str, cc: str = "") -> None:
    stamp = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=BST).isoformat()
    MAILS.append((stamp, sender, USER, cc, subject, body))


NEWS = ["Marketplace fees rise for electronics sellers", "Buy-box rules changed for refurbished audio",
        "Summer sale dates announced by two marketplaces", "Consumer audio demand flat in Q1", "Price-matching bots under scrutiny",
        "Returns windows extended for headphones", "New EU labelling rules for wireless products", "Vinyl revival lifts turntable sales",
        "Retail media spend overtakes search for electronics", "Marketplace seller fraud warnings issued"]  # fmt: skip
RESELLERS_OK = ["Hifi Barn", "Voltshop", "Listen Up Audio", "Northgate Sound", "Crescent Electrical"]
COLLEAGUES = [("Dev Malik", "dev.malik"), ("Jo Pierce", "jo.pierce"), ("Hannah Cole", "hannah.cole"), ("Lena Fry", "lena.fry"),
              ("Owen Price", "owen.price")]  # fmt: skip
THREADS = [
    ("Dev Malik", "H600 launch pricing", ["H600 launches in September at 249; MAP to be confirmed with Hannah.", "Retail partners want launch MAP by mid-July.", "Draft launch price list is in Drive."]),
    ("Dev Malik", "Q3 MAP review", ["Starting the Q3 MAP review: accessories first.", "No MAP changes planned before July.", "Review notes shared."]),
    ("Jo Pierce", "Storefront checkout error rate", ["Checkout errors up to 1.8% on mobile since the theme update.", "Rolled back the payment widget; back to 0.4%."]),
    ("Jo Pierce", "Product page photography", ["New lifestyle shots for the speaker range are in.", "Uploading them over the weekend."]),
    ("Hannah Cole", "Reseller conference October", ["We are hosting the reseller day on 14 October.", "Venue booked in Bristol; invites go out in July."]),
    ("Lena Fry", "Finance: May margin pack", ["May margin pack is out. Storefront margin 41.2%.", "Marketplace fees were higher than budget."]),
    ("Owen Price", "Warehouse stock cover", ["Stock cover on earbuds is 6 weeks, speakers 11.", "Soundbar inbound container lands 20 June."]),
]  # fmt: skip


def inbox() -> list[tuple[str, str, str, str, str, str]]:
    for d in WORKDAYS:
        mail(d, 6, "Marketplace Pulse <daily@marketplacepulse.example>", f"Marketplace Pulse: {pick(NEWS)}",
             f"Today: {pick(NEWS).lower()}; {pick(NEWS).lower()}. Read on marketplacepulse.example. Unsubscribe any time.")  # fmt: skip
        n = rng.randrange(0, 3)
        mail(d, 6, "PriceWatch <alerts@pricewatch.example>", f"PriceWatch daily digest {d:%d/%m}: {n} listing(s) flagged",
             f"{n} listing(s) flagged overnight; all matched MAP after review by the monitor. No action needed." if n else
             "No listings flagged overnight across 46 monitored sellers.")  # fmt: skip
        mail(d, 7, f"BI Reports <bi-reports@{DOMAIN}>", f"Daily sales dashboard - {d:%a %d %b}",
             f"Storefront revenue GBP {rng.randrange(18000, 42000):,}, marketplace revenue GBP {rng.randrange(30000, 70000):,}. "
             f"Conversion {rng.randrange(18, 34) / 10:.1f}%. Full dashboard in the BI portal.")  # fmt: skip
        mail(d, 7, f"Storefront Repricer <repricer@{DOMAIN}>", f"Repricer run {d:%d %b}: {rng.randrange(0, 4)} change(s) skipped (fixed)",
             "Nightly run completed. Rows on 'fixed' or 'off' are never changed by the repricer.")  # fmt: skip
        if rng.random() < 0.5:
            who = pick(RESELLERS_OK)
            mail(d, rng.randrange(9, 17), f"{who} Orders <orders@{who.lower().replace(' ', '')}.example>",
                 f"Purchase order {who[:2].upper()}-{rng.randrange(10000, 99999)}", "Please find our weekly replenishment order; delivery to our usual address.")  # fmt: skip
        mail(d, rng.randrange(8, 11), "Sellora Seller Hub <no-reply@sellora.example>",
             pick([f"Your Sellora payout of GBP {rng.randrange(4000, 19000)}.{rng.randrange(100):02d} is on its way",
                   f"{rng.randrange(2, 30)} new customer questions on your listings", "Buy-box share report is ready",
                   f"Account health: {pick(['good', 'good', 'at risk: late dispatch rate 4.1%'])}"]),
             "Sign in to Sellora Seller Hub for details. This mailbox is not monitored.")  # fmt: skip
        if rng.random() < 0.6:
            mail(d, rng.randrange(8, 20), "Linkd <notifications@linkd.example>",
                 pick(["Someone viewed your profile", f"You appeared in {rng.randrange(4, 40)} searches this week", "New connection request"]),
                 f"{pick(['A recruiter', 'A pricing manager', 'A former colleague', 'A marketplace consultant'])} interacted with your profile.")  # fmt: skip
        if rng.random() < 0.35:
            mail(d, rng.randrange(9, 18), f"IT Service Desk <servicedesk@{DOMAIN}>", f"INC{rng.randrange(10000, 99999)} resolved",
                 "Your incident was resolved. Reply within 5 days to reopen it.")  # fmt: skip
    for d in DAYS[4::7]:
        mail(d, 9, "Retail Audio Weekly <news@retailaudio.example>", f"Retail Audio Weekly: {pick(NEWS)}",
             "This week: pricing psychology in audio, a buyer interview and the bestseller charts.")  # fmt: skip
        mail(d, 12, f"Internal Comms <internal-comms@{DOMAIN}>", "Coldharbour Weekly: news from the studio and the warehouse",
             "Team news, product milestones and the social calendar for the coming weeks.")  # fmt: skip
    for name, subject, steps in THREADS:
        addr = f"{name} <{dict(COLLEAGUES)[name]}@{DOMAIN}>"
        start = pick(WORKDAYS[:12])
        for k, text in enumerate(steps):
            day = start + timedelta(days=3 * k)
            if day >= END:
                break
            mail(
                day,
                rng.randrange(9, 18),
                addr,
                ("Re: " if k else "") + subject,
                f"Hi Rafael,\n\n{text}\n\n{name.split()[0]}",
            )
    return sorted(MAILS)


def main() -> None:
    with (HERE / "seed/price_book.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["SKU", "Product", "Category", "MAP", "Our Price", "Floor", "Unit Cost", "Repricer", "Status"])
        w.writerows(price_book())
    with (HERE / "seed/background_mail.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "from", "to", "cc", "subject", "body"])
        w.writerows(inbox())


if __name__ == "__main__":
    main()
