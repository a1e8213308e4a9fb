"""Values semantics over plain HTTP: A1 ranges, input parsing, rendering, trimming, append."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sheets_support import google_error, shared_raw, shared_world  # noqa: F401  (fixtures)

from pytest_clawmark.servers.sheets.a1 import col_index, col_letters, format_range, parse_a1


@pytest.fixture
def raw(shared_raw: httpx.Client) -> httpx.Client:
    """Every test makes its own spreadsheets, so one world serves the whole module."""
    return shared_raw


def new(raw: httpx.Client, title: str = "T", sheets: list[str] | None = None) -> str:
    body: dict[str, Any] = {"properties": {"title": title}}
    if sheets:
        body["sheets"] = [{"properties": {"title": s}} for s in sheets]
    return raw.post("/v4/spreadsheets", json=body).json()["spreadsheetId"]


def put(
    raw: httpx.Client, sid: str, rng: str, values: list[list[Any]], option: str = "USER_ENTERED", **params: Any
) -> httpx.Response:
    return raw.put(
        f"/v4/spreadsheets/{sid}/values/{quote(rng)}",
        params={"valueInputOption": option, **params},
        json={"values": values},
    )


def get(raw: httpx.Client, sid: str, rng: str, **params: Any) -> dict[str, Any]:
    r = raw.get(f"/v4/spreadsheets/{sid}/values/{quote(rng)}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def append(raw: httpx.Client, sid: str, rng: str, values: list[list[Any]], **params: Any) -> dict[str, Any]:
    r = raw.post(
        f"/v4/spreadsheets/{sid}/values/{quote(rng)}:append",
        params={"valueInputOption": "USER_ENTERED", **params},
        json={"values": values},
    )
    assert r.status_code == 200, r.text
    return r.json()


# -- A1 notation (pure) ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, expected",
    [
        ("A1", (None, 0, 0, 1, 1, True)),
        ("b3:a1", (None, 0, 0, 3, 2, False)),
        ("Sheet1", ("Sheet1", None, None, None, None, False)),
        ("'My Sheet'!A:C", ("My Sheet", None, 0, None, 3, False)),
        ("'It''s'!2:4", ("It's", 1, None, 4, None, False)),
        ("Data!A2:C", ("Data", 1, 0, None, 3, False)),
        ("Data!$A$1:$B$2", ("Data", 0, 0, 2, 2, False)),
        ("A1:1", (None, 0, 0, 1, None, False)),
        ("My Sheet!B2", ("My Sheet", 1, 1, 2, 2, True)),
        ("'Q1/Q2'", ("Q1/Q2", None, None, None, None, False)),
    ],
)
def test_parse_a1(text: str, expected: tuple[Any, ...]) -> None:
    ref = parse_a1(text)
    assert (ref.sheet, ref.row0, ref.col0, ref.row1, ref.col1, ref.single_cell) == expected


@given(
    title=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30).filter(
        lambda t: t.strip() == t and t
    ),
    r0=st.integers(0, 5000),
    c0=st.integers(0, 700),
    h=st.integers(1, 50),
    w=st.integers(1, 30),
)
def test_format_parse_round_trip(title: str, r0: int, c0: int, h: int, w: int) -> None:
    text = format_range(title, r0, c0, r0 + h, c0 + w)
    ref = parse_a1(text)
    assert (ref.sheet, ref.row0, ref.col0, ref.row1, ref.col1) == (title, r0, c0, r0 + h, c0 + w)


@given(st.integers(0, 18277))
def test_column_letters_round_trip(n: int) -> None:
    assert col_index(col_letters(n)) == n


# -- reading -----------------------------------------------------------------------------------
def test_trimming_and_ranges_as_google_names_them(raw: httpx.Client) -> None:
    sid = new(raw, sheets=["My Sheet"])
    assert put(raw, sid, "'My Sheet'!A1", [["a", "", "c", ""], [], ["", "x"], ["", ""]]).status_code == 200
    full = get(raw, sid, "My Sheet")
    assert full == {"range": "'My Sheet'!A1:Z1000", "majorDimension": "ROWS", "values": [["a", "", "c"], [], ["", "x"]]}
    assert get(raw, sid, "'My Sheet'!B:C")["values"] == [["", "c"], [], ["x"]]
    assert get(raw, sid, "'My Sheet'!B:C")["range"] == "'My Sheet'!B1:C1000"
    assert get(raw, sid, "'My Sheet'!3:4") == {
        "range": "'My Sheet'!A3:Z4",
        "majorDimension": "ROWS",
        "values": [["", "x"]],
    }
    assert get(raw, sid, "'My Sheet'!A1:C", majorDimension="COLUMNS")["values"] == [["a"], ["", "", "x"], ["c"]]
    assert "values" not in get(raw, sid, "'My Sheet'!E5:F6")
    # Percent-encoding of every kind reaches the same range; sheet names ignore case.
    encoded = raw.get(f"/v4/spreadsheets/{sid}/values/%27my%20sheet%27%21A1%3AC1").json()
    assert encoded["values"] == [["a", "", "c"]]
    plain = raw.get(f"/v4/spreadsheets/{sid}/values/'My Sheet'!A1:C1").json()
    assert plain["values"] == [["a", "", "c"]]


def test_update_anchor_bounds_nulls_and_clearing(raw: httpx.Client) -> None:
    sid = new(raw)
    put(raw, sid, "B2", [[1, 2, 3], [4, 5, 6]])
    assert get(raw, sid, "A1:D3")["values"] == [[], ["", "1", "2", "3"], ["", "4", "5", "6"]]
    r = put(raw, sid, "B2:C3", [[1, 2, 3]])
    assert "tried writing to column [D]" in google_error(r, 400, "INVALID_ARGUMENT")["message"]
    r = put(raw, sid, "B2:D2", [[1], [2]])
    assert "tried writing to row [3]" in google_error(r, 400)["message"]
    body = put(raw, sid, "B2", [[None, "", "z"]]).json()
    assert body["updatedRange"] == "Sheet1!B2:D2" and body["updatedCells"] == 2
    assert get(raw, sid, "B2:D2")["values"] == [["1", "", "z"]]
    r = put(raw, sid, "Z1000", [[1, 2]])
    assert (
        google_error(r, 400)["message"]
        == "Range (Sheet1!Z1000:AA1000) exceeds grid limits. Max rows: 1000, max columns: 26"
    )
    r = raw.put(
        f"/v4/spreadsheets/{sid}/values/A1", params={"valueInputOption": "RAW"}, json={"range": "B1", "values": [[1]]}
    )
    assert "does not match" in google_error(r, 400)["message"]
    r = raw.put(f"/v4/spreadsheets/{sid}/values/A1", json={"values": [[1]]})
    assert google_error(r, 400)["message"] == "'valueInputOption' is required but not specified"
    r = raw.put(
        f"/v4/spreadsheets/{sid}/values/F1",
        params={"valueInputOption": "RAW"},
        json={"majorDimension": "COLUMNS", "values": [["a", "b"], ["c"]]},
    )
    cols = r.json()
    assert cols["updatedRange"] == "Sheet1!F1:G2"
    assert get(raw, sid, "F1:G2")["values"] == [["a", "c"], ["b"]]


@pytest.mark.parametrize(
    "typed, formatted, unformatted",
    [
        ("42", "42", 42),
        ("-3.5", "-3.5", -3.5),
        ("1,234.5", "1,234.5", 1234.5),
        ("$12.5", "$12.50", 12.5),
        ("15%", "15%", 0.15),
        ("2.5%", "2.5%", 0.025),
        ("true", "TRUE", True),
        ("2025-04-07", "2025-04-07", 45754),
        ("4/7/2025", "4/7/2025", 45754),
        ("2025-04-07 13:30", "2025-04-07 13:30", 45754.5625),
        ("9:05 PM", "9:05 PM", pytest.approx(21 / 24 + 5 / 1440)),
        ("'0123", "0123", "0123"),
        ("2025-02-30", "2025-02-30", "2025-02-30"),
        ("=1+2", "3", 3),
        ("=1/3", "0.3333333333", pytest.approx(1 / 3)),
        ("=TODAY()", "4/7/2025", 45754),
        ("  padded  ", "  padded  ", "  padded  "),
    ],
)
def test_user_entered_parsing_and_rendering(raw: httpx.Client, typed: str, formatted: str, unformatted: Any) -> None:
    sid = new(raw)
    put(raw, sid, "A1", [[typed]])
    assert get(raw, sid, "A1")["values"] == [[formatted]]
    assert get(raw, sid, "A1", valueRenderOption="UNFORMATTED_VALUE")["values"] == [[unformatted]]
    assert get(raw, sid, "A1", valueRenderOption="FORMULA")["values"][0][0] in (typed, unformatted)


def test_raw_input_keeps_text_and_datetime_render_option(raw: httpx.Client) -> None:
    sid = new(raw)
    put(raw, sid, "A1", [["=1+2", "15%", 7, True]], option="RAW")
    assert get(raw, sid, "A1:D1", valueRenderOption="UNFORMATTED_VALUE")["values"] == [["=1+2", "15%", 7, True]]
    put(raw, sid, "A2", [["2025-04-07"]])
    assert get(raw, sid, "A2", valueRenderOption="UNFORMATTED_VALUE", dateTimeRenderOption="FORMATTED_STRING")[
        "values"
    ] == [["2025-04-07"]]


# -- append ------------------------------------------------------------------------------------
def test_append_finds_the_table(raw: httpx.Client) -> None:
    sid = new(raw)
    put(raw, sid, "B2", [["h1", "h2"], ["a", 1], ["b", 2]])
    res = append(raw, sid, "Sheet1", [["c", 3]])
    assert res["tableRange"] == "Sheet1!B2:C4"
    assert res["updates"] == {
        "spreadsheetId": sid,
        "updatedRange": "Sheet1!B5:C5",
        "updatedRows": 1,
        "updatedColumns": 2,
        "updatedCells": 2,
    }
    # A table further down, after a gap: appends go after the *first* table, into the gap (as Google).
    put(raw, sid, "B8", [["other"]])
    assert append(raw, sid, "Sheet1!A1:D", [["d", 4]])["updates"]["updatedRange"] == "Sheet1!B6:C6"
    # A single cell only says where to start looking.
    assert append(raw, sid, "B2", [["e", 5]])["updates"]["updatedRange"] == "Sheet1!B7:C7"
    # Empty range: written at its top-left; no tableRange.
    res = append(raw, sid, "F10:G10", [["x", "y"]])
    assert "tableRange" not in res and res["updates"]["updatedRange"] == "Sheet1!F10:G10"


def test_append_insert_rows_vs_overwrite_and_grid_growth(raw: httpx.Client) -> None:
    sid = new(raw)
    put(raw, sid, "A1", [["k"], ["a"], [None], ["below"]])
    append(raw, sid, "A1", [["b"]], insertDataOption="INSERT_ROWS")
    assert get(raw, sid, "A1:A6")["values"] == [["k"], ["a"], ["b"], [], ["below"]]
    append(raw, sid, "A1", [["c"]])  # OVERWRITE: lands in the empty row 4
    assert get(raw, sid, "A1:A6")["values"] == [["k"], ["a"], ["b"], ["c"], ["below"]]
    assert append(raw, sid, "A1", [["d"]])["tableRange"] == "Sheet1!A1:A5"  # now one table
    # OVERWRITE writes over whatever lies in the way; INSERT_ROWS pushes it down.
    over = new(raw, "Over")
    put(raw, over, "A1", [["k"], ["a"], [None, None], [None, "in the way"]])
    res = append(raw, over, "A1", [["b", 1], ["c", 2]], insertDataOption="OVERWRITE")
    assert res["updates"]["updatedRange"] == "Sheet1!A3:B4"
    assert get(raw, over, "A1:B5")["values"] == [["k"], ["a"], ["b", "1"], ["c", "2"]]
    put(raw, over, "D10", [["in the way"]])
    append(raw, over, "A1:B", [["d", 3]], insertDataOption="INSERT_ROWS")
    assert get(raw, over, "D10:D11")["values"] == [[], ["in the way"]]
    tail = new(raw, "Tail")
    put(raw, tail, "A1000", [["last"]])
    res = append(raw, tail, "A1000", [["more"], ["and more"]])
    assert res["updates"]["updatedRange"] == "Sheet1!A1001:A1002"
    meta = raw.get(f"/v4/spreadsheets/{tail}").json()
    assert meta["sheets"][0]["properties"]["gridProperties"]["rowCount"] == 1002


def test_clear_and_batch_clear_keep_the_grid(raw: httpx.Client) -> None:
    sid = new(raw)
    put(raw, sid, "A1", [[1, 2], [3, 4]])
    r = raw.post(f"/v4/spreadsheets/{sid}/values/A1:A2:clear")
    assert r.json() == {"spreadsheetId": sid, "clearedRange": "Sheet1!A1:A2"}
    assert get(raw, sid, "Sheet1")["values"] == [["", "2"], ["", "4"]]
    r = raw.post(f"/v4/spreadsheets/{sid}/values:batchClear", json={"ranges": ["B1", "Sheet1!B2"]})
    assert r.json()["clearedRanges"] == ["Sheet1!B1", "Sheet1!B2"]
    assert "values" not in get(raw, sid, "Sheet1")


def test_fields_mask_on_values(raw: httpx.Client) -> None:
    sid = new(raw)
    put(raw, sid, "A1", [[1]])
    r = raw.get(f"/v4/spreadsheets/{sid}/values/A1", params={"fields": "values"})
    assert r.json() == {"values": [["1"]]}
    r = raw.get(
        f"/v4/spreadsheets/{sid}", params={"fields": "sheets(properties(title,gridProperties/rowCount)),spreadsheetId"}
    )
    assert r.json() == {
        "spreadsheetId": sid,
        "sheets": [{"properties": {"title": "Sheet1", "gridProperties": {"rowCount": 1000}}}],
    }
