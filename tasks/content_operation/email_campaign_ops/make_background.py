"""Regenerate the CRM tables and Elena's busy inbox deterministically (run once; committed).

    python tasks/content_operation/email_campaign_ops/make_background.py

Produces, with a fixed seed, from facts.toml and generated rows:

- seed/segment.csv (Customer ID, Email, First Name, Last Order, Consent): the "Autumn VIP" export,
  60 customers; seed/segment_day2.csv: the two customers Priyanka's refreshed export adds.
- seed/suppression.csv (Email, Reason, Added): every unsubscribe, bounce and complaint up to the
  last sync (facts.toml [sync]); some of them are VIP customers.
- seed/background_mail.csv (date, from, to, cc, subject, body): ~250 mails from 1 September to the
  morning of 6 October — the ESP's campaign reports and the unsubscribe notifications that the
  suppression list already holds, colleagues' threads on other campaigns, newsletters, vendors.

What the checkers and the solution rely on, kept by construction: every "Unsubscribe:" mail of
the background is dated before the last sync and names an address already in seed/suppression.csv;
no background mail names a VIP customer otherwise, the campaign "Autumn VIP Preview", or any
address of facts.toml [unsubscribes] / [erasure]; no background mail goes outside or carries an
attachment.
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
SEED = 20251006
rng = random.Random(SEED)
BST = timezone(timedelta(hours=1))
DOMAIN = F.company
USER = f"elena.sorensen@{DOMAIN}"
DARIUS, PRIYANKA, LEO, GWEN = (f"{n}@{DOMAIN}" for n in ("darius.webb", "priyanka.das", "leo.hartmann", "gwen.tallis"))
ESP = f"Postbird <{F.names.esp}>"

FIRST = ["Amelia", "Noah", "Isla", "Theo", "Freya", "Arlo", "Ivy", "Jude", "Maya", "Felix", "Ruby", "Otis", "Elsie",
         "Hugo", "Nell", "Rafe", "Cleo", "Ezra", "Iris", "Milo", "Greta", "Louis", "Poppy", "Silas", "Wren", "Caleb",
         "Lyra", "Ned", "Hazel", "Abel"]  # fmt: skip
LAST = ["Marsh", "Quill", "Dane", "Fairley", "Hobbs", "Lacey", "Pryce", "Thorne", "Vance", "Wilde", "Yates", "Abbot",
        "Blythe", "Carrow", "Dunmore", "Egan", "Fenwick", "Gale", "Hume", "Irwin"]  # fmt: skip
MAILDOMAINS = ["postbox.example", "fastmail.example", "inbox.example", "mailhub.example"]


def addr(first: str, last: str) -> str:
    return f"{first.lower()}.{last.lower()}@{MAILDOMAINS[rng.randrange(len(MAILDOMAINS))]}"


def main() -> None:
    fixed = {  # the customers facts.toml names, at fixed places of the export
        "C-10012": ("Olivia", F.unsubscribes.day1[0][0], "2025-07-14"),
        "C-10021": ("Bea", "bea.lund@inbox.example", "2025-06-30"),
        "C-10029": ("Sam", F.unsubscribes.day1[1][0], "2025-08-02"),
        "C-10037": (F.erasure.name.split()[0], F.erasure.email, "2025-05-19"),
        "C-10044": ("Rowan", F.unsubscribes.day4[0][0], "2025-08-21"),
    }
    reserved = {e for _, e, _ in fixed.values()} | {F.unsubscribes.day1[2][0]}
    used = set(reserved)
    segment: list[list[str]] = []
    for n in range(1, 63):
        cid = f"C-{10000 + n}"
        if cid in fixed:
            first, email, last_order = fixed[cid]
            consent = "opted-in"
        else:
            while True:
                first, last = FIRST[rng.randrange(len(FIRST))], LAST[rng.randrange(len(LAST))]
                email = addr(first, last)
                if email not in used:
                    break
            recent = rng.random() < 0.15  # ordered in the last fortnight (on or after 25 Sep)
            start, span = (date(2025, 9, 25), 9) if recent else (date(2025, 3, 1), 200)
            last_order = (start + timedelta(days=rng.randrange(span))).isoformat()
            consent = "opted-out" if rng.random() < 0.12 else "opted-in"
        used.add(email)
        segment.append([cid, email, first, last_order, consent])
    day2, segment = segment[-2:], segment[:-2]  # the refreshed export adds the last two
    for row in day2:
        row[3] = "2025-09-12"
        row[4] = "opted-in"
    suppression: list[list[str]] = []
    vip_suppressed = [r for r in segment if r[0] not in fixed and r[4] == "opted-in"][:7:]
    others = []
    while len(others) < 34:
        e = addr(FIRST[rng.randrange(len(FIRST))], LAST[rng.randrange(len(LAST))])
        if e not in used:
            used.add(e)
            others.append(e)
    reasons = ["unsubscribe"] * 5 + ["bounce", "complaint"]
    for email in [r[1] for r in vip_suppressed[::2]] + others:
        added = datetime(2025, 8, 1, 9, tzinfo=BST) + timedelta(
            minutes=rng.randrange(0, 63 * 24 * 60)
        )  # to 3 Oct 09:00
        suppression.append([email, reasons[rng.randrange(len(reasons))], added.strftime("%Y-%m-%d %H:%M")])
    suppression.sort(key=lambda r: r[2])
    write("seed/segment.csv", ["Customer ID", "Email", "First Name", "Last Order", "Consent"], segment)
    write("seed/segment_day2.csv", ["Customer ID", "Email", "First Name", "Last Order", "Consent"], day2)
    write("seed/suppression.csv", ["Email", "Reason", "Added"], suppression)
    write("seed/background_mail.csv", ["date", "from", "to", "cc", "subject", "body"], mails(suppression))


def mails(suppression: list[list[str]]) -> list[list[str]]:
    out: list[list[str]] = []

    def mail(when: datetime, sender: str, subject: str, body: str, cc: str = "") -> None:
        out.append([when.isoformat(), sender, USER, cc, subject, body])

    sync = datetime.fromisoformat(f"{F.sync.last.replace(' ', 'T')}:00{F.timezone}")
    for email, reason, added in suppression:  # the notifications the list already holds
        when = datetime.fromisoformat(f"{added.replace(' ', 'T')}:00{F.timezone}")
        if reason == "unsubscribe" and datetime(2025, 9, 1, tzinfo=BST) <= when < sync:
            mail(when, ESP, f"Unsubscribe: {email}",
                 f"{email} unsubscribed from all marketing email (list: Juniper & Ash customers) on {when:%d %b %Y %H:%M}.")  # fmt: skip
    days = [date(2025, 9, 1) + timedelta(days=i) for i in range(35)]  # to Sunday 5 October
    work = [d for d in days if d.weekday() < 5]
    campaigns = ["Back to school bundles", "September new in", "Candle week", "Linen sale last call", "Care guide: wool",
                 "Loyalty points reminder", "Autumn lookbook", "Weekend flash sale"]  # fmt: skip
    for d in work:
        name = campaigns[rng.randrange(len(campaigns))]
        mail(datetime(d.year, d.month, d.day, 18, rng.randrange(60), tzinfo=BST), ESP, f"Campaign report: {name}",
             f"{name} was delivered to {rng.randrange(4000, 19000):,} recipients. Opens {rng.uniform(28, 46):.1f}%, "
             f"clicks {rng.uniform(1.5, 6):.1f}%, unsubscribes {rng.uniform(0.05, 0.4):.2f}%.")  # fmt: skip
        mail(datetime(d.year, d.month, d.day, 7, rng.randrange(60), tzinfo=BST), "Shop alerts <alerts@junipash.example>",
             f"Daily trading: {d:%a %d %b}", f"Orders {rng.randrange(180, 420)}, AOV GBP {rng.uniform(38, 61):.2f}, returns {rng.randrange(3, 19)}.")  # fmt: skip
    topics = [
        (DARIUS, "Q4 CRM plan - comments", "I've left comments on the Q4 plan: more on win-back, less on flash sales."),
        (DARIUS, "Black Friday hold-out group", "Let's keep a 10% hold-out again this year so we can measure lift."),
        (
            PRIYANKA,
            "Lapsed-customer model refresh",
            "The lapsed model is retrained; new scores land in the CRM Monday.",
        ),
        (PRIYANKA, "Segment definitions doc", "Updated the segment definitions page - VIP threshold unchanged."),
        (LEO, "Candle week copy v3", "v3 of the candle week copy is in the drive, subject line options at the top."),
        (LEO, "New footer component", "Design system now has the new footer component - will roll into templates."),
        (
            GWEN,
            "Cookie banner audit",
            "The cookie banner audit is done; two findings for the web team, none for email.",
        ),
        (
            GWEN,
            "Retention schedule reminder",
            "Reminder: campaign exports older than 90 days must be deleted from shared drives.",
        ),
    ]
    for i in range(150):
        sender, subject, body = topics[rng.randrange(len(topics))]
        d = work[rng.randrange(len(work))]
        mail(datetime(d.year, d.month, d.day, rng.randrange(9, 18), rng.randrange(60), tzinfo=BST),
             sender, subject if i < len(topics) else f"Re: {subject}", body)  # fmt: skip
    letters = [("Email Geeks Weekly <digest@emailgeeks.example>", "Email Geeks Weekly"),
               ("Retail Brew <hello@retailbrew.example>", "Retail Brew"),
               ("Postbird Product News <product@postbird.example>", "What's new in Postbird")]  # fmt: skip
    for d in days:
        if d.weekday() < 5:
            sender, name = letters[rng.randrange(len(letters))]
            mail(datetime(d.year, d.month, d.day, 6, rng.randrange(60), tzinfo=BST), sender, f"{name}: {d:%d %B}",
                 "This week: deliverability after the inbox changes, subject line tests, and a teardown of a great win-back flow.")  # fmt: skip
    out.sort(key=lambda r: r[0])
    return out


def write(rel: str, header: list[str], rows: list[list[str]]) -> None:
    with (HERE / rel).open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


if __name__ == "__main__":
    main()
