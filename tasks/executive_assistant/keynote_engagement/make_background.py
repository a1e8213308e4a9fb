"""Regenerate Ayesha's busy inbox and month deterministically (run once; the outputs are committed).

    python tasks/executive_assistant/keynote_engagement/make_background.py

Produces, with a fixed seed:

- seed/background_mail.csv (date, from, to, cc, subject, body): 230 mails in her INBOX from
  15 September to the morning of 13 October 2025: newsletters, system notifications, colleagues'
  threads, the travel agency and other conferences on other matters (look-alikes).
- seed/background_calendar.csv (date, start, end, summary, attendees, location; London time): her
  October, about 70 events: stand-ups, 1:1s, reviews, customer calls, focus blocks.

What the checkers and the solution rely on, kept by construction (asserted below): no background
mail goes to anyone but Ayesha or carries an attachment; none names the summit, its speaker team,
the flights on offer, the deck's codename, or uses a subject the solution looks up; no background
event falls on 22 or 23 October (the trip) or uses a title the checkers look for (rehearsal,
check-in, flight, keynote).
"""

from __future__ import annotations

import csv
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).parent
SEED = 20251013
DOMAIN = "tesserarobotics.example"
USER = f"ayesha.karim@{DOMAIN}"
COLLEAGUES = {
    "tom.verhoeven": "Tom Verhoeven", "daniel.osei": "Daniel Osei", "mei.tanaka": "Mei Tanaka",
    "rafael.costa": "Rafael Costa", "ingrid.holm": "Ingrid Holm", "sunil.mehta": "Sunil Mehta",
    "claire.dubois": "Claire Dubois", "jonas.berg": "Jonas Berg", "amara.nwosu": "Amara Nwosu",
}  # fmt: skip
FORBIDDEN = ("northern automation", "nas 2025", "nas-summit", "kestrel", "ba500", "tp1351", "tp1357", "slides upload",
             "rehearsal", "check-in", "keynote tracker")  # fmt: skip

rng = random.Random(SEED)
MAILS: list[tuple[str, str, str, str, str, str]] = []


def stamp(day: date, hour: int, minute: int) -> str:
    return f"{day.isoformat()}T{hour:02d}:{minute:02d}:00+01:00"


def mail(day: date, hour: int, sender: str, subject: str, body: str, cc: str = "") -> None:
    MAILS.append((stamp(day, hour, rng.randrange(60)), sender, USER, cc, subject, body))


def pick(seq: list[str] | tuple[str, ...]) -> str:
    return seq[rng.randrange(len(seq))]


def person(login: str) -> str:
    return f"{COLLEAGUES[login]} <{login}@{DOMAIN}>"


START, END = date(2025, 9, 15), date(2025, 10, 12)
DAYS = [START + timedelta(days=i) for i in range((END - START).days + 1)]
WORKDAYS = [d for d in DAYS if d.weekday() < 5]

HEADLINES = [
    "Cobot shipments up 14% in Q3", "EU machinery regulation: what changes in 2027", "Vision systems get cheaper",
    "Warehouse automation funding cools", "Gripper start-up raises Series B", "ROS 2 adoption survey results",
    "Edge AI chips: the new contenders", "Labour shortages drive retrofit demand", "Safety standards update ISO 10218",
    "Digital twins move from pilots to production", "Battery plants order 400 robots", "Humanoids: hype check",
]  # fmt: skip
for d in WORKDAYS:
    mail(d, 6, "Robotics Weekly <digest@roboticsweekly.example>", f"Robotics Weekly: {pick(HEADLINES)}",
         f"Top stories: {pick(HEADLINES)}; {pick(HEADLINES)}. Read more on roboticsweekly.example.")  # fmt: skip
    mail(d, 7, "Build Status <ci@" + DOMAIN + ">", f"Nightly build {'passed' if rng.random() < 0.8 else 'failed'}: main #{4100 + DAYS.index(d)}",
         f"Pipeline finished in {30 + rng.randrange(20)} min. {rng.randrange(2, 9)} test suites, {rng.randrange(0, 3)} flaky.")  # fmt: skip
for k, d in enumerate(d for d in DAYS if d.weekday() == 0):
    mail(d, 8, "Expenses <expenses@" + DOMAIN + ">", f"Expense report EXP-{7710 + k} needs your approval",
         f"{pick(list(COLLEAGUES.values()))} submitted an expense report of GBP {rng.randrange(80, 900)}.00 for approval.")  # fmt: skip
    mail(d, 9, "Board Intelligence <news@boardintel.example>", "Governance briefing: this week's reading",
         "Five articles on board effectiveness, risk oversight and AI governance.")  # fmt: skip

THREADS = [
    ("mei.tanaka", "Perception team hiring plan", "Three offers out, one accepted. Can we add a fourth req in Q1?"),
    ("rafael.costa", "Gripper v4 field failures", "Two more failures at the Leeds site; root cause looks like the seal."),
    ("ingrid.holm", "Safety case review - AGV line", "The assessor wants the updated hazard log before sign-off."),
    ("sunil.mehta", "Cloud costs September", "Spend is 12% over forecast, mostly simulation runs."),
    ("claire.dubois", "Customer escalation: Vallin Foods", "They want an on-site engineer for the line restart."),
    ("jonas.berg", "Patent filing: force sensing", "Counsel needs your inventor statement by the end of the month."),
    ("amara.nwosu", "Engineering all-hands agenda", "Draft agenda attached in the wiki; please add your 10 minutes."),
    ("daniel.osei", "Q4 priorities", "Let's agree the three engineering priorities before the board."),
    ("tom.verhoeven", "Press enquiry: safety incident rumour", "A trade reporter asked about a rumoured incident; no comment for now."),
    ("tom.verhoeven", "Blog post review: fleet learning", "Could you look at the draft by Thursday?"),
    ("mei.tanaka", "Offsite venue for the perception team", "Two options in Cambridge; both fine for 20 people."),
    ("rafael.costa", "Supplier change for actuators", "The new supplier's samples passed the endurance test."),
]  # fmt: skip
for login, subject, body in THREADS:
    first = pick(WORKDAYS[:-5])
    mail(
        first, 10 + rng.randrange(6), person(login), subject, f"Hi Ayesha,\n\n{body}\n\n{COLLEAGUES[login].split()[0]}"
    )
    for n in range(rng.randrange(2, 6)):
        d = first + timedelta(days=1 + n + rng.randrange(2))
        if d > END:
            break
        who = pick(list(COLLEAGUES))
        mail(d, 9 + rng.randrange(9), person(who), f"Re: {subject}",
             f"{pick(['Agreed.', 'One more data point:', 'Following up:', 'Update:'])} {pick(['Numbers in the sheet.', 'I will take it to the Friday review.', 'Let us discuss at the 1:1.', 'Done on our side.'])}",
             cc=f"{login}@{DOMAIN}" if who != login else "")  # fmt: skip

LOOKALIKES = [
    ("RoboCon Berlin <speakers@robocon-berlin.example>", "RoboCon Berlin 2026: call for speakers", "Submissions close 30 November. We would love a talk from Tessera."),
    ("AI Hardware Forum <program@aihwforum.example>", "AI Hardware Forum: panel invitation", "Would you join a panel on edge inference in March 2026?"),
    ("Northstar Travel <trips@northstar-travel.example>", "Your e-ticket: London - Munich, 2 October", "Flight LH2473, 2 October 07:10, seat 3A. Have a good trip."),
    ("Northstar Travel <trips@northstar-travel.example>", "Receipt: Munich trip", "Invoice NT-55812 for your Munich trip, GBP 418.00, charged to the company card."),
    ("Women in Robotics UK <hello@wiruk.example>", "Mentoring circle: October session", "Next session on 29 October, online. RSVP on the site."),
    ("University of Leeds <events@leeds-robotics.example>", "Guest lecture: thank you", "Thank you for the guest lecture on 24 September; feedback attached on our portal."),
    ("Automatica Munich <media@automatica.example>", "Automatica 2026: exhibitor briefing", "Exhibitor briefing webinar on 6 November."),
]  # fmt: skip
for sender, subject, body in LOOKALIKES:
    mail(pick(WORKDAYS), 11 + rng.randrange(5), sender, subject, body)

while len(MAILS) < 230:  # fill with notifications
    d = pick(WORKDAYS)
    kind = rng.randrange(3)
    if kind == 0:
        mail(d, 12 + rng.randrange(6), "Jira <jira@" + DOMAIN + ">", f"[ROBO-{3000 + rng.randrange(900)}] assigned to you",
             f"Priority {pick(['Low', 'Medium', 'High'])}. {pick(['Calibration drift', 'Firmware update', 'Docs gap', 'Test flake'])}.")  # fmt: skip
    elif kind == 1:
        mail(d, 13 + rng.randrange(5), "Calendar <calendar@" + DOMAIN + ">", f"Accepted: {pick(['Design review', 'Roadmap sync', 'Hiring loop', 'Vendor call'])}",
             f"{pick(list(COLLEAGUES.values()))} accepted your invitation.")  # fmt: skip
    else:
        mail(d, 14 + rng.randrange(4), "People Team <people@" + DOMAIN + ">", f"Reminder: {pick(['performance reviews', 'training deadline', 'holiday booking', 'benefits window'])}",
             "A quick reminder from the People team.")  # fmt: skip

MAILS.sort(key=lambda m: (m[0], m[4]))
for m in MAILS:
    low = " ".join(m).lower()
    assert not any(f in low for f in FORBIDDEN), m
    assert m[2] == USER

EVENTS: list[tuple[str, str, str, str, str, str]] = []
MONTH = [date(2025, 10, 1) + timedelta(days=i) for i in range(31)]
for d in MONTH:
    if d.weekday() >= 5 or d in (date(2025, 10, 22), date(2025, 10, 23)):
        continue
    EVENTS.append(
        (d.isoformat(), "09:00", "09:15", "Engineering stand-up", f"mei.tanaka@{DOMAIN};rafael.costa@{DOMAIN}", "")
    )
    slots = [("10:00", "11:00"), ("11:30", "12:00"), ("13:00", "14:00"), ("14:30", "15:30"), ("16:00", "17:00")]
    rng.shuffle(slots)
    for start, end in slots[: rng.randrange(1, 4)]:
        who = pick(list(COLLEAGUES))
        title = pick(
            [
                f"1:1 {COLLEAGUES[who].split()[0]}",
                "Design review",
                "Roadmap sync",
                "Customer call",
                "Focus time",
                "Hiring loop",
                "Vendor call",
            ]
        )
        EVENTS.append(
            (
                d.isoformat(),
                start,
                end,
                title,
                f"{who}@{DOMAIN}" if title != "Focus time" else "",
                pick(["", "Room Ada", "Room Turing", "Video call"]),
            )
        )
EVENTS.sort()
for e in EVENTS:
    assert not any(w in e[3].lower() for w in ("rehearsal", "check-in", "flight", "keynote", "summit")), e


def main() -> None:
    with (HERE / "seed/background_mail.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "from", "to", "cc", "subject", "body"])
        w.writerows(MAILS)
    with (HERE / "seed/background_calendar.csv").open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "start", "end", "summary", "attendees", "location"])
        w.writerows(EVENTS)
    print(len(MAILS), "mails,", len(EVENTS), "events")


if __name__ == "__main__":
    main()
