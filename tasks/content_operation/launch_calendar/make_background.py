"""Regenerate Ines's busy inbox and month deterministically (run once; the outputs are committed).

    python tasks/content_operation/launch_calendar/make_background.py

Produces, with a fixed seed:

- seed/background_mail.csv (date, from, to, cc, subject, body): ~400 mails in her INBOX from
  4 August to the morning of 8 September — newsletters, the scheduler's and the DAM's
  notifications, colleagues' threads (the Harbor Max launch that just ended, the Reef Buds one
  coming), agencies, partners and the press; Kai, Ana and Jonas write about other campaigns too
  (other copy and post ids: HM-..., RB-...).
- seed/background_calendar.csv (date, start, end, summary, attendees, location; CEST): her month,
  25 August - 26 September — stand-ups, planning, reviews, 1:1s, IFA, shoots, focus blocks, and
  the Harbor Max launch's own embargo and publish entries.

What the checkers rely on, kept by construction: no background mail goes to an outside address
or carries an attachment; none names the Driftwood Mini's SKU or prices, a copy or post id of
this launch (C-0x, P-0x) or the launch's embargo; no background event is called "Publish P-0x"
or "Driftwood Mini press embargo lifts".
"""

from __future__ import annotations

import csv
import random
import re
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).parent
SEED = 20250908
DOMAIN = "tidewater.example"
CEST = timezone(timedelta(hours=2))
USER = f"ines.moreau@{DOMAIN}"
KAI, ANA, JONAS, MARTA = (f"{n}@{DOMAIN}" for n in ("kai.nakamura", "ana.costa", "jonas.berg", "marta.silva"))
PEOPLE = {KAI: "Kai", ANA: "Ana", JONAS: "Jonas", MARTA: "Marta"}
FORBIDDEN = re.compile(r"TW-DM|\b1[24]9\b|(?<![\w-])[CP]-0\d|Driftwood Mini press embargo|Publish P-", re.I)

rng = random.Random(SEED)
MAILS: list[tuple[str, str, str, str, str, str]] = []


def pick(seq: list[str] | tuple[str, ...]) -> str:
    return seq[rng.randrange(len(seq))]


def mail(day: date, hour: int, sender: str, subject: str, body: str, cc: str = "") -> None:
    when = datetime(day.year, day.month, day.day, hour, rng.randrange(60), tzinfo=CEST)
    MAILS.append((when.isoformat(), sender, USER, cc, subject, body))


START, END = date(2025, 8, 4), date(2025, 9, 8)
DAYS = [START + timedelta(days=i) for i in range((END - START).days + 1)]
WORKDAYS = [d for d in DAYS if d.weekday() < 5 and d != END]


def later(d: date, n: int) -> date:
    return WORKDAYS[min(WORKDAYS.index(d) + n, len(WORKDAYS) - 1)]


# -- newsletters and tools from outside ----------------------------------------------------------------
TOPICS = [
    "short-form video hooks that hold past 3 seconds", "why carousels are back", "the new creator marketplace rules",
    "posting cadence benchmarks for consumer tech", "UGC rights: what brands get wrong", "alt text at scale",
    "LinkedIn's document posts, six months on", "newsletter open rates after the privacy changes", "TikTok Shop in Europe",
    "audio brands on Instagram: a teardown", "caption length and saves", "AI dubbing for product reels",
]  # fmt: skip
for d in WORKDAYS:
    mail(d, 7, "SocialPulse <digest@socialpulse.example>", f"SocialPulse Daily: {pick(TOPICS)}",
         f"Today: {pick(TOPICS)}, plus {pick(TOPICS)}. Read online at socialpulse.example.")  # fmt: skip
    mail(d, 18, "Postwise <notifications@postwise.example>", f"Postwise: {rng.randrange(2, 9)} posts published today",
         f"Tidewater Audio workspace: {rng.randrange(2, 9)} posts went live across Instagram, LinkedIn and the newsletter. Engagement summary in the app.")  # fmt: skip
for k, d in enumerate(d for d in DAYS if d.weekday() == 3):
    mail(d, 8, "Creator Economy Weekly <hello@creatorweekly.example>", f"Creator Economy Weekly #{88 + k}",
         f"This week: {pick(TOPICS)}; rate cards for mid-tier creators; a brand deal teardown.")  # fmt: skip
    mail(d, 10, "AudioTech Insider <news@audiotechinsider.example>", pick(["IFA preview: the speakers to watch", "Portable audio sales up 6% in H1", "Waterproof ratings explained", "Retailers trim audio ranges for Q4", "Earbud prices slide ahead of holidays"]),
         "News and analysis for the consumer audio industry. Forwarded? Subscribe at audiotechinsider.example.")  # fmt: skip
for d in DAYS:
    if d.weekday() == 0:
        mail(d, 6, "Postwise <reports@postwise.example>", f"Weekly social report: {d - timedelta(days=7):%d %b} - {d - timedelta(days=1):%d %b}",
             f"Reach {rng.randrange(180, 420)}k, engagement rate {rng.randrange(21, 48) / 10:.1f}%, top post: {pick(['a Harbor Max unboxing', 'the beach speaker carousel', 'the Reef Buds sneak peek', 'a studio behind-the-scenes'])}.")  # fmt: skip
    if rng.random() < 0.4:
        mail(d, rng.randrange(9, 21), "Linkd <notifications@linkd.example>", pick(["You have 3 new profile views", "Someone mentioned you in a comment", f"Your post reached {rng.randrange(800, 4000)} people"]),
             "See the activity on Linkd.")  # fmt: skip

# -- systems from inside ------------------------------------------------------------------------------
ASSETS = ["Harbor Max lifestyle 03", "Reef Buds colourways", "studio BTS cut", "retail banner 1200x628", "founder quote card", "summer sale story frames"]  # fmt: skip
for d in WORKDAYS:
    for _ in range(rng.randrange(1, 4)):
        a = pick(ASSETS)
        mail(d, rng.randrange(9, 19), f"DAM <dam-noreply@{DOMAIN}>", pick([f"Asset uploaded: {a}", f"Asset approved: {a}", f"Comment on {a}"]),
             f"{pick(['Kai Nakamura', 'Lea Fischer', 'Tomas Rivas'])} {pick(['uploaded a new version of', 'approved', 'commented on'])} \"{a}\". Open it in the DAM.")  # fmt: skip
    for _ in range(rng.randrange(1, 3)):
        n = rng.randrange(400, 799)
        mail(d, rng.randrange(9, 19), f"Tracker <tracker-noreply@{DOMAIN}>", f"[CONTENT-{n}] {pick(['Alt text for Reef Buds gallery', 'Resize Harbor Max banners', 'Translate FAQ to German', 'Fix broken link in blog footer', 'Update retailer logos', 'Subtitle the studio BTS cut'])}",
             f"CONTENT-{n} moved to {pick(['In progress', 'Review', 'Done', 'Blocked'])} by {pick(['Lea Fischer', 'Tomas Rivas', 'Noor Haddad', 'Kai Nakamura'])}.")  # fmt: skip
    if rng.random() < 0.3:
        mail(d, rng.randrange(9, 18), f"IT Helpdesk <helpdesk@{DOMAIN}>", pick(["Scheduled maintenance: DAM tonight 22:00", "Your password expires in 7 days", "New VPN client available", f"Ticket HD-{rng.randrange(3000, 3999)} resolved"]),
             "Details on the intranet. Reply to this mail if you need help.")  # fmt: skip
for d in DAYS[3::7]:
    mail(d, 12, f"People Team <people@{DOMAIN}>", pick(["Summer party photos are up", "Reminder: submit holiday requests for Q4", "New joiners this month", "Learning budget: last call for 2025"]),
         "More on the intranet. Thanks, People Team")  # fmt: skip

# -- colleagues' threads --------------------------------------------------------------------------------
THREADS = [
    (KAI, "Harbor Max teaser v3 - final export", ["v3 is in the shared folder, colour fixed, subtitles burned in.", "Agreed, that's the one; archiving v1 and v2."]),
    (KAI, "Reef Buds shoot - shot list", ["Shot list for the Reef Buds shoot on 16 September in the folder. Pool location confirmed.", "Added two vertical shots for stories."]),
    (KAI, "Studio BTS cut - music licence", ["The track in the BTS cut is licensed for organic only, not ads.", "Swapped for a library track; fine for paid now."]),
    (KAI, "Driftwood teaser - storyboard", ["Storyboard for the Driftwood teaser: float shot, product slide at the start, logo end card. Reel next week.", "Voice-over dropped; music only."]),
    (ANA, "Re: HM-C-02-r2", ["HM-C-02-r2 is approved as written."]),
    (ANA, "Reef Buds claims check", ["Please avoid 'waterproof' without the IP rating in the Reef Buds copy.", "With 'IPX7' added it is fine."]),
    (ANA, "Influencer contracts - disclosure wording", ["New template: #ad in the first line, not in the hashtags block.", "Template is in the legal folder."]),
    (JONAS, "Harbor Max: review embargo lifted", ["The Harbor Max reviews are live as of this morning. Thanks for holding HM-P-06 until the lift.", "Coverage roundup in the PR folder."]),
    (JONAS, "Reef Buds: press list", ["Draft press list for Reef Buds (28 outlets). Samples go out on 22 September.", "Added two podcasts."]),
    (JONAS, "Driftwood Mini: press kit", ["Press kit folder is set up: photos, fact sheet, founder quote. Embargo details will be in the shared calendar as usual.", "Fact sheet goes through Ana first."]),
    (MARTA, "Q4 content priorities", ["For Q4: Driftwood Mini launch, Reef Buds, holiday gifting. Budget split 40/35/25.", "Agreed in the leadership meeting."]),
    (MARTA, "Harbor Max launch retro", ["Retro on Thursday. What went well, what we'd change, numbers vs targets.", "Notes are in the team folder; big one: approvals too late."]),
    (MARTA, "Headcount: social editor role", ["We can open the social editor role in October.", "JD draft welcome by Friday."]),
]  # fmt: skip
EXTRA = [
    ("Lea Fischer <lea.fischer@tidewater.example>", ["Instagram grid for September", "Comment moderation rota", "Story templates v2", "Hashtag audit"]),
    ("Tomas Rivas <tomas.rivas@tidewater.example>", ["Retail banner sizes", "Reef Buds colour palette", "Font licence renewal"]),
    ("Noor Haddad <noor.haddad@tidewater.example>", ["Product page copy for Reef Buds", "Shop banners for the holiday sale", "Review widget on product pages"]),
    ("Felix Brandt <felix.brandt@tidewater.example>", ["Reef Buds spec sheet v4", "Firmware notes for the app store", "Launch readiness checklist"]),
]  # fmt: skip
for sender, subject, steps in THREADS:
    d = WORKDAYS[rng.randrange(len(WORKDAYS) - 3 * len(steps))]
    others = [p for p in PEOPLE if p != sender]
    for k, text in enumerate(steps):
        who = sender if k % 2 == 0 else pick(others)
        sub = subject if k == 0 or subject.startswith("Re:") else f"Re: {subject}"
        mail(
            d,
            rng.randrange(9, 19),
            who,
            sub,
            f"Hi Ines,\n{text}\n{PEOPLE[who]}",
            cc=pick(others) if rng.random() < 0.3 else "",
        )
        d = later(d, rng.randrange(1, 4))
for sender, subjects in EXTRA:
    first = sender.split()[0]
    for subject in subjects:
        d = pick(WORKDAYS)
        mail(
            d,
            rng.randrange(9, 19),
            sender,
            subject,
            f"Hi Ines,\ncould you have a look at the {subject.lower()} when you have a minute? Draft is in the team folder.\n{first}",
        )
        if rng.random() < 0.5:
            mail(
                later(d, 2),
                rng.randrange(9, 19),
                sender,
                f"Re: {subject}",
                f"Updated after your comments on the {subject.lower()}.\n{first}",
            )
FYI = ["weekly reach numbers", "creator shortlist", "community questions of the week", "ad spend pacing", "newsletter A/B results", "competitor post roundup"]  # fmt: skip
for d in WORKDAYS:
    for _ in range(rng.randrange(2, 5)):
        who = pick(
            list(PEOPLE)
            + ["Lea Fischer <lea.fischer@tidewater.example>", "Noor Haddad <noor.haddad@tidewater.example>"]
        )
        name = PEOPLE.get(who) or who.split()[0]
        topic = pick(FYI)
        mail(d, rng.randrange(9, 19), who, pick([f"FYI: {topic}", f"{topic.capitalize()} - week {d.isocalendar()[1]}", f"Question on the {topic}"]),
             f"Hi Ines,\n{pick(['here are the', 'sharing the', 'for info, the'])} {topic} for week {d.isocalendar()[1]}: {pick(['on track', 'two things to watch', 'slightly under target', 'better than last week'])}.\n{name}")  # fmt: skip

# -- outside business ------------------------------------------------------------------------------------
OUTSIDE = [
    ("Brightline Creative <studio@brightline.example>", ["Reef Buds key visual - round 2", "Invoice BLC-{n} for August", "Holiday campaign moodboards"], "Hi Ines, {s} is in the shared link. Feedback by Thursday would keep us on schedule. Brightline"),
    ("Maya Okafor <maya@creatorbridge.example>", ["Creator rates for Q4", "Reef Buds creator shortlist", "Contract countersigned: @saltandsound"], "Hi Ines, following up on {s}. Happy to jump on a call. Maya (CreatorBridge)"),
    ("Dana Whitfield <dana@soundcheckmag.example>", ["Harbor Max review - thanks", "Holiday gift guide submissions", "Interview request for our podcast"], "Hi Ines, {s}: could you send me the details? Best, Dana (Soundcheck)"),
    ("Klangwelt Retail <marketing@klangwelt.example>", ["Co-marketing calendar Q4", "Product feed update needed", "In-store screens: asset specs"], "Dear Ines, regarding {s}: please send assets by the end of next week. Klangwelt Partner Marketing"),
    ("Lingo Studio <projects@lingostudio.example>", ["Quote LQ-{n}: German and French subtitles", "Delivery: Harbor Max FAQ translations"], "Hello Ines, {s} attached in our portal. Lingo Studio"),
    ("Postwise <billing@postwise.example>", ["Your Postwise invoice PW-{n}", "Seat added to your workspace"], "Hi, {s}. Manage your plan in the Postwise admin."),
    ("Stockframe <noreply@stockframe.example>", ["Your licence receipt SF-{n}", "New collection: summer lifestyle"], "{s}. Thank you for licensing with Stockframe."),
]  # fmt: skip
for sender, subjects, body in OUTSIDE:
    for s in subjects:
        for _ in range(rng.randrange(1, 3)):
            subject = s.format(n=rng.randrange(1000, 9999))
            mail(pick(WORKDAYS), rng.randrange(9, 18), sender, subject, body.format(s=subject))

# -- her month ----------------------------------------------------------------------------------------------
EVENTS: list[tuple[str, str, str, str, str, str]] = []


def event(day: date, start: str, end: str, summary: str, attendees: tuple[str, ...] = (), location: str = "") -> None:
    EVENTS.append((day.isoformat(), start, end, summary, ";".join(attendees), location))


LEA, NOOR = f"lea.fischer@{DOMAIN}", f"noor.haddad@{DOMAIN}"
MONTH = [date(2025, 8, 25) + timedelta(days=i) for i in range(33)]
for d in (d for d in MONTH if d.weekday() < 5):
    wd = d.weekday()
    if d not in (date(2025, 9, 4), date(2025, 9, 5)):  # IFA
        event(d, "09:30", "09:45", "Content stand-up", (KAI, LEA), "Teams")
    if wd == 0:
        event(d, "11:00", "12:00", "Editorial planning", (KAI, LEA, NOOR), "Room Harbour")
    if wd == 1:
        event(d, "10:00", "10:30", "PR sync", (JONAS,), "Teams")
    if wd == 2:
        event(d, "15:00", "15:45", "Legal copy review", (ANA,), "Room Reef")
    if wd == 3 and d not in (date(2025, 9, 4),):
        event(d, "11:00", "12:00", "Video review", (KAI,), "Edit suite")
    if wd == 4 and d != date(2025, 9, 5):
        event(d, "14:00", "15:00", "Social performance review", (MARTA, LEA), "Room Harbour")
    if wd == 1 and d.isocalendar()[1] % 2 == 0:
        event(d, "16:00", "16:30", "Ines / Marta 1:1", (MARTA,))
    if wd in (1, 3):
        event(d, "13:30", "15:00", "Focus time: copy and calendar")
for d, s, e, summary, who, where in [
    (date(2025, 8, 26), "10:00", "10:15", "Publish HM-P-05", (), ""),
    (date(2025, 8, 27), "16:00", "17:00", "Harbor Max launch go/no-go", (MARTA, JONAS, ANA), "Room Harbour"),
    (date(2025, 8, 28), "10:00", "10:15", "Harbor Max press embargo lifts", (JONAS,), ""),
    (date(2025, 8, 28), "10:00", "10:15", "Publish HM-P-06", (), ""),
    (date(2025, 8, 29), "12:00", "13:00", "Lunch with Brightline", ("studio@brightline.example",), "Kantine am Hafen"),
    (date(2025, 9, 1), "14:00", "15:00", "Harbor Max launch retro", (MARTA, KAI, JONAS, ANA), "Room Harbour"),
    (date(2025, 9, 2), "11:00", "12:00", "Creator shortlist call", ("maya@creatorbridge.example",), "Zoom"),
    (date(2025, 9, 3), "17:00", "18:00", "Driftwood Mini launch readiness", (MARTA, JONAS, KAI, ANA), "Room Harbour"),
    (date(2025, 9, 4), "07:10", "19:00", "IFA Berlin: booth duty", (), "Messe Berlin, hall 22"),
    (date(2025, 9, 5), "08:00", "17:30", "IFA Berlin: press meetings", (JONAS,), "Messe Berlin"),
    (date(2025, 9, 8), "14:00", "14:30", "Klangwelt co-marketing call", ("marketing@klangwelt.example",), "Teams"),
    (date(2025, 9, 9), "11:00", "12:00", "Reef Buds copy workshop", (ANA, NOOR), "Room Reef"),
    (date(2025, 9, 10), "13:00", "13:45", "Lunch & learn: alt text", (LEA,), "Kitchen"),
    (date(2025, 9, 12), "10:00", "11:00", "Holiday gifting brief", (MARTA, NOOR), "Room Harbour"),
    (date(2025, 9, 15), "14:00", "15:00", "Driftwood Mini launch retro", (MARTA, KAI, JONAS, ANA), "Room Harbour"),
    (date(2025, 9, 16), "08:00", "17:00", "Reef Buds shoot", (KAI,), "Stadtbad pool"),
    (date(2025, 9, 18), "15:00", "16:00", "Agency review: Brightline", ("studio@brightline.example", MARTA), "Room Harbour"),
    (date(2025, 9, 19), "16:00", "18:00", "Team offsite planning", (MARTA,), "Room Harbour"),
    (date(2025, 9, 22), "10:00", "11:00", "Reef Buds press samples out", (JONAS,), ""),
    (date(2025, 9, 24), "09:00", "12:00", "Q4 content planning workshop", (MARTA, KAI, LEA, NOOR), "Room Harbour"),
    (date(2025, 9, 26), "15:00", "15:30", "Newsletter template review", (LEA,), "Teams"),
]:  # fmt: skip
    event(d, s, e, summary, who, where)


def main() -> None:
    MAILS.sort(key=lambda m: m[0])
    cutoff = datetime(2025, 9, 8, 8, 50, tzinfo=CEST).isoformat()
    rows = [m for m in MAILS if m[0] < cutoff]
    for m in rows:
        assert not FORBIDDEN.search(" ".join(m)), m
    EVENTS.sort()
    for e in EVENTS:
        assert not FORBIDDEN.search(" ".join(e)), e
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
