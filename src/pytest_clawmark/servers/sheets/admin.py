"""The admin plane: seeding, silent mutations and deterministic reads for the harness.

Why over HTTP (``/_admin/...``) rather than by touching the store in-process: the same server
runs as a container in the docker backend, and the harness must drive both the same way. The
admin token is required; the agent's token is refused, and nothing here is audited as an agent
action.

Row operations match keys **exactly** (never by substring, never first-match): a key that
matches no row or several rows is an error, so a task can never silently edit the wrong row.
"""

from __future__ import annotations

from typing import Any

from . import validate as v
from .a1 import format_range, parse_a1, quote_sheet
from .batch import apply_requests
from .cells import check_json_scalar, make_cell
from .errors import ApiError, invalid, not_found
from .render import RENDER_OPTIONS, formatted, render
from .store import Sheet, Spreadsheet, Store
from .values import append_values, check_values, get_values, read_matrix, write_values

INPUT_OPTIONS = ("RAW", "USER_ENTERED")


def create(store: Store, body: dict[str, Any]) -> dict[str, Any]:
    """A spreadsheet with sheets seeded from ``{"sheet name": [[row], ...]}`` (insertion order)."""
    v.only_keys(body, {"title", "sheets", "valueInputOption"}, "")
    title = v.string(body.get("title"), "title", max_len=1000)
    option = v.enum(body.get("valueInputOption"), "valueInputOption", INPUT_OPTIONS, default="USER_ENTERED")
    sheets = v.obj(body.get("sheets"), "sheets", optional=True)
    seeded = {name: check_values(rows, f"sheets[{name!r}]") for name, rows in sheets.items()}

    def fill(draft: Spreadsheet) -> None:
        if not seeded:
            return
        draft.sheets.clear()
        for i, (name, rows) in enumerate(seeded.items()):
            if not name.strip() or draft.sheet_by_title(name) is not None:
                raise invalid(f"bad or duplicate sheet name {name!r}")
            height = len(rows)
            width = max((len(r) for r in rows), default=0)
            draft.sheets.append(Sheet(0 if i == 0 else draft.new_sheet_id(), name, max(1000, height), max(26, width)))
            if rows:
                write_values(draft, f"{quote_sheet(name)}!A1", rows, option)  # type: ignore[arg-type]

    ss = store.create(title, fill=fill)
    return {"spreadsheetId": ss.id}


def listing(store: Store, title: str | None) -> dict[str, Any]:
    """Spreadsheets (creation order), all or those whose title is exactly ``title``."""
    found = [
        {"spreadsheetId": ss.id, "title": ss.title, "sheets": [s.title for s in ss.sheets], "trashed": ss.trashed}
        for ss in store.spreadsheets.values()
        if title is None or ss.title == title
    ]
    return {"spreadsheets": found}


def values(store: Store, spreadsheet_id: str, params: dict[str, str]) -> dict[str, Any]:
    ss = store.get(spreadsheet_id)
    option = v.enum(params.get("valueRenderOption"), "valueRenderOption", RENDER_OPTIONS, default="UNFORMATTED_VALUE")
    dt = v.enum(
        params.get("dateTimeRenderOption"),
        "dateTimeRenderOption",
        ("SERIAL_NUMBER", "FORMATTED_STRING"),
        default="SERIAL_NUMBER",
    )
    rng = _named_sheet(ss, v.string(params.get("range"), "range"))
    return get_values(ss, rng, option, dt)  # type: ignore[arg-type]


def _named_sheet(ss: Spreadsheet, rng: str) -> str:
    """``rng``, after checking the sheet it names exists: an absent sheet is a 404 naming the
    sheets there are (the agent plane answers Google's terser "Unable to parse range")."""
    ref = parse_a1(rng)
    if ref.sheet is not None and ss.sheet_by_title(ref.sheet) is None:
        raise not_found(f"{ss.title!r} has no sheet named {ref.sheet!r} (sheets: {[s.title for s in ss.sheets]})")
    return rng


def update(store: Store, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """Write values anywhere (the grid grows as needed: seeding must not trip on grid limits)."""
    v.only_keys(body, {"range", "values", "valueInputOption"}, "")
    option = v.enum(body.get("valueInputOption"), "valueInputOption", INPUT_OPTIONS, default="USER_ENTERED")
    rows = check_values(body.get("values"))
    with store.edit(spreadsheet_id) as ss:
        rng = _named_sheet(ss, v.string(body.get("range"), "range"))
        return write_values(ss, rng, rows, option, grow=True)  # type: ignore[arg-type]


def append(store: Store, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
    v.only_keys(body, {"range", "values", "valueInputOption", "insertDataOption"}, "")
    option = v.enum(body.get("valueInputOption"), "valueInputOption", INPUT_OPTIONS, default="USER_ENTERED")
    insert = v.enum(
        body.get("insertDataOption"), "insertDataOption", ("OVERWRITE", "INSERT_ROWS"), default="INSERT_ROWS"
    )
    rows = check_values(body.get("values"))
    with store.edit(spreadsheet_id) as ss:
        rng = _named_sheet(ss, v.string(body.get("range"), "range"))
        table, updates = append_values(ss, rng, rows, option, insert=insert)  # type: ignore[arg-type]
    return {"tableRange": table, "updates": updates}


def batch_update(store: Store, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
    v.only_keys(body, {"requests"}, "")
    with store.edit(spreadsheet_id) as ss:
        replies = apply_requests(ss, v.array(body.get("requests"), "requests", optional=False))
    return {"replies": replies}


def delete(store: Store, spreadsheet_id: str) -> dict[str, Any]:
    store.delete(spreadsheet_id)
    return {}


# -- rows by header ----------------------------------------------------------------------------
def _sheet(ss: Spreadsheet, name: Any) -> Sheet:
    title = v.string(name, "sheet")
    sheet = ss.sheet_by_title(title)
    if sheet is None or sheet.title != title:
        raise not_found(f"no sheet named exactly {title!r} in {ss.title!r} (sheets: {[s.title for s in ss.sheets]})")
    return sheet


def _header(ss: Spreadsheet, sheet: Sheet) -> list[str]:
    rows = read_matrix(ss, sheet, 0, 0, 1, sheet.column_count)
    return [str(h) for h in rows[0]] if rows else []


def _column(header: list[str], name: Any, sheet: Sheet) -> int:
    name = v.string(name, "keyColumn")
    hits = [i for i, h in enumerate(header) if h == name]
    if not hits:
        raise not_found(f"sheet {sheet.title!r} has no column {name!r} (header: {header})")
    if len(hits) > 1:
        raise ApiError(409, f"sheet {sheet.title!r} has {len(hits)} columns named {name!r}", "FAILED_PRECONDITION")
    return hits[0]


def _matches(ss: Spreadsheet, sheet: Sheet, row: int, col: int, key: Any) -> bool:
    cell = sheet.cells.get((row, col))
    if cell is None:
        return False
    value = ss.value(sheet, row, col)
    if isinstance(key, bool) or isinstance(value, bool):
        return isinstance(key, bool) and isinstance(value, bool) and key == value
    if isinstance(key, (int, float)):
        return isinstance(value, (int, float)) and value == key
    return formatted(value, cell.fmt) == key or (isinstance(value, str) and value == key)


def find_row(ss: Spreadsheet, sheet: Sheet, key_column: Any, key: Any) -> int:
    """The 0-based row whose ``key_column`` cell equals ``key``; exactly one, or an error."""
    check_json_scalar(key, "key")
    if key is None or key == "":
        raise invalid("key must be a non-empty value")
    col = _column(_header(ss, sheet), key_column, sheet)
    rows = sorted(r for (r, c) in sheet.cells if c == col and r > 0 and _matches(ss, sheet, r, col, key))
    if not rows:
        raise not_found(f"no row of {sheet.title!r} has {key_column} == {key!r}")
    if len(rows) > 1:
        raise ApiError(
            409,
            f"{len(rows)} rows of {sheet.title!r} have {key_column} == {key!r} (rows {[r + 1 for r in rows]})",
            "FAILED_PRECONDITION",
        )
    return rows[0]


def rows(store: Store, spreadsheet_id: str, params: dict[str, str]) -> dict[str, Any]:
    """The header (formatted) and every non-empty row below it, with 1-based row numbers."""
    ss = store.get(spreadsheet_id)
    sheet = _sheet(ss, params.get("sheet"))
    option = v.enum(params.get("valueRenderOption"), "valueRenderOption", RENDER_OPTIONS, default="UNFORMATTED_VALUE")
    header = _header(ss, sheet)
    found: dict[int, list[Any]] = {}
    width = len(header)
    for r, c, cell in sheet.cells_in(1, 0, sheet.row_count, max(width, 1)):
        value = ss.value(sheet, r, c) if cell.formula is not None else cell.value
        found.setdefault(r, [""] * width)[c] = render(cell, value, option)  # type: ignore[arg-type]
    out = [{"row": r + 1, "values": found[r]} for r in sorted(found) if any(x != "" for x in found[r])]
    return {"sheet": sheet.title, "header": header, "rows": out}


def find(store: Store, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """The one row whose key column equals the key, as ``{"row": n, "header": [...], "values": [...]}``."""
    v.only_keys(body, {"sheet", "keyColumn", "key", "valueRenderOption"}, "")
    option = v.enum(body.get("valueRenderOption"), "valueRenderOption", RENDER_OPTIONS, default="UNFORMATTED_VALUE")
    ss = store.get(spreadsheet_id)
    sheet = _sheet(ss, body.get("sheet"))
    row = find_row(ss, sheet, body.get("keyColumn"), body.get("key"))
    header = _header(ss, sheet)
    values = [""] * len(header)
    for _, c, cell in sheet.cells_in(row, 0, row + 1, max(len(header), 1)):
        value = ss.value(sheet, row, c) if cell.formula is not None else cell.value
        values[c] = render(cell, value, option)  # type: ignore[arg-type]
    return {"row": row + 1, "header": header, "values": values}


def update_row(store: Store, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
    v.only_keys(body, {"sheet", "keyColumn", "key", "values", "valueInputOption"}, "")
    option = v.enum(body.get("valueInputOption"), "valueInputOption", INPUT_OPTIONS, default="USER_ENTERED")
    changes = v.obj(body.get("values"), "values")
    with store.edit(spreadsheet_id) as ss:
        sheet = _sheet(ss, body.get("sheet"))
        row = find_row(ss, sheet, body.get("keyColumn"), body.get("key"))
        header = _header(ss, sheet)
        for name, value in changes.items():
            col = _column(header, name, sheet)
            value = check_json_scalar(value, f"values[{name!r}]")
            ss.set_cell(sheet, row, col, None if value is None else make_cell(value, option))  # type: ignore[arg-type]
    return {"row": row + 1, "range": format_range(sheet.title, row, 0, row + 1, max(len(header), 1))}


def delete_row(store: Store, spreadsheet_id: str, body: dict[str, Any]) -> dict[str, Any]:
    v.only_keys(body, {"sheet", "keyColumn", "key"}, "")
    with store.edit(spreadsheet_id) as ss:
        sheet = _sheet(ss, body.get("sheet"))
        row = find_row(ss, sheet, body.get("keyColumn"), body.get("key"))
        if sheet.row_count <= 1:
            raise invalid("cannot delete the only row of a sheet")
        ss.delete_dimension(sheet, "ROWS", row, row + 1)
    return {"row": row + 1}
