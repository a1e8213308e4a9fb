"""Regenerate the capacity-planning world's background deterministically (run once; the outputs are committed).

    python tasks/pm/capacity_planning/make_background.py

Produces, with a fixed seed:

- seed/background_commitments.csv: the KB database "Engineering Commitments", 220 rows QC-3001..QC-3220
  over eight teams and three quarters (Q2/Q3/Q4 2026) and five statuses. The four planned teams'
  "Q3 2026" + "Committed" rows sum to facts.toml [committed] day1 by construction; their other Q3
  rows are Proposed, Stretch or Cancelled look-alikes. QC-3117 (Beacon, Payments SDK v2) is the row
  the day-2 turn revises.
- seed/background_calendar.csv: Tobias's June 2026, 70 events (stand-ups, weeklies, 1:1s, forums).
  Thursday 11 June 13:00-17:00 (Helga's window for the capacity review) is busy except 15:00-16:00.

What the checkers rely on, kept by construction: no commitment is titled "Enterprise SSO" and no
ID above QC-3220 exists (the day-3 row is QC-3221); no background event is titled like the review.
"""

from __future__ import annotations

import csv
import random
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).parent
rng = random.Random(20260608)
PLANNED = {"Atlas": 240, "Beacon": 210, "Cobalt": 200, "Delta": 255}  # facts.toml [committed] day1
OTHERS = ["Echo", "Foxtrot", "Helix", "Juno"]
REVISED = ("QC-3117", "Beacon", "Payments SDK v2", 40)
NOUNS = ["billing", "search", "ingest", "audit log", "SSO-less login", "export", "webhooks", "dashboards", "alerting",
         "tenant isolation", "rate limiting", "mobile SDK", "feature flags", "data retention", "reporting API",
         "notifications", "schema registry", "CI pipeline", "load balancer", "cost explorer", "access reviews"]  # fmt: skip
VERBS = [
    "Migrate",
    "Rebuild",
    "Harden",
    "Scale",
    "Deprecate",
    "Instrument",
    "Redesign",
    "Automate",
    "Localise",
    "Split",
]
REQUESTERS = [
    "Helga Strand",
    "Diego Alvarez",
    "Product council",
    "Security office",
    "Customer success",
    "Finance systems",
]


def title() -> str:
    return f"{rng.choice(VERBS)} {rng.choice(NOUNS)}"


def split(total: int, parts: int) -> list[int]:
    """``parts`` estimates (multiples of 5, at least 10) summing to ``total``."""
    cuts = sorted(rng.sample(range(2, total // 5 - 1), parts - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, total // 5])]
    return [5 * s for s in sizes]


def commitments() -> list[list[object]]:
    rows: list[list[object]] = []
    for team, total in PLANNED.items():
        rest = total - (REVISED[3] if team == REVISED[1] else 0)
        for est in split(rest, 7):
            rows.append([title(), team, "Q3 2026", "Committed", est])
        for status in ("Proposed", "Stretch", "Stretch", "Cancelled", "Proposed"):
            rows.append([title(), team, "Q3 2026", status, 5 * rng.randrange(2, 12)])
        for _ in range(9):
            rows.append(
                [
                    title(),
                    team,
                    "Q2 2026",
                    rng.choice(["Done", "Done", "Committed", "Cancelled"]),
                    5 * rng.randrange(2, 12),
                ]
            )
        for _ in range(8):
            rows.append(
                [title(), team, "Q4 2026", rng.choice(["Proposed", "Committed", "Stretch"]), 5 * rng.randrange(2, 12)]
            )
    while len(rows) < 219:
        q = rng.choice(["Q2 2026", "Q3 2026", "Q4 2026"])
        rows.append(
            [
                title(),
                rng.choice(OTHERS),
                q,
                rng.choice(["Committed", "Proposed", "Stretch", "Done", "Cancelled"]),
                5 * rng.randrange(2, 14),
            ]
        )
    rng.shuffle(rows)
    out = []
    for i, (t, team, q, status, est) in enumerate(rows):
        n = 3001 + i + (1 if 3001 + i >= 3117 else 0)
        out.append([f"QC-{n}", t, team, q, status, est, rng.choice(REQUESTERS)])
    out.append([REVISED[0], REVISED[2], REVISED[1], "Q3 2026", "Committed", REVISED[3], "Product council"])
    return sorted(out, key=lambda r: str(r[0]))


def calendar() -> list[list[str]]:
    events: list[list[str]] = []
    leads = "freya.holm@quillmark.example;omar.qureshi@quillmark.example;marta.zielinska@quillmark.example;raj.patel@quillmark.example"
    day = date(2026, 6, 1)
    while day <= date(2026, 6, 30):
        if day.weekday() < 5:
            events.append([day.isoformat(), "09:15", "09:30", "Platform TPM stand-up", leads, "Zoom"])
        if day.weekday() == 0:
            events.append([day.isoformat(), "11:00", "12:00", "Engineering leads weekly", leads, "Room Fjord"])
        if day.weekday() == 1:
            events.append(
                [day.isoformat(), "14:00", "14:30", "1:1 Helga / Tobias", "helga.strand@quillmark.example", ""]
            )
        if day.weekday() == 2:
            events.append([day.isoformat(), "16:00", "17:00", "Release train sync", leads, "Zoom"])
        if day.weekday() == 4:
            events.append([day.isoformat(), "15:00", "16:00", "Demo Friday", "", "Atrium"])
        day += timedelta(days=1)
    fixed = [
        ["2026-06-11", "13:00", "14:00", "Architecture forum", "", "Room Fjord"],
        ["2026-06-11", "14:00", "15:00", "Vendor call - observability renewal", "", "Zoom"],
        ["2026-06-11", "16:00", "17:00", "Hiring panel - senior SRE", "", "Room Skagen"],
    ]
    events += fixed
    extras = ["Roadmap deep-dive", "Security review", "Budget check-in", "Interview", "Focus time", "Incident review",
              "Vendor demo", "Team health check", "Skip-level", "OKR drafting"]  # fmt: skip
    busy = {(e[0], e[1]) for e in events}
    while len(events) < 70:
        d = date(2026, 6, 1) + timedelta(days=rng.randrange(30))
        if d.weekday() >= 5 or d == date(2026, 6, 11):
            continue
        h = rng.choice([10, 13, 15])
        if (d.isoformat(), f"{h:02d}:00") in busy or (d.weekday() == 4 and h == 15):
            continue
        busy.add((d.isoformat(), f"{h:02d}:00"))
        events.append([d.isoformat(), f"{h:02d}:00", f"{h:02d}:45", rng.choice(extras), "", ""])
    return sorted(events)


def write(name: str, header: list[str], rows: list[list[object]]) -> None:
    with (HERE / "seed" / name).open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main() -> None:
    write(
        "background_commitments.csv",
        ["ID", "Title", "Team", "Quarter", "Status", "Estimate (eng-days)", "Requester"],
        commitments(),
    )
    write("background_calendar.csv", ["date", "start", "end", "summary", "attendees", "location"], calendar())


if __name__ == "__main__":
    main()
