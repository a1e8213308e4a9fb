"""Fuzzing the kb (Notion API) server with generated hostile requests.

Every example is one request to one of the API's endpoints: Notion-shaped JSON built from the
API's own vocabulary (properties of every type, rich text with links, mentions and equations,
blocks nested past the limit, compound filters and sorts, schema patches, icons, Markdown edits)
mixed with hostile values (huge and non-finite numbers, deep nesting, long strings, wrong types,
ids that are not ids), raw bodies that are not JSON at all, and odd headers. For every request:
no 5xx, no reset (a transport error fails the test), an answer within ``REQUEST_LIMIT_S``, an
error in Notion's shape, the admin snapshot unchanged unless it was an accepted write, and the
admin plane still able to read everything. A fixed corpus replays the cases observed by hand.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fuzzing import REQUEST_LIMIT_S, fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from kb_support import ROWS, SCHEMA, client, make_world, shared  # noqa: F401

from pytest_clawmark.servers.kb.blocks import BLOCK_TYPES
from pytest_clawmark.servers.kb.properties import TYPES
from pytest_clawmark.world import World

MISSING = "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f"
READS = {("POST", "/v1/search"), ("POST", "/v1/databases/{db}/query"), ("POST", "/v1/data_sources/{ds}/query")}


@pytest.fixture(scope="module")
def ids(shared: World) -> dict[str, str]:
    kb = shared.kb
    db = kb.database("Medication records")
    page = kb.create_page("Ward notes", "# Notes\n- one\n- two")
    return {"db": db.id, "ds": db.data_source_id, "row": kb.row_id("Medication records", "P-2189"), "page": page}


@pytest.fixture(scope="module")
def http(shared: World) -> Iterator[httpx.Client]:
    env = shared.agent_env()
    headers = {"Authorization": f"Bearer {env['CLAWMARK_NOTION_TOKEN']}", "Content-Type": "application/json"}
    with httpx.Client(
        base_url=env["CLAWMARK_NOTION_URL"], trust_env=False, timeout=REQUEST_LIMIT_S, headers=headers
    ) as c:
        yield c


# -- the grammar ---------------------------------------------------------------------------------
INF, HUGE = "__INF__", "__HUGE__"  # placeholders written into the JSON text as 1e999 and a 30-digit integer
numbers = st.sampled_from([0, -1, 1.5, 1e308, -1e308, 2**63, 5e-324, INF, HUGE]) | st.integers(-1000, 1000)
long_text = st.sampled_from([101, 2001, 100_000]).map(lambda n: "x" * n)  # built lazily: no huge reprs
scalars = (
    st.just(INF)
    | st.none()
    | st.booleans()
    | numbers
    | st.text(max_size=20)
    | long_text
    | st.sampled_from(["", "\u00e9\u6f22\U0001f600", MISSING, "not-a-uuid", "2025-04-07", "Done"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=15,
)
annotations = st.fixed_dictionaries(
    {}, optional={"bold": st.booleans() | scalars, "color": st.sampled_from(["red", "blue_background", "nope", 3])}
)
spans = st.one_of(
    st.fixed_dictionaries(
        {
            "text": st.fixed_dictionaries(
                {"content": st.text(max_size=30) | st.sampled_from([2000, 2001]).map(lambda n: "x" * n)},
                optional={"link": st.none() | st.fixed_dictionaries({"url": st.just("https://a.b") | long_text})},
            )
        },
        optional={"annotations": annotations, "type": st.just("text")},
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("equation"),
            "equation": st.fixed_dictionaries(
                {"expression": st.sampled_from([6, 1001]).map(lambda n: "e" * n) | scalars}
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("mention"),
            "mention": json_values
            | st.fixed_dictionaries({"type": st.just("user"), "user": st.fixed_dictionaries({"id": scalars})}),
        }
    ),
    json_values,
)
rich_text = st.lists(spans, max_size=4) | st.text(max_size=40) | json_values
prop_names = st.sampled_from([*SCHEMA, "title", "Nope", ""]) | st.just(101).map(lambda n: "x" * n)
prop_values = (
    st.dictionaries(st.sampled_from(TYPES), rich_text | json_values, min_size=1, max_size=2)
    | st.fixed_dictionaries({"title": rich_text})
    | json_values
)
emoji_icons = st.fixed_dictionaries({"type": st.just("emoji"), "emoji": scalars})
icons = (
    st.none()
    | json_values
    | emoji_icons
    | st.sampled_from(
        [
            {"type": "emoji", "emoji": "\U0001f600"},
            {"type": "external", "external": {"url": "https://x.y/i.png"}},
            {"emoji": 1e308},
            {"type": "file_upload"},
        ]
    )
    | long_text.map(lambda u: {"type": "external", "external": {"url": u}})
)
leaf_blocks = st.builds(
    lambda kind, inner: {kind: inner},
    st.sampled_from([*BLOCK_TYPES, "image", "type"]),
    st.fixed_dictionaries(
        {}, optional={"rich_text": rich_text, "checked": scalars, "language": scalars, "icon": icons, "color": scalars}
    )
    | json_values,
)
blocks = st.recursive(
    leaf_blocks,
    lambda inner: st.builds(
        lambda kind, kids: {kind: {"rich_text": [], "children": kids}},
        st.sampled_from(["paragraph", "toggle", "bulleted_list_item", "divider"]),
        st.lists(inner, max_size=3),
    ),
    max_leaves=8,
)
too_many_children = st.just(101).map(lambda n: [{"paragraph": {"rich_text": []}}] * n)
children = st.lists(blocks, max_size=4) | too_many_children | json_values
leaf_filters = st.fixed_dictionaries(
    {"property": prop_names | scalars},
    optional={
        k: st.dictionaries(
            st.sampled_from(
                [
                    "equals",
                    "contains",
                    "greater_than",
                    "is_empty",
                    "before",
                    "past_week",
                    "does_not_equal",
                    "on_or_after",
                ]
            ),
            json_values,
            max_size=2,
        )
        for k in ("title", "rich_text", "number", "select", "date", "checkbox", "people", "multi_select")
    },
)
filters = st.recursive(
    leaf_filters
    | st.fixed_dictionaries({"timestamp": st.sampled_from(["created_time", "x"]), "created_time": json_values}),
    lambda inner: st.dictionaries(st.sampled_from(["and", "or"]), st.lists(inner, max_size=4), min_size=1, max_size=1),
    max_leaves=10,
)
sorts = (
    st.lists(
        st.fixed_dictionaries(
            {},
            optional={
                "property": prop_names | scalars,
                "timestamp": st.sampled_from(["created_time", "last_edited_time", "x"]),
                "direction": st.sampled_from(["ascending", "descending", "x"]),
            },
        ),
        max_size=12,
    )
    | json_values
)
specs = st.one_of(
    st.none(),
    st.builds(
        lambda kind, cfg: {kind: cfg},
        st.sampled_from([*TYPES, "formula", "relation"]),
        st.fixed_dictionaries(
            {},
            optional={
                "options": st.lists(
                    st.fixed_dictionaries({"name": st.text(max_size=10) | scalars}, optional={"color": scalars}),
                    max_size=5,
                )
                | json_values,
                "format": st.sampled_from(["dollar", "nope"]),
            },
        ),
    ),
    st.fixed_dictionaries({"name": st.text(max_size=10) | scalars}),
    json_values,
)
parents = (
    st.sampled_from(
        [
            {"data_source_id": "{ds}"},
            {"database_id": "{db}"},
            {"page_id": "{page}"},
            {"page_id": "{row}"},
            {"block_id": MISSING},
            {"workspace": True},
        ]
    )
    | json_values
)
page_bodies = st.fixed_dictionaries(
    {},
    optional={
        "parent": parents,
        "properties": st.dictionaries(prop_names, prop_values, max_size=4) | json_values,
        "children": children,
        "icon": icons,
        "cover": icons,
        "in_trash": scalars,
        "archived": scalars,
        "markdown": st.text(max_size=60) | st.just(2000).map(lambda n: "- a\n" * n),
    },
)
query_bodies = st.fixed_dictionaries(
    {}, optional={"filter": filters | json_values, "sorts": sorts, "page_size": scalars, "start_cursor": scalars}
)
markdown_edits = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("replace_content"),
            "replace_content": st.fixed_dictionaries({"new_str": st.text(max_size=40) | scalars}),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("update_content"),
            "update_content": st.fixed_dictionaries(
                {
                    "content_updates": st.lists(
                        st.fixed_dictionaries(
                            {"old_str": st.sampled_from(["one", "", "zz"]) | scalars, "new_str": st.text(max_size=10)}
                        ),
                        max_size=3,
                    )
                }
            ),
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("insert_content"), "insert_content": st.fixed_dictionaries({"content": st.text(max_size=40)})}
    ),
    json_values,
)
ENDPOINTS: list[tuple[str, str, st.SearchStrategy[Any]]] = [
    ("POST", "/v1/pages", page_bodies),
    ("PATCH", "/v1/pages/{row}", page_bodies),
    ("PATCH", "/v1/pages/{page}", page_bodies),
    ("POST", "/v1/databases/{db}/query", query_bodies),
    ("POST", "/v1/data_sources/{ds}/query", query_bodies),
    (
        "PATCH",
        "/v1/blocks/{page}/children",
        st.fixed_dictionaries({"children": children}, optional={"after": scalars, "position": json_values}),
    ),
    (
        "PATCH",
        "/v1/data_sources/{ds}",
        st.fixed_dictionaries(
            {},
            optional={"properties": st.dictionaries(prop_names, specs, max_size=3) | json_values, "title": rich_text},
        ),
    ),
    (
        "PATCH",
        "/v1/data_sources/{ds}",
        st.fixed_dictionaries(
            {
                "properties": st.dictionaries(  # retype columns
                    st.sampled_from(list(SCHEMA)), st.sampled_from(TYPES).map(lambda t: {t: {}}), min_size=1, max_size=2
                )
            }
        ),
    ),
    (
        "PATCH",
        "/v1/databases/{db}",
        st.fixed_dictionaries(
            {}, optional={"title": rich_text, "description": rich_text, "is_inline": scalars, "in_trash": scalars}
        ),
    ),
    (
        "POST",
        "/v1/databases",
        st.fixed_dictionaries(
            {"parent": parents},
            optional={
                "title": rich_text,
                "properties": st.dictionaries(prop_names, specs, max_size=4) | json_values,
                "initial_data_source": json_values,
                "icon": icons,
            },
        ),
    ),
    ("POST", "/v1/data_sources", st.fixed_dictionaries({"parent": parents}, optional={"properties": json_values})),
    (
        "POST",
        "/v1/search",
        st.fixed_dictionaries(
            {}, optional={"query": scalars, "filter": json_values, "sort": json_values, "page_size": scalars}
        ),
    ),
    (
        "POST",
        "/v1/comments",
        st.fixed_dictionaries({}, optional={"parent": parents, "rich_text": rich_text, "discussion_id": scalars}),
    ),
    ("PATCH", "/v1/pages/{page}/markdown", markdown_edits),
    (
        "PATCH",
        "/v1/blocks/{block}",
        st.dictionaries(st.sampled_from([*BLOCK_TYPES, "in_trash", "type"]), json_values, max_size=2),
    ),
    ("DELETE", "/v1/blocks/{block}", st.just(None)),
    ("GET", "/v1/pages/{row}/properties/{prop}", st.just(None)),
    ("GET", "/v1/blocks/{page}/children?page_size={size}&start_cursor={cursor}", st.just(None)),
    ("GET", "/v1/users/{user}", st.just(None)),
    ("GET", "/v1/comments?block_id={any}", st.just(None)),
]
RAW_BODIES = [
    b'{"page_size": 1e999999}',
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b"[" * 50 + b"]" * 50,
    b'{"a":' * 40 + b"1" + b"}" * 40,
    b'{"page_size": ' + b"9" * 30 + b"}",
    b'{"q": "\\ud800"}',
    b"\xff\xfe",
    b'{"parent": ',
    b"null",
    b'"text"',
    b"{}" * 3,
]


@st.composite
def requests(draw: st.DrawFn, ids: dict[str, str]) -> tuple[str, str, bytes | None, dict[str, str]]:
    method, template, bodies = draw(st.sampled_from(ENDPOINTS))
    body = draw(bodies)
    content: bytes | None = None if body is None else to_json_text(fill(body, ids))
    if method != "GET" and draw(st.integers(0, 9)) == 0:
        content = draw(st.sampled_from(RAW_BODIES))
    targets = {
        **ids,
        "block": draw(st.sampled_from([ids["page"], ids["row"], ids["db"], MISSING, "x"])),
        "prop": draw(st.sampled_from(["title", "Dose", "nope", "%2F", "x" * 300])),
        "size": draw(st.sampled_from(["1", "100", "0", "x", "9" * 30])),
        "cursor": draw(st.sampled_from(["", MISSING, "zz"])),
        "user": draw(st.sampled_from([MISSING, "bad", ids["row"]])),
        "any": draw(st.sampled_from([ids["page"], MISSING, "x"])),
    }
    path = template
    for key, value in targets.items():
        path = path.replace("{" + key + "}", value)
    headers = {"Notion-Version": draw(st.sampled_from(["2022-06-28", "2025-09-03", "2025-09-03", "1999-01-01", ""]))}
    return method, path, content, headers


def to_json_text(body: Any) -> bytes:
    text = json.dumps(body).replace(f'"{INF}"', "1e999")
    return text.replace(f'"{HUGE}"', "1" + "0" * 29).encode()


def fill(value: Any, ids: dict[str, str]) -> Any:
    if isinstance(value, str):
        for key, v in ids.items():
            value = value.replace("{" + key + "}", v)
        return value
    if isinstance(value, dict):
        return {k: fill(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, ids) for v in value]
    return value


def check(
    world: World, http: httpx.Client, method: str, path: str, content: bytes | None, headers: dict[str, str]
) -> int:
    """One request; the issue's invariants asserted. Returns the status."""
    before = world.kb.snapshot()
    started = time.monotonic()
    response = http.request(method, path, content=content, headers=headers)
    assert time.monotonic() - started < REQUEST_LIMIT_S
    assert response.status_code < 500, (method, path, content and content[:300], response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert set(body) == {"object", "status", "code", "message"} and body["status"] == response.status_code, body
    after = world.kb.snapshot()  # the harness can still read everything
    writes = method in ("POST", "PATCH", "DELETE") and (method, template_of(path)) not in READS
    if not (writes and response.status_code == 200):
        assert after == before, f"{method} {path} answered {response.status_code} but changed the state"
    else:
        checker_reads_work(world)
    return response.status_code


def checker_reads_work(world: World) -> None:
    """The reads checkers make cope with whatever the agent legally stored: an answer, or the
    agent's failure (an AssertionError such as KbNotFound) — never a harness error."""
    for read in (
        lambda: world.kb.rows("Medication records"),
        lambda: world.kb.page_text("Ward notes"),
        world.kb.comments,
    ):
        try:
            read()
        except AssertionError:
            pass


def template_of(path: str) -> str:
    parts = path.split("?")[0].split("/")
    if len(parts) > 4 and parts[4] == "query":
        return f"/v1/{parts[2]}/{{{'db' if parts[2] == 'databases' else 'ds'}}}/query"
    return path.split("?")[0]


def test_generated_hostile_requests(
    shared: World, ids: dict[str, str], http: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    seen: set[int] = set()

    @fuzz_settings(500)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        seen.add(check(shared, http, *data.draw(requests(ids))))

    with caplog.at_level(logging.ERROR):
        run()
    internal = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("pytest_clawmark")]
    assert not internal, [r.getMessage() for r in internal]  # no "unexpected error" was logged
    assert {s // 100 for s in seen} >= {2, 4}, seen
    assert_still_serves(shared)
    snapshot = shared.kb.snapshot()  # and what the fuzzer left survives the harness's round trip
    shared.kb.restore(snapshot)
    assert shared.kb.snapshot() == snapshot


CORPUS: list[tuple[str, str, str, bytes]] = [
    ("infinity", "POST", "/v1/search", b'{"query": "", "page_size": 1e999999}'),
    ("infinity in an icon", "PATCH", "/v1/pages/{row}", b'{"icon": {"type": "emoji", "emoji": 1e999}}'),
    (
        "infinity in a mention",
        "POST",
        "/v1/comments",
        b'{"parent": {"page_id": "{page}"}, "rich_text": [{"type": "mention", "mention": {"user": {"id": 1e999}}}]}',
    ),
    ("NaN literal", "POST", "/v1/search", b'{"query": NaN}'),
    ("huge integer", "POST", "/v1/search", b'{"page_size": ' + b"9" * 5000 + b"}"),
    ("deep nesting", "POST", "/v1/search", b'{"filter": ' + b"[" * 100 + b"]" * 100 + b"}"),
    ("people retyped to select", "PATCH", "/v1/data_sources/{ds}", b'{"properties": {"Owner": {"select": {}}}}'),
    ("arbitrary icon object", "PATCH", "/v1/pages/{page}", b'{"icon": {"type": "emoji", "emoji": "x", "junk": [1]}}'),
    ("600 KB body", "POST", "/v1/pages", b'{"x": "' + b"a" * 600_000 + b'"}'),
    (
        "2,000 blocks from Markdown",
        "POST",
        "/v1/pages",
        b'{"parent": {"page_id": "{page}"}, "markdown": "' + b"- a\\n" * 2000 + b'"}',
    ),
]


@pytest.fixture(scope="module")
def corpus_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """A world of its own: the generated requests may have trashed or retyped what the corpus targets."""
    w = make_world(tmp_path_factory.mktemp("kbcorpus"))
    w.kb.create_database("Medication records", SCHEMA, ROWS)
    yield w
    w.stop()


@pytest.mark.parametrize(("method", "path", "body"), [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_observed_corpus(corpus_world: World, method: str, path: str, body: bytes) -> None:
    kb = corpus_world.kb
    db = kb.database("Medication records")
    page = next((p for p in kb.snapshot()["pages"] if p["parent_type"] == "workspace"), None)
    ids = {
        "db": db.id,
        "ds": db.data_source_id,
        "row": kb.row_id("Medication records", "P-2189"),
        "page": page["id"] if page else kb.create_page("Ward notes", "- one"),
    }
    for key, value in ids.items():
        path = path.replace("{" + key + "}", value)
        body = body.replace(("{" + key + "}").encode(), value.encode())
    env = corpus_world.agent_env()
    with httpx.Client(
        base_url=env["CLAWMARK_NOTION_URL"],
        trust_env=False,
        timeout=REQUEST_LIMIT_S,
        headers={"Authorization": f"Bearer {env['CLAWMARK_NOTION_TOKEN']}"},
    ) as http:
        status = check(corpus_world, http, method, path, body, {"Notion-Version": "2025-09-03"})
    assert status < 500


def assert_still_serves(world: World) -> None:
    notion = client(world)
    try:
        assert notion.users.me()["object"] == "user"
        assert notion.search(query="")["object"] == "list"
    finally:
        notion.close()
    world.kb.comments()  # the admin plane's reads still work on whatever the fuzzer left
