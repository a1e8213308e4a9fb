"""The CalDAV server under hostile input: each observation of issue 9 as a regression test.

Requests go over raw sockets (a malformed request is the point, and a reset must show as a
failure, not be retried by a client library); the state is compared through the admin plane's
snapshot. Limits are read from :mod:`pytest_clawmark.servers.calendar.limits`; tests that need a
quota filled lower it with ``monkeypatch`` rather than writing thousands of items.
"""

from __future__ import annotations

import base64
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone

import caldav
import pytest
from fuzzing import REQUEST_LIMIT_S
from test_calendar_service import USER, make_world, world  # noqa: F401 - the same world and fixture as the service tests

from pytest_clawmark.servers.calendar import limits
from pytest_clawmark.world import World

HOME = f"/{USER.email}/"
DEFAULT = f"/{USER.email}/calendar/"


# -- raw HTTP -------------------------------------------------------------------------------------
@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float


def _read_answer(sock: socket.socket, started: float) -> Answer:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"connection closed without an answer (got {data[:80]!r})")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    if "content-length" in headers:
        while len(body) < int(headers["content-length"]):
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    else:
        while chunk := sock.recv(65536):
            body += chunk
    return Answer(int(status_line.split()[1]), headers, body, time.monotonic() - started)


def send_raw(port: int, data: bytes, timeout: float = REQUEST_LIMIT_S) -> Answer:
    """Send ``data`` as is; the answer, or an AssertionError for a reset or a hang."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        started = time.monotonic()
        try:
            sock.sendall(data)  # all of it first, as client libraries do
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise AssertionError(f"the server reset the connection while the request was sent ({exc})") from None
        try:
            return _read_answer(sock, started)
        except ConnectionResetError:
            raise AssertionError("the server reset the connection") from None
        except TimeoutError:
            raise AssertionError(f"no answer within {timeout} s") from None


def request_bytes(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items())]
    if body and not any(k.lower() in ("content-length", "transfer-encoding") for k in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape") + body


class Agent:
    """The agent's side of a world's CalDAV server, over raw sockets."""

    def __init__(self, world: World) -> None:
        env = world.agent_env()
        self.port = int(env["CLAWMARK_CALDAV_URL"].rstrip("/").rsplit(":", 1)[1])
        self.login = env["CLAWMARK_CALDAV_USER"]
        token = base64.b64encode(f"{self.login}:{env['CLAWMARK_CALDAV_PASSWORD']}".encode()).decode()
        self.auth = f"Basic {token}"

    def send(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None, *, auth: bool = True
    ) -> Answer:
        sent = {"Authorization": self.auth} if auth else {}
        sent.update(headers or {})
        return send_raw(self.port, request_bytes(method, path, sent, body))


def ics(uid: str = "e1", extra: str = "", start: str = "20250407T100000Z", end: str = "20250407T110000Z") -> bytes:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//test//EN",
        "BEGIN:VEVENT",
        f"UID:{uid}",
        "DTSTAMP:20250101T000000Z",
        f"DTSTART:{start}",
        f"DTEND:{end}",
        "SUMMARY:Ward round",
    ]
    if extra:
        lines.append(extra)
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return ("\r\n".join(lines) + "\r\n").encode()


def xml(text: str) -> bytes:
    return ('<?xml version="1.0" encoding="utf-8"?>' + text).encode()


NS = 'xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"'


def proppatch(prop: str) -> bytes:
    return xml(f"<D:propertyupdate {NS}><D:set><D:prop>{prop}</D:prop></D:set></D:propertyupdate>")


def query(start: str, end: str) -> bytes:
    return xml(
        f'<C:calendar-query {NS}><D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR">'
        f'<C:comp-filter name="VEVENT"><C:time-range start="{start}" end="{end}"/></C:comp-filter>'
        "</C:comp-filter></C:filter></C:calendar-query>"
    )


# -- fixtures -------------------------------------------------------------------------------------
@pytest.fixture
def agent(world: World) -> Agent:
    return Agent(world)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """One world for the tests that only expect refusals (each checks the state is unchanged)."""
    w = make_world(tmp_path_factory.mktemp("calendar"))
    w.calendar.add_event(
        "Ward round",
        datetime(2025, 4, 7, 10, tzinfo=timezone.utc),
        datetime(2025, 4, 7, 11, tzinfo=timezone.utc),
        uid="seeded@x",
    )
    yield w
    w.stop()


def assert_refused(world: World, answer: Answer, status: int, before: dict, reason: str = "") -> None:
    assert answer.status == status, (answer.status, answer.body[:300])
    if reason:
        assert reason.encode() in answer.body, answer.body[:300]
    assert world.calendar.snapshot() == before


# -- XML: DTDs, entities, depth -------------------------------------------------------------------
BILLION_LAUGHS = xml(
    '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
    f"<D:propfind {NS}><D:prop><D:displayname>&lol3;</D:displayname></D:prop></D:propfind>"
)
EXTERNAL_ENTITY = xml(
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
    f"<D:propfind {NS}><D:prop><D:displayname>&e;</D:displayname></D:prop></D:propfind>"
)
DEEP = xml(f"<D:propfind {NS}>" + "<D:prop>" * 5000 + "</D:prop>" * 5000 + "</D:propfind>")


@pytest.mark.parametrize(
    ("body", "reason"),
    [(BILLION_LAUGHS, "DTD"), (EXTERNAL_ENTITY, "DTD"), (DEEP, "nested deeper than")],
    ids=["billion laughs", "external entity", "deep nesting"],
)
def test_hostile_xml_is_a_400_not_a_500(shared: World, body: bytes, reason: str) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("PROPFIND", HOME, body, {"Depth": "0", "Content-Type": "application/xml"})
    assert_refused(shared, answer, 400, before, reason)


def test_propfind_without_a_prop_element_is_a_400(shared: World) -> None:
    answer = Agent(shared).send("PROPFIND", DEFAULT, xml(f"<D:propfind {NS}/>"), {"Depth": "1"})
    assert answer.status == 400, answer.body


# -- HTTP framing and credentials -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("authorization", "why"),
    [
        ("Basic !!!not-base64!!!", "not base64"),
        ("Basic " + base64.b64encode(b"no-colon").decode(), "no ':'"),
        ("Basic \u00e9t\u00e9", "not base64"),
    ],
    ids=["not base64", "no colon", "not ascii"],
)
def test_malformed_basic_credentials_get_401(shared: World, authorization: str, why: str) -> None:
    answer = Agent(shared).send("PROPFIND", HOME, headers={"Authorization": authorization, "Depth": "0"}, auth=False)
    assert answer.status == 401, answer.body
    assert answer.headers["www-authenticate"].startswith("Basic realm=")
    assert why.encode() in answer.body


@pytest.mark.parametrize(
    ("length", "status"),
    [("-5", 400), ("abc", 400), ("1e3", 400), (str(10**12), 413)],
    ids=["negative", "not a number", "float", "huge"],
)
def test_bad_content_length_is_a_4xx(shared: World, length: str, status: int) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("PUT", DEFAULT + "x.ics", ics(), {"Content-Length": length})
    assert_refused(shared, answer, status, before)


def test_body_shorter_than_announced_gets_408_after_the_idle_timeout(
    world: World, agent: Agent, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "IDLE_TIMEOUT_S", 0.5)  # read by each new connection
    answer = agent.send("PUT", DEFAULT + "x.ics", b"BEGIN", {"Content-Length": "100"})
    assert answer.status == 408 and answer.seconds < 5, answer
    assert world.calendar.events() == []


def test_chunked_bodies_are_refused_with_411(shared: World) -> None:
    body = b"5\r\nhello\r\n0\r\n\r\n"
    answer = Agent(shared).send("PUT", DEFAULT + "x.ics", body, {"Transfer-Encoding": "chunked"})
    assert answer.status == 411


def test_unknown_charset_is_a_415(shared: World) -> None:
    answer = Agent(shared).send(
        "PROPFIND",
        HOME,
        xml(f"<D:propfind {NS}><D:allprop/></D:propfind>"),
        {"Content-Type": "application/xml; charset=bogus", "Depth": "0"},
    )
    assert answer.status == 415, answer.body


def test_oversize_headers_get_431(shared: World) -> None:
    headers = {f"X-Pad-{i}": "a" * 1000 for i in range(limits.MAX_HEADER_BYTES // 1000 + 2)}
    assert Agent(shared).send("OPTIONS", HOME, headers=headers).status == 431


@pytest.mark.parametrize("size", [limits.MAX_REQUEST_BYTES + 1, 16 * 2**20], ids=["just over", "16 MiB"])
def test_oversize_body_is_a_413_not_a_reset(shared: World, size: int) -> None:
    """Refused before it is read, then drained (a lingering close) so the client reads the 413."""
    answer = Agent(shared).send("PUT", DEFAULT + "big.ics", b"x" * size)
    assert answer.status == 413


# -- names and paths -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a" * 5000, "a" * (limits.MAX_NAME_BYTES + 1), "\u00e9" * 101])
def test_overlong_collection_name_is_a_414(shared: World, name: str) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("MKCALENDAR", f"{HOME}{name}/")
    assert_refused(shared, answer, 414, before)


def test_overlong_path_is_a_414(shared: World) -> None:
    answer = Agent(shared).send("PROPFIND", HOME + "a/" * (limits.MAX_PATH_CHARS // 2), headers={"Depth": "0"})
    assert answer.status == 414


# -- destructive operations ------------------------------------------------------------------------
def test_deleting_the_principal_is_forbidden(shared: World) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("DELETE", HOME)
    assert_refused(shared, answer, 403, before, "principal")
    assert shared.calendar.calendars() == [DEFAULT]


def test_deleting_the_default_calendar_is_forbidden(shared: World) -> None:
    before = shared.calendar.snapshot()
    assert_refused(shared, Agent(shared).send("DELETE", DEFAULT), 403, before, "default calendar")
    assert_refused(shared, Agent(shared).send("DELETE", DEFAULT.rstrip("/")), 403, before, "default calendar")


def test_a_calendar_the_agent_made_can_be_deleted_and_the_harness_copes(world: World, agent: Agent) -> None:
    assert agent.send("MKCALENDAR", HOME + "oncall/").status == 201
    assert agent.send("PUT", HOME + "oncall/n.ics", ics("night@x")).status == 201
    assert [e.uid for e in world.calendar.events()] == ["night@x"]
    assert agent.send("DELETE", HOME + "oncall/").status == 200
    assert world.calendar.calendars() == [DEFAULT]
    assert world.calendar.events() == []
    world.calendar.add_event(
        "After",
        datetime(2025, 4, 8, 9, tzinfo=timezone.utc),
        datetime(2025, 4, 8, 10, tzinfo=timezone.utc),
        calendar="oncall",
    )
    assert world.calendar.events(calendar="oncall")[0].summary == "After"


def test_put_on_a_collection_does_not_replace_it(shared: World) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("PUT", DEFAULT, ics("whole"), {"Content-Type": "text/calendar"})
    assert_refused(shared, answer, 403, before)


@pytest.mark.parametrize(
    ("path", "prop"),
    [
        (DEFAULT, "<D:resourcetype><D:collection/></D:resourcetype>"),
        (HOME, "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"),
        (DEFAULT, '<C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>'),
        (DEFAULT, "<D:getetag>x</D:getetag>"),
        (HOME, "<D:displayname>Mine</D:displayname>"),
        (DEFAULT, "<D:displayname>" + "x" * 300 + "</D:displayname>"),
    ],
    ids=["calendar into folder", "principal into calendar", "component set", "getetag", "principal name", "long name"],
)
def test_protected_properties_cannot_be_patched(shared: World, path: str, prop: str) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("PROPPATCH", path, proppatch(prop), {"Content-Type": "application/xml"})
    assert_refused(shared, answer, 207, before)
    assert b"403 Forbidden" in answer.body and b"cannot-modify-protected-property" in answer.body
    assert shared.calendar.calendars() == [DEFAULT]


def test_the_display_name_can_be_patched(world: World, agent: Agent) -> None:
    answer = agent.send("PROPPATCH", DEFAULT, proppatch("<D:displayname>Ward</D:displayname>"))
    assert answer.status == 207 and b"200 OK" in answer.body, answer.body
    assert world.calendar.snapshot()["calendars"][DEFAULT]["props"]["D:displayname"] == "Ward"


def test_moving_an_item_to_another_server_is_a_403_not_a_502(shared: World) -> None:
    before = shared.calendar.snapshot()
    (item,) = before["calendars"][DEFAULT]["items"]
    destination = {"Destination": "http://elsewhere.example/x.ics"}
    answer = Agent(shared).send("MOVE", DEFAULT + item["href"], headers=destination)
    assert_refused(shared, answer, 403, before)


# -- iCalendar limits ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "precondition"),
    [
        (ics(extra="DESCRIPTION:" + "x" * limits.MAX_RESOURCE_BYTES), "max-resource-size"),
        (ics(extra="\r\n".join(f"X-N{i}:v" for i in range(limits.MAX_RESOURCE_LINES))), "max-resource-size"),
        (ics(extra="\r\n".join(f"ATTENDEE:mailto:p{i}@x" for i in range(101))), "max-attendees-per-instance"),
        (ics(extra="RRULE:FREQ=SECONDLY"), "max-instances"),
        (ics(extra="RRULE:FREQ=DAILY;BYHOUR=1,2,3"), "max-instances"),
        (ics(extra=f"RRULE:FREQ=DAILY;COUNT={limits.MAX_INSTANCES + 1}"), "max-instances"),
        (ics(start="19000101T100000Z"), "min-date-time"),
        (ics(end="25000101T100000Z"), "max-date-time"),
        (ics(extra="RRULE:FREQ=DAILY;UNTIL=30000101T000000Z"), "max-date-time"),
        (ics(extra="RRULE:FREQ=MINUTELY;BYMONTH=2;COUNT=5"), "max-instances"),
        (ics(extra="RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"), "valid-calendar-object-resource"),
        (ics(extra="RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;COUNT=500"), "max-instances"),
    ],
    ids=[
        "size",
        "lines",
        "attendees",
        "endless secondly",
        "sub-daily by-hour",
        "count",
        "1900",
        "2500",
        "until",
        "sub-daily filtered",
        "never occurs (dateutil searched to 9999)",
        "count out of reach",
    ],
)
def test_costly_calendar_objects_are_refused_with_their_precondition(
    shared: World, body: bytes, precondition: str
) -> None:
    before = shared.calendar.snapshot()
    answer = Agent(shared).send("PUT", DEFAULT + "costly.ics", body, {"Content-Type": "text/calendar"})
    assert_refused(shared, answer, 403, before, precondition)


def test_a_bounded_sub_daily_recurrence_is_accepted(world: World, agent: Agent) -> None:
    answer = agent.send("PUT", DEFAULT + "m.ics", ics("m", extra="RRULE:FREQ=MINUTELY;COUNT=30"))
    assert answer.status == 201, answer.body
    assert world.calendar.event(uid="m").rrule == "FREQ=MINUTELY;COUNT=30"


@pytest.mark.parametrize(
    ("start", "end"), [("19000101T000000Z", "20250101T000000Z"), ("20250101T000000Z", "99991231T000000Z")]
)
def test_queries_outside_the_supported_dates_are_refused(shared: World, start: str, end: str) -> None:
    answer = Agent(shared).send("REPORT", DEFAULT, query(start, end), {"Depth": "1"})
    assert answer.status == 403 and b"date-time" in answer.body, answer.body


def test_an_endless_daily_event_queried_at_the_far_end_answers_quickly(world: World, agent: Agent) -> None:
    body = ics("daily", extra="RRULE:FREQ=DAILY", start="19700101T100000Z", end="19700101T110000Z")
    assert agent.send("PUT", DEFAULT + "daily.ics", body).status == 201
    answer = agent.send("REPORT", DEFAULT, query("20990101T000000Z", "20991231T000000Z"), {"Depth": "1"})
    assert answer.status == 207 and answer.seconds < REQUEST_LIMIT_S


def test_a_query_that_would_step_through_too_many_occurrences_is_refused(world: World, agent: Agent) -> None:
    """Radicale follows each recurring event from its DTSTART to the end of the queried range:
    twenty endless daily events from 1970 queried in 2099 took 6 s, holding the storage lock."""
    for i in range(5):
        body = ics(f"d{i}", extra="RRULE:FREQ=DAILY", start="19700101T100000Z", end="19700101T110000Z")
        assert agent.send("PUT", f"{DEFAULT}d{i}.ics", body).status == 201
    refused = agent.send("REPORT", DEFAULT, query("20991201T000000Z", "20991231T000000Z"), {"Depth": "1"})
    assert refused.status == 403 and b"max-query-occurrences" in refused.body, refused.body
    nearer = agent.send("REPORT", DEFAULT, query("20250401T000000Z", "20250501T000000Z"), {"Depth": "1"})
    assert nearer.status == 207 and nearer.seconds < REQUEST_LIMIT_S


# -- quotas ----------------------------------------------------------------------------------------
def test_items_per_calendar_are_capped(world: World, agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_RESOURCES_PER_CALENDAR", 3)
    for i in range(3):
        assert agent.send("PUT", f"{DEFAULT}{i}.ics", ics(f"u{i}")).status == 201
    before = world.calendar.snapshot()
    assert_refused(world, agent.send("PUT", f"{DEFAULT}3.ics", ics("u3")), 403, before, "max-resources")
    assert agent.send("PUT", f"{DEFAULT}0.ics", ics("u0", extra="LOCATION:Ward 5")).status == 204  # replacing is fine
    assert agent.send("DELETE", f"{DEFAULT}1.ics").status == 200
    assert agent.send("PUT", f"{DEFAULT}3.ics", ics("u3")).status == 201


def test_calendars_per_account_are_capped(world: World, agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_CALENDARS_PER_ACCOUNT", 2)
    assert agent.send("MKCALENDAR", HOME + "second/").status == 201
    before = world.calendar.snapshot()
    assert_refused(world, agent.send("MKCALENDAR", HOME + "third/"), 403, before, "max-calendars")


def test_account_bytes_are_capped(world: World, agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_ACCOUNT_BYTES", 2000)
    assert agent.send("PUT", f"{DEFAULT}a.ics", ics("a", extra="DESCRIPTION:" + "x" * 900)).status == 201
    before = world.calendar.snapshot()
    answer = agent.send("PUT", f"{DEFAULT}b.ics", ics("b", extra="DESCRIPTION:" + "x" * 900))
    assert_refused(world, answer, 403, before, "quota")


# -- the harness copes with what the agent may legally store ----------------------------------------
def test_values_icalendar_cannot_read_do_not_break_snapshots_or_checkers(world: World, agent: Agent) -> None:
    """Radicale (vobject) accepts ``SEQUENCE:not-a-number``; the admin plane's int() crashed on it,
    which broke every snapshot and every checker read of the calendar for the rest of the task."""
    odd = ics("odd", extra="SEQUENCE:not-a-number")
    assert agent.send("PUT", DEFAULT + "odd.ics", odd).status == 201
    snapshot = world.calendar.snapshot()
    assert [e["uid"] for e in snapshot["calendars"][DEFAULT]["events"]] == ["odd"]
    assert world.calendar.event(uid="odd").sequence == 0


def test_refused_requests_are_audited(world: World, agent: Agent) -> None:
    agent.send("DELETE", HOME)
    agent.send("PROPFIND", HOME, BILLION_LAUGHS, {"Depth": "0"})
    statuses = [(e.operation, e.status) for e in world.audit.entries("calendar")]
    assert statuses == [("DELETE", "403"), ("PROPFIND", "400")]


def test_the_official_client_still_works_after_hostile_requests(world: World, agent: Agent) -> None:
    for body in (BILLION_LAUGHS, DEEP, b"\xff" * 100):
        agent.send("PROPFIND", HOME, body, {"Depth": "0"})
    agent.send("DELETE", HOME)
    env = world.agent_env()
    with caldav.DAVClient(
        url=env["CLAWMARK_CALDAV_URL"], username=env["CLAWMARK_CALDAV_USER"], password=env["CLAWMARK_CALDAV_PASSWORD"]
    ) as client:
        (cal,) = client.principal().calendars()
        cal.save_event(
            dtstart=datetime(2025, 4, 8, 9, tzinfo=timezone.utc),
            dtend=datetime(2025, 4, 8, 10, tzinfo=timezone.utc),
            summary="Still fine",
        )
    assert [e.summary for e in world.calendar.events()] == ["Still fine"]


def test_setup_still_moves_the_seeded_event_when_the_agent_made_a_copy(world: World, agent: Agent) -> None:
    world.calendar.add_event(
        "Ward round",
        datetime(2025, 4, 8, 10, tzinfo=timezone.utc),
        datetime(2025, 4, 8, 11, tzinfo=timezone.utc),
        uid="round@team",
    )
    assert agent.send("MKCALENDAR", HOME + "mine/").status == 201
    copy = ics("round@team").replace(b"20250407T", b"20250408T")
    assert agent.send("PUT", HOME + "mine/copy.ics", copy).status == 201  # same UID, another calendar
    moved = world.calendar.move_event(
        "round@team", datetime(2025, 4, 9, 10, tzinfo=timezone.utc), datetime(2025, 4, 9, 11, tzinfo=timezone.utc)
    )  # used to fail
    assert moved.calendar == DEFAULT and moved.start == datetime(2025, 4, 9, 10, tzinfo=timezone.utc)
