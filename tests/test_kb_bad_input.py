"""Bad input never crashes the kb server nor changes its state.

A table of hand-picked cases (malformed JSON, unknown properties, wrong types, huge bodies, bad
ids, bad auth, wrong methods, the agent token on the admin plane) checks the exact status and
Notion error code; hypothesis then throws random and Notion-shaped JSON at the mutating
endpoints. After every refused request the store's snapshot must be unchanged.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kb_support import SCHEMA, shared  # noqa: F401

from pytest_clawmark.servers.kb.properties import TYPES
from pytest_clawmark.world import World

MISSING_ID = "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f"


@pytest.fixture(scope="module")
def ids(shared: World) -> dict[str, str]:
    kb = shared.kb
    db = kb.database("Medication records")
    page = kb.create_page("Ward notes", "# Notes\n- one")
    return {"db": db.id, "ds": db.data_source_id, "row": kb.row_id("Medication records", "P-2189"), "page": page}


@pytest.fixture(scope="module")
def http(shared: World) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=shared.kb.url, trust_env=False, timeout=10) as c:
        yield c


def agent_headers(world: World, version: str | None = "2025-09-03", token: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {token or world.credentials.agent_token}", "Content-Type": "application/json"}
    if version:
        headers["Notion-Version"] = version
    return headers


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    body = response.json()
    assert set(body) == {"object", "status", "code", "message"}, body
    assert (response.status_code, body["object"], body["status"], body["code"]) == (status, "error", status, code), body
    assert isinstance(body["message"], str) and body["message"]


def row_props(**props: Any) -> dict[str, Any]:
    return {"Patient": {"title": [{"text": {"content": "New"}}]}, **props}


# (id, method, path template, body (dict → JSON, bytes → raw), header overrides, status, code)
CASES: list[tuple[str, str, str, Any, dict[str, Any], int, str]] = [
    ("malformed json", "POST", "/v1/pages", b'{"parent": ', {}, 400, "invalid_json"),
    ("not utf-8", "POST", "/v1/pages", b'{"a": "\xff\xfe"}', {}, 400, "invalid_json"),
    ("NaN", "POST", "/v1/search", b'{"query": NaN}', {}, 400, "invalid_json"),
    ("lone surrogate", "POST", "/v1/search", b'{"query": "\\ud800"}', {}, 400, "invalid_json"),
    # valid JSON the API does not take (issue 9): a depth limit and numbers a 64-bit value cannot hold
    ("deep nesting", "POST", "/v1/search", b"[" * 200_000 + b"]" * 200_000, {}, 400, "validation_error"),
    ("huge int", "POST", "/v1/search", b'{"page_size": ' + b"9" * 5000 + b"}", {}, 400, "validation_error"),
    ("body is an array", "POST", "/v1/pages", [1, 2], {}, 400, "validation_error"),
    ("huge body", "POST", "/v1/pages", b'{"x": "' + b"a" * (1024 * 1024 + 10) + b'"}', {}, 413, "validation_error"),
    ("no parent", "POST", "/v1/pages", {"properties": {}}, {}, 400, "validation_error"),
    (
        "unknown property",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Nope={"number": 1})},
        {},
        400,
        "validation_error",
    ),
    (
        "number as string",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Dose={"number": "5"})},
        {},
        400,
        "validation_error",
    ),
    (
        "checkbox as string",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Checked={"checkbox": "yes"})},
        {},
        400,
        "validation_error",
    ),
    (
        "select as number",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Ward={"select": 3})},
        {},
        400,
        "validation_error",
    ),
    (
        "unknown status",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Stage={"status": {"name": "Lost"}})},
        {},
        400,
        "validation_error",
    ),
    (
        "bad date",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Due={"date": {"start": "tomorrow"}})},
        {},
        400,
        "validation_error",
    ),
    (
        "person without id or name",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Owner={"people": [{"person": ["x"]}]})},
        {},
        400,
        "validation_error",
    ),
    (
        "type mismatch",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Dose={"checkbox": True})},
        {},
        400,
        "validation_error",
    ),
    (
        "read-only property",
        "POST",
        "/v1/pages",
        {"parent": {"data_source_id": "{ds}"}, "properties": row_props(Created={"created_time": "2025-01-01"})},
        {},
        400,
        "validation_error",
    ),
    (
        "text span too long",
        "POST",
        "/v1/pages",
        {
            "parent": {"data_source_id": "{ds}"},
            "properties": {"Patient": {"title": [{"text": {"content": "x" * 2001}}]}},
        },
        {},
        400,
        "validation_error",
    ),
    (
        "one bad block among good ones",
        "POST",
        "/v1/pages",
        {
            "parent": {"page_id": "{page}"},
            "properties": {"title": {"title": [{"text": {"content": "T"}}]}},
            "children": [
                {"paragraph": {"rich_text": [{"text": {"content": "ok"}}]}},
                {"image": {"external": {"url": "x"}}},
            ],
        },
        {},
        400,
        "validation_error",
    ),
    (
        "unknown parent",
        "POST",
        "/v1/pages",
        {"parent": {"database_id": MISSING_ID}, "properties": {}},
        {},
        404,
        "object_not_found",
    ),
    (
        "parent id not a uuid",
        "POST",
        "/v1/pages",
        {"parent": {"page_id": "abc"}, "properties": {}},
        {},
        400,
        "validation_error",
    ),
    (
        "update: good then bad value",
        "PATCH",
        "/v1/pages/{row}",
        {"properties": {"Dose": {"number": 1}, "Ward": {"select": {"name": "x" * 101}}}},
        {},
        400,
        "validation_error",
    ),
    ("update: in_trash not boolean", "PATCH", "/v1/pages/{row}", {"in_trash": "yes"}, {}, 400, "validation_error"),
    ("page id not a uuid", "GET", "/v1/pages/not-a-uuid", None, {}, 400, "validation_error"),
    ("unknown page", "GET", f"/v1/pages/{MISSING_ID}", None, {}, 404, "object_not_found"),
    ("query a page id", "POST", "/v1/data_sources/{row}/query", {}, {}, 404, "object_not_found"),
    (
        "filter: unknown property",
        "POST",
        "/v1/data_sources/{ds}/query",
        {"filter": {"property": "Nope", "number": {"equals": 1}}},
        {},
        400,
        "validation_error",
    ),
    (
        "filter: bad operator",
        "POST",
        "/v1/data_sources/{ds}/query",
        {"filter": {"property": "Dose", "number": {"is": 1}}},
        {},
        400,
        "validation_error",
    ),
    (
        "filter: wrong value type",
        "POST",
        "/v1/data_sources/{ds}/query",
        {"filter": {"property": "Dose", "number": {"equals": "1"}}},
        {},
        400,
        "validation_error",
    ),
    (
        "filter: wrong type key",
        "POST",
        "/v1/data_sources/{ds}/query",
        {"filter": {"property": "Dose", "select": {"equals": "1"}}},
        {},
        400,
        "validation_error",
    ),
    (
        "filter: too deep",
        "POST",
        "/v1/data_sources/{ds}/query",
        {"filter": {"and": [{"and": [{"and": [{"and": [{"and": []}]}]}]}]}},
        {},
        400,
        "validation_error",
    ),
    (
        "sorts: bad direction",
        "POST",
        "/v1/data_sources/{ds}/query",
        {"sorts": [{"property": "Dose", "direction": "up"}]},
        {},
        400,
        "validation_error",
    ),
    ("page_size 0", "POST", "/v1/data_sources/{ds}/query", {"page_size": 0}, {}, 400, "validation_error"),
    ("page_size 101", "POST", "/v1/search", {"page_size": 101}, {}, 400, "validation_error"),
    ("page_size text", "GET", "/v1/users?page_size=ten", None, {}, 400, "validation_error"),
    ("page_size superscript digit", "GET", "/v1/users?page_size=%C2%B2", None, {}, 400, "validation_error"),
    ("page_size 5000 digits", "GET", "/v1/users?page_size=" + "9" * 5000, None, {}, 400, "validation_error"),
    ("page_size huge in body", "POST", "/v1/search", {"page_size": 10**1000}, {}, 400, "validation_error"),
    ("cursor on a GET list", "GET", "/v1/blocks/{page}/children?start_cursor=nope", None, {}, 400, "validation_error"),
    ("property id with a slash", "GET", "/v1/pages/{row}/properties/a%2Fb", None, {}, 400, "invalid_request_url"),
    ("bad cursor", "POST", "/v1/search", {"start_cursor": "nope"}, {}, 400, "validation_error"),
    (
        "search: bad filter",
        "POST",
        "/v1/search",
        {"filter": {"property": "object", "value": "block"}},
        {},
        400,
        "validation_error",
    ),
    (
        "2025 database properties",
        "PATCH",
        "/v1/databases/{db}",
        {"properties": {"X": {"number": {}}}},
        {},
        400,
        "validation_error",
    ),
    (
        "schema: second title",
        "PATCH",
        "/v1/data_sources/{ds}",
        {"properties": {"T2": {"title": {}}}},
        {},
        400,
        "validation_error",
    ),
    (
        "schema: delete title",
        "PATCH",
        "/v1/data_sources/{ds}",
        {"properties": {"Patient": None}},
        {},
        400,
        "validation_error",
    ),
    (
        "schema: unsupported type",
        "PATCH",
        "/v1/data_sources/{ds}",
        {"properties": {"F": {"formula": {}}}},
        {},
        400,
        "validation_error",
    ),
    (
        "append: 101 blocks",
        "PATCH",
        "/v1/blocks/{page}/children",
        {"children": [{"paragraph": {"rich_text": []}}] * 101},
        {},
        400,
        "validation_error",
    ),
    (
        "append: unknown block field",
        "PATCH",
        "/v1/blocks/{page}/children",
        {"children": [{"paragraph": {"rich_text": [], "bogus": 1}}]},
        {},
        400,
        "validation_error",
    ),
    (
        "append: after a stranger",
        "PATCH",
        "/v1/blocks/{page}/children",
        {"children": [{"paragraph": {"rich_text": []}}], "after": MISSING_ID},
        {},
        400,
        "validation_error",
    ),
    ("append to a database", "PATCH", "/v1/blocks/{db}/children", {"children": []}, {}, 400, "validation_error"),
    (
        "update block with another type",
        "PATCH",
        "/v1/blocks/{row}",
        {"paragraph": {"rich_text": []}},
        {},
        400,
        "validation_error",
    ),
    (
        "comment without text",
        "POST",
        "/v1/comments",
        {"parent": {"page_id": "{page}"}, "rich_text": []},
        {},
        400,
        "validation_error",
    ),
    ("comments without block_id", "GET", "/v1/comments", None, {}, 400, "validation_error"),
    ("wrong method", "DELETE", "/v1/pages/{row}", None, {}, 405, "invalid_request_url"),
    ("unknown path", "GET", "/v1/nothing/here", None, {}, 400, "invalid_request_url"),
    ("no token", "GET", "/v1/users/me", None, {"Authorization": None}, 401, "unauthorized"),
    ("wrong token", "GET", "/v1/users/me", None, {"Authorization": "Bearer nope"}, 401, "unauthorized"),
    ("basic auth", "GET", "/v1/users/me", None, {"Authorization": "Basic {agent}"}, 401, "unauthorized"),
    (
        "admin token on the agent plane",
        "GET",
        "/v1/users/me",
        None,
        {"Authorization": "Bearer {admin}"},
        401,
        "unauthorized",
    ),
    ("no version", "GET", "/v1/users/me", None, {"Notion-Version": None}, 400, "missing_version"),
    ("bad version", "GET", "/v1/users/me", None, {"Notion-Version": "latest"}, 400, "validation_error"),
    ("agent token on admin snapshot", "GET", "/_admin/snapshot", None, {}, 403, "restricted_resource"),
    (
        "agent token on admin write",
        "POST",
        "/_admin/add_row",
        {"db": "Medication records", "props": {}},
        {},
        403,
        "restricted_resource",
    ),
    ("admin restore with the agent token", "PUT", "/_admin/snapshot", {"format": 1}, {}, 403, "restricted_resource"),
    ("no token on admin", "GET", "/_admin/snapshot", None, {"Authorization": None}, 401, "unauthorized"),
]


def _fill(value: Any, world: World, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        for key, v in {**ids, "agent": world.credentials.agent_token, "admin": world.credentials.admin_token}.items():
            value = value.replace("{" + key + "}", v)
        return value
    if isinstance(value, dict):
        return {k: _fill(v, world, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, world, ids) for v in value]
    return value


@pytest.mark.parametrize(
    ("method", "path", "body", "headers", "status", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_request_is_refused_in_notion_shape(
    shared: World,
    ids: dict[str, str],
    http: httpx.Client,
    method: str,
    path: str,
    body: Any,
    headers: dict[str, Any],
    status: int,
    code: str,
) -> None:
    before = shared.kb.snapshot()
    audit_before = shared.audit.last_seq
    sent = agent_headers(shared)
    for key, value in headers.items():
        if value is None:
            sent.pop(key, None)
        else:
            sent[key] = _fill(value, shared, ids)
    content = (
        body if isinstance(body, bytes) else None if body is None else json.dumps(_fill(body, shared, ids)).encode()
    )
    response = http.request(method, _fill(path, shared, ids), content=content, headers=sent)
    assert_error(response, status, code)
    assert shared.kb.snapshot() == before
    # every refused request is on the record, admin-plane attempts without the admin token included
    (entry,) = shared.audit.entries("kb", since=audit_before)
    assert entry.status == str(status)


# -- hypothesis --------------------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**20), 10**20) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)
prop_names = st.sampled_from([*SCHEMA, "title", "Nope", ""])
prop_values = json_values | st.dictionaries(st.sampled_from(TYPES), json_values, min_size=1, max_size=2)
page_bodies = st.fixed_dictionaries(
    {"properties": st.dictionaries(prop_names, prop_values, max_size=4)},
    optional={
        "parent": st.just({"data_source_id": "{ds}"}) | json_values,
        "children": st.lists(
            json_values
            | st.dictionaries(st.sampled_from(["paragraph", "to_do", "heading_1", "type"]), json_values, max_size=2),
            max_size=3,
        ),
        "in_trash": json_values,
        "icon": json_values,
    },
)
filters = st.recursive(
    st.fixed_dictionaries(
        {"property": prop_names},
        optional={
            k: st.dictionaries(
                st.sampled_from(
                    ["equals", "contains", "greater_than", "is_empty", "before", "past_week", "does_not_equal"]
                ),
                json_values,
                max_size=2,
            )
            for k in ("title", "rich_text", "number", "select", "date", "checkbox", "people")
        },
    ),
    lambda children: st.dictionaries(
        st.sampled_from(["and", "or"]), st.lists(children, max_size=3), min_size=1, max_size=1
    ),
    max_leaves=6,
)
query_bodies = st.fixed_dictionaries(
    {},
    optional={
        "filter": filters | json_values,
        "sorts": st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "property": prop_names,
                    "timestamp": json_values,
                    "direction": st.sampled_from(["ascending", "descending", "x"]),
                },
            ),
            max_size=3,
        )
        | json_values,
        "page_size": json_values,
        "start_cursor": json_values,
    },
)
ENDPOINTS = {
    "create page": ("POST", "/v1/pages", page_bodies),
    "update page": ("PATCH", "/v1/pages/{row}", page_bodies),
    "query": ("POST", "/v1/data_sources/{ds}/query", query_bodies),
    "append blocks": (
        "PATCH",
        "/v1/blocks/{page}/children",
        st.fixed_dictionaries(
            {"children": page_bodies.map(lambda b: b.get("children", []))}, optional={"after": json_values}
        ),
    ),
    "update schema": (
        "PATCH",
        "/v1/data_sources/{ds}",
        st.fixed_dictionaries({"properties": st.dictionaries(prop_names, prop_values | st.none(), max_size=3)}),
    ),
    "search": (
        "POST",
        "/v1/search",
        st.dictionaries(st.sampled_from(["query", "filter", "sort", "page_size"]), json_values),
    ),
    "comment": (
        "POST",
        "/v1/comments",
        st.fixed_dictionaries(
            {
                "parent": st.just({"page_id": "{page}"}) | json_values,
                "rich_text": st.text(min_size=1, max_size=20) | json_values,
            }
        )
        | st.dictionaries(st.sampled_from(["parent", "rich_text", "discussion_id"]), json_values),
    ),
}


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_random_bodies_never_crash_or_half_apply(
    shared: World, ids: dict[str, str], http: httpx.Client, endpoint: str
) -> None:
    method, path, bodies = ENDPOINTS[endpoint]
    url = _fill(path, shared, ids)
    headers = agent_headers(shared)
    seen: Counter[int] = Counter()

    @settings(
        max_examples=120,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(body=bodies)
    def check(body: dict[str, Any]) -> None:
        before = shared.kb.snapshot()
        response = http.request(method, url, content=json.dumps(_fill(body, shared, ids)).encode(), headers=headers)
        assert response.status_code in (200, 400, 404), response.text
        seen[response.status_code] += 1
        if response.status_code != 200:
            assert_error(response, response.status_code, response.json()["code"])
            assert shared.kb.snapshot() == before

    check()
    assert seen[400] > 0 and seen[200] > 0, seen  # the fuzzer reached both outcomes
