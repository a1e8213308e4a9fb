"""Regenerate Helena's busy inbox and month deterministically (run once; the outputs are committed).

    python tasks/executive_assistant/board_week/make_background.py

Produces, with a fixed seed:

- seed/background_mail.csv (date, from, to, cc, subject, body): ~400 mails in her INBOX from
  13 October to the morning of 17 November — newsletters, system notifications, colleagues'
  threads, vendors, the consultant and the travel agency on other matters, Leo's earlier
  board-pack mails (v1 structure, timeline, minutes: no attachment, no deck v2/v3 subject).
- seed/background_calendar.csv (date, start, end, summary, attendees, location; London time): her
  month, 3-28 November — stand-ups, 1:1s (never "Helena / Sam 1:1"), reviews, travel, focus blocks.

What the checkers rely on, kept by construction: no background mail goes to an outside address
(only Helena, sometimes a section owner in Cc), none carries an attachment, the deck's marker, the
passport number or the birth date; no background event uses a name the turns or the checkers look
up, and the task week leaves the slots the task needs free (Wed 19, Thu 14:00-14:45, Thu 16-17 and
the evening, Fri 09:00-14:00).
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).parent
SEED = 20251117
DOMAIN = "brightwater.example"
USER = f"helena.marsh@{DOMAIN}"
SAM, RITA, NADIA, OMAR, LEO = (
    f"{n}@{DOMAIN}" for n in ("sam.okoye", "rita.vance", "nadia.quin", "omar.haddad", "leo.park")
)
OWNERS = {SAM: "Sam", RITA: "Rita", NADIA: "Nadia", OMAR: "Omar", LEO: "Leo"}
FORBIDDEN = ("Kestrel", "533918274", "1978-04-12", "Calloway", "Board pack v2", "Board pack v3", "Board deck v3")

rng = random.Random(SEED)


def tz(day: date) -> timezone:
    """London: BST until 26 October 2025, GMT after."""
    return timezone(timedelta(hours=1 if day < date(2025, 10, 26) else 0))


def stamp(day: date, hour: int, minute: int) -> str:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=tz(day)).isoformat()


MAILS: list[tuple[str, str, str, str, str, str]] = []


def mail(day: date, hour: int, sender: str, subject: str, body: str, cc: str = "", minute: int | None = None) -> None:
    minute = rng.randrange(60) if minute is None else minute
    MAILS.append((stamp(day, hour, minute), sender, USER, cc, subject, body))


START, END = date(2025, 10, 13), date(2025, 11, 17)  # END: only early morning mails
DAYS = [START + timedelta(days=i) for i in range((END - START).days + 1)]
WORKDAYS = [d for d in DAYS if d.weekday() < 5 and d != END]


def pick(seq: list[str] | tuple[str, ...]) -> str:
    return seq[rng.randrange(len(seq))]


# -- newsletters and notices from outside ---------------------------------------------------------
HEADLINES = [
    "Spot rates Asia-North Europe ease for a fourth week", "Felixstowe dwell times back under five days",
    "Rail freight operators warn on winter track works", "Diesel prices edge up ahead of peak", "UK warehouse vacancy hits 5.1%",
    "Rotterdam terminal strike talks resume", "Carriers blank more sailings for December", "Driver shortage eases in the Midlands",
    "E-commerce returns volumes up 9% year on year", "New customs platform delayed to spring", "Electric HGV trial extended",
    "Short-sea capacity tightens on Channel routes", "Pallet network volumes flat in October", "Peak surcharges announced by parcel carriers",
]  # fmt: skip
for d in WORKDAYS:
    mail(d, 6, "Freight Pulse <daily@freightpulse.example>", f"Freight Pulse: {pick(HEADLINES)}",
         f"Today: {pick(HEADLINES).lower()}; {pick(HEADLINES).lower()}. Read more on freightpulse.example. Unsubscribe any time.")  # fmt: skip
    mail(d, 7, "City Morning Briefing <briefing@citymorning.example>", f"Morning Briefing {d.day} {d:%b}: markets, rates, logistics",
         f"FTSE 100 {7800 + rng.randrange(400)}, GBP/EUR {1.13 + rng.randrange(40) / 1000:.3f}. {pick(HEADLINES)}.")  # fmt: skip
for k, d in enumerate(d for d in DAYS if d.weekday() == 4):
    mail(d, 9, "The Supply Chain Brief <news@scbrief.example>", f"The Supply Chain Brief #{212 + k}: {pick(HEADLINES)}",
         "This week: nearshoring in practice, a CFO on inventory buffers, and five charts on port congestion.")  # fmt: skip
    mail(d, 14, "Multimodal Expo <events@multimodal-expo.example>", "Multimodal 2026: early-bird passes end soon",
         f"Join 11,000 logistics leaders at the NEC. Early-bird rate ends in {rng.randrange(5, 20)} days.")  # fmt: skip
for d in DAYS:
    if rng.random() < 0.45:
        who = pick(
            ["a recruiter", "a VP Supply Chain", "a port authority director", "a former colleague", "an investor"]
        )
        mail(d, rng.randrange(8, 21), "Linkd <notifications@linkd.example>", pick(["Someone viewed your profile", f"You appeared in {rng.randrange(4, 40)} searches this week", "New connection request"]),
             f"{who.capitalize()} interacted with your profile. See who on Linkd.")  # fmt: skip
for d in DAYS[::7]:
    mail(d + timedelta(days=1), 10, "Port Community Update <updates@portcommunity-news.example>", "Port Community Update: berth windows and notices",
         f"Berth window changes for week {d.isocalendar()[1] + 1}, new gate appointment rules, and a reminder about the VGM deadline.")  # fmt: skip

# -- system notifications from inside --------------------------------------------------------------
PORTS = ["Felixstowe", "Southampton", "Immingham", "Tilbury", "Rotterdam", "Antwerp", "Zeebrugge", "Liverpool"]
CUSTOMERS = ["Alder Retail", "Halden Foods", "Norrow Home", "Pikestaff Pharma", "Greyline Apparel", "Nordhavn Shipping"]
for d in WORKDAYS:
    mail(d, 7, f"Ops Reports <ops-reports@{DOMAIN}>", f"Daily ops dashboard - {d:%a %d %b}",
         f"On-time delivery {93 + rng.randrange(45) / 10:.1f}% (target 95%). Depots reporting: 14/14. Exceptions: {rng.randrange(2, 19)}. Full dashboard in the BI portal.")  # fmt: skip
    for _ in range(rng.randrange(1, 4)):
        ship, port = f"BW-{rng.randrange(400000, 499999)}", pick(PORTS)
        mail(d, rng.randrange(8, 19), f"TMS Alerts <tms-alerts@{DOMAIN}>", f"Delay alert: shipment {ship} ({port})",
             f"ETA of {ship} for {pick(CUSTOMERS)} slipped by {rng.randrange(3, 30)} h at {port}. No action unless over 24 h.")  # fmt: skip
    r = rng.random()
    if r < 0.35:
        n = rng.randrange(40000, 49999)
        mail(d, rng.randrange(9, 18), f"IT Service Desk <servicedesk@{DOMAIN}>", f"INC0{n} resolved: {pick(['VPN drops on hotel wifi', 'Teams audio on laptop', 'shared drive access', 'printer on 5th floor', 'Outlook search index'])}",
             f"Your incident INC0{n} was resolved. Reply within 5 days to reopen it.")  # fmt: skip
    elif r < 0.55:
        n = rng.randrange(7000, 7999)
        mail(d, rng.randrange(9, 18), "Expensa <noreply@expensa.example>", pick([f"Expense claim EXP-{n} approved", f"Receipt missing: EXP-{n}", f"Card statement ready: {d:%B}"]),
             f"Claim EXP-{n}: GBP {rng.randrange(20, 900)}.{rng.randrange(100):02d}. Log in to Expensa for details.")  # fmt: skip
    elif r < 0.75:
        who = pick(["Ava Linton", "Marcus Obi", "Jade Ferris", "Tom Whitcombe", "Priya Das"])
        mail(d, rng.randrange(9, 18), f"People System <people-system@{DOMAIN}>", f"Leave request from {who} awaiting your approval",
             f"{who} requests {rng.randrange(1, 6)} day(s) of annual leave in {pick(['December', 'January'])}. Approve or decline in People System.")  # fmt: skip
    for _ in range(rng.randrange(0, 2)):
        owner, sheet = pick(
            [
                ("Rita Vance", "FY26 budget"),
                ("Sam Okoye", "Depot KPIs"),
                ("Nadia Quin", "Pipeline Q4"),
                ("Omar Haddad", "Peak staffing plan"),
            ]
        )
        mail(d, rng.randrange(9, 18), f"Drive <drive-noreply@{DOMAIN}>", f"{owner} shared \"{sheet} v{rng.randrange(2, 9)}\" with you",
             f"{owner} gave you edit access. Open it in Drive.")  # fmt: skip
for d in DAYS[2::7]:
    mail(d, 16, f"Facilities <facilities@{DOMAIN}>", pick(["Fire alarm test Thursday 10:00", "Lift maintenance this weekend", "Car park resurfacing", "Kitchen deep clean Friday"]),
         "Please plan around it. Thank you for your patience. Facilities team")  # fmt: skip
    mail(d + timedelta(days=2), 12, f"Internal Comms <internal-comms@{DOMAIN}>", f"Brightwater Weekly: {pick(['Daventry DC turns five', 'peak season kick-off', 'charity bake-off results', 'new Leeds cross-dock opens', 'safety week winners'])}",
         "News from around the network, people moves and the events calendar for the coming weeks.")  # fmt: skip

# -- colleagues' threads ------------------------------------------------------------------------------
THREADS = [
    (SAM, "Felixstowe night shift cover", ["Two team leads are off sick; I'm moving a lead from Tilbury for two weeks.", "Agreed with the site GM, cost is inside budget.", "Cover is in place from Monday."]),
    (SAM, "Fleet telematics rollout", ["Phase 2 (120 trucks) starts at Daventry on the 3rd.", "Installer slipped a week; no impact on peak.", "82 of 120 fitted, on track."]),
    (SAM, "H&S incident HS-2291 (Leeds)", ["Minor forklift contact at Leeds, no injury. Investigation under way.", "Root cause: blind corner; mirrors ordered."]),
    (SAM, "Depot KPIs - October close", ["October OTD 95.4%, cost per parcel down 3%.", "Southampton is the outlier; plan attached in the deck next week."]),
    (RITA, "FY26 budget - first pass", ["First pass is in Drive. Opex up 4.2% before savings.", "Can we take 30 minutes on the capex envelope?", "Updated after your comments."]),
    (RITA, "Daventry lease renewal", ["Landlord offers 10 years with a break at 5, rent +6%.", "Our counter: +3.5% and a rent-free quarter.", "They came back at +4.5%; I'd take it."]),
    (RITA, "Credit note for Alder Retail", ["Alder disputes GBP 18,400 of October surcharges. I propose a GBP 9,000 credit.", "Nadia agrees. OK to issue?"]),
    (RITA, "Month-end close timetable", ["Close day 5 for October; flash P&L on the 7th.", "Flash is out: EBITDA slightly ahead of forecast."]),
    (NADIA, "Halden Foods tender", ["Halden's tender for chilled distribution is out, 3-year term.", "Bid team set up; pricing review next Tuesday.", "Submitted on time."]),
    (NADIA, "Q4 fuel surcharge", ["Proposal: index-linked surcharge from 1 December.", "Top-10 customers briefed; no pushback so far."]),
    (NADIA, "Customer churn review - Q3", ["Two mid-size accounts lost on price, one on service.", "Win-back plan for Greyline in progress."]),
    (OMAR, "Peak season staffing plan", ["We need 340 temps across 9 sites from mid-November.", "Agency contracts signed for 310; still short at Leeds.", "Leeds gap closed."]),
    (OMAR, "Engagement survey results", ["Response rate 78%, engagement 71 (+3).", "Lowest scores on career paths; proposals at exec weekly."]),
    (OMAR, "Graduate scheme intake 2026", ["12 places, 640 applications so far.", "Assessment centre dates: 14-15 January."]),
    (LEO, "Cyber insurance renewal", ["Broker quotes a 12% premium increase; cover unchanged.", "Board risk committee to note it in Q4."]),
    (LEO, "Audit committee dates 2026", ["Proposed dates: 12 Feb, 14 May, 10 Sep, 19 Nov.", "Chair agreed; invites to follow."]),
    (LEO, "Board pack timeline", ["Q4 board is Friday 21 November, 09:00, Boardroom. Section drafts due Thursday 20 November 17:00 in the tracker.", "Reminder: same timeline as agreed."]),
    (LEO, "Q3 board minutes - final for signature", ["The Q3 minutes are final after the chair's comments. Please review before signature."]),
    (LEO, "Board pack v1 - structure for comment", ["Proposed structure: ops KPIs, financials, commercial pipeline, people & culture, risk register. Comments by Friday please.", "Thanks all, structure agreed. Drafts go in the tracker."]),
]  # fmt: skip
EXTRA_INTERNAL = [
    ("Martin Crane <martin.crane@brightwater.example>", ["Investor day save the date", "Thoughts on the 2026 plan", "Thank you for peak prep", "Customer dinner in Manchester"]),
    ("Priya Das <priya.das@brightwater.example>", ["Your 2026 objectives draft", "Exec offsite venue options", "Mentoring programme"]),
    ("Tom Whitcombe <tom.whitcombe@brightwater.example>", ["Southampton recovery plan", "Yard management pilot", "Night trunking changes"]),
    ("Ava Linton <ava.linton@brightwater.example>", ["Warehouse safety walk dates", "Site visit request: Immingham", "Forklift fleet lease"]),
]  # fmt: skip
for sender, subject, steps in THREADS:
    d = WORKDAYS[rng.randrange(len(WORKDAYS) - 3 * len(steps))]
    others = [o for o in OWNERS if o != sender]
    for k, text in enumerate(steps):
        who = sender if k % 2 == 0 else pick(others)
        name = OWNERS[who]
        cc = pick(others) if rng.random() < 0.3 else ""
        mail(d, rng.randrange(8, 19), who, subject if k == 0 else f"Re: {subject}", f"Helena,\n{text}\n{name}", cc=cc)
        d = WORKDAYS[min(WORKDAYS.index(d) + rng.randrange(1, 4), len(WORKDAYS) - 1)]
for sender, subjects in EXTRA_INTERNAL:
    for subject in subjects:
        d = pick(WORKDAYS)
        first = sender.split()[0]
        mail(
            d,
            rng.randrange(8, 19),
            sender,
            subject,
            f"Hi Helena,\nquick one on {subject.lower()}: can we find 15 minutes this week or next?\n{first}",
        )
        if rng.random() < 0.5:
            mail(WORKDAYS[min(WORKDAYS.index(d) + 2, len(WORKDAYS) - 1)], rng.randrange(8, 19), sender, f"Re: {subject}",
                 f"Following up on {subject.lower()} - no rush, whenever suits.\n{first}")  # fmt: skip
FYI = ["weekly depot scorecard", "customer NPS verbatims", "peak readiness checklist", "carrier performance league table", "pricing committee notes", "fleet utilisation report"]  # fmt: skip
for d in WORKDAYS:
    for _ in range(rng.randrange(2, 5)):
        who = pick(list(OWNERS))
        topic = pick(FYI)
        mail(d, rng.randrange(8, 19), who, pick([f"FYI: {topic}", f"{topic.capitalize()} - week {d.isocalendar()[1]}", f"Quick question on the {topic}"]),
             f"Helena,\n{pick(['sharing the', 'here is the', 'for info, the'])} {topic} for week {d.isocalendar()[1]}; {pick(['nothing alarming', 'two items to watch', 'one red flag at Southampton', 'all green'])}.\n{OWNERS[who]}")  # fmt: skip

# -- outside business ---------------------------------------------------------------------------------
TRIPWELL = "Tripwell <bookings@tripwell.example>"
for when, trip in ((date(2025, 10, 14), "London City - Edinburgh, 28 Oct"), (date(2025, 10, 27), "London City - Hamburg, 4 Nov"), (date(2025, 11, 6), "London Heathrow - Dublin, 12 Nov")):  # fmt: skip
    ref = f"TWB-{rng.randrange(10000, 99999)}"
    mail(
        when,
        11,
        TRIPWELL,
        f"Booking confirmed {ref}: {trip}",
        f"Dear Ms Marsh, your booking {ref} ({trip}) is confirmed. Traveller ref TW-4471. E-tickets follow.",
    )
    mail(
        when + timedelta(days=1),
        9,
        TRIPWELL,
        f"E-ticket {ref}",
        f"Your e-ticket for {trip} is available in the Tripwell app.",
    )
mail(
    date(2025, 11, 3),
    15,
    TRIPWELL,
    "Tripwell: winter timetable changes",
    "Some early departures from London City move by 10-20 minutes from 9 November.",
)
JORDAN = "Jordan Ames <jordan@ames-advisory.example>"
mail(
    date(2025, 10, 16),
    10,
    JORDAN,
    "Investor narrative workshop - 6 Nov",
    "Helena, proposing a half-day workshop on 6 November to sharpen the equity story. Agenda to follow. Jordan",
)
mail(
    date(2025, 10, 30),
    17,
    JORDAN,
    "Workshop agenda - 6 Nov",
    "Agenda: market context, our proof points, the three messages, Q&A rehearsal. Jordan (Ames Advisory)",
)
mail(
    date(2025, 11, 10),
    9,
    JORDAN,
    "Ames Advisory invoice AA-2025-0311",
    "Invoice AA-2025-0311 for the 6 November workshop, GBP 6,500 plus VAT, 30 days. Jordan",
)
LARS = "Lars Eriksen <lars.eriksen@nordhavn-shipping.example>"
mail(
    date(2025, 10, 21),
    13,
    LARS,
    "Nordhavn volumes - Q1 outlook",
    "Helena, we expect UK volumes +8% in Q1, mostly via Immingham. Let's discuss on our next call. Lars",
)
mail(
    date(2025, 11, 14),
    16,
    LARS,
    "Agenda for our call on Thursday",
    "Looking forward to Thursday at 15:00. Agenda: Q1 volumes, Immingham slots, the 2026 rate card. Lars",
)
VENDORS = [
    ("Harbour Cranes Ltd <accounts@harbourcranes.example>", "Invoice HC-{n} - crane service, Tilbury", "Invoice HC-{n} is due in 30 days. Remittance to the usual account."),
    ("Sophie Hart <sophie@hartsearch.example>", "Interim Head of Network Planning - shortlist", "Three candidates available from January; CVs on request. Sophie"),
    ("Northbridge Bank <rm.team@northbridge-bank.example>", "Revolving facility - renewal timetable", "Your relationship team proposes to start the renewal in January. Call slots next week?"),
    ("Carrow & Pike LLP <audit@carrowpike.example>", "Interim audit planning FY25", "Fieldwork weeks of 1 and 8 December. We will send the PBC list shortly."),
    ("Loadstar Software <success@loadstar.example>", "Your quarterly business review", "Usage up 14% this quarter. Book your QBR with your customer success manager."),
    ("Greenmile Fuels <sales@greenmile.example>", "HVO supply offer for 2026", "Fixed-price HVO for 2026, delivered to 6 depots. Offer valid until 30 November."),
]  # fmt: skip
for sender, subject, body in VENDORS:
    for _ in range(rng.randrange(2, 4)):
        n = rng.randrange(1000, 9999)
        mail(pick(WORKDAYS), rng.randrange(8, 18), sender, subject.format(n=n), body.format(n=n))

# -- her month ----------------------------------------------------------------------------------------
EVENTS: list[tuple[str, str, str, str, str, str]] = []


def event(day: date, start: str, end: str, summary: str, attendees: tuple[str, ...] = (), location: str = "") -> None:
    EVENTS.append((day.isoformat(), start, end, summary, ";".join(attendees), location))


MONTH = [date(2025, 11, 3) + timedelta(days=i) for i in range(26)]
TASK_WEEK = [date(2025, 11, 17) + timedelta(days=i) for i in range(5)]
for d in (d for d in MONTH if d.weekday() < 5):
    if d != date(2025, 11, 19):  # the Rotterdam day
        event(d, "08:30", "08:45", "Ops stand-up", (SAM, f"tom.whitcombe@{DOMAIN}"), "Teams")
    wd = d.weekday()
    if d in TASK_WEEK:
        continue
    if wd == 0:
        event(d, "11:00", "12:00", "Exec team weekly", tuple(OWNERS), "Boardroom, 5th floor")
        event(d, "15:00", "15:30", "Helena / Omar 1:1", (OMAR,))
    if wd == 1:
        event(d, "16:00", "16:30", "Helena / Rita 1:1", (RITA,))
        event(d, "09:00", "10:30", "Focus time (no meetings)")
    if wd == 2:
        event(d, "10:00", "10:30", "Helena / Nadia 1:1", (NADIA,))
        event(d, "14:00", "15:00", "Pricing committee", (NADIA, RITA), "Room 4.2")
    if wd == 3:
        event(d, "13:00", "14:00", "Ops leadership", (SAM,), "Room 4.1")
        event(d, "16:00", "17:00", "Depot performance review", (SAM, f"tom.whitcombe@{DOMAIN}"), "Teams")
    if wd == 4:
        event(d, "12:00", "12:30", "Helena / Leo 1:1", (LEO,))
        event(d, "14:00", "16:00", "Focus time (no meetings)")
# the task week around the task's own meetings (kept clear of the slots the task needs)
event(date(2025, 11, 17), "14:00", "14:30", "Helena / Omar 1:1", (OMAR,))
event(date(2025, 11, 17), "16:00", "17:00", "Budget 2026 working session", (RITA,), "Room 4.2")
event(date(2025, 11, 18), "09:00", "09:45", "Helena / Nadia 1:1", (NADIA,))
event(date(2025, 11, 18), "14:00", "15:00", "Warehouse automation - site walk", (SAM,), "Daventry DC (video)")
event(date(2025, 11, 18), "16:00", "16:30", "Helena / Rita 1:1", (RITA,))
event(date(2025, 11, 20), "09:00", "10:30", "Focus time (no meetings)")
event(date(2025, 11, 20), "11:00", "11:30", "Peak readiness check-in", (OMAR, SAM), "Teams")
event(date(2025, 11, 21), "15:00", "15:30", "Board debrief", (LEO,), "Room 4.1")
# the rest of the month
for d, s, e, summary, who, where in [
    (date(2025, 11, 4), "07:00", "19:30", "Hamburg depot visit", (), "Hamburg"),
    (date(2025, 11, 5), "10:30", "11:30", "Sam / Helena: depot review", (SAM,), "Room 4.1"),
    (date(2025, 11, 6), "09:00", "13:00", "Investor narrative workshop", ("jordan@ames-advisory.example", RITA), "Ames Advisory, Farringdon"),
    (date(2025, 11, 7), "18:30", "21:00", "Logistics UK awards dinner", (), "Grosvenor House"),
    (date(2025, 11, 10), "13:00", "14:00", "Lunch with Martin", (f"martin.crane@{DOMAIN}",), "Canteen"),
    (date(2025, 11, 11), "11:00", "12:00", "Halden Foods pricing review", (NADIA, RITA), "Room 4.2"),
    (date(2025, 11, 12), "06:45", "20:00", "Dublin customer visits", (), "Dublin"),
    (date(2025, 11, 13), "10:00", "11:00", "Peak readiness review", (SAM, OMAR), "Room 4.1"),
    (date(2025, 11, 14), "09:30", "10:30", "Risk committee prep", (LEO, RITA), "Room 4.1"),
    (date(2025, 11, 24), "14:00", "15:30", "Q4 board follow-ups", (LEO, SAM, RITA), "Room 4.1"),
    (date(2025, 11, 25), "10:00", "11:00", "Interim audit kick-off", (RITA, "audit@carrowpike.example"), "Teams"),
    (date(2025, 11, 26), "10:30", "11:30", "Sam / Helena: depot review", (SAM,), "Room 4.1"),
    (date(2025, 11, 27), "09:00", "17:00", "Exec offsite", tuple(OWNERS), "Hever Castle"),
    (date(2025, 11, 28), "10:00", "11:00", "Engagement survey actions", (OMAR,), "Room 4.2"),
]:  # fmt: skip
    event(d, s, e, summary, who, where)


def main() -> None:
    MAILS.sort(key=lambda m: datetime.fromisoformat(m[0]))
    cutoff = datetime(2025, 11, 17, 7, 50, tzinfo=timezone.utc)
    rows = [m for m in MAILS if datetime.fromisoformat(m[0]) < cutoff]
    for m in rows:
        assert not any(f.lower() in " ".join(m).lower() for f in FORBIDDEN), m
    EVENTS.sort()
    with open(HERE / "seed" / "background_mail.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "from", "to", "cc", "subject", "body"])
        w.writerows(rows)
    with open(HERE / "seed" / "background_calendar.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "start", "end", "summary", "attendees", "location"])
        w.writerows(EVENTS)
    print(f"{len(rows)} mails, {len(EVENTS)} events")


if __name__ == "__main__":
    main()
