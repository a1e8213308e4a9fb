"""The world's Drive storage quota: how many spreadsheets, filled cells and characters it holds.

Why a quota: whatever the agent leaves in the world is read back by the harness — every cell of
every spreadsheet goes into the snapshot stored after each turn. Google bounds a spreadsheet
(10 million cells) but not an account's number of spreadsheets; a Google account has a storage
quota instead. This is that quota, sized so that a snapshot of a world filled to it stays
bounded (see :mod:`.limits` and benchmarks/hostile_sheets.py).

What counts: filled cells, and characters of text values, of formulas *and of the text formulas
produce* (a snapshot stores those too), plus titles. A change that would take the world over
the quota is refused as Drive refuses an upload over quota — 403 ``storageQuotaExceeded`` — and
nothing changes; a change that shrinks a world already over it (after a restore) is allowed, so
the agent can always clean up. The quota binds agent requests only: the harness's own seeding
and silent mutations must never fail because the agent filled the world (they are the task
author's data, bounded by the task).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import ApiError
from .limits import MAX_SPREADSHEETS, MAX_WORLD_CELLS, MAX_WORLD_CHARS
from .work import agent_request

if TYPE_CHECKING:
    from .store import Spreadsheet

QUOTA_MESSAGE = "The user's Drive storage quota has been exceeded."


@dataclass(frozen=True)
class Usage:
    """What one spreadsheet holds."""

    cells: int = 0
    chars: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.cells + other.cells, self.chars + other.chars)

    def __sub__(self, other: Usage) -> Usage:
        return Usage(self.cells - other.cells, self.chars - other.chars)


def usage(ss: Spreadsheet) -> Usage:
    """Filled cells and characters (text, formulas, formula text results, titles) of ``ss``.

    Reads the computed values of the spreadsheet's current version (commit computes them first)."""
    memo = ss.calc.memo if ss.has_calc else {}
    cells = 0
    chars = len(ss.title)
    for sheet in ss.sheets:
        cells += len(sheet.cells)
        chars += len(sheet.title)
        sid = sheet.sheet_id
        for key, cell in sheet.cells.items():
            if cell.formula is not None:
                chars += len(cell.formula)
                value = memo.get((sid, key[0], key[1]))
                if isinstance(value, str):
                    chars += len(value)
            elif isinstance(cell.value, str):
                chars += len(cell.value)
    return Usage(cells, chars)


def exceeded(detail: str) -> ApiError:
    """Drive's answer to a change over the storage quota (also used on the Sheets API)."""
    return ApiError(403, f"{QUOTA_MESSAGE} {detail}", "PERMISSION_DENIED", reason="storageQuotaExceeded")


class Quota:
    """Per-spreadsheet usage of one world, and the checks a commit must pass."""

    def __init__(self) -> None:
        self._usage: dict[str, Usage] = {}

    @property
    def total(self) -> Usage:
        out = Usage()
        for u in self._usage.values():
            out = out + u
        return out

    def check_new_file(self, files: int) -> None:
        """Refuse a spreadsheet beyond :data:`~.limits.MAX_SPREADSHEETS` (``files`` exist already)."""
        if files >= MAX_SPREADSHEETS and agent_request():
            raise exceeded(f"This world holds at most {MAX_SPREADSHEETS} spreadsheets; delete one first.")

    def admit(self, spreadsheet_id: str, ss: Spreadsheet) -> Usage:
        """Check that ``ss`` may become the version of ``spreadsheet_id``; return its usage.

        Nothing is recorded: call :meth:`record` once the change is committed."""
        new = usage(ss)
        if not agent_request():
            return new
        old = self._usage.get(spreadsheet_id, Usage())
        total = self.total - old + new
        if total.cells > MAX_WORLD_CELLS and new.cells > old.cells:
            raise exceeded(
                f"This world holds at most {MAX_WORLD_CELLS} filled cells; this change would make {total.cells}."
            )
        if total.chars > MAX_WORLD_CHARS and new.chars > old.chars:
            raise exceeded(
                f"This world holds at most {MAX_WORLD_CHARS} characters of cell content (text, formulas and "
                f"their text results); this change would make {total.chars}."
            )
        return new

    def record(self, spreadsheet_id: str, used: Usage) -> None:
        self._usage[spreadsheet_id] = used

    def forget(self, spreadsheet_id: str) -> None:
        self._usage.pop(spreadsheet_id, None)

    def reset(self) -> None:
        self._usage.clear()
