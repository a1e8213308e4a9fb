"""Regenerate the site's content inventory, traffic export and redirect history (run once; committed).

    python tasks/content_operation/seo_content_audit/make_background.py

Produces, with a fixed seed, from facts.toml ([audit] articles, [chain]) and generated rows:

- seed/inventory.csv: the KB "Content Inventory", ~300 articles of Wayfarer Ridge — the 19 Hiking
  articles of facts.toml among ~290 of the other sections (Camping, Cycling, Wild Swimming,
  Climbing, Gear Reviews, Destinations), which carry their own earlier audits' actions.
- seed/traffic.csv: the analytics export "Organic Performance Q3" (tab Pages), one row per article.
- seed/redirects.csv: the "Redirect Map" (tab Redirects): ~45 live redirects of earlier audits,
  three of them under /hiking/ (one of which, facts.toml [chain], points at a page merged now).

What the checkers and the solution rely on, kept by construction: only the 19 articles of
facts.toml have Section "Hiking"; no other slug equals or contains a Hiking slug; no generated
row has 0 sessions; the only seed redirects under /hiking/ are the three written below (none
of them points at a page the audit merges except the [chain] one).
"""

from __future__ import annotations

import csv
import random
from datetime import date, timedelta
from pathlib import Path

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
SEED = 20251006
rng = random.Random(SEED)

SECTIONS = {
    "Camping": (["wild", "family", "coastal", "forest", "winter", "budget", "lakeside", "hammock"],
                ["camping-guide", "campsites", "pitch-tips", "kit-list", "first-night", "cooking-ideas", "etiquette"]),
    "Cycling": (["gravel", "canal", "family", "hill", "coastal", "bikepacking", "commuter", "forest"],
                ["routes", "loops", "rides", "repair-basics", "kit-guide", "training-plan", "cafe-stops"]),
    "Wild Swimming": (["river", "lake", "sea", "winter", "tarn", "estuary", "pool", "waterfall"],
                      ["swims", "safety-notes", "spots", "cold-water-guide", "entry-points", "tide-tips"]),
    "Climbing": (["bouldering", "sport", "trad", "indoor", "sea-cliff", "gritstone", "limestone", "alpine"],
                 ["crags", "grades-explained", "first-lead", "rope-basics", "venues", "warm-ups"]),
    "Gear Reviews": (["tent", "stove", "sleeping-bag", "rucksack", "headtorch", "waterproof", "boot", "filter"],
                     ["review", "group-test", "buyers-guide", "long-term-test", "vs-comparison"]),
    "Destinations": (["cornwall", "northumberland", "galloway", "shropshire", "norfolk", "anglesey", "dorset", "fife"],
                     ["weekend", "travel-guide", "where-to-stay", "family-break", "hidden-corners", "itinerary"]),
}  # fmt: skip
AUTHORS = ["Jo Pennant", "Ade Lawal", "Ruth Carney", "Imogen Hale", "Declan Moss", "Priti Shah", "Owen Tully"]
ACTIONS = ["keep", "keep", "keep", "refresh", "refresh", "merge", "prune", ""]


def day(start: date, end: date) -> date:
    return start + timedelta(days=rng.randrange((end - start).days))


def main() -> None:
    hiking = {a[0] for a in F.audit.articles}
    inventory: list[list[object]] = []
    traffic: list[list[object]] = []
    for row in F.audit.articles:
        slug, title, cluster, published, updated, words, author, sessions, signups = row
        inventory.append([slug, title, "Hiking", cluster, published, updated, words, author, "", "", ""])
        traffic.append([f"/hiking/{slug}", "Hiking", sessions, signups, f"{rng.uniform(3, 25):.1f}"])
    seen = set(hiking)
    generated = []
    for section, (firsts, seconds) in SECTIONS.items():
        prefix = section.lower().replace(" ", "-")
        combos = [(a, b) for a in firsts for b in seconds]
        rng.shuffle(combos)
        for a, b in combos[:48]:
            slug = f"{a}-{b}"
            if slug in seen or any(h in slug for h in hiking):
                continue
            seen.add(slug)
            published = day(date(2018, 1, 1), date(2025, 6, 1))
            updated = max(published, day(date(2019, 1, 1), date(2025, 9, 30)))
            action = ACTIONS[rng.randrange(len(ACTIONS))]
            title = f"{a.replace('-', ' ').title()} {b.replace('-', ' ')}"
            sessions = rng.choice([rng.randrange(20, 300), rng.randrange(300, 1000), rng.randrange(1000, 9000)])
            generated.append(
                (
                    [slug, title, section, f"{prefix}-{a}", published.isoformat(), updated.isoformat(),
                     rng.randrange(6, 30) * 100, AUTHORS[rng.randrange(len(AUTHORS))], action, "", ""],
                    [f"/{prefix}/{slug}", section, sessions, sessions * rng.randrange(1, 5) // 100,
                     f"{rng.uniform(2, 40):.1f}"],
                )
            )  # fmt: skip
    rng.shuffle(generated)
    for inv, tra in generated:
        inventory.append(inv)
        traffic.append(tra)
    order = list(range(len(inventory)))
    rng.shuffle(order)  # the Hiking rows among the others, as a CMS export lists them
    write(
        "seed/inventory.csv",
        ["Slug", "Title", "Section", "Cluster", "Published", "Last Updated", "Word Count", "Author",
         "Audit Action", "Merge Into", "Audit Note"],
        [inventory[i] for i in order],
    )  # fmt: skip
    traffic.sort(key=lambda r: -int(r[2]))  # the export is sorted by sessions
    write(
        "seed/traffic.csv",
        ["URL", "Section", "Organic Sessions (90d)", "Newsletter Signups (90d)", "Avg Position"],
        traffic,
    )
    redirects: list[list[object]] = []
    for inv, _ in generated[:42]:
        section = str(inv[2]).lower().replace(" ", "-")
        old = f"/{section}/{inv[0]}-{rng.randrange(2016, 2021)}"
        redirects.append([old, f"/{section}/{inv[0]}", 301, "live", day(date(2021, 1, 1), date(2025, 6, 1)).isoformat(),
                          "merged in an earlier audit"])  # fmt: skip
    redirects += [
        ["/hiking/helvellyn-guide-2018", "/hiking/helvellyn-striding-edge-guide", 301, "live", "2022-06-01",
         "old guide replaced"],
        [f"/hiking/{F.chain['from']}", f"/hiking/{F.chain.old_to}", 301, "live", "2021-08-30",
         "old Peak bog piece merged"],
        ["/hiking/snowdon-routes-overview", "/hiking/snowdon-pyg-track", 301, "live", "2023-02-14",
         "overview folded into the Pyg Track guide"],
    ]  # fmt: skip
    redirects.sort(key=lambda r: str(r[4]))
    write("seed/redirects.csv", ["From", "To", "Code", "Status", "Requested", "Note"], redirects)


def write(rel: str, header: list[str], rows: list[list[object]]) -> None:
    with (HERE / rel).open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


if __name__ == "__main__":
    main()
