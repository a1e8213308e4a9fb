"""A1 notation: parsing the ranges agents send, and writing the ranges we answer with.

Why our own parser: the grammar is small, but the details decide whether real clients work —
gspread percent-encodes ranges and quotes every sheet name (``'Sheet1'!A1``), agents write
``Sheet1!A:C``, ``A2:C`` (open-ended), ``2:4`` (whole rows) or just ``Sheet 1`` (a whole
sheet), and the answers must name ranges the way Google does (``'My Sheet'!A1:C1000``).
Everything here is pure: no store, no I/O. Indices are 0-based and half-open, like Google's
``GridRange``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import invalid
from .limits import MAX_COLUMNS

_COL = r"\$?([A-Za-z]{1,3})"
_ROW = r"\$?([0-9]{1,8})"
_CELL_RE = re.compile(rf"{_COL}{_ROW}")
_AREA_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("cell:cell", re.compile(rf"{_COL}{_ROW}:{_COL}{_ROW}")),
    ("cell", re.compile(rf"{_COL}{_ROW}")),
    ("col:col", re.compile(rf"{_COL}:{_COL}")),
    ("row:row", re.compile(rf"{_ROW}:{_ROW}")),
    ("cell:col", re.compile(rf"{_COL}{_ROW}:{_COL}")),
    ("cell:row", re.compile(rf"{_COL}{_ROW}:{_ROW}")),
    ("col:cell", re.compile(rf"{_COL}:{_COL}{_ROW}")),
)
_PLAIN_SHEET_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LOOKS_LIKE_REF_RE = re.compile(r"([A-Za-z]{1,3}[0-9]+|[Rr][0-9]*[Cc][0-9]*|TRUE|FALSE)", re.IGNORECASE)


def col_index(letters: str) -> int:
    """``"A"`` → 0, ``"AA"`` → 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def col_letters(index: int) -> str:
    """0 → ``"A"``, 26 → ``"AA"``."""
    index += 1
    out = ""
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


def cell_name(row: int, col: int) -> str:
    """0-based (row, col) → ``"B3"``."""
    return f"{col_letters(col)}{row + 1}"


def parse_cell_name(name: str) -> tuple[int, int]:
    """``"B3"`` → (2, 1); raises ValueError on anything else."""
    m = _CELL_RE.fullmatch(name)
    if not m or int(m.group(2)) < 1:
        raise ValueError(f"not a cell name: {name!r}")
    return int(m.group(2)) - 1, col_index(m.group(1))


def quote_sheet(title: str) -> str:
    """The sheet name as it appears in a range: quoted unless it is a plain identifier."""
    if _PLAIN_SHEET_RE.fullmatch(title) and not _LOOKS_LIKE_REF_RE.fullmatch(title):
        return title
    return "'" + title.replace("'", "''") + "'"


def format_range(title: str, row0: int, col0: int, row1: int, col1: int) -> str:
    """A half-open rectangle as Google writes it: ``Sheet1!A1:C3`` (``Sheet1!A1`` for one cell)."""
    start = cell_name(row0, col0)
    if row1 - row0 == 1 and col1 - col0 == 1:
        return f"{quote_sheet(title)}!{start}"
    return f"{quote_sheet(title)}!{start}:{cell_name(row1 - 1, col1 - 1)}"


@dataclass(frozen=True)
class A1Ref:
    """A parsed A1 range. ``None`` bounds are open (the whole column, row or sheet).

    ``sheet`` is ``None`` when the range names no sheet (Google then uses the first sheet).
    """

    text: str
    sheet: str | None
    row0: int | None
    col0: int | None
    row1: int | None
    col1: int | None
    single_cell: bool = False

    @property
    def sheet_only(self) -> bool:
        return self.row0 is None and self.col0 is None and self.row1 is None and self.col1 is None


def _bad(text: str) -> Exception:
    return invalid(f"Unable to parse range: {text}")


def _row(text: str, digits: str) -> int:
    n = int(digits)
    if n < 1:
        raise _bad(text)
    return n - 1


def _col(text: str, letters: str) -> int:
    n = col_index(letters)
    if n >= MAX_COLUMNS:
        raise _bad(text)
    return n


def _parse_area(text: str, area: str) -> tuple[int | None, int | None, int | None, int | None, bool] | None:
    """(row0, col0, row1, col1, single_cell) for an area like ``A1:B2``; None if not an area."""
    for kind, pattern in _AREA_PATTERNS:
        m = pattern.fullmatch(area)
        if not m:
            continue
        g = m.groups()
        if kind == "cell":
            r, c = _row(text, g[1]), _col(text, g[0])
            return r, c, r + 1, c + 1, True
        if kind == "cell:cell":
            ra, ca, rb, cb = _row(text, g[1]), _col(text, g[0]), _row(text, g[3]), _col(text, g[2])
            return min(ra, rb), min(ca, cb), max(ra, rb) + 1, max(ca, cb) + 1, False
        if kind == "col:col":
            ca, cb = _col(text, g[0]), _col(text, g[1])
            return None, min(ca, cb), None, max(ca, cb) + 1, False
        if kind == "row:row":
            ra, rb = _row(text, g[0]), _row(text, g[1])
            return min(ra, rb), None, max(ra, rb) + 1, None, False
        if kind == "cell:col":  # A2:C — from row 2 down to the end of the sheet
            r, ca, cb = _row(text, g[1]), _col(text, g[0]), _col(text, g[2])
            return r, min(ca, cb), None, max(ca, cb) + 1, False
        if kind == "cell:row":  # A1:1 — from A1 to the end of row 1 (gspread's row_values)
            ra, c, rb = _row(text, g[1]), _col(text, g[0]), _row(text, g[2])
            return min(ra, rb), c, max(ra, rb) + 1, None, False
        if kind == "col:cell":  # A:C5 — Google reads it as A1:C5
            ca, cb, r = _col(text, g[0]), _col(text, g[1]), _row(text, g[2])
            return 0, min(ca, cb), r + 1, max(ca, cb) + 1, False
    return None


def parse_a1(text: str) -> A1Ref:
    """Parse an (already percent-decoded) A1 range; raises a 400 :class:`ApiError` when malformed.

    Sheet names are matched later, case-insensitively, against the spreadsheet's sheets.
    """
    if not isinstance(text, str):
        raise invalid("Invalid range: a range must be a string")
    s = text.strip()
    if not s or len(s) > 1000:
        raise _bad(text)
    sheet: str | None
    area: str | None
    if s.startswith("'"):
        i, name = 1, []
        while True:
            j = s.find("'", i)
            if j < 0:
                raise _bad(text)
            name.append(s[i:j])
            if s[j + 1 : j + 2] == "'":  # '' is an escaped quote
                name.append("'")
                i = j + 2
                continue
            i = j + 1
            break
        sheet = "".join(name)
        rest = s[i:]
        if rest == "":
            area = None
        elif rest.startswith("!") and len(rest) > 1:
            area = rest[1:]
        else:
            raise _bad(text)
    elif "!" in s:
        sheet, _, area = s.rpartition("!")
        if not sheet or not area:
            raise _bad(text)
    else:
        parsed = _parse_area(text, s)
        if parsed is not None:
            return A1Ref(text, None, *parsed[:4], single_cell=parsed[4])
        sheet, area = s, None
    if not sheet:
        raise _bad(text)
    if area is None:
        return A1Ref(text, sheet, None, None, None, None)
    parsed = _parse_area(text, area.strip())
    if parsed is None:
        raise _bad(text)
    return A1Ref(text, sheet, *parsed[:4], single_cell=parsed[4])
