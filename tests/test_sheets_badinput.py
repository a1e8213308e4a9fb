"""Bad input never crashes the server nor changes state, and is answered in Google's error shape."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sheets_support import BUDGET, agent, agent_http, google_error, make_world

from pytest_clawmark.world import World

Case = tuple[str, str, dict[str, Any], int, str]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = make_world(tmp_path_factory.mktemp("bad"))
    w.sheets.create_spreadsheet("Budget", BUDGET)
    yield w
    w.stop()


@pytest.fixture(scope="module")
def raw(seeded: World) -> Iterator[httpx.Client]:
    with agent_http(seeded, timeout=10) as c:
        yield c


@pytest.fixture(scope="module")
def sid(seeded: World) -> str:
    return seeded.sheets.spreadsheet("Budget").id


def batch(*requests: Any) -> dict[str, Any]:
    return {"json": {"requests": list(requests)}}


UE = {"valueInputOption": "USER_ENTERED"}
# (method, path template with {sid}, request kwargs, expected code, expected status)
CASES: list[Case] = [
    ("PUT", "/v4/spreadsheets/{sid}/values/A1", {"params": UE, "content": b"{not json"}, 400, "INVALID_ARGUMENT"),
    ("PUT", "/v4/spreadsheets/{sid}/values/A1", {"params": UE, "content": b"[1, 2]"}, 400, "INVALID_ARGUMENT"),
    ("PUT", "/v4/spreadsheets/{sid}/values/A1", {"params": UE, "content": b"\xff\xfe"}, 400, "INVALID_ARGUMENT"),
    ("PUT", "/v4/spreadsheets/{sid}/values/A1", {"params": UE, "json": {"values": "abc"}}, 400, "INVALID_ARGUMENT"),
    ("PUT", "/v4/spreadsheets/{sid}/values/A1", {"params": UE, "json": {"values": [1, 2]}}, 400, "INVALID_ARGUMENT"),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": UE, "json": {"values": [[{"a": 1}]]}},
        400,
        "INVALID_ARGUMENT",
    ),
    ("PUT", "/v4/spreadsheets/{sid}/values/A1", {"params": UE, "json": {"values": [[[1]]]}}, 400, "INVALID_ARGUMENT"),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": UE, "json": {"values": [[1]], "extra": 1}},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": {"valueInputOption": "TYPED"}, "json": {"values": [[1]]}},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": UE, "json": {"majorDimension": 5, "values": [[1]]}},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": UE, "content": b'{"values": [[NaN]]}'},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": UE, "content": b'{"values": [[1e400]]}'},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "PUT",
        "/v4/spreadsheets/{sid}/values/A1",
        {"params": UE, "content": b'{"values": [[1' + b"0" * 400 + b"]]}"},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}/values/Data:append",
        {"params": {**UE, "insertDataOption": "SIDEWAYS"}, "json": {"values": [[1]]}},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}/values:batchUpdate",
        {"json": {"data": [{"range": "A1", "values": [[1]]}]}},
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}/values:batchUpdate",
        {
            "json": {
                "valueInputOption": "RAW",
                "data": [{"range": "A1", "values": [[1]]}, {"range": "Nope!A1", "values": [[2]]}],
            }
        },
        400,
        "INVALID_ARGUMENT",
    ),
    ("POST", "/v4/spreadsheets/{sid}/values:batchClear", {"json": {"ranges": "A1"}}, 400, "INVALID_ARGUMENT"),
    (
        "POST",
        "/v4/spreadsheets/{sid}/values:batchClear",
        {"json": {"ranges": ["A1", "Nope!A1"]}},
        400,
        "INVALID_ARGUMENT",
    ),
    ("POST", "/v4/spreadsheets/{sid}:batchUpdate", {"json": {"requests": {"addSheet": {}}}}, 400, "INVALID_ARGUMENT"),
    ("POST", "/v4/spreadsheets/{sid}:batchUpdate", batch({"frobnicate": {}}), 400, "INVALID_ARGUMENT"),
    ("POST", "/v4/spreadsheets/{sid}:batchUpdate", batch({}), 400, "INVALID_ARGUMENT"),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"addSheet": {}, "deleteSheet": {"sheetId": 0}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"addSheet": {"properties": {"title": 5}}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"addSheet": {"properties": {"title": "data"}}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"addSheet": {"properties": {"title": "New"}}}, {"deleteSheet": {"sheetId": 424242}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": "x", "endIndex": 2}}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch(
            {"insertDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 20_000_000}}}
        ),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"deleteDimension": {"range": {"sheetId": 0, "dimension": "ROWS", "startIndex": 0, "endIndex": 1000}}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"deleteDimension": {"range": {"sheetId": 0, "dimension": "SIDEWAYS"}}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"updateSheetProperties": {"properties": {"sheetId": 0, "title": "X"}}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"updateSheetProperties": {"properties": {"sheetId": 0, "title": "X"}, "fields": "title,((("}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch(
            {
                "updateSheetProperties": {
                    "properties": {"sheetId": 0, "gridProperties": {"rowCount": 0}},
                    "fields": "gridProperties.rowCount",
                }
            }
        ),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"findReplace": {"find": "a", "replacement": "b", "allSheets": True}}),
        501,
        "UNIMPLEMENTED",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch({"sortRange": {"range": {"sheetId": 0}, "sortSpecs": [{"dimensionIndex": 30}]}}),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets/{sid}:batchUpdate",
        batch(
            {
                "updateCells": {
                    "start": {"sheetId": 0},
                    "rows": [{"values": [{"userEnteredValue": {"numberValue": "1"}}]}],
                    "fields": "*",
                }
            }
        ),
        400,
        "INVALID_ARGUMENT",
    ),
    (
        "POST",
        "/v4/spreadsheets",
        {"json": {"sheets": [{"properties": {"title": "A"}}, {"properties": {"title": "a"}}]}},
        400,
        "INVALID_ARGUMENT",
    ),
    ("POST", "/v4/spreadsheets", {"json": {"properties": {"title": ["x"]}}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/v4/spreadsheets/{sid}", {"params": {"fields": "sheets(("}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/v4/spreadsheets/{sid}", {"params": {"includeGridData": "maybe"}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/v4/spreadsheets/{sid}/values/A1", {"params": {"valueRenderOption": "PRETTY"}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/v4/spreadsheets/1nope", {}, 404, "NOT_FOUND"),
    ("GET", "/v4/spreadsheets/1nope/values/A1", {}, 404, "NOT_FOUND"),
    ("PUT", "/v4/spreadsheets/1nope/values/A1", {"params": UE, "json": {"values": [[1]]}}, 404, "NOT_FOUND"),
    ("GET", "/v4/nothing/here", {}, 404, "NOT_FOUND"),
    ("DELETE", "/v4/spreadsheets/{sid}", {}, 405, "METHOD_NOT_ALLOWED"),
    ("GET", "/drive/v3/files", {"params": {"q": "name = "}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/drive/v3/files", {"params": {"q": "colour = 'red'"}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/drive/v3/files", {"params": {"q": "(name = 'x'"}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/drive/v3/files", {"params": {"pageToken": "garbage!"}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/drive/v3/files", {"params": {"pageSize": "0"}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/drive/v3/files", {"params": {"orderBy": "size"}}, 400, "INVALID_ARGUMENT"),
    ("POST", "/drive/v3/files", {"json": {"name": "x.pdf", "mimeType": "application/pdf"}}, 400, "INVALID_ARGUMENT"),
    ("PATCH", "/drive/v3/files/{sid}", {"json": {"name": ""}}, 400, "INVALID_ARGUMENT"),
    ("GET", "/drive/v3/files/1nope", {}, 404, "NOT_FOUND"),
    ("DELETE", "/drive/v3/files/1nope", {}, 404, "NOT_FOUND"),
    ("GET", "/drive/v3/files/{sid}/export", {"params": {"mimeType": "application/pdf"}}, 400, "INVALID_ARGUMENT"),
]

BAD_RANGES = [
    "A0",
    "ZZZZ1",
    "Sheet1!",
    "!A1",
    "'Data!A1",
    "A1:B2:C3",
    "Nope!A1",
    "Data!A1:Nope",
    "A1:",
    "'Data'B2",
    " ",
    "Data!AAAA:B",
    "A123456789",
]


def test_bad_requests_answer_in_google_shape_and_change_nothing(seeded: World, raw: httpx.Client, sid: str) -> None:
    before = seeded.sheets.snapshot()
    for method, path, kwargs, code, status in CASES:
        response = raw.request(method, path.format(sid=sid), **kwargs)
        try:
            google_error(response, code, status)
        except AssertionError as exc:
            raise AssertionError(f"{method} {path} {kwargs}: {exc}") from None
    for rng in BAD_RANGES:
        for method, suffix, kwargs in (
            ("GET", "", {}),
            ("PUT", "", {"params": UE, "json": {"values": [[1]]}}),
            ("POST", ":append", {"params": UE, "json": {"values": [[1]]}}),
            ("POST", ":clear", {}),
        ):
            r = raw.request(method, f"/v4/spreadsheets/{sid}/values/{quote(rng)}{suffix}", **kwargs)
            error = google_error(r, 400, "INVALID_ARGUMENT")
            assert error["message"].startswith(("Unable to parse range", "Range (")), (rng, error)
    assert seeded.sheets.snapshot() == before


def test_overflowing_numbers_typed_as_text_stay_text(seeded: World, raw: httpx.Client, sid: str) -> None:
    before = seeded.sheets.snapshot()
    for text in ("1e400", "-1e999%", "$1" + "0" * 400):
        r = raw.put(f"/v4/spreadsheets/{sid}/values/Data!H1", params=UE, json={"values": [[text]]})
        assert r.status_code == 200, r.text
        got = raw.get(f"/v4/spreadsheets/{sid}/values/Data!H1", params={"valueRenderOption": "UNFORMATTED_VALUE"})
        assert got.json()["values"] == [[text]]
    r = raw.put(f"/v4/spreadsheets/{sid}/values/Data!H1", params=UE, json={"values": [[2**60]]})
    assert raw.get(f"/v4/spreadsheets/{sid}/values/Data!H1").json()["values"] == [["1.152921505E+18"]]
    seeded.sheets.restore(before)


def test_huge_bodies_are_refused(seeded: World, raw: httpx.Client, sid: str) -> None:
    before = seeded.sheets.snapshot()
    big = {"values": [["x" * 1000] * 100] * 30}  # ~3 MiB
    r = raw.put(f"/v4/spreadsheets/{sid}/values/A1", params=UE, json=big)
    assert "payload size exceeds the limit" in google_error(r, 400, "INVALID_ARGUMENT")["message"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: the server must count as it reads
        yield b'{"values": [["'
        for _ in range(3000):
            yield b"y" * 1024
        yield b'"]]}'

    r = raw.put(f"/v4/spreadsheets/{sid}/values/A1", params=UE, content=chunks())
    google_error(r, 400, "INVALID_ARGUMENT")
    assert seeded.sheets.snapshot() == before


def test_authentication(seeded: World, raw: httpx.Client, sid: str) -> None:
    url, token = agent(seeded)
    admin = seeded.credentials.admin_token
    with httpx.Client(base_url=url, trust_env=False) as anon:
        google_error(anon.get(f"/v4/spreadsheets/{sid}"), 401, "UNAUTHENTICATED")
        google_error(
            anon.get(f"/v4/spreadsheets/{sid}", headers={"Authorization": "Bearer nope"}), 401, "UNAUTHENTICATED"
        )
        google_error(
            anon.get(f"/v4/spreadsheets/{sid}", headers={"Authorization": f"Basic {token}"}), 401, "UNAUTHENTICATED"
        )
        google_error(anon.get("/drive/v3/files", headers={"Authorization": f"Bearer {admin}"}), 401, "UNAUTHENTICATED")
        assert anon.get(f"/v4/spreadsheets/{sid}", params={"access_token": token}).status_code == 200
        assert anon.get("/drive/v3/files", params={"key": token}).status_code == 200
        # The admin plane: admin token only; the agent's token is recognised and refused.
        google_error(
            anon.get("/_admin/snapshot", headers={"Authorization": f"Bearer {token}"}), 403, "PERMISSION_DENIED"
        )
        google_error(anon.get("/_admin/snapshot", params={"access_token": token}), 403, "PERMISSION_DENIED")
        google_error(anon.get("/_admin/snapshot"), 401, "UNAUTHENTICATED")
        assert anon.get("/_admin/ping", headers={"Authorization": f"Bearer {admin}"}).json() == {"ok": True}


def test_refusals_are_audited_without_secrets(seeded: World, raw: httpx.Client, sid: str) -> None:
    since = seeded.audit.last_seq
    url, token = agent(seeded)
    with httpx.Client(base_url=url, trust_env=False) as anon:
        anon.get(f"/v4/spreadsheets/{sid}", params={"access_token": token})
        anon.get(f"/v4/spreadsheets/{sid}", headers={"Authorization": "Bearer wrong-token"})
    raw.put(f"/v4/spreadsheets/{sid}/values/Nope!A1", params=UE, json={"values": [[1]]})
    entries = seeded.audit.entries("sheets", since)
    assert [(e.operation, e.status) for e in entries] == [
        ("GET spreadsheets.get", "200"),
        (f"GET /v4/spreadsheets/{sid}", "401"),
        ("PUT values.update", "400"),
    ]
    assert entries[2].target == f"{sid}!Nope!A1" and "Unable to parse range" in entries[2].summary
    dump = json.dumps([e.to_json() for e in entries])
    assert token not in dump and "wrong-token" not in dump


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=25,
)
KINDS = st.sampled_from(
    ["addSheet", "deleteSheet", "updateSheetProperties", "insertDimension", "deleteDimension", "appendDimension",
     "duplicateSheet", "updateCells", "repeatCell", "appendCells", "updateSpreadsheetProperties", "mergeCells", "bogus"]
)  # fmt: skip
REQUEST = st.builds(lambda kind, body: {kind: body}, KINDS, st.dictionaries(st.sampled_from(
    ["properties", "range", "sheetId", "fields", "dimension", "startIndex", "endIndex", "length", "rows", "cell",
     "start", "sourceSheetId", "newSheetName", "title", "gridProperties"]
), JSON, max_size=4))  # fmt: skip
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(rng=st.text(max_size=40))
def test_any_range_string_is_a_200_or_a_google_400(raw: httpx.Client, sid: str, rng: str) -> None:
    # "." and ".." are dot segments: every HTTP client removes them from the path (RFC 3986
    # §5.2.4), so such a range never reaches a server; spell the dots out as %2E instead.
    encoded = quote(rng, safe="")
    if encoded in (".", ".."):
        encoded = encoded.replace(".", "%2E")
    r = raw.get(f"/v4/spreadsheets/{sid}/values/{encoded}")
    if r.status_code != 200:
        google_error(r, 400, "INVALID_ARGUMENT")


@FUZZ
@given(requests=st.lists(REQUEST, min_size=1, max_size=3))
def test_random_batch_updates_never_crash_and_failures_change_nothing(
    seeded: World, raw: httpx.Client, sid: str, requests: list[Any]
) -> None:
    before = seeded.sheets.snapshot()
    r = raw.post(f"/v4/spreadsheets/{sid}:batchUpdate", json={"requests": requests})
    assert r.status_code in (200, 400, 404, 501), r.text
    if r.status_code != 200:
        google_error(r, r.status_code)
        assert seeded.sheets.snapshot() == before
    else:
        seeded.sheets.restore(before)


@FUZZ
@given(
    values=st.lists(
        st.lists(
            st.one_of(
                st.none(),
                st.booleans(),
                st.integers(-(10**12), 10**12),
                st.floats(allow_nan=False, allow_infinity=False, width=32),
                st.text(max_size=15),
            ),
            max_size=4,
        ),
        max_size=4,
    )
)
def test_random_values_round_trip_or_refuse(
    seeded: World, raw: httpx.Client, sid: str, values: list[list[Any]]
) -> None:
    before = seeded.sheets.snapshot()
    for option in ("RAW", "USER_ENTERED"):
        r = raw.put(
            f"/v4/spreadsheets/{sid}/values/Data!F1", params={"valueInputOption": option}, json={"values": values}
        )
        assert r.status_code == 200, r.text
        got = raw.get(f"/v4/spreadsheets/{sid}/values/Data!F1:I4", params={"valueRenderOption": "UNFORMATTED_VALUE"})
        assert got.status_code == 200
        if option == "RAW":
            rows = got.json().get("values", [])
            for i, row in enumerate(values):
                for j, v in enumerate(row):
                    if v is None or v == "":
                        continue
                    seen = rows[i][j]
                    assert seen == v or (isinstance(v, float) and seen == pytest.approx(v)), (v, seen)
        seeded.sheets.restore(before)
