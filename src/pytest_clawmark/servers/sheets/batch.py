"""``spreadsheets.batchUpdate`` requests and the sheet properties they (and ``create``) carry.

Each request kind is a function ``(spreadsheet draft, body, where) -> reply``; the HTTP layer
runs the whole list on a draft copy and commits only if every request succeeded, which makes a
batch atomic as in Google's API. Kinds that only change presentation (borders, merges, column
widths, conditional formats...) are accepted and not modelled, so an agent that bolds a header
row in the same batch as a real change is not refused; kinds that would change data in ways we
do not model (findReplace, copyPaste, named ranges...) are refused with ``501 UNIMPLEMENTED``
rather than silently ignored. Data-changing kinds that are modelled: sheets (add, delete,
duplicate, properties), rows and columns (insert, delete, append), cell values
(updateCells, appendCells, repeatCell) and sortRange.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import validate as v
from . import work
from .cells import Cell, formula_format, number
from .complexity import measure
from .errors import invalid, unimplemented
from .fields import parse_mask, paths, selects
from .limits import MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, MAX_SHEET_TITLE_CHARS, MAX_SHEETS
from .refs import translate_spans
from .render import ErrorValue
from .resource import sheet_properties
from .store import COLUMNS, ROWS, Sheet, Spreadsheet

Reply = dict[str, Any]
Handler = Callable[[Spreadsheet, dict[str, Any], str], Reply]

MAX_TITLE = MAX_SHEET_TITLE_CHARS
_EXTRA_PROPERTIES = ("tabColor", "tabColorStyle", "rightToLeft")
_EXTRA_GRID = ("hideGridlines", "rowGroupControlAfter", "columnGroupControlAfter")
_SHEET_PROPERTY_KEYS = frozenset(
    {"sheetId", "title", "index", "sheetType", "gridProperties", "hidden", "dataSourceSheetProperties"}
    | set(_EXTRA_PROPERTIES)
)
_GRID_KEYS = frozenset({"rowCount", "columnCount", "frozenRowCount", "frozenColumnCount"} | set(_EXTRA_GRID))


# -- sheet properties ------------------------------------------------------------------------
_THEME_COLORS = (
    "THEME_COLOR_TYPE_UNSPECIFIED",
    "TEXT",
    "BACKGROUND",
    "ACCENT1",
    "ACCENT2",
    "ACCENT3",
    "ACCENT4",
    "ACCENT5",
    "ACCENT6",
    "LINK",
)


def _color(value: Any, where: str) -> dict[str, Any]:
    """A ``Color`` (red, green, blue, alpha in 0..1), validated: properties kept verbatim must
    not be a place to store arbitrary JSON."""
    color = v.obj(value, where)
    v.only_keys(color, {"red", "green", "blue", "alpha"}, where)
    out: dict[str, Any] = {}
    for key, part in color.items():
        if isinstance(part, bool) or not isinstance(part, (int, float)) or not 0 <= part <= 1:
            raise invalid(
                f"Invalid value at '{where}.{key}' (TYPE_FLOAT): a number from 0 to 1 is required, got {part!r}"
            )
        out[key] = part
    return out


def _color_style(value: Any, where: str) -> dict[str, Any]:
    """A ``ColorStyle``: an ``rgbColor`` or a ``themeColor``."""
    style = v.obj(value, where)
    v.only_keys(style, {"rgbColor", "themeColor"}, where)
    if len(style) > 1:
        raise invalid(f"Invalid {where}: set only one of rgbColor, themeColor")
    if "rgbColor" in style:
        return {"rgbColor": _color(style["rgbColor"], f"{where}.rgbColor")}
    if "themeColor" in style:
        return {"themeColor": v.enum(style["themeColor"], f"{where}.themeColor", _THEME_COLORS)}
    return {}


def _extra(key: str, value: Any, where: str) -> Any:
    """A presentation property we keep verbatim, validated to its type in the API."""
    if key == "tabColor":
        return _color(value, where)
    if key == "tabColorStyle":
        return _color_style(value, where)
    return v.boolean(value, where)


def check_title(ss: Spreadsheet, title: Any, where: str, *, ignore: Sheet | None = None) -> str:
    title = v.string(title, where, max_len=10_000)
    if not title.strip():
        raise invalid(f"Invalid {where}: a sheet name cannot be empty")
    if len(title) > MAX_TITLE:
        raise invalid(f"Invalid {where}: sheet names are limited to {MAX_TITLE} characters")
    clash = ss.sheet_by_title(title)
    if clash is not None and clash is not ignore:
        raise invalid(f'Invalid {where}: A sheet with the name "{title}" already exists. Please enter another name.')
    return title


def new_sheet(ss: Spreadsheet, props: dict[str, Any], where: str) -> tuple[Sheet, int | None]:
    """A sheet from ``SheetProperties`` (not yet added) and the index it asked for."""
    v.only_keys(props, _SHEET_PROPERTY_KEYS, where)
    sheet_type = v.enum(props.get("sheetType"), f"{where}.sheetType", ("GRID", "OBJECT", "DATA_SOURCE"), default="GRID")
    if sheet_type != "GRID":
        raise unimplemented(f"{where}.sheetType {sheet_type} is not supported by this server (GRID only)")
    if props.get("sheetId") is not None:
        sheet_id = v.integer(props["sheetId"], f"{where}.sheetId", low=0)
        if any(s.sheet_id == sheet_id for s in ss.sheets):
            raise invalid(f"Invalid {where}.sheetId: A sheet with id {sheet_id} already exists.")
    else:
        sheet_id = -1
    title = props.get("title")
    title = ss.unique_title("Sheet") if title is None else check_title(ss, title, f"{where}.title")
    grid = v.obj(props.get("gridProperties"), f"{where}.gridProperties", optional=True)
    v.only_keys(grid, _GRID_KEYS, f"{where}.gridProperties")
    rows = v.integer(grid.get("rowCount"), f"{where}.gridProperties.rowCount", default=1000, low=1, high=MAX_ROWS)
    cols = v.integer(
        grid.get("columnCount"), f"{where}.gridProperties.columnCount", default=26, low=1, high=MAX_COLUMNS
    )
    sheet = Sheet(sheet_id, title, rows, cols)
    sheet.frozen_rows = v.integer(
        grid.get("frozenRowCount"), f"{where}.gridProperties.frozenRowCount", default=0, low=0, high=rows
    )
    sheet.frozen_columns = v.integer(
        grid.get("frozenColumnCount"), f"{where}.gridProperties.frozenColumnCount", default=0, low=0, high=cols
    )
    sheet.hidden = v.boolean(props.get("hidden"), f"{where}.hidden")
    for key in _EXTRA_PROPERTIES:
        if key in props:
            sheet.extra[key] = _extra(key, props[key], f"{where}.{key}")
    extra_grid = {k: _extra(k, grid[k], f"{where}.gridProperties.{k}") for k in _EXTRA_GRID if k in grid}
    if extra_grid:
        sheet.extra["gridProperties"] = extra_grid
    index = v.integer(props["index"], f"{where}.index", low=0) if props.get("index") is not None else None
    return sheet, index


def _insert_sheet(ss: Spreadsheet, sheet: Sheet, index: int | None) -> None:
    ss.check_sheet_limit()
    ss.check_cell_limit(sheet.row_count * sheet.column_count)
    if sheet.sheet_id < 0:
        sheet.sheet_id = ss.new_sheet_id()
    ss.sheets.insert(len(ss.sheets) if index is None else min(index, len(ss.sheets)), sheet)
    ss.invalidate()


def _sheet_reply(ss: Spreadsheet, sheet: Sheet) -> dict[str, Any]:
    return {"properties": sheet_properties(sheet, ss.sheets.index(sheet))}


# -- request kinds ---------------------------------------------------------------------------
def add_sheet(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"properties"}, where)
    sheet, index = new_sheet(
        ss, v.obj(body.get("properties"), f"{where}.properties", optional=True), f"{where}.properties"
    )
    _insert_sheet(ss, sheet, index)
    return {"addSheet": _sheet_reply(ss, sheet)}


def delete_sheet(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"sheetId"}, where)
    sheet = ss.sheet_by_id(body.get("sheetId"), f"{where}.sheetId")
    if len(ss.sheets) == 1:
        raise invalid(f"Invalid {where}: You can't remove all the sheets in a document.")
    if all(s.hidden for s in ss.sheets if s is not sheet):
        raise invalid(f"Invalid {where}: You can't remove all the visible sheets in a document.")
    ss.delete_sheet(sheet)
    return {}


def update_sheet_properties(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"properties", "fields"}, where)
    props = v.obj(body.get("properties"), f"{where}.properties")
    v.only_keys(props, _SHEET_PROPERTY_KEYS, f"{where}.properties")
    if not body.get("fields"):
        raise invalid(f"Invalid {where}: You must specify at least one field to update (fields).")
    mask = parse_mask(v.string(body["fields"], f"{where}.fields"))
    sheet = ss.sheet_by_id(props.get("sheetId"), f"{where}.properties.sheetId")
    grid = v.obj(props.get("gridProperties"), f"{where}.properties.gridProperties", optional=True)
    v.only_keys(grid, _GRID_KEYS, f"{where}.properties.gridProperties")
    if "*" in mask:
        wanted = [(k,) for k in props if k not in ("sheetId", "gridProperties")]
        wanted += [("gridProperties", k) for k in grid]
    else:
        wanted = []
        for p in paths(mask):
            if p == ("gridProperties",) or p == ("gridProperties", "*"):
                wanted += [
                    ("gridProperties", k) for k in ("rowCount", "columnCount", "frozenRowCount", "frozenColumnCount")
                ]
                wanted += [("gridProperties", k) for k in _EXTRA_GRID if k in grid]
            else:
                wanted.append(p)
    rows, cols = sheet.row_count, sheet.column_count
    for p in wanted:
        name = ".".join(p)
        at = f"{where}.properties.{name}"
        if p == ("title",):
            ss.rename_sheet(sheet, check_title(ss, props.get("title"), at, ignore=sheet))
        elif p == ("index",):
            index = v.integer(props.get("index"), at, low=0)
            ss.sheets.remove(sheet)
            ss.sheets.insert(min(index, len(ss.sheets)), sheet)
        elif p == ("hidden",):
            hidden = v.boolean(props.get("hidden"), at)
            if hidden and all(s.hidden for s in ss.sheets if s is not sheet):
                raise invalid(f"Invalid {where}: You can't hide all the sheets in a document.")
            sheet.hidden = hidden
        elif p == ("sheetId",) or p == ("sheetType",):
            continue
        elif p in (("gridProperties", "rowCount"), ("gridProperties", "columnCount")):
            limit = MAX_ROWS if p[1] == "rowCount" else MAX_COLUMNS
            value = v.integer(grid.get(p[1]), at, low=1, high=limit)
            rows, cols = (value, cols) if p[1] == "rowCount" else (rows, value)
        elif p == ("gridProperties", "frozenRowCount"):
            sheet.frozen_rows = v.integer(grid.get("frozenRowCount"), at, default=0, low=0)
        elif p == ("gridProperties", "frozenColumnCount"):
            sheet.frozen_columns = v.integer(grid.get("frozenColumnCount"), at, default=0, low=0)
        elif len(p) == 2 and p[0] == "gridProperties" and p[1] in _EXTRA_GRID:
            extra_grid = dict(sheet.extra.get("gridProperties", {}))
            if p[1] in grid:
                extra_grid[p[1]] = _extra(p[1], grid[p[1]], at)
            else:
                extra_grid.pop(p[1], None)
            sheet.extra["gridProperties"] = extra_grid
        elif len(p) >= 1 and p[0] in _EXTRA_PROPERTIES:
            if p[0] in props:
                sheet.extra[p[0]] = _extra(p[0], props[p[0]], f"{where}.properties.{p[0]}")
            else:
                sheet.extra.pop(p[0], None)
        else:
            raise invalid(f"Invalid {where}: field '{name}' is not a settable sheet property")
    if (rows, cols) != (sheet.row_count, sheet.column_count):
        ss.resize(sheet, rows, cols)
    if sheet.frozen_rows >= sheet.row_count or sheet.frozen_columns >= sheet.column_count:
        raise invalid(f"Invalid {where}: You can't freeze all visible rows or columns on the sheet.")
    ss.invalidate()
    return {}


def update_spreadsheet_properties(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"properties", "fields"}, where)
    props = v.obj(body.get("properties"), f"{where}.properties")
    if not body.get("fields"):
        raise invalid(f"Invalid {where}: You must specify at least one field to update (fields).")
    mask = parse_mask(v.string(body["fields"], f"{where}.fields"))
    keys = [k for k in props] if "*" in mask else [p[0] for p in paths(mask)]
    for key in keys:
        at = f"{where}.properties.{key}"
        if key == "title":
            title = v.string(props.get("title"), at, max_len=1000)
            if not title.strip():
                raise invalid(f"Invalid {at}: the title cannot be empty")
            ss.title = title
        elif key == "locale":
            ss.locale = v.string(props.get("locale"), at, max_len=50)
        elif key == "timeZone":
            ss.time_zone = v.string(props.get("timeZone"), at, max_len=100)
        elif key in (
            "autoRecalc",
            "defaultFormat",
            "iterativeCalculationSettings",
            "spreadsheetTheme",
            "importFunctionsExternalUrlAccessAllowed",
        ):
            continue  # presentation / recalculation settings: accepted, not modelled
        else:
            raise invalid(f"Invalid {where}: field '{key}' is not a settable spreadsheet property")
    return {}


def _dimension_range(ss: Spreadsheet, body: Any, where: str) -> tuple[Sheet, str, int, int]:
    rng = v.obj(body, where)
    v.only_keys(rng, {"sheetId", "dimension", "startIndex", "endIndex", "dataSourceSheetId"}, where)
    sheet = ss.sheet_by_id(rng.get("sheetId"), f"{where}.sheetId")
    dim = v.enum(rng.get("dimension"), f"{where}.dimension", (ROWS, COLUMNS))
    count = sheet.row_count if dim == ROWS else sheet.column_count
    start = v.integer(rng.get("startIndex"), f"{where}.startIndex", default=0, low=0)
    end = v.integer(rng.get("endIndex"), f"{where}.endIndex", default=count, low=0)
    if end <= start:
        raise invalid(f"Invalid {where}: endIndex ({end}) must be greater than startIndex ({start})")
    return sheet, dim, start, end


def insert_dimension(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"range", "inheritFromBefore"}, where)
    v.boolean(body.get("inheritFromBefore"), f"{where}.inheritFromBefore")
    sheet, dim, start, end = _dimension_range(ss, body.get("range"), f"{where}.range")
    count = sheet.row_count if dim == ROWS else sheet.column_count
    if start > count:
        raise invalid(
            f"Invalid {where}: range.startIndex ({start}) is past the end of the sheet ({count} {dim.lower()})"
        )
    ss.insert_dimension(sheet, dim, start, end)
    return {}


def delete_dimension(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"range"}, where)
    sheet, dim, start, end = _dimension_range(ss, body.get("range"), f"{where}.range")
    count = sheet.row_count if dim == ROWS else sheet.column_count
    if end > count:
        raise invalid(f"Invalid {where}: range.endIndex ({end}) is past the end of the sheet ({count} {dim.lower()})")
    if start == 0 and end == count:
        raise invalid(f"Invalid {where}: You can't delete all the {dim.lower()} on the sheet.")
    ss.delete_dimension(sheet, dim, start, end)
    return {}


def append_dimension(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"sheetId", "dimension", "length"}, where)
    sheet = ss.sheet_by_id(body.get("sheetId"), f"{where}.sheetId")
    dim = v.enum(body.get("dimension"), f"{where}.dimension", (ROWS, COLUMNS))
    length = v.integer(body.get("length"), f"{where}.length", low=1)
    count = sheet.row_count if dim == ROWS else sheet.column_count
    ss.insert_dimension(sheet, dim, count, count + length)
    return {}


def duplicate_sheet(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"sourceSheetId", "insertSheetIndex", "newSheetId", "newSheetName"}, where)
    source = ss.sheet_by_id(body.get("sourceSheetId"), f"{where}.sourceSheetId")
    ss.check_sheet_limit()
    work.charge(len(source.cells) * work.WORK_CELL_MOVE)
    copy = source.clone()
    copy.hidden = False
    if body.get("newSheetName") is not None:
        copy.title = check_title(ss, body["newSheetName"], f"{where}.newSheetName")
    else:
        base, n = f"Copy of {source.title}", 2
        copy.title = base
        while ss.sheet_by_title(copy.title) is not None:
            copy.title, n = f"{base} {n}", n + 1
    if body.get("newSheetId") is not None:
        copy.sheet_id = v.integer(body["newSheetId"], f"{where}.newSheetId", low=0)
        if any(s.sheet_id == copy.sheet_id for s in ss.sheets):
            raise invalid(f"Invalid {where}.newSheetId: A sheet with id {copy.sheet_id} already exists.")
    else:
        copy.sheet_id = -1
    index = body.get("insertSheetIndex")
    index = v.integer(index, f"{where}.insertSheetIndex", low=0) if index is not None else ss.sheets.index(source) + 1
    _insert_sheet(ss, copy, index)
    return {"duplicateSheet": _sheet_reply(ss, copy)}


# -- cell data requests ------------------------------------------------------------------------
def grid_range(ss: Spreadsheet, body: Any, where: str) -> tuple[Sheet, int, int, int, int]:
    """A ``GridRange`` (half-open indices, missing bounds open) checked against the grid."""
    rng = v.obj(body, where)
    v.only_keys(rng, {"sheetId", "startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex"}, where)
    sheet = ss.sheet_by_id(rng.get("sheetId", 0), f"{where}.sheetId")
    r0 = v.integer(rng.get("startRowIndex"), f"{where}.startRowIndex", default=0, low=0)
    r1 = v.integer(rng.get("endRowIndex"), f"{where}.endRowIndex", default=sheet.row_count, low=0)
    c0 = v.integer(rng.get("startColumnIndex"), f"{where}.startColumnIndex", default=0, low=0)
    c1 = v.integer(rng.get("endColumnIndex"), f"{where}.endColumnIndex", default=sheet.column_count, low=0)
    if r1 < r0 or c1 < c0:
        raise invalid(f"Invalid {where}: end indices must not be smaller than start indices")
    ss.check_grid(sheet, r0, c0, max(r1, r0 + 1), max(c1, c0 + 1))
    return sheet, r0, c0, r1, c1


def cell_from_data(data: Any, where: str) -> tuple[bool, Cell | None]:
    """(has userEnteredValue, the cell it makes) from a ``CellData``."""
    data = v.obj(data, where, optional=True)
    if "userEnteredValue" not in data or data["userEnteredValue"] is None:
        return False, None
    uev = v.obj(data["userEnteredValue"], f"{where}.userEnteredValue")
    if len(uev) != 1:
        raise invalid(
            f"Invalid {where}.userEnteredValue: set exactly one of stringValue, numberValue, boolValue, formulaValue"
        )
    ((kind, value),) = uev.items()
    at = f"{where}.userEnteredValue.{kind}"
    if kind == "stringValue":
        text = v.string(value, at, max_len=MAX_CELL_CHARS)
        return True, Cell(value=text) if text else None
    if kind == "numberValue":
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or value != value
            or value in (float("inf"), float("-inf"))
        ):
            raise invalid(f"Invalid value at '{at}' (TYPE_DOUBLE), {value!r}")
        if isinstance(value, int) and abs(value) >= 2**53:
            value = float(value) if abs(value) < 10**300 else float("inf")
        if value in (float("inf"), float("-inf")):
            raise invalid(f"Invalid value at '{at}' (TYPE_DOUBLE): out of range")
        return True, Cell(value=number(value) if isinstance(value, float) else value)
    if kind == "boolValue":
        return True, Cell(value=v.boolean(value, at))
    if kind == "formulaValue":
        text = v.string(value, at, max_len=MAX_CELL_CHARS)
        if not text.startswith("="):
            raise invalid(f"Invalid {at}: formulas start with '='")
        return True, Cell(formula=text, fmt=formula_format(text))
    if kind == "errorValue":
        raise invalid(f"Invalid {at}: error values cannot be entered")
    raise invalid(
        f"Invalid JSON payload received. Unknown name \"{kind}\" at '{where}.userEnteredValue': Cannot find field."
    )


def _width(rows: list[Any], where: str) -> int:
    """The widest ``RowData`` of a list (validating each as an object with a ``values`` array)."""
    return max(
        (
            len(v.array(v.obj(r, f"{where}[{i}]", optional=True).get("values"), f"{where}[{i}].values"))
            for i, r in enumerate(rows)
        ),
        default=0,
    )


def _write_rows(
    ss: Spreadsheet, sheet: Sheet, r0: int, c0: int, rows: list[Any], where: str, sets_values: bool
) -> tuple[int, int]:
    """Write ``RowData`` at (r0, c0); returns the (height, width) written."""
    width = 0
    for i, row in enumerate(rows):
        row = v.obj(row, f"{where}[{i}]", optional=True)
        values = v.array(row.get("values"), f"{where}[{i}].values")
        width = max(width, len(values))
        for j, data in enumerate(values):
            _has, cell = cell_from_data(data, f"{where}[{i}].values[{j}]")
            if sets_values:  # field-mask semantics: a CellData without a value clears the cell
                ss.set_cell(sheet, r0 + i, c0 + j, cell)
    return len(rows), width


def _sets_values(fields: Any, where: str) -> bool:
    if not fields:
        raise invalid(f"Invalid {where}: You must specify at least one field to update (fields).")
    mask = parse_mask(v.string(fields, f"{where}.fields"))
    return "*" in mask or selects(mask, "userEnteredValue")


def update_cells(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"rows", "fields", "start", "range"}, where)
    sets = _sets_values(body.get("fields"), where)
    rows = v.array(body.get("rows"), f"{where}.rows")
    if ("start" in body) == ("range" in body):
        raise invalid(f"Invalid {where}: set exactly one of start or range")
    if "start" in body:
        start = v.obj(body["start"], f"{where}.start")
        v.only_keys(start, {"sheetId", "rowIndex", "columnIndex"}, f"{where}.start")
        sheet = ss.sheet_by_id(start.get("sheetId", 0), f"{where}.start.sheetId")
        r0 = v.integer(start.get("rowIndex"), f"{where}.start.rowIndex", default=0, low=0)
        c0 = v.integer(start.get("columnIndex"), f"{where}.start.columnIndex", default=0, low=0)
        height = len(rows)
        width = _width(rows, f"{where}.rows")
        ss.check_grid(sheet, r0, c0, r0 + max(height, 1), c0 + max(width, 1))
        _write_rows(ss, sheet, r0, c0, rows, f"{where}.rows", sets)
    else:
        sheet, r0, c0, r1, c1 = grid_range(ss, body["range"], f"{where}.range")
        if len(rows) > r1 - r0:
            raise invalid(f"Invalid {where}: more rows than the range holds")
        if sets:
            ss.clear(sheet, r0, c0, r1, c1)  # field-mask semantics: cells without data are cleared
        for i, row in enumerate(rows):
            values = v.array(v.obj(row, f"{where}.rows[{i}]", optional=True).get("values"), f"{where}.rows[{i}].values")
            if len(values) > c1 - c0:
                raise invalid(f"Invalid {where}: more cells in rows[{i}] than the range holds")
        _write_rows(ss, sheet, r0, c0, rows, f"{where}.rows", sets)
    return {}


def append_cells(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"sheetId", "rows", "fields", "tableId"}, where)
    sets = _sets_values(body.get("fields"), where)
    sheet = ss.sheet_by_id(body.get("sheetId"), f"{where}.sheetId")
    rows = v.array(body.get("rows"), f"{where}.rows")
    work.charge(len(sheet.cells))
    start = sheet.extent()[0]
    width = _width(rows, f"{where}.rows")
    ss.ensure_grid(sheet, start + len(rows), width)
    _write_rows(ss, sheet, start, 0, rows, f"{where}.rows", sets)
    return {}


MAX_REPEAT_CELLS = 1_000_000


def repeat_cell(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    v.only_keys(body, {"range", "cell", "fields"}, where)
    sets = _sets_values(body.get("fields"), where)
    sheet, r0, c0, r1, c1 = grid_range(ss, body.get("range"), f"{where}.range")
    has, cell = cell_from_data(body.get("cell"), f"{where}.cell")
    if not sets:
        return {}  # formatting only: accepted, not modelled
    if cell is None:
        ss.clear(sheet, r0, c0, r1, c1)
        return {}
    if (r1 - r0) * (c1 - c0) > MAX_REPEAT_CELLS:
        raise invalid(f"Invalid {where}: repeating a value over more than {MAX_REPEAT_CELLS} cells is not supported")
    for r in range(r0, r1):
        for c in range(c0, c1):
            ss.set_cell(sheet, r, c, cell)
    return {}


def _sort_key(value: Any, descending: bool) -> tuple[int, Any]:
    """Sheets' order: numbers, then text (ignoring case), then booleans, then errors; blanks last
    whichever the direction."""
    if value is None or value == "":
        return (1, 0)
    if isinstance(value, ErrorValue):
        rank, key = 3, str(value)
    elif isinstance(value, bool):
        rank, key = 2, int(value)
    elif isinstance(value, (int, float)):
        rank, key = 0, value
    else:
        rank, key = 1, str(value).casefold()
    return (0, _Desc((rank, key)) if descending else (rank, key))


class _Desc:
    """Reverses the order of a comparable key (for mixed-direction sort specs)."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key

    def __lt__(self, other: _Desc) -> bool:
        return other.key < self.key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and other.key == self.key


def sort_range(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    """Sort the rows of a range by one or more columns; formulas move with their rows."""
    v.only_keys(body, {"range", "sortSpecs"}, where)
    sheet, r0, c0, r1, c1 = grid_range(ss, body.get("range"), f"{where}.range")
    specs = []
    for i, spec in enumerate(v.array(body.get("sortSpecs"), f"{where}.sortSpecs", optional=False)):
        at = f"{where}.sortSpecs[{i}]"
        spec = v.obj(spec, at)
        v.only_keys(
            spec,
            {
                "dimensionIndex",
                "sortOrder",
                "foregroundColor",
                "backgroundColor",
                "foregroundColorStyle",
                "backgroundColorStyle",
            },
            at,
        )
        col = v.integer(spec.get("dimensionIndex"), f"{at}.dimensionIndex", default=0, low=0)
        if not c0 <= col < c1:
            raise invalid(f"Invalid {at}.dimensionIndex: column {col} is outside the sorted range")
        order = v.enum(spec.get("sortOrder"), f"{at}.sortOrder", ("ASCENDING", "DESCENDING"), default="ASCENDING")
        specs.append((col, order == "DESCENDING"))
    if not specs:
        raise invalid(f"Invalid {where}: at least one sortSpec is required")
    work.charge(2 * len(sheet.cells) * work.WORK_CELL_MOVE)
    r1 = min(r1, max(sheet.extent()[0], r0))  # rows below the data are empty: they stay put
    work.charge((r1 - r0) * len(specs) * work.WORK_CELL_READ)
    rows = list(range(r0, r1))
    keys = {r: tuple(_sort_key(ss.value(sheet, r, col), desc) for col, desc in specs) for r in rows}
    order = sorted(rows, key=lambda r: keys[r])
    destination = {old_row: new_row for new_row, old_row in zip(rows, order)}
    inside = {(r, c): cell for (r, c), cell in sheet.cells.items() if r0 <= r < r1 and c0 <= c < c1}
    for key in inside:
        del sheet.cells[key]
    for (r, c), cell in inside.items():
        new_row = destination[r]
        if cell.formula is not None and new_row != r:
            spans = cell.refs
            if spans is None:
                work.charge_parse(cell.formula, measure(cell.formula).tokens)
            formula, spans = translate_spans(cell.formula, new_row - r, 0, spans)
            cell = Cell(formula=formula, fmt=cell.fmt, refs=spans)
        sheet.cells[(new_row, c)] = cell
    ss.invalidate()
    return {}


def _presentation_only(ss: Spreadsheet, body: dict[str, Any], where: str) -> Reply:
    """Formatting and layout requests: validated as objects, accepted, not modelled."""
    v.obj(body, where)
    return {}


HANDLERS: dict[str, Handler] = {
    "addSheet": add_sheet,
    "deleteSheet": delete_sheet,
    "updateSheetProperties": update_sheet_properties,
    "updateSpreadsheetProperties": update_spreadsheet_properties,
    "insertDimension": insert_dimension,
    "deleteDimension": delete_dimension,
    "appendDimension": append_dimension,
    "duplicateSheet": duplicate_sheet,
    "updateCells": update_cells,
    "appendCells": append_cells,
    "repeatCell": repeat_cell,
    "sortRange": sort_range,
}
for _kind in (
    "updateBorders", "mergeCells", "unmergeCells", "autoResizeDimensions", "updateDimensionProperties",
    "addConditionalFormatRule", "updateConditionalFormatRule", "deleteConditionalFormatRule",
    "setBasicFilter", "clearBasicFilter", "addBanding", "updateBanding", "deleteBanding", "setDataValidation",
    "addProtectedRange", "updateProtectedRange", "deleteProtectedRange", "addFilterView", "updateFilterView",
    "deleteFilterView", "duplicateFilterView", "updateEmbeddedObjectBorder",
):  # fmt: skip
    HANDLERS[_kind] = _presentation_only

UNSUPPORTED = frozenset(
    {
        "findReplace", "copyPaste", "cutPaste", "pasteData", "textToColumns", "moveDimension",
        "addNamedRange", "updateNamedRange", "deleteNamedRange", "addChart", "updateChartSpec",
        "deleteEmbeddedObject", "updateEmbeddedObjectPosition", "insertRange", "deleteRange", "randomizeRange",
        "trimWhitespace", "deleteDuplicates", "autoFill", "addSlicer", "updateSlicerSpec", "addDimensionGroup",
        "deleteDimensionGroup", "updateDimensionGroup", "createDeveloperMetadata", "updateDeveloperMetadata",
        "deleteDeveloperMetadata", "addDataSource", "updateDataSource", "deleteDataSource", "refreshDataSource",
        "cancelDataSourceRefresh", "addTable", "updateTable", "deleteTable",
    }
)  # fmt: skip


def apply_requests(ss: Spreadsheet, requests: list[Any]) -> list[Reply]:
    """Run every request on the (draft) spreadsheet in order; the first failure aborts the batch."""
    replies: list[Reply] = []
    for i, request in enumerate(requests):
        where = f"requests[{i}]"
        request = v.obj(request, where)
        if len(request) != 1:
            raise invalid(f"Invalid {where}: exactly one request kind must be set, got {len(request)}")
        ((kind, body),) = request.items()
        handler = HANDLERS.get(kind)
        if handler is None:
            if kind in UNSUPPORTED:
                raise unimplemented(f"{where}.{kind} is not supported by this server")
            raise invalid(f"Invalid JSON payload received. Unknown name \"{kind}\" at '{where}': Cannot find field.")
        replies.append(handler(ss, v.obj(body, f"{where}.{kind}"), f"{where}.{kind}"))
    return replies


def create_body(body: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[dict[str, Any], list[Any]]]]:
    """Validate a ``spreadsheets.create`` body: (properties, [(sheet properties, grid data)])."""
    v.only_keys(
        body,
        {"spreadsheetId", "properties", "sheets", "namedRanges", "developerMetadata", "spreadsheetUrl", "dataSources"},
        "",
    )
    if body.get("namedRanges"):
        raise unimplemented("namedRanges are not supported by this server")
    props = v.obj(body.get("properties"), "properties", optional=True)
    v.only_keys(
        props,
        {
            "title",
            "locale",
            "timeZone",
            "autoRecalc",
            "defaultFormat",
            "iterativeCalculationSettings",
            "spreadsheetTheme",
            "importFunctionsExternalUrlAccessAllowed",
        },
        "properties",
    )
    sheets = []
    for i, s in enumerate(v.array(body.get("sheets"), "sheets", max_len=MAX_SHEETS)):
        s = v.obj(s, f"sheets[{i}]")
        v.only_keys(s, {"properties", "data"}, f"sheets[{i}]")
        sheets.append(
            (
                v.obj(s.get("properties"), f"sheets[{i}].properties", optional=True),
                v.array(s.get("data"), f"sheets[{i}].data"),
            )
        )
    return props, sheets


def fill_created(ss: Spreadsheet, sheets: list[tuple[dict[str, Any], list[Any]]]) -> None:
    """Add the sheets (and their initial grid data) of a ``create`` body to a new spreadsheet."""
    if not sheets:
        return
    ss.sheets.clear()
    for i, (props, data) in enumerate(sheets):
        where = f"sheets[{i}].properties"
        if i == 0 and props.get("sheetId") is None:
            props = {**props, "sheetId": 0}
        sheet, _index = new_sheet(ss, props, where)
        _insert_sheet(ss, sheet, None)
        for k, grid in enumerate(data):
            at = f"sheets[{i}].data[{k}]"
            grid = v.obj(grid, at)
            v.only_keys(grid, {"startRow", "startColumn", "rowData", "rowMetadata", "columnMetadata"}, at)
            r0 = v.integer(grid.get("startRow"), f"{at}.startRow", default=0, low=0)
            c0 = v.integer(grid.get("startColumn"), f"{at}.startColumn", default=0, low=0)
            rows = v.array(grid.get("rowData"), f"{at}.rowData")
            width = _width(rows, f"{at}.rowData")
            ss.ensure_grid(sheet, r0 + len(rows), c0 + width)
            _write_rows(ss, sheet, r0, c0, rows, f"{at}.rowData", True)
