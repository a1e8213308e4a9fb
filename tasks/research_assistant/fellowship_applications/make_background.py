"""Regenerate the fellowship office's busy world deterministically (run once; the outputs are committed).

    python tasks/research_assistant/fellowship_applications/make_background.py

Produces, with a fixed seed:

- seed/background_applications.csv: the 290 other applications of the AEF 2027 round (App IDs
  AEF-27-0001..0300 without the ten of the Life Sciences batch), every one already screened
  (eligible, ineligible or withdrawn), none with a Panel Decision.
- seed/background_mail.csv (date, from, to, cc, subject, body): ~230 mails in Elif's INBOX from
  5 October to the morning of 9 November 2026 — portal notifications (applications and references
  received) for the other applications, research-funding newsletters, staff news, colleagues'
  threads (other batches, budget, rooms, last year's round), applicants' questions about their own
  applications.

What the checkers and the solution rely on, kept by construction: no background row or mail names
an App ID, applicant, institution domain or referee of the batch (seed/applications.csv) or the
new referee of facts.toml; no background mail has an attachment or a subject the solution looks
up ("PhD certificate", "Reference for", "Reference received: AEF-27-0042/0216", "my application
AEF-27-0042"); no background application is "unscreened" or has a Panel Decision; applicant
names are unique over the whole round.
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).parent
SEED = 20271109
rng = random.Random(SEED)
DOMAIN = "aldwick.example"
USER = f"elif.kaya@{DOMAIN}"
PORTAL = f"AEF portal <portal@{DOMAIN}>"
COLLEAGUES = {
    "Ruth Adler": f"ruth.adler@{DOMAIN}",
    "Martin Oyelaran": f"martin.oyelaran@{DOMAIN}",
    "Ines Duarte": f"ines.duarte@{DOMAIN}",
    "Kofi Boateng": f"kofi.boateng@{DOMAIN}",
}
OTHERS = {  # colleagues without a mailbox in the world
    "Finance Office": f"finance@{DOMAIN}",
    "Estates Bookings": f"rooms@{DOMAIN}",
    "IT Service Desk": f"itservice@{DOMAIN}",
}

BATCH = list(csv.DictReader((HERE / "seed/applications.csv").open(encoding="utf-8")))
BATCH_IDS = {r["App ID"] for r in BATCH}
BATCH_NAMES = {r["Applicant"] for r in BATCH}
BATCH_DOMAINS = {a.rpartition("@")[2] for r in BATCH for a in (r["Email"], r["Referee 1"], r["Referee 2"])}

FIRST = """Aaron Abena Adele Ahmed Alba Alexei Amara Ana Anders Anika Arjun Ayla Bao Beatriz Benedikt Bilal Camille Carlos
Chiara Chidi Clara Dana Dario Diego Dilnoza Elena Elias Emeka Emil Esra Eva Farah Felix Fatima Femi Gabriel Hamid Hanne Hugo
Ibrahim Ida Ilse Imani Isaac Ivan Jamal Jana Javier Jin Joana Jonas Julian Kai Kamila Karim Katja Laila Lars Leila Leon Lina
Luca Maja Malik Marco Mariam Marta Mateo Maya Mehmet Mira Nadia Naveen Nia Nikolai Nora Olga Omar Oskar Paula Pedro Petra
Rafael Rania Rosa Rui Sadia Salma Samir Sara Selin Simon Sina Stefan Tariq Thea Tobias Uma Valentina Victor Wen Yara Yusuf
Zainab Zoe""".split()
LAST = """Abara Acosta Adeyinka Ahlberg Alvarez Amini Andersen Arslan Bakker Barros Becker Bello Bergstrom Bianco Bose Castro
Chen Costa Dahl Dimitrov Duarte-Lima Ekwueme Farouk Ferreira Fontaine Garcia Goh Haddad Halvorsen Hartmann Horvath Huang
Ivanova Jansen Kaur Keller Khan Kim Kowalczyk Kruger Laine Larsen Lopez Maier Mahmoud Marin Moreau Murphy Nakamura Navarro
Ng Novak Nwosu Ortega Park Pereira Petrov Quaye Rahman Reyes Rossi Sandoval Santos Schmidt Sharma Silva Sokolov Suzuki
Takahashi Torres Tran Urbano Varga Vasquez Weiss Wong Yilmaz Zhang Zielinski""".split()
INSTITUTIONS = [
    ("University of Brennmoor", "brennmoor.example"), ("Calder Institute", "calder-inst.example"),
    ("Eastholm University", "eastholm-uni.example"), ("Fenwick College", "fenwick-coll.example"),
    ("Northgate University", "northgate-uni.example"), ("Ravensworth Institute", "ravensworth.example"),
    ("Solent Research Centre", "solent-rc.example"), ("University of Tarrin", "tarrin-uni.example"),
    ("Westmere University", "westmere-uni.example"), ("Vantor Polytechnic", "vantor-poly.example"),
    ("Liora University", "liora-uni.example"), ("Kestrel Life Institute", "kestrel-life.example"),
]  # fmt: skip
FIELDS = ["Life Sciences", "Physical Sciences", "Social Sciences", "Humanities", "Engineering"]
CLOSING = date(2026, 11, 2)
WINDOW_START = date(2019, 11, 2)


def names() -> list[str]:
    out: list[str] = []
    while len(out) < 290:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in out and name not in BATCH_NAMES:
            out.append(name)
    return out


def months_before(day: date, months: int) -> date:
    y, m = divmod(day.year * 12 + day.month - 1 - months, 12)
    return date(y, m + 1, min(day.day, 28))


def applications() -> list[dict[str, str]]:
    ids = [f"AEF-27-{n:04d}" for n in range(1, 301) if f"AEF-27-{n:04d}" not in BATCH_IDS]
    rows = []
    for app_id, name in zip(ids, names()):
        inst, dom = rng.choice(INSTITUTIONS)
        first, last = name.lower().split(" ", 1)
        brk = rng.choice([0] * 8 + [6, 9, 12, 18])
        verdict = rng.choices(["eligible", "ineligible", "withdrawn"], weights=[72, 20, 8])[0]
        start = months_before(WINDOW_START, brk)
        if verdict == "ineligible":
            phd = start - timedelta(days=rng.randrange(30, 1400))
        else:
            phd = start + timedelta(days=rng.randrange(20, (CLOSING - start).days - 60))
        ref_domain = rng.choice(INSTITUTIONS)[1]
        rows.append(
            {
                "App ID": app_id,
                "Applicant": name,
                "Email": f"{first}.{last.replace('-', '')}@{dom}",
                "Institution": inst,
                "Field": rng.choice(FIELDS),
                "PhD Date": phd.isoformat(),
                "Career Break (months)": str(brk),
                "Referee 1": f"{rng.choice(FIRST).lower()[0]}.{rng.choice(LAST).lower()}@{dom}",
                "Ref 1 Status": rng.choices(["received", "awaited"], weights=[9, 1])[0],
                "Referee 2": f"{rng.choice(FIRST).lower()[0]}.{rng.choice(LAST).lower()}@{ref_domain}",
                "Ref 2 Status": rng.choices(["received", "awaited"], weights=[8, 2])[0],
                "Eligibility": verdict,
                "Note": {
                    "ineligible": "PhD before the eligibility window",
                    "withdrawn": "withdrawn by the applicant",
                }.get(verdict, ""),
            }
        )
    return rows


MAILS: list[dict[str, str]] = []


def stamp(day: date, hour: int) -> str:
    return datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=timezone.utc).isoformat()


def mail(day: date, hour: int, sender: str, subject: str, body: str, cc: str = "") -> None:
    MAILS.append({"date": stamp(day, hour), "from": sender, "to": USER, "cc": cc, "subject": subject, "body": body})


def background_mail(apps: list[dict[str, str]]) -> None:
    start = date(2026, 10, 5)
    days = [start + timedelta(days=i) for i in range(35)]
    workdays = [d for d in days if d.weekday() < 5]
    sample = rng.sample(apps, 80)
    for k, app in enumerate(sample):
        d = workdays[min(k // 4, len(workdays) - 1)]
        if d > CLOSING:
            d = CLOSING
        mail(d, rng.randrange(7, 23), PORTAL, f"Application submitted: {app['App ID']}",
             f"{app['Applicant']} ({app['Institution']}) submitted application {app['App ID']} to the Aldwick Early Career "
             f"Fellowship 2027, field {app['Field']}. Referees have been invited automatically.")  # fmt: skip
    for k, app in enumerate(rng.sample(apps, 70)):
        d = workdays[min(8 + k // 4, len(workdays) - 1)]
        n = rng.choice([1, 2])
        mail(d, rng.randrange(7, 22), PORTAL, f"Reference received: {app['App ID']} (referee {n})",
             f"A reference for {app['App ID']} ({app['Applicant']}) was uploaded by referee {n}. It is stored in the portal; "
             "the AEF tracker in the KB has not been updated automatically.")  # fmt: skip
    digests = ["Research Funding Digest", "Fellowships Weekly", "Aldwick Staff News"]
    topics = [
        "new ERC starting grant timetable", "UKRI open-access policy update", "Wellcome discovery awards reopen",
        "Royal Society URF outcomes", "Leverhulme early career deadlines", "research culture survey results",
        "parking changes at the east campus", "new travel booking tool", "pension scheme webinar", "library opening hours",
    ]  # fmt: skip
    for d in workdays:
        src = digests[d.toordinal() % 3]
        sender = {"Research Funding Digest": "Research Funding Digest <digest@fundingnews.example>",
                  "Fellowships Weekly": "Fellowships Weekly <news@fellowshipsweekly.example>",
                  "Aldwick Staff News": f"Staff News <news@{DOMAIN}>"}[src]  # fmt: skip
        mail(d, 6, sender, f"{src}: {rng.choice(topics)}",
             f"This week: {rng.choice(topics)}; {rng.choice(topics)}. Read more online. Unsubscribe or change preferences any time.")  # fmt: skip
    threads = [
        ("Ruth Adler", "Physical Sciences batch screening", "The Physical Sciences batch is screened and with Kofi for the pack. Thanks for the quick turnaround."),
        ("Ruth Adler", "AEF 2027 budget line", "Finance confirmed the 2027 budget line for twelve fellowships. No change to the stipend."),
        ("Kofi Boateng", "Humanities panel pack", "I've had the Humanities pack, all fine. Could we keep the same CSV columns next time?"),
        ("Ines Duarte", "Conflict of interest forms", "My conflict-of-interest form for the round is signed and uploaded to the shared drive."),
        ("Martin Oyelaran", "Panel guidance notes", "I've revised the panel guidance notes; the scoring scheme is unchanged from last year."),
        ("Ruth Adler", "Engineering batch: two late references", "Two Engineering references came in late; I've extended the window for those two only."),
        ("Kofi Boateng", "Social Sciences scoring", "Scores for Social Sciences are in the sheet; I'll chase the two missing reviewers."),
        ("Finance Office", "Fellowship stipend uplift 2027", "The 2027 stipend uplift of 3% is approved; no action needed from the fellowships office."),
        ("Estates Bookings", "Room booking confirmation: Seminar Room 4", "Your booking of Seminar Room 4 for the Humanities panel is confirmed."),
        ("IT Service Desk", "Portal maintenance window", "The applications portal will be read-only on Saturday 07:00-09:00 for maintenance."),
        ("Ruth Adler", "Re: AEF 2026 fellows' progress reports", "All 2026 fellows have filed their six-month reports; two asked for mentoring changes."),
        ("Martin Oyelaran", "Re: AEF 2026 panel outcomes archive", "Last year's outcomes are archived in the KB; no need to keep the mail copies."),
    ]  # fmt: skip
    for k in range(48):
        who, subject, body = threads[k % len(threads)]
        addr = COLLEAGUES.get(who) or OTHERS[who]
        d = workdays[rng.randrange(len(workdays))]
        mail(d, rng.randrange(8, 18), f"{who} <{addr}>", subject if k < len(threads) else f"Re: {subject}", body)
    for app in rng.sample([a for a in apps if a["Eligibility"] != "withdrawn"], 22):
        d = workdays[rng.randrange(len(workdays))]
        mail(d, rng.randrange(8, 22), f"{app['Applicant']} <{app['Email']}>", f"Question about my application {app['App ID']}",
             f"Dear fellowships office, could you confirm that my application {app['App ID']} is complete and that both "
             f"references have arrived? Best wishes, {app['Applicant']}")  # fmt: skip
    MAILS.sort(key=lambda m: m["date"])


def check(apps: list[dict[str, str]]) -> None:
    text = "\n".join(" ".join(m.values()) for m in MAILS) + "\n".join(" ".join(a.values()) for a in apps)
    for forbidden in (*BATCH_IDS, *BATCH_NAMES, *BATCH_DOMAINS, "e.tetteh", "PhD certificate", "Reference for"):
        assert forbidden not in text, forbidden
    assert len({a["Applicant"] for a in apps}) == len(apps)


def write(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


def main() -> None:
    apps = applications()
    background_mail(apps)
    check(apps)
    write(HERE / "seed/background_applications.csv", apps)
    write(HERE / "seed/background_mail.csv", MAILS)
    print(len(apps), "applications,", len(MAILS), "mails")


if __name__ == "__main__":
    main()
