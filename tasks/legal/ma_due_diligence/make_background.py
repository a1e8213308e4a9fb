"""Regenerate Imani's busy inbox deterministically (run once; the output is committed).

    python tasks/legal/ma_due_diligence/make_background.py

Produces seed/background_mail.csv (date, from, to, subject, body): 227 mails in her INBOX from 4 May
to the morning of 8 June 2026, with a fixed seed - deal newsletters, court notifications, other
matters' threads (Project Falcon, Project Birch, the Granite lease, Tidewater Marine - a look-alike
name), another deal's data-room notifications, billing and firm notices, and Project Heron's own
earlier threads (access, NDA, kick-off: nothing about change of control).

What the checkers and the solution rely on, kept by construction (and asserted below): every
background mail is addressed to Imani alone and has no attachment; none comes from the seller's
counsel's, the client's or a counterparty's domain; no subject contains the subjects the turns
deliver or the solution looks up ("material contracts review", "Amendment No. 2", "consent
strategy", "disclosure schedule comments", "rumours"); no body names a data-room document ID,
the bid or the walk-away price.
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).parent
SEED = 20260608
FIRM = "ashbyrourke.example"
USER = f"imani.carter@{FIRM}"
TZ = timezone(timedelta(hours=-4))
COLLEAGUES = [
    ("Oliver Grant", "oliver.grant"), ("Ben Kowalczyk", "ben.kowalczyk"), ("Hannah Lowe", "hannah.lowe"),
    ("Samir Haddad", "samir.haddad"), ("Grace Tan", "grace.tan"), ("Miguel Duarte", "miguel.duarte"),
    ("Priscilla Obi", "priscilla.obi"), ("Tom Reilly", "tom.reilly"),
]  # fmt: skip
FORBIDDEN = ("material contracts review", "amendment no. 2", "consent strategy", "disclosure schedule comments",
             "rumour", "VDR-", "148,500,000", "162,000,000", "148.5", "162m")  # fmt: skip

rng = random.Random(SEED)
MAILS: list[dict[str, str]] = []


def mail(day: date, sender: str, subject: str, body: str, hour: int | None = None) -> None:
    hour = rng.randrange(7, 19) if hour is None else hour
    when = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=TZ)
    MAILS.append({"date": when.isoformat(), "from": sender, "to": USER, "subject": subject, "body": body})


def colleague() -> str:
    name, local = rng.choice(COLLEAGUES)
    return f"{name} <{local}@{FIRM}>"


START, END = date(2026, 5, 4), date(2026, 6, 5)
WORKDAYS = [
    START + timedelta(days=i) for i in range((END - START).days + 1) if (START + timedelta(days=i)).weekday() < 5
]

HEADLINES = ["Medtech roll-ups accelerate", "Private credit eyes industrials", "HSR filings up 12% year on year",
             "Sensor makers draw strategic bids", "Earn-outs back in fashion", "Delaware court on MAC clauses",
             "Carve-outs lead Q2 pipeline", "R&W insurance pricing softens", "Cross-border deals face CFIUS delays"]  # fmt: skip
MATTERS = {
    "Project Falcon": ["closing checklist v{n}", "escrow agent KYC", "signature pages", "funds flow memo draft {n}",
                       "bring-down certificate", "officer's certificate comments"],
    "Project Birch": ["NDA mark-up", "management presentation logistics", "LOI comments round {n}", "exclusivity extension"],
    "Granite lease": ["SNDA comments", "estoppel certificate", "landlord consent timing", "rent commencement memo"],
    "Tidewater Marine": ["lease extension", "vessel charter renewal", "insurance certificate request"],
}  # fmt: skip
FIRM_NOTICES = [("IT Service Desk <it@ashbyrourke.example>", "Scheduled maintenance this weekend", "Document management will be unavailable Saturday 02:00-06:00."),
                ("Knowledge Management <km@ashbyrourke.example>", "New precedent: asset purchase agreement (seller-friendly)", "A new APA precedent is in the KM library."),
                ("Learning & Development <cle@ashbyrourke.example>", "CLE reminder: ethics credit due", "Two ethics credits are due before 30 June."),
                ("HR <hr@ashbyrourke.example>", "Summer associates start 15 June", "Please welcome the summer class; buddy assignments attached to the intranet page.")]  # fmt: skip


def main() -> None:
    for day in WORKDAYS:
        mail(day, "DealWire Daily <news@dealwire.example>", f"DealWire Daily - {day:%d %b}: {rng.choice(HEADLINES)}",
             "Today's top deals, league tables and regulatory news. Read online for the full edition.", hour=6)  # fmt: skip
    for _ in range(16):
        day = rng.choice(WORKDAYS)
        mail(day, "ECF Notifications <ecf@nysd-courts.example>", f"Activity in case 1:25-cv-0{rng.randrange(1000, 9999)} Corvex v. Halden",
             "A filing has been entered on the docket. This is an automatically generated notice.")  # fmt: skip
    for _ in range(135):
        day = rng.choice(WORKDAYS)
        matter = rng.choice(sorted(MATTERS))
        topic = rng.choice(MATTERS[matter]).format(n=rng.randrange(2, 6))
        body = rng.choice([
            f"Imani, could you pull the latest {topic} from the DMS and save it to the {matter} folder?",
            f"Quick one on {matter}: please update the tracker for the {topic} and let me know when done.",
            f"FYI - {topic} for {matter} is with the other side; no action for now.",
            f"Can you diarise a follow-up on the {topic} ({matter}) for next week?",
        ])  # fmt: skip
        mail(day, colleague(), f"{matter} - {topic}", body)
    for _ in range(24):
        day = rng.choice(WORKDAYS)
        mail(day, "Falcon Data Room <noreply@vdr-falcon.example>", f"Project Falcon data room: {rng.randrange(2, 9)} new documents",
             "New documents were uploaded to folders you follow. Log in to the Falcon data room to view them.")  # fmt: skip
    for _ in range(18):
        day = rng.choice(WORKDAYS)
        mail(day, "Billing <billing@ashbyrourke.example>", f"Time entry reminder - week of {day - timedelta(days=day.weekday()):%d %b}",
             "Please submit your time entries for last week by Tuesday noon.")  # fmt: skip
    for sender, subject, body in FIRM_NOTICES:
        mail(rng.choice(WORKDAYS), sender, subject, body)
    heron = [
        (date(2026, 5, 11), "Oliver Grant <oliver.grant@ashbyrourke.example>", "Project Heron - engagement and conflicts cleared",
         "We are instructed by Norvale on Project Heron (the acquisition of Tidewater Sensors). Conflicts are cleared; please open the matter."),
        (date(2026, 5, 13), "Ben Kowalczyk <ben.kowalczyk@ashbyrourke.example>", "Project Heron - NDA countersigned",
         "The NDA with the seller is countersigned and saved to the matter folder."),
        (date(2026, 5, 20), "Ben Kowalczyk <ben.kowalczyk@ashbyrourke.example>",
         "Project Heron - data room access", "Data room access is set up for you, Oliver and me. Index is in the KB."),
        (date(2026, 5, 27), "Oliver Grant <oliver.grant@ashbyrourke.example>", "Project Heron - kick-off notes",
         "Notes from the kick-off: signing targeted for early July; our review starts once the seller completes the upload."),
        (date(2026, 6, 3), "Ben Kowalczyk <ben.kowalczyk@ashbyrourke.example>", "Project Heron - SPA first draft circulated",
         "The seller's first SPA draft is in the folder; the disclosure schedules will follow the review."),
    ]  # fmt: skip
    for day, sender, subject, body in heron:
        mail(day, sender, subject, body, hour=11)
    MAILS.sort(key=lambda m: m["date"])
    assert 200 <= len(MAILS) <= 300, len(MAILS)
    for m in MAILS:
        text = (m["subject"] + " " + m["body"]).lower()
        assert not any(f.lower() in text for f in FORBIDDEN), m
        assert m["from"].split("@")[1].rstrip(">") not in (
            "pryorlindell.example",
            "norvale.example",
            "harbormed.example",
        )
    with (HERE / "seed/background_mail.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["date", "from", "to", "subject", "body"], lineterminator="\n")
        w.writeheader()
        w.writerows(MAILS)


if __name__ == "__main__":
    main()
