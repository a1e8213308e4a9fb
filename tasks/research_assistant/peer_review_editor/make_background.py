"""Regenerate the managing editor's busy world deterministically (run once; the outputs are committed).

    python tasks/research_assistant/peer_review_editor/make_background.py

Produces, with a fixed seed:

- seed/background_mail.csv (date, from, to, cc, subject, body): ~250 mails in Hannah's INBOX from
  5 January to the morning of 2 February 2026 - EditFlow notifications for forty other submissions,
  reviewers answering invitations for other manuscripts (look-alike ids such as ESL-2026-0471 and
  ESL-2026-0147), authors chasing other papers, colleagues' threads, newsletters.
- seed/pool.csv: the reviewer pool - the nine candidates of facts.toml [pool] for the manuscript's
  topic and ~40 reviewers of other topics.
- seed/manuscripts.csv: ESL-2026-0417 (facts.toml [ms]) and forty other submissions.
- seed/reviews.csv: the review tracker - every other submission's reviewers and 0417's R1/R2.

What the checkers and the solution rely on, kept by construction: no background mail names
ESL-2026-0417, its authors (Quintero, Vidal, Benali) or any of the nine topic candidates (name or
address), and none carries an attachment; no other pool row has the topic of 0417 (so the
eligible reviewer is unique on day 1 and on day 2); no other submission has 0417's title words.
"""

from __future__ import annotations

import csv
import random
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from pytest_clawmark.taskfiles import TaskFolder

HERE = Path(__file__).parent
F = TaskFolder(__file__).facts
SEED = 20260202
DOMAIN = F.domain
USER = f"hannah.lindqvist@{DOMAIN}"
DANIEL, MEI, OWEN, LUCIA = (f"{n}@{DOMAIN}" for n in ("daniel.achebe", "mei.tanaka", "owen.pratt", "lucia.ferro"))
NAMES = {DANIEL: "Daniel Achebe", MEI: "Mei Tanaka", OWEN: "Owen Pratt", LUCIA: "Lucia Ferro"}
EDITFLOW = f"EditFlow <editflow@{DOMAIN}>"
FORBIDDEN = ("0417", "Quintero", "Vidal", "Benali", *(F.pool[k].name.split()[-1] for k in F.pool),
             *(F.pool[k].email for k in F.pool))  # fmt: skip

rng = random.Random(SEED)
UTC = timezone.utc

TOPICS = [
    "seagrass ecology", "estuarine hydrodynamics", "sediment transport", "phytoplankton dynamics",
    "coastal fisheries", "mangrove carbon", "microplastics", "estuarine benthos", "tidal flat morphology",
    "harmful algal blooms", "oyster reef restoration", "coastal groundwater",
]  # fmt: skip
FIRST = ["Alex", "Bea", "Carlos", "Dana", "Eitan", "Fatima", "Goran", "Hiro", "Ines", "Jakob", "Kira", "Luis",
         "Maya", "Nils", "Olga", "Pedro", "Quinn", "Rosa", "Sven", "Tara", "Uma", "Viktor", "Wen", "Yara", "Zeno"]  # fmt: skip
LAST = ["Almeida", "Berg", "Castillo", "Dubois", "Engel", "Farah", "Grimaldi", "Holm", "Ivanova", "Jensen",
        "Kaur", "Larsen", "Moreau", "Nakamura", "Okafor", "Petrov", "Rahman", "Silva", "Tran", "Urquhart",
        "Varga", "Weber", "Xu", "Yilmaz", "Zielinski"]  # fmt: skip
PLACES = ["Tidewater University", "North Sea Institute", "Gulf Coast Lab", "Wadden Research Station",
          "Atlantic Shelf Centre", "Pacific Estuaries Lab", "Mediterranean Marine Institute", "Baltic Field Station"]  # fmt: skip
TITLE_WORDS = [
    ("Seasonal", "Long-term", "Spatial", "Storm-driven", "Tidal", "Interannual"),
    ("variability in", "controls on", "drivers of", "patterns of", "responses of"),
    ("seagrass cover", "estuarine turbidity", "benthic diversity", "chlorophyll a", "oyster recruitment",
     "mangrove carbon stocks", "microplastic loads", "tidal flat elevation", "algal toxin levels"),
    ("in a temperate estuary", "along a salinity gradient", "after a major flood", "in a eutrophic lagoon",
     "across three river mouths", "under sea-level rise"),
]  # fmt: skip


def person() -> tuple[str, str, str]:
    first, last = FIRST[rng.randrange(len(FIRST))], LAST[rng.randrange(len(LAST))]
    inst = PLACES[rng.randrange(len(PLACES))]
    host = inst.lower().split()[0] + "-" + inst.lower().split()[1][:4] + ".example"
    return f"{first} {last}", f"{first[0].lower()}.{last.lower()}@{host}", inst


# -- the pool ---------------------------------------------------------------------------------------
POOL: list[list[str]] = []
seen_names: set[str] = set()
for k in F.pool:
    p = F.pool[k]
    POOL.append([p.name, p.email, p.institution, F.ms.topic, str(p.active), p.last_invited, p.coauthors])
while len(POOL) < 50:
    name, email, inst = person()
    if name in seen_names:
        continue
    seen_names.add(name)
    topic = TOPICS[rng.randrange(len(TOPICS))]
    last = date(2025, 3, 1) + timedelta(days=rng.randrange(320))
    co = f"{FIRST[rng.randrange(len(FIRST))][0]}. {LAST[rng.randrange(len(LAST))]}"
    POOL.append([name, email, inst, topic, str(rng.randrange(3)), last.isoformat(), co])
OTHER_REVIEWERS = POOL[len(F.pool) :]

# -- other submissions ---------------------------------------------------------------------------------
NUMBERS = sorted(set(rng.sample([n for n in range(300, 480) if n != 417], 38)) | {147, 407, 414, 471})  # look-alikes
MSS: list[list[str]] = []
REVIEWS: list[list[str]] = []
STATUSES = ["submitted", "under review", "under review", "under review", "decision pending", "minor revision", "major revision", "accepted", "rejected"]  # fmt: skip
for n in NUMBERS:
    mid = f"ESL-2026-{n:04d}"
    title = " ".join(words[rng.randrange(len(words))] for words in TITLE_WORDS)
    author, email, inst = person()
    status = STATUSES[rng.randrange(len(STATUSES))]
    submitted = date(2025, 11, 1) + timedelta(days=rng.randrange(85))
    editor = ["Mei Tanaka", "Daniel Achebe"][rng.randrange(2)]
    MSS.append(
        [
            mid,
            title,
            author,
            email,
            author,
            inst,
            TOPICS[rng.randrange(len(TOPICS))],
            editor,
            status,
            submitted.isoformat(),
        ]
    )
    if status != "submitted":
        for j in range(2):
            r = OTHER_REVIEWERS[rng.randrange(len(OTHER_REVIEWERS))]
            invited = submitted + timedelta(days=3 + j)
            rstatus = {"under review": ["invited", "accepted"][rng.randrange(2)], "decision pending": "received"}.get(
                status, "received"
            )
            rec = (
                ""
                if rstatus != "received"
                else ["minor revision", "major revision", "accept", "reject"][rng.randrange(4)]
            )
            REVIEWS.append(
                [mid, r[0], r[1], invited.isoformat(), (invited + timedelta(days=21)).isoformat(), rstatus, rec]
            )
M, S = F.ms, F.pool
MSS.append(
    [
        M.id,
        M.title,
        M.author,
        M.author_email,
        M.authors,
        M.institutions,
        M.topic,
        "Mei Tanaka",
        "under review",
        "2026-01-02",
    ]
)
MSS.sort()
REVIEWS.append([M.id, S.solberg.name, S.solberg.email, S.solberg.last_invited, "2026-01-26", "accepted", ""])
REVIEWS.append([M.id, S.merriman.name, S.merriman.email, S.merriman.last_invited, "2026-01-26", "invited", ""])
REVIEWS.sort(key=lambda r: (r[0], r[3], r[1]))

# -- mails ---------------------------------------------------------------------------------------------
MAILS: list[tuple[str, str, str, str, str, str]] = []


def mail(day: date, sender: str, subject: str, body: str, cc: str = "", hour: int | None = None) -> None:
    hour = rng.randrange(7, 19) if hour is None else hour
    when = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=UTC)
    MAILS.append((when.isoformat(), sender, USER, cc, subject, body))


START, END = date(2026, 1, 5), date(2026, 2, 2)
DAYS = [START + timedelta(days=i) for i in range((END - START).days)]
WORKDAYS = [d for d in DAYS if d.weekday() < 5]


def pick(seq: list | tuple):  # type: ignore[type-arg]
    return seq[rng.randrange(len(seq))]


for d in WORKDAYS:  # EditFlow: the journal system's notices about other submissions
    for _ in range(rng.randrange(5, 9)):
        ms = pick(MSS)
        if ms[0] == M.id:
            continue
        kind = rng.randrange(5)
        subject, body = [
            (f"New submission {ms[0]}", f"A new manuscript was submitted: {ms[0]} \"{ms[1]}\" by {ms[2]}. Assign a handling editor in EditFlow."),
            (f"Reviewer agreed: {ms[0]}", f"A reviewer agreed to review {ms[0]}. The review is due in 21 days."),
            (f"Review submitted: {ms[0]}", f"A review was submitted for {ms[0]} \"{ms[1]}\". Log in to EditFlow to read it."),
            (f"Revision received: {ms[0]}", f"The authors of {ms[0]} submitted a revision and a response letter."),
            (f"Reminder: review overdue for {ms[0]}", f"A review for {ms[0]} is {rng.randrange(2, 15)} days overdue. EditFlow sent the reviewer an automatic reminder."),
        ][kind]  # fmt: skip
        mail(d, EDITFLOW, subject, body)
for _ in range(40):  # reviewers answering invitations for other manuscripts
    ms, r = pick(MSS), pick(OTHER_REVIEWERS)
    if ms[0] == M.id:
        continue
    yes = rng.random() < 0.6
    mail(pick(WORKDAYS), f"{r[0]} <{r[1]}>", f"Re: Invitation to review {ms[0]}",
         f"Dear Dr Lindqvist,\n\n{'I am happy to review this manuscript and will send my report within three weeks.' if yes else 'Unfortunately I cannot take this on at the moment; I have too many commitments this term.'}\n\nBest regards,\n{r[0]}")  # fmt: skip
for _ in range(14):  # authors chasing other papers
    ms = pick(MSS)
    if ms[0] == M.id:
        continue
    mail(pick(WORKDAYS), f"{ms[2]} <{ms[3]}>", f"Status of {ms[0]}",
         f"Dear Editor,\n\nCould you let me know where our manuscript {ms[0]} stands? It has been under review for some weeks.\n\nKind regards,\n{ms[2]}")  # fmt: skip
NEWS = [
    ("Crossref Update <news@crossref-news.example>", "Crossref update: metadata tips for {m}", "Richer references, funder ids and ORCID in your deposits. Webinar next week."),
    ("COPE Digest <digest@cope-digest.example>", "COPE Digest {m}: reviewer misconduct case studies", "This month: paper mills, reviewer rings, and a flowchart for undisclosed conflicts of interest."),
    ("Northfield Society <news@northfield-society.example>", "Society news: annual meeting call for sessions", "The annual meeting in Bergen welcomes session proposals until 31 March."),
    ("Journal Metrics <noreply@journalmetrics.example>", "Your journal's monthly metrics", "Submissions, time to first decision and downloads for last month are ready."),
    ("Peer Review Week <hello@peerreviewweek.example>", "Peer Review Week {m}: save the date", "Theme announcement and a call for events."),
]  # fmt: skip
for d in WORKDAYS[::2]:
    sender, subject, body = pick(NEWS)
    mail(d, sender, subject.format(m=f"{d:%B}"), body, hour=6)
THREADS = [
    (DANIEL, "Special issue on blue carbon", ["Guest editors have confirmed; call for papers goes out on the 15th.", "Can you set up the special-issue section in EditFlow?", "Thanks, all set."]),
    (DANIEL, "Editorial board meeting agenda", ["Draft agenda attached to the board site: metrics, reviewer pool renewal, APC waivers.", "Adding an item on reviewer fatigue."]),
    (MEI, "Reviewer pool renewal", ["I'd like to add twenty early-career reviewers this spring.", "The pool spreadsheet export is on the shared drive.", "Let's discuss at the board meeting."]),
    (MEI, "Handling load this quarter", ["I'm at 14 active manuscripts - can new coastal fisheries ones go to Daniel for a month?", "Thanks, much appreciated."]),
    (OWEN, "EditFlow templates", ["I've updated the reminder templates; the overdue one now goes at +3 days.", "Decision letter template v4 is live."]),
    (OWEN, "Backlog of unassigned submissions", ["Six new submissions have no handling editor yet.", "Down to two after this morning."]),
    (LUCIA, "Production schedule - issue 2", ["Issue 2 closes on 20 February; eleven papers in production.", "Two proofs are late from authors.", "Proofs in, we're on track."]),
    (LUCIA, "Typesetter invoice", ["The December invoice is 6% over the estimate because of colour figures.", "Finance have approved it."]),
    (DANIEL, "APC waiver requests", ["Three waiver requests this month, all from eligible countries.", "Approved all three."]),
]  # fmt: skip
for sender, subject, steps in THREADS:
    d = WORKDAYS[rng.randrange(len(WORKDAYS) - 3 * len(steps))]
    for k, text in enumerate(steps):
        mail(
            d,
            f"{NAMES[sender]} <{sender}>",
            subject if k == 0 else f"Re: {subject}",
            f"Hannah,\n{text}\n{NAMES[sender].split()[0]}",
        )
        d = WORKDAYS[min(WORKDAYS.index(d) + rng.randrange(1, 4), len(WORKDAYS) - 1)]
for d in WORKDAYS:
    if rng.random() < 0.5:
        who = pick(list(NAMES))
        topic = pick(
            [
                "the weekly submissions report",
                "a reviewer who asked for an extension",
                "the board pack",
                "a query from the publisher",
                "the APC invoice run",
            ]
        )
        mail(d, f"{NAMES[who]} <{who}>", f"Quick one: {topic}", f"Hannah,\ncan you take a look at {topic} when you have a minute? Nothing urgent.\n{NAMES[who].split()[0]}")  # fmt: skip
for d in WORKDAYS[::5]:
    mail(d, f"EditFlow <editflow@{DOMAIN}>", f"Weekly editorial report - week {d.isocalendar()[1]}",
         f"New submissions: {rng.randrange(6, 15)}. Decisions: {rng.randrange(4, 12)}. Median time to first decision: {rng.randrange(38, 61)} days.", hour=6)  # fmt: skip

MAILS.sort()
for row in MAILS:
    text = " ".join(row)
    assert not any(f.lower() in text.lower() for f in FORBIDDEN), row


def write(name: str, header: list[str], rows: list[list[str]] | list[tuple[str, ...]]) -> None:
    with open(HERE / "seed" / name, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def main() -> None:
    write("background_mail.csv", ["date", "from", "to", "cc", "subject", "body"], MAILS)
    write(
        "pool.csv",
        ["Name", "Email", "Institution", "Expertise", "Active Reviews", "Last Invited", "Recent Co-authors"],
        POOL,
    )
    write("manuscripts.csv", ["Manuscript ID", "Title", "Corresponding Author", "Author Email", "Authors", "Institutions",
                              "Topic", "Handling Editor", "Status", "Submitted"], MSS)  # fmt: skip
    write("reviews.csv", ["Manuscript", "Reviewer", "Email", "Invited", "Due", "Status", "Recommendation"], REVIEWS)
    print(len(MAILS), "mails,", len(POOL), "pool rows,", len(MSS), "manuscripts,", len(REVIEWS), "reviews")


if __name__ == "__main__":
    main()
