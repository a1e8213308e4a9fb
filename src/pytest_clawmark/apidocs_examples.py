"""One worked example per section of the admin-plane reference (docs/admin-api.md).

Why here, as code: the examples are printed in the reference and also *run*, in order, against a
real five-service world by the tests (``tests/test_cli.py``), which also check that every
method of a section is called in its example — so an example can neither rot nor skip a method.
They read as a turn setup and its checkers would: seeding, a silent change, then reads.
"""

from __future__ import annotations

WORLD = """\
world.now()                                        # the turn's in-universe clock (an aware datetime)
world.clock                                        # the same, but None before the first turn
world.backends()                                   # where each service runs: {'fs': 'local', 'kb': 'local', ...}
sorted(world.services)                             # ['calendar', 'fs', 'kb', 'mail', 'sheets']
state = world.snapshot()                           # every service's state, as JSON-able data
# every service also has snapshot(), restore(state) and audit(since=0): the agent's requests, in order
before = world.fs.snapshot()
world.fs.restore(before)
assert world.mail.audit() == []                    # nothing the admin plane does is audited as the agent's
with world.batched():                              # as the harness runs every turn setup: many writes, stored
    world.fs.write("notes/setup.md", "seeded")     # together where a service can (mail); reads inside see all
"""

FS = """\
world.fs.root                                      # the workspace folder (also world.workspace)
world.fs.write("inbox/brief.md", "# Brief\\nCall Mira.")
world.fs.write("data/items.csv", "Item,Cost\\nBanner,300\\n")
world.fs.add(world.fs.path("inbox/brief.md"), "archive/")   # evidence: usually world.task_dir / "evidence"
assert world.fs.exists("archive/brief.md")
world.fs.remove("archive/brief.md", silent="brief_withdrawn")
world.fs.write("out/result.json", '{"total": 300}')
assert world.fs.read_json("out/result.json")["total"] == 300
assert world.fs.read_bytes("inbox/brief.md").startswith(b"# Brief")
assert "Call Mira" in world.fs.read_text("inbox/brief.md")
assert world.fs.read_csv("data/items.csv", required=("Item", "Cost"))[0]["Cost"] == "300"
assert world.fs.listing("inbox") == ["inbox/brief.md"]
"""

MAIL = """\
world.mail.imap_port, world.mail.smtp_port         # where the agent's clients connect
mira = world.people[0]
mid = world.mail.deliver(mira, [world.user], "Prices", "New prices attached.")
world.mail.set_flags(world.user, mid, add=["\\\\Seen"])
world.mail.deliver(mira, [world.user], "Recall: Prices", "Please ignore my last mail.")
world.mail.remove(world.user, mid, silent="mail_recalled")
assert world.mail.folders(world.user)[0] == "INBOX"
assert [m.subject for m in world.mail.inbox()] == ["Recall: Prices"]
assert world.mail.sent() == [] and world.mail.outside() == []   # nothing sent yet, nothing left the company
assert world.mail.find_all(mailbox=world.user.email, subject="recall", exact=False)
assert world.mail.find(mailbox=world.user.email, sender=mira).text.startswith("Please ignore")
# a mail file of the task's folder (From/To/Subject/Attachments, a blank line, the body; {{ facts }} filled in)
with world.mail.batch():                           # many deliveries, one store visit (reads inside see them)
    world.mail.deliver_file("mail/day1_quote.txt")
assert world.mail.find(mailbox=world.user.email, subject="Quote Q-7").text.startswith("The quote is 1200 EUR")
"""

CALENDAR = """\
world.calendar.url                                 # the CalDAV root the agent's client uses
path = world.calendar.create_calendar("projects", display_name="Projects")
ev = world.calendar.add_event("Launch review", "2025-04-09T14:00:00+02:00", "2025-04-09T15:00:00+02:00",
                              attendees=[world.people[0]], location="Room 2")
world.calendar.move_event("Launch review", "2025-04-10T14:00:00+02:00", "2025-04-10T15:00:00+02:00", silent="review_moved")
world.calendar.add_event("Old sync", "2025-04-09T09:00:00+02:00", "2025-04-09T09:30:00+02:00", uid="old-sync", calendar="projects")
world.calendar.cancel_event("old-sync")                                  # STATUS:CANCELLED, still listed
world.calendar.delete_event("old-sync", calendar="projects")             # gone outright
assert path in world.calendar.calendars() and world.calendar.calendar_names()[path] == "Projects"
assert [e.summary for e in world.calendar.events(start="2025-04-07", end="2025-04-12")] == ["Launch review"]
assert world.calendar.event("Launch review", uid=ev.uid).sequence == 1   # moved once
world.calendar.delete_calendar("projects")
"""

KB = """\
world.kb.url                                       # notion-client's base_url
world.kb.create_database("Vendors", {"Name": "title", "Status": {"select": ["Active", "On hold"]}, "Limit": "number"},
                         rows=[{"Name": "Acme", "Status": "Active", "Limit": 5000}])
world.kb.add_row("Vendors", {"Name": "Globex", "Status": "Active", "Limit": 900})
world.kb.update_row("Vendors", "Globex", {"Status": "On hold"}, silent="globex_paused")
world.kb.add_row("Vendors", {"Name": "Initech"})
world.kb.delete_row("Vendors", "Initech")
world.kb.create_page("Policy", "# Payments\\nPay within 30 days.")
world.kb.append_blocks("Policy", ["- Over 5,000: two approvals."])
world.kb.add_comment("Policy", "Checked with finance.", author=world.people[0].name)
found = world.kb.notion("POST", f"/v1/databases/{world.kb.database('Vendors').id}/query", {})   # raw Notion REST
assert len(found["results"]) == 2
assert world.kb.row("Vendors", "Globex")["Status"] == "On hold"
assert [r["Name"] for r in world.kb.rows("Vendors")] == ["Acme", "Globex"]
assert world.kb.row_id("Vendors", "Acme")
assert "two approvals" in world.kb.page_text("Policy")
assert world.kb.comments("Policy")[0].text == "Checked with finance."
# from files of the task's folder: a CSV typed by the schema, a Markdown page
world.kb.database_from_csv("Suppliers", {"Name": "title", "Limit": "number"}, "seed/suppliers.csv")
world.kb.page_from_file("Rules", "seed/rules.md", author=world.people[0].name)
assert world.kb.rows("Suppliers")[0] == {"Name": "Acme", "Limit": 5000} and "Pay within" in world.kb.page_text("Rules")
"""

SHEETS = """\
world.sheets.url                                   # the Sheets v4 / Drive v3 base URL
sid = world.sheets.create_spreadsheet("Budget", {"Items": [["Item", "Cost"], ["Banner", 300]], "Summary": [["Total", "=SUM(Items!B:B)"]]})
world.sheets.set_values("Budget", "Items!A3", [["Flyers", 120]])
world.sheets.append_rows("Budget", "Items", [["Stickers", 40]])
world.sheets.update_row("Budget", "Items", "Item", "Banner", {"Cost": 350}, silent="banner_repriced")
world.sheets.delete_row("Budget", "Items", "Item", "Stickers")
world.sheets.batch_update("Budget", [{"addSheet": {"properties": {"title": "Notes"}}}])
world.sheets.create_spreadsheet("Scratch")
world.sheets.delete_spreadsheet("Scratch")                 # gone outright, as Drive's files.delete: not trashed
assert world.sheets.by_id(sid).info().title == "Budget"
assert [(s.title, s.trashed) for s in world.sheets.spreadsheets()] == [("Budget", False)]
assert world.sheets.spreadsheet("Budget").sheets == ("Items", "Summary", "Notes")
assert world.sheets.values("Budget", "Items!A1:B2") == [["Item", "Cost"], ["Banner", 350]]
assert world.sheets.value("Budget", "Summary!B1") == 470
assert world.sheets.rows("Budget", "Items")[1] == {"Item": "Flyers", "Cost": 120}
assert world.sheets.row("Budget", "Items", "Item", "Banner")["Cost"] == 350
world.sheets.spreadsheet_from_csv("Orders", {"Open": "seed/orders.csv"})   # tabs from CSV files, typed in as a person would
assert world.sheets.rows("Orders", "Open") == [{"Order": "PO-1", "Amount": 120}]
"""

SHEET_HANDLE = """\
sheet = world.sheets.by_id(sid)                    # e.g. an id a task's data names
assert sheet.exists() and sheet.info().sheets[0] == "Items"
sheet.set_values("Notes!A1", [["=1+1", "0012"]], input="RAW")   # strings stay strings
sheet.append("Notes!A1", [["second line"]])
assert sheet.values("Notes") == [["=1+1", "0012"], ["second line"]]
"""

EXAMPLES: dict[str, str] = {
    "world": WORLD,
    "world.fs": FS,
    "world.mail": MAIL,
    "world.calendar": CALENDAR,
    "world.kb": KB,
    "world.sheets": SHEETS,
    "world.sheets.by_id(id)": SHEET_HANDLE,
}
"""Section title → its example, run in this order against one world (later ones use earlier names)."""

TASK_FILES: dict[str, str] = {
    "mail/day1_quote.txt": "From: Mira Stone <mira@corp.example>\nTo: Sam Rivera <sam@corp.example>\nSubject: Quote Q-7\n\nThe quote is {{ quote.total }} EUR.\n",
    "seed/suppliers.csv": "Name,Limit\nAcme,5000\n",
    "seed/rules.md": "# Payments\n\nPay within {{ quote.days }} days.\n",
    "seed/orders.csv": "Order,Amount\nPO-1,120\n",
    "facts.toml": "[quote]\ntotal = 1200\ndays = 30\n",
}
"""The task folder the examples' loaders read (the tests write it, then run the examples)."""
