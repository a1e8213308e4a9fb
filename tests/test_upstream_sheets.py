"""Upstream's ``ctx.google_sheets`` over a real world's Sheets service (and ``SheetsService.by_id``).

The semantics are upstream's (RAW writes, INSERT_ROWS appends, formatted and trimmed reads,
``{"sheet_id", "sheet_url"}``, ``None`` for an unknown name); the state is the world's, checked
through the admin plane and through the agent's own unmodified gspread client.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sheets_support import agent, agent_http
from upstream_support import run, world_of

from pytest_clawmark.servers.sheets.clients import gspread_client
from pytest_clawmark.upstream.sheets_adapter import TemplatesUnavailable, UpstreamSheets
from pytest_clawmark.world import World
from pytest_clawmark.world.service import Person
from pytest_clawmark.world.sheets import (
    RowMissing,
    SheetsAdminError,
    SheetsLookupError,
    SpreadsheetMissing,
)

USER = Person("Ines Marlow", "ines.marlow@ward.example")


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    yield from world_of(tmp_path, {"fs", "sheets"}, USER)


@pytest.fixture
def gs(world: World) -> UpstreamSheets:
    return UpstreamSheets(world)


def new_sheet(gs: UpstreamSheets, title: str = "Inventory") -> str:
    return run(gs.create_spreadsheet(title))["sheet_id"]


def test_create_makes_a_blank_sheet1_and_returns_a_google_shaped_url(world: World, gs: UpstreamSheets) -> None:
    made = run(gs.create_spreadsheet("Inventory"))
    assert set(made) == {"sheet_id", "sheet_url"}
    sid = made["sheet_id"]
    assert re.fullmatch(r"[\w-]{20,}", sid)  # what upstream's own id check accepts
    assert made["sheet_url"] == f"https://docs.google.com/spreadsheets/d/{sid}"
    info = world.sheets.by_id(sid).info()
    assert (info.title, info.sheets, info.trashed) == ("Inventory", ("Sheet1",), False)
    assert run(gs.read_values(sid, "Sheet1")) == []
    # the agent opens it from the URL a task hands out, with gspread unmodified
    ws = gspread_client(*agent(world)).open_by_url(made["sheet_url"]).sheet1
    assert (ws.title, ws.row_count, ws.col_count) == ("Sheet1", 1000, 26)


def test_update_values_is_raw(world: World, gs: UpstreamSheets) -> None:
    sid = new_sheet(gs)
    rows = [["Drug", "Code", "Formula", "Qty", "Price", "In stock"], ["Aspirin", "0012", "=1+1", 42, 2.5, True]]
    run(gs.update_values(sid, "Sheet1!A1:F2", rows))
    typed = world.sheets.by_id(sid).values("Sheet1!A1:F2")  # UNFORMATTED_VALUE: the stored types
    assert typed == rows
    assert isinstance(typed[1][1], str) and isinstance(typed[1][2], str) and isinstance(typed[1][3], int)
    assert world.sheets.by_id(sid).values("Sheet1!C2", "FORMULA") == [["=1+1"]]  # text, never a formula
    assert run(gs.read_values(sid, "Sheet1!A2:F2")) == [["Aspirin", "0012", "=1+1", "42", "2.5", "TRUE"]]
    # None leaves a cell as it is, "" clears it; a single cell is an anchor
    run(gs.update_values(sid, "Sheet1!A2", [[None, "", "3+4"]]))
    assert run(gs.read_values(sid, "Sheet1!A2:D2")) == [["Aspirin", "", "3+4", "42"]]
    # tuples are rows as much as lists are (upstream's client serialises both as JSON arrays)
    run(gs.update_values(sid, "Sheet1!H1", (("x", 1.0),)))
    assert world.sheets.by_id(sid).values("Sheet1!H1:I1") == [["x", 1]]


def test_read_values_are_formatted_strings_trimmed_as_the_sheets_api_trims(world: World, gs: UpstreamSheets) -> None:
    sid = new_sheet(gs)
    grid = [
        ["Name", "Qty", "", ""],
        ["", "", "", ""],
        ["Tea", 4210.0, "", "note"],
        ["Milk", 0.1, False, ""],
        ["", "", "", ""],
    ]
    run(gs.update_values(sid, "Sheet1!A1:D5", grid))
    table = [["Name", "Qty"], [], ["Tea", "4210", "", "note"], ["Milk", "0.1", "FALSE"]]
    assert run(gs.read_values(sid, "Sheet1!A1:F20")) == table  # trailing cells and rows dropped, [] inside
    assert run(gs.read_values(sid, "Sheet1")) == table  # a whole tab
    assert run(gs.read_values(sid, "'Sheet1'!A:D")) == table
    assert run(gs.read_values(sid, "Sheet1!B:B")) == [["Qty"], [], ["4210"], ["0.1"]]
    assert run(gs.read_values(sid, "Sheet1!D3")) == [["note"]]
    assert run(gs.read_values(sid, "Sheet1!C3")) == []  # an empty cell: no values at all
    assert run(gs.read_values(sid, "Sheet1!E1:F9")) == []
    assert run(gs.read_values(sid, "A1")) == [["Name"]]  # no sheet named: the first one
    assert all(isinstance(c, str) for row in run(gs.read_values(sid, "Sheet1")) for c in row)


def test_append_rows_inserts_after_the_table(world: World, gs: UpstreamSheets) -> None:
    sid = new_sheet(gs)
    run(gs.update_values(sid, "Sheet1!A1:B3", [["Item", "Qty"], ["Tea", 3], ["Milk", 1]]))
    run(gs.update_values(sid, "Sheet1!A6", [["footer"]]))
    run(gs.append_rows(sid, "Sheet1", [["Bread", 2], ["Eggs", 12]]))
    assert run(gs.read_values(sid, "Sheet1")) == [
        ["Item", "Qty"],
        ["Tea", "3"],
        ["Milk", "1"],
        ["Bread", "2"],
        ["Eggs", "12"],
        [],
        [],
        ["footer"],
    ]  # rows inserted, not written over: the footer moved down two rows
    run(gs.append_rows(sid, "Sheet1!A1:B1", [["Jam", "=1+1"]]))  # the header range, as tasks pass it
    assert run(gs.read_values(sid, "Sheet1!A6:B6")) == [["Jam", "=1+1"]]  # RAW: text
    assert run(gs.read_values(sid, "Sheet1!A9")) == [["footer"]]  # down one more


def test_get_spreadsheet_id_is_exact_skips_trashed_and_prefers_the_earliest(world: World, gs: UpstreamSheets) -> None:
    assert run(gs.get_spreadsheet_id("Inventory")) is None
    first = new_sheet(gs, "Inventory")
    new_sheet(gs, "Inventory 2025")
    assert run(gs.get_spreadsheet_id("Inventory")) == first
    assert run(gs.get_spreadsheet_id("inventory")) is None and run(gs.get_spreadsheet_id("Inventory ")) is None
    assert run(gs.get_spreadsheet_id("Invent")) is None
    second = new_sheet(gs, "Inventory")
    assert run(gs.get_spreadsheet_id("Inventory")) == first  # several of that name: the earliest created
    with agent_http(world) as raw:  # the agent trashes the first through Drive
        assert raw.patch(f"/drive/v3/files/{first}", json={"trashed": True}).status_code == 200
        assert run(gs.get_spreadsheet_id("Inventory")) == second
        assert raw.patch(f"/drive/v3/files/{second}", json={"trashed": True}).status_code == 200
    assert run(gs.get_spreadsheet_id("Inventory")) is None  # only trashed ones left


def test_a_spreadsheet_the_agent_makes_with_gspread_is_found_and_read(world: World, gs: UpstreamSheets) -> None:
    gc = gspread_client(*agent(world))
    sh = gc.create("Ward log")
    sh.sheet1.update([["Bed", "Note", "Checked"], [4, "recheck", True], [7, "ok", False]], "A1")
    sid = run(gs.get_spreadsheet_id("Ward log"))
    assert sid == sh.id
    assert run(gs.read_values(sid, "Sheet1")) == [
        ["Bed", "Note", "Checked"],
        ["4", "recheck", "TRUE"],
        ["7", "ok", "FALSE"],
    ]
    assert run(gs.find_row(sid, "Sheet1", 1, "ok")) == {"Bed": "7", "Note": "ok", "Checked": "FALSE"}
    # and what a stage writes, the agent reads back
    run(gs.update_values(sid, "Sheet1!D1:D2", [["By"], ["stage"]]))
    assert sh.sheet1.get("D1:D2") == [["By"], ["stage"]]


def test_admin_writes_are_not_audited_as_agent_actions(world: World, gs: UpstreamSheets) -> None:
    since = world.audit.last_seq
    sid = new_sheet(gs)
    run(gs.update_values(sid, "Sheet1!A1:B2", [["Item", "Qty"], ["Tea", 3]]))
    run(gs.append_rows(sid, "Sheet1", [["Milk", 1]]))
    run(gs.read_values(sid, "Sheet1"))
    run(gs.find_row(sid, "Sheet1", 0, "Tea"))
    assert run(gs.get_spreadsheet_id("Inventory")) == sid
    assert world.audit.entries("sheets", since) == []
    gspread_client(*agent(world)).open_by_key(sid).sheet1.get_all_values()
    ops = [(e.operation, e.target) for e in world.audit.entries("sheets", since)]
    assert ("GET values.get", f"{sid}!'Sheet1'") in ops  # the agent's own reads are audited
    assert all(op.startswith("GET ") for op, _ in ops)  # and nothing the stage wrote is among them


def test_find_row_is_first_match_on_formatted_cells(world: World, gs: UpstreamSheets) -> None:
    sid = new_sheet(gs)
    world.sheets.batch_update("Inventory", [{"addSheet": {"properties": {"title": "My Tab"}}}])
    run(gs.update_values(sid, "'My Tab'!A1:C4", [["Name", "Qty", "Ward"], ["Tea", 3, "A"], ["Milk", 3, "B"], ["Jam"]]))
    assert run(gs.find_row(sid, "My Tab", 1, "3")) == {"Name": "Tea", "Qty": "3", "Ward": "A"}  # the first of two
    assert run(gs.find_row(sid, "My Tab", 0, "Jam")) == {"Name": "Jam"}  # a short row pairs its own cells
    assert run(gs.find_row(sid, "My Tab", 1, 3)) is None  # cells are formatted strings: a number never equals one
    assert run(gs.find_row(sid, "My Tab", 0, "Name")) is None  # the header is not a row
    assert run(gs.find_row(sid, "My Tab", 9, "Tea")) is None
    assert run(gs.read_values(sid, "'My Tab'!A:C")) == [
        ["Name", "Qty", "Ward"],
        ["Tea", "3", "A"],
        ["Milk", "3", "B"],
        ["Jam"],
    ]
    run(gs.update_values(sid, "Sheet1!A1", [["only a header"]]))
    assert run(gs.find_row(sid, "Sheet1", 0, "only a header")) is None  # fewer than two rows


def test_bad_input_gives_clear_errors(world: World, gs: UpstreamSheets) -> None:
    sid = new_sheet(gs)
    run(gs.update_values(sid, "Sheet1!A1", [["kept"]]))
    unknown = "1" + "x" * 43
    with pytest.raises(SpreadsheetMissing, match="no spreadsheet has id"):
        run(gs.read_values(unknown, "Sheet1"))
    with pytest.raises(SheetsLookupError, match="no spreadsheet has id"):
        run(gs.update_values(unknown, "Sheet1!A1", [["x"]]))
    with pytest.raises(SheetsLookupError, match="no spreadsheet has id"):
        run(gs.append_rows(unknown, "Sheet1", [["x"]]))
    with pytest.raises(SheetsLookupError, match="non-empty string"):
        run(gs.read_values("", "Sheet1"))
    for bad in ("Sheet1!A0", "Sheet1!A1:", "'Sheet1", "Sheet1!1A"):
        with pytest.raises(SheetsAdminError, match="Unable to parse range") as caught:
            run(gs.read_values(sid, bad))
        assert caught.value.code == 400
        with pytest.raises(SheetsAdminError, match="Unable to parse range"):
            run(gs.update_values(sid, bad, [["x"]]))
    with pytest.raises(RowMissing, match="no sheet named 'Sheet2'.*Sheet1"):
        run(gs.read_values(sid, "Sheet2!A1:B2"))
    with pytest.raises(SheetsLookupError, match="no sheet named 'Sheet2'"):
        run(gs.update_values(sid, "Sheet2!A1", [["x"]]))
    with pytest.raises(SheetsLookupError, match="no sheet named 'Sheet2'"):
        run(gs.append_rows(sid, "Sheet2", [["x"]]))
    with pytest.raises(SheetsAdminError, match="Requested writing within range"):
        run(gs.update_values(sid, "Sheet1!A1:B1", [["a", "b"], ["c", "d"]]))
    with pytest.raises(TypeError, match="list of rows"):
        run(gs.update_values(sid, "Sheet1!A1", "abc"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"values\[0\] must be a list"):
        run(gs.append_rows(sid, "Sheet1", ["abc"]))  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"values\[0\]\[1\].*date"):
        run(gs.update_values(sid, "Sheet1!A1", [["x", datetime.date(2025, 4, 7)]]))
    with pytest.raises(ValueError, match="finite"):
        run(gs.update_values(sid, "Sheet1!A1", [[float("nan")]]))
    with pytest.raises(TemplatesUnavailable, match="offline"):
        run(gs.copy_template("https://docs.google.com/spreadsheets/d/abc/edit"))
    assert run(gs.read_values(sid, "Sheet1")) == [["kept"]]  # nothing refused was half-written


def test_by_id_is_the_public_id_keyed_admin_plane(world: World) -> None:
    s = world.sheets
    sid = s.create_spreadsheet("Plan", {"Data": [["Item", "Qty"], ["Tea", 3]]})
    h = s.by_id(sid)
    assert h.id == sid and h.exists() and h.info().sheets == ("Data",)
    assert [i.id for i in s.spreadsheets(title="Plan")] == [sid] and s.spreadsheets(title="Pla") == []
    world.mutations.allowed = frozenset({"restock"})
    assert h.set_values("Data!C1", [["Total"], ["=B2*2"]], silent="restock") == "Data!C1:C2"  # USER_ENTERED by default
    assert h.values("Data!C2") == [[6]] and h.values("Data!C2", "FORMULA") == [["=B2*2"]]
    s.set_values("Plan", "Data!A5", [["below"]])
    assert h.append("Data", [["Milk", 1]]) == "Data!A3:B3"  # INSERT_ROWS by default
    assert h.values("Data!A6") == [["below"]]
    assert h.append("Data!A1", [["Jam", 2]], insert="OVERWRITE") == "Data!A4:B4"
    assert h.values("Data!A6") == [["below"]]
    assert [(m, svc) for m, svc, _ in world.mutations.applied] == [("restock", "sheets")]
    s.delete_spreadsheet("Plan")
    assert not h.exists()
    with pytest.raises(SpreadsheetMissing, match="no spreadsheet has id"):
        h.info()
