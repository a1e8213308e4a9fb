"""``baseline:status-flip`` — sets every status it can find to a positive value, every day.

The shortcut it imitates: an agent that has learnt that work ends with a row marked "done" and
marks every row so, without checking anything. It sets every select, status and checkbox property
of every KB database (to the first positive option the property offers — pass, done, approved,
cleared, sent... — or "done"; checkboxes checked) and every cell of every spreadsheet column whose
header looks like a status (status, state, decision, approved, done, stage, result...) to a
positive value (one the column already holds, else one its header suggests).

Why it exists: a checker satisfied by a blanket flip ("the checklist row says pass", "the stage
moved on") measures nothing. The corpus gate requires this agent to score at most 10% on every
task, so such a checker must also check the specific values, or require the day's earlier work.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .agent import BaselineAgent
from .toolkit import POSITIVE, STATUS_HEADER, Toolkit, cell, positive_choice

HEADER_DEFAULTS = (
    ("approv", "approved"), ("decision", "approved"), ("stage", "sent"), ("result", "pass"), ("verdict", "pass"),
    ("signed", "yes"), ("cleared", "yes"), ("check", "verified"), ("ok", "yes"), ("done", "yes"), ("state", "done"),
    ("status", "done"),
)  # fmt: skip
"""What a blind agent types into a status-like column that holds no positive value yet."""


def flip_kb(kit: Toolkit, preferred: Sequence[str] = POSITIVE) -> None:
    """Every select/status property to a positive option, every checkbox checked, in every database."""
    for db in kit.attempt("kb.list_databases", kit.databases) or []:
        choice: dict[str, Any] = {}
        for name, kind in sorted(db.types.items()):
            if kind in ("select", "status"):
                choice[name] = {kind: {"name": positive_choice(db.options.get(name, []), preferred) or "done"}}
            elif kind == "checkbox":
                choice[name] = {"checkbox": True}
        if not choice:
            continue
        for row in kit.attempt("kb.query", kit.rows, db, summary=db.title) or []:
            kit.attempt("kb.update_page", kit.update_page, row["id"], choice, summary=f"{db.title}: {sorted(choice)}")


def column_value(header: str, existing: Sequence[Any], preferred: Sequence[str] = POSITIVE) -> str:
    found = positive_choice([str(v) for v in existing if str(v).strip()], preferred)
    if found:
        return found
    low = header.lower()
    return next((value for key, value in HEADER_DEFAULTS if key in low), "done")


def flip_sheets(kit: Toolkit, preferred: Sequence[str] = POSITIVE) -> None:
    """Every cell of every status-like column (by its header) of every tab to a positive value."""
    for sid, title in kit.attempt("sheets.list", kit.spreadsheets) or []:
        for tab in kit.attempt("sheets.get", kit.tabs, sid, summary=title) or []:
            rows = kit.attempt("sheets.values.get", kit.grid, sid, tab, summary=f"{title}/{tab}") or []
            if len(rows) < 2:
                continue
            header = [str(h) for h in rows[0]]
            cells: dict[str, Any] = {}
            for col, name in enumerate(header):
                if not name.strip() or not STATUS_HEADER.search(name):
                    continue
                existing = [r[col] for r in rows[1:] if col < len(r)]
                value = column_value(name, existing, preferred)
                for n, row in enumerate(rows[1:], start=2):
                    if any(str(v).strip() for v in row):
                        cells[cell(tab, col, n)] = value
            if cells:
                kit.attempt(
                    "sheets.values.batchUpdate",
                    kit.write_cells,
                    sid,
                    cells,
                    summary=f"{title}/{tab}: {len(cells)} cells",
                )


class StatusFlipAgent(BaselineAgent):
    name = "baseline:status-flip"

    def act(self, kit: Toolkit, message: str, day: int, clock: datetime) -> None:
        flip_kb(kit)
        flip_sheets(kit)
