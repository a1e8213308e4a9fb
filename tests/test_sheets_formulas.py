"""Formulas: evaluated by the ``formulas`` library, recomputed on change, kept pointing at data."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sheets_support import shared_raw, shared_world, world  # noqa: F401  (fixtures)

from pytest_clawmark.servers.sheets import budget
from pytest_clawmark.servers.sheets.calc import Calculator
from pytest_clawmark.servers.sheets.cells import make_cell
from pytest_clawmark.servers.sheets.refs import Rename, Shift, rewrite
from pytest_clawmark.servers.sheets.store import Sheet, Store
from pytest_clawmark.servers.sheets.values import write_values
from pytest_clawmark.world import World


@pytest.fixture
def raw(shared_raw: httpx.Client) -> httpx.Client:  # noqa: F811  (a fixture imported above)
    return shared_raw


def book(raw: httpx.Client, *sheets: str, rows: int = 1000) -> str:
    grid = {"rowCount": rows, "columnCount": 26}
    body = {
        "properties": {"title": "F"},
        "sheets": [{"properties": {"title": s, "gridProperties": grid}} for s in sheets],
    }
    return raw.post("/v4/spreadsheets", json=body).json()["spreadsheetId"]


def put(raw: httpx.Client, sid: str, rng: str, values: list[list[Any]]) -> None:
    r = raw.put(
        f"/v4/spreadsheets/{sid}/values/{quote(rng)}",
        params={"valueInputOption": "USER_ENTERED"},
        json={"values": values},
    )
    assert r.status_code == 200, r.text


def show(raw: httpx.Client, sid: str, rng: str, render: str = "FORMATTED_VALUE") -> list[list[Any]]:
    r = raw.get(f"/v4/spreadsheets/{sid}/values/{quote(rng)}", params={"valueRenderOption": render})
    assert r.status_code == 200, r.text
    return r.json().get("values", [])


def batch(raw: httpx.Client, sid: str, *requests: dict[str, Any]) -> httpx.Response:
    return raw.post(f"/v4/spreadsheets/{sid}:batchUpdate", json={"requests": list(requests)})


def sheet_id(raw: httpx.Client, sid: str, title: str) -> int:
    sheets = raw.get(f"/v4/spreadsheets/{sid}").json()["sheets"]
    return next(s["properties"]["sheetId"] for s in sheets if s["properties"]["title"] == title)


# -- reference rewriting (pure) ----------------------------------------------------------------
@pytest.mark.parametrize(
    "formula, change, expected",
    [
        ("=SUM(B2:B10)", Shift("ROWS", 4, 2, True), "=SUM(B2:B12)"),
        ("=SUM(B2:B10)", Shift("ROWS", 1, 1, True), "=SUM(B3:B11)"),
        ("=SUM(B2:B10)", Shift("ROWS", 10, 1, True), "=SUM(B2:B10)"),
        ("=$B$2*2", Shift("ROWS", 0, 3, True), "=$B$5*2"),
        ("=SUM(B2:B10)", Shift("ROWS", 2, 3, False), "=SUM(B2:B7)"),
        ("=B4+1", Shift("ROWS", 3, 1, False), "=#REF!+1"),
        ("=SUM(B2:B3)", Shift("ROWS", 1, 2, False), "=SUM(#REF!)"),
        ("=SUM(A:A)+C3", Shift("ROWS", 0, 1, True), "=SUM(A:A)+C4"),
        ("=SUM(A1:C1)", Shift("COLUMNS", 1, 1, True), "=SUM(A1:D1)"),
        ('=D1&"D1"', Shift("COLUMNS", 0, 1, False), '=C1&"D1"'),
        ("='Other'!B2+B2", Shift("ROWS", 0, 1, True), "='Other'!B2+B3"),
        ("='Old name'!A1+Old!A1", Rename("Old name", "New"), "=New!A1+Old!A1"),
        ("=SUM('It''s'!A1:A3)", Rename("it's", "Q1 2025"), "=SUM('Q1 2025'!A1:A3)"),
        ("=Gone!A1*2", Rename("Gone", None), "=#REF!*2"),
    ],
)
def test_rewrite(formula: str, change: Any, expected: str) -> None:
    assert rewrite(formula, "Sheet1", "Sheet1", change) == expected


# -- evaluation over HTTP ------------------------------------------------------------------------
def test_cross_sheet_recompute_and_errors(raw: httpx.Client) -> None:
    sid = book(raw, "Main", "Q1 data")
    put(raw, sid, "'Q1 data'!A1", [["x", 1], ["y", 2], ["z", 0]])
    put(
        raw,
        sid,
        "Main!A1",
        [
            ["=SUM('Q1 data'!B:B)"],
            ["='Q1 data'!B2/'Q1 data'!B3"],
            ["=SUM(A1:A2)"],
            ["=NOSUCHFUNCTION(1)"],
            ["=SUM(1,"],
            ["=Missing!A1"],
            ["=A7+1"],
            ["=A6"],
            ['=if(iserror(a2),"bad","ok")'],
        ],
    )
    assert show(raw, sid, "Main!A1:A9") == [
        ["3"],
        ["#DIV/0!"],
        ["#DIV/0!"],
        ["#NAME?"],
        ["#ERROR!"],
        ["#REF!"],
        ["#REF!"],
        ["#REF!"],
        ["bad"],
    ]
    # Stored as Sheets stores formulas: names and references upper-cased, strings untouched.
    assert show(raw, sid, "Main!A9", "FORMULA") == [['=IF(ISERROR(A2),"bad","ok")']]
    put(raw, sid, "'Q1 data'!B3", [[4]])
    assert show(raw, sid, "Main!A1:A3", "UNFORMATTED_VALUE") == [[7], [0.5], [7.5]]
    # Adding the missing sheet makes the reference resolve (references are by name).
    raw.post(
        f"/v4/spreadsheets/{sid}:batchUpdate", json={"requests": [{"addSheet": {"properties": {"title": "Missing"}}}]}
    )
    put(raw, sid, "Missing!A1", [[41]])
    assert show(raw, sid, "Main!A6", "UNFORMATTED_VALUE") == [[41]]


def test_structure_changes_rewrite_formulas(raw: httpx.Client) -> None:
    sid = book(raw, "Data", "Report")
    put(raw, sid, "Data!A1", [["a", 1], ["b", 2], ["c", 3]])
    put(raw, sid, "Report!A1", [["=SUM(Data!B1:B3)", "=Data!B3", "=COUNTA(Data!A:A)"]])
    data = sheet_id(raw, sid, "Data")
    assert (
        batch(
            raw,
            sid,
            {"insertDimension": {"range": {"sheetId": data, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}}},
        ).status_code
        == 200
    )
    put(raw, sid, "Data!A2", [["new", 10]])
    assert show(raw, sid, "Report!A1:C1", "FORMULA") == [["=SUM(Data!B1:B4)", "=Data!B4", "=COUNTA(Data!A:A)"]]
    assert show(raw, sid, "Report!A1:C1") == [["16", "3", "4"]]
    batch(
        raw, sid, {"updateSheetProperties": {"properties": {"sheetId": data, "title": "Raw data"}, "fields": "title"}}
    )
    assert show(raw, sid, "Report!A1:B1", "FORMULA") == [["=SUM('Raw data'!B1:B4)", "='Raw data'!B4"]]
    batch(
        raw, sid, {"deleteDimension": {"range": {"sheetId": data, "dimension": "ROWS", "startIndex": 3, "endIndex": 4}}}
    )
    assert show(raw, sid, "Report!A1:B1", "FORMULA") == [["=SUM('Raw data'!B1:B3)", "=#REF!"]]
    assert show(raw, sid, "Report!A1:B1") == [["13", "#REF!"]]
    batch(raw, sid, {"deleteSheet": {"sheetId": data}})
    assert show(raw, sid, "Report!A1", "FORMULA") == [["=SUM(#REF!)"]]


def formula_calls(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """Count formula evaluations (calls into the formula library), whoever makes them: the
    embedded server runs in this process. Returns "how many since you last asked"."""
    count = 0
    real = Calculator._call

    def counted(self: Calculator, key: Any, compiled: Any) -> Any:
        nonlocal count
        count += 1
        return real(self, key, compiled)

    monkeypatch.setattr(Calculator, "_call", counted)

    def since_last() -> int:
        nonlocal count
        seen, count = count, 0
        return seen

    return since_last


GENEROUS_S = 600.0
"""The wall-clock guards of the chain test below. The server's 30 s recalculation deadline and the
client's 60 s timeout protect a world from runaway formulas; here they would only measure how busy
the machine is (the 2,000-formula chain took 44 s in-process with a load average of 11 on 2 cores)."""


def test_long_dependency_chain_and_recompute_cost(raw: httpx.Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """A running balance over 2,000 rows: no recursion limit, and recomputing stays cheap.

    Cheap is counted in formula evaluations, not seconds: a wall-clock bound measured the
    machine (it failed under ``-n 4`` on 2 busy cores), while the count is what the incremental
    recomputation promises: an edit re-evaluates exactly the formulas that read it."""
    monkeypatch.setattr(budget, "RECALC_DEADLINE_S", GENEROUS_S)
    monkeypatch.setattr(raw, "timeout", httpx.Timeout(GENEROUS_S))
    n = 2000
    sid = book(raw, "Ledger", rows=n + 1)
    rows = [["Amount", "Balance"], [1, "=A2"]] + [[1, f"=B{r - 1}+A{r}"] for r in range(3, n + 2)]
    calls = formula_calls(monkeypatch)
    put(raw, sid, "Ledger!A1", rows)
    assert show(raw, sid, f"Ledger!B{n + 1}", "UNFORMATTED_VALUE") == [[n]]
    assert calls() == n  # every balance, once
    put(raw, sid, "Ledger!A2", [[1001]])
    assert show(raw, sid, f"Ledger!B{n + 1}", "UNFORMATTED_VALUE") == [[n + 1000]]
    assert calls() == n  # everything depends on the top amount
    put(raw, sid, f"Ledger!A{n + 1}", [[2]])  # only the last balance reads this cell
    assert show(raw, sid, f"Ledger!B{n + 1}", "UNFORMATTED_VALUE") == [[n + 1001]]
    assert calls() == 1
    assert show(raw, sid, "Ledger!B2:B3", "UNFORMATTED_VALUE") == [[1001], [1002]]
    assert calls() == 0  # reading again recomputes nothing


EDITS = st.lists(
    st.tuples(
        st.integers(0, 5),
        st.integers(0, 3),
        st.sampled_from([None, 0, 1, 2.5, -3, "x", "=A1+1", "=SUM(B:B)", "=C2*2", "=IF(A2>1,D1,0)"]),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(edits=st.lists(EDITS, min_size=1, max_size=4))
def test_incremental_results_equal_a_full_recomputation(edits: list[list[tuple[int, int, Any]]]) -> None:
    """Whatever the edits, reusing the last version's results gives what recomputing all does."""
    store = Store()
    sid = store.create("P", [Sheet(0, "S", 10, 5)]).id
    with store.edit(sid) as ss:
        write_values(ss, "S!A1", [[1, 2, "=A1+B1", "=SUM(A1:C1)"], [3, "=D1*2", "=B2+A2", "=C2+1"]], "USER_ENTERED")
    current = store.get(sid)
    [[current.value(s, r, c) for (r, c) in list(s.cells)] for s in current.sheets]  # evaluate v1
    for batch_of_edits in edits:
        with store.edit(sid) as ss:
            sheet = ss.sheets[0]
            for r, c, value in batch_of_edits:
                ss.set_cell(sheet, r, c, None if value is None else make_cell(value, "USER_ENTERED"))
        current = store.get(sid)
        sheet = current.sheets[0]
        fresh = Calculator(current)
        for r, c in sorted(sheet.cells):
            assert current.value(sheet, r, c) == fresh.value(sheet, r, c), (r, c, sheet.cells[(r, c)])


def test_today_follows_the_in_universe_clock(world: World) -> None:  # noqa: F811  (a fixture imported above)
    sid = world.sheets.create_spreadsheet("Clock", {"S": [["=TODAY()", "=NOW()"]]})
    assert sid
    assert world.sheets.values("Clock", "S!A1:B1", "FORMATTED_VALUE") == [["4/7/2025", "4/7/2025 9:00:00"]]
    world.clock = datetime(2025, 4, 8, 9, 30, tzinfo=timezone(timedelta(hours=8)))
    world.sheets.set_values("Clock", "S!C1", [["touch"]])  # any edit recomputes
    assert world.sheets.values("Clock", "S!A1:B1", "FORMATTED_VALUE") == [["4/8/2025", "4/8/2025 9:30:00"]]
