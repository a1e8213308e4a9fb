"""Regenerate the FY26 ratings database deterministically (run once; the output is committed).

    python tasks/hr/performance_calibration/make_background.py

Produces seed/background_ratings.csv: 320 employees of Halverton Robotics in six calibration groups
(Employee ID, Name, Department, Level, Manager, Hire Date, Proposed Rating, Calibrated Rating,
Promotion Nominated, Notes), with a fixed seed.

What the checkers rely on, kept by construction (and asserted below):
- each department's eligible employees (hired on or before [guideline] hired_by, with a Proposed
  Rating) have exactly the counts of facts.toml [ratings.pre];
- every department also holds ineligible rows: recent hires, some already given a (high) proposed
  rating by their manager - the guideline excludes them - and rows with no rating (on leave, and
  the missing Sales rating of [late] that arrives on day 4);
- the people of [engineering], [sales], [transfer], [late] and [marketing] have exactly the IDs,
  names, departments and proposed ratings facts.toml gives them; every name and ID is unique, and
  no generated name is the name of a person of the task (the user, HR, the VP Sales, managers).
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
SEED = 20260309
LABELS = list(F.ratings.labels)
FIRST = """Aisha Alba Amara Anders Ana Arjun Astrid Ben Bianca Boris Caleb Camille Chiara Clara Cormac Dalia Dario Dmitri
Eamon Edith Elif Elliot Emeka Enzo Esme Ewan Fatima Felix Fiona Gabriel Greta Hamza Hana Harriet Idris Ilse Imran Isla
Ivan Jasper Javier Jonas Julia Kai Karim Keira Kenji Laila Lars Leila Leon Lior Lucia Magnus Maia Malik Marta Mateo Maya
Milan Nadia Naomi Nico Nina Noor Oisin Olga Omar Paloma Pavel Petra Quinn Rhea Rory Rosa Ruben Sabine Samir Sana Selim
Sienna Simon Sofia Stellan Tariq Thea Theo Uma Vera Viktor Wren Xavier Yara Yusuf Zara Zoltan""".split()
LAST = """Abbott Adler Ahmed Almeida Arnott Bakshi Barros Becker Blake Bose Brandt Carvalho Castell Chen Costa Dahl Dane
Delgado Doyle Duarte Eriksen Evans Falk Fischer Flores Foley Garcia Gill Grady Hale Hansen Hart Herrera Holm Hughes Ito
Jensen Joshi Kaur Keane Khan Kovac Lamb Lange Larsen Lowe Lund Malik Marin Meyer Moreau Nagy Nash Novak Nunez Ortiz Park
Patel Pereira Quinlan Rahman Reyes Rossi Ruiz Sato Schmidt Shah Silva Sousa Stone Strand Tan Tanaka Torres Ueda Varga
Vidal Walsh Weber Wolfe Yilmaz Young Zhou""".split()
RESERVED = {"Oksana Reyes", "Imogen Thackeray", "Rafael Nunes", "Delia Ashcombe", "Victor Anand", "Kwame Boateng"}
MANAGERS = {
    "Engineering": ["Kwame Boateng", "Priya Venkat", "Mateus Lindqvist", "Sara Okonkwo", "Jon Ferreira"],
    "Sales": ["Victor Anand", "Helen Grosvenor", "Tomas Ekdahl", "Adaeze Nwosu"],
    "Customer Success": ["Laura Brightwell", "Nikhil Suri", "Beatriz Amaral"],
    "Operations": ["Gareth Lloyd", "Mei Tanabe", "Stefan Albu"],
    "Marketing": ["Chloe Marchetti", "Dimitri Papadakis"],
    "Finance & Legal": ["Ruth Adebayo", "Henrik Wold"],
}
INELIGIBLE = {  # (recent hires with a rating, recent hires without, older rows without a rating)
    "Engineering": (3, 2, 1), "Sales": (2, 1, 1), "Customer Success": (2, 1, 0),
    "Operations": (1, 1, 1), "Marketing": (2, 1, 0), "Finance & Legal": (1, 1, 0),
}  # fmt: skip
NOTES = ["", "", "", "", "Strong peer feedback", "New to role this year", "Led a cross-team project", "Mentor"]

rng = random.Random(SEED)


def special() -> dict[str, dict[str, str]]:
    """The story's people, by ID: name, department and proposed rating as facts.toml has them."""
    out: dict[str, dict[str, str]] = {}
    for eid, name, proposed, _ in F.engineering.changes:
        out[eid] = {"name": name, "dept": "Engineering", "rating": proposed}
    for eid, name, proposed, _ in F.sales.changes:
        out[eid] = {"name": name, "dept": "Sales", "rating": proposed}
    out[F.transfer.id] = {"name": F.transfer.name, "dept": "Engineering", "rating": F.transfer.rating}
    out[F.marketing.id] = {"name": F.marketing.name, "dept": "Marketing", "rating": F.marketing.proposed}
    return out


def main() -> None:
    specials = special()
    ids = [f"E-{n}" for n in range(1001, 1321 + 1) if f"E-{n}" not in specials and f"E-{n}" != F.late.id]
    rng.shuffle(ids)
    used_names = set(RESERVED) | {s["name"] for s in specials.values()} | {F.late.name}
    for managers in MANAGERS.values():
        used_names |= set(managers)

    def new_name() -> str:
        while True:
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if name not in used_names:
                used_names.add(name)
                return name

    rows: list[dict[str, str]] = []
    for dept in F.ratings.departments:
        counts = list(F.ratings.pre[dept])
        mine = {eid: s for eid, s in specials.items() if s["dept"] == dept}
        for s in mine.values():
            counts[LABELS.index(s["rating"])] -= 1
        pool = [label for label, n in zip(LABELS, counts) for _ in range(n)]
        rng.shuffle(pool)
        people = [(eid, s["name"], s["rating"], "eligible") for eid, s in sorted(mine.items())]
        people += [(ids.pop(), new_name(), label, "eligible") for label in pool]
        rated, unrated, missing = INELIGIBLE[dept]
        people += [(ids.pop(), new_name(), rng.choice(LABELS[:2]), "recent") for _ in range(rated)]
        people += [(ids.pop(), new_name(), "", "recent") for _ in range(unrated)]
        people += [(ids.pop(), new_name(), "", "leave") for _ in range(missing)]
        if dept == "Sales":
            people.append((F.late.id, F.late.name, "", "late"))
        for eid, name, rating, kind in people:
            if kind == "recent":
                hired = f"2025-{rng.randrange(10, 13):02d}-{rng.randrange(1, 29):02d}"
            else:
                hired = f"{rng.randrange(2014, 2025)}-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}"
            note = {"leave": "On extended leave - not rated", "late": "", "recent": "Joined this cycle"}.get(
                kind, rng.choice(NOTES)
            )
            rows.append({
                "Employee ID": eid, "Name": name, "Department": dept, "Level": f"L{rng.randrange(1, 7)}",
                "Manager": F.sales.lena_manager if eid == F.sales.changes[0][0] else rng.choice(MANAGERS[dept]),
                "Hire Date": hired, "Proposed Rating": rating, "Calibrated Rating": "",
                "Promotion Nominated": "yes" if rating == LABELS[0] and rng.random() < 0.5 else "no",
                "Notes": note,
            })  # fmt: skip
    rng.shuffle(rows)
    assert len(rows) == 320 and len({r["Employee ID"] for r in rows}) == 320 and len({r["Name"] for r in rows}) == 320
    for dept in F.ratings.departments:
        eligible = [r for r in rows if r["Department"] == dept and r["Proposed Rating"] and r["Hire Date"] <= F.guideline.hired_by]  # fmt: skip
        assert [sum(r["Proposed Rating"] == label for r in eligible) for label in LABELS] == list(F.ratings.pre[dept])
    with (HERE / "seed/background_ratings.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
