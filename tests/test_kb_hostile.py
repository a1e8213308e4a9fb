"""The kb (Notion API) server under hostile input: each observation of issue 9 as a regression test.

Framing cases go over raw sockets (a reset must fail the test, and no client library may retry or
fix the request); the rest use httpx with the agent's token. The state is compared through the
admin plane's snapshot. Limits come from :mod:`pytest_clawmark.servers.kb.limits`; quota tests
lower the quota with ``monkeypatch`` instead of writing megabytes.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fuzzing import REQUEST_LIMIT_S
from kb_support import ROWS, SCHEMA, make_world, shared  # noqa: F401

from pytest_clawmark.servers.kb import limits
from pytest_clawmark.world import World

VERSION = "2025-09-03"


# -- raw HTTP -------------------------------------------------------------------------------------
def send_raw(
    port: int, data: bytes, *, pause: float = 0.0, timeout: float = REQUEST_LIMIT_S
) -> tuple[int, dict[str, Any]]:
    """Send all of ``data`` (in 64 KiB pieces, ``pause`` s apart), then read the status and JSON error.

    Like an HTTP client library, this sends the whole request before reading: a server that closes
    before draining what it refuses makes the send fail (a reset), and that fails the test, as do
    a close without an answer and no answer in time.
    """
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            for start in range(0, len(data), 65536):
                sock.sendall(data[start : start + 65536])
                if pause:
                    time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise AssertionError(f"the server reset the connection while the request was sent ({exc})") from None
        received = b""
        try:
            while b"\r\n\r\n" not in received:
                chunk = sock.recv(65536)
                assert chunk, f"connection closed without an answer ({received[:80]!r})"
                received += chunk
            head, _, body = received.partition(b"\r\n\r\n")
            fields = dict(line.partition(b":")[::2] for line in head.split(b"\r\n")[1:])
            length = int({k.strip().lower(): v for k, v in fields.items()}[b"content-length"])
            while len(body) < length:
                chunk = sock.recv(65536)
                assert chunk, "connection closed in the middle of the answer"
                body += chunk
        except ConnectionResetError:
            raise AssertionError("the server reset the connection") from None
        except TimeoutError:
            raise AssertionError(f"no answer within {timeout} s") from None
    return int(head.split()[1]), json.loads(body)


def request(method: str, path: str, world: World, body: bytes = b"", headers: dict[str, str] | None = None) -> bytes:
    sent = {
        "Host": "127.0.0.1",
        "Authorization": f"Bearer {world.credentials.agent_token}",
        "Notion-Version": VERSION,
        "Content-Type": "application/json",
    }
    sent.update(headers or {})
    if "Content-Length" not in sent and "Transfer-Encoding" not in sent:
        sent["Content-Length"] = str(len(body))
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items()) + "\r\n"
    return head.encode("latin-1") + body


def port_of(world: World) -> int:
    return int(world.kb.url.rsplit(":", 1)[1])


def assert_notion_error(status: int, body: dict[str, Any], expected: int, code: str | None = None) -> None:
    assert set(body) == {"object", "status", "code", "message"}, body
    assert (status, body["object"], body["status"]) == (expected, "error", expected), body
    if code is not None:
        assert body["code"] == code, body


# -- fixtures -------------------------------------------------------------------------------------
@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    w = make_world(tmp_path / "world")
    w.kb.create_database("Medication records", SCHEMA, ROWS)
    yield w
    w.stop()


def http_for(world: World) -> httpx.Client:
    return httpx.Client(
        base_url=world.kb.url,
        trust_env=False,
        timeout=REQUEST_LIMIT_S,
        headers={"Authorization": f"Bearer {world.credentials.agent_token}", "Notion-Version": VERSION},
    )


@pytest.fixture(scope="module")
def http(shared: World) -> Iterator[httpx.Client]:
    with http_for(shared) as c:
        yield c


@pytest.fixture(scope="module")
def ids(shared: World) -> dict[str, str]:
    db = shared.kb.database("Medication records")
    page = shared.kb.create_page("Ward notes", "# Notes\n- one")
    return {"db": db.id, "ds": db.data_source_id, "row": shared.kb.row_id("Medication records", "P-2189"), "page": page}


# -- framing: 413 / 431 / 400 / 408 in Notion's shape, never a reset ----------------------------
@pytest.mark.parametrize("close", [False, True], ids=["keep-alive", "connection close"])
def test_oversize_body_gets_413_not_a_reset(shared: World, close: bool) -> None:
    body = b'{"x": "' + b"a" * 16_000_000 + b'"}'  # more than the sockets buffer: the client is still sending
    before = shared.kb.snapshot()
    headers = {"Connection": "close"} if close else {}
    status, error = send_raw(port_of(shared), request("POST", "/v1/pages", shared, body, headers))
    assert_notion_error(status, error, 413, "validation_error")
    assert shared.kb.snapshot() == before


def test_oversize_chunked_body_without_a_length_gets_413(shared: World) -> None:
    chunk = b"a" * 0x10000
    body = b"".join(b"10000\r\n" + chunk + b"\r\n" for _ in range(10)) + b"0\r\n\r\n"
    data = request("POST", "/v1/search", shared, body, {"Transfer-Encoding": "chunked"})
    status, error = send_raw(port_of(shared), data)
    assert_notion_error(status, error, 413)


def test_body_just_over_notions_500_kb_limit_is_refused(http: httpx.Client) -> None:
    response = http.post("/v1/search", content=b'{"query": "' + b"a" * limits.MAX_BODY_BYTES + b'"}')
    assert_notion_error(response.status_code, response.json(), 413, "validation_error")


@pytest.mark.parametrize("size", [40 * 1024, 1024 * 1024], ids=["over the header limit", "over the parser's buffer"])
def test_oversize_headers_get_431_in_notion_shape(shared: World, size: int) -> None:
    data = request("GET", "/v1/users/me", shared, headers={"X-Pad": "p" * size})
    status, error = send_raw(port_of(shared), data, pause=0.001)
    assert_notion_error(status, error, 431)


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        ({"Content-Length": "abc"}, b"{}"),
        ({"Content-Length": "-5"}, b"{}"),
        ({"Transfer-Encoding": "chunked"}, b"zz\r\n{}\r\n0\r\n\r\n"),
    ],
    ids=["length not a number", "negative length", "bad chunk"],
)
def test_badly_framed_requests_get_400_in_notion_shape(shared: World, headers: dict[str, str], body: bytes) -> None:
    status, error = send_raw(port_of(shared), request("POST", "/v1/search", shared, body, headers))
    assert_notion_error(status, error, 400, "invalid_request")


def test_a_body_that_stops_arriving_gets_408(shared: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "BODY_TIMEOUT_S", 0.5)
    status, error = send_raw(port_of(shared), request("POST", "/v1/search", shared, b"{}", {"Content-Length": "10"}))
    assert_notion_error(status, error, 408)


def test_a_head_that_stops_arriving_gets_408(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "HEAD_TIMEOUT_S", 0.5)  # read when the server starts
    w = make_world(tmp_path / "w")
    try:
        status, error = send_raw(port_of(w), b"GET /v1/users/me HTTP/1.1\r\nHost: x\r\n")
        assert_notion_error(status, error, 408)
    finally:
        w.stop()


def test_a_client_leaving_mid_body_is_not_an_internal_error(shared: World, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR):
        with socket.create_connection(("127.0.0.1", port_of(shared)), timeout=5) as sock:
            sock.sendall(request("POST", "/v1/search", shared, b'{"qu', {"Content-Length": "100"}))
        time.sleep(0.2)
        with http_for(shared) as c:
            assert c.get("/v1/users/me").status_code == 200
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


# -- JSON the API cannot keep ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/data_sources/{ds}/query", b'{"filter": {"property": "Dose", "number": {"less_than": 1e999999}}}'),
        ("/v1/pages/{row}", b'{"icon": {"type": "emoji", "emoji": 1e999}}'),
        (
            "/v1/comments",
            b'{"parent": {"page_id": "{page}"}, "rich_text": [{"type": "mention", "mention": {"user": {"id": -1e400}}}]}',
        ),
        ("/v1/search", b'{"page_size": ' + b"9" * 5000 + b"}"),
        ("/v1/search", b'{"page_size": 12345678901234567890123}'),
        ("/v1/search", b'{"filter": ' + b"[" * (limits.MAX_JSON_DEPTH + 1) + b"]" * (limits.MAX_JSON_DEPTH + 1) + b"}"),
    ],
    ids=[
        "1e999999 in a filter",
        "infinity in an icon",
        "infinity in a mention",
        "5,000 digits",
        "23 digits",
        "too deep",
    ],
)
def test_json_numbers_and_depth_the_api_cannot_keep_are_validation_errors(
    shared: World, ids: dict[str, str], http: httpx.Client, path: str, body: bytes
) -> None:
    for key, value in ids.items():
        path, body = path.replace("{" + key + "}", value), body.replace(("{" + key + "}").encode(), value.encode())
    before = shared.kb.snapshot()
    method = "PATCH" if path.startswith("/v1/pages/") else "POST"  # queries and search are POSTs
    response = http.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert_notion_error(response.status_code, response.json(), 400, "validation_error")
    assert shared.kb.snapshot() == before
    assert http.get(f"/v1/pages/{ids['row']}").status_code == 200  # reads of the page still work


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity"])
def test_non_json_literals_are_invalid_json(http: httpx.Client, literal: bytes) -> None:
    response = http.post("/v1/search", content=b'{"page_size": ' + literal + b"}")
    assert_notion_error(response.status_code, response.json(), 400, "invalid_json")


# -- content limits (Notion's documented request limits) -------------------------------------------
def paragraph(text: str = "x", **span: Any) -> dict[str, Any]:
    return {"paragraph": {"rich_text": [{"text": {"content": text, **span}}]}}


@pytest.mark.parametrize(
    ("what", "body"),
    [
        ("link url", {"children": [paragraph(link={"url": "https://x.y/" + "u" * 2000})]}),
        (
            "equation",
            {
                "children": [
                    {"paragraph": {"rich_text": [{"type": "equation", "equation": {"expression": "x" * 1001}}]}}
                ]
            },
        ),
        ("1,111 blocks", {"children": [{"toggle": {"rich_text": [], "children": [paragraph()] * 100}}] * 11}),
        ("callout icon", {"children": [{"callout": {"rich_text": [], "icon": {"junk": [1] * 50}}}]}),
    ],
)
def test_block_content_over_notions_limits_is_refused(
    shared: World, ids: dict[str, str], http: httpx.Client, what: str, body: dict[str, Any]
) -> None:
    before = shared.kb.snapshot()
    response = http.patch(f"/v1/blocks/{ids['page']}/children", json=body)
    assert_notion_error(response.status_code, response.json(), 400, "validation_error")
    assert shared.kb.snapshot() == before


@pytest.mark.parametrize(
    ("prop", "value"),
    [
        ("Chart", {"url": "https://x.y/" + "u" * 2000}),
        ("Contact", {"email": "a" * 195 + "@x.org"}),
        ("Phone", {"phone_number": "1" * 201}),
    ],
    ids=["url over 2,000", "email over 200", "phone over 200"],
)
def test_property_values_over_notions_limits_are_refused(
    shared: World, ids: dict[str, str], http: httpx.Client, prop: str, value: dict[str, Any]
) -> None:
    before = shared.kb.snapshot()
    response = http.patch(f"/v1/pages/{ids['row']}", json={"properties": {prop: value}})
    assert_notion_error(response.status_code, response.json(), 400, "validation_error")
    assert shared.kb.snapshot() == before


def test_markdown_that_would_make_too_many_blocks_is_refused(
    shared: World, ids: dict[str, str], http: httpx.Client
) -> None:
    before = shared.kb.snapshot()
    body = {"type": "replace_content", "replace_content": {"new_str": "- a\n" * (limits.MAX_BLOCKS_PER_REQUEST + 1)}}
    response = http.patch(f"/v1/pages/{ids['page']}/markdown", json=body)
    assert_notion_error(response.status_code, response.json(), 400, "validation_error")
    assert shared.kb.snapshot() == before


def test_icons_are_emoji_or_external_files_kept_in_their_own_shape(world: World) -> None:
    row = world.kb.row_id("Medication records", "P-2189")
    with http_for(world) as http:
        refused = http.patch(f"/v1/pages/{row}", json={"icon": {"type": "emoji", "emoji": "x", "bulk": ["y"] * 1000}})
        assert refused.status_code == 200  # the emoji is valid; the extra field is dropped, not stored
        assert refused.json()["icon"] == {"type": "emoji", "emoji": "x"}
        bad = http.patch(f"/v1/pages/{row}", json={"icon": {"anything": 1}})
        assert_notion_error(bad.status_code, bad.json(), 400, "validation_error")


def test_filters_and_sorts_are_bounded(shared: World, ids: dict[str, str], http: httpx.Client) -> None:
    leaf = {"property": "Dose", "number": {"greater_than": 1}}
    half = limits.MAX_FILTER_CONDITIONS // 2 + 1
    many = {"or": [{"and": [leaf] * half}, {"and": [leaf] * half}]}
    response = http.post(f"/v1/data_sources/{ids['ds']}/query", json={"filter": many})
    assert_notion_error(response.status_code, response.json(), 400, "validation_error")
    sorts = [{"property": "Dose", "direction": "ascending"}] * (limits.MAX_SORTS + 1)
    response = http.post(f"/v1/data_sources/{ids['ds']}/query", json={"sorts": sorts})
    assert_notion_error(response.status_code, response.json(), 400, "validation_error")


def test_error_messages_quoting_the_input_are_bounded(shared: World, ids: dict[str, str], http: httpx.Client) -> None:
    since = shared.audit.last_seq
    response = http.patch(f"/v1/pages/{ids['row']}", json={"properties": {"k" * 400_000: {"number": 1}}})
    assert response.status_code == 400 and len(response.json()["message"]) <= 1000
    (entry,) = shared.audit.entries("kb", since=since)
    assert len(entry.summary) <= 1000


# -- harm to the store found by fuzzing ------------------------------------------------------------
def test_retyping_a_people_property_to_select_converts_instead_of_crashing(world: World) -> None:
    ds = world.kb.database("Medication records").data_source_id
    with http_for(world) as http:
        response = http.patch(f"/v1/data_sources/{ds}", json={"properties": {"Owner": {"select": {}}}})
    assert response.status_code == 200, response.text
    assert world.kb.row("Medication records", "P-2189")["Owner"] == "Li Na"
    assert world.kb.row("Medication records", "P-3301")["Owner"] == "Wang Wei, Li Na"


# -- the workspace quota ---------------------------------------------------------------------------
def test_the_workspace_stops_growing_at_its_quota_but_stays_readable(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = world.kb.create_page("Log", "start")
    body = {"children": [paragraph("x" * 2000)] * 5}
    with http_for(world) as http:
        start = json_size(world.kb.snapshot())
        assert http.patch(f"/v1/blocks/{page}/children", json=body).status_code == 200
        size = json_size(world.kb.snapshot())
        quota = size + (size - start) // 2
        monkeypatch.setattr(limits, "WORKSPACE_QUOTA_BYTES", quota)
        statuses = [http.patch(f"/v1/blocks/{page}/children", json=body).status_code for _ in range(3)]
        assert statuses == [200, 400, 400]  # the write that crosses the quota succeeds, as in Notion
        refused = http.patch(f"/v1/blocks/{page}/children", json=body).json()
        assert "storage limit" in refused["message"]
        assert http.post("/v1/search", json={"query": "Log"}).status_code == 200  # reads still work
        assert http.patch(f"/v1/pages/{page}", json={"in_trash": True}).status_code == 200  # trashing too
        assert http.patch(f"/v1/pages/{page}", json={"in_trash": False}).status_code == 200  # and restoring
    assert json_size(world.kb.snapshot()) < quota + (size - start) * 2


def json_size(snapshot: dict[str, Any]) -> int:
    return len(json.dumps(snapshot, ensure_ascii=False, separators=(",", ":")))


def test_the_size_ledger_tracks_the_snapshot(world: World) -> None:
    """The quota is checked against an incrementally kept size: it must follow every kind of write."""
    ds = world.kb.database("Medication records").data_source_id
    page = world.kb.create_page("Notes", "# Title\n- a\n  - b")
    with http_for(world) as http:
        assert http.patch(f"/v1/blocks/{page}/children", json={"children": [paragraph("more")] * 3}).status_code == 200
        assert http.patch(f"/v1/data_sources/{ds}", json={"properties": {"Dose": {"rich_text": {}}}}).status_code == 200
        assert (
            http.patch(
                f"/v1/pages/{page}/markdown",
                json={"type": "replace_content", "replace_content": {"new_str": "# New\n" + "- line\n" * 50}},
            ).status_code
            == 200
        )
        comment = {"parent": {"page_id": page}, "rich_text": "looks good"}
        assert http.post("/v1/comments", json=comment).status_code == 200
        assert (
            http.post(
                "/v1/pages", json={"parent": {"data_source_id": ds}, "properties": {"Patient": {"title": "P-9"}}}
            ).status_code
            == 200
        )
    snapshot = world.kb.snapshot()
    objects = sum(
        json_size(o)
        for key in ("users", "databases", "data_sources", "pages", "blocks", "comments")
        for o in snapshot[key]
    )
    ledger = world.kb._store.size.total  # noqa: SLF001 - the ledger is what the quota reads
    assert abs(ledger - objects) <= 0.01 * objects, (ledger, objects)
    world.kb.restore(snapshot)
    assert abs(world.kb._store.size.total - objects) <= 0.01 * objects  # noqa: SLF001


# -- turn setup copes with whatever the agent may legally do ---------------------------------------
def test_setup_still_updates_the_teams_row_when_the_agent_made_a_same_titled_copy(world: World) -> None:
    ds = world.kb.database("Medication records").data_source_id
    with http_for(world) as http:
        title = {"title": [{"text": {"content": "P-2189"}}]}
        copy = {"parent": {"data_source_id": ds}, "properties": {"Patient": title}}
        assert http.post("/v1/pages", json=copy).status_code == 200
    world.kb.update_row("Medication records", "P-2189", {"Dose": 7.5}, author="Li Na")  # used to be a 409
    with pytest.raises(AssertionError, match="2 objects match"):  # a checker still sees the duplicate
        world.kb.row("Medication records", "P-2189")
    doses = sorted(str(r["Dose"]) for r in world.kb.rows("Medication records") if r["Patient"] == "P-2189")
    assert doses == ["7.5", "None"]


def test_setup_still_writes_into_a_database_the_agent_moved_to_the_trash(world: World) -> None:
    db = world.kb.database("Medication records")
    with http_for(world) as http:
        assert http.patch(f"/v1/databases/{db.id}", json={"in_trash": True}).status_code == 200
    world.kb.add_row("Medication records", {"Patient": "P-9999"})  # a silent mutation: used to be a 404
    world.kb.update_row("Medication records", "P-2189", {"Dose": 1})
    with pytest.raises(AssertionError):  # a checker sees the database is gone
        world.kb.rows("Medication records")
    with http_for(world) as http:  # restored, it holds what setup wrote meanwhile
        assert http.patch(f"/v1/databases/{db.id}", json={"in_trash": False}).status_code == 200
    assert "P-9999" in [r["Patient"] for r in world.kb.rows("Medication records")]
