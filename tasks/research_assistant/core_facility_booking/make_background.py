"""Regenerate the imaging core's month deterministically (run once; the outputs are committed).

    python tasks/research_assistant/core_facility_booking/make_background.py

Produces, with a fixed seed:

- seed/users.csv: the core's 220 registered users (the named users of facts.toml among them, with
  look-alikes such as Yuki Tanaka and Marta Ruiz), their groups, account status and sign-off levels.
- seed/background_calendar.csv: the booking calendar for June 2026 - ~70 instrument bookings (the
  [[fixed]] bookings of facts.toml among them), training sessions and core meetings.
- seed/usage.csv: May's 230 session logs (the billing source).

What the checkers and the solution rely on, kept by construction: no random booking on the STED
from 3 to 11 June or on 4 June 09:00-12:00 (only the [[fixed]] ones), no random LSM-980 booking on
3 or 5 June (so 15:00-18:00 on 3 June and 12:00-14:00 on 5 June are free); no background event
names Marco Ruiz, Hana Kim or Yuki Tanabe.
"""

from __future__ import annotations

import csv
import random
from datetime import date, timedelta
from pathlib import Path
from types import SimpleNamespace

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
rng = random.Random(20260601)
FIXED = [SimpleNamespace(**f) for f in F.fixed]
DOMAIN = F.domain

GROUPS = ["Becker lab", "Chen lab", "Diallo lab", "Evans lab", "Fischer lab", "Gupta lab", "Hoffmann lab",
          "Ito lab", "Jovanovic lab", "Kowalski lab", "Larsen lab", "Mbeki lab"]  # fmt: skip
FIRST = ["Adam", "Bea", "Cem", "Dora", "Elif", "Finn", "Gita", "Hugo", "Iris", "Jan", "Kai", "Lea", "Mats", "Nell",
         "Omar", "Pia", "Rafe", "Sana", "Timo", "Una", "Vera", "Wim", "Xena", "Yann", "Zoe"]  # fmt: skip
LAST = ["Abbott", "Bauer", "Costa", "Dahl", "Ekström", "Ferreira", "Gallo", "Hale", "Iqbal", "Jansen", "Kovac",
        "Lopez", "Meyer", "Novak", "Ortiz", "Price", "Quist", "Rossi", "Sato", "Toth", "Ueda", "Vidal", "Wolff"]  # fmt: skip
LEVELS = ["none", "supervised", "independent"]

NAMED = {  # name -> (group, account, LSM-980, STED, Lightsheet, induction)
    F.tanabe.name: ("Ito lab", "active", "independent", "none", "supervised", "2025-02-11"),
    "Yuki Tanaka": ("Chen lab", "active", "none", "none", "none", "2026-01-20"),
    F.ruiz.name: ("Diallo lab", "active", "independent", "supervised", "none", "2025-09-30"),
    "Marta Ruiz": ("Evans lab", "active", "supervised", "none", "none", "2025-11-04"),
    F.kim.name: ("Gupta lab", "inactive", "none", "none", "independent", "2023-03-14"),
    F.raman.name: ("Becker lab", "active", "independent", "none", "none", "2024-10-08"),
}
for f in FIXED:
    NAMED.setdefault(
        f.user, (GROUPS[rng.randrange(len(GROUPS))], "active", "independent", "independent", "none", "2025-01-15")
    )


def email(name: str) -> str:
    return f"{name.lower().replace(' ', '.')}@{DOMAIN}"


USERS: list[list[str]] = []
for i, (name, (group, account, lsm, sted, ls, ind)) in enumerate(NAMED.items()):
    uid = F.ruiz.user_id if name == F.ruiz.name else f"U-{2100 + i}"
    USERS.append([uid, name, email(name), group, account, lsm, sted, ls, ind])
seen = set(NAMED)
n = 2400
while len(USERS) < 220:
    name = f"{FIRST[rng.randrange(len(FIRST))]} {LAST[rng.randrange(len(LAST))]}"
    if name in seen:
        continue
    seen.add(name)
    ind = date(2022, 1, 1) + timedelta(days=rng.randrange(1500))
    USERS.append([f"U-{n}", name, email(name), GROUPS[rng.randrange(len(GROUPS))],
                  "active" if ind.year >= 2024 else "inactive",
                  LEVELS[rng.randrange(3)], LEVELS[rng.randrange(3)], LEVELS[rng.randrange(3)], ind.isoformat()])  # fmt: skip
    n += 1
USERS.sort(key=lambda u: u[0])
ACTIVE = [u for u in USERS if u[4] == "active" and u[1] not in NAMED]

# -- the June calendar --------------------------------------------------------------------------------
EVENTS: list[list[str]] = []  # uid, summary, date, start, end, location, attendees, description
ROOMS = {"LSM-980": "B1.12", "SP8": "B1.14", "STED": "B1.16", "Lightsheet": "B1.18", "Widefield": "B1.10"}
for f in FIXED:
    EVENTS.append(
        [
            f.uid,
            f"{f.instrument} | {f.user}",
            f.day,
            f.start,
            f.end,
            ROOMS[f.instrument],
            email(f.user),
            f"mode: {f.mode}",
        ]
    )
EVENTS.append(
    [
        F.names.induction_uid,
        "AIC induction (new users)",
        F.kim.induction,
        "10:00",
        "12:00",
        "B1.02",
        "oliver.grant@" + DOMAIN,
        "Safety and booking induction, required for (re)activation",
    ]
)
for d in (date(2026, 6, 1) + timedelta(days=i) for i in range(30)):
    if d.weekday() == 0:
        EVENTS.append(
            [
                f"aic-team-{d.isoformat()}@{DOMAIN}",
                "AIC team meeting",
                d.isoformat(),
                "09:00",
                "09:30",
                "B1.02",
                "oliver.grant@" + DOMAIN,
                "",
            ]
        )


def busy(inst: str, day: str, s: int, e: int) -> bool:
    for ev in EVENTS:
        if ev[1].startswith(inst + " |") and ev[2] == day:
            es, ee = int(ev[3][:2]), int(ev[4][:2])
            if s < ee and es < e:
                return True
    return False


k = 0
while sum(1 for e in EVENTS if " | " in e[1]) < 66:
    d = date(2026, 6, 1) + timedelta(days=rng.randrange(30))
    if d.weekday() >= 5:
        continue
    inst = F.core.instruments[rng.randrange(5)]
    if inst == "STED" and date(2026, 6, 3) <= d <= date(2026, 6, 11):
        continue
    if inst == "LSM-980" and d in (date(2026, 6, 3), date(2026, 6, 5)):
        continue
    s = rng.randrange(8, 17)
    e = min(s + rng.randrange(1, 5), 20)
    if busy(inst, d.isoformat(), s, e):
        continue
    u = ACTIVE[rng.randrange(len(ACTIVE))]
    mode = "" if inst != "STED" else ["mode: STED", "mode: confocal"][rng.randrange(2)]
    k += 1
    EVENTS.append(
        [
            f"aic-bg-{k:03d}@{DOMAIN}",
            f"{inst} | {u[1]}",
            d.isoformat(),
            f"{s:02d}:00",
            f"{e:02d}:00",
            ROOMS[inst],
            u[2],
            mode,
        ]
    )
EVENTS.sort(key=lambda e: (e[2], e[3], e[0]))

# -- May's usage log -----------------------------------------------------------------------------------
USAGE: list[list[str]] = []
for i in range(230):
    u = ACTIVE[rng.randrange(len(ACTIVE))]
    d = date(2026, 5, 1) + timedelta(days=rng.randrange(31))
    r = rng.random()
    outcome = "completed" if r < 0.82 else ("no-show" if r < 0.92 else "cancelled")
    USAGE.append([f"S-{5001 + i}", u[2], u[3], F.core.instruments[rng.randrange(5)], d.isoformat(),
                  str(rng.randrange(1, 5)), outcome])  # fmt: skip


def write(name: str, header: list[str], rows: list[list[str]]) -> None:
    with open(HERE / "seed" / name, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main() -> None:
    write(
        "users.csv",
        ["User ID", "Name", "Email", "Group", "Account", "LSM-980", "STED", "Lightsheet", "Induction"],
        USERS,
    )
    write(
        "background_calendar.csv",
        ["uid", "summary", "date", "start", "end", "location", "attendees", "description"],
        EVENTS,
    )
    write("usage.csv", ["Session ID", "User", "Group", "Instrument", "Date", "Hours", "Outcome"], USAGE)
    print(len(USERS), "users,", len(EVENTS), "events,", len(USAGE), "sessions")


if __name__ == "__main__":
    main()
