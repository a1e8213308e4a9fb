"""Fuzzing the CalDAV server: generated hostile requests over the protocol's grammar.

Each example is one raw HTTP request — a method, a path built from real and hostile segments,
headers (credentials, Depth, Content-Type and charset, Destination...), and a body that is XML
built from the WebDAV/CalDAV vocabulary, an iCalendar object built from RFC 5545 properties, or
plain bytes. For every request: no 5xx, no reset, an answer within ``REQUEST_LIMIT_S``; the admin
snapshot unchanged unless the request was an accepted write (and then other accounts unchanged),
and the admin reads (snapshot, events) still working. A fixed corpus replays the cases observed
by hand. One world serves the whole module; the server must keep answering after all of it.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from datetime import datetime, timezone
from typing import Any
from urllib.parse import quote

import caldav
import pytest
from fuzzing import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st
from test_calendar_hostile import (
    BILLION_LAUGHS,
    DEEP,
    EXTERNAL_ENTITY,
    NS,
    Agent,
    ics,
    make_world,
    proppatch,
    query,
    request_bytes,
    send_raw,
)

from pytest_clawmark.world import World

WRITES = frozenset({"PUT", "DELETE", "MKCALENDAR", "MKCOL", "PROPPATCH", "MOVE", "COPY", "POST"})


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    w = make_world(tmp_path_factory.mktemp("calfuzz"))
    w.calendar.add_event(
        "Ward round",
        datetime(2025, 4, 7, 10, tzinfo=timezone.utc),
        datetime(2025, 4, 7, 11, tzinfo=timezone.utc),
        uid="seeded@x",
    )
    w.calendar.add_event(
        "Nurse shift",
        datetime(2025, 4, 7, 7, tzinfo=timezone.utc),
        datetime(2025, 4, 7, 19, tzinfo=timezone.utc),
        owner="nurse3@hospital.internal",
    )
    yield w
    w.stop()


# -- the grammar ---------------------------------------------------------------------------------
USER = "chen.fang@hospital.internal"
NURSE = "nurse3@hospital.internal"
METHODS = [
    "GET",
    "HEAD",
    "OPTIONS",
    "PROPFIND",
    "PROPPATCH",
    "REPORT",
    "MKCALENDAR",
    "MKCOL",
    "PUT",
    "DELETE",
    "MOVE",
    "COPY",
    "POST",
    "LOCK",
    "ACL",
]
methods = st.sampled_from(METHODS) | st.text(string.ascii_uppercase + "-_", min_size=1, max_size=10)
segments = st.sampled_from(
    [
        USER,
        NURSE,
        "calendar",
        "seeded@x.ics",
        "new.ics",
        "oncall",
        "..",
        ".",
        ".Radicale.props",
        "",
        "%2e%2e",
        "%00",
        "%ff%fe",
        "a" * 250,
        "\u00e9v\u00e9nement",
        ".well-known",
        "caldav",
    ]
) | st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
paths = st.builds(
    lambda segs, slash: "/" + "/".join(quote(s, safe="@%") for s in segs) + ("/" if slash and segs else ""),
    st.lists(segments, max_size=4),
    st.booleans(),
)
dates = st.sampled_from(
    [
        "20250407T100000Z",
        "20250407",
        "19000101T000000Z",
        "20991231T235959Z",
        "30000101T000000Z",
        "20250407T100000",
        "2025-04-07",
        "xx",
        "",
        "20251340T100000Z",
        "00000101T000000Z",
    ]
)
rules = st.builds(
    lambda parts: ";".join(parts),
    st.lists(
        st.sampled_from(
            [
                "FREQ=DAILY",
                "FREQ=SECONDLY",
                "FREQ=MINUTELY",
                "FREQ=HOURLY",
                "FREQ=YEARLY",
                "FREQ=WEEKLY",
                "COUNT=5",
                "COUNT=100000",
                "COUNT=-1",
                "INTERVAL=0",
                "UNTIL=20250501T000000Z",
                "UNTIL=99991231T000000Z",
                "BYDAY=MO,TU",
                "BYHOUR=1,2,3",
                "BYMINUTE=0,30",
                "BYMONTH=2",
                "BYMONTHDAY=30",
                "BYSETPOS=-1",
                "WKST=XX",
                "FREQ=BOGUS",
            ]
        ),
        max_size=5,
    ),
)
ical_values = (
    dates
    | rules
    | st.text(max_size=30)
    | st.sampled_from(["mailto:a@b", "PT1H", "-P1D", "P99999999W", "CANCELLED", "abc", "1", "99999999999999999999"])
)
ical_props = st.tuples(
    st.sampled_from(
        [
            "UID",
            "DTSTART",
            "DTEND",
            "DURATION",
            "RRULE",
            "RDATE",
            "EXDATE",
            "SUMMARY",
            "SEQUENCE",
            "STATUS",
            "ATTENDEE",
            "ORGANIZER",
            "RECURRENCE-ID",
            "DTSTAMP",
            "X-CUSTOM",
            "BEGIN",
            "END",
        ]
    ),
    st.sampled_from(
        [
            "",
            ";TZID=Europe/Paris",
            ";TZID=Mars/Olympus",
            ";VALUE=DATE",
            ";VALUE=PERIOD",
            ";VALUE=TIME",
            ';CN="a"',
            ';X="unterminated',
        ]
    ),
    ical_values,
)


@st.composite
def icalendars(draw: st.DrawFn) -> bytes:
    components = draw(
        st.lists(
            st.sampled_from(["VEVENT", "VTODO", "VJOURNAL", "VTIMEZONE", "VALARM", "VFOO"]), min_size=0, max_size=3
        )
    )
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//fuzz//EN"]
    for i, name in enumerate(components):
        lines += [
            f"BEGIN:{name}",
            f"UID:fuzz-{draw(st.integers(0, 5))}-{i}",
            "DTSTAMP:20250101T000000Z",
            f"DTSTART:{draw(dates)}",
        ]
        for prop, params, value in draw(st.lists(ical_props, max_size=6)):
            lines.append(f"{prop}{params}:{value}")
        lines.append(f"END:{name}")
    if draw(st.booleans()):
        lines.append("END:VCALENDAR")
    text = "\r\n".join(lines) + "\r\n"
    return text.encode("utf-8", "surrogateescape")


XML_NAMES = [
    "D:prop",
    "D:allprop",
    "D:propname",
    "D:set",
    "D:remove",
    "D:displayname",
    "D:resourcetype",
    "D:collection",
    "C:calendar",
    "D:getetag",
    "D:sync-token",
    "D:href",
    "C:filter",
    "C:comp-filter",
    "C:prop-filter",
    "C:param-filter",
    "C:text-match",
    "C:time-range",
    "C:calendar-data",
    "C:expand",
    "C:limit-recurrence-set",
    "C:supported-calendar-component-set",
    "C:comp",
    "C:is-not-defined",
    "C:calendar-description",
    "D:current-user-principal",
    "C:calendar-home-set",
    "D:owner",
    "X:unknown",
]
XML_ROOTS = [
    "D:propfind",
    "D:propertyupdate",
    "C:calendar-query",
    "C:calendar-multiget",
    "D:sync-collection",
    "C:free-busy-query",
    "C:mkcalendar",
    "D:mkcol",
    "D:expand-property",
    "X:root",
]
attributes = st.dictionaries(
    st.sampled_from(["name", "start", "end", "collation", "negate-condition", "test"]),
    dates
    | st.sampled_from(["VEVENT", "VCALENDAR", "i;octet", "yes", "anyof", "&amp;", '"']).map(
        lambda v: v.replace('"', "&quot;")
    ),
    max_size=2,
)
xml_trees = st.recursive(
    st.tuples(st.sampled_from(XML_NAMES), attributes, st.text(max_size=20), st.just([])),
    lambda children: st.tuples(st.sampled_from(XML_NAMES), attributes, st.just(""), st.lists(children, max_size=3)),
    max_leaves=12,
)


def render(tag: str, attrs: dict[str, str], text: str, children: list[Any]) -> str:
    attr = "".join(f' {k}="{v}"' for k, v in attrs.items())
    inner = text.replace("&", "&amp;").replace("<", "&lt;") + "".join(render(*c) for c in children)
    return f"<{tag}{attr}>{inner}</{tag}>"


@st.composite
def xml_bodies(draw: st.DrawFn) -> bytes:
    root = draw(st.sampled_from(XML_ROOTS))
    children = "".join(render(*c) for c in draw(st.lists(xml_trees, max_size=3)))
    doc = f'<{root} {NS} xmlns:X="urn:x">{children}</{root}>'
    prefix = draw(
        st.sampled_from(
            [
                "",
                '<?xml version="1.0"?>',
                '<?xml version="1.0" encoding="bogus"?>',
                '<!DOCTYPE x [<!ENTITY e "e">]>',
                '<!DOCTYPE x SYSTEM "file:///etc/passwd">',
            ]
        )
    )
    body = (prefix + doc).encode()
    cut = draw(st.integers(0, 3))
    return body[: len(body) - cut * 7] if cut else body


bodies = st.one_of(
    st.just(b""),
    xml_bodies(),
    icalendars(),
    st.binary(max_size=200),
    st.sampled_from(
        [
            BILLION_LAUGHS,
            EXTERNAL_ENTITY,
            DEEP,
            ics(),
            proppatch("<D:displayname>x</D:displayname>"),
            query("20250101T000000Z", "20260101T000000Z"),
        ]
    ),
)


@st.composite
def requests(draw: st.DrawFn, agent: Agent) -> tuple[str, str, dict[str, str], bytes]:
    method = draw(methods)
    path = draw(
        paths
        | st.sampled_from(
            [f"/{USER}/", f"/{USER}/calendar/", f"/{USER}/calendar/seeded@x.ics", f"/{NURSE}/calendar/", "/", "*"]
        )
    )
    auth = draw(st.sampled_from([agent.auth] * 6 + ["Basic !!!", "Basic Og==", "Bearer x", "Basic " + "A" * 2000, ""]))
    headers = {"Authorization": auth} if auth else {}
    headers.update(
        draw(
            st.fixed_dictionaries(
                {},
                optional={
                    "Depth": st.sampled_from(["0", "1", "infinity", "-1", "bogus", ""]),
                    "Content-Type": st.sampled_from(
                        [
                            "text/calendar",
                            "application/xml; charset=utf-8",
                            "text/xml; charset=bogus",
                            "text/calendar; charset=rot13",
                            "text/xml; charset=utf-16",
                            "x/y; charset=",
                        ]
                    ),
                    "Destination": st.sampled_from(
                        [
                            f"http://127.0.0.1:{agent.port}/{USER}/calendar/moved.ics",
                            f"/{USER}/oncall/m.ics",
                            "http://elsewhere/x.ics",
                            "http://127.0.0.1:99999/x",
                            "::::",
                            f"/{USER}/",
                            "/" + "a" * 2000,
                        ]
                    ),
                    "If-Match": st.sampled_from(["*", '"x"', ""]),
                    "If-None-Match": st.just("*"),
                    "X-Pad": st.integers(0, 40).map(lambda n: "p" * (n * 1000)),
                },
            )
        )
    )
    body = draw(bodies)
    return method, path, headers, body


def check(world: World, agent: Agent, method: str, path: str, headers: dict[str, str], body: bytes) -> int:
    """Send one request and assert the issue's invariants; returns the status."""
    before = world.calendar.snapshot()
    answer = send_raw(agent.port, request_bytes(method, path, headers, body))
    assert answer.status < 500, (answer.status, answer.body[:300])
    after = world.calendar.snapshot()  # the harness can still read everything
    accepted_write = 200 <= answer.status < 300 and method.upper() in WRITES
    if not accepted_write:
        assert after == before, f"{method} {path} answered {answer.status} but changed the state"
    else:
        others = {p: c for p, c in before["calendars"].items() if c["owner"] != USER}
        assert {p: c for p, c in after["calendars"].items() if c["owner"] != USER} == others
        world.calendar.events()  # and the checkers' reads of what was written
    return answer.status


# -- the suites -----------------------------------------------------------------------------------
def test_generated_hostile_requests(world: World) -> None:
    agent = Agent(world)
    seen: set[int] = set()

    @fuzz_settings(500)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        seen.add(check(world, agent, *data.draw(requests(agent))))

    run()
    assert {s // 100 for s in seen} >= {2, 4}, seen  # the fuzzer reached both outcomes
    assert_still_serves(world)
    snapshot = world.calendar.snapshot()  # and what the fuzzer left survives the harness's round trip
    world.calendar.restore(snapshot)
    assert world.calendar.snapshot() == snapshot


CORPUS: list[tuple[str, str, str, dict[str, str], bytes]] = [
    ("billion laughs", "PROPFIND", f"/{USER}/", {"Depth": "0"}, BILLION_LAUGHS),
    ("external entity", "PROPFIND", f"/{USER}/", {"Depth": "0"}, EXTERNAL_ENTITY),
    ("deep xml", "PROPFIND", f"/{USER}/", {"Depth": "0"}, DEEP),
    ("empty propfind", "PROPFIND", f"/{USER}/calendar/", {"Depth": "1"}, f"<D:propfind {NS}/>".encode()),
    ("not base64", "PROPFIND", f"/{USER}/", {"Authorization": "Basic !!!"}, b""),
    ("no colon", "PROPFIND", f"/{USER}/", {"Authorization": "Basic bm9jb2xvbg=="}, b""),
    ("content-length -5", "PUT", f"/{USER}/calendar/x.ics", {"Content-Length": "-5"}, b""),
    ("content-length abc", "PUT", f"/{USER}/calendar/x.ics", {"Content-Length": "abc"}, b""),
    ("content-length huge", "PUT", f"/{USER}/calendar/x.ics", {"Content-Length": str(10**12)}, b""),
    ("5000-char name", "MKCALENDAR", f"/{USER}/{'a' * 5000}/", {}, b""),
    ("bogus charset", "PROPFIND", f"/{USER}/", {"Content-Type": "text/xml; charset=bogus"}, b"<x/>"),
    ("delete principal", "DELETE", f"/{USER}/", {}, b""),
    ("delete default calendar", "DELETE", f"/{USER}/calendar/", {}, b""),
    ("put on a collection", "PUT", f"/{USER}/calendar/", {"Content-Type": "text/calendar"}, ics("w")),
    (
        "principal into calendar",
        "PROPPATCH",
        f"/{USER}/",
        {},
        proppatch("<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"),
    ),
    (
        "calendar into folder",
        "PROPPATCH",
        f"/{USER}/calendar/",
        {},
        proppatch("<D:resourcetype><D:collection/></D:resourcetype>"),
    ),
    (
        "move to another server",
        "MOVE",
        f"/{USER}/calendar/seeded@x.ics",
        {"Destination": "http://elsewhere/x.ics"},
        b"",
    ),
    ("endless secondly", "PUT", f"/{USER}/calendar/s.ics", {}, ics("s", extra="RRULE:FREQ=SECONDLY")),
    ("query from 1900", "REPORT", f"/{USER}/calendar/", {"Depth": "1"}, query("19000101T000000Z", "21000101T000000Z")),
    ("sequence not a number", "PUT", f"/{USER}/calendar/seq.ics", {}, ics("seq", extra="SEQUENCE:abc")),
]


@pytest.mark.parametrize(("method", "path", "headers", "body"), [c[1:] for c in CORPUS], ids=[c[0] for c in CORPUS])
def test_observed_corpus(world: World, method: str, path: str, headers: dict[str, str], body: bytes) -> None:
    agent = Agent(world)
    sent = {"Authorization": agent.auth, **headers}
    assert check(world, agent, method, path, sent, body) < 500


def assert_still_serves(world: World) -> None:
    env = world.agent_env()
    with caldav.DAVClient(
        url=env["CLAWMARK_CALDAV_URL"], username=env["CLAWMARK_CALDAV_USER"], password=env["CLAWMARK_CALDAV_PASSWORD"]
    ) as client:
        calendars = client.principal().calendars()
        assert any(str(c.url).rstrip("/").endswith("/calendar") for c in calendars)
    world.calendar.events()  # the admin plane reads whatever the fuzzer left
