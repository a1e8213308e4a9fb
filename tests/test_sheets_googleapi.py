"""Google's own discovery client (google-api-python-client), unmodified: Sheets v4 and Drive v3."""

from __future__ import annotations

import json
from typing import Any

import pytest
from googleapiclient.errors import HttpError
from sheets_support import budget, drive_api, sheets_api, world  # noqa: F401  (fixtures)

from pytest_clawmark.world import World

SHEETS_MIME = "application/vnd.google-apps.spreadsheet"


def test_sheets_basics(sheets_api: Any) -> None:
    created = (
        sheets_api.spreadsheets()
        .create(
            body={
                "properties": {"title": "Inventory"},
                "sheets": [{"properties": {"title": "Stock", "gridProperties": {"rowCount": 20, "columnCount": 4}}}],
            }
        )
        .execute()
    )
    sid = created["spreadsheetId"]
    assert created["properties"]["title"] == "Inventory"
    assert created["sheets"][0]["properties"] == {
        "sheetId": 0,
        "title": "Stock",
        "index": 0,
        "sheetType": "GRID",
        "gridProperties": {"rowCount": 20, "columnCount": 4},
    }
    values = sheets_api.spreadsheets().values()
    upd = values.update(
        spreadsheetId=sid,
        range="Stock!A1",
        valueInputOption="USER_ENTERED",
        body={"values": [["Part", "Qty", "Price"], ["Bolt", "12", "$0.25"], ["Nut", 30, "$0.10"]]},
    ).execute()
    assert upd == {
        "spreadsheetId": sid,
        "updatedRange": "Stock!A1:C3",
        "updatedRows": 3,
        "updatedColumns": 3,
        "updatedCells": 9,
    }
    got = values.get(spreadsheetId=sid, range="Stock!A1:C").execute()
    assert got == {
        "range": "Stock!A1:C20",
        "majorDimension": "ROWS",
        "values": [["Part", "Qty", "Price"], ["Bolt", "12", "$0.25"], ["Nut", "30", "$0.10"]],
    }
    cols = values.get(
        spreadsheetId=sid, range="Stock!B2:C3", majorDimension="COLUMNS", valueRenderOption="UNFORMATTED_VALUE"
    ).execute()
    assert cols["values"] == [[12, 30], [0.25, 0.1]]
    app = values.append(
        spreadsheetId=sid,
        range="Stock",
        valueInputOption="USER_ENTERED",
        insertDataOption="INSERT_ROWS",
        includeValuesInResponse=True,
        body={"values": [["Washer", 100, "=C3/2"]]},
    ).execute()
    assert app["tableRange"] == "Stock!A1:C3"
    assert app["updates"]["updatedRange"] == "Stock!A4:C4"
    assert app["updates"]["updatedData"]["values"] == [["Washer", "100", "0.05"]]
    batch = values.batchUpdate(
        spreadsheetId=sid,
        body={
            "valueInputOption": "RAW",
            "data": [
                {"range": "Stock!D1", "values": [["Note"]]},
                {"range": "Stock!D2:D3", "majorDimension": "COLUMNS", "values": [["ok", "low"]]},
            ],
        },
    ).execute()
    assert batch["totalUpdatedCells"] == 3 and batch["totalUpdatedSheets"] == 1 and len(batch["responses"]) == 2
    bg = values.batchGet(spreadsheetId=sid, ranges=["Stock!D1:D3", "Stock!A4"]).execute()
    assert [vr.get("values") for vr in bg["valueRanges"]] == [[["Note"], ["ok"], ["low"]], [["Washer"]]]
    cleared = values.clear(spreadsheetId=sid, range="Stock!D:D", body={}).execute()
    assert cleared == {"spreadsheetId": sid, "clearedRange": "Stock!D1:D21"}
    bc = values.batchClear(spreadsheetId=sid, body={"ranges": ["Stock!A4:C4"]}).execute()
    assert bc["clearedRanges"] == ["Stock!A4:C4"]
    assert values.get(spreadsheetId=sid, range="Stock").execute()["values"][-1] == ["Nut", "30", "$0.10"]


def test_spreadsheet_get_grid_data_and_fields(sheets_api: Any, budget: str) -> None:
    meta = sheets_api.spreadsheets().get(spreadsheetId=budget, fields="sheets(properties(sheetId,title))").execute()
    assert [s["properties"]["title"] for s in meta["sheets"]] == ["Data", "Summary"]
    assert set(meta) == {"sheets"} and set(meta["sheets"][0]["properties"]) == {"sheetId", "title"}
    grid = sheets_api.spreadsheets().get(spreadsheetId=budget, ranges=["Summary!A1:B2"], includeGridData=True).execute()
    assert [s["properties"]["title"] for s in grid["sheets"]] == ["Summary"]
    row = grid["sheets"][0]["data"][0]["rowData"][0]["values"]
    assert row[0] == {
        "userEnteredValue": {"stringValue": "Total"},
        "effectiveValue": {"stringValue": "Total"},
        "formattedValue": "Total",
    }
    assert row[1] == {
        "userEnteredValue": {"formulaValue": "=SUM(Data!B2:B100)"},
        "effectiveValue": {"numberValue": 14.75},
        "formattedValue": "14.75",
    }
    date = sheets_api.spreadsheets().get(spreadsheetId=budget, ranges=["Data!C2"], includeGridData=True).execute()
    cell = date["sheets"][0]["data"][0]["rowData"][0]["values"][0]
    assert cell["effectiveValue"] == {"numberValue": 45754} and cell["formattedValue"] == "2025-04-07"
    assert cell["userEnteredFormat"]["numberFormat"] == {"type": "DATE", "pattern": "yyyy-mm-dd"}


def test_batch_update_structure(sheets_api: Any, budget: str) -> None:
    ss = sheets_api.spreadsheets()
    reply = ss.batchUpdate(
        spreadsheetId=budget,
        body={
            "requests": [
                {"addSheet": {"properties": {"title": "Notes", "index": 0}}},
                {"updateSpreadsheetProperties": {"properties": {"title": "Budget 2025"}, "fields": "title"}},
                {
                    "repeatCell": {
                        "range": {"sheetId": 0, "endRowIndex": 1},
                        "cell": {"userEnteredFormat": {"textFormat": {"bold": True}}},
                        "fields": "userEnteredFormat.textFormat.bold",
                    }
                },
            ]
        },
    ).execute()
    notes = reply["replies"][0]["addSheet"]["properties"]
    assert notes["title"] == "Notes" and notes["index"] == 0 and notes["sheetId"] > 0
    assert reply["replies"][1:] == [{}, {}]
    ss.batchUpdate(
        spreadsheetId=budget,
        body={
            "requests": [
                {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}}},
                {
                    "updateCells": {
                        "start": {"sheetId": 0, "rowIndex": 1},
                        "fields": "userEnteredValue",
                        "rows": [
                            {
                                "values": [
                                    {"userEnteredValue": {"stringValue": "Bread"}},
                                    {"userEnteredValue": {"numberValue": 2}},
                                ]
                            }
                        ],
                    }
                },
                {"deleteDimension": {"range": {"sheetId": 0, "dimension": "COLUMNS", "startIndex": 3, "endIndex": 4}}},
            ]
        },
    ).execute()
    data = ss.values().get(spreadsheetId=budget, range="Data").execute()["values"]
    assert data[:3] == [["Item", "Cost", "Date"], ["Bread", "2"], ["Coffee", "4.5", "2025-04-07"]]
    # As in Google Sheets, a row inserted above a range's first row moves the range, not grows it.
    total = ss.values().get(spreadsheetId=budget, range="Summary!B1", valueRenderOption="FORMULA").execute()
    assert total["values"] == [["=SUM(Data!B3:B101)"]]
    assert ss.values().get(spreadsheetId=budget, range="Summary!B1").execute()["values"] == [["14.75"]]
    titles = [s["properties"]["title"] for s in ss.get(spreadsheetId=budget).execute()["sheets"]]
    assert titles == ["Notes", "Data", "Summary"]


def test_errors_reach_the_client_in_google_shape(sheets_api: Any, budget: str) -> None:
    with pytest.raises(HttpError) as err:
        sheets_api.spreadsheets().values().get(spreadsheetId=budget, range="Nope!A1").execute()
    assert err.value.resp.status == 400
    assert json.loads(err.value.content)["error"]["status"] == "INVALID_ARGUMENT"
    with pytest.raises(HttpError) as err:
        sheets_api.spreadsheets().get(spreadsheetId="1missing").execute()
    assert err.value.resp.status == 404
    with pytest.raises(HttpError) as err:
        sheets_api.spreadsheets().batchUpdate(
            spreadsheetId=budget, body={"requests": [{"deleteSheet": {"sheetId": 999}}]}
        ).execute()
    assert "No grid with id: 999" in str(err.value)


def test_drive_files(world: World, drive_api: Any, sheets_api: Any, budget: str) -> None:
    files = drive_api.files()
    created = files.create(body={"name": "Ward rota", "mimeType": SHEETS_MIME}, fields="id,name,createdTime").execute()
    assert created["name"] == "Ward rota" and created["createdTime"] == "2025-04-07T01:00:00.000Z"
    for name in ("Alpha", "Beta", "Gamma"):
        files.create(body={"name": name, "mimeType": SHEETS_MIME}).execute()
    listed = files.list(q=f"mimeType = '{SHEETS_MIME}' and trashed = false").execute()
    assert listed["kind"] == "drive#fileList"
    assert [f["name"] for f in listed["files"]] == ["Budget", "Ward rota", "Alpha", "Beta", "Gamma"]
    assert set(listed["files"][0]) == {"kind", "id", "name", "mimeType"}
    one = files.list(
        q="name = 'Budget' and trashed = false",
        fields="files(id,name,modifiedTime)",
        supportsAllDrives=True,
        includeItemsFromAllDrives=True,
    ).execute()
    assert one == {"files": [{"id": budget, "name": "Budget", "modifiedTime": "2025-04-07T01:00:00.000Z"}]}
    # Paging: two at a time, in a stable order.
    seen, token = [], None
    while True:
        page = files.list(pageSize=2, pageToken=token, orderBy="name", fields="nextPageToken,files(name)").execute()
        seen += [f["name"] for f in page["files"]]
        token = page.get("nextPageToken")
        if not token:
            break
    assert seen == ["Alpha", "Beta", "Budget", "Gamma", "Ward rota"]
    assert [f["name"] for f in files.list(q="name contains 'a' and not name contains 'w'").execute()["files"]] == [
        "Alpha",
        "Beta",
        "Gamma",
    ]
    assert [f["name"] for f in files.list(q="fullText contains 'coffee'").execute()["files"]] == ["Budget"]
    # Rename and trash through Drive; the Sheets API sees the new title.
    files.update(fileId=created["id"], body={"name": "Rota"}).execute()
    assert sheets_api.spreadsheets().get(spreadsheetId=created["id"]).execute()["properties"]["title"] == "Rota"
    files.update(fileId=created["id"], body={"trashed": True}).execute()
    names = [f["name"] for f in files.list(q="trashed = false").execute()["files"]]
    assert "Rota" not in names and len(names) == 4
    assert files.get(fileId=created["id"], fields="trashed").execute() == {"trashed": True}
    files.delete(fileId=created["id"]).execute()
    with pytest.raises(HttpError) as err:
        files.get(fileId=created["id"]).execute()
    assert err.value.resp.status == 404
    body = json.loads(err.value.content)["error"]
    assert body["errors"][0]["reason"] == "notFound"
    with pytest.raises(HttpError) as err:
        files.list(q="name = ").execute()
    assert err.value.resp.status == 400
    with pytest.raises(HttpError) as err:
        files.create(body={"name": "notes.txt", "mimeType": "text/plain"}).execute()
    assert err.value.resp.status == 400
    csv = files.export(fileId=budget, mimeType="text/csv").execute()
    assert csv.decode().splitlines()[:2] == ["Item,Cost,Date,Owner", "Coffee,4.5,2025-04-07,Ana"]
