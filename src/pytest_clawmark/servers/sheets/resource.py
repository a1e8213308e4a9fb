"""The ``Spreadsheet`` resource as JSON: properties, sheets and (on request) grid data.

Separate from the store so the store stays a plain data model and the wire shape (what
gspread's ``fetch_sheet_metadata`` and Google's discovery client read) lives in one place.
"""

from __future__ import annotations

from typing import Any

from . import work
from .a1 import parse_a1
from .errors import invalid
from .render import extended_value, format_type, formatted
from .store import Sheet, Spreadsheet


def spreadsheet_url(spreadsheet_id: str) -> str:
    """Where the spreadsheet would open in a browser (gspread's ``open_by_url`` parses these)."""
    return f"https://docs.google.com/spreadsheets/d/{spreadsheet_id}/edit"


def sheet_properties(sheet: Sheet, index: int) -> dict[str, Any]:
    grid: dict[str, Any] = {"rowCount": sheet.row_count, "columnCount": sheet.column_count}
    if sheet.frozen_rows:
        grid["frozenRowCount"] = sheet.frozen_rows
    if sheet.frozen_columns:
        grid["frozenColumnCount"] = sheet.frozen_columns
    grid.update(sheet.extra.get("gridProperties", {}))
    props: dict[str, Any] = {
        "sheetId": sheet.sheet_id,
        "title": sheet.title,
        "index": index,
        "sheetType": "GRID",
        "gridProperties": grid,
    }
    if sheet.hidden:
        props["hidden"] = True
    props.update({k: v for k, v in sheet.extra.items() if k != "gridProperties"})
    return props


def spreadsheet_properties(ss: Spreadsheet) -> dict[str, Any]:
    return {"title": ss.title, "locale": ss.locale, "autoRecalc": "ON_CHANGE", "timeZone": ss.time_zone}


def cell_data(ss: Spreadsheet, sheet: Sheet, row: int, col: int) -> dict[str, Any]:
    """A ``CellData``: what the user entered, what it evaluates to, and how it is shown."""
    cell = sheet.cells.get((row, col))
    if cell is None:
        return {}
    value = ss.value(sheet, row, col)
    out: dict[str, Any] = {}
    if cell.formula is not None:
        out["userEnteredValue"] = {"formulaValue": cell.formula}
    else:
        out["userEnteredValue"] = extended_value(cell.value)
    effective = extended_value(value)
    if effective is not None:
        out["effectiveValue"] = effective
    shown = formatted(value, cell.fmt)
    if shown != "":
        out["formattedValue"] = shown
    if cell.fmt:
        number_format = {"numberFormat": {"type": format_type(cell.fmt), "pattern": cell.fmt}}
        out["userEnteredFormat"] = number_format
        out["effectiveFormat"] = number_format
    return out


def grid_data(ss: Spreadsheet, sheet: Sheet, row0: int, col0: int, row1: int, col1: int) -> dict[str, Any]:
    """A ``GridData`` block for a rectangle, trimmed after its last filled row and cell."""
    found: dict[int, set[int]] = {}
    work.charge(min((row1 - row0) * (col1 - col0), len(sheet.cells)) * 2 * work.WORK_CELL_READ)
    for r, c, _ in sheet.cells_in(row0, col0, row1, col1):
        found.setdefault(r, set()).add(c)
    if found:
        work.charge(
            max(found) - row0 + 1 + sum(max(cols) - col0 + 1 for cols in found.values())
        )  # the answer's size, gaps included
    out: dict[str, Any] = {}
    if row0:
        out["startRow"] = row0
    if col0:
        out["startColumn"] = col0
    if found:
        rows = []
        for r in range(row0, max(found) + 1):
            cols = found.get(r)
            if not cols:
                rows.append({})
                continue
            rows.append({"values": [cell_data(ss, sheet, r, c) for c in range(col0, max(cols) + 1)]})
        out["rowData"] = rows
    return out


def spreadsheet_json(
    ss: Spreadsheet,
    *,
    include_grid: bool = False,
    ranges: list[str] | None = None,
) -> dict[str, Any]:
    """The ``Spreadsheet`` resource. ``ranges`` limit the sheets (and grid data) returned."""
    wanted: dict[int, list[tuple[int, int, int, int]]] | None = None
    if ranges:
        wanted = {}
        for text in ranges:
            if not isinstance(text, str):
                raise invalid("Invalid value at 'ranges': expected strings")
            sheet, r0, c0, r1, c1 = ss.resolve(parse_a1(text))
            wanted.setdefault(sheet.sheet_id, []).append((r0, c0, r1, c1))
    sheets = []
    for index, sheet in enumerate(ss.sheets):
        if wanted is not None and sheet.sheet_id not in wanted:
            continue
        entry: dict[str, Any] = {"properties": sheet_properties(sheet, index)}
        if include_grid:
            boxes = wanted[sheet.sheet_id] if wanted is not None else [(0, 0, sheet.row_count, sheet.column_count)]
            entry["data"] = [grid_data(ss, sheet, *box) for box in boxes]
        sheets.append(entry)
    return {
        "spreadsheetId": ss.id,
        "properties": spreadsheet_properties(ss),
        "sheets": sheets,
        "spreadsheetUrl": spreadsheet_url(ss.id),
    }
