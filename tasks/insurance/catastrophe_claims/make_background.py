"""Regenerate Dana's busy CAT deployment deterministically (run once; the outputs are committed).

    python tasks/insurance/catastrophe_claims/make_background.py

Produces, with a fixed seed:

- seed/background_claims.csv: 300 other CAT-2614 claims of the KB database (Claim, Policy,
  Insured, Address, Reported, Loss Description, Adjuster, Priority, Status, Reserve, Reserve
  Status, Note), all owned by the other five adjusters of the event — never Dana Whitfield.
- seed/background_mail.csv (date, from, to, cc, subject, body): ~230 mails in her INBOX from
  1 June to the morning of 15 June — the earlier CAT-2609 wind deployment, FNOL notifications and
  bulletins of CAT-2614, colleagues' threads, HR/IT/expense notices, weather alerts, trade news,
  roofing and drone vendors' marketing, and look-alikes of the task's threads (inspection photos
  and reserve-authority approvals for CAT-2609 claims, CLM-26-3xxxx, without attachments).

What the checkers and the solution rely on, kept by construction (asserted in main()): no
background claim belongs to Dana, reuses one of her claim numbers, policy numbers, insureds or
addresses; no background mail names one of her claims, insureds, addresses or policies, carries an
attachment, goes to an outside address, or uses the subjects the solution looks up (the task's
"Inspection photos - CLM-26-41..." mails, Marcus's reply about CLM-26-41187, the voicemail
system's mails), and none comes from the storm-restoration firm of the task.
"""

from __future__ import annotations

import csv
import random
import tomllib
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).parent
FACTS = tomllib.loads((HERE / "facts.toml").read_text(encoding="utf-8"))
SEED = 20260613
DOMAIN = "prairieshield.example"
USER = f"dana.whitfield@{DOMAIN}"
TZ = timezone(timedelta(hours=-5))
MINE = FACTS["claims"]
FORBIDDEN = tuple(v for c in MINE.values() for k, v in c.items() if k in ("id", "policy", "insured", "address")) + (
    "Summit Storm",
    "summitstorm",
    "nursery",
    "voicemail",
    "Inspection photos - CLM-26-41",
    "Larkspur",
    "Cottonwood",
)

rng = random.Random(SEED)


def pick(seq: list[str] | tuple[str, ...]) -> str:
    return seq[rng.randrange(len(seq))]


# -- the KB: 300 other CAT-2614 claims ----------------------------------------------------------------
ADJUSTERS = ["Ken Ortiz", "Priya Raman", "Luis Ferrer", "Bea Sandoval", "Omar Reyes"]
FIRST = ["James", "Mary", "Robert", "Patricia", "Michael", "Linda", "David", "Barbara", "William", "Susan", "Richard",
         "Jessica", "Joseph", "Karen", "Thomas", "Nancy", "Charles", "Lisa", "Daniel", "Betty", "Matthew", "Sandra",
         "Anthony", "Ashley", "Mark", "Kimberly", "Steven", "Donna", "Paul", "Carol", "Andrew", "Michelle", "Joshua",
         "Emily", "Kevin", "Amanda", "Brian", "Melissa", "Ronald", "Deborah", "Tim", "Rosa", "Hector", "Mei", "Arjun",
         "Fatima", "Yusuf", "Ingrid", "Kofi", "Lupe"]  # fmt: skip
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Wilson", "Anderson", "Taylor", "Moore", "Jackson", "Martin", "Lee", "Thompson", "White",
        "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres",
        "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell",
        "Carter", "Roberts", "Lindqvist", "Haugen", "Mensah", "Novak", "Castillo"]  # fmt: skip
STREETS = ["Elm St", "Oak Ave", "Maple St", "Cedar Ln", "Walnut St", "Pawnee Rd", "Osage Ave", "Ridge Rd",
           "Meadowlark Ln", "Sunflower Dr", "Chisholm Trl", "Harvest Ct", "Prairie Rose Dr", "Windmill Rd",
           "Quail Run", "Buffalo Grass Ln", "Arkansas Ave", "Broadway", "Hillside Dr", "Lakeview Ct"]  # fmt: skip
LOSSES = {
    "P1": ["Hail punched through the skylight; rain in the living room.", "Tree down on the roof, hole in the bedroom ceiling.",
           "Roof decking exposed on the north side, water in the attic and the hallway.", "Window blown in, bedroom soaked; family staying with relatives."],
    "P2": ["Hail damage to the shingles, no leaks.", "Dented siding and cracked window on the west side, house dry.",
           "Granules in the gutters, bruised shingles; attic dry.", "Ridge cap missing, no water inside.",
           "Skylight cracked, taped; nothing got in.", "Hail marks on the metal roof, no leaks reported."],
    "P3": ["Fence panels broken by hail.", "Shed roof damaged.", "Gutters and downspouts dented.",
           "Detached garage door dented.", "Window screens torn, patio furniture damaged."],
}  # fmt: skip

taken = {int(c["id"].rsplit("-", 1)[1]) for c in MINE.values()}
numbers = sorted(rng.sample([n for n in range(40010, 41420) if n not in taken], 300))
CLAIMS: list[list[str]] = []
for n in numbers:
    prio = pick(["P1", "P2", "P2", "P2", "P3", "P3"])
    status = pick(["new", "triaged", "triaged", "inspected", "inspected", "closed"])
    day = date(2026, 6, 13) + timedelta(days=rng.randrange(3))
    init = FACTS["rules"]["initial"][prio]
    if status == "new":
        prio_cell, reserve, rstatus = "", "", ""
    elif status == "triaged":
        prio_cell, reserve, rstatus = prio, str(init), "initial"
    elif status == "inspected":
        prio_cell, reserve, rstatus = (
            prio,
            str(rng.randrange(18, 240) * 100),
            pick(["revised", "revised", "authority approved"]),
        )
    else:
        prio_cell, reserve, rstatus = prio, "0", "revised"
    CLAIMS.append([
        f"CLM-26-{n}", f"HO3-77{rng.randrange(10000, 99999)}", f"{pick(FIRST)} {pick(LAST)}",
        f"{rng.randrange(10, 4000)} {pick(STREETS)}, {pick(['Brookfield KS 67052', 'Sedgwick KS 67135', 'Valley Center KS 67147'])}",
        day.isoformat(), pick(LOSSES[prio]), pick(ADJUSTERS), prio_cell, status, reserve, rstatus,
        "withdrawn by the insured" if status == "closed" else "",
    ])  # fmt: skip

# -- her inbox ------------------------------------------------------------------------------------------
MAILS: list[tuple[str, str, str, str, str, str]] = []


def mail(day: date, hour: int, sender: str, subject: str, body: str, cc: str = "") -> None:
    when = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=TZ)
    MAILS.append((when.isoformat(), sender, USER, cc, subject, body))


DAYS = [date(2026, 6, 1) + timedelta(days=i) for i in range(15)]
WORKDAYS = [d for d in DAYS if d.weekday() < 5]
MARCUS, KEN, PRIYA, LUIS, TESS = (
    f"{n}@{DOMAIN}" for n in ("marcus.bell", "ken.ortiz", "priya.raman", "luis.ferrer", "tess.romero")
)
NAMES = {MARCUS: "Marcus", KEN: "Ken", PRIYA: "Priya", LUIS: "Luis", TESS: "Tess"}

# weather and trade news from outside
for d in DAYS:
    mail(d, 6, "Plains Weather Alerts <alerts@plainsweather.example>", f"Severe weather outlook {d:%a %d %b}: {pick(['marginal', 'slight', 'enhanced', 'moderate'])} risk",
         f"Storm Prediction summary for south-central Kansas. Hail up to {pick(['1', '1.75', '2.5'])} in possible after {rng.randrange(2, 8)} pm. Stay weather aware.")  # fmt: skip
for k, d in enumerate(d for d in DAYS if d.weekday() in (1, 4)):
    mail(d, 8, "Claims Desk Weekly <news@claimsdesk.example>", f"Claims Desk #{480 + k}: {pick(['hail season arrives early', 'roof surfacing endorsements spread', 'drones at the ladder', 'AOB reform one year on', 'contractor fraud after storms'])}",
         "This issue: CAT staffing, reinsurance renewals, and a field adjuster's checklist for hail. Unsubscribe any time.")  # fmt: skip
for d in WORKDAYS[::2]:
    mail(d, rng.randrange(9, 17), pick(["SkyMeasure <sales@skymeasure.example>", "RoofScope Pro <hello@roofscope.example>", "Granule Labs <info@granulelabs.example>"]),
         pick(["Drone roof measurements in 24 hours", "Hail verification reports for carriers", "New: AI test-square counts", "Webinar: measuring steep-slope roofs"]),
         "Carriers trust our reports for CAT deployments. Reply for a demo or volume pricing.")  # fmt: skip

# the earlier deployment (CAT-2609, Oklahoma wind) and its look-alike threads
OLD = [f"CLM-26-3{rng.randrange(1000, 9999)}" for _ in range(12)]
for i, claim in enumerate(OLD):
    d = WORKDAYS[min(i // 2, len(WORKDAYS) - 1)]
    mail(d, rng.randrange(8, 12), TESS, f"Inspection photos - {claim}",
         f"Dana,\nladder assist done at {claim}; photos and the field sheet are in the CAT-2609 share (not attached).\nTess")  # fmt: skip
    if i % 3 == 0:
        mail(d + timedelta(days=1), rng.randrange(9, 17), MARCUS, f"Re: Reserve authority {claim}",
             f"Dana,\napproved for {claim} at the figure you proposed. Please update the file.\nMarcus")  # fmt: skip
    mail(d, rng.randrange(12, 18), f"Claims System <claims-system@{DOMAIN}>", f"Payment issued: {claim}",
         f"A payment was issued on {claim} (CAT-2609). Check the payment log for the amount and payee.")  # fmt: skip

# CAT-2614 notifications (other adjusters' claims) and bulletins
for row in rng.sample(CLAIMS, 110):
    d = date.fromisoformat(row[4])
    if d > date(2026, 6, 14):
        continue
    mail(d, rng.randrange(8, 22), f"Claims System <claims-system@{DOMAIN}>", f"FNOL received: {row[0]} (assigned {row[6]})",
         f"New CAT-2614 claim {row[0]} assigned to {row[6]}. Open it in the claims database.")  # fmt: skip
for k, d in enumerate((date(2026, 6, 13), date(2026, 6, 14))):
    mail(d, 20, MARCUS, f"CAT-2614 bulletin #{k + 1}",
         f"Team,\nclaim count {140 + 150 * k}, five adjusters deployed plus Dana. Triage new claims the day they are assigned; P1 inspections next business day. Field guide in the KB.\nMarcus",
         cc=KEN)  # fmt: skip

# colleagues' threads
THREADS = [
    (MARCUS, "CAT-2609 closing stats", ["Closed 212 of 240 CAT-2609 claims; average cycle time 11.4 days.", "Final numbers to the regional VP on Friday."]),
    (MARCUS, "Deployment to Brookfield", ["If the hail verifies, you deploy to Brookfield on the 14th. Hotel block at the Prairie Inn.", "Confirmed: you're on CAT-2614 from Sunday."]),
    (KEN, "Rental car swap", ["Swapping the sedan for a pickup for the ladders, OK with you?", "Done, keys at the front desk."]),
    (KEN, "Mileage log template", ["Here's the mileage template I use, saves time at month end.", "Updated with the new IRS rate."]),
    (PRIYA, "Xactimate price list for Kansas", ["The June price list for Kansas is loaded; CAT surge rates may follow.", "No surge yet, will tell you."]),
    (PRIYA, "Coverage question: detached garage", ["Other structures limit is 10% of Coverage A on the HO3 forms, right?", "Yes, unless endorsed."]),
    (LUIS, "Ride share to the site office", ["I can pick you up at 7:15 from the Prairie Inn.", "See you tomorrow."]),
    (LUIS, "Ladder training refresher", ["Refresher on the 22nd for anyone deployed; two hours.", "Moved to the 24th."]),
    (TESS, "Ladder assist capacity", ["I can do six roofs a day in town, four if it's steep-slope.", "Adding a second crew on Wednesday."]),
]  # fmt: skip
for sender, subject, steps in THREADS:
    d = pick(WORKDAYS[:-2])
    for k, text in enumerate(steps):
        mail(
            d, rng.randrange(8, 19), sender, subject if k == 0 else f"Re: {subject}", f"Dana,\n{text}\n{NAMES[sender]}"
        )
        d = min(d + timedelta(days=rng.randrange(1, 3)), DAYS[-2])

# company notices
for d in WORKDAYS:
    r = rng.random()
    if r < 0.4:
        n = rng.randrange(5000, 5999)
        mail(d, rng.randrange(9, 18), f"Expense Desk <expenses@{DOMAIN}>", pick([f"Expense report EX-{n} approved", f"Receipt missing: EX-{n}"]),
             f"Report EX-{n}: USD {rng.randrange(40, 900)}.{rng.randrange(100):02d}. Log in to the expense portal for details.")  # fmt: skip
    elif r < 0.7:
        n = rng.randrange(20000, 29999)
        mail(d, rng.randrange(9, 18), f"IT Service Desk <it@{DOMAIN}>", f"Ticket INC{n}: {pick(['VPN on hotel wifi', 'tablet camera app', 'claims app sync', 'password reset'])}",
             f"Your ticket INC{n} was updated. Reply to this mail to add information.")  # fmt: skip
    mail(d, 7, f"Prairie Shield News <news@{DOMAIN}>", f"Prairie Shield Daily: {pick(['Q2 results preview', 'new HO3 forms in Nebraska', 'summer CAT readiness', 'volunteer day', 'benefits enrolment opens'])}",
         "Company news, people moves and upcoming events.")  # fmt: skip
for d in DAYS[::3]:
    mail(d, 11, f"HR <hr@{DOMAIN}>", pick(["Benefits enrolment reminder", "Timesheet due Friday", "Deployment per diem rates 2026", "Wellness challenge"]),
         "Please read and act where needed. Thank you, HR.")  # fmt: skip
for d in DAYS:
    if rng.random() < 0.5:
        mail(d, rng.randrange(7, 22), "Prairie Inn <reservations@prairieinn.example>", pick(["Your stay at the Prairie Inn", "Breakfast hours update", "Parking for trucks and trailers"]),
             "We look forward to welcoming you. Reply to change your reservation.")  # fmt: skip
for d in WORKDAYS:
    for _ in range(rng.randrange(2, 5)):
        who = pick([KEN, PRIYA, LUIS, MARCUS])
        topic = pick(
            [
                "reinspection list",
                "supplement queue",
                "photo upload backlog",
                "desk-adjusted fence claims",
                "contents claims",
                "mitigation invoices",
            ]
        )
        mail(d, rng.randrange(8, 19), who, pick([f"FYI: {topic}", f"Quick question on the {topic}", f"{topic.capitalize()} - update"]),
             f"Dana,\n{pick(['for info, the', 'sharing the', 'an update on the'])} {topic}; {pick(['nothing urgent', 'two items to watch', 'all on track', 'one question for Monday'])}.\n{NAMES[who]}")  # fmt: skip


def main() -> None:
    MAILS.sort(key=lambda m: datetime.fromisoformat(m[0]))
    cutoff = datetime(2026, 6, 15, 7, 0, tzinfo=TZ)
    rows = [m for m in MAILS if datetime.fromisoformat(m[0]) < cutoff]
    for m in rows:
        assert not any(f.lower() in " ".join(m).lower() for f in FORBIDDEN), m
        assert m[2] == USER and (not m[3] or m[3].endswith(DOMAIN)), m
    for c in CLAIMS:
        assert c[6] != FACTS["names"]["adjuster"] and not any(f.lower() in " ".join(c).lower() for f in FORBIDDEN), c
    with open(HERE / "seed" / "background_claims.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Claim", "Policy", "Insured", "Address", "Reported", "Loss Description", "Adjuster", "Priority",
                    "Status", "Reserve", "Reserve Status", "Note"])  # fmt: skip
        w.writerows(CLAIMS)
    with open(HERE / "seed" / "background_mail.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["date", "from", "to", "cc", "subject", "body"])
        w.writerows(rows)
    print(f"{len(CLAIMS)} claims, {len(rows)} mails")


if __name__ == "__main__":
    main()
