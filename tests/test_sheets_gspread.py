"""gspread 6, unmodified, against the sheets server: every endpoint the server claims."""

from __future__ import annotations

from typing import Any

import gspread
import pytest
from gspread.utils import ValueInputOption, ValueRenderOption
from sheets_support import budget, gc, world  # noqa: F401  (fixtures)

from pytest_clawmark.world import World

UE = ValueInputOption.user_entered


def test_create_open_by_title_key_and_url(world: World, gc: Any) -> None:
    sh = gc.create("Ward rota")
    assert sh.title == "Ward rota"
    assert [ws.title for ws in sh.worksheets()] == ["Sheet1"]
    assert sh.sheet1.id == 0
    assert gc.open("Ward rota").id == sh.id
    assert gc.open_by_key(sh.id).title == "Ward rota"
    assert gc.open_by_url(sh.url).id == sh.id
    assert [s.id for s in gc.openall()] == [sh.id]
    files = gc.list_spreadsheet_files()
    assert [(f["id"], f["name"]) for f in files] == [(sh.id, "Ward rota")]
    assert files[0]["createdTime"].startswith("2025-04-07T01:00:00")  # the in-universe clock, in UTC
    with pytest.raises(gspread.SpreadsheetNotFound):
        gc.open("No such sheet")
    with pytest.raises(gspread.SpreadsheetNotFound):
        gc.open_by_key("1doesnotexist")
    # The admin plane sees what the agent created.
    assert world.sheets.spreadsheet("Ward rota").id == sh.id


def test_update_and_read_back(gc: Any) -> None:
    ws = gc.create("Numbers").sheet1
    ws.update([["Name", "Qty"], ["Bolts", 12], ["Nuts", "7"]], "A1")
    assert ws.get_all_values() == [["Name", "Qty"], ["Bolts", "12"], ["Nuts", "7"]]
    # RAW keeps the string "7" a string; USER_ENTERED makes numbers.
    assert ws.get_values("B2:B3", value_render_option=ValueRenderOption.unformatted) == [[12], ["7"]]
    ws.update([["9"]], "B3", value_input_option=UE)
    assert ws.acell("B3", value_render_option=ValueRenderOption.unformatted).value == 9
    ws.update_acell("C1", "Note")
    assert ws.row_values(1) == ["Name", "Qty", "Note"]
    assert ws.col_values(2) == ["Qty", "12", "9"]


def test_append_rows_and_records(gc: Any) -> None:
    ws = gc.create("Log").sheet1
    ws.append_row(["When", "What", "Cost"])
    ws.append_row(["2025-04-07", "Coffee", 4.5], value_input_option=UE)
    res = ws.append_rows([["2025-04-08", "Tea", 3], ["2025-04-09", "Cake", "7.25"]], value_input_option=UE)
    assert res["tableRange"] == "Sheet1!A1:C2"
    assert res["updates"]["updatedRange"] == "Sheet1!A3:C4"
    assert res["updates"]["updatedRows"] == 2 and res["updates"]["updatedCells"] == 6
    assert ws.get_all_records() == [
        {"When": "2025-04-07", "What": "Coffee", "Cost": 4.5},
        {"When": "2025-04-08", "What": "Tea", "Cost": 3},
        {"When": "2025-04-09", "What": "Cake", "Cost": 7.25},
    ]
    dates = ws.col_values(1, value_render_option=ValueRenderOption.unformatted)
    assert dates[1:] == [45754, 45755, 45756]  # USER_ENTERED dates are serial numbers


def test_batch_get_update_clear(gc: Any) -> None:
    ws = gc.create("Batch").sheet1
    ws.batch_update(
        [{"range": "A1:B2", "values": [[1, 2], [3, 4]]}, {"range": "D1", "values": [["x"]]}],
        value_input_option=UE,
    )
    got = ws.batch_get(["A1:B2", "D1", "F1:G2"])
    assert [list(map(list, r)) for r in got] == [[["1", "2"], ["3", "4"]], [["x"]], []]
    assert got[0].range == "Sheet1!A1:B2"
    ws.batch_clear(["A1:A2", "D1"])
    assert ws.get_all_values() == [["", "2"], ["", "4"]]
    ws.clear()
    assert ws.get_all_values() == [[]]  # gspread's own rendering of "no values"


def test_worksheets_add_rename_resize_duplicate_delete(gc: Any) -> None:
    sh = gc.create("Tabs")
    ws = sh.add_worksheet("Q1 results", rows=50, cols=5)
    assert (ws.row_count, ws.col_count) == (50, 5)
    ws.update([["a"]], "A1")
    ws.update_title("Q1 final")
    assert [w.title for w in sh.worksheets()] == ["Sheet1", "Q1 final"]
    assert sh.worksheet("Q1 final").acell("A1").value == "a"
    ws.resize(rows=10, cols=3)
    meta = sh.worksheet("Q1 final")
    assert (meta.row_count, meta.col_count) == (10, 3)
    dup = sh.duplicate_sheet(ws.id, new_sheet_name="Copy")
    assert dup.acell("A1").value == "a"
    with pytest.raises(gspread.exceptions.APIError) as err:
        sh.add_worksheet("copy", rows=5, cols=5)  # names are unique ignoring case
    assert err.value.code == 400
    sh.del_worksheet(ws)
    assert [w.title for w in sh.worksheets()] == ["Sheet1", "Copy"]
    sh.update_title("Tabs 2025")
    assert gc.open("Tabs 2025").id == sh.id


def test_insert_and_delete_rows_keep_formulas_pointing_at_the_data(gc: Any) -> None:
    ws = gc.create("Ledger").sheet1
    ws.update([["Item", "Cost"], ["a", 1], ["b", 2], ["Total", "=SUM(B2:B3)"]], "A1", value_input_option=UE)
    ws.insert_rows([["c", 4]], row=3, value_input_option=UE)
    assert ws.get_all_values() == [["Item", "Cost"], ["a", "1"], ["c", "4"], ["b", "2"], ["Total", "7"]]
    assert ws.acell("B5", value_render_option=ValueRenderOption.formula).value == "=SUM(B2:B4)"
    ws.delete_rows(2)
    assert ws.acell("B4", value_render_option=ValueRenderOption.formula).value == "=SUM(B2:B3)"
    assert ws.acell("B4").value == "6"


def test_sort_moves_rows_with_their_formulas(gc: Any) -> None:
    ws = gc.create("Sorting").sheet1
    ws.update(
        [
            ["Name", "Qty", "Price", "Total"],
            ["pear", 3, 2, "=B2*C2"],
            ["Apple", 10, 1, "=B3*C3"],
            ["fig", "", 5, "=B4*C4"],
            ["kiwi", 3, 1, "=B5*C5"],
        ],
        "A1",
        value_input_option=UE,
    )
    ws.sort((2, "des"), (1, "asc"), range="A2:D5")
    assert ws.get_all_values() == [
        ["Name", "Qty", "Price", "Total"],
        ["Apple", "10", "1", "10"],
        ["kiwi", "3", "1", "3"],
        ["pear", "3", "2", "6"],
        ["fig", "", "5", "0"],
    ]  # descending quantity, ties by name ignoring case, blanks last
    assert ws.col_values(4, value_render_option=ValueRenderOption.formula)[1:] == [
        "=B2*C2",
        "=B3*C3",
        "=B4*C4",
        "=B5*C5",
    ]


def test_formulas_through_user_entered(gc: Any) -> None:
    sh = gc.create("Formulas")
    data = sh.sheet1
    data.update_title("Data")
    data.update([["Item", "Cost", "Owner"], ["Coffee", 4.5, "Ana"], ["Tea", 3, "Ben"], ["Cake", 7.25, "Ana"]], "A1")
    other = sh.add_worksheet("Sheet 2", rows=20, cols=5)
    other.update([["x", 10], ["y", 20], ["z", 30]], "A1")
    data.update(
        [
            ["=SUM(B2:B4)"],
            ["=AVERAGE(B2:B4)"],
            ['=IF(B2>4,"dear","cheap")'],
            ['=VLOOKUP("Tea",A2:B4,2,FALSE)'],
            ['=COUNTIF(C2:C4,"Ana")'],
            ["='Sheet 2'!B3*2"],
            ["=B2/0"],
        ],
        "E1",
        value_input_option=UE,
    )
    assert data.get_values("E1:E7") == [["14.75"], ["4.916666667"], ["dear"], ["3"], ["2"], ["60"], ["#DIV/0!"]]
    unformatted = data.get_values("E1:E7", value_render_option=ValueRenderOption.unformatted)
    assert unformatted[:6] == [[14.75], [pytest.approx(14.75 / 3)], ["dear"], [3], [2], [60]]
    assert data.acell("E6", value_render_option=ValueRenderOption.formula).value == "='Sheet 2'!B3*2"
    # Recomputed when inputs change, on this sheet and across sheets.
    data.update([[100]], "B3")
    other.update([[1]], "B3")
    assert data.get_values("E1:E6") == [["111.75"], ["37.25"], ["dear"], ["100"], ["2"], ["2"]]


def test_delete_and_copy_spreadsheet(gc: Any, world: World) -> None:
    sh = gc.create("Temp")
    sh.sheet1.update([["keep me"]], "A1")
    copy = gc.copy(sh.id, title="Temp copy")
    assert copy.sheet1.acell("A1").value == "keep me"
    gc.del_spreadsheet(sh.id)
    assert [s.title for s in world.sheets.spreadsheets()] == ["Temp copy"]
    with pytest.raises(gspread.SpreadsheetNotFound):
        gc.open("Temp")


def test_seeded_spreadsheet_reads(world: World, gc: Any, budget: str) -> None:
    sh = gc.open("Budget")
    assert sh.id == budget
    summary = sh.worksheet("Summary")
    assert summary.get_all_values() == [
        ["Total", "14.75"],
        ["Average", "4.916666667"],
        ["Ana's count", "2"],
        ["Tea cost", "3"],
        ["Big spender", "yes"],
    ]
    assert sh.worksheet("Data").get_all_records()[0] == {
        "Item": "Coffee",
        "Cost": 4.5,
        "Date": "2025-04-07",
        "Owner": "Ana",
    }
