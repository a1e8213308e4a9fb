"""``baseline:keyword-stuff`` — writes every word of the day's message and mails everywhere.

The shortcut it imitates: an agent that answers keyword-hunting graders by covering every text
field with every term it was given. Each day it collects every word and number of the wake-up
message and of all INBOX mails (ids, amounts, names, dates as written) and writes them

- into every rich-text property of every KB row, and as the title of one new row per database;
- into every cell of every spreadsheet column that is empty below its header;
- into a file for every deliverable name the message mentions (``*.csv``, ``*.json``, ``*.md``...):
  the words one per line for CSV/text, ``{"text": ..., "words": [...]}`` for JSON.

Why it exists: a checker that looks for a term in prose ("the note mentions 2.5 mg", "the memo
names the clause") is satisfied by it. The corpus gate requires it to score at most 10% on every
task, so checkers compare structured values — a cell equal to a figure, a field equal to an id.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from .agent import BaselineAgent
from .toolkit import MAX_CELL, Toolkit, cell, deliverables, dumps, rich_text, words


class KeywordStuffAgent(BaselineAgent):
    name = "baseline:keyword-stuff"

    def act(self, kit: Toolkit, message: str, day: int, clock: datetime) -> None:
        mails = kit.attempt("imap.fetch_inbox", kit.inbox) or []
        found = words(message, *(f"{m.subject}\n{m.text}" for m in mails))
        blob = " ".join(found)[:MAX_CELL]
        self.stuff_kb(kit, blob)
        self.stuff_sheets(kit, blob)
        for target in deliverables(message):
            suffix = PurePosixPath(target).suffix.lower()
            data = dumps({"text": blob, "words": found}) if suffix == ".json" else ("\n".join(found) + "\n").encode()
            kit.attempt("fs.write", kit.write_file, target, data, summary=target)

    def stuff_kb(self, kit: Toolkit, blob: str) -> None:
        for db in kit.attempt("kb.list_databases", kit.databases) or []:
            texts = sorted(n for n, k in db.types.items() if k == "rich_text")
            if texts:
                props = {n: {"rich_text": rich_text(blob)} for n in texts}
                for row in kit.attempt("kb.query", kit.rows, db, summary=db.title) or []:
                    kit.attempt("kb.update_page", kit.update_page, row["id"], props, summary=f"{db.title}: {texts}")
            title = next((n for n, k in sorted(db.types.items()) if k == "title"), None)
            if title:
                new: dict[str, Any] = {title: {"title": rich_text(blob[:2000])}}
                new.update({n: {"rich_text": rich_text(blob)} for n in texts})
                kit.attempt("kb.create_page", kit.create_row, db, new, summary=db.title)

    def stuff_sheets(self, kit: Toolkit, blob: str) -> None:
        for sid, title in kit.attempt("sheets.list", kit.spreadsheets) or []:
            for tab in kit.attempt("sheets.get", kit.tabs, sid, summary=title) or []:
                rows = kit.attempt("sheets.values.get", kit.grid, sid, tab, summary=f"{title}/{tab}") or []
                if len(rows) < 2:
                    continue
                header = rows[0]
                cells: dict[str, Any] = {}
                for col, name in enumerate(header):
                    if not str(name).strip():
                        continue
                    if any(col < len(r) and str(r[col]).strip() for r in rows[1:]):
                        continue
                    for n, row in enumerate(rows[1:], start=2):
                        if any(str(v).strip() for v in row):
                            cells[cell(tab, col, n)] = blob
                if cells:
                    kit.attempt("sheets.values.batchUpdate", kit.write_cells, sid, cells, summary=f"{title}/{tab}")
