"""The ``spreadsheets.values`` semantics: read, write, append (with table detection), clear.

Pure functions over a :class:`~.store.Spreadsheet`; the HTTP layer validates parameters and
wraps these in transactions. The shapes follow the Sheets API v4 reference: ``ValueRange``,
``UpdateValuesResponse`` (zero counts omitted, as Google's JSON omits default values) and
``AppendValuesResponse``.
"""

from __future__ import annotations

import bisect
from typing import Any, Literal

from . import work
from .a1 import A1Ref, col_letters, format_range, parse_a1
from .cells import InputOption, check_json_scalar, make_cell
from .errors import invalid
from .render import DateTimeOption, RenderOption, render
from .store import ROWS, Sheet, Spreadsheet

Major = Literal["ROWS", "COLUMNS"]


def read_matrix(
    ss: Spreadsheet,
    sheet: Sheet,
    row0: int,
    col0: int,
    row1: int,
    col1: int,
    option: RenderOption = "FORMATTED_VALUE",
    dt_option: DateTimeOption = "SERIAL_NUMBER",
    major: Major = "ROWS",
) -> list[list[Any]]:
    """Rendered values of a rectangle, trimmed as Google trims them.

    Trailing empty cells of each row (column, for ``COLUMNS``) and trailing empty rows are
    dropped; empty cells in the middle are ``""`` and empty rows in the middle are ``[]``.
    """
    found: dict[int, dict[int, Any]] = {}
    work.charge(min((row1 - row0) * (col1 - col0), len(sheet.cells)) * work.WORK_CELL_READ)  # scanned, rendered
    for r, c, cell in sheet.cells_in(row0, col0, row1, col1):
        if cell.formula is not None and option == "FORMULA":
            shown: Any = cell.formula  # no need to compute what will not be shown
        else:
            shown = render(cell, ss.value(sheet, r, c) if cell.formula is not None else cell.value, option, dt_option)
        if shown == "":
            continue
        if major == "ROWS":
            found.setdefault(r - row0, {})[c - col0] = shown
        else:
            found.setdefault(c - col0, {})[r - row0] = shown
    if not found:
        return []
    work.charge(max(found) + 1 + sum(max(line) + 1 for line in found.values()))  # the answer's size, gaps included
    out: list[list[Any]] = []
    for i in sorted(found):
        out.extend([_GAP] * (i - len(out)))
        line = found[i]
        out.append([line.get(j, "") for j in range(max(line) + 1)])
    return out


_GAP: list[Any] = []
"""Every empty row between filled ones is this one list, never changed: two cells ten million rows
apart make an answer of ten million rows (as Google's), which then costs pointers, not lists."""


def get_values(
    ss: Spreadsheet,
    range_text: str,
    option: RenderOption = "FORMATTED_VALUE",
    dt_option: DateTimeOption = "SERIAL_NUMBER",
    major: Major = "ROWS",
) -> dict[str, Any]:
    """A ``ValueRange`` for ``range_text`` (``values`` omitted when the range is empty)."""
    sheet, row0, col0, row1, col1 = ss.resolve(parse_a1(range_text))
    out: dict[str, Any] = {"range": format_range(sheet.title, row0, col0, row1, col1), "majorDimension": major}
    values = read_matrix(ss, sheet, row0, col0, row1, col1, option, dt_option, major)
    if values:
        out["values"] = values
    return out


def check_values(values: Any, where: str = "values") -> list[list[Any]]:
    """Validate a ``values`` array: a list of lists of strings, numbers, booleans or nulls."""
    if values is None:
        return []
    if not isinstance(values, list):
        raise invalid(f"Invalid value at '{where}': expected a list of rows (a list of lists)")
    for i, row in enumerate(values):
        if not isinstance(row, list):
            raise invalid(f"Invalid value at '{where}[{i}]': expected a list of cell values")
        for j, v in enumerate(row):
            check_json_scalar(v, f"{where}[{i}][{j}]")
    return values


def as_rows(values: list[list[Any]], major: Major) -> list[list[Any]]:
    """Row-major form of ``values`` given in ``major`` order (ragged lists kept ragged)."""
    if major == "ROWS":
        return values
    rows: list[list[Any]] = []
    for c, column in enumerate(values):
        for r, v in enumerate(column):
            while len(rows) <= r:
                rows.append([])
            row = rows[r]
            while len(row) < c:
                row.append(None)
            row.append(v)
    return rows


def _place(
    ss: Spreadsheet, sheet: Sheet, row0: int, col0: int, rows: list[list[Any]], option: InputOption
) -> dict[str, Any]:
    """Write ``rows`` with their top-left at (row0, col0); nulls leave cells untouched."""
    height = len(rows)
    width = max((len(r) for r in rows), default=0)
    touched_rows: set[int] = set()
    touched_cols: set[int] = set()
    count = 0
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if v is None:
                continue
            ss.set_cell(sheet, row0 + i, col0 + j, make_cell(v, option))
            touched_rows.add(i)
            touched_cols.add(j)
            count += 1
    out: dict[str, Any] = {}
    if height and width:
        out["updatedRange"] = format_range(sheet.title, row0, col0, row0 + height, col0 + width)
    if touched_rows:
        out["updatedRows"] = len(touched_rows)
        out["updatedColumns"] = len(touched_cols)
        out["updatedCells"] = count
    return out


def write_values(
    ss: Spreadsheet,
    range_text: str | A1Ref,
    values: list[list[Any]],
    option: InputOption,
    major: Major = "ROWS",
    *,
    grow: bool = False,
) -> dict[str, Any]:
    """``values.update``: write into a range (a single cell or a sheet is only an anchor).

    A bounded range must hold the data ("Requested writing within range ..."), and writing
    past the grid is refused unless ``grow`` (admin seeding) is set.
    """
    ref = parse_a1(range_text) if isinstance(range_text, str) else range_text
    rows = as_rows(values, major)
    sheet, row0, col0, row1, col1 = ss.resolve(ref, grow=grow)
    height = len(rows)
    width = max((len(r) for r in rows), default=0)
    label = format_range(sheet.title, row0, col0, row1, col1)
    if not ref.single_cell:
        if ref.row1 is not None and height > row1 - row0:
            raise invalid(f"Requested writing within range [{label}], but tried writing to row [{row0 + height}]")
        if ref.col1 is not None and width > col1 - col0:
            raise invalid(
                f"Requested writing within range [{label}], but tried writing to column [{col_letters(col0 + width - 1)}]"
            )
    if height and width:
        if grow:
            ss.ensure_grid(sheet, row0 + height, col0 + width)
        else:
            ss.check_grid(sheet, row0, col0, row0 + height, col0 + width)
    out = _place(ss, sheet, row0, col0, rows, option)
    out.setdefault("updatedRange", label)
    return out


def find_table(
    sheet: Sheet, row0: int, col0: int, row1: int, col1: int, anchor_only: bool
) -> tuple[int, int, int, int] | None:
    """The "table" an append targets: the block of touching filled cells found in the range.

    It starts at the range's first filled cell (row by row) and grows down and sideways while
    filled cells touch it (diagonals included). Sideways growth stays within the range's
    columns unless the range is a single cell (then it only says where to start looking).
    """
    lo_c, hi_c = (0, sheet.column_count) if anchor_only else (col0, col1)
    work.charge(len(sheet.cells))
    rows_by_col: dict[int, list[int]] = {}
    cols_by_row: dict[int, list[int]] = {}
    first: tuple[int, int] | None = None
    for r, c in sheet.cells:
        if r < row0 or not lo_c <= c < hi_c:
            continue
        rows_by_col.setdefault(c, []).append(r)
        cols_by_row.setdefault(r, []).append(c)
        if r < row1 and col0 <= c < col1 and (first is None or (r, c) < first):
            first = (r, c)
    if first is None:
        return None
    for lst in rows_by_col.values():
        lst.sort()
    for lst in cols_by_row.values():
        lst.sort()

    def any_in(sorted_list: list[int] | None, lo: int, hi: int) -> bool:
        if not sorted_list:
            return False
        i = bisect.bisect_left(sorted_list, lo)
        return i < len(sorted_list) and sorted_list[i] < hi

    t_r0, t_c0 = first
    t_r1, t_c1 = t_r0 + 1, t_c0 + 1
    while True:
        grew = False
        if t_c1 < hi_c and any_in(rows_by_col.get(t_c1), t_r0, t_r1 + 1):
            t_c1 += 1
            grew = True
        if t_c0 > lo_c and any_in(rows_by_col.get(t_c0 - 1), t_r0, t_r1 + 1):
            t_c0 -= 1
            grew = True
        if any_in(cols_by_row.get(t_r1), max(t_c0 - 1, lo_c), min(t_c1 + 1, hi_c)):
            t_r1 += 1
            grew = True
        if not grew:
            return t_r0, t_c0, t_r1, t_c1


def append_values(
    ss: Spreadsheet,
    range_text: str,
    values: list[list[Any]],
    option: InputOption,
    major: Major = "ROWS",
    insert: Literal["OVERWRITE", "INSERT_ROWS"] = "OVERWRITE",
) -> tuple[str | None, dict[str, Any]]:
    """``values.append``: write after the table found in the range. Returns (tableRange, updates).

    The grid grows to fit (Google adds rows and columns for appended data); ``INSERT_ROWS``
    inserts fresh rows instead of overwriting whatever lies below the table.
    """
    ref = parse_a1(range_text)
    rows = as_rows(values, major)
    sheet, row0, col0, row1, col1 = ss.resolve(ref)
    table = find_table(sheet, row0, col0, row1, col1, anchor_only=ref.single_cell)
    table_range = None
    if table is not None:
        t_r0, t_c0, t_r1, t_c1 = table
        table_range = format_range(sheet.title, t_r0, t_c0, t_r1, t_c1)
        start_row, start_col = t_r1, t_c0
    else:
        start_row, start_col = row0, col0
    height = len(rows)
    width = max((len(r) for r in rows), default=0)
    if height and width:
        if insert == "INSERT_ROWS":
            ss.insert_dimension(sheet, ROWS, min(start_row, sheet.row_count), min(start_row, sheet.row_count) + height)
        ss.ensure_grid(sheet, start_row + height, start_col + width)
    updates = _place(ss, sheet, start_row, start_col, rows, option)
    updates.setdefault("updatedRange", format_range(sheet.title, start_row, start_col, start_row + 1, start_col + 1))
    return table_range, updates


def clear_values(ss: Spreadsheet, range_text: str) -> str:
    """``values.clear``: empty the cells of a range (the grid stays). Returns the cleared range."""
    sheet, row0, col0, row1, col1 = ss.resolve(parse_a1(range_text))
    ss.clear(sheet, row0, col0, row1, col1)
    return format_range(sheet.title, row0, col0, row1, col1)
